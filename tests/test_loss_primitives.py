"""P.NLLLoss: the loss and total weight MindSpore 2.10 printed, each reduction, ignore_index, the gradient, compiled
as well as eager, and its errors."""
import numpy as np
import pytest

import npspore as ms
from npspore import ops, Tensor
from npspore.ops import operations as P

LOGITS = np.array([[-1.3, 0.5, 0.2], [0.1, -0.2, 0.7], [1.0, 2.0, -0.5]], np.float32)
LABELS = Tensor(np.array([1, 0, 2], np.int32))
WEIGHT = Tensor(np.array([0.2, 0.3, 0.5], np.float32))


@pytest.mark.parametrize("kwargs, loss, total", [
    ({}, 0.08, 1.0),                                      # MindSpore 2.10: (0.08, 1)
    ({"reduction": "sum"}, 0.08, 1.0),                    # (0.08, 1)
    ({"reduction": "none"}, [-0.15, -0.02, 0.25], 1.0),   # ([-1.5e-01, -2.0e-02, 2.5e-01], 1)
    ({"ignore_index": 0}, 0.125, 0.8),                    # (0.125, 0.8)
    ({"ignore_index": -100, "reduction": "mean"}, 0.08, 1.0),
])
def test_values_match_mindspore(kwargs, loss, total):
    out, weight = P.NLLLoss(**kwargs)(Tensor(LOGITS), LABELS, WEIGHT)
    np.testing.assert_allclose(out.asnumpy(), loss, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(weight.asnumpy(), total, rtol=1e-6)


def test_ignored_labels_outside_the_classes_count_nothing():
    labels = Tensor(np.array([1, -100, 2], np.int32))
    out, weight = P.NLLLoss()(Tensor(LOGITS), labels, WEIGHT)
    np.testing.assert_allclose(weight.asnumpy(), 0.8, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), (-0.15 + 0.25) / 0.8, rtol=1e-6)


def test_gradient_compiled_matches_mindspore():
    prim = P.NLLLoss()

    def loss(a):
        return prim(a, LABELS, WEIGHT)[0]

    # MindSpore 2.10: [[0, -0.3, 0], [-0.2, 0, 0], [0, 0, -0.5]]
    expected = [[0.0, -0.3, 0.0], [-0.2, 0.0, 0.0], [0.0, 0.0, -0.5]]
    np.testing.assert_allclose(ops.grad(loss)(Tensor(LOGITS)).asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(ops.grad(loss))(Tensor(LOGITS)).asnumpy(), expected, rtol=1e-6)


def test_repr_and_errors():
    assert repr(P.NLLLoss()) == "Prim[NLLLoss]<reduction=1, ignore_index=-100>"
    assert repr(P.NLLLoss("none")) == "Prim[NLLLoss]<reduction=2, ignore_index=-100>"
    assert repr(P.NLLLoss("sum")) == "Prim[NLLLoss]<reduction=0, ignore_index=-100>"
    with pytest.raises(ValueError, match="Failed to convert the value \"foo\" of input 'reduction' of 'NLLLoss' to "
                                         "enum."):
        P.NLLLoss(reduction="foo")
    with pytest.raises(ValueError, match="For 'NLLLoss', the dimension of 'logits' should be 2, but got: 1"):
        P.NLLLoss()(Tensor(np.ones(3, np.float32)), LABELS, WEIGHT)
