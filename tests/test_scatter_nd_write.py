"""P.ScatterNdUpdate / ops.scatter_nd_update: in-place values, the last of repeated positions winning, eager and
compiled, gradients, and errors, as MindSpore 2.10 printed them."""
import numpy as np
import pytest

import npspore as ms
from npspore import nn, ops, Parameter, Tensor
from npspore.ops import operations as P, scatter_nd_write
from npspore.testing import check_grads


def test_rows_and_elements_update_in_place_last_writer_wins():
    x = Parameter(Tensor(np.arange(12, dtype=np.float32).reshape(4, 3)), name="x")
    op = P.ScatterNdUpdate()
    out = op(x, Tensor([[1], [3]], ms.int32), Tensor([[10.0, 11, 12], [20, 21, 22]]))
    # MindSpore 2.10: the output and x are both [[0 1 2] [10 11 12] [6 7 8] [20 21 22]]
    expected = [[0, 1, 2], [10, 11, 12], [6, 7, 8], [20, 21, 22]]
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(x.asnumpy(), expected)
    op(x, Tensor([[0, 1], [2, 2], [0, 1]], ms.int64), Tensor([7.0, 8, 9]))
    # MindSpore 2.10: (0, 1) written twice, 9 last; [[0 9 2] [10 11 12] [6 7 8] [20 21 22]]
    np.testing.assert_array_equal(x.asnumpy(), [[0, 9, 2], [10, 11, 12], [6, 7, 8], [20, 21, 22]])
    ops.scatter_nd_update(x, Tensor([[1]], ms.int32), Tensor([[1, 1, 1]], ms.int32))   # cast to x's dtype
    np.testing.assert_array_equal(x.asnumpy()[1], [1.0, 1.0, 1.0])
    assert x.dtype == ms.float32
    assert repr(op) == "Prim[ScatterNdUpdate]<use_locking=True, side_effect_mem=True>"


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="p")
        self.op = P.ScatterNdUpdate()

    def construct(self, u):
        return self.op(self.p, Tensor([[2], [0]], ms.int32), u * 2)


@pytest.mark.parametrize("compiled", [False, True])
def test_in_a_cell_updates_the_parameter_and_differentiates(compiled):
    net = _Net()
    u = Tensor(np.array([[1.0, 2], [3, 4]], np.float32))
    out = (ms.jit(net) if compiled else net)(u)
    # MindSpore 2.10: [[6 8] [0 0] [2 4]], the Parameter too; the gradient of out.sum() to u is all 2
    np.testing.assert_array_equal(out.asnumpy(), [[6, 8], [0, 0], [2, 4]])
    np.testing.assert_array_equal(net.p.asnumpy(), [[6, 8], [0, 0], [2, 4]])

    def loss(v):
        return net(v).sum()

    grad = (ms.jit(ops.grad(loss)) if compiled else ops.grad(loss))(u)
    np.testing.assert_array_equal(grad.asnumpy(), [[2.0, 2.0], [2.0, 2.0]])


INDICES = Tensor([[1, 0], [2, 1], [1, 0]], ms.int32)


def _updated_norm(x, updates):
    return (scatter_nd_write._updated(x, INDICES, updates) ** 2).sum()


def test_gradients_against_central_differences():
    rng = np.random.default_rng(0)
    check_grads(_updated_norm, [rng.standard_normal((3, 2, 2)), rng.standard_normal((3, 2))], order=1)


@pytest.mark.parametrize("build, error, message", [
    (lambda: P.ScatterNdUpdate()(Tensor(np.zeros((4, 3), np.float32)), Tensor([[1]], ms.float32),
                                 Tensor([[1.0, 1, 1]])), TypeError,
     r"For primitive\[ScatterNdUpdate\], the input argument\[indices type\] must be a type of \{Tensor\[Int32\], "
     r"Tensor\[Int64\]\}, but got Tensor\[Float32\]."),
    (lambda: P.ScatterNdUpdate()(Tensor(np.zeros((4, 3), np.float32)), Tensor([[1]], ms.int32), Tensor([[1.0, 1]])),
     ValueError, r"the shape of 'updates' must be \(1, 3\)"),
    (lambda: P.ScatterNdUpdate(use_locking=1), TypeError,
     "For 'ScatterNdUpdate', the type of 'use_locking' should be 'bool', but got type 'int'."),
])
def test_errors(build, error, message):
    with pytest.raises(error, match=message):
        build()
