"""``ops.Custom``: an operator whose computation is a Python function on NumPy arrays (``func_type="pyfunc"``),
with an optional ``bprop``, as MindSpore 2.10 runs it on CPU. ``npspore.ops`` exports it.

``Custom(func, out_shape, out_dtype, "pyfunc", bprop)(*inputs)`` calls ``func`` on the inputs' arrays and
returns its results as Tensors of the shapes and dtypes ``out_shape``/``out_dtype`` give (values, or
functions of the inputs' shapes and dtypes). Inside compiled code the call is a call out of the kernel
(``rt.host_call``), so ``func`` may run any Python. ``bprop(*inputs, out, dout)`` (on Tensors, returning
one gradient per input) makes it differentiable; it is a cell's ``bprop``, compiled into the gradient like
any other. Without ``bprop`` a gradient that reaches the operator raises MindSpore's RuntimeError.

The other kinds (``"aot"`` binaries, ``"hybrid"``/``"akg"``/``"tbe"``/``"aicpu"`` kernels) need MindSpore's
compilers and devices: npspore says so when one is asked for.
"""
from __future__ import annotations

import math

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..compiler.errors import located
from ..compiler.library import LIBRARY
from .cell import Cell

__all__ = ["Custom"]

_FUNC_TYPES = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]
_NO_BPROP = "Illegal primitive Custom's bprop not defined"


class _PyFunc:
    """The call of a pyfunc: ``func`` on arrays, its results checked against ``out_shape``/``out_dtype``."""

    def __init__(self, func, out_shape, out_dtype, prefix: str, differentiable: bool) -> None:
        self.func, self.out_shape, self.out_dtype, self.prefix = func, out_shape, out_dtype, prefix
        self.key = LIBRARY.host_function(self.run, opaque=differentiable,
                                         underivable=None if differentiable else _NO_BPROP)

    def outputs(self, shapes: list, dtypes: list) -> list[tuple[tuple, np.dtype]]:
        """The ``(shape, NumPy dtype)`` of each result for inputs of ``shapes`` and ``dtypes`` (mstype)."""
        shape = self.out_shape(*shapes) if callable(self.out_shape) else self.out_shape
        dtype = self.out_dtype(*dtypes) if callable(self.out_dtype) else self.out_dtype
        if not isinstance(shape, (tuple, list)):
            raise TypeError(f"{self.prefix}, 'out_shape' must be one of [tuple, list, function], but got "
                            f"{type(shape)}")
        if not isinstance(dtype, (mstype.Type, tuple, list)):
            raise TypeError(f"{self.prefix}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, function], "
                            f"but got {type(dtype)}")
        if isinstance(dtype, mstype.Type):
            shapes_out, dtypes_out = [shape], [dtype]
        else:
            shapes_out, dtypes_out = list(shape), list(dtype)
        if len(shapes_out) != len(dtypes_out):
            raise ValueError(f"{self.prefix}, 'out_shape' gives {len(shapes_out)} outputs but 'out_dtype' "
                             f"{len(dtypes_out)}.")
        # an empty shape is a placeholder of shape (1,), as MindSpore makes it
        return [(tuple(int(d) for d in s) or (1,), np.dtype(mstype.dtype_to_nptype(t)))
                for s, t in zip(shapes_out, dtypes_out)]

    def run(self, *arrays) -> tuple:
        """``func`` on ``arrays``, its results as arrays of the declared shapes and dtypes."""
        shapes = [list(np.shape(a)) for a in arrays if isinstance(a, np.ndarray)]
        dtypes = [mstype.nptype_to_dtype(a.dtype) for a in arrays if isinstance(a, np.ndarray)]
        declared = self.outputs(shapes, dtypes)
        results = self.func(*arrays)
        results = results if len(declared) > 1 else (results,)
        if not isinstance(results, (tuple, list)) or len(results) != len(declared):
            raise ValueError(f"{self.prefix}, the function returned {len(results)} values where 'out_dtype' "
                             f"declares {len(declared)}.")
        return tuple(self._declared(i, result, shape, dtype)
                     for i, (result, (shape, dtype)) in enumerate(zip(results, declared)))

    def _declared(self, index: int, result, shape: tuple, dtype: np.dtype) -> np.ndarray:
        if not isinstance(result, np.ndarray):
            result = np.asarray(result, dtype=dtype)   # a Python number: the declared dtype
        if result.dtype != dtype or result.size != math.prod(shape):
            raise RuntimeError(f"{self.prefix}, output {index} of the function has dtype {result.dtype} and shape "
                               f"{result.shape}, but 'out_dtype' and 'out_shape' declare {dtype} and {shape}.")
        return result.reshape(shape)

    def __call__(self, *inputs):
        arrays = [x.asnumpy() if isinstance(x, Tensor) else x for x in inputs]
        results = tuple(Tensor(r) for r in self.run(*arrays))
        return results[0] if len(results) == 1 and not isinstance(self.out_dtype, (tuple, list)) else results


def _stage_pyfunc(call: _PyFunc, specializer, args, kwargs, loc):
    """A pyfunc's call in compiled code: a call out of the kernel returning the declared results."""
    if kwargs:
        raise located(TypeError(f"{call.prefix}, the inputs are positional, but got keywords {sorted(kwargs)}."), loc)
    tensors = [a for a in args if hasattr(a, "aval")]
    shapes = [list(a.aval.shape) for a in tensors]
    dtypes = [mstype.nptype_to_dtype(a.aval.dtype) for a in tensors]
    try:
        declared = call.outputs(shapes, dtypes)
    except (TypeError, ValueError) as error:
        raise located(error, loc) from None
    results = specializer.host_effect(call.key, args, loc, tuple(declared))
    return results[0] if len(results) == 1 and not isinstance(call.out_dtype, (tuple, list)) else results


LIBRARY.register_stager(_PyFunc, _stage_pyfunc)


class Custom(Cell):
    """``Custom(func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None)``: a user
    operator. ``func(*arrays)`` computes its outputs from the NumPy arrays of the inputs.

    Args:
        func (function): the computation, on NumPy arrays; returns an array (or a tuple of them).
        out_shape (Union[function, list, tuple]): the output shape (a tuple of them for several outputs), or a
            function of the inputs' shapes (lists) returning it.
        out_dtype (Union[function, mindspore.dtype, tuple[mindspore.dtype]]): the output dtype (a tuple for
            several outputs), or a function of the inputs' dtypes returning it.
        func_type (str): ``"pyfunc"`` (the only kind npspore runs). Default: ``"pyfunc"``.
        bprop (function, optional): ``bprop(*inputs, out, dout)`` on Tensors, returning the inputs'
            gradients as a tuple. Default: ``None`` (the operator is not differentiable).
        reg_info: accepted for compatibility (registration data of compiled kernels).

    Raises:
        ValueError: If ``func_type`` is not one of MindSpore's kinds.
        NotImplementedError: If ``func_type`` is another kind than ``"pyfunc"``.
        TypeError: If ``func`` is not callable, or (on call) ``out_shape``/``out_dtype`` are of the wrong type.
        RuntimeError: (on call) if the function's output does not have the declared dtype and size; in a
            gradient that reaches an operator without ``bprop``.
    """

    def __new__(cls, func=None, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None):
        if cls is Custom and bprop is not None:
            cls = _CustomWithBprop
        return super().__new__(cls)

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None):
        super().__init__(auto_prefix=False)
        prefix = f"For 'Custom', 'func_type': {func_type}, 'func': {func}"
        if func_type not in _FUNC_TYPES:
            raise ValueError(f"{prefix}, 'func_type' must be one of {_FUNC_TYPES}, but got {func_type}")
        if func_type != "pyfunc":
            raise NotImplementedError(f"{prefix}: 'func_type' {func_type!r} (compiled kernels of MindSpore's "
                                      f"devices) is not implemented in npspore; 'pyfunc' is.")
        if not callable(func):
            raise TypeError(f"'{type(func).__name__}' object is not callable")
        if bprop is not None and not callable(bprop):
            raise TypeError(f"For 'Custom', 'bprop' must be a function, but got {type(bprop).__name__}.")
        self.func, self.func_type, self.out_shape, self.out_dtype = func, func_type, out_shape, out_dtype
        self.reg_info, self.user_bprop = reg_info, bprop
        self.pyfunc = _PyFunc(func, out_shape, out_dtype, prefix, differentiable=bprop is not None)

    def construct(self, *inputs):
        return self.pyfunc(*inputs)

    def __repr__(self) -> str:
        name = getattr(self.func, "__name__", type(self.func).__name__)
        return f"Prim[Custom]<func_name={name}, func_type={self.func_type}>"


class _CustomWithBprop(Custom):
    """A :class:`Custom` given a ``bprop``: the cell's backward is that function."""

    def bprop(self, *args):
        return self.user_bprop(*args)
