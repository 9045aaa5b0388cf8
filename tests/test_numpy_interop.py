"""Tensor and NumPy together: ufuncs, NumPy functions, operators with ndarrays, __array__, DLPack.

Observed on MindSpore 2.10 CPU (NumPy 1.26) with t = Tensor([1., 2., 3.], float32):
np.exp(t) -> ndarray([2.718282, 7.3890557, 20.085537], float32); np.ones(3) + t -> ndarray([2., 3., 4.],
float64); np.ones(3, float32) * t -> ndarray float32; np.maximum(t, 2) -> ndarray([2., 2., 3.], float32);
np.reshape(t, (3, 1)) and np.concatenate([t, t]) -> ndarrays; t + np.ones(3) -> TypeError 'Failed calling
Add ...'; t.__array__(np.float64) -> float64 ndarray. MindSpore's np.sum(t) fails (its Tensor.sum has
no ``out``) and it has no __dlpack__: npspore returns NumPy's results there.
"""
import numpy as np
import pytest

from npspore import Tensor


def t3():
    return Tensor(np.array([1.0, 2.0, 3.0], np.float32))


def assert_ndarray(value, expected, dtype):
    assert type(value) is np.ndarray
    assert value.dtype == dtype
    np.testing.assert_array_equal(value, np.array(expected, dtype))


def test_ufunc_of_a_tensor_is_an_ndarray():
    assert_ndarray(np.exp(t3()), [2.718282, 7.3890557, 20.085537], np.float32)
    assert_ndarray(np.maximum(t3(), 2), [2.0, 2.0, 3.0], np.float32)
    assert_ndarray(np.add(t3(), t3()), [2.0, 4.0, 6.0], np.float32)


def test_ndarray_on_the_left_gives_an_ndarray():
    assert_ndarray(np.ones(3) + t3(), [2.0, 3.0, 4.0], np.float64)
    assert_ndarray(np.ones(3, np.float32) * t3(), [1.0, 2.0, 3.0], np.float32)
    assert_ndarray(np.ones((3, 3)) @ t3(), [6.0, 6.0, 6.0], np.float64)


def test_tensor_on_the_left_rejects_an_ndarray_as_mindspore_does():
    with pytest.raises(TypeError, match=r"Failed calling Add with .*numpy\.ndarray"):
        t3() + np.ones(3)


def test_numpy_functions_return_numpy_results():
    total = np.sum(t3())
    assert total == 6.0 and total.dtype == np.float32
    assert np.mean(t3()) == 2.0
    assert_ndarray(np.sum(Tensor(np.ones((2, 3), np.float32)), axis=0), [2.0, 2.0, 2.0], np.float32)
    assert_ndarray(np.reshape(t3(), (3, 1)), [[1.0], [2.0], [3.0]], np.float32)
    assert_ndarray(np.concatenate([t3(), t3()]), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0], np.float32)


def test_array_protocol():
    tensor = t3()
    assert np.asarray(tensor) is tensor.asnumpy()
    assert_ndarray(tensor.__array__(np.float64), [1.0, 2.0, 3.0], np.float64)
    copied = np.array(tensor)
    copied[0] = 9.0
    assert tensor.asnumpy()[0] == 1.0


def test_dlpack_shares_memory_with_the_tensor():
    tensor = t3()
    assert tensor.__dlpack_device__() == (1, 0)  # kDLCPU, device 0
    view = np.from_dlpack(tensor)
    assert_ndarray(view, [1.0, 2.0, 3.0], np.float32)
    assert np.shares_memory(view, tensor.asnumpy())
