"""Shape and dtype rules of the op table: the ``infer`` and ``operand_dtype`` functions of each op.

A rule receives one value per operand: an *array-like* for a tensor (an :class:`~npspore.opdef.Aval`
while compiling, the ``numpy.ndarray`` itself in eager mode; both have ``shape``, ``ndim`` and
``dtype``), or a constant: a *weak* Python scalar (``bool``, ``int``, ``float``), a list, ``None``.
Static attributes (``axis=``, ``shape=`` ...) come as keywords. An ``infer`` rule returns an
:class:`~npspore.opdef.Aval` (a tuple of them for multi-output ops) and raises MindSpore's exception
type with a message naming the shapes or dtypes involved. A ``None`` dim is dynamic: rules let it
flow through and skip the checks they cannot make.

Dtype promotion is MindSpore's (measured on 2.10, semantics doc §11.4):

* between tensors, the higher *kind* wins whatever its width (bool < int < float: ``i32 + f16`` is
  float16); within a kind the wider type wins, and ``uint8 + int8`` is int16;
* a Python scalar is weak: it keeps the tensor's dtype when its kind is not higher (``f16 + 1.5`` is
  float16, ``u8 + 300`` wraps in uint8), and otherwise gives the default dtype of its kind
  (``i64 + 1.5`` is float32, ``bool + 1`` is int64);
* lists and tuples are tensors of MindSpore's default dtypes (floats float32, ints int64).

``operand_dtype`` rules return the dtype that tensor operands must be cast to so that NumPy (1.26
or 2.x) computes exactly the inferred dtype, or ``None`` when no operand needs a cast.
"""
from __future__ import annotations

import numpy as np

from .opdef import Aval, OpShapeError, OpTypeError, op_table

__all__ = [
    "OpIndexError", "OpRuntimeError",
    "dtype_of", "shape_of", "constant_array", "fit_int", "promote",
    "broadcast_shapes", "reduction_axes", "normalize_axis",
    "arithmetic", "true_division", "comparison", "logical", "to_bool", "same_dtype", "float_only", "cast",
    "where", "clip", "common_dtype", "true_division_dtype", "common_dtype_after",
    "reduction", "reduction_with_indices", "arg_reduction",
    "reshape", "transpose", "copy", "expand_dims", "squeeze", "flatten", "broadcast_to", "tile", "concat",
    "stack", "split", "getitem", "getitem_grad", "gather", "gather_grad", "masked_select",
    "masked_select_grad", "filled", "filled_like", "fill", "one_hot", "class_indices",
    "matmul", "dot", "outer", "softmax", "log_softmax_probs", "softmax_cross_entropy",
    # optimize's batched outer products
    "outer_product",
]


class OpIndexError(OpShapeError, IndexError):
    """An index is out of range: an ``IndexError``, as MindSpore raises."""


class OpRuntimeError(OpShapeError, RuntimeError):
    """A shape check that MindSpore reports as ``RuntimeError`` (``ops.matmul``)."""


# ---------------------------------------------------------------------------------------- operands

_WEAK_KIND = {bool: 0, int: 1, float: 2}
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_DEFAULT_OF_KIND = {0: np.dtype(np.bool_), 1: np.dtype(np.int64), 2: np.dtype(np.float32)}


def constant_array(value) -> np.ndarray:
    """A list/tuple constant as the array MindSpore makes of it (floats float32, ints int64)."""
    array = np.asarray(value)
    if array.dtype == np.float64:
        return array.astype(np.float32)
    if array.dtype.kind == "i" and array.dtype != np.int64:
        return array.astype(np.int64)
    return array


def strong_scalar(value):
    """An operand of an op that does not promote weakly, as MindSpore takes it: a Python scalar becomes a
    0-d array of its default dtype (a Float64 ``x > 0.1`` compares with 0.1 in Float32, eager and compiled,
    as MindSpore 2.10 does); any other operand is returned as it is."""
    if type(value) in _WEAK_KIND:
        return np.asarray(value, _DEFAULT_OF_KIND[_WEAK_KIND[type(value)]])
    return value


def taken_operands(op: str, operands) -> tuple:
    """``operands`` as op ``op`` takes them when staged: an op that does not promote weakly (no
    ``operand_dtype`` rule) takes a Python float as Float32, as eager mode does (:func:`strong_scalar`), so
    a Float64 ``x > 0.1`` compares alike eager and compiled; a float that Float32 holds exactly, and any
    other operand, stays as it is (the generated code keeps its literal). An unknown ``op`` keeps them all."""
    table = op_table()
    if op not in table or table[op].operand_dtype is not None:
        return tuple(operands)
    return tuple(strong_scalar(o) if type(o) is float and not _exact_in_float32(o) else o for o in operands)


def _exact_in_float32(value: float) -> bool:
    with np.errstate(over="ignore"):
        return float(np.float32(value)) == value


def dtype_of(value) -> np.dtype:
    """The dtype of an operand: its own, or the default dtype of a Python scalar or list."""
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        return dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)
    kind = _WEAK_KIND.get(type(value))
    if kind is not None:
        return _DEFAULT_OF_KIND[kind]
    if isinstance(value, (list, tuple)):
        return constant_array(value).dtype
    raise OpTypeError(f"expected a Tensor or a number as an operand, but got {type(value).__name__}")


def shape_of(value) -> tuple:
    """The shape of an operand (``()`` for a Python scalar)."""
    shape = getattr(value, "shape", None)
    if shape is not None:
        return shape if type(shape) is tuple else tuple(shape)
    if isinstance(value, (list, tuple)):
        return np.shape(value)
    return ()


def fit_int(value: int, dtype: np.dtype) -> int:
    """Wrap a Python int into the range of the integer ``dtype`` (MindSpore: ``u8 + 300`` wraps to 44).

    NumPy 2 rejects out-of-range Python ints (``OverflowError``) and NumPy 1.26 widens the result;
    wrapping the scalar first gives MindSpore's result under both.
    """
    info = np.iinfo(dtype)
    if info.min <= value <= info.max:
        return value
    span = info.max - info.min + 1
    return (value - info.min) % span + info.min


def _kind(dtype: np.dtype) -> int:
    return _KIND_RANK[dtype.kind]


_PAIR_CACHE: dict = {}


def _promote_pair(a: np.dtype, b: np.dtype) -> np.dtype:
    """MindSpore's promotion of two tensor dtypes."""
    if a == b:
        return a
    key = (a, b)
    found = _PAIR_CACHE.get(key)
    if found is None:
        ka, kb = _kind(a), _kind(b)
        if ka != kb:
            found = a if ka > kb else b
        else:
            found = np.promote_types(a, b)
            if ka == 1 and found.kind == "f":   # uint64 with a signed int: NumPy gives float64
                found = np.dtype(np.int64)
        _PAIR_CACHE[key] = found
    return found


def promote(*operands) -> np.dtype:
    """The dtype MindSpore computes ``operands`` in (``None`` operands are skipped)."""
    strong = None
    weak = -1
    for value in operands:
        if value is None:
            continue
        kind = _WEAK_KIND.get(type(value))
        if kind is not None:
            weak = kind if kind > weak else weak
            continue
        dtype = dtype_of(value)
        strong = dtype if strong is None else _promote_pair(strong, dtype)
    if strong is None:
        return _DEFAULT_OF_KIND[max(weak, 0)]
    if weak > _kind(strong):
        return _DEFAULT_OF_KIND[weak]
    return strong


def _unsupported(name: str) -> OpTypeError:
    return OpTypeError(f"Select CPU operator[{name}] fail! Unsupported data type!")


# ---------------------------------------------------------------------------------------- shapes


def _text(shape) -> str:
    """A shape as MindSpore prints it: ``[2, 3]`` (``-1`` for a dynamic dim)."""
    return "[" + ", ".join("-1" if d is None else str(d) for d in shape) + "]"


def broadcast_shapes(name: str, *shapes, names=("input", "other")) -> tuple:
    """The NumPy broadcast of ``shapes``; ``None`` dims are dynamic.

    Raises:
        OpShapeError: ``For 'Mul', input.shape and other.shape need to broadcast. ...``.
    """
    first = shapes[0]
    if all(s == first for s in shapes[1:]):
        return tuple(first)
    ndim = max(len(s) for s in shapes)
    result: list[int | None] = []
    for axis in range(-ndim, 0):
        dim: int | None = 1
        for k, shape in enumerate(shapes):
            d = shape[axis] if len(shape) >= -axis else 1
            if d == 1 or d == dim or d is None:
                continue
            if dim == 1 or dim is None:
                dim = d
                continue
            j = next(j for j in range(k) if len(shapes[j]) >= -axis and shapes[j][axis] not in (1, None, d))
            a, b = (names[j], names[k]) if k < len(names) else ("input", "other")
            raise OpShapeError(
                f"For '{name}', {a}.shape and {b}.shape need to broadcast. The value of {a}.shape[{axis}] "
                f"or {b}.shape[{axis}] must be 1 or -1 when they are not the same, but got "
                f"{a}.shape={_text(shapes[j])} and {b}.shape={_text(shape)}.")
        if dim == 1 and any(len(s) >= -axis and s[axis] is None for s in shapes):
            dim = None
        result.append(dim)
    return tuple(result)


def normalize_axis(name: str, axis, ndim: int, what: str = "axis") -> int:
    """``axis`` as a non-negative int below ``ndim``.

    Raises:
        OpTypeError: if ``axis`` is not an int.
        OpShapeError: if it is outside ``[-ndim, ndim)``.
    """
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise OpTypeError(f"For '{name}', the '{what}' must be an int, but got {type(axis).__name__}.")
    if not -ndim <= axis < ndim:
        raise OpShapeError(f"For '{name}', the '{what}' must be in range [{-ndim}, {ndim}), but got {axis}.")
    return int(axis) % ndim


def reduction_axes(name: str, axis, ndim: int, scalar_as_vector: bool = False) -> tuple:
    """The sorted non-negative axes a reduction over ``axis`` (``None``, int or tuple) removes. With
    ``scalar_as_vector`` (MindSpore's reductions), a 0-d input takes the axes of a 1-d one and loses none.

    Raises:
        OpShapeError: for an axis out of range or a repeated axis.
    """
    if axis is None:
        return tuple(range(ndim))
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if ndim == 0 and scalar_as_vector:
        for a in items:
            normalize_axis(name, a, 1)
        return ()
    axes = tuple(sorted(normalize_axis(name, a, ndim) for a in items))
    if len(set(axes)) != len(axes):
        raise OpShapeError(f"For '{name}', the 'axis' has duplicate values: {tuple(items)}.")
    return axes


def _reduced(shape: tuple, axes: tuple, keepdims: bool) -> tuple:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _static_shape(name: str, shape, what: str = "shape") -> tuple:
    """A shape attribute (an int or a sequence of ints/``None``) as a tuple."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    if not isinstance(shape, (tuple, list)) or not all(
            d is None or (isinstance(d, (int, np.integer)) and not isinstance(d, bool)) for d in shape):
        raise OpTypeError(f"For '{name}', the '{what}' must be a tuple of ints, but got {shape!r}.")
    return tuple(None if d is None else int(d) for d in shape)


def _size(shape) -> int | None:
    size = 1
    for d in shape:
        if d is None:
            return None
        size *= d
    return size


# ---------------------------------------------------------------------------------------- elementwise


def arithmetic(name: str, *, bool_ok: bool = True):
    """The rule of a broadcasting binary op computed in the promoted dtype (``add``, ``mul`` ...).

    ``bool_ok=False``: bool ⊕ bool is rejected (``sub``, ``floor_div``, ``mod``, ``pow``).
    """
    def infer(x, y):
        dtype = promote(x, y)
        if dtype.kind == "b" and not bool_ok:
            raise _unsupported(name)
        return Aval(broadcast_shapes(name, shape_of(x), shape_of(y)), dtype)

    infer.__qualname__ = f"arithmetic({name!r})"
    return infer


def _float_result(dtype: np.dtype) -> np.dtype:
    return dtype if dtype.kind in "fc" else np.dtype(np.float32)


def true_division(name: str):
    """The rule of true division: the promoted dtype, float32 when that is bool or int."""
    def infer(x, y):
        return Aval(broadcast_shapes(name, shape_of(x), shape_of(y)), _float_result(promote(x, y)))

    infer.__qualname__ = f"true_division({name!r})"
    return infer


def comparison(name: str):
    """The rule of a broadcasting comparison: a bool result."""
    def infer(x, y):
        promote(x, y)
        return Aval(broadcast_shapes(name, shape_of(x), shape_of(y)), np.bool_)

    infer.__qualname__ = f"comparison({name!r})"
    return infer


logical = comparison


def to_bool(x):
    """The rule of ``logical_not``: the operand's shape, bool."""
    return Aval(shape_of(x), np.bool_)


def same_dtype(name: str, *, bool_ok: bool = True):
    """The rule of a unary op whose result has its operand's shape and dtype."""
    def infer(x):
        dtype = dtype_of(x)
        if dtype.kind == "b" and not bool_ok:
            raise _unsupported(name)
        return Aval(shape_of(x), dtype)

    infer.__qualname__ = f"same_dtype({name!r})"
    return infer


def real_part(name: str):
    """The rule of ``real``: a complex operand's real dtype of its precision; a real one's own dtype.

    Raises:
        OpTypeError: ``For 'Real', the 'x' must be a complex64 or complex128 Tensor, but got ...``.
    """
    def infer(x):
        dtype = dtype_of(x)
        if dtype.kind == "c":
            return Aval(shape_of(x), np.dtype(f"f{dtype.itemsize // 2}"))
        if dtype.kind not in "fiub":
            raise OpTypeError(f"For '{name}', the 'x' must be a complex64 or complex128 Tensor, but got {dtype}.")
        return Aval(shape_of(x), dtype)

    infer.__qualname__ = f"real_part({name!r})"
    return infer


def float_only(name: str, *, complex_ok: bool = False):
    """The rule of a unary float op: integers and bools are rejected, with no promotion; complex numbers too
    unless ``complex_ok`` (MindSpore 2.10's CPU kernels of Exp, Log and Sqrt take them).

    Raises:
        OpTypeError: ``Select CPU operator[Exp] fail! Unsupported data type!``.
    """
    kinds = "fc" if complex_ok else "f"

    def infer(x, **static):
        dtype = dtype_of(x)
        if dtype.kind not in kinds:
            raise _unsupported(name)
        return Aval(shape_of(x), dtype)

    infer.__qualname__ = f"float_only({name!r})"
    return infer


def float_of_integers(name: str, *, complex_ok: bool = False):
    """The rule of a unary float op that computes integers and bools in float32 (MindSpore 2.10's ``Sqrt``:
    ``sqrt(Tensor(11))`` is Float32 ``3.3166249``); complex numbers are rejected unless ``complex_ok`` (its Sqrt
    takes them).

    Raises:
        OpTypeError: ``Select CPU operator[Sqrt] fail! Unsupported data type!`` for a complex operand.
    """
    kinds = "biufc" if complex_ok else "biuf"

    def infer(x, **static):
        dtype = dtype_of(x)
        if dtype.kind not in kinds:
            raise _unsupported(name)
        return Aval(shape_of(x), _float_result(dtype))

    infer.__qualname__ = f"float_of_integers({name!r})"
    return infer


def float_operand_dtype(x, **static):
    """``operand_dtype`` of :func:`float_of_integers` ops: an integer or bool operand is cast to float32 first."""
    return _cast_target((x,), _float_result(dtype_of(x)))


def float_binary(name: str):
    """The rule of a broadcasting binary float op (``atan2``): the promoted dtype, which must be a float.

    Raises:
        OpTypeError: ``Select CPU operator[Atan2] fail! Unsupported data type!``.
    """
    def infer(x, y):
        dtype = promote(x, y)
        if dtype.kind != "f":
            raise _unsupported(name)
        return Aval(broadcast_shapes(name, shape_of(x), shape_of(y)), dtype)

    infer.__qualname__ = f"float_binary({name!r})"
    return infer


def square_matrix(name: str, scalar: bool = False):
    """The rule of a function of square float matrices in the last two dims (``matrix_inverse``): the operand's
    shape and dtype; with ``scalar``, one number per matrix (``matrix_determinant``): the batch dims.

    Raises:
        OpTypeError: ``For primitive[MatrixInverse], the input argument[x] must be a type of {...}, but got
            Tensor[Int32].``
        OpShapeError: ``For primitive[MatrixInverse], the attribute[row size] must be equal to 2, but got 3.``
    """
    def infer(x):
        shape = shape_of(x)
        if dtype_of(x).kind != "f" or dtype_of(x) == np.float16:
            raise OpTypeError(f"For primitive[{name}], the input argument[x] must be a type of {{Tensor[Float32], "
                              f"Tensor[Float64]}}, but got Tensor[{_ms_name(dtype_of(x))}].")
        if len(shape) < 2:
            raise OpShapeError(f"For primitive[{name}], the rank of the input must be at least 2, but got "
                               f"{len(shape)}.")
        if shape[-1] != shape[-2]:
            raise OpShapeError(f"For primitive[{name}], the attribute[row size] must be equal to {shape[-2]}, but "
                               f"got {shape[-1]}.")
        return Aval(shape[:-2] if scalar else shape, dtype_of(x))

    infer.__qualname__ = f"square_matrix({name!r}, scalar={scalar})"
    return infer


_INTEGER_TENSORS = ("{Tensor[Bool], Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt16], "
                    "Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]}")


def integer_binary(name: str, *, bool_ok: bool = True, same_dtype: bool = False):
    """The rule of a broadcasting binary op of integers (bitwise ops, shifts, ``gcd``): the promoted dtype;
    ``bool_ok=False`` rejects bools, ``same_dtype=True`` two Tensors of different dtypes (the shifts).

    Raises:
        OpTypeError: ``For primitive[BitwiseAnd], the input argument[x] must be a type of {...}, but got
            Tensor[Float32].``, or the shifts' ``the dtype of two args should be same``.
    """
    def infer(x, y):
        for arg, value in (("x", x), ("y", y)):
            kind = dtype_of(value).kind
            if kind not in "iu" and not (kind == "b" and bool_ok):
                raise OpTypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                                  f"{_INTEGER_TENSORS}, but got Tensor[{_ms_name(dtype_of(value))}].")
        strong = [dtype_of(v) for v in (x, y) if type(v) not in _WEAK_KIND]
        if same_dtype and len(strong) == 2 and strong[0] != strong[1]:
            raise OpTypeError(f"For '{name}', the dtype of two args should be same, but the first arg dtype "
                              f"{_ms_name(strong[0])} are not consistent with second arg dtype {_ms_name(strong[1])}")
        return Aval(broadcast_shapes(name, shape_of(x), shape_of(y)), promote(x, y))

    infer.__qualname__ = f"integer_binary({name!r})"
    return infer


def _ms_name(dtype: np.dtype) -> str:
    """MindSpore's name of a NumPy dtype (``Int32``, ``UInt8``, ``Float32``, ``Bool``)."""
    name = np.dtype(dtype).name
    return "Bool" if name == "bool" else "UInt" + name[4:] if name.startswith("uint") else name.capitalize()


def cast(x, *, dtype):
    """``cast``: the operand's shape in ``dtype``."""
    return Aval(shape_of(x), np.dtype(dtype))


def where(condition, x, y):
    """``where``: the broadcast of the three shapes, in the promotion of ``x`` and ``y``."""
    shape = broadcast_shapes("Select", shape_of(condition), shape_of(x), shape_of(y),
                             names=("condition", "input", "other"))
    return Aval(shape, promote(x, y))


def clip(x, a_min, a_max):
    """``clip``: the broadcast shape in the promoted dtype; ``None`` bounds are absent.

    Raises:
        OpShapeError: if both bounds are ``None``.
    """
    if a_min is None and a_max is None:
        raise OpShapeError("For 'clamp', at least one of 'min' or 'max' must not be None.")
    if getattr(x, "dtype", None) is None:
        raise OpTypeError(f"For 'clamp', the 'input' must be a Tensor, but got {type(x).__name__}.")
    shapes = [shape_of(v) for v in (x, a_min, a_max) if v is not None]
    return Aval(broadcast_shapes("clamp", *shapes), promote(x, a_min, a_max))


def common_dtype(*operands, **static):
    """``operand_dtype`` of ops computed in the promoted dtype: it, if some tensor operand differs."""
    return _cast_target(operands, promote(*operands))


def power_dtype(x, y):
    """``operand_dtype`` of ``pow``: integer powers are computed in float64 and cast back, as MindSpore
    does (so ``i32 ** -1`` truncates ``1 / x`` instead of raising, and overflow gives the C cast's value)."""
    target = promote(x, y)
    if target.kind in "iu":
        return np.dtype(np.float64)
    return _cast_target((x, y), target)


def true_division_dtype(x, y):
    """``operand_dtype`` of true division: operands are cast to the (float) result dtype."""
    return _cast_target((x, y), _float_result(promote(x, y)))


def common_dtype_after(skip: int):
    """``operand_dtype`` of ops whose first ``skip`` operands take no part in the promotion."""
    def operand_dtype(*operands, **static):
        return _cast_target(operands[skip:], promote(*operands[skip:]))

    operand_dtype.__qualname__ = f"common_dtype_after({skip})"
    return operand_dtype


def _cast_target(operands, target: np.dtype):
    for value in operands:
        dtype = getattr(value, "dtype", None)
        if dtype is not None and dtype != target:
            return target
    return None


# ---------------------------------------------------------------------------------------- reductions


def _reduced_dtype(name: str, result: str, dtype: np.dtype) -> np.dtype:
    if result == "sum" and dtype.kind in "bi":
        return np.dtype(np.int64)
    if result == "sum" and dtype.kind == "u":
        return np.dtype(np.uint64)
    if result == "mean" and dtype.kind == "b":
        raise _unsupported(name)
    if result == "bool":
        return np.dtype(np.bool_)
    return dtype


def reduction(name: str, result: str = "same"):
    """The rule of a reduction over ``axis`` (``None``, int or tuple) with ``keepdims``.

    ``result`` names the result dtype: ``"same"`` (max, min), ``"sum"`` (sum, prod: bool and int
    give int64), ``"mean"`` (the input's, ints truncate; bool rejected), ``"bool"`` (all, any). An
    explicit ``dtype=`` attribute (sum, prod) wins.
    """
    def infer(x, *, axis=None, keepdims=False, dtype=None):
        shape = shape_of(x)
        axes = reduction_axes(name, axis, len(shape), scalar_as_vector=True)
        out_dtype = np.dtype(dtype) if dtype is not None else _reduced_dtype(name, result, dtype_of(x))
        return Aval(_reduced(shape, axes, keepdims), out_dtype)

    infer.__qualname__ = f"reduction({name!r})"
    return infer


def arg_reduction(name: str):
    """The rule of ``argmax``/``argmin``: int64 indices over one axis (or the flattened input)."""
    def infer(x, *, axis=None, keepdims=False):
        if isinstance(axis, (tuple, list)):
            raise OpTypeError(f"For '{name}', the 'axis' must be an int or None, but got {axis!r}.")
        shape = shape_of(x)
        axes = reduction_axes(name, axis, len(shape), scalar_as_vector=True)
        return Aval(_reduced(shape, axes, keepdims), np.int64)

    infer.__qualname__ = f"arg_reduction({name!r})"
    return infer


def reduction_with_indices(name: str):
    """The rule of ``max_with_indices``/``min_with_indices``: ``(values, int64 indices)``."""
    index_rule = arg_reduction(name)

    def infer(x, *, axis=None, keepdims=False):
        indices = index_rule(x, axis=axis, keepdims=keepdims)
        return Aval(indices.shape, dtype_of(x)), indices

    infer.__qualname__ = f"reduction_with_indices({name!r})"
    return infer


# ---------------------------------------------------------------------------------------- shape ops


def dim_size(x, *, axis):
    """``dim_size``: the size of dim ``axis`` of ``x`` at run time (a dynamic dim), an int64 scalar."""
    ndim = len(shape_of(x))
    if not isinstance(axis, int) or not -ndim <= axis < ndim:
        raise OpShapeError(f"For 'Shape', the axis must be in [-{ndim}, {ndim}), but got {axis}.")
    return Aval((), np.dtype(np.int64))


def dim_range(x, *, axis):
    """``dim_range``: ``0 .. n - 1`` for the size ``n`` of dim ``axis`` of ``x`` (dynamic where that dim is), int64."""
    shape = shape_of(x)
    if not isinstance(axis, int) or not -len(shape) <= axis < len(shape):
        raise OpShapeError(f"For 'Range', the axis must be in [-{len(shape)}, {len(shape)}), but got {axis}.")
    return Aval((shape[axis],), np.dtype(np.int64))


def reshape_like(x, like):
    """``reshape_like``: ``x`` with ``like``'s shape, which has dims known only at run time (their element counts
    match: ``like`` is the array ``x`` was reshaped from)."""
    shape = shape_of(like)
    old, new = shape_of(x), shape
    if None not in old and None not in new and _size(old) != _size(new):
        raise OpShapeError(f"For 'Reshape', the input shape is {_text(old)}: it cannot take the shape {_text(new)}.")
    return Aval(tuple(new), dtype_of(x))


def reshape_keeping(x, *, shape):
    """``reshape_keeping``: :func:`reshape` where a ``None`` keeps the input's dim at its position (ONNX's ``0``)."""
    old, new = shape_of(x), _static_shape("Reshape", shape)
    if None in new[len(old):]:
        raise OpShapeError(f"For 'Reshape', a kept dim (None) must be a dim of the input of shape {_text(old)}, "
                           f"but got {new}.")
    kept = {i for i, d in enumerate(new) if d is None}
    rest = reshape(Aval(tuple(d for i, d in enumerate(old) if i not in kept), dtype_of(x)),
                   shape=tuple(d for d in new if d is not None))   # the dims not kept, as a reshape of their own
    dims = iter(rest.shape)
    return Aval(tuple(old[i] if d is None else next(dims) for i, d in enumerate(new)), dtype_of(x))


def reshape(x, *, shape):
    """``reshape``: one dim may be ``-1``.

    Raises:
        OpShapeError: ``... proposed_shape '[const vector]{2, 2}' is invalid for input of size 3``.
    """
    old = shape_of(x)
    new = _static_shape("Reshape", shape)
    if [d for d in new if d is not None and d < -1] or new.count(-1) > 1:
        raise OpShapeError(f"For 'Reshape', each dim of 'shape' must be -1 or non-negative, with at most one -1, "
                           f"but got {new}.")
    size = _size(old)
    known = _size(d for d in new if d != -1)
    proposed = ", ".join(str(-1 if d is None else d) for d in new)
    invalid = OpShapeError(f"For 'Reshape', the input shape is {_text(old)}: proposed_shape "
                           f"'[const vector]{{{proposed}}}' is invalid for input of size {size}")
    if -1 in new:
        if size is None or known is None:
            missing = None
        elif known == 0 or size % known:
            raise invalid
        else:
            missing = size // known
        return Aval(tuple(missing if d == -1 else d for d in new), dtype_of(x))
    if size is not None and known is not None and size != known:
        raise invalid
    return Aval(new, dtype_of(x))


def transpose(x, *, axes=None):
    """``transpose``: ``axes`` is a permutation of the dims (``None`` reverses them)."""
    shape = shape_of(x)
    if axes is None:
        return Aval(shape[::-1], dtype_of(x))
    perm = _static_shape("Transpose", axes, "perm")
    n = len(shape)
    if len(perm) != n or any(not -n <= a < n for a in perm) or sorted(a % n for a in perm) != list(range(n)):
        raise OpShapeError(f"For 'Transpose', the 'perm' must be a permutation of the {n} dims of the input with "
                           f"shape {_text(shape)}, but got {perm}.")
    return Aval(tuple(shape[a] for a in perm), dtype_of(x))


def copy(x, *, transpose=False):
    """``copy``: the operand's shape, its last two dims swapped when ``transpose``."""
    shape = shape_of(x)
    if transpose and len(shape) < 2:
        raise OpShapeError(f"For 'Copy', a transposed copy needs an input of rank 2 or more, but got shape "
                           f"{_text(shape)}.")
    return Aval(shape[:-2] + shape[:-3:-1] if transpose else shape, dtype_of(x))


def roll(x, *, shift, axis):
    """``roll``: the operand's shape (its elements shifted cyclically along ``axis``)."""
    shape = shape_of(x)
    if not isinstance(axis, int) or not -len(shape) <= axis < len(shape):
        raise OpShapeError(f"For 'Roll', the 'axis' must be in [-{len(shape)}, {len(shape)}), but got {axis}.")
    return Aval(shape, dtype_of(x))


def expand_dims(x, *, axis):
    """``expand_dims``: insert size-1 dims at ``axis`` (int or tuple, positions in the result)."""
    shape = shape_of(x)
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    ndim = len(shape) + len(items)
    for a in items:
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool) or not -ndim <= a < ndim:
            raise OpShapeError(f"For 'ExpandDims', the 'axis' must be in range [{-ndim}, {ndim}) for an input "
                               f"with shape {_text(shape)}, but got {axis!r}.")
    positions = {int(a) % ndim for a in items}
    if len(positions) != len(items):
        raise OpShapeError(f"For 'ExpandDims', the 'axis' has duplicate values: {axis!r}.")
    rest = iter(shape)
    return Aval(tuple(1 if i in positions else next(rest) for i in range(ndim)), dtype_of(x))


def squeeze(x, *, axis=None):
    """``squeeze``: drop size-1 dims (all, or those in ``axis``).

    Raises:
        OpShapeError: if a dim named in ``axis`` is not 1.
    """
    shape = shape_of(x)
    if axis is None:
        return Aval(tuple(d for d in shape if d != 1), dtype_of(x))
    axes = reduction_axes("Squeeze", axis, len(shape))
    for a in axes:
        if shape[a] not in (1, None):
            raise OpShapeError(f"For 'Squeeze', the shape of the input at dim {a} must be 1, but the input shape "
                               f"is {_text(shape)}.")
    return Aval(_reduced(shape, axes, False), dtype_of(x))


def flatten(x, *, start_dim=0, end_dim=-1):
    """``flatten``: merge dims ``start_dim`` .. ``end_dim`` into one (a 0-d input gives ``(1,)``)."""
    shape = shape_of(x)
    if not shape:
        return Aval((1,), dtype_of(x))
    start = normalize_axis("Flatten", start_dim, len(shape), "start_dim")
    end = normalize_axis("Flatten", end_dim, len(shape), "end_dim")
    if start > end:
        raise OpShapeError(f"For 'Flatten', 'start_dim' {start_dim} must not come after 'end_dim' {end_dim}.")
    return Aval(shape[:start] + (_size(shape[start:end + 1]),) + shape[end + 1:], dtype_of(x))


def broadcast_to(x, *, shape):
    """``broadcast_to``: the input broadcast to ``shape`` (no ``-1``: ``ops.broadcast_to`` resolves it).

    Raises:
        OpShapeError: if the input cannot be broadcast to ``shape``.
    """
    old = shape_of(x)
    new = _static_shape("BroadcastTo", shape)
    if len(new) < len(old) or any(
            not (a == b or a == 1 or a is None or b is None) or (b is not None and b < 0)
            for a, b in zip(old[::-1], new[::-1])):
        raise OpShapeError(f"For 'BroadcastTo', in order to broadcast, each dimension pair must be equal or input "
                           f"dimension is 1 or target dimension is -1. But got x_shape: {_text(old)}, target shape: "
                           f"{_text(new)}.")
    return Aval(new, dtype_of(x))


def tile(x, *, reps):
    """``tile``: each dim repeated ``reps`` times (the shorter of shape and reps padded with 1s)."""
    shape = shape_of(x)
    reps = _static_shape("Tile", reps, "reps")
    if any(r is None or r < 0 for r in reps):
        raise OpShapeError(f"For 'Tile', each value of 'reps' must be a non-negative int, but got {reps}.")
    n = max(len(shape), len(reps))
    shape = (1,) * (n - len(shape)) + shape
    reps = (1,) * (n - len(reps)) + reps
    return Aval(tuple(None if d is None else d * r for d, r in zip(shape, reps)), dtype_of(x))


def concat(*xs, axis=0):
    """``concat``: inputs of one rank, equal except along ``axis``; the dtype is their promotion."""
    shapes = [shape_of(x) for x in xs]
    if not shapes or not shapes[0]:
        raise OpShapeError("For 'Concat', the inputs must be one or more tensors of rank >= 1.")
    axis = normalize_axis("Concat", axis, len(shapes[0]))
    for s in shapes:
        if len(s) != len(shapes[0]) or any(a != b and a is not None and b is not None
                                           for i, (a, b) in enumerate(zip(s, shapes[0])) if i != axis):
            raise OpShapeError(f"For 'Concat', the shapes of the inputs must be the same except on 'axis' {axis}, "
                               f"but got {', '.join(_text(s) for s in shapes)}.")
    total = _size_sum(s[axis] for s in shapes)
    merged = tuple(next((s[i] for s in shapes if s[i] is not None), None) for i in range(len(shapes[0])))
    return Aval(merged[:axis] + (total,) + merged[axis + 1:], promote(*xs))


def _size_sum(dims) -> int | None:
    total = 0
    for d in dims:
        if d is None:
            return None
        total += d
    return total


def stack(*xs, axis=0):
    """``stack``: inputs of one shape, joined along a new ``axis``."""
    shapes = [shape_of(x) for x in xs]
    if not shapes or any(s != shapes[0] for s in shapes):
        raise OpShapeError(f"For 'Stack', all inputs must have the same shape, but got "
                           f"{', '.join(_text(s) for s in shapes)}.")
    axis = normalize_axis("Stack", axis, len(shapes[0]) + 1)
    return Aval(shapes[0][:axis] + (len(shapes),) + shapes[0][axis:], promote(*xs))


def split(x, *, indices_or_sections, axis=0):
    """``split``: NumPy's ``split`` (a number of equal sections, or the indices to cut at)."""
    shape = shape_of(x)
    axis = normalize_axis("Split", axis, len(shape))
    dim = shape[axis]
    if isinstance(indices_or_sections, (tuple, list)) and dim is None:   # known only at run time: a part between
        bounds = [0, *indices_or_sections, None]                         # cuts counted from the same end is known
        sizes = [b - a if b is not None and (a < 0) == (b < 0) else -a if b is None and a < 0 else None
                 for a, b in zip(bounds, bounds[1:])]
    elif isinstance(indices_or_sections, (tuple, list)):
        bounds = [0, *indices_or_sections, dim]
        sizes = [max(0, min(b, dim) - min(a, dim)) for a, b in zip(bounds, bounds[1:])]
    else:
        n = indices_or_sections
        if not isinstance(n, int) or n <= 0 or (dim is not None and dim % n):
            raise OpShapeError(f"For 'Split', the size {dim} of dim {axis} of the input with shape {_text(shape)} "
                               f"cannot be split into {n} equal sections.")
        sizes = [None if dim is None else dim // n] * n
    dtype = dtype_of(x)
    return tuple(Aval(shape[:axis] + (size,) + shape[axis + 1:], dtype) for size in sizes)


def getitem(x, *, index):
    """``getitem`` with a static index: ints, slices, ``None``, ``...`` and tuples of these.

    Raises:
        OpIndexError: ``index 5 is out of bounds for dimension with size 2``, too many indices, or
            more than one ``...``.
        OpTypeError: for an index item of another type.
    """
    shape = shape_of(x)
    items = index if isinstance(index, tuple) else (index,)
    taking = 0
    for item in items:
        if isinstance(item, slice):
            if not all(v is None or isinstance(v, (int, np.integer)) for v in (item.start, item.stop, item.step)):
                raise OpTypeError(f"For 'getitem', slice bounds must be ints or None, but got {item}.")
            taking += 1
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            taking += 1
        elif item is not None and item is not Ellipsis:
            raise OpTypeError(f"Only support integers, slices(`:`), ellipsis(`...`), None, bool, tensor, int, list "
                              f"and tuple as index, but got {item!r} with type {type(item)}.")
    if sum(1 for item in items if item is Ellipsis) > 1:
        raise OpIndexError("an index can only have a single ellipsis ('...')")
    if taking > len(shape):
        raise OpIndexError(f"too many indices for tensor of dimension {len(shape)}")
    out = []
    dim = 0
    for item in items:
        if item is None:
            out.append(1)
        elif item is Ellipsis:
            skipped = len(shape) - taking
            out.extend(shape[dim:dim + skipped])
            dim += skipped
        elif isinstance(item, slice):
            size = shape[dim]
            out.append(None if size is None else len(range(*item.indices(size))))
            dim += 1
        else:
            size = shape[dim]
            if size is not None and not -size <= item < size:
                raise OpIndexError(f"index {item} is out of bounds for dimension with size {size}")
            dim += 1
    return Aval(tuple(out) + shape[dim:], dtype_of(x))


def setitem(x, value, *, index):
    """``setitem`` (``x[index] = value`` in compiled code): ``x``'s shape and dtype.

    Raises:
        OpIndexError: for an index ``getitem`` refuses (out of bounds, too many indices).
        OpShapeError: ``value`` does not broadcast to the shape of ``x[index]``.
    """
    part = tuple(getitem(x, index=index).shape)
    value_shape = tuple(shape_of(value))
    broadcast = broadcast_shapes("setitem", part, value_shape, names=("x[index]", "value"))
    extra = len(broadcast) - len(part)     # leading dims of the value: NumPy drops them when they are 1
    if broadcast[extra:] != part or any(d != 1 for d in broadcast[:extra]):
        raise OpShapeError(f"For 'setitem', the value of shape {_text(value_shape)} cannot be assigned to x[index] "
                           f"of shape {_text(part)}.")
    return Aval(shape_of(x), dtype_of(x))


def getitem_grad(g, *, shape, index):
    """``getitem_grad`` (the transpose of ``getitem``): ``g`` scattered into zeros of ``shape``."""
    return Aval(_static_shape("getitem", shape), dtype_of(g))


def _check_indices(name: str, indices) -> None:
    dtype = dtype_of(indices)
    if dtype.kind not in "iu":
        raise OpTypeError(f"For '{name}', the 'input_indices' must be a tensor of int32 or int64, but got {dtype}.")


def gather(params, indices, *, axis=0):
    """``gather``: ``params`` indexed by the int tensor ``indices`` along ``axis``."""
    _check_indices("Gather", indices)
    shape = shape_of(params)
    axis = normalize_axis("Gather", axis, len(shape))
    return Aval(shape[:axis] + shape_of(indices) + shape[axis + 1:], dtype_of(params))


def gather_grad(g, indices, *, shape, axis=0):
    """``gather_grad`` (the transpose of ``gather``): ``g`` scatter-added into zeros of ``shape``."""
    return Aval(_static_shape("Gather", shape), dtype_of(g))


def masked_select(x, mask):
    """``masked_select``: the elements where the bool ``mask`` (a leading part of x's shape) is true.

    The first dim of the result is dynamic (``None``): its size depends on the data.
    """
    shape, mask_shape = shape_of(x), shape_of(mask)
    if dtype_of(mask).kind != "b":
        raise OpTypeError(f"For 'MaskedSelect', the 'mask' must be a bool tensor, but got {dtype_of(mask)}.")
    if len(mask_shape) > len(shape) or any(a != b and a is not None and b is not None
                                           for a, b in zip(mask_shape, shape)):
        raise OpIndexError(f"boolean index did not match indexed tensor: mask shape {_text(mask_shape)}, "
                           f"tensor shape {_text(shape)}")
    return Aval((None,) + shape[len(mask_shape):], dtype_of(x))


def masked_select_grad(g, mask, *, shape):
    """``masked_select_grad`` (the transpose of ``masked_select``): ``g`` scattered where ``mask`` holds."""
    return Aval(_static_shape("MaskedSelect", shape), dtype_of(g))


def filled(*, shape, dtype=np.float32):
    """``ones``/``zeros``/``empty``: a new array of ``shape`` and ``dtype``."""
    return Aval(_static_shape("Fill", shape), np.dtype(dtype))


def drawn(*, shape, dtype=np.float32, seeds=None):
    """``random_normal``/``random_uniform``: a new array of ``shape`` and ``dtype`` (``seeds``: the seeds of
    the MindSpore primitive whose kernel draws it, or None)."""
    return filled(shape=shape, dtype=dtype)


def uniform_int(low, high, *, shape, seeds=None):
    """``uniform_int``: a new int32 array of ``shape``."""
    return Aval(_static_shape("UniformInt", shape), np.dtype(np.int32))


def shuffle_order(*, n, seeds):
    """``shuffle_order``: a new int64 vector of ``n``."""
    return Aval((n,), np.dtype(np.int64))


def bernoulli_draw(p, *, shape, dtype, seeds):
    """``bernoulli_draw``: a new array of ``shape`` and ``dtype``."""
    return Aval(_static_shape("Bernoulli", shape), np.dtype(dtype))


def dropout_mask(*, shape, keep_prob, dtype, seeds=None):
    """``dropout_mask``: a new array of ``shape`` and ``dtype``; ``keep_prob`` in (0, 1]."""
    if not 0.0 < keep_prob <= 1.0:
        raise OpShapeError(f"For 'Dropout', the 'keep_prob' must be in (0, 1], but got {keep_prob}.")
    return Aval(_static_shape("Dropout", shape), np.dtype(dtype))


def filled_like(x, *, dtype=None):
    """``ones_like``/``zeros_like``: x's shape, in ``dtype`` (default: x's)."""
    return Aval(shape_of(x), dtype_of(x) if dtype is None else np.dtype(dtype))


def fill(value, *, shape, dtype):
    """``fill``: ``shape`` filled with ``value`` (a number or a tensor broadcast to it) in ``dtype``."""
    shape = _static_shape("Fill", shape)
    broadcast_shapes("Fill", shape, shape_of(value), names=("shape", "value"))
    return Aval(shape, np.dtype(dtype))


def class_indices(indices, *, depth, ignore_index=None, loss="nll_loss", target="target"):
    """``class_indices``: the int ``indices`` themselves (their range is checked at run time)."""
    dtype = dtype_of(indices)
    if dtype.kind not in "iu":
        raise OpTypeError(f"For '{loss}', the '{target}' must be class indices of an int dtype, but got {dtype}.")
    return Aval(shape_of(indices), dtype)


def one_hot(indices, on_value, off_value, *, depth, axis=-1):
    """``one_hot``: ``depth`` inserted at ``axis`` of the int ``indices``' shape; on/off values promoted."""
    _check_indices("OneHot", indices)
    shape = shape_of(indices)
    if not isinstance(depth, (int, np.integer)) or depth < 0:
        raise OpShapeError(f"For 'OneHot', the 'depth' must be a non-negative int, but got {depth!r}.")
    axis = normalize_axis("OneHot", axis, len(shape) + 1)
    out = shape[:axis] + (int(depth),) + shape[axis:]
    out = broadcast_shapes("OneHot", out, shape_of(on_value), shape_of(off_value),
                           names=("output", "on_value", "off_value"))
    return Aval(out, promote(on_value, off_value))


# ---------------------------------------------------------------------------------------- linalg


def _check_contraction(name: str, k1, k2, shapes, error=OpShapeError) -> None:
    if k1 is not None and k2 is not None and k1 != k2:
        if name == "MatMulExt":
            message = f"For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got {k1} and {k2}."
        else:
            message = f"For '{name}' the input dimensions must be equal, but got 'x1_col': {k1} and 'x2_row': {k2}."
        raise error(f"{message}\nshape1: {_text(shapes[0])}, shape2: {_text(shapes[1])}")


def matmul(name: str, *, min_rank: int = 1, error=OpShapeError):
    """The rule of NumPy's ``matmul`` with ``transpose_a``/``transpose_b`` (which swap the last two dims).

    1-D operands act as a row (first) or column (second) vector; batch dims broadcast.
    """
    def infer(x, y, *, transpose_a=False, transpose_b=False):
        a, b = shape_of(x), shape_of(y)
        if len(a) < min_rank or len(b) < min_rank or (transpose_a and len(a) < 2) or (transpose_b and len(b) < 2):
            raise OpShapeError(f"For '{name}', the inputs must have rank >= {max(min_rank, 1)} (>= 2 to be "
                               f"transposed), but got shapes {_text(a)} and {_text(b)}.")
        if transpose_a:
            a = a[:-2] + (a[-1], a[-2])
        if transpose_b:
            b = b[:-2] + (b[-1], b[-2])
        _check_contraction(name, a[-1], b[-2] if len(b) > 1 else b[0], (shape_of(x), shape_of(y)), error)
        batch = broadcast_shapes(name, a[:-2], b[:-2])
        rows = a[-2:-1]
        cols = b[-1:] if len(b) > 1 else ()
        return Aval(batch + rows + cols, promote(x, y))

    infer.__qualname__ = f"matmul({name!r})"
    return infer


def dot(x, y):
    """``dot``: NumPy's ``dot`` for a second operand of rank 1 or 2 (where it equals ``matmul``)."""
    a, b = shape_of(x), shape_of(y)
    if not a or not b or len(b) > 2:
        raise OpShapeError(f"For 'Dot', the inputs must have rank >= 1 and the second rank <= 2 "
                           f"(ops.dot handles higher ranks), but got shapes {_text(a)} and {_text(b)}.")
    _check_contraction("Dot", a[-1], b[-2] if len(b) > 1 else b[0], (a, b))
    return Aval(a[:-1] + b[1:], promote(x, y))


def outer(x, y):
    """``outer``: two 1-D operands give an ``(n, m)`` result."""
    a, b = shape_of(x), shape_of(y)
    if len(a) != 1 or len(b) != 1:
        raise OpShapeError(f"For 'Outer', the inputs must be 1-D, but got shapes {_text(a)} and {_text(b)}.")
    return Aval(a + b, promote(x, y))


def outer_product(x, y):
    """``outer_product``: ``(..., m)`` and ``(..., n)`` give ``(..., m, n)``, the batch dims broadcast."""
    a, b = shape_of(x), shape_of(y)
    if not a or not b:
        raise OpShapeError(f"For 'outer_product', the inputs must have rank >= 1, but got shapes {_text(a)} and "
                           f"{_text(b)}.")
    batch = broadcast_shapes("outer_product", a[:-1], b[:-1])
    return Aval(batch + (a[-1], b[-1]), promote(x, y))


# ---------------------------------------------------------------------------------------- nn


def softmax(name: str):
    """The rule of ``softmax``/``log_softmax`` over ``axis`` (int or tuple): float inputs only."""
    elementwise = float_only(name)

    def infer(x, *, axis=-1):
        reduction_axes(name, axis, len(shape_of(x)))
        return elementwise(x)

    infer.__qualname__ = f"softmax({name!r})"
    return infer


def log_softmax_probs(x, *, axis=-1):
    """``log_softmax_probs``: ``log_softmax``'s result twice (the log-probabilities and the probabilities)."""
    out = softmax("LogSoftmax")(x, axis=axis)
    return out, out


def normalize(x, *, axis, eps):
    """``normalize``: ``(normalized, rstd)`` of a float ``x`` over ``axis`` (a tuple); ``rstd`` keeps ``axis``
    as ones."""
    normalized = float_only("LayerNorm")(x)
    axes = reduction_axes("LayerNorm", axis, len(normalized.shape))
    return normalized, Aval(_reduced(normalized.shape, axes, True), normalized.dtype)


def softmax_cross_entropy(logits, labels, *, axis=-1):
    """``softmax_cross_entropy``: logits and labels of one shape; the loss drops ``axis``."""
    a, b = shape_of(logits), shape_of(labels)
    dtype = promote(logits, labels)
    if dtype.kind != "f":
        raise _unsupported("SoftmaxCrossEntropyWithLogits")
    if a != b:
        raise OpShapeError(f"For 'SoftmaxCrossEntropyWithLogits', 'logits' and 'labels' must have the same shape, "
                           f"but got {_text(a)} and {_text(b)}.")
    axis = normalize_axis("SoftmaxCrossEntropyWithLogits", axis, len(a))
    return Aval(a[:axis] + a[axis + 1:], dtype)
