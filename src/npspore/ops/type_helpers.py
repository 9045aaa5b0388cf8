"""Scalar, type and cast helpers of ``mindspore.ops`` / ``ops.functional``: ``is_tensor``, ``scalar_to_array``
(``P.ScalarToArray``), ``Eps``, ``mixed_precision_cast``, the primitive instances ``F.tensor_add``,
``F.tensor_mul`` ... and ``_get_cache_prim`` (``mindspore.ops._primitive_cache``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from .array_functional import scalar_to_tensor
from .eager import run
from .functional import greater, less
from .primitives import Add, Exp, FloorDiv, FloorMod, GreaterEqual, LessEqual, Mul, Pow, RealDiv, Sub, _Stateless

__all__ = ["is_tensor", "scalar_to_array", "mixed_precision_cast", "ScalarToArray", "Eps", "tensor_add",
           "tensor_sub", "tensor_mul", "tensor_div", "tensor_floordiv", "tensor_mod", "tensor_pow", "tensor_exp",
           "tensor_ge", "tensor_le", "tensor_gt", "tensor_lt"]


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a Tensor (a Parameter is one)."""
    return isinstance(obj, Tensor)


def scalar_to_array(input_x: float | int | bool) -> Tensor:
    """The Python number ``input_x`` as a 0-d Float32 Tensor. MindSpore 2.10 deprecates it for
    :func:`scalar_to_tensor` (whose default dtype this is); its own kernel no longer runs.

    Raises:
        TypeError: if ``input_x`` is not an int, float or bool.
    """
    return scalar_to_tensor(input_x)


class ScalarToArray(_Stateless):
    """``ScalarToArray()(x)``: :func:`scalar_to_array` of ``x``."""

    def __call__(self, input_x):
        return scalar_to_array(input_x)


class Eps(_Stateless):
    """``Eps()(x)``: a Tensor of ``x``'s shape and float dtype filled with that dtype's machine epsilon
    (float32: 1.1920929e-07); its gradient to ``x`` is zero.

    Raises:
        TypeError: if ``x`` is not a Tensor of float16, float32 or float64.
    """

    def __call__(self, x):
        if not isinstance(x, Tensor) or x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
            got = f"Tensor[{x.dtype}]" if isinstance(x, Tensor) else type(x).__name__
            raise TypeError(f"For primitive[Eps], the input argument[x] must be a type of {{Tensor[Float16], "
                            f"Tensor[Float32], Tensor[Float64]}}, but got {got}.")
        return run("add", run("zeros_like", x), float(np.finfo(_np_dtype(x.dtype)).eps))


def mixed_precision_cast(dst_dtype: Any, x: Any) -> Any:
    """``x`` with each float Tensor cast to ``dst_dtype``: a Tensor, or a tuple or list of them (nested); other
    values, integer Tensors and dicts come back unchanged, as MindSpore 2.10's."""
    if isinstance(x, Tensor):
        return run("cast", x, dtype=_np_dtype(dst_dtype)) if x.dtype in mstype.float_type else x
    if isinstance(x, (tuple, list)):
        return type(x)(mixed_precision_cast(dst_dtype, item) for item in x)
    return x


# ops.functional's primitive instances and functions of the tensor operators, as MindSpore's
tensor_add, tensor_sub, tensor_mul, tensor_div = Add(), Sub(), Mul(), RealDiv()
tensor_floordiv, tensor_mod, tensor_pow, tensor_exp = FloorDiv(), FloorMod(), Pow(), Exp()
tensor_ge, tensor_le, tensor_gt, tensor_lt = GreaterEqual(), LessEqual(), greater, less
