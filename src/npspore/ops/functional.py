"""Functional ops, as ``mindspore.ops``: ``ops.add(x, y)``, ``ops.sum(x, 1)``, ``ops.matmul(a, b)`` ...

Each function normalises its static arguments (axes, shapes, dtypes) and applies one op through
:func:`npspore.ops.eager.run`. They are written in the compilable subset, so compiled code steps
into them: static arguments must be Python values (ints, tuples, dtypes), never Tensors.
``assign``/``assign_add``/``assign_sub`` update a Parameter in place through
:func:`npspore.ops.eager.assign`, which compiled code turns into an assignment at each call.
"""
from __future__ import annotations

import functools
from typing import Any

from ..common import dtype as mstype
from ..common.dtype import dtype_to_nptype, dtype_to_pytype, nptype_to_dtype, pytype_to_dtype
from ..common.tensor import Tensor, _axis, _np_dtype
from ..grad import get_grad, grad, value_and_grad  # noqa: F401  (F.grad & co., as mindspore.ops.functional has them)
from ..vectorize import vmap  # noqa: F401  (F.vmap, as mindspore.ops.functional has it)
from ..derivatives import derivative, jacfwd, jacrev, jvp, linearize, vjp
from ..missing_names import module_getattr
from . import eager
from .eager import run
from .shape_queries import shape_of
from . import array_functional as _array_functional
from .array_functional import *  # noqa: F401,F403  (ops.functional.scalar_to_tensor & co.)

__all__ = [*_array_functional.__all__, "jvp", "vjp", "jacfwd", "jacrev", "linearize", "derivative",
    # arithmetic
    "add", "sub", "mul", "div", "true_divide", "floor_div", "floor_divide", "floordiv", "remainder", "mod", "pow",
    "neg", "negative", "abs", "absolute", "square", "sign", "maximum", "minimum",
    # math and activations
    "exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "gelu", "softplus",
    "erf",
    # selection, conversion, comparison, logic
    "where", "clamp", "clip", "cast", "stop_gradient", "equal", "eq", "ne", "not_equal", "less", "lt", "le",
    "less_equal", "greater", "gt", "ge", "greater_equal", "logical_and", "logical_or", "logical_not",
    # reductions
    "sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "all", "any",
    "reduce_sum", "reduce_mean", "reduce_prod", "reduce_max", "reduce_min",
    # shapes
    "shape", "rank", "reshape", "transpose", "permute", "expand_dims", "unsqueeze", "squeeze", "flatten",
    "broadcast_to", "tile", "concat", "cat", "stack", "split", "gather", "masked_select",
    # creation
    "ones", "zeros", "ones_like", "zeros_like", "fill", "full", "one_hot",
    # linear algebra and nn
    "matmul", "batch_matmul", "bmm", "dot", "outer", "softmax", "log_softmax",
    # parameters
    "assign", "assign_add", "assign_sub",
    # dtypes
    "dtype", "dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype", "nptype_to_dtype",
]


# ---------------------------------------------------------------- arithmetic


def dtype(input: Tensor) -> mstype.Type:
    """The dtype of ``input`` (``F.dtype(x)``, as ``x.dtype``), eagerly and in compiled code."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For Primitive[Dtype], the input argument[input_x] must be a Tensor, CSRTensor or COOTensor, "
                        f"but got {type(input)}.")
    return input.dtype


def add(input: Tensor | float, other: Tensor | float) -> Tensor:
    """``input + other``, broadcast, in the promoted dtype (``f16 + 1.5`` stays Float16)."""
    return run("add", input, other)


def sub(input: Tensor | float, other: Tensor | float) -> Tensor:
    """``input - other``, broadcast, in the promoted dtype."""
    return run("sub", input, other)


def mul(input: Tensor | float, other: Tensor | float) -> Tensor:
    """``input * other``, broadcast, in the promoted dtype."""
    return run("mul", input, other)


def div(input, other, *, rounding_mode=None):
    """``input / other``: true division (integers give Float32).

    Args:
        rounding_mode (str): ``None`` (true division), ``'floor'`` or ``'trunc'`` (round toward zero,
            in the input's dtype when it is an integer).

    Raises:
        ValueError: for another ``rounding_mode``.
    """
    if rounding_mode is None:
        return run("div", input, other)
    if rounding_mode == "floor":
        return run("floor_div", input, other)
    if rounding_mode != "trunc":
        raise ValueError(f"For 'div', rounding_mode must be None, 'floor' or 'trunc', but got '{rounding_mode}'.")
    truncated = run("trunc", run("div", input, other))   # a zero divisor's inf stays inf (MindSpore's trunc)
    if input.dtype in mstype.int_type + mstype.uint_type:
        return run("cast", truncated, dtype=_np_dtype(input.dtype))
    return truncated


def true_divide(dividend: Tensor | float, divisor: Tensor | float) -> Tensor:
    """Same as :func:`div`."""
    return run("div", dividend, divisor)


def floor_div(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``x // y``: floor division, Python-style for negative numbers (``[7, -7] // 2`` is ``[3, -4]``)."""
    return run("floor_div", x, y)


def floor_divide(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Same as :func:`floor_div`."""
    return run("floor_div", input, other)


floordiv = floor_divide


def remainder(input: Tensor | float, other: Tensor | float) -> Tensor:
    """``input % other`` with the sign of ``other`` (``[-3, 3] % 2`` is ``[1, 1]``); where an integer ``other``
    is 0, ``input`` (MindSpore's ``x - floor_div(x, y) * y``), unlike ``%`` and ``ops.floor_mod``."""
    return run("remainder", input, other)


mod = remainder


def pow(input: Tensor | float, exponent: Tensor | float) -> Tensor:
    """``input ** exponent`` (``i32 ** 2`` stays Int32, ``i32 ** 0.5`` is Float32)."""
    return run("pow", input, exponent)


def neg(input: Tensor) -> Tensor:
    """``-input``."""
    return run("neg", input)


negative = neg


def abs(input: Tensor) -> Tensor:
    """Elementwise absolute value."""
    return run("abs", input)


absolute = abs


def square(input: Tensor) -> Tensor:
    """Elementwise ``input * input``."""
    return run("square", input)


def sign(input: Tensor) -> Tensor:
    """Elementwise sign: -1, 0 or 1."""
    return run("sign", input)


def maximum(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise maximum, broadcast (a tie gives half the gradient to each side)."""
    return run("maximum", input, other)


def minimum(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise minimum, broadcast (a tie gives half the gradient to each side)."""
    return run("minimum", input, other)


# ---------------------------------------------------------------- math and activations


def exp(input: Tensor) -> Tensor:
    """Elementwise exponential of a float Tensor.

    Raises:
        TypeError: ``Select CPU operator[Exp] fail! Unsupported data type!`` for an integer Tensor.
    """
    return run("exp", input)


def log(input: Tensor) -> Tensor:
    """Elementwise natural logarithm of a float Tensor (integers raise TypeError, as ``exp``)."""
    return run("log", input)


def log1p(input: Tensor) -> Tensor:
    """Elementwise ``log(1 + input)`` of a float Tensor."""
    return run("log1p", input)


def sqrt(input: Tensor) -> Tensor:
    """Elementwise square root of a float Tensor."""
    return run("sqrt", input)


def rsqrt(input: Tensor) -> Tensor:
    """Elementwise ``1 / sqrt(input)`` of a float Tensor."""
    return run("rsqrt", input)


def sin(input: Tensor) -> Tensor:
    """Elementwise sine."""
    return run("sin", input)


def cos(input: Tensor) -> Tensor:
    """Elementwise cosine."""
    return run("cos", input)


def tan(input: Tensor) -> Tensor:
    """Elementwise tangent."""
    return run("tan", input)


def tanh(input: Tensor) -> Tensor:
    """Elementwise hyperbolic tangent."""
    return run("tanh", input)


def sigmoid(input: Tensor) -> Tensor:
    """Elementwise ``1 / (1 + exp(-input))``."""
    return run("sigmoid", input)


def relu(input: Tensor) -> Tensor:
    """Elementwise ``max(input, 0)`` (its gradient at 0 is 0)."""
    return run("relu", input)


def gelu(input_x, approximate="none"):
    """GELU activation: ``x·Φ(x)``, or its tanh approximation with ``approximate='tanh'``.

    Raises:
        ValueError: if ``approximate`` is not ``'none'`` or ``'tanh'``.
    """
    if approximate not in ("none", "tanh"):
        raise ValueError(f"For 'gelu', approximate value should be either 'none' or 'tanh', but got {approximate}.")
    return run("gelu", input_x, approximate=approximate == "tanh")


def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * input)) / beta`` (computed without overflow), and ``input`` itself where
    ``beta * input > threshold`` (MindSpore 2.10's rule: ``softplus(3., 1, 1)`` is 3.)."""
    smooth = run("softplus", input) if beta == 1 else run("div", run("softplus", run("mul", input, beta)), beta)
    return run("where", run("greater", run("mul", input, beta), threshold), input, smooth)


def erf(input: Tensor) -> Tensor:
    """Elementwise Gauss error function (accurate to about 1e-7)."""
    return run("erf", input)


# ---------------------------------------------------------------- selection, conversion, comparison, logic


def _anchored(value, other):
    """``value`` as a Tensor when neither it nor ``other`` is one.

    Two Python scalars alone would make NumPy compute in its default float64/int64; as a Tensor,
    the first gets MindSpore's default dtype and the pair promotes from there.
    """
    if isinstance(value, Tensor) or isinstance(other, Tensor):
        return value
    return Tensor(value)


def where(condition: Tensor, input: Tensor, other: Tensor | float) -> Tensor:
    """Elements of ``input`` where ``condition`` holds, else of ``other`` (all three broadcast)."""
    return run("where", condition, _anchored(input, other), other)


def clamp(input: Tensor, min: Tensor | float | None = None, max: Tensor | float | None = None) -> Tensor:
    """Limit the values to ``[min, max]``; either bound may be ``None``.

    Raises:
        ValueError: if both bounds are ``None``.
    """
    return run("clip", input, min, max)


clip = clamp


def cast(input: Tensor, dtype: Any) -> Tensor:
    """``input`` converted to ``dtype`` (a mindspore dtype; floats to ints truncate)."""
    return run("cast", input, dtype=_np_dtype(dtype))


def stop_gradient(value: Any) -> Any:
    """``value``, with no gradient flowing back through it: a Tensor, each Tensor of a tuple or list (the same
    container type back), or a Python number itself."""
    if isinstance(value, (tuple, list)):
        return type(value)([_stopped(item) for item in value])
    return _stopped(value)


def _stopped(value):
    return run("stop_gradient", value) if isinstance(value, Tensor) else value


def equal(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise ``input == other`` (Bool)."""
    return run("equal", input, other)


eq = equal


def not_equal(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise ``input != other`` (Bool)."""
    return run("not_equal", input, other)


ne = not_equal


def less(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise ``input < other`` (Bool)."""
    return run("less", input, other)


lt = less


def less_equal(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise ``input <= other`` (Bool)."""
    return run("less_equal", input, other)


le = less_equal


def greater(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise ``input > other`` (Bool)."""
    return run("greater", input, other)


gt = greater


def greater_equal(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise ``input >= other`` (Bool)."""
    return run("greater_equal", input, other)


ge = greater_equal


def logical_and(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise logical AND (Bool)."""
    return run("logical_and", input, other)


def logical_or(input: Tensor | float, other: Tensor | float) -> Tensor:
    """Elementwise logical OR (Bool)."""
    return run("logical_or", input, other)


def logical_not(input: Tensor) -> Tensor:
    """Elementwise logical NOT (Bool)."""
    return run("logical_not", input)


# ---------------------------------------------------------------- reductions


def sum(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum over ``dim`` (``None``: all dims; an int, tuple or list).

    Bool and int inputs give Int64 (``ops.sum(int32)`` is Int64); ``dtype`` sets the result dtype.

    Raises:
        ValueError: if a dim is outside ``[-input.ndim, input.ndim)``.
    """
    return run("sum", input, axis=_axis(dim), keepdims=keepdim, dtype=None if dtype is None else _np_dtype(dtype))


def mean(x: Tensor, axis: int | tuple[int, ...] | None = None, keep_dims: bool = False) -> Tensor:
    """Mean over ``axis``; an integer input keeps its dtype, truncated (``mean([1, 2])`` is ``1``)."""
    return run("mean", x, axis=_axis(axis), keepdims=keep_dims)


def prod(input: Tensor, axis: int | tuple[int, ...] | None = None, keep_dims: bool = False,
         dtype: Any = None) -> Tensor:
    """Product over ``axis``; bool and int inputs give Int64 unless ``dtype`` is given."""
    return run("prod", input, axis=_axis(axis), keepdims=keep_dims,
               dtype=None if dtype is None else _np_dtype(dtype))


def _extremum(op, indexed_op, input, axis, keepdims, initial, where, name):
    if where is not None:
        raise ValueError(f"For '{name}', npspore does not support the 'where' argument.")
    if axis is None:
        values = run(op, input)
        indices = run("zeros", shape=(), dtype=_np_dtype(mstype.int64))
    else:
        values, indices = run(indexed_op, input, axis=axis, keepdims=keepdims)
    if initial is not None:
        values = run("maximum" if op == "max" else "minimum", values, initial)
    return values, indices


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """The maximum over ``axis`` and its Int64 index: ``(values, indices)``.

    The index is the first maximum's, and the gradient goes to it. With ``axis=None`` the maximum
    of all elements is returned with the index 0, as MindSpore documents.

    Raises:
        ValueError: if ``where`` is given (not supported).
    """
    return _extremum("max", "max_with_indices", input, axis, keepdims, initial, where, "max")


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """The minimum over ``axis`` and its Int64 index: ``(values, indices)`` (see :func:`max`)."""
    return _extremum("min", "min_with_indices", input, axis, keepdims, initial, where, "min")


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """The maximum over ``axis`` (``None``: all dims; an int or tuple); ties share the gradient."""
    if where is not None:
        raise ValueError("For 'amax', npspore does not support the 'where' argument.")
    values = run("max", input, axis=_axis(axis), keepdims=keepdims)
    return values if initial is None else run("maximum", values, initial)


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """The minimum over ``axis`` (``None``: all dims; an int or tuple); ties share the gradient."""
    if where is not None:
        raise ValueError("For 'amin', npspore does not support the 'where' argument.")
    values = run("min", input, axis=_axis(axis), keepdims=keepdims)
    return values if initial is None else run("minimum", values, initial)


def argmax(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
    """Int64 index of the maximum along ``dim`` (of the flattened input when ``None``)."""
    return run("argmax", input, axis=dim, keepdims=keepdim and dim is not None)


def argmin(input: Tensor, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Tensor:
    """Int32 index (MindSpore's dtype here, unlike :func:`argmax`'s Int64) of the minimum along ``axis`` (of the
    flattened input when ``None``)."""
    index = run("argmin", input, axis=axis, keepdims=keepdims and axis is not None)
    return run("cast", index, dtype=_np_dtype(mstype.int32))


def all(input: Tensor, axis: int | tuple[int, ...] | None = None, keep_dims: bool = False) -> Tensor:
    """Whether all elements along ``axis`` are true (Bool)."""
    return run("all", input, axis=_axis(axis), keepdims=keep_dims)


def any(input: Tensor, axis: int | tuple[int, ...] | None = None, keep_dims: bool = False) -> Tensor:
    """Whether any element along ``axis`` is true (Bool)."""
    return run("any", input, axis=_axis(axis), keepdims=keep_dims)


def reduce_sum(x: Tensor, axis: int | tuple[int, ...] | None = (), keep_dims: bool = False) -> Tensor:
    """Sum over ``axis`` (``()``: all dims), as ``ops.ReduceSum(keep_dims)(x, axis)``."""
    return run("sum", x, axis=_axis(axis), keepdims=keep_dims)


def reduce_mean(x: Tensor, axis: int | tuple[int, ...] | None = (), keep_dims: bool = False) -> Tensor:
    """Mean over ``axis`` (``()``: all dims), as ``ops.ReduceMean``."""
    return run("mean", x, axis=_axis(axis), keepdims=keep_dims)


def reduce_prod(x: Tensor, axis: int | tuple[int, ...] | None = (), keep_dims: bool = False) -> Tensor:
    """Product over ``axis`` (``()``: all dims), as ``ops.ReduceProd``."""
    return run("prod", x, axis=_axis(axis), keepdims=keep_dims)


def reduce_max(x: Tensor, axis: int | tuple[int, ...] | None = (), keep_dims: bool = False) -> Tensor:
    """Maximum over ``axis`` (``()``: all dims), as ``ops.ReduceMax``."""
    return run("max", x, axis=_axis(axis), keepdims=keep_dims)


def reduce_min(x: Tensor, axis: int | tuple[int, ...] | None = (), keep_dims: bool = False) -> Tensor:
    """Minimum over ``axis`` (``()``: all dims), as ``ops.ReduceMin``."""
    return run("min", x, axis=_axis(axis), keepdims=keep_dims)


# ---------------------------------------------------------------- shapes


def shape(input_x):
    """The shape of ``input_x``, a tuple of ints (in compiled code, a dynamic dim's size is read when the kernel
    runs, as ``input_x.shape`` in the caller's code)."""
    return shape_of(input_x)


def rank(input_x):
    """The number of dims of ``input_x``."""
    return len(input_x.shape)


def reshape(input: Tensor, shape: int | tuple[int, ...] | list[int]) -> Tensor:
    """``input`` with a new ``shape`` (a tuple or list; one dim may be ``-1``).

    Raises:
        ValueError: ``... proposed_shape '[const vector]{2, 2}' is invalid for input of size 3``.
    """
    return run("reshape", input, shape=tuple(shape))


def transpose(input: Tensor, input_perm: tuple[int, ...]) -> Tensor:
    """``input`` with its dims permuted by ``input_perm``."""
    return run("transpose", input, axes=tuple(input_perm))


def permute(input: Tensor, axis: int | tuple[int, ...] | None) -> Tensor:
    """Same as :func:`transpose`."""
    return run("transpose", input, axes=tuple(axis))


def expand_dims(input_x: Tensor, axis: int | tuple[int, ...] | None) -> Tensor:
    """``input_x`` with a size-1 dim inserted at ``axis``."""
    return run("expand_dims", input_x, axis=axis)


def unsqueeze(input: Tensor, dim: int | tuple[int, ...] | None) -> Tensor:
    """Same as :func:`expand_dims`."""
    return run("expand_dims", input, axis=dim)


def squeeze(input: Tensor, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``input`` without its size-1 dims (all of them, or those in ``axis``).

    Raises:
        ValueError: if a dim named in ``axis`` is not 1.
    """
    return run("squeeze", input, axis=_axis(axis))


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Merge dims ``start_dim`` .. ``end_dim`` into one (by default all but the first).

    Raises:
        ValueError: if ``order`` is not ``'C'`` or ``'F'``.
    """
    if order not in ("C", "F"):
        raise ValueError(f"For 'flatten', the argument 'order' should be 'C' or 'F', but got '{order}'.")
    if order == "F":
        input = run("transpose", input, axes=None)
    return run("flatten", input, start_dim=start_dim, end_dim=end_dim)


def broadcast_to(input, shape):
    """``input`` broadcast to ``shape``; a ``-1`` in ``shape`` keeps the input's dim.

    Raises:
        ValueError: if ``input`` cannot be broadcast to ``shape``.
    """
    lead = len(shape) - len(input.shape)
    target = tuple([input.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(shape)])
    if -1 in (target[lead:] if lead >= 0 else target):   # a kept dim known only when the kernel runs (a new
        return _array_functional.broadcast_kept(input, target)   # leading -1 is the op's error)
    return run("broadcast_to", input, shape=target)


def tile(input: Tensor, dims: tuple[int, ...]) -> Tensor:
    """``input`` repeated ``dims[i]`` times along each dim."""
    return run("tile", input, reps=tuple(dims))


def concat(tensors: tuple[Tensor, ...] | list[Tensor], axis: int | tuple[int, ...] | None = 0) -> Tensor:
    """The Tensors of ``tensors`` joined along ``axis`` (their dtypes promoted)."""
    return run("concat", *tensors, axis=axis)


cat = concat


def stack(tensors: tuple[Tensor, ...] | list[Tensor], axis: int | tuple[int, ...] | None = 0) -> Tensor:
    """The Tensors of ``tensors`` (all of one shape) stacked along a new ``axis``."""
    return run("stack", *tensors, axis=axis)


def split(tensor, split_size_or_sections, axis=0):
    """``tensor`` cut along ``axis`` into chunks: a tuple of Tensors.

    Args:
        split_size_or_sections (Union[int, tuple(int), list(int)]): the size of each chunk (the
            last one may be smaller), or the list of chunk sizes.

    Raises:
        ValueError: if the chunk sizes do not add up to the dim's size.
    """
    size = tensor.shape[axis]
    if isinstance(split_size_or_sections, int):
        cuts = list(range(split_size_or_sections, size, split_size_or_sections))
    else:
        sections = list(split_size_or_sections)
        total = 0
        cuts = []
        for section in sections:
            total += section
            cuts.append(total)
        if total != size:
            raise ValueError(f"For 'split', the sum of 'split_size_or_sections' {sections} must equal the size "
                             f"{size} of dim {axis} of the tensor.")
        cuts = cuts[:-1]
    return run("split", tensor, indices_or_sections=cuts, axis=axis)


def gather(input_params, input_indices, axis, batch_dims=0):
    """``input_params`` indexed by the int Tensor ``input_indices`` along ``axis``.

    Raises:
        ValueError: if ``batch_dims`` is not 0 (not supported).
    """
    if batch_dims != 0:
        raise ValueError(f"For 'gather', npspore supports only batch_dims=0, but got {batch_dims}.")
    return run("gather", input_params, input_indices, axis=axis)


def masked_select(input, mask):
    """The elements of ``input`` where the bool ``mask`` holds (both broadcast), as a 1-D Tensor."""
    ndim = len(input.shape) if len(input.shape) > len(mask.shape) else len(mask.shape)
    dims = (1,) * (ndim - len(input.shape)) + tuple(input.shape)
    mask_dims = (1,) * (ndim - len(mask.shape)) + tuple(mask.shape)
    target = tuple([d if m == 1 else m for d, m in zip(dims, mask_dims)])
    if input.shape != target:
        input = run("broadcast_to", input, shape=target)
    if mask.shape != target:
        mask = run("broadcast_to", mask, shape=target)
    return run("masked_select", input, mask)


# ---------------------------------------------------------------- creation


def _shape_tuple(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def ones(shape: int | tuple[int, ...] | list[int], dtype: Any = None) -> Tensor:
    """A Tensor of ``shape`` filled with ones, Float32 unless ``dtype`` is given."""
    return run("ones", shape=_shape_tuple(shape), dtype=_np_dtype(mstype.float32 if dtype is None else dtype))


def zeros(size: Any, dtype: Any = None) -> Tensor:
    """A Tensor of shape ``size`` filled with zeros, Float32 unless ``dtype`` is given."""
    return run("zeros", shape=_shape_tuple(size), dtype=_np_dtype(mstype.float32 if dtype is None else dtype))


def ones_like(input: Tensor, *, dtype: Any = None) -> Tensor:
    """Ones with the shape of ``input``, in its dtype unless ``dtype`` is given."""
    return run("ones_like", input, dtype=None if dtype is None else _np_dtype(dtype))


def zeros_like(input: Tensor, *, dtype: Any = None) -> Tensor:
    """Zeros with the shape of ``input``, in its dtype unless ``dtype`` is given."""
    return run("zeros_like", input, dtype=None if dtype is None else _np_dtype(dtype))


def fill(type: Any, shape: int | tuple[int, ...] | list[int], value: Tensor | float) -> Tensor:
    """A Tensor of ``shape`` and dtype ``type`` filled with ``value``."""
    return run("fill", value, shape=_shape_tuple(shape), dtype=_np_dtype(type))


def full(size, fill_value, *, dtype=None):
    """A Tensor of shape ``size`` filled with ``fill_value``, of ``dtype``: without it Int64 whatever the value
    (a float truncated toward zero, a bool as 0 or 1), as MindSpore 2.10's ``ops.full((2, 3), 1.2)`` gives ones."""
    return run("fill", fill_value, shape=_shape_tuple(size), dtype=_np_dtype(mstype.int64 if dtype is None else dtype))


def full_like(input: Tensor, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A Tensor of ``input``'s shape filled with ``fill_value``, in ``input``'s dtype unless ``dtype`` is given
    (a float value in an integer dtype is truncated, as MindSpore 2.10's ``ops.full_like(arange(4), 1.2)``).

    Raises:
        TypeError: if ``input`` is not a Tensor.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"For ops.full_like, the argument 'x' must be tensor, but got {type(input)}")
    return run("fill", fill_value, shape=input.shape, dtype=_np_dtype(input.dtype if dtype is None else dtype))


def one_hot(indices: Tensor, depth: int, on_value: Tensor | float = 1, off_value: Tensor | float = 0,
            axis: int | tuple[int, ...] | None = -1) -> Tensor:
    """``on_value`` at the position each of ``indices`` names along a new ``axis`` of size ``depth``."""
    return run("one_hot", indices, _anchored(on_value, off_value), off_value, depth=depth, axis=axis)


# ---------------------------------------------------------------- linear algebra and nn


def matmul(input: Tensor | float, other: Tensor | float) -> Tensor:
    """The matrix product, NumPy-style: 1-D operands are vectors, batch dims broadcast.

    Raises:
        RuntimeError: ``For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got 3 and 2.``
    """
    return run("matmul", input, other)


def batch_matmul(x: Tensor, y: Tensor | float, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """Batched matrix product of Tensors of rank 3 or more (optionally transposing the last two dims)."""
    return run("batch_matmul", x, y, transpose_a=transpose_a, transpose_b=transpose_b)


def bmm(input_x: Tensor, mat2: Tensor) -> Tensor:
    """Batched matrix product of two Tensors of rank 3 or more."""
    return run("batch_matmul", input_x, mat2)


def dot(input, other):
    """The dot product over the last dim of ``input`` and the second-to-last of ``other`` (NumPy's ``dot``)."""
    if len(other.shape) <= 2:
        return run("dot", input, other)
    ndim = len(other.shape)
    moved = run("transpose", other, axes=(ndim - 2,) + tuple(range(ndim - 2)) + (ndim - 1,))
    product = run("matmul", input, run("reshape", moved, shape=(other.shape[-2], -1)))
    return run("reshape", product, shape=input.shape[:-1] + other.shape[:-2] + other.shape[-1:])


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of two 1-D Tensors: shape ``(n, m)``."""
    return run("outer", input, vec2)


def softmax(input, axis=-1, *, dtype=None):
    """``exp(input) / sum(exp(input), axis)``, computed without overflow; ``dtype`` casts the input first."""
    if dtype is not None:
        input = run("cast", input, dtype=_np_dtype(dtype))
    return run("softmax", input, axis=axis)


def log_softmax(logits: Tensor, axis: int | tuple[int, ...] | None = -1) -> Tensor:
    """``logits - log(sum(exp(logits), axis))``, computed without overflow."""
    return run("log_softmax", logits, axis=axis)


# ---------------------------------------------------------------- parameters


def assign(variable, value):
    """Write ``value`` into the Parameter ``variable`` in place; returns ``variable``."""
    return eager.assign(variable, value)


def assign_add(variable, value):
    """``variable += value`` in place; returns ``variable``."""
    return eager.assign(variable, run("add", variable, value))


def assign_sub(variable, value):
    """``variable -= value`` in place; returns ``variable``."""
    return eager.assign(variable, run("sub", variable, value))


# what mindspore.ops.functional also holds of the other ops modules (F.depend, F.select, F.clip_by_value ...)
from .nn_functional import clip_by_global_norm, clip_by_value, depend, select  # noqa: E402,F401

def partial(func, *args):
    """``func`` with its first arguments fixed (``ops.partial``): calling the result with ``rest``
    calls ``func(*args, *rest)``, eagerly and in compiled code.

    Raises:
        TypeError: If `func` is not callable.
    """
    if not callable(func):
        raise TypeError(f"For 'partial', the argument 'func' must be callable, but got {type(func).__name__}.")
    return functools.partial(func, *args)


__all__ += ["partial"]
__all__ += ["full_like"]  # primtable

# what mindspore.ops.functional holds of mindspore.ops besides the above (the same objects in MindSpore 2.10)
_SHARED_WITH_OPS = (
    "AdaptiveMaxPool2D", "Primitive", "Roll", "UniqueConsecutive", "adaptive_avg_pool2d", "adaptive_max_pool2d",
    "avg_pool1d", "avg_pool2d", "avg_pool3d", "batch_norm", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "celu", "cholesky", "cholesky_inverse", "cholesky_solve", "chunk",
    "clip_by_norm", "conv1d", "conv2d", "conv3d", "conv_transpose2d", "cosine_embedding_loss", "crop_and_resize",
    "cross_entropy", "deformable_conv2d", "dense", "det", "dropout", "dropout2d", "dstack", "eig", "eigvals", "elu",
    "fast_gelu", "flash_attention_score", "geqrf", "grid_sample", "group_norm", "hardshrink", "hardsigmoid",
    "hardswish", "huber_loss", "index_add", "index_select", "inplace_add", "interpolate", "iou", "kl_div",
    "layer_norm", "leaky_relu", "log_matrix_determinant", "logcumsumexp", "logdet", "logsigmoid", "lrn", "lstsq",
    "lu_solve", "lu_unpack", "matrix_band_part", "matrix_determinant", "matrix_diag", "matrix_diag_part",
    "matrix_exp", "matrix_power", "matrix_set_diag", "matrix_solve", "max_pool2d", "max_pool3d", "mirror_pad",
    "mish", "mse_loss", "multinomial", "nan_to_num", "narrow", "nextafter", "nll_loss", "nonzero", "orgqr", "ormqr",
    "polar", "pows", "prelu", "print_", "qr", "rand_like", "randint", "randn_like", "randperm", "range", "ravel",
    "repeat_interleave", "reverse_sequence", "rms_norm", "roll", "scatter_add", "scatter_nd_add",
    "scatter_nd_update", "scatter_update", "searchsorted", "selu", "shuffle", "silu", "slogdet", "smooth_l1_loss",
    "softshrink", "softsign", "standard_laplace", "svd", "swapaxes", "tensor_scatter_add", "tensor_scatter_div",
    "tensor_scatter_elements", "tensor_scatter_max", "tensor_scatter_min", "tensor_scatter_mul",
    "tensor_scatter_sub", "tensor_scatter_update", "threshold", "topk", "tril", "triu", "unbind", "unique",
    "view_as_real",
)
__getattr__ = module_getattr("mindspore.ops.functional", globals(),
                             elsewhere={name: f"npspore.ops.{name}" for name in _SHARED_WITH_OPS})
