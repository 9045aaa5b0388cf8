"""More of the MindSpore API real programs call: ``mindspore.numpy`` functions and dtype names, ``ops.masked_fill``,
``AddN``, ``ScalarToTensor``, ``LinSpace``, ``ops.pows`` and ``mindspore._checkparam``'s checks. Expected values and
messages as MindSpore 2.10 (CPU) printed them for the same calls."""
import numpy as np
import pytest

import npspore as ms
import npspore._checkparam as cp
import npspore.numpy as mnp
from npspore import Tensor, ops
from npspore.ops import operations as P
from npspore.testing import check_grads

X = Tensor(np.array([[3.0, -4], [1, 2]], np.float32))
MASK = Tensor(np.array([[True, False], [False, True]]))


def test_numpy_creation():
    assert [mnp.array([1, 2, 3]).dtype, mnp.array([1.0, 2]).dtype, mnp.array(True).dtype] == [
        ms.int32, ms.float32, ms.bool_]
    assert mnp.array([[1, 2], [3, 4]], dtype=mnp.float16).dtype == ms.float16
    assert mnp.array([1, 2], ndmin=3).shape == (1, 1, 2)
    np.testing.assert_array_equal(mnp.linspace(0, 1, 5).asnumpy(), np.float32([0, 0.25, 0.5, 0.75, 1]))
    assert mnp.linspace(0, 1, 5).dtype == ms.float32
    np.testing.assert_array_equal(mnp.linspace(0, 10, 5, endpoint=False).asnumpy(), [0, 2, 4, 6, 8])
    np.testing.assert_array_equal(mnp.eye(2, 3, k=1, dtype=mnp.int32).asnumpy(), [[0, 1, 0], [0, 0, 1]])
    assert (mnp.float_, mnp.int_, mnp.pi) == (ms.float32, ms.int32, np.pi)


def test_numpy_math_and_shapes():
    np.testing.assert_allclose(mnp.norm(X).asnumpy(), 5.477226, rtol=1e-6)
    np.testing.assert_allclose(mnp.norm(X, axis=0).asnumpy(), [3.1622777, 4.472136], rtol=1e-6)
    np.testing.assert_array_equal(mnp.norm(X, ord=1, axis=1).asnumpy(), [7, 3])
    assert mnp.norm(X, keepdims=True).shape == (1, 1)
    np.testing.assert_allclose(mnp.reciprocal(X).asnumpy(), [[0.33333334, -0.25], [1, 0.5]], rtol=1e-7)
    sections = mnp.split(mnp.arange(6), 3)
    assert isinstance(sections, tuple) and [s.asnumpy().tolist() for s in sections] == [[0, 1], [2, 3], [4, 5]]
    pieces = mnp.split(mnp.arange(6), [1, 4])
    assert isinstance(pieces, list) and [p.asnumpy().tolist() for p in pieces] == [[0], [1, 2, 3], [4, 5]]
    np.testing.assert_array_equal(mnp.transpose(X).asnumpy(), [[3, 1], [-4, 2]])
    np.testing.assert_array_equal(mnp.minimum(X, 0.5).asnumpy(), [[0.5, -4], [0.5, 0.5]])
    np.testing.assert_array_equal(mnp.power(X, 2).asnumpy(), [[9, 16], [1, 4]])
    assert mnp.power(Tensor(np.array([2, 3], np.int32)), 2).dtype == ms.int32


def test_numpy_diag():
    np.testing.assert_array_equal(mnp.diag(X).asnumpy(), [3, 2])
    np.testing.assert_array_equal(mnp.diag(X, k=1).asnumpy(), [-4])
    v = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(mnp.diag(v).asnumpy(), [[1, 0], [0, 2]])
    np.testing.assert_array_equal(mnp.diag(v, k=-1).asnumpy(), [[0, 0, 0], [1, 0, 0], [0, 2, 0]])
    check_grads(lambda a: mnp.diag(a, k=1), (np.arange(3.0),))
    check_grads(lambda a: mnp.diag(a, k=-1), (np.arange(12.0).reshape(3, 4),))


def test_masked_fill_addn_scalar_to_tensor_linspace_pows():
    np.testing.assert_array_equal(ops.masked_fill(X, MASK, 0.5).asnumpy(), [[0.5, -4], [1, 0.5]])
    np.testing.assert_array_equal(P.MaskedFill()(X, MASK, Tensor(9.0, ms.float32)).asnumpy(), [[9, -4], [1, 9]])
    np.testing.assert_array_equal(ms.grad(lambda a: ops.masked_fill(a, MASK, 0.5).sum())(X).asnumpy(),
                                  [[0, 1], [1, 0]])
    with pytest.raises(TypeError, match="mask"):
        ops.masked_fill(X, X, 0.5)
    np.testing.assert_array_equal(P.AddN()((X, X, X)).asnumpy(), [[9, -12], [3, 6]])
    assert float(P.ScalarToTensor()(3).asnumpy()) == 3.0 and P.ScalarToTensor()(3).dtype == ms.float32
    np.testing.assert_array_equal(P.LinSpace()(Tensor(0.0, ms.float32), Tensor(1.0, ms.float32), 5).asnumpy(),
                                  np.float32([0, 0.25, 0.5, 0.75, 1]))
    assert isinstance(ops.pows, P.Pow)
    np.testing.assert_array_equal(ops.pows(X, 2).asnumpy(), [[9, 16], [1, 4]])


@pytest.mark.parametrize("call, error, message", [
    (lambda: cp.check_positive_int(0, "x", "Net"), ValueError,
     "For 'Net', the 'x' must be int and must > 0, but got '0' with type 'int'."),
    (lambda: cp.check_positive_int(True, "x"), TypeError,
     "The 'x' must be int and must > 0, but got 'True' with type 'bool'."),
    (lambda: cp.check_positive_int(2.0, "x"), TypeError, "The 'x' must be int, but got 'float'"),
    (lambda: cp.check_positive_int(None), TypeError, "The input value must be int, but got 'NoneType'"),
    (lambda: cp.check_non_negative_int(-1, "x", "N"), ValueError,
     "For 'N', the 'x' must be int and must >= 0, but got '-1' with type 'int'."),
    (lambda: cp.check_positive_float(0.0, "lr", "Opt"), ValueError,
     "For 'Opt', the 'lr' must be float and must > 0, but got '0.0' with type 'float'."),
    (lambda: cp.check_positive_float(1, "lr"), TypeError, "The 'lr' must be float, but got 'int'"),
    (lambda: cp.check_bool(1, "flag", "N"), TypeError, "For 'N', the 'flag' must be a bool, but got int."),
    (lambda: cp.check_value_type("x", 1.0, [int], "Net"), TypeError,
     "For 'Net', the type of 'x' should be 'int', but got type 'float'."),
    (lambda: cp.check_value_type("x", True, int, "Net"), TypeError,
     "For 'Net', the type of 'x' should be 'int', but got type 'bool'."),
    (lambda: cp.check_value_type("x", "s", [int, float], "N"), TypeError,
     "For 'N', the type of 'x' should be one of '['int', 'float']', but got type 'str'."),
    (lambda: cp.check_is_int(1.0, "x"), TypeError, "The type of 'x' must be 'int', but got 'float'."),
    (lambda: cp.check_is_float(1, "x", "N"), TypeError, "For 'N', the type of 'x' must be 'float', but got 'int'."),
])
def test_checkparam_messages(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_checkparam_accepts():
    assert cp.check_positive_int(3) == 3 and cp.check_non_negative_int(0) == 0 and cp.check_bool(True) is True
    assert cp.check_value_type("x", 1, [int, float]) == 1 and cp.check_positive_float(0.5) == 0.5


@pytest.mark.parametrize("module, name, same_as", [
    ("npspore.ops.functional", "depend", "npspore.ops:depend"),
    ("npspore.ops.functional", "partial", "npspore.ops:partial"),
    ("npspore.ops.functional", "select", "npspore.ops:select"),
    ("npspore.ops.composite", "clip_by_value", "npspore.ops:clip_by_value"),
    ("npspore.ops.composite", "clip_by_global_norm", "npspore.ops:clip_by_global_norm"),
    ("npspore.train.model", "ParallelMode", "npspore.context:ParallelMode"),
    ("npspore.dataset.engine", "ImageFolderDataset", "npspore.dataset:ImageFolderDataset"),
    ("npspore.dataset.engine.config", "set_seed", "npspore.dataset.config:set_seed"),
    ("npspore.nn.layer.activation", "get_activation", "npspore.nn:get_activation"),
    ("npspore.train.callback._callback", "Callback", "npspore.train.callback:Callback"),
    ("npspore.ops.function", "broadcast_to", "npspore.ops:broadcast_to"),
    ("npspore.ops.auto_generate.gen_ops_prim", "Transpose", "npspore.ops:Transpose"),
    ("npspore.version", "__version__", "npspore:__version__"),
    ("npspore.train.serialization", "context", "npspore:context"),
])
def test_spellings_programs_write(module, name, same_as):
    import importlib
    target_module, target_name = same_as.split(":")
    assert getattr(importlib.import_module(module), name) is getattr(importlib.import_module(target_module),
                                                                       target_name)


def test_tensor_dot():
    a = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    b = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    assert ops.tensor_dot(a, b, 1).shape == (2, 3, 3)                                   # MindSpore 2.10
    np.testing.assert_array_equal(ops.tensor_dot(a, b, ((1, 2), (1, 0))).asnumpy(), [440, 1232])
    assert ops.tensor_dot(a[0], b, 0).shape == (3, 4, 4, 3)
    assert ops.tensor_dot(Tensor(np.ones(3, np.int32)), Tensor(np.ones(3, np.int32)), 1).dtype == ms.int32
    check_grads(lambda x, y: ops.tensor_dot(x, y, ((1, 2), (1, 0))), (np.arange(24.0).reshape(2, 3, 4),
                                                                        np.arange(12.0).reshape(4, 3)))
    with pytest.raises(ValueError, match="must have the same sizes"):
        ops.tensor_dot(a, b, ((0,), (0,)))
