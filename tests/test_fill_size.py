"""``ops.full_like`` and ``ops.size`` against MindSpore 2.10: each value below was printed by
``tools/observe_mindspore_fill_size.py`` under the real MindSpore 2.10 CPU (the ``*_doc`` cases are the
examples of its docstrings), and each runs eagerly and compiled."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops
from npspore.ops import functional as F

FULL_LIKE = {   # name: (input, fill_value, dtype, MindSpore 2.10's repr)
    "full_like_doc": (np.arange(4), 1.2, None, "Tensor(shape=[4], dtype=Int64, value= [1, 1, 1, 1])"),
    "full_like_doc_dtype": (np.arange(4), 1.2, ms.float32,
                            "Tensor(shape=[4], dtype=Float32, value= [ 1.20000005e+00,  1.20000005e+00,  "
                            "1.20000005e+00,  1.20000005e+00])"),
    "full_like_float_int": (np.ones((2, 3), np.float32), 7, None,
                            "Tensor(shape=[2, 3], dtype=Float32, value=\n[[ 7.00000000e+00,  7.00000000e+00,  "
                            "7.00000000e+00],\n [ 7.00000000e+00,  7.00000000e+00,  7.00000000e+00]])"),
    "full_like_bool": (np.ones((2,), np.float64), True, ms.bool_,
                       "Tensor(shape=[2], dtype=Bool, value= [ True,  True])"),
    "full_like_negative_int32": (np.ones((1, 2), np.int32), -2.7, None,
                                 "Tensor(shape=[1, 2], dtype=Int32, value=\n[[-2, -2]])"),
}
SIZES = {"size_doc": (np.array([[2, 2], [2, 2]], np.float32), 4),
         "size_scalar_tensor": (np.array(3.0, np.float32), 1),
         "size_empty": (np.ones((2, 0, 3), np.float32), 0)}


@pytest.mark.parametrize("name", sorted(FULL_LIKE))
@pytest.mark.parametrize("compiled", [False, True])
def test_full_like_is_mindspores(name, compiled):
    data, fill_value, dtype, expected = FULL_LIKE[name]

    def fill(x):
        return ops.full_like(x, fill_value, dtype=dtype)

    assert repr((ms.jit(fill) if compiled else fill)(Tensor(data))) == expected


@pytest.mark.parametrize("name", sorted(SIZES))
@pytest.mark.parametrize("compiled", [False, True])
def test_size_is_mindspores(name, compiled):
    data, expected = SIZES[name]

    def size_plus(x):
        return ops.size(x) + ops.zeros_like(x).sum()

    assert ops.size(Tensor(data)) == expected and type(ops.size(Tensor(data))) is int
    assert F.size(Tensor(data)) == expected
    assert float((ms.jit(size_plus) if compiled else size_plus)(Tensor(data))) == expected


def test_full_like_is_a_constant_of_the_gradient():
    x = Tensor(np.array([1.0, -2.0, 0.5]))
    gradient = ms.grad(lambda v: (ops.full_like(v, 3.0) * v * v).sum())(x)
    np.testing.assert_allclose(gradient.asnumpy(), [6.0, -12.0, 3.0], rtol=1e-12)


def test_errors_are_mindsporess():
    # MindSpore 2.10: "For ops.full_like, the argument 'x' must be tensor, but got <class 'list'>"
    with pytest.raises(TypeError, match=r"For ops.full_like, the argument 'x' must be tensor, but got <class 'list'>"):
        ops.full_like([1, 2], 1.0)
    # MindSpore 2.10: "For 'Size', input must be a Tensor, but got: List[Int64*2]."
    with pytest.raises(TypeError, match=r"For 'Size', input must be a Tensor"):
        ops.size([1, 2])


def _stop_gradient_doc(x, y):
    out1 = ops.MatMul()(x, y)
    out2 = ops.StopGradient()(ops.MatMul()(x, y))
    return out1, out2


def _stop_gradient_product(x):
    return (ops.StopGradient()(x * x) * x).sum()


@pytest.mark.parametrize("compiled", [False, True])
def test_stop_gradient_is_mindspores(compiled):
    """MindSpore 2.10's StopGradient docstring: the gradient of (out1, out2) with out2 stopped is out1's alone,
    [[1.41000009, 1.5999999, 6.5999999]] twice (float32); of sum(stop(x * x) * x) at [1, 2] it is [1, 4]."""
    x = Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], ms.float32)
    y = Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], ms.float32)
    doc_gradient = ops.grad(_stop_gradient_doc)
    product_gradient = ops.grad(_stop_gradient_product)
    if compiled:
        doc_gradient, product_gradient = ms.jit(doc_gradient), ms.jit(product_gradient)
    np.testing.assert_allclose(doc_gradient(x, y).asnumpy(), [[1.41000009, 1.5999999, 6.5999999]] * 2, rtol=1e-6)
    assert product_gradient(Tensor(np.array([1.0, 2.0]))).asnumpy().tolist() == [1.0, 4.0]
    stopped = ops.StopGradient()(Tensor(np.array([1.5, -2.0], np.float32)))
    assert repr(stopped) == "Tensor(shape=[2], dtype=Float32, value= [ 1.50000000e+00, -2.00000000e+00])"
    assert repr(ops.StopGradient()) == "Prim[StopGradient]"
