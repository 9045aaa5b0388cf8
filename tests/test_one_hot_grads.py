"""The gradient of a sparse cross-entropy without its one-hot array (compiler/onehotgrads.py): the kernel adds
``g`` at the labels (``rt.scatter_last_add``) and computes ``softmax(logits) - one_hot(labels)``, times the
reduction's scale, as MindSpore's SparseSoftmaxCrossEntropyWithLogits gradient is."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.core import kernels_np

from gradcheck import central_difference


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


# the losses that read log-probabilities at class indices, in the forms users call them (in float64:
# SoftmaxCrossEntropyWithLogits computes in float32, as MindSpore's kernel does, too coarse for the differences)
_CLASS_WEIGHT = Tensor(np.linspace(0.5, 2.0, 5))
_LOSSES = {
    "smoothed": lambda x, y: ops.cross_entropy(x, y, label_smoothing=0.1),
    "weighted, ignored": lambda x, y: ops.cross_entropy(x, y, weight=_CLASS_WEIGHT, ignore_index=2),
    "per sample": lambda x, y: ops.sum(ops.nll_loss(ops.log_softmax(x, 1), y, reduction="none") ** 2),
    "summed, plus a term": lambda x, y: ops.cross_entropy(x, y, reduction="sum") + ops.sum(x * x),
}


@pytest.mark.parametrize("name", list(_LOSSES))
def test_losses_at_class_indices_have_the_finite_difference_gradient(name):
    loss = _LOSSES[name]
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 5))
    y = np.array([1, 2, 4, 0])
    got = ms.grad(loss)(Tensor(x), Tensor(y)).asnumpy()
    expected = central_difference(lambda v: float(loss(Tensor(v), Tensor(y)).asnumpy()), x)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


def test_a_buffer_made_before_a_loop_is_never_added_into_by_its_steps():
    """for t in range(3): acc = acc + (base + scatter_last(gs[t], labels)), base = exp(x) made once before the
    loop: each step must read base as made, so the labels are not added into it."""
    from npspore.compiler import ir
    from npspore.compiler.optimize import optimize
    from test_codegen import run_rendered
    from test_differentiate import LOC, Prog

    p = Prog(x=(3, 4), gs=(3, 3, 1), labels=((3, 1), np.dtype(np.int64)))
    x, gs, labels = p.params
    base = p.op("exp", x)
    index = p.var("t", ir.Aval((), np.dtype(np.int64)))
    acc = p.var("acc", x)
    body = p.block()
    scattered = p.op("scatter_last", p.op("row", gs, index, into=body), labels, into=body, size=4)
    body.block.results = (p.op("add", acc, p.op("add", base, scattered, into=body), into=body, hint="acc"),)
    out = p.var("acc", x)
    p.builder.append(ir.ForRange(index, ir.Const(0), ir.Const(3), ir.Const(1), (x,), (acc,), body.block, (out,), LOC))
    module = p.module(out)
    args = [np.arange(12.0).reshape(3, 4) / 10, np.arange(9.0).reshape(3, 3, 1), np.array([[0], [3], [1]])]
    expected = args[0] + 3 * np.exp(args[0])
    np.put_along_axis(expected, args[2], np.take_along_axis(expected, args[2], axis=-1) + args[1].sum(axis=0), axis=-1)
    (got,) = run_rendered(optimize(module), *args)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
