"""``SoftmaxCrossEntropyWithLogits`` differentiates as MindSpore's fused kernel does, not exactly.

The cotangent of the logits is ``dout * (softmax(logits) - labels)`` (the exact derivative has
``softmax * sum(labels)``), the labels get zeros, and second derivatives through the loss are zero. Every
value here was printed by MindSpore 2.10.0 (CPU) in GRAPH and PYNATIVE mode
(``/work/msvenv/bin/python tools/observe_mindspore_fused_cross_entropy.py``); where the modes disagree the
GRAPH value is kept (the decisions of mindspore-semantics.md).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops

LOGITS = np.array([[0.5, -1.0, 2.0], [1.0, 0.5, -0.5]], np.float32)
LABELS = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 1.0]], np.float32)   # rows do not sum to one
CLASSES = np.array([2, 0], np.int32)
SOFTMAX_MINUS_LABELS = np.array([[-0.8247096, -1.9608874, 0.28559703], [0.5465494, -0.668501, -0.87804836]])
SOFTMAX_MINUS_ONE_HOT = np.array([[0.17529039, 0.03911257, -0.21440297], [-0.45345062, 0.33149895, 0.12195165]])
W0 = np.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(np.float32)
X = np.array([[0.5, -1.0, 2.0, 0.0], [1.0, 0.5, -0.5, 1.5]], np.float32)


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("sparse, reduction, expected", [
    (False, "none", SOFTMAX_MINUS_LABELS), (False, "sum", SOFTMAX_MINUS_LABELS),
    (False, "mean", SOFTMAX_MINUS_LABELS / 2),
    (True, "none", SOFTMAX_MINUS_ONE_HOT), (True, "sum", SOFTMAX_MINUS_ONE_HOT), (True, "mean", SOFTMAX_MINUS_ONE_HOT / 2),
])
def test_grad_to_logits_is_softmax_minus_labels_and_labels_get_zeros(mode, sparse, reduction, expected):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=sparse, reduction=reduction)
    labels = Tensor(CLASSES if sparse else LABELS)
    d_logits, d_labels = ms.grad(loss, grad_position=(0, 1))(Tensor(LOGITS), labels)
    np.testing.assert_allclose(d_logits.asnumpy(), expected, rtol=1e-5, atol=1e-7)
    assert d_labels.shape == labels.shape and not d_labels.asnumpy().any()


def test_the_gradient_is_scaled_by_the_sensitivity_of_each_sample():
    prim = ops.SoftmaxCrossEntropyWithLogits()

    def first_output(logits, labels):
        return prim(logits, labels)[0]

    grad = ops.GradOperation(get_all=True, sens_param=True)(first_output)
    d_logits, d_labels = grad(Tensor(LOGITS), Tensor(LABELS), Tensor(np.array([2.0, 3.0], np.float32)))
    np.testing.assert_allclose(d_logits.asnumpy(), [[-1.6494192, -3.9217749, 0.57119405],
                                                    [1.6396482, -2.0055032, -2.634145]], rtol=1e-5)
    assert not d_labels.asnumpy().any()


def test_the_primitive_second_output_has_no_gradient(mode):
    prim = ops.SoftmaxCrossEntropyWithLogits()

    def both_outputs(logits, labels):
        loss, backprop = prim(logits, labels)
        return loss.sum() + (backprop * backprop).sum()

    d_logits, d_labels = ms.grad(both_outputs, grad_position=(0, 1))(Tensor(LOGITS), Tensor(LABELS))
    np.testing.assert_allclose(d_logits.asnumpy(), SOFTMAX_MINUS_LABELS, rtol=1e-5)
    assert not d_labels.asnumpy().any()


def test_second_derivatives_through_the_fused_gradient_are_zero(mode):
    loss = nn.SoftmaxCrossEntropyWithLogits()
    labels = Tensor(LABELS)
    weights = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))

    def summed(logits):
        return loss(logits, labels).sum()

    def squared(logits):
        return (loss(logits, labels) * loss(logits, labels)).sum()

    def weighted_gradient(fn):
        def weighted(logits):
            return (ms.grad(fn)(logits) * weights).sum()
        return weighted

    assert not ms.grad(weighted_gradient(summed))(Tensor(LOGITS)).asnumpy().any()
    # d/dx sum(W * 2 l (p - y)) with p - y held constant: 2 sum_j(W_ij (p - y)_ij) (p - y)_i
    np.testing.assert_allclose(ms.grad(weighted_gradient(squared))(Tensor(LOGITS)).asnumpy(),
                               [[6.415735, 15.254501, -2.2217696], [-7.02272, 8.589701, 11.282215]], rtol=1e-5)


def fresh_dense():
    return nn.Dense(4, 3, weight_init=Tensor(W0), bias_init="zeros")


def test_train_one_step_cell_takes_the_fused_step(mode):
    """Repro r9: the TrainOneStepCell docstring's loss with reduction 'none' and labels summing to 3."""
    net = fresh_dense()
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits()),
                                    nn.SGD(net.trainable_params(), learning_rate=1.0))
    loss = train_net(Tensor(X), Tensor(np.ones((2, 3), np.float32)))
    np.testing.assert_allclose(loss.asnumpy(), [4.969116, 3.5108585], rtol=1e-6)
    np.testing.assert_allclose(W0[0] - net.weight.asnumpy()[0], [-1.2240874, 0.47736108, -1.3488848, -1.1824882],
                               rtol=1e-5)


def test_model_train_takes_the_fused_step(mode):
    net = fresh_dense()
    model = ms.train.Model(net, nn.SoftmaxCrossEntropyWithLogits(reduction="mean"),
                           nn.SGD(net.trainable_params(), learning_rate=1.0))
    model.train(1, ms.dataset.NumpySlicesDataset({"x": X, "y": LABELS},
                                                 shuffle=False).batch(2))
    np.testing.assert_allclose(W0 - net.weight.asnumpy(), [[-0.11204366, 0.48868054, -0.92444247, 0.15875594],
                                                           [-0.72642815, 0.84475243, -1.8111256, -0.36486226],
                                                           [-0.2865283, -0.33343297, 0.4855681, -0.54389364]],
                               rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(-net.bias.asnumpy(), [-0.3299246, -1.2096148, -0.21046066], rtol=1e-5)


def test_value_and_grad_of_the_weights_takes_the_fused_gradient(mode):
    net = fresh_dense()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits()

    def forward(x, labels):
        return loss_fn(net(x), labels).sum()

    value, (d_weight, d_bias) = ms.value_and_grad(forward, None, net.trainable_params())(Tensor(X), Tensor(LABELS))
    assert float(value) == pytest.approx(9.517643, rel=1e-6)
    np.testing.assert_allclose(d_weight.asnumpy(), [[-0.22408731, 0.9773611, -1.8488849, 0.3175119],
                                                    [-1.4528563, 1.6895049, -3.6222513, -0.7297245],
                                                    [-0.57305646, -0.66686594, 0.9711362, -1.0877873]], rtol=1e-5)
    np.testing.assert_allclose(d_bias.asnumpy(), [-0.6598492, -2.4192295, -0.42092133], rtol=1e-5)


SUMMED_LOSS = nn.SoftmaxCrossEntropyWithLogits(reduction="sum")


def summed_loss(logits, labels):
    return SUMMED_LOSS(logits, labels)


def test_grad_inside_a_jit_function_takes_the_fused_gradient():
    @ms.jit
    def step(logits, labels):
        return ms.grad(summed_loss)(logits, labels)

    np.testing.assert_allclose(step(Tensor(LOGITS), Tensor(LABELS)).asnumpy(), SOFTMAX_MINUS_LABELS, rtol=1e-5)
