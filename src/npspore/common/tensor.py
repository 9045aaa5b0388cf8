"""Tensor: an n-dimensional array of one dtype, as ``mindspore.Tensor``.

A Tensor holds its data in ``_array``, a ``numpy.ndarray``. ``Tensor(...)`` follows MindSpore's
construction rules (Python floats become Float32, Python ints Int64, NumPy arrays keep their
dtype and are copied, another Tensor's data is shared). ``Tensor._wrap(array)`` builds a Tensor
around an existing array with no checks and no copy; ops use it for their results.

Every operator and data method applies an op through ``npspore.ops.eager.run`` and is written in
the compilable subset (see the project brief), so the compiler can step into it. Printing,
``asnumpy``, ``item``, ``tolist``, ``__bool__``, ``__len__``, iteration and ``__setitem__`` are
eager-only. ``asnumpy()`` returns the stored array itself, not a copy: as in MindSpore, the
Tensor and the returned ndarray share memory.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from .symbol import Symbol
from ..core.overlapping_copy import copy_into_view
from .. import shape_rules
from ..compiler.kernel import CapturedAvals
from ..compiler.library import LIBRARY, MEANINGS, RECORDERS, check_not_traced, note_copy, note_read
from . import dtype as mstype

__all__ = ["Tensor", "tensor", "from_numpy"]

_INPUT_DATA_TYPES = "['TensorPy', 'Tensor', 'ndarray', 'str_', 'list', 'tuple', 'float', 'int', 'bool', " \
                    "'complex', 'bytes']"
_DATA_DTYPES = mstype.number_type + (mstype.bool_,)
_STORABLE = frozenset(np.dtype(mstype.dtype_to_nptype(t)) for t in _DATA_DTYPES if t != mstype.bfloat16)
_NOT_A_SCALAR = "Only one element tensors can be converted to Python scalars"
_NOT_AN_INDEX = "Only integer tensors of a single element can be converted to an index."


def _input_data_error(input_data) -> TypeError:
    return TypeError(f"For 'Tensor', the type of 'input_data' should be one of '{_INPUT_DATA_TYPES}', "
                     f"but got type '{type(input_data).__name__}'.")


def _check_dtype(dtype) -> None:
    if not isinstance(dtype, mstype.Type) or dtype not in _DATA_DTYPES:
        raise TypeError(f"For 'Tensor', the 'dtype' should be one of the number types or mindspore.bool_, "
                        f"but got {dtype!r}.")


def _np_dtype(dtype) -> np.dtype:
    """The NumPy dtype that stores the npspore dtype ``dtype`` (a dtype, NumPy type or name)."""
    return np.dtype(mstype.dtype_to_nptype(mstype.as_dtype(dtype)))


def _array_from_data(input_data, dtype) -> np.ndarray:
    """The array a Tensor built from ``input_data`` holds (MindSpore's default dtypes and checks)."""
    if isinstance(input_data, np.generic):
        input_data = np.array(input_data)
    if dtype is not None:
        _check_dtype(dtype)
    if isinstance(input_data, Tensor):
        if input_data._dynamic_shape is not None:
            raise ValueError("negative dimensions are not allowed")
        return input_data._array if dtype is None else input_data._array.astype(_np_dtype(dtype))
    if isinstance(input_data, np.ndarray):
        if input_data.dtype not in _STORABLE:
            raise TypeError(f"initializing tensor by numpy array failed, numpy array: {input_data}, "
                            f"data type: {input_data.dtype}.")
        array = np.array(input_data, order="C")
    elif isinstance(input_data, (list, tuple, float, int, complex)):
        array = _array_from_python(input_data)
    else:
        raise _input_data_error(input_data)
    return array if dtype is None else array.astype(_np_dtype(dtype), copy=False)


def _array_from_python(input_data) -> np.ndarray:
    """A Python number or (nested) list/tuple as an array: floats as float32, ints as int64."""
    ragged = TypeError(f"For Tensor, the input_data is {input_data} that contain unsupported element.")
    try:
        array = shape_rules.constant_array(input_data)
    except ValueError:
        raise ragged from None
    if array.dtype not in _STORABLE:
        raise ragged
    return array


def _placeholder_shape(shape) -> tuple:
    """A placeholder's shape with ``None`` (or a ``Symbol``) read as ``-1`` (a dynamic dim)."""
    if isinstance(shape, int):
        shape = (shape,)
    if isinstance(shape, (tuple, list)):
        shape = [None if isinstance(d, Symbol) else d for d in shape]
    if not isinstance(shape, (tuple, list)) or not all(
            d is None or (isinstance(d, int) and not isinstance(d, bool) and d >= -1) for d in shape):
        raise TypeError(f"For 'Tensor', the 'shape' should be a tuple or list of non-negative int or None, "
                        f"but got {shape}.")
    return tuple(-1 if d is None else d for d in shape)


def _sequences_as_lists(index: Any) -> tuple:
    """The items of ``index``, a tuple among them as the list of indices MindSpore reads it as
    (``X[:, (0, 2)]`` takes columns 0 and 2)."""
    items = index if isinstance(index, tuple) else (index,)
    return tuple(list(item) if isinstance(item, tuple) else item for item in items)


def _basic_index(items: tuple) -> bool:
    """Whether ``items`` index an array by basic indexing only (ints, slices, None, Ellipsis): a view."""
    return all(item is None or item is Ellipsis or isinstance(item, slice)
               or (isinstance(item, (int, np.integer)) and not isinstance(item, bool)) for item in items)


class Tensor:
    """An n-dimensional array of numbers of one dtype.

    Args:
        input_data (Union[Tensor, float, int, bool, complex, tuple, list, numpy.ndarray]): the data.
            Python floats (and lists mixing floats and ints) become Float32, Python ints Int64, bools
            Bool; a NumPy array keeps its dtype and is copied; another Tensor's data is shared unless
            ``dtype`` asks for a conversion.
        dtype (mindspore.dtype): convert the data to this dtype (floats to ints truncate).
        shape (Union[tuple, list, int]): without ``input_data``, build a placeholder of this shape;
            ``None`` dims are dynamic (``Tensor(shape=[None, 3], dtype=float32).shape == (-1, 3)``).
            A fully known shape gives a zero-filled Tensor.
        init (Initializer): with ``shape`` and ``dtype``, fill the data with this initializer.
        const_arg (bool): whether the Tensor is a constant when passed to a network.
        device (str): only ``None`` or ``'CPU'``.

    Raises:
        TypeError: for ``None`` (without ``shape`` and ``dtype``), strings and other unsupported
            data, ragged lists, or an invalid ``dtype``.
        ValueError: if both ``input_data`` and ``shape`` are given, or ``init`` without ``shape``
            and ``dtype``.
    """

    _dynamic_shape = None
    _numpy_layout = False   # made over a NumPy buffer (from_numpy, a dataset's rows): repr as NumPy lays values out
    is_placeholder = False
    const_arg = False
    init = None

    def __init__(self, input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
                 const_arg: bool = False, device: str | None = None) -> None:
        if device is not None and device != "CPU":
            raise ValueError(f"Only 'CPU' is supported for device, but got {device}.")
        if not isinstance(const_arg, bool):
            raise TypeError(f"For 'Tensor', the type of 'const_arg' should be 'bool', but got {type(const_arg)}.")
        self.const_arg = const_arg
        if input_data is not None and shape is not None:
            raise ValueError("If input_data is available, shape doesn't need to be set")
        if init is not None and (shape is None or dtype is None):
            raise ValueError("init, dtype and shape must have values at the same time.")
        if input_data is not None:
            self._array = _array_from_data(input_data, dtype)
            if RECORDERS and isinstance(input_data, Tensor):
                note_copy(input_data, self)
            return
        if dtype is None:
            raise _input_data_error(None)
        _check_dtype(dtype)
        dims = (-2,) if shape is None else _placeholder_shape(shape)
        self._array = np.zeros(tuple(max(d, 0) for d in dims), _np_dtype(dtype))
        if init is not None:
            init(self._array)
            return
        self.is_placeholder = True
        if any(d < 0 for d in dims):
            self._dynamic_shape = dims

    @classmethod
    def _wrap(cls, array):
        """A Tensor around ``array`` (a numpy.ndarray): no checks, no copy."""
        obj = object.__new__(cls)
        obj._array = array
        return obj

    @staticmethod
    def from_numpy(array):
        """A Tensor sharing memory with the NumPy ``array`` (copied only if not C-contiguous).

        Raises:
            TypeError: If `array` is not a numpy.ndarray.
        """
        if not isinstance(array, np.ndarray):
            raise TypeError("Expected a NumPy array.")
        return Tensor._over_numpy(np.ascontiguousarray(array))

    @classmethod
    def _over_numpy(cls, array):
        """A Tensor over the NumPy ``array`` whose repr lays the values out as NumPy does
        (``value= [0.5 , 1.25]``), as MindSpore prints a tensor made by ``from_numpy`` or a dataset."""
        obj = cls._wrap(array)
        obj._numpy_layout = True
        return obj

    # ------------------------------------------------------------------ properties

    @property
    def shape(self) -> tuple:
        """The shape, a tuple of ints (``-1`` for a placeholder's dynamic dims)."""
        return self._array.shape if self._dynamic_shape is None else self._dynamic_shape

    @property
    def dtype(self) -> mstype.Type:
        """The dtype (:mod:`npspore.common.dtype`), e.g. ``Float32``."""
        return mstype.nptype_to_dtype(self._array.dtype)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements."""
        return self._array.size

    @property
    def itemsize(self) -> int:
        """The size of one element in bytes."""
        return self._array.itemsize

    @property
    def nbytes(self) -> int:
        """The size of the data in bytes."""
        return self._array.nbytes

    @property
    def strides(self) -> tuple:
        """The bytes to step in each dimension."""
        return self._array.strides

    @property
    def has_init(self) -> bool:
        """Whether the data waits for ``init_data`` (never: npspore initializes at construction)."""
        return False

    @property
    def T(self) -> Tensor:
        """The transposed Tensor (the Tensor itself when it has fewer than 2 dims)."""
        if self.ndim <= 1:
            return self
        return self.transpose()

    def init_data(self):
        """Return the Tensor itself: its data is always initialized."""
        return self

    def set_const_arg(self, const_arg=True):
        """Mark whether the Tensor is a constant when passed to a network; returns the Tensor."""
        if not isinstance(const_arg, bool):
            raise TypeError(f"For 'set_const_arg', the type of 'const_arg' should be 'bool', "
                            f"but got {type(const_arg)}.")
        self.const_arg = const_arg
        return self

    # ------------------------------------------------------------------ eager-only data access

    def asnumpy(self) -> np.ndarray:
        """The data as a numpy.ndarray, sharing memory with the Tensor."""
        if RECORDERS:
            note_read(self, "array")
        return self._array

    numpy = asnumpy

    # ---------------------------------------------------------------- NumPy interoperation
    # As on MindSpore 2.10: NumPy ufuncs (np.exp(t), ndarray + t) see the data through __array__ and
    # return ndarrays, while `t + ndarray` is rejected by Tensor's operators. Where MindSpore fails by
    # accident (np.sum(t) passes `out=`) or has nothing (DLPack), npspore does what NumPy users expect.

    def __array__(self, dtype=None, copy=None):
        if RECORDERS:
            note_read(self, "array")
        array = self._array if dtype is None else self._array.astype(dtype, copy=False)
        return array.copy() if copy and array is self._array else array

    def __array_function__(self, func, types, args, kwargs):
        """NumPy functions (``np.sum(t)``, ``np.concatenate([t, t])``) run on the data and return NumPy results."""
        if not all(issubclass(kind, (Tensor, np.ndarray)) for kind in types):
            return NotImplemented
        return func(*_as_arrays(args), **_as_arrays(kwargs))

    def __dlpack__(self, *args, **kwargs):
        """The data as a DLPack capsule (``np.from_dlpack(t)`` shares memory with the Tensor)."""
        return self._array.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        """``(device type, device id)`` of the data for DLPack: always the CPU, ``(1, 0)``."""
        return self._array.__dlpack_device__()

    def _single_element(self, message=None):
        """The value of a one-element Tensor; otherwise ValueError with ``message`` (or MindSpore's default)."""
        self._check_single_element(message)
        return self._array.item()

    def _check_single_element(self, message=None) -> None:
        if self.size != 1:
            raise ValueError(message or f"The tensor should have only one element, but got {self.size}, more than "
                                        f"one element is ambiguous.")

    def item(self) -> Any:
        """The value of a one-element Tensor as a Python number.

        Raises:
            ValueError: if the Tensor has more than one element.
        """
        if RECORDERS:
            note_read(self, "item")
        self._check_single_element()
        return self._array.item()   # read here: compiled code names this method when it may not read values

    def tolist(self):
        """The data as (nested) Python lists of Python numbers."""
        if RECORDERS:
            note_read(self, "array")
        return self._array.tolist()

    def assign_value(self, value):
        """Make the Tensor hold ``value``'s data (shared); returns the Tensor."""
        if value._array.shape != self._array.shape or value._array.dtype != self._array.dtype:
            CapturedAvals.bump()
        self._array = value._array
        self._dynamic_shape = None
        return self

    def __bool__(self) -> bool:
        value = bool(self._single_element())
        if RECORDERS:
            note_read(self, "truth")
        return value

    def __float__(self) -> float:
        value = float(self._single_element(_NOT_A_SCALAR))
        if RECORDERS:
            note_read(self, "item")
        return value

    def __int__(self) -> int:
        value = int(self._single_element(_NOT_A_SCALAR))
        if RECORDERS:
            note_read(self, "item")
        return value

    def __index__(self) -> int:
        if self._array.dtype.kind not in "biu":
            raise ValueError(_NOT_AN_INDEX)
        value = int(self._single_element(_NOT_AN_INDEX))
        if RECORDERS:
            note_read(self, "item")
        return value

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("Not support len of a 0-D tensor")
        return self.shape[0]

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    def __contains__(self, element) -> bool:
        if isinstance(element, (Tensor, int, float)):
            return bool((self == element).any())
        return False

    def __hash__(self) -> int:
        return hash(id(self))

    # ------------------------------------------------------------------ printing

    def __repr__(self) -> str:
        shape = "[" + ", ".join(str(d) for d in self.shape) + "]"
        separator = "\n" if self.ndim > 1 else " "
        if self._dynamic_shape is not None:
            values = ""
        elif self._numpy_layout:
            values = np.array2string(self._array, separator=", ")
        else:
            values = _values_text(self._array)
        return f"Tensor(shape={shape}, dtype={self.dtype}, value={separator}{values})"

    def __str__(self) -> str:
        return str(self._array)

    # ------------------------------------------------------------------ operators

    def __add__(self, other: Any) -> Tensor:
        return run("add", self, _operand(other, "Add", "add"))

    def __radd__(self, other: Any) -> Tensor:
        return run("add", _operand(other, "Add", "add"), self)

    def __sub__(self, other: Any) -> Tensor:
        return run("sub", self, _operand(other, "Sub", "sub"))

    def __rsub__(self, other: Any) -> Tensor:
        return run("sub", _operand(other, "Sub", "sub"), self)

    def __mul__(self, other: Any) -> Tensor:
        return run("mul", self, _operand(other, "Mul", "mul"))

    def __rmul__(self, other: Any) -> Tensor:
        return run("mul", _operand(other, "Mul", "mul"), self)

    def __truediv__(self, other: Any) -> Tensor:
        return run("div", self, _operand(other, "Div", "div"))

    def __rtruediv__(self, other: Any) -> Tensor:
        return run("div", _operand(other, "Div", "div"), self)

    def __floordiv__(self, other: Any) -> Tensor:
        return run("floor_div", self, _operand(other, "FloorDiv", "floor_divide"))

    def __rfloordiv__(self, other: Any) -> Tensor:
        return run("floor_div", _operand(other, "FloorDiv", "floor_divide"), self)

    def __mod__(self, other: Any) -> Tensor:
        return run("mod", self, _operand(other, "FloorMod", "remainder"))

    def __rmod__(self, other: Any) -> Tensor:
        return run("mod", _operand(other, "FloorMod", "remainder"), self)

    def __pow__(self, other: Any) -> Tensor:
        return run("pow", self, _operand(other, "Pow", "pow"))

    def __rpow__(self, other: Any) -> Tensor:
        return run("pow", _operand(other, "Pow", "pow"), self)

    def __matmul__(self, other: Any) -> Tensor:
        return run("matmul", self, _operand(other, "MatMul", "matmul"))

    def __rmatmul__(self, other: Any) -> Tensor:
        return run("matmul", _operand(other, "MatMul", "matmul"), self)

    def __neg__(self) -> Tensor:
        return run("neg", self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return run("abs", self)

    def __invert__(self) -> Tensor:
        return run("logical_not", self)

    def __and__(self, other: Any) -> Tensor:
        return run("bitwise_and", self, _operand(other, "BitwiseAnd", "bitwise_and"))

    def __rand__(self, other: Any) -> Tensor:
        return run("bitwise_and", _operand(other, "BitwiseAnd", "bitwise_and"), self)

    def __or__(self, other: Any) -> Tensor:
        return run("bitwise_or", self, _operand(other, "BitwiseOr", "bitwise_or"))

    def __ror__(self, other: Any) -> Tensor:
        return run("bitwise_or", _operand(other, "BitwiseOr", "bitwise_or"), self)

    def __xor__(self, other: Any) -> Tensor:
        return run("bitwise_xor", self, _operand(other, "BitwiseXor", "bitwise_xor"))

    def __rxor__(self, other: Any) -> Tensor:
        return run("bitwise_xor", _operand(other, "BitwiseXor", "bitwise_xor"), self)

    def __eq__(self, other: object) -> Any:
        if not isinstance(other, (int, float, Tensor)):
            return False
        return run("equal", self, other)

    def __ne__(self, other: object) -> Any:
        if not isinstance(other, (int, float, Tensor)):
            return True
        return run("not_equal", self, other)

    def __lt__(self, other: Any) -> Tensor:
        return run("less", self, _operand(other, "Less", "less"))

    def __le__(self, other: Any) -> Tensor:
        return run("less_equal", self, _operand(other, "LessEqual", "less_equal"))

    def __gt__(self, other: Any) -> Tensor:
        return run("greater", self, _operand(other, "Greater", "greater"))

    def __ge__(self, other: Any) -> Tensor:
        return run("greater_equal", self, _operand(other, "GreaterEqual", "greater_equal"))

    # ------------------------------------------------------------------ indexing

    def __getitem__(self, index: Any) -> Tensor:
        items = _sequences_as_lists(index)
        advanced = [position for position in range(len(items)) if isinstance(items[position], (Tensor, list))]
        if not advanced:
            return run("getitem", self, index=items)
        position = advanced[0]
        indices = items[position] if isinstance(items[position], Tensor) else Tensor(items[position])
        if len(advanced) == 1 and _only_full_slices(items, position):
            if indices.dtype != mstype.bool_:
                if isinstance(items[position], list):
                    _check_bounds(items[position], self.shape[position])
                return run("gather", self, indices, axis=position)
            if position == 0:
                return run("masked_select", self, indices)
        return _index_with_numpy(self, items)

    def __setitem__(self, index, value):
        if RECORDERS:
            check_not_traced(self, "an in-place update (t[index] = value)")
        items = _sequences_as_lists(index)
        if any(isinstance(item, (Tensor, list)) for item in items):
            key = tuple(item._array if isinstance(item, Tensor) else item for item in items)
        else:
            shape_rules.getitem(self._array, index=items)  # MindSpore's errors for out-of-bounds indices
            key = items
        if not self._array.flags.writeable:  # a broadcast view or a NumPy scalar from an op
            self._array = np.array(self._array)
        source = value._array if isinstance(value, Tensor) else np.asarray(value)
        if _basic_index(key) and np.may_share_memory(self._array, source):   # a view of itself, as MindSpore writes it
            copy_into_view(self._array[key], source)
        else:
            self._array[key] = source

    # ------------------------------------------------------------------ methods

    def astype(self, dtype: Any, copy: Any = True) -> Tensor:
        """The Tensor converted to ``dtype`` (a mindspore dtype, a NumPy dtype, or a name such as ``"float16"``).

        ``copy`` is accepted for MindSpore compatibility: the result is always a new Tensor.

        Raises:
            TypeError: if ``dtype`` is not a dtype or a dtype name.
        """
        return run("cast", self, dtype=_np_dtype(dtype))

    def reshape(self, *shape: Any) -> Tensor:
        """The Tensor with a new shape: ``reshape(2, 3)`` or ``reshape((2, 3))``; one dim may be ``-1``."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return run("reshape", self, shape=shape)

    def view(self, *shape: Any) -> Tensor:
        """Same as :meth:`reshape`."""
        return self.reshape(*shape)

    def transpose(self, *axes: Any, dim0: Any = None, dim1: Any = None) -> Tensor:
        """Permute the dims: ``transpose()`` (or ``transpose(None)``) reverses them, ``transpose((2, 0, 1))`` or
        ``transpose(2, 0, 1)`` permutes them; as in MindSpore, ``dim0=``, ``dim1=`` swap those two dims, and so do
        two ints in PYNATIVE mode (``transpose(0, 1)`` of a 2-D Tensor is its transpose), where GRAPH mode and
        ``@jit`` read them as a permutation (``compiler.library.MEANINGS``).

        Raises:
            ValueError: if a permutation does not name every dim.
        """
        swap = dim0 is not None or dim1 is not None or (len(axes) == 2 and MEANINGS.pynative)
        if dim0 is not None or dim1 is not None:
            axes = (dim0, dim1)
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        elif not axes or axes == (None,):
            axes = tuple(range(self.ndim - 1, -1, -1))
        elif not swap and len(axes) != self.ndim:
            raise ValueError(f"For Tensor.transpose, the number of axes must be equal to the dimension of Tensor, "
                             f"but got {len(axes)} in the number of axes.")
        elif swap:
            perm = list(range(self.ndim))
            perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
            axes = tuple(perm)
        return run("transpose", self, axes=axes)

    def squeeze(self, axis: Any = None) -> Tensor:
        """Remove dims of size 1 (all of them, or those in ``axis``)."""
        return run("squeeze", self, axis=_axis(axis))

    def expand_dims(self, axis: Any) -> Tensor:
        """Insert a dim of size 1 at ``axis``."""
        return run("expand_dims", self, axis=axis)

    def flatten(self, order: Any = "C", end: Any = None, *, start_dim: Any = 0, end_dim: Any = -1) -> Tensor:
        """Merge dims ``start_dim`` .. ``end_dim`` (by default all, giving a 1-D Tensor); as in MindSpore, int
        positional arguments are ``flatten(start_dim, end_dim)``.

        Raises:
            ValueError: if ``order`` is not ``'C'`` or ``'F'``.
        """
        if isinstance(order, int) and not isinstance(order, bool):
            order, start_dim, end_dim = "C", order, end_dim if end is None else end
        if order not in ("C", "F"):
            raise ValueError(f"For 'flatten', the argument 'order' should be 'C' or 'F', but got '{order}'.")
        x = self if order == "C" else self.transpose()
        if x.ndim == 0:
            return x.reshape((1,))
        start = start_dim % x.ndim
        end = end_dim % x.ndim
        merged = 1
        for d in x.shape[start:end + 1]:
            merged = -1 if d is None or d < 0 or merged < 0 else merged * d
        return x.reshape(x.shape[:start] + (merged,) + x.shape[end + 1:])

    def broadcast_to(self, shape: Any) -> Tensor:
        """The Tensor broadcast to ``shape``."""
        return run("broadcast_to", self, shape=tuple(shape))

    def abs(self) -> Tensor:
        """Elementwise absolute value."""
        return run("abs", self)

    def exp(self) -> Tensor:
        """Elementwise exponential."""
        return run("exp", self)

    def log(self) -> Tensor:
        """Elementwise natural logarithm."""
        return run("log", self)

    def sin(self) -> Tensor:
        """Elementwise sine."""
        return run("sin", self)

    def cos(self) -> Tensor:
        """Elementwise cosine."""
        return run("cos", self)

    def tanh(self) -> Tensor:
        """Elementwise hyperbolic tangent."""
        return run("tanh", self)

    def sqrt(self) -> Tensor:
        """Elementwise square root."""
        return run("sqrt", self)

    def square(self) -> Tensor:
        """Elementwise square."""
        return run("square", self)

    def pow(self, exponent: Any) -> Tensor:
        """Elementwise power ``self ** exponent``."""
        return run("pow", self, exponent)

    def clip(self, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002 (MindSpore's argument names)
        """Limit the values to ``[min, max]`` (either bound may be ``None``)."""
        return run("clip", self, min, max)

    def sum(self, axis: Any = None, dtype: Any = None, keepdims: Any = False, initial: Any = None, *,
            dim: Any = None, keepdim: Any = None) -> Tensor:
        """Sum over ``axis`` (or ``dim``; all dims when ``None``); ``dtype`` converts the input first. As in
        MindSpore, a bool second argument is ``keepdim`` (``x.sum(1, True)``)."""
        if isinstance(dtype, bool):
            dtype, keepdims = None, dtype
        axis, keepdims = _dim_overload(axis, keepdims, dim, keepdim)
        x = self if dtype is None else self.astype(dtype)
        out = run("sum", x, axis=_axis(axis), keepdims=keepdims)
        return out if initial is None else out + initial

    def mean(self, axis: Any = None, keep_dims: Any = False, *, dtype: Any = None, dim: Any = None,
             keepdim: Any = None) -> Tensor:
        """Mean over ``axis`` (or ``dim``; all dims when ``None``); ``dtype`` converts the input first."""
        axis, keep_dims = _dim_overload(axis, keep_dims, dim, keepdim)
        x = self if dtype is None else self.astype(dtype)
        return run("mean", x, axis=_axis(axis), keepdims=keep_dims)

    def prod(self, axis: Any = None, keep_dims: Any = False, dtype: Any = None, *, dim: Any = None,
             keepdim: Any = None) -> Tensor:
        """Product over ``axis`` (or ``dim``; all dims when ``None``); ``dtype`` converts the input first."""
        axis, keep_dims = _dim_overload(axis, keep_dims, dim, keepdim)
        x = self if dtype is None else self.astype(dtype)
        return run("prod", x, axis=_axis(axis), keepdims=keep_dims)

    def max(self, *args: Any, **kwargs: Any) -> Any:
        """Maximum: ``max(axis=None, keepdims=False, *, initial=None, return_indices=False)`` gives the values
        (or ``(values, indices)`` with ``return_indices=True``); as in MindSpore, ``max(dim, keepdim=False)``
        — ``dim=`` or ``keepdim=`` given, or in PYNATIVE mode an int first argument — gives ``(values, indices)``
        (GRAPH mode and ``@jit`` read ``max(1)`` as ``max(axis=1)``: ``compiler.library.MEANINGS``)."""
        if _indices_overload(args, kwargs):
            dim, keepdim = _dim_keepdim("max", args, kwargs)
            return run("max_with_indices", self, axis=dim, keepdims=keepdim)
        return _extremum(self, "max", "maximum", *args, **kwargs)

    def min(self, *args: Any, **kwargs: Any) -> Any:
        """Minimum, with the two forms of :meth:`max`."""
        if _indices_overload(args, kwargs):
            dim, keepdim = _dim_keepdim("min", args, kwargs)
            return run("min_with_indices", self, axis=dim, keepdims=keepdim)
        return _extremum(self, "min", "minimum", *args, **kwargs)

    def argmax(self, axis: Any = None, keepdims: Any = False, *, dim: Any = None, keepdim: Any = None) -> Tensor:
        """Int64 index of the maximum over ``axis`` or ``dim`` (of the flattened Tensor when ``None``)."""
        axis, keepdims = _dim_overload(axis, keepdims, dim, keepdim)
        return run("argmax", self, axis=axis, keepdims=keepdims)

    def argmin(self, axis: Any = None, keepdims: Any = False, *, dim: Any = None, keepdim: Any = None) -> Tensor:
        """Int32 index (as MindSpore's) of the minimum over ``axis`` or ``dim`` (of the flattened Tensor when
        ``None``)."""
        axis, keepdims = _dim_overload(axis, keepdims, dim, keepdim)
        return run("cast", run("argmin", self, axis=axis, keepdims=keepdims), dtype=np.int32)

    def all(self, axis: Any = None, keep_dims: Any = False, *, dim: Any = None, keepdim: Any = None) -> Tensor:
        """Whether all elements over ``axis`` (or ``dim``) are true."""
        axis, keep_dims = _dim_overload(axis, keep_dims, dim, keepdim)
        return run("all", self, axis=_axis(axis), keepdims=keep_dims)

    def any(self, axis: Any = None, keep_dims: Any = False, *, dim: Any = None, keepdim: Any = None) -> Tensor:
        """Whether any element over ``axis`` (or ``dim``) is true."""
        axis, keep_dims = _dim_overload(axis, keep_dims, dim, keepdim)
        return run("any", self, axis=_axis(axis), keepdims=keep_dims)


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False):
    """Create a Tensor (``mindspore.tensor``): the same arguments and result as :class:`Tensor`."""
    return Tensor(input_data, dtype, shape, init, const_arg)


# ---------------------------------------------------------------------- operator helpers


def _operand(other, primitive, function):
    """The second operand of a binary operator.

    Tensors and Python numbers pass unchanged; lists, tuples and NumPy scalars become Tensors.
    ``None``, strings and other objects (NumPy arrays included) raise MindSpore's TypeError.
    """
    if isinstance(other, (Tensor, int, float, complex)):
        return other
    if isinstance(other, (list, tuple, np.generic)):
        return Tensor(other)
    if other is None:
        raise TypeError(f'Failed calling {function} with "{function}(None)".')
    if isinstance(other, str):
        raise TypeError(f'Failed calling {primitive} with "{primitive}()(input=Tensor, other=string)".')
    raise TypeError(f'Failed calling {primitive} with "{primitive}()(input=Tensor, other={type(other)})".')


def _as_arrays(value):
    """``value`` with every Tensor inside tuples, lists and dicts replaced by its ndarray."""
    if isinstance(value, Tensor):
        return value._array
    if isinstance(value, (tuple, list)):
        return type(value)(_as_arrays(item) for item in value)
    if isinstance(value, dict):
        return {key: _as_arrays(item) for key, item in value.items()}
    return value


def _axis(axis):
    """A reduction axis as ops take it: ``None`` (all dims), an int, or a tuple; ``()`` means all dims."""
    if isinstance(axis, (tuple, list)):
        return tuple(axis) if len(axis) > 0 else None
    return axis



def _dim_overload(axis, keepdims, dim, keepdim):
    """A reduction's ``(axis, keepdims)`` from MindSpore's two spellings (``axis``/``keepdims`` and
    ``dim``/``keepdim``). Raises TypeError when both name the same argument."""
    if dim is not None:
        if axis is not None:
            raise TypeError("got both 'axis' and 'dim'; pass one of them")
        axis = dim
    return axis, keepdims if keepdim is None else keepdim


def _indices_overload(args, kwargs) -> bool:
    """Whether a ``max``/``min`` call takes MindSpore's ``(dim, keepdim)`` form, which returns
    ``(values, indices)``: ``dim=`` or ``keepdim=`` given, or (PYNATIVE's meaning) an int, not a bool, as the
    first positional argument."""
    if "dim" in kwargs or "keepdim" in kwargs:
        return True
    if any(key in kwargs for key in ("axis", "keepdims", "initial", "return_indices")):
        return False
    return MEANINGS.pynative and len(args) > 0 and isinstance(args[0], int) and not isinstance(args[0], bool)


def _dim_keepdim(name, args, kwargs):
    """``(dim, keepdim)`` of a ``max(dim, keepdim=False)``-form call. Raises TypeError for other arguments."""
    unknown = [key for key in kwargs if key not in ("dim", "keepdim")]
    if len(args) > 2 or unknown:
        raise TypeError(f"Tensor.{name}(dim, keepdim=False) got unexpected arguments {args[2:]} {unknown}")
    dim = args[0] if len(args) > 0 else kwargs["dim"]
    keepdim = args[1] if len(args) > 1 else kwargs.get("keepdim", False)
    return dim, keepdim


def _extremum(x, op, combine, axis=None, keepdims=False, *, initial=None, where=None, return_indices=False):
    """``Tensor.max``/``min`` in the ``axis`` form: the values over ``axis`` (all dims when ``None``, when
    ``keepdims`` is ignored as MindSpore ignores it), combined with ``initial``, of the elements where the Bool
    ``where`` (broadcast) holds; ``(values, indices)`` with ``return_indices=True``.

    Raises:
        ValueError: if ``where`` is given without ``initial``.
    """
    if where is not None:
        if initial is None:
            raise ValueError(f"For 'Tensor.{op}', 'initial' must be given with 'where' (the value of a reduction "
                             f"over no element).")
        x = run("where", where, x, run("cast", initial, dtype=_np_dtype(x.dtype)))
    if return_indices:
        return run(op + "_with_indices", x, axis=_axis(axis), keepdims=keepdims)
    out = run(op, x, axis=_axis(axis), keepdims=keepdims and _axis(axis) is not None)
    return out if initial is None else run(combine, out, initial)

# ---------------------------------------------------------------------- indexing helpers


def _check_bounds(indices: list, size) -> None:
    """Raise MindSpore's IndexError for an int in the list index ``indices`` outside a dim of ``size``."""
    for i in indices:
        if isinstance(i, int) and isinstance(size, int) and size >= 0 and not -size <= i < size:
            raise IndexError(f"index {i} is out of bounds for dimension with size {size}")


def _only_full_slices(items, position) -> bool:
    """Whether every item but ``items[position]`` is ``:`` (a full slice)."""
    others = items[:position] + items[position + 1:]
    return all(isinstance(item, slice) and item == slice(None) for item in others)


def _index_with_numpy(x, items):
    """Indexing with several Tensor/list indices, or with a mask after other items: eager only."""
    if RECORDERS:
        check_not_traced(x, "indexing with several tensor or list indices")
    key = tuple(item._array if isinstance(item, Tensor) else item for item in items)
    return Tensor._wrap(np.asarray(x._array[key]))


# ---------------------------------------------------------------------- printing (MindSpore's layout)

_EDGE_ITEMS = 3              # elements or rows shown at each end of a summarised dim
_SUMMARY_THRESHOLD = 6       # dims longer than this are summarised (N-D tensors)
_SUMMARY_THRESHOLD_1D = 1000  # 1-D tensors longer than this are summarised


def _element_formatter(dtype: np.dtype):
    """How one element of a tensor with more than one element prints."""
    if dtype == np.float16:
        return lambda v: "%11.4e" % v
    if dtype.kind == "f":
        return lambda v: "%15.8e" % v
    if dtype.kind == "b":
        return lambda v: "%5s" % ("True" if v else "False")
    if dtype.kind == "c":
        return _complex_text
    # Integers are padded to the widest printed one: marked with '#' here, replaced at the end.
    return lambda v: "#" * len(str(int(v))) + str(int(v))


def _complex_text(v) -> str:
    """A complex element as MindSpore 2.10 prints it: ``1+2j``, ``-0-1j``, ``0+1e-05j``."""
    return "%g%+gj" % (v.real, v.imag)


def _scalar_text(v, dtype: np.dtype) -> str:
    """How the single value of a 0-d tensor prints (C++ stream defaults: ``%g`` for floats)."""
    if dtype.kind == "f":
        return "%g" % v
    if dtype.kind == "b":
        return "True" if v else "False"
    if dtype.kind == "c":
        return _complex_text(v)
    return str(int(v))


def _values_text(array) -> str:
    """The ``value=`` part of a Tensor's repr, laid out as MindSpore's TensorStringifier does."""
    array = np.asarray(array)
    if array.size == 0:
        return ""
    if array.ndim == 0:
        return _scalar_text(array.item(), array.dtype)
    linefeed = 12 if array.dtype.kind in "fb" else 24
    out = []
    _rows_text(out, array, 0, _element_formatter(array.dtype), linefeed)
    text = "".join(out)
    if "#" in text:
        width = max(len(run_) for run_ in re.findall("#+", text))
        text = re.sub("#+", lambda m: " " * (width - len(m.group())), text)
    return text


def _rows_text(out, array, depth, element, linefeed) -> None:
    ndim = depth + array.ndim
    count = array.shape[0]
    out.append("[")
    if array.ndim == 1:
        threshold = _SUMMARY_THRESHOLD if ndim > 1 else _SUMMARY_THRESHOLD_1D
        if count > threshold:
            _elements_text(out, array, 0, _EDGE_ITEMS, element, linefeed, ndim)
            out.append(" ... ")
            _elements_text(out, array, count - _EDGE_ITEMS, count, element, linefeed, ndim)
        else:
            _elements_text(out, array, 0, count, element, linefeed, ndim)
    else:
        indent = " " * (depth + 1)
        for i in range(min(_EDGE_ITEMS, count)):
            if i > 0:
                out.append(",\n" + indent)
            _rows_text(out, array[i], depth + 1, element, linefeed)
        if count > _SUMMARY_THRESHOLD:
            out.append(",\n" + indent + "...")
        for i in range(max(_EDGE_ITEMS, count - _EDGE_ITEMS), count):
            # MindSpore puts no comma right after the '...' line.
            comma = "," if i != count - _EDGE_ITEMS or count <= _SUMMARY_THRESHOLD else ""
            out.append(comma + "\n" + indent)
            _rows_text(out, array[i], depth + 1, element, linefeed)
    out.append("]")


def _elements_text(out, row, start, end, element, linefeed, ndim) -> None:
    for i in range(start, end):
        out.append(element(row[i]))
        if i != end - 1:
            out.append(", ")
        # 1-D tensors break the line every `linefeed` elements (even after the last one).
        if ndim == 1 and end - start > _EDGE_ITEMS and (i + 1) % linefeed == 0:
            out.append("\n ")


# The op runner, npspore.ops.eager.run. npspore.ops imports npspore.common, so npspore.common binds
# it here once all its names exist (see npspore/common/__init__.py).
run = None


def tensor_array(value, dtype=None) -> np.ndarray:
    """The array ``Tensor(value, dtype)`` holds (``dtype`` an npspore or NumPy dtype): how a kernel
    makes a tensor of a value computed in Python from tensor values (``rt.tensor_array``)."""
    return _array_from_data(value, None if dtype is None else mstype.as_dtype(dtype))


tensor_array.__npspore_runtime__ = True   # generated code names it rt.tensor_array

from_numpy = Tensor.from_numpy

LIBRARY.register_tensor(Tensor, Tensor._wrap, tensor_array)
