"""Benchmarks of generated gradient kernels against hand-written NumPy forward+backward (same run).

    python tools/bench_grad.py

Times are medians of rounds alternating between npspore and the hand-written code (tools/timing.py).
Workloads (float32, BLAS threads pinned to 1): an MLP 784→256→10 with ReLU and MSE at batch 64
(gradients of its 4 parameters), a 3×1024 MLP at batch 512, a tanh RNN over 32 steps in a ``for``
loop (batch 16, 64→128), and the tiny ``x * exp(y) * z ** 2`` on (2,) inputs (gradients w.r.t. y
and z, the whole call with Tensors in and out). Then peak memory of one gradient call, measured
with ``tracemalloc`` (NumPy reports its buffers to it). JAX, PyTorch and autograd are timed on the
same workloads when installed (each as its users would write it: JAX jitted, PyTorch eager,
autograd tracing); missing ones are skipped and named.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

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
    """Written carefully (as ``shared/bench/reference.py``): the input projection and the weight
    gradients are one GEMM each over all steps, the states live in one stacked array, updates in place."""
    steps, batch, n_in = xs.shape
    hidden = w_h.shape[0]
    flat = xs.reshape(steps * batch, n_in)
    projected = (flat @ w_x).reshape(steps, batch, hidden)
    hs = np.empty((steps + 1, batch, hidden), xs.dtype)
    hs[0] = h0
    for t in range(steps):
        h = hs[t + 1]
        np.matmul(hs[t], w_h, out=h)
        h += projected[t]
        np.tanh(h, out=h)
    g = np.empty((steps, batch, hidden), xs.dtype)
    dh = np.ones((batch, hidden), xs.dtype)
    w_h_t = w_h.T
    for t in range(steps - 1, -1, -1):
        dz = g[t]
        np.multiply(hs[t + 1], hs[t + 1], out=dz)
        np.subtract(1, dz, out=dz)
        dz *= dh
        if t:
            dh = dz @ w_h_t
    g = g.reshape(steps * batch, hidden)
    return hs[steps].sum(), flat.T @ g, hs[:steps].reshape(steps * batch, hidden).T @ g


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


# ---------------------------------------------------------------- other frameworks, when installed


def _mlp_params(sizes, seed=0):
    rng = np.random.default_rng(seed)
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        params += [(rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)).astype(np.float32),
                   np.zeros(n_out, np.float32)]
    return params


def _mlp_data(sizes, batch):
    rng = np.random.default_rng(2)
    return (rng.standard_normal((batch, sizes[0])).astype(np.float32),
            rng.standard_normal((batch, sizes[-1])).astype(np.float32))


def _rnn_data():
    rng = np.random.default_rng(3)
    xs = rng.standard_normal((32, 16, 64)).astype(np.float32)
    w_x = (rng.standard_normal((64, 128)) * 0.1).astype(np.float32)
    w_h = (rng.standard_normal((128, 128)) * 0.1).astype(np.float32)
    return xs, np.zeros((16, 128), np.float32), w_x, w_h


def jax_workloads():
    """The workloads as jitted ``jax.value_and_grad`` functions, on JAX's CPU arrays."""
    import jax
    import jax.numpy as jnp

    def mlp_loss(params, x, y):
        h = x
        n = len(params) // 2
        for i in range(n):
            h = h @ params[2 * i].T + params[2 * i + 1]
            if i < n - 1:
                h = jnp.maximum(h, 0)
        return ((h - y) ** 2).mean()

    def rnn_loss(weights, xs, h):
        w_x, w_h = weights
        h = jax.lax.fori_loop(0, xs.shape[0], lambda t, h: jnp.tanh(xs[t] @ w_x + h @ w_h), h)
        return h.sum()

    def tiny_fn(x, y, z):
        return (x * jnp.exp(y) * z ** 2).sum()

    mlp_grad = jax.jit(jax.value_and_grad(mlp_loss))
    rnn_grad = jax.jit(jax.grad(rnn_loss))
    tiny_grad = jax.jit(jax.grad(tiny_fn, argnums=(1, 2)))
    out = {}
    for name, sizes, batch in (("mlp", (784, 256, 10), 64), ("mlp3", (1024, 1024, 1024, 1024), 512)):
        params = [jnp.asarray(p) for p in _mlp_params(sizes)]
        x, y = (jnp.asarray(a) for a in _mlp_data(sizes, batch))
        out[name] = lambda params=params, x=x, y=y: jax.block_until_ready(mlp_grad(params, x, y))
    xs, h0, w_x, w_h = (jnp.asarray(a) for a in _rnn_data())
    out["rnn"] = lambda: jax.block_until_ready(rnn_grad((w_x, w_h), xs, h0))
    x, y, z = (jnp.asarray(np.array(v, np.float32)) for v in ([3.0, 3.0], [0.0, 0.0], [5.0, 5.0]))
    out["tiny"] = lambda: jax.block_until_ready(tiny_grad(x, y, z))
    return out


def torch_workloads():
    """The workloads in PyTorch eager mode (``backward()``), one CPU thread."""
    import torch

    torch.set_num_threads(1)

    def mlp(sizes, batch):
        params = [torch.tensor(p, requires_grad=True) for p in _mlp_params(sizes)]
        x, y = (torch.tensor(a) for a in _mlp_data(sizes, batch))

        def step():
            h = x
            n = len(params) // 2
            for i in range(n):
                h = h @ params[2 * i].T + params[2 * i + 1]
                if i < n - 1:
                    h = torch.relu(h)
            loss = ((h - y) ** 2).mean()
            return torch.autograd.grad(loss, params)
        return step

    xs, h0, w_x, w_h = (torch.tensor(a) for a in _rnn_data())
    w_x.requires_grad_(True)
    w_h.requires_grad_(True)

    def rnn():
        h = h0
        for t in range(xs.shape[0]):
            h = torch.tanh(xs[t] @ w_x + h @ w_h)
        return torch.autograd.grad(h.sum(), (w_x, w_h))

    x = torch.tensor([3.0, 3.0])
    y = torch.tensor([0.0, 0.0], requires_grad=True)
    z = torch.tensor([5.0, 5.0], requires_grad=True)

    def tiny():
        return torch.autograd.grad((x * torch.exp(y) * z ** 2).sum(), (y, z))

    return {"mlp": mlp((784, 256, 10), 64), "mlp3": mlp((1024, 1024, 1024, 1024), 512), "rnn": rnn,
            "tiny": tiny}


def autograd_workloads():
    """The workloads with HIPS/autograd (tracing NumPy on every call)."""
    import autograd
    import autograd.numpy as anp

    def mlp_loss(params, x, y):
        h = x
        n = len(params) // 2
        for i in range(n):
            h = anp.dot(h, params[2 * i].T) + params[2 * i + 1]
            if i < n - 1:
                h = anp.maximum(h, 0)
        return anp.mean((h - y) ** 2)

    def rnn_loss(weights, xs, h):
        w_x, w_h = weights
        for t in range(xs.shape[0]):
            h = anp.tanh(anp.dot(xs[t], w_x) + anp.dot(h, w_h))
        return anp.sum(h)

    mlp_grad = autograd.grad(mlp_loss)
    out = {}
    for name, sizes, batch in (("mlp", (784, 256, 10), 64), ("mlp3", (1024, 1024, 1024, 1024), 512)):
        params = _mlp_params(sizes)
        x, y = _mlp_data(sizes, batch)
        out[name] = lambda params=params, x=x, y=y: mlp_grad(params, x, y)
    xs, h0, w_x, w_h = _rnn_data()
    rnn_grad = autograd.grad(rnn_loss)
    out["rnn"] = lambda: rnn_grad([w_x, w_h], xs, h0)
    tiny_grad = autograd.grad(lambda yz, x: anp.sum(x * anp.exp(yz[0]) * yz[1] ** 2))
    x, y, z = (np.array(v, np.float32) for v in ([3.0, 3.0], [0.0, 0.0], [5.0, 5.0]))
    out["tiny"] = lambda: tiny_grad([y, z], x)
    return out


FRAMEWORKS = {"jax": jax_workloads, "torch": torch_workloads, "autograd": autograd_workloads}
NUMBERS = {"mlp": 50, "mlp3": 2, "rnn": 20, "tiny": 2000}


def framework_times() -> dict:
    """{framework: {workload: seconds}} for each installed framework; missing ones are skipped."""
    times = {}
    for name, build in FRAMEWORKS.items():
        if importlib.util.find_spec(name) is None:
            continue
        workloads = build()
        times[name] = {}
        for workload, fn in workloads.items():
            fn()  # compile / warm up
            times[name][workload] = best_of(fn, NUMBERS[workload], repeat=5)
    return times


def main():
    os.environ["NPSPORE_CACHE_DIR"] = tempfile.mkdtemp()
    rows = []
    compiled, hand, memory = bench_mlp((784, 256, 10), 64, NUMBERS["mlp"])
    rows.append(("mlp", "MLP 784-256-10, b=64, 4 grads", compiled, hand, 1.10))
    compiled, hand, memory_big = bench_mlp((1024, 1024, 1024, 1024), 512, NUMBERS["mlp3"])
    rows.append(("mlp3", "MLP 3x1024, b=512", compiled, hand, 1.05))
    compiled, hand = bench_rnn(NUMBERS["rnn"])
    rows.append(("rnn", "tanh RNN 32 steps, b=16, 64->128", compiled, hand, 1.25))
    compiled, hand = bench_tiny(NUMBERS["tiny"])
    rows.append(("tiny", "x*exp(y)*z**2 on (2,), d/dy d/dz", compiled, hand, 3.0))
    others = framework_times()
    header = f"{'workload':36} {'by hand':>10} {'npspore':>8} {'target':>7}"
    header += "".join(f" {name:>9}" for name in others)
    print(header + "    (npspore and others: time / by-hand time)")
    for key, name, compiled, hand, target in rows:
        line = f"{name:36} {hand * 1e6:8.1f}us {compiled / hand:8.3f} {target:7.2f}"
        line += "".join(f" {others[fw][key] / hand:9.3f}" for fw in others)
        print(line)
    print(f"peak memory of one gradient call vs by hand: MLP b=64 {memory:.2f}x, 3x1024 b=512 {memory_big:.2f}x"
          " (target <= 1.3)")
    missing = sorted(set(FRAMEWORKS) - set(others)) + ["mindspore (its CPU wheel needs numpy<2: see README)"]
    print("not installed here, skipped: " + ", ".join(missing))


if __name__ == "__main__":
    main()
