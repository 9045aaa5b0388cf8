"""Print MindSpore 2.10's gradients of its fused softmax cross entropy for tests/test_fused_cross_entropy.py.

Run with a virtualenv holding the real MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_fused_cross_entropy.py [graph]``. It prints the gradients of
``nn.SoftmaxCrossEntropyWithLogits`` (dense and sparse labels, each reduction) to the logits and the labels, the
primitive's under a per-sample sensitivity, second derivatives, and one training step of ``TrainOneStepCell``,
``Model.train`` and ``value_and_grad``; the values are pasted into the test as literals.
"""
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

if sys.argv[1:] == ["graph"]:
    ms.set_context(mode=ms.GRAPH_MODE)
LOGITS = Tensor(np.array([[0.5, -1.0, 2.0], [1.0, 0.5, -0.5]], np.float32))
LABELS = Tensor(np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 1.0]], np.float32))
CLASSES = Tensor(np.array([2, 0], np.int32))
WEIGHTS = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
W0 = np.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(np.float32)
X = np.array([[0.5, -1.0, 2.0, 0.0], [1.0, 0.5, -0.5, 1.5]], np.float32)
FUSED = nn.SoftmaxCrossEntropyWithLogits()
PRIM = ops.SoftmaxCrossEntropyWithLogits()


def summed(logits):
    return FUSED(logits, LABELS).sum()


def squared(logits):
    return (FUSED(logits, LABELS) * FUSED(logits, LABELS)).sum()


def weighted_gradient(fn):
    def weighted(logits):
        return (ms.grad(fn)(logits) * WEIGHTS).sum()
    return weighted


def first_output(logits, labels):
    return PRIM(logits, labels)[0]


def both_outputs(logits, labels):
    loss, backprop = PRIM(logits, labels)
    return loss.sum() + (backprop * backprop).sum()


def dense():
    return nn.Dense(4, 3, weight_init=Tensor(W0), bias_init="zeros")


def main():
    for sparse in (False, True):
        for reduction in ("none", "sum", "mean"):
            loss = nn.SoftmaxCrossEntropyWithLogits(sparse=sparse, reduction=reduction)
            print("grad", sparse, reduction, ms.grad(loss, grad_position=(0, 1))(LOGITS, CLASSES if sparse else LABELS))
    sens = Tensor(np.array([2.0, 3.0], np.float32))
    print("sens", ops.GradOperation(get_all=True, sens_param=True)(first_output)(LOGITS, LABELS, sens))
    print("primitive both outputs", ms.grad(both_outputs, grad_position=(0, 1))(LOGITS, LABELS))
    print("second summed", ms.grad(weighted_gradient(summed))(LOGITS))
    print("second squared", ms.grad(weighted_gradient(squared))(LOGITS))
    net = dense()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, FUSED), nn.SGD(net.trainable_params(), learning_rate=1.0))
    print("TrainOneStepCell loss", step(Tensor(X), Tensor(np.ones((2, 3), np.float32))),
          "dW[0]", W0[0] - net.weight.asnumpy()[0])
    net = dense()
    model = ms.train.Model(net, nn.SoftmaxCrossEntropyWithLogits(reduction="mean"),
                           nn.SGD(net.trainable_params(), learning_rate=1.0))
    model.train(1, ms.dataset.NumpySlicesDataset({"x": X, "y": LABELS.asnumpy()}, shuffle=False).batch(2))
    print("Model.train dW", repr(W0 - net.weight.asnumpy()), "db", repr(-net.bias.asnumpy()))
    net = dense()

    def forward(x, labels):
        return FUSED(net(x), labels).sum()

    print("value_and_grad", ms.value_and_grad(forward, None, net.trainable_params())(Tensor(X), LABELS))


if __name__ == "__main__":
    main()
