"""npspore.common.dtype: names, equality, and conversions to and from NumPy/Python types (semantics §12)."""
import numpy as np
import pytest

import npspore as ms
from npspore.common import dtype as mstype


@pytest.mark.parametrize("dtype, text, representation, type_name", [
    (ms.float16, "Float16", "mindspore.float16", "Float"),
    (ms.float32, "Float32", "mindspore.float32", "Float"),
    (ms.float64, "Float64", "mindspore.float64", "Float"),
    (ms.bfloat16, "BFloat16", "mindspore.bfloat16", "BFloat"),
    (ms.int8, "Int8", "mindspore.int8", "Int"),
    (ms.int16, "Int16", "mindspore.int16", "Int"),
    (ms.int32, "Int32", "mindspore.int32", "Int"),
    (ms.int64, "Int64", "mindspore.int64", "Int"),
    (ms.uint8, "UInt8", "mindspore.uint8", "UInt"),
    (ms.uint64, "UInt64", "mindspore.uint64", "UInt"),
    (ms.bool_, "Bool", "mindspore.bool", "Bool"),
    (ms.complex64, "Complex64", "mindspore.complex64", "Complex"),
    (ms.complex128, "Complex128", "mindspore.complex128", "Complex"),
    (ms.float_, "Float", "mindspore.float", "Float"),
    (ms.int_, "Int", "mindspore.int", "Int"),
])
def test_names(dtype, text, representation, type_name):
    assert str(dtype) == text
    assert repr(dtype) == representation
    assert type(dtype).__name__ == type_name


def test_aliases_are_the_same_objects():
    assert ms.half is ms.float16
    assert ms.single is ms.float32
    assert ms.float64 is ms.double
    assert ms.dtype is mstype
    assert ms.common.dtype.float32 is ms.float32


def test_equality_and_hashing():
    assert ms.Tensor([1.]).dtype == ms.float32
    assert (ms.float32 == "Float32") is False
    assert ms.float32 != ms.float64
    assert ms.int32 != ms.uint32
    assert mstype.Float(32) == ms.float32
    assert hash(mstype.Float(32)) == hash(ms.float32)
    assert {ms.float32: "a"}[mstype.Float(32)] == "a"
    assert ms.float_ != ms.float32
    assert ms.int32 in mstype.int_type and ms.uint8 not in mstype.int_type


def test_invalid_width():
    with pytest.raises(ValueError, match=r"For 'Float', the number of bits should be one of \[16, 32, 64\], but got 8."):
        mstype.Float(8)


def test_dtype_to_nptype():
    assert ms.dtype_to_nptype(ms.float32) is np.float32
    assert ms.dtype_to_nptype(ms.bool_) is np.bool_
    assert ms.dtype_to_nptype(ms.uint16) is np.uint16
    assert ms.dtype_to_nptype(ms.complex128) is np.complex128


def test_bfloat16_has_no_numpy_storage():
    with pytest.raises(TypeError, match="NumPy has no bfloat16"):
        ms.dtype_to_nptype(ms.bfloat16)
    with pytest.raises(TypeError, match="NumPy has no bfloat16"):
        ms.Tensor([1.5], ms.bfloat16)
    with pytest.raises(TypeError, match="has no NumPy counterpart"):
        ms.dtype_to_nptype(ms.float_)


def test_pytype_to_dtype():
    assert ms.pytype_to_dtype(float) == ms.float64
    assert str(ms.pytype_to_dtype(float)) == "Float64"
    assert ms.pytype_to_dtype(int) == ms.int64
    assert ms.pytype_to_dtype(bool) == ms.bool_
    assert ms.pytype_to_dtype(complex) == ms.complex128
    assert ms.pytype_to_dtype(np.float16) == ms.float16
    assert ms.pytype_to_dtype(np.dtype("int8")) == ms.int8
    assert ms.pytype_to_dtype(ms.uint8) is ms.uint8
    with pytest.raises(TypeError, match="must be a python type object"):
        ms.pytype_to_dtype(3)
    with pytest.raises(NotImplementedError, match="cannot be converted to MindSpore type"):
        ms.pytype_to_dtype(str)


def test_dtype_to_pytype():
    assert ms.dtype_to_pytype(ms.float16) is float
    assert ms.dtype_to_pytype(ms.uint8) is int
    assert ms.dtype_to_pytype(ms.bool_) is bool


def test_nptype_to_dtype():
    assert ms.nptype_to_dtype(np.dtype("float32")) is ms.float32
    assert ms.nptype_to_dtype(np.int32) is ms.int32
    assert ms.nptype_to_dtype(np.longlong) is ms.int64
    assert ms.nptype_to_dtype(np.bool_) is ms.bool_
    assert ms.nptype_to_dtype(np.arange(3, dtype=np.uint8).dtype) is ms.uint8
    with pytest.raises(TypeError, match="has no MindSpore counterpart"):
        ms.nptype_to_dtype(np.dtype(object))


def test_tensor_type():
    tensor_type = mstype.TensorType(ms.float32)
    assert repr(tensor_type) == "mindspore.tensor[float32]"
    assert str(tensor_type) == "Tensor[Float32]"
    assert tensor_type.element_type() is ms.float32
    assert tensor_type == ms.tensor_type(ms.float32)
    assert tensor_type != mstype.TensorType(ms.float16)


@pytest.mark.parametrize("value, expected", [
    ("float16", ms.float16), ("Float32", ms.float32), ("int", ms.int64), ("bool", ms.bool_),
    (np.int8, ms.int8), (np.dtype("uint8"), ms.uint8), (ms.float64, ms.float64), (float, ms.float64),
])
def test_as_dtype(value, expected):
    assert mstype.as_dtype(value) == expected


def test_as_dtype_rejects_unknown_names():
    with pytest.raises(TypeError, match="For Tensor.astype, the string input type must be one of .*but got 'f32'."):
        mstype.as_dtype("f32")
    with pytest.raises(TypeError, match="For Tensor.astype, the input type must be"):
        mstype.as_dtype(3)
