"""The gradient of a sparse cross-entropy without its one-hot array (compiler/onehotgrads.py): the kernel adds
``g`` at the labels (``rt.scatter_last_add``) and computes ``softmax(logits) - one_hot(labels)``, times the
reduction's scale, as MindSpore's SparseSoftmaxCrossEntropyWithLogits gradient is."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn
from npspore.core import kernels_np


def _softmax_minus_one_hot(logits, labels):
    z = logits.astype(np.float64)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    p[np.arange(len(labels)), labels] -= 1
    return p


class _Loss(nn.Cell):
    def __init__(self, reduction, doubled):
        super().__init__()
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction=reduction)
        self.doubled = doubled

    def construct(self, logits, labels):
        if self.doubled:              # an op before the loss: its adjoint reads the buffer the labels were added into
            logits = logits * 2.0
        return self.loss(logits, labels)


# without the doubling, the kernel returns the very buffer it added into: a new one each call
@pytest.mark.parametrize("doubled", [False, True])
@pytest.mark.parametrize("reduction, scale", [("mean", 1.0 / 6), ("sum", 1.0)])
def test_the_sparse_cross_entropy_gradient_adds_at_the_labels(reduction, scale, doubled):
    rng = np.random.default_rng(0)
    factor = 2.0 if doubled else 1.0
    grad = ms.grad(_Loss(reduction, doubled))
    batches = [(rng.standard_normal((6, 9)).astype(np.float32), rng.integers(0, 9, 6)) for _ in range(2)]
    source = grad.kernel_source(*(Tensor(a) for a in batches[0]))
    assert "rt.scatter_last_add(" in source and "rt.scatter_last(" not in source
    results = [grad(Tensor(x), Tensor(y)) for x, y in batches]
    for (x, y), got in zip(batches, results):     # the first result survives the second call
        np.testing.assert_allclose(got.asnumpy(), factor * scale * _softmax_minus_one_hot(factor * x, y),
                                   rtol=1e-5, atol=1e-7)


def test_scatter_last_add_adds_one_value_per_row_in_place():
    buffer = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    g = np.array([[[10.0], [20.0]], [[30.0], [40.0]]], np.float32)
    indices = np.array([[[2], [0]], [[1], [1]]])
    expected = buffer.copy()
    np.put_along_axis(expected, indices, np.take_along_axis(expected, indices, axis=-1) + g, axis=-1)
    assert kernels_np.scatter_last_add(buffer, g, indices) is buffer
    np.testing.assert_array_equal(buffer, expected)
