"""Benchmark: one LeNet-5 training step's forward and backward, npspore against hand-written NumPy.

    python tools/bench_lenet.py

The network is MindSpore's model-zoo LeNet-5 on 28x28 inputs (batch 64, float32): Conv2d(1, 6, 5,
padding 2) - ReLU - MaxPool2d(2) - Conv2d(6, 16, 5, 'valid') - ReLU - MaxPool2d(2) - Flatten -
Dense(400, 120) - ReLU - Dense(120, 84) - ReLU - Dense(84, 10), with
``SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')``. npspore computes the loss and the
gradients of the 8 trainable parameters with ``ms.value_and_grad`` (one compiled kernel); the training
step adds ``nn.Momentum``'s update (``ms.jit`` of ``nn.TrainOneStepCell``). The
reference is written directly in NumPy the way one would by hand: im2col with a strided view and one
GEMM per convolution, col2im by adding back one kernel tap at a time, max pooling and its gradient one
window tap at a time (strided slices), masks applied in place.
Times are medians of alternating rounds (tools/timing.py), BLAS pinned to one thread; PyTorch eager
(one thread) is timed on the same step when it is installed.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import importlib.util  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402
from timing import best_of, compare  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Tensor, nn  # noqa: E402

BATCH = 64
LR, MOMENTUM = 0.01, 0.9


class LeNet5(nn.Cell):
    """LeNet-5 for 28x28 single-channel inputs (the first convolution pads by 2)."""

    def __init__(self, num_class=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="pad", padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class WithLoss(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x, labels):
        return self.loss(self.net(x), labels)


# ---------------------------------------------------------------- the hand-written step


def im2col(x, k, pad):
    """Columns ``(C*k*k, N*OH*OW)`` of a stride-1 ``k x k`` convolution of ``x`` padded by ``pad``."""
    if pad:
        x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, w = x.shape
    oh, ow = h - k + 1, w - k + 1
    s = x.strides
    view = np.lib.stride_tricks.as_strided(x, (c, k, k, n, oh, ow), (s[1], s[2], s[3], s[0], s[2], s[3]))
    return view.reshape(c * k * k, n * oh * ow), (n, oh, ow)


def col2im(cols, shape, k):
    """The transpose of :func:`im2col` (no padding): columns added back, one kernel tap at a time, into a
    channel-major buffer (each tap's columns are then one contiguous block); returned as an NCHW view."""
    n, c, h, w = shape
    oh, ow = h - k + 1, w - k + 1
    cols = cols.reshape(c, k, k, n, oh, ow)
    dx = np.zeros((c, n, h, w), cols.dtype)
    for i in range(k):
        for j in range(k):
            dx[:, :, i:i + oh, j:j + ow] += cols[:, i, j]
    return dx.transpose(1, 0, 2, 3)


def pool_forward(x):
    """2x2 max pooling, stride 2: the maximum of the four strided taps (one pass each)."""
    return np.maximum(np.maximum(x[:, :, 0::2, 0::2], x[:, :, 0::2, 1::2]),
                      np.maximum(x[:, :, 1::2, 0::2], x[:, :, 1::2, 1::2]))


def pool_backward(dout, x, out):
    """The gradient to each window's first maximum (as MindSpore's MaxPool), written tap by tap."""
    dx = np.empty(x.shape, dout.dtype)
    free = np.ones(out.shape, bool)
    for i in range(2):
        for j in range(2):
            hit = x[:, :, i::2, j::2] == out
            hit &= free
            free ^= hit
            np.multiply(dout, hit, out=dx[:, :, i::2, j::2])
    return dx


def lenet_by_hand(x, labels, w1, w2, f1, b1, f2, b2, f3, b3):
    """Loss and the gradients of (w1, w2, f1, b1, f2, b2, f3, b3)."""
    cols1, (n, oh1, ow1) = im2col(x, 5, 2)
    z1 = (w1.reshape(6, -1) @ cols1).reshape(6, n, oh1, ow1).transpose(1, 0, 2, 3)
    a1 = np.maximum(z1, 0)
    p1 = pool_forward(a1)
    cols2, (_, oh2, ow2) = im2col(p1, 5, 0)
    z2 = (w2.reshape(16, -1) @ cols2).reshape(16, n, oh2, ow2).transpose(1, 0, 2, 3)
    a2 = np.maximum(z2, 0)
    p2 = pool_forward(a2)
    h0 = p2.reshape(n, -1)
    z3 = h0 @ f1.T + b1
    h1 = np.maximum(z3, 0)
    z4 = h1 @ f2.T + b2
    h2 = np.maximum(z4, 0)
    logits = h2 @ f3.T + b3
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -log_probs[np.arange(n), labels].mean()

    d_logits = np.exp(log_probs)
    d_logits[np.arange(n), labels] -= 1
    d_logits /= n
    g_f3, g_b3 = d_logits.T @ h2, d_logits.sum(axis=0)
    d_z4 = d_logits @ f3
    d_z4 *= z4 > 0
    g_f2, g_b2 = d_z4.T @ h1, d_z4.sum(axis=0)
    d_z3 = d_z4 @ f2
    d_z3 *= z3 > 0
    g_f1, g_b1 = d_z3.T @ h0, d_z3.sum(axis=0)
    d_p2 = (d_z3 @ f1).reshape(p2.shape)
    d_z2 = pool_backward(d_p2, a2, p2)
    d_z2 *= z2 > 0
    d_z2_rows = d_z2.transpose(1, 0, 2, 3).reshape(16, -1)
    g_w2 = (d_z2_rows @ cols2.T).reshape(w2.shape)
    d_p1 = col2im(w2.reshape(16, -1).T @ d_z2_rows, p1.shape, 5)
    d_z1 = pool_backward(d_p1, a1, p1)
    d_z1 *= z1 > 0
    g_w1 = (d_z1.transpose(1, 0, 2, 3).reshape(6, -1) @ cols1.T).reshape(w1.shape)
    return loss, (g_w1, g_w2, g_f1, g_b1, g_f2, g_b2, g_f3, g_b3)


def train_by_hand(x, labels, arrays, moments, lr=LR, momentum=MOMENTUM):
    """One training step: the gradients, then Momentum's update of ``moments`` and ``arrays`` in place."""
    loss, grads = lenet_by_hand(x, labels, *arrays)
    for w, m, g in zip(arrays, moments, grads):
        m *= momentum
        m += g
        g = np.multiply(m, lr, out=g)
        w -= g
    return loss


# ---------------------------------------------------------------- PyTorch eager, when installed


def torch_step(x, labels, arrays):
    import torch
    import torch.nn.functional as tf

    torch.set_num_threads(1)
    params = [torch.tensor(a, requires_grad=True) for a in arrays]
    tx, ty = torch.tensor(x), torch.tensor(labels.astype(np.int64))

    def step():
        w1, w2, f1, b1, f2, b2, f3, b3 = params
        h = tf.max_pool2d(torch.relu(tf.conv2d(tx, w1, padding=2)), 2)
        h = tf.max_pool2d(torch.relu(tf.conv2d(h, w2)), 2).flatten(1)
        h = torch.relu(tf.linear(h, f1, b1))
        h = torch.relu(tf.linear(h, f2, b2))
        loss = tf.cross_entropy(tf.linear(h, f3, b3), ty)
        return torch.autograd.grad(loss, params)
    return step


def main():
    os.environ["NPSPORE_CACHE_DIR"] = tempfile.mkdtemp()
    ms.set_seed(0)
    net = WithLoss(LeNet5())
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, 1, 28, 28)).astype(np.float32)
    labels = rng.integers(0, 10, BATCH).astype(np.int32)
    tx, tlabels = Tensor(x), Tensor(labels)
    weights = net.trainable_params()
    step = ms.value_and_grad(net, None, weights)
    loss, grads = step(tx, tlabels)
    arrays = [w.asnumpy().copy() for w in weights]
    hand_loss, hand_grads = lenet_by_hand(x, labels, *arrays)
    np.testing.assert_allclose(float(loss), hand_loss, rtol=1e-5)
    for name, g, h in zip([w.name for w in weights], grads, hand_grads):
        np.testing.assert_allclose(g.asnumpy(), h, rtol=1e-3, atol=1e-6, err_msg=name)
    number = 10
    compiled, hand = compare(lambda: step(tx, tlabels), lambda: lenet_by_hand(x, labels, *arrays), number)
    print(f"LeNet-5 step (28x28, b={BATCH}, forward + backward of 8 parameters), BLAS on one thread")
    print(f"  by hand (im2col + GEMM)  {hand * 1e3:7.2f} ms")
    print(f"  npspore value_and_grad   {compiled * 1e3:7.2f} ms   {compiled / hand:.3f}x by hand (goal <= 1.2)")

    train = ms.jit(nn.TrainOneStepCell(net, nn.Momentum(weights, LR, MOMENTUM)))
    moments = [np.zeros_like(a) for a in arrays]
    train(tx, tlabels)
    train_by_hand(x, labels, arrays, moments)
    for w, h in zip(weights, arrays):
        np.testing.assert_allclose(w.asnumpy(), h, rtol=1e-4, atol=1e-6, err_msg=w.name)
    compiled, hand = compare(lambda: train(tx, tlabels), lambda: train_by_hand(x, labels, arrays, moments), number)
    print("LeNet-5 training step (the same, then nn.Momentum's update in place)")
    print(f"  by hand                  {hand * 1e3:7.2f} ms")
    print(f"  npspore TrainOneStepCell {compiled * 1e3:7.2f} ms   {compiled / hand:.3f}x by hand (goal <= 1.2)")
    if importlib.util.find_spec("torch") is not None:
        torch_time = best_of(torch_step(x, labels, arrays), number, repeat=7)
        print(f"  PyTorch eager            {torch_time * 1e3:7.2f} ms   {torch_time / hand:.3f}x by hand")
    else:
        print("  PyTorch not installed: skipped")


if __name__ == "__main__":
    main()
