"""Data types of npspore, as in ``mindspore.common.dtype`` (imported as ``mstype``).

A dtype is an object such as ``float32`` whose ``str`` is ``Float32`` and whose ``repr`` is
``mindspore.float32``; ``type(float32).__name__`` is ``Float``. Dtypes compare equal by kind and
width (``Float(32) == float32``), are hashable, and never equal a string.

Tensors store their data as NumPy arrays, so every dtype except ``bfloat16`` has a NumPy
counterpart (:func:`dtype_to_nptype` / :func:`nptype_to_dtype`). ``bfloat16`` exists for
printing and comparison only: NumPy has no bfloat16, and asking for bfloat16 data raises
``TypeError``.
"""
from __future__ import annotations

import enum

import numpy as np

from ..compiler.library import LIBRARY

__all__ = [
    "float16", "float32", "float64", "bfloat16", "half", "single", "double", "float_",
    "int8", "int16", "int32", "int64", "int_",
    "uint8", "uint16", "uint32", "uint64",
    "bool_", "complex64", "complex128",
    "int_type", "uint_type", "float_type", "number_type",
    "TensorType", "tensor_type",
    "string",
    "dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype", "nptype_to_dtype",
]


class Type:
    """Base class of npspore data types."""

    _kind = "Type"
    _widths: tuple = ()

    def __init__(self, nbits=None):
        if nbits is not None and nbits not in self._widths:
            raise ValueError(f"For '{self._kind}', the number of bits should be one of {list(self._widths)}, "
                             f"but got {nbits}.")
        self._nbits = nbits

    @property
    def nbits(self) -> int:
        """The width in bits (0 for a generic type such as ``float_``)."""
        return self._nbits or 0

    def __str__(self) -> str:
        return f"{self._kind}{self._nbits or ''}"

    def __repr__(self) -> str:
        return "mindspore." + str(self).lower()

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other._nbits == self._nbits

    def __hash__(self) -> int:
        return hash((self._kind, self._nbits))


class Number(Type):
    """Base class of numeric types."""


class Bool(Number):
    """The boolean type: ``bool_``."""

    _kind = "Bool"


class Int(Number):
    """Signed integers: ``int8`` ... ``int64``; ``Int()`` is the generic ``int_``."""

    _kind = "Int"
    _widths = (8, 16, 32, 64)


class UInt(Number):
    """Unsigned integers: ``uint8`` ... ``uint64``."""

    _kind = "UInt"
    _widths = (8, 16, 32, 64)


class Float(Number):
    """IEEE floats: ``float16``, ``float32``, ``float64``; ``Float()`` is the generic ``float_``."""

    _kind = "Float"
    _widths = (16, 32, 64)


class BFloat(Number):
    """Brain float: ``bfloat16`` (no NumPy storage; see the module doc)."""

    _kind = "BFloat"
    _widths = (16,)


class Complex(Number):
    """Complex numbers: ``complex64``, ``complex128``."""

    _kind = "Complex"
    _widths = (64, 128)


class TensorType(Type):
    """The type of a Tensor with elements of ``element_type``.

    ``str(TensorType(float32))`` is ``Tensor[Float32]``, its ``repr`` ``mindspore.tensor[float32]``.
    """

    def __init__(self, element_type=None):
        super().__init__()
        self._element = element_type

    def element_type(self):
        """The dtype of the elements."""
        return self._element

    def __str__(self) -> str:
        return "Tensor" if self._element is None else f"Tensor[{self._element}]"

    def __repr__(self) -> str:
        return "mindspore.tensor" if self._element is None else f"mindspore.tensor[{str(self._element).lower()}]"

    def __eq__(self, other) -> bool:
        return type(other) is TensorType and other._element == self._element

    def __hash__(self) -> int:
        return hash(("Tensor", self._element))


tensor_type = TensorType

bool_ = Bool()
int8, int16, int32, int64 = Int(8), Int(16), Int(32), Int(64)
uint8, uint16, uint32, uint64 = UInt(8), UInt(16), UInt(32), UInt(64)
float16, float32, float64 = Float(16), Float(32), Float(64)
bfloat16 = BFloat(16)
complex64, complex128 = Complex(64), Complex(128)
half, single, double = float16, float32, float64
float_ = Float()
int_ = Int()


class String(Type):
    """Text: ``string``, the type of dataset columns of str (``dataset.Schema``); no Tensor holds it."""

    _kind = "String"


string = String()

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
number_type = int_type + uint_type + float_type + (complex64, complex128)

_MS_TO_NP = {
    bool_: np.bool_,
    int8: np.int8, int16: np.int16, int32: np.int32, int64: np.int64,
    uint8: np.uint8, uint16: np.uint16, uint32: np.uint32, uint64: np.uint64,
    float16: np.float16, float32: np.float32, float64: np.float64,
    complex64: np.complex64, complex128: np.complex128,
}
_NP_TO_MS = {np.dtype(nptype): mstype for mstype, nptype in _MS_TO_NP.items()}
_PY_TO_MS = {bool: bool_, int: int64, float: float64, complex: complex128}
_MS_TO_PY = {bool_: bool, **{t: int for t in int_type + uint_type},
             **{t: float for t in float_type}, complex64: complex, complex128: complex}


def dtype_to_nptype(type_):
    """Convert a dtype to the NumPy scalar type that stores it (``float32`` -> ``numpy.float32``).

    Raises:
        TypeError: for ``bfloat16`` (NumPy has none) and for types with no NumPy counterpart.
    """
    nptype = _MS_TO_NP.get(type_)
    if nptype is None:
        if type_ == bfloat16:
            raise TypeError("npspore cannot hold BFloat16 data: NumPy has no bfloat16 type. "
                            "Use mindspore.float32 or mindspore.float16 instead.")
        raise TypeError(f"The dtype {type_!r} has no NumPy counterpart.")
    return nptype


def dtype_to_pytype(type_):
    """Convert a dtype to the Python type of its values (``float32`` -> ``float``, ``int8`` -> ``int``)."""
    pytype = _MS_TO_PY.get(type_)
    if pytype is None:
        raise NotImplementedError(f"The dtype {type_!r} cannot be converted to a python type.")
    return pytype


def pytype_to_dtype(obj):
    """Convert a Python or NumPy type to a dtype (``float`` -> ``Float64``, ``numpy.int8`` -> ``Int8``).

    Raises:
        TypeError: if ``obj`` is not a type.
        NotImplementedError: if the type has no npspore counterpart.
    """
    if isinstance(obj, np.dtype):
        obj = obj.type
    if isinstance(obj, Type):
        return obj
    if not isinstance(obj, type):
        raise TypeError("The argument 'obj' must be a python type object, such as int, float, str, etc."
                        f"But got type {type(obj)}.")
    if obj in _PY_TO_MS:
        return _PY_TO_MS[obj]
    found = _NP_TO_MS.get(np.dtype(obj)) if issubclass(obj, np.generic) else None
    if found is None:
        raise NotImplementedError(f"The python type {obj} cannot be converted to MindSpore type.")
    return found


def nptype_to_dtype(nptype):
    """Convert a NumPy dtype or scalar type to a dtype (``numpy.dtype('float32')`` -> ``Float32``).

    Raises:
        TypeError: if NumPy's type has no npspore counterpart (object, strings, float128 ...).
    """
    found = _NP_TO_MS.get(nptype)
    if found is None:
        found = _NP_TO_MS.get(np.dtype(nptype)) if nptype is not None else None
        if found is None:
            raise TypeError(f"The numpy type {nptype} has no MindSpore counterpart.")
    return found


_ASTYPE_NAMES = {str(t).lower(): t for t in _MS_TO_NP} | {"int": int64, "float": float64, "bool": bool_,
                                                            "bool_": bool_}


def as_dtype(value, who="Tensor.astype"):
    """Read a dtype given as a dtype, a NumPy dtype/type, a Python type or a name such as ``"float16"``.

    Raises:
        TypeError: naming ``who`` when ``value`` is none of these.
    """
    if isinstance(value, Type):
        return value
    if isinstance(value, str):
        found = _ASTYPE_NAMES.get(value.lower())
        if found is None:
            raise TypeError(f"For {who}, the string input type must be one of {sorted(_ASTYPE_NAMES)}, "
                            f"but got '{value}'.")
        return found
    if isinstance(value, (type, np.dtype)):
        return pytype_to_dtype(value)
    raise TypeError(f"For {who}, the input type must be a mindspore dtype, a numpy dtype or a type name, "
                    f"but got '{value}'.")


LIBRARY.register_dtypes(dtype_to_nptype, nptype_to_dtype)


@enum.unique
class QuantDtype(enum.Enum):
    """The data types of quantized values (MindSpore Golden Stick's ``QuantDtype.INT4``): ``INT1`` ... ``INT16``
    (values 0 ... 15) and ``UINT1`` ... ``UINT16`` (100 ... 115). As in MindSpore, ``str`` is the name and
    ``value()`` (a method) the number."""

    INT1, INT2, INT3, INT4, INT5, INT6, INT7, INT8 = range(8)
    INT9, INT10, INT11, INT12, INT13, INT14, INT15, INT16 = range(8, 16)
    UINT1, UINT2, UINT3, UINT4, UINT5, UINT6, UINT7, UINT8 = range(100, 108)
    UINT9, UINT10, UINT11, UINT12, UINT13, UINT14, UINT15, UINT16 = range(108, 116)

    def __str__(self) -> str:
        return self.name

    def value(self) -> int:   # type: ignore[override]
        """The number of the type (``QuantDtype.INT8.value()`` is 7), as MindSpore serializes it."""
        return self._value_


__all__ += ["QuantDtype"]


_LONG_LONG = {np.dtype(np.int64): np.dtype(np.longlong), np.dtype(np.uint64): np.dtype(np.ulonglong)}


def as_mindspore_array(array: np.ndarray) -> np.ndarray:
    """``array`` as MindSpore's C++ hands a dataset's NumPy rows over: 64-bit integers typed ``long long`` (a view;
    equal dtypes, but the repr says ``dtype=int64`` as MindSpore's does)."""
    typed = _LONG_LONG.get(array.dtype)
    return array if typed is None or array.dtype.char == typed.char else array.view(typed)
