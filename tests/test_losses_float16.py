"""Float16 losses round once, as MindSpore 2.10's CPU kernels do: BCEWithLogitsLoss computes a float16 loss in
float32 and rounds the result (computing in float16 misses MindSpore's value by a unit in the last place). The
expected values are the ones MindSpore 2.10 printed for MindSpore's own test inputs (st_bce_with_logits_loss)."""
import numpy as np
import pytest

import npspore as ms
from npspore import nn, ops, Tensor
from npspore.ops import operations as P

LOGITS = Tensor(np.array([[-0.8, 1.2, 0.7], [-0.1, -0.4, 0.7]], np.float16))
LABELS = Tensor(np.array([[0.3, 0.8, 1.2], [-0.6, 0.1, 2.2]], np.float16))
WEIGHT = Tensor(np.array([1.0, 1.0, 1.0], np.float16))
POS_WEIGHT = Tensor(np.array([1.0, 2.0, 0.5], np.float16))

# MindSpore 2.10, ops.binary_cross_entropy_with_logits(LOGITS, LABELS, WEIGHT, POS_WEIGHT, reduction)
WEIGHTED = {
    "none": [[0.611328125, 0.7138671875, 0.021026611328125], [0.58447265625, 0.64453125, -0.8798828125]],
    "mean": 0.282470703125,
    "sum": 1.6953125,
}
# MindSpore 2.10, nn.BCEWithLogitsLoss(reduction)(LOGITS, LABELS)
PLAIN = {
    "none": [[0.611328125, 0.50341796875, 0.262939453125], [0.58447265625, 0.55322265625, -0.4365234375]],
    "mean": 0.346435546875,
    "sum": 2.078125,
}


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_weighted_float16_loss_matches_mindspore_eager_and_compiled(reduction):
    eager = ops.binary_cross_entropy_with_logits(LOGITS, LABELS, WEIGHT, POS_WEIGHT, reduction)

    @ms.jit
    def compiled(a, b, c, d):
        return ops.binary_cross_entropy_with_logits(a, b, c, d, reduction)

    for out in (eager, compiled(LOGITS, LABELS, WEIGHT, POS_WEIGHT)):
        assert out.dtype == ms.float16
        np.testing.assert_array_equal(out.asnumpy(), np.array(WEIGHTED[reduction], np.float16))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cell_and_primitive_float16_loss_match_mindspore(reduction):
    expected = np.array(PLAIN[reduction], np.float16)
    np.testing.assert_array_equal(nn.BCEWithLogitsLoss(reduction)(LOGITS, LABELS).asnumpy(), expected)
    ones = Tensor(np.ones(3, np.float16))
    np.testing.assert_array_equal(P.BCEWithLogitsLoss(reduction)(LOGITS, LABELS, ones, ones).asnumpy(), expected)


def test_float32_loss_is_unchanged():
    logits = Tensor(np.array([[-0.8, 1.2, 0.7], [-0.1, -0.4, 0.7]], np.float32))
    labels = Tensor(np.array([[0.3, 0.8, 1.2], [-0.6, 0.1, 2.2]], np.float32))
    out = ops.binary_cross_entropy_with_logits(logits, labels, reduction="none")
    assert out.dtype == ms.float32
    # MindSpore 2.10 (st_bce_with_logits_loss, float32): 0.6111006, 0.5032824, 0.26318604 / ... -0.43681395
    np.testing.assert_allclose(out.asnumpy()[0], [0.6111006, 0.5032824, 0.26318604], rtol=1e-6)
