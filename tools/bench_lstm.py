"""Benchmark: one training step of a 2-layer LSTM, npspore's compiled gradient against hand-written NumPy.

    python tools/bench_lstm.py

The step: ``nn.LSTM(64, 128, num_layers=2)`` over 32 steps at batch 32 (float32, BLAS threads pinned
to 1), loss ``mean((output - target) ** 2)``, gradients of all 8 parameters, then plain SGD updating
the parameter arrays in place. The hand-written reference is what a careful NumPy programmer writes:
the input projection of each layer batched over time (one GEMM), the recurrence with preallocated
per-step buffers, the backward recurrence producing the gate gradients of every step, then the
weight gradients as single GEMMs over all steps, and in-place parameter updates. Times are medians
of alternating rounds (tools/timing.py). PyTorch eager (one thread) is timed on the same step when
installed.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import importlib.util  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402
from timing import compare  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Tensor, nn  # noqa: E402

SEQ, BATCH, INPUT, HIDDEN, LAYERS = 32, 32, 64, 128, 2
LR = 0.01


class LSTMLoss(nn.Cell):
    """A 2-layer LSTM with a mean-squared-error loss on its output sequence."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(INPUT, HIDDEN, LAYERS)

    def construct(self, x, target):
        output, _ = self.lstm(x)
        diff = output - target
        return (diff * diff).mean()


def _sigmoid(x, out):
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1
    np.reciprocal(out, out=out)
    return out


def lstm_layer_forward(x, w_ih, w_hh, bias):
    """One layer over the sequence; returns the outputs and what the backward pass needs."""
    steps, batch, _ = x.shape
    hidden = w_hh.shape[1]
    gates = (x.reshape(steps * batch, -1) @ w_ih.T).reshape(steps, batch, 4 * hidden)
    gates += bias
    h = np.zeros((steps + 1, batch, hidden), np.float32)
    c = np.zeros((steps + 1, batch, hidden), np.float32)
    tanh_c = np.empty((steps, batch, hidden), np.float32)
    w_hh_t = w_hh.T
    for t in range(steps):
        g = gates[t]
        g += h[t] @ w_hh_t
        _sigmoid(g[:, :2 * hidden], g[:, :2 * hidden])
        np.tanh(g[:, 2 * hidden:3 * hidden], out=g[:, 2 * hidden:3 * hidden])
        _sigmoid(g[:, 3 * hidden:], g[:, 3 * hidden:])
        i, f, n, o = g[:, :hidden], g[:, hidden:2 * hidden], g[:, 2 * hidden:3 * hidden], g[:, 3 * hidden:]
        np.multiply(f, c[t], out=c[t + 1])
        c[t + 1] += i * n
        np.tanh(c[t + 1], out=tanh_c[t])
        np.multiply(o, tanh_c[t], out=h[t + 1])
    return h[1:], (x, gates, h, c, tanh_c)


def lstm_layer_backward(d_out, saved, w_ih, w_hh):
    """Gradients of one layer: (d_x, d_w_ih, d_w_hh, d_bias) from the output gradient (T, B, H)."""
    x, gates, h, c, tanh_c = saved
    steps, batch, hidden = d_out.shape
    d_gates = np.empty_like(gates)
    d_h = np.zeros((batch, hidden), np.float32)
    d_c = np.zeros((batch, hidden), np.float32)
    for t in reversed(range(steps)):
        g = gates[t]
        i, f, n, o = g[:, :hidden], g[:, hidden:2 * hidden], g[:, 2 * hidden:3 * hidden], g[:, 3 * hidden:]
        dg = d_gates[t]
        d_h += d_out[t]
        np.multiply(d_h, tanh_c[t], out=dg[:, 3 * hidden:])
        dg[:, 3 * hidden:] *= o * (1 - o)
        d_c += d_h * o * (1 - tanh_c[t] * tanh_c[t])
        np.multiply(d_c, n, out=dg[:, :hidden])
        dg[:, :hidden] *= i * (1 - i)
        np.multiply(d_c, c[t], out=dg[:, hidden:2 * hidden])
        dg[:, hidden:2 * hidden] *= f * (1 - f)
        np.multiply(d_c, i, out=dg[:, 2 * hidden:3 * hidden])
        dg[:, 2 * hidden:3 * hidden] *= 1 - n * n
        d_c *= f
        np.matmul(dg, w_hh, out=d_h)
    flat = d_gates.reshape(steps * batch, -1)
    d_w_ih = flat.T @ x.reshape(steps * batch, -1)
    d_w_hh = flat.T @ h[:-1].reshape(steps * batch, hidden)
    d_bias = flat.sum(axis=0)
    d_x = (flat @ w_ih).reshape(x.shape)
    return d_x, d_w_ih, d_w_hh, d_bias


def train_step_by_hand(x, target, params):
    """Forward, backward and in-place SGD; `params` as npspore orders them: all w_ih, all w_hh, all b_ih, b_hh."""
    w_ih, w_hh, b_ih, b_hh = params[:LAYERS], params[LAYERS:2 * LAYERS], params[2 * LAYERS:3 * LAYERS], \
        params[3 * LAYERS:]
    saved = []
    layer_input = x
    for k in range(LAYERS):
        layer_input, state = lstm_layer_forward(layer_input, w_ih[k], w_hh[k], b_ih[k] + b_hh[k])
        saved.append(state)
    diff = layer_input - target
    loss = float(np.mean(diff * diff))
    d_out = diff * np.float32(2 / diff.size)
    grads = [None] * len(params)
    for k in reversed(range(LAYERS)):
        d_out, d_w_ih, d_w_hh, d_bias = lstm_layer_backward(d_out, saved[k], w_ih[k], w_hh[k])
        grads[k], grads[LAYERS + k], grads[2 * LAYERS + k], grads[3 * LAYERS + k] = d_w_ih, d_w_hh, d_bias, d_bias
    for p, g in zip(params, grads):
        p -= LR * g
    return loss, grads


def torch_step(x, target, params):
    """The same step in PyTorch eager (one thread); None when PyTorch is not installed."""
    if importlib.util.find_spec("torch") is None:
        return None
    import torch
    torch.set_num_threads(1)
    lstm = torch.nn.LSTM(INPUT, HIDDEN, LAYERS)
    with torch.no_grad():
        for k in range(LAYERS):
            for kind, index in (("weight_ih", 0), ("weight_hh", 1), ("bias_ih", 2), ("bias_hh", 3)):
                getattr(lstm, f"{kind}_l{k}").copy_(torch.from_numpy(params[index * LAYERS + k]))
    optimizer = torch.optim.SGD(lstm.parameters(), lr=LR)
    xt, tt = torch.from_numpy(x), torch.from_numpy(target)

    def step():
        optimizer.zero_grad()
        loss = ((lstm(xt)[0] - tt) ** 2).mean()
        loss.backward()
        optimizer.step()
    return step


def main():
    os.environ["NPSPORE_CACHE_DIR"] = tempfile.mkdtemp()
    ms.set_seed(0)
    net = LSTMLoss()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((SEQ, BATCH, INPUT)).astype(np.float32)
    target = rng.standard_normal((SEQ, BATCH, HIDDEN)).astype(np.float32)
    weights = net.trainable_params()
    grad_fn = ms.value_and_grad(net, None, weights)
    arrays = [w.asnumpy() for w in weights]   # the Parameters' own arrays: updated in place below
    x_t, target_t = Tensor(x), Tensor(target)

    def train_step_npspore():
        loss, grads = grad_fn(x_t, target_t)
        for array, g in zip(arrays, grads):
            array -= LR * g.asnumpy()
        return loss

    hand_params = [a.copy() for a in arrays]
    loss, grads = grad_fn(x_t, target_t)
    hand_loss, hand_grads = train_step_by_hand(x, target, [a.copy() for a in hand_params])
    np.testing.assert_allclose(float(loss), hand_loss, rtol=1e-4)
    for g, h in zip(grads, hand_grads):
        np.testing.assert_allclose(g.asnumpy(), h, rtol=1e-3, atol=1e-5)
    compiled, hand = compare(train_step_npspore, lambda: train_step_by_hand(x, target, hand_params), number=3)
    print(f"2-layer LSTM training step (T={SEQ}, batch {BATCH}, {INPUT}->{HIDDEN}): by hand {hand * 1e3:.2f} ms, "
          f"npspore {compiled * 1e3:.2f} ms ({compiled / hand:.2f}x, goal <= 1.2x)")
    step = torch_step(x, target, hand_params)
    if step is None:
        print("PyTorch not installed: skipped")
    else:
        torch_time, _ = compare(step, step, number=3, rounds=7)
        print(f"PyTorch eager, one thread: {torch_time * 1e3:.2f} ms ({torch_time / hand:.2f}x)")


if __name__ == "__main__":
    main()
