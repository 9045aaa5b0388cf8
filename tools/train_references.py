"""Careful hand-written NumPy training steps for T1-T4 (``train_workloads.py``): the reference npspore's
compiled steps are measured against.

Each class is written as a careful person writes a step in NumPy: every large array is allocated once
in ``__init__`` (the step's planned buffers) and written with ``out=`` afterwards, masks and updates are
applied in place, a convolution is im2col (one strided copy) and one GEMM in channel-major layout (no
transposes between the layers), and the optimizer updates each parameter and its moments in place.
``step(x, labels)`` trains once and returns the loss. ``dtype=np.float64`` gives the float64 reference
the benchmark checks every framework's losses against.

The products large enough for npspore to split across threads (``npspore.core.matmul_split``, at npspore's
default thread policy) are split here the same way (:func:`matmul`): a careful person with a second core
uses it, and the comparison measures the rest of the step, on the same threads.
"""
from __future__ import annotations

import math

import numpy as np

from npspore.core import matmul_split

# ---------------------------------------------------------------- shared pieces


def matmul(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``np.matmul(a, b, out=out)``, split across threads where npspore splits a product of these shapes."""
    if matmul_split.worth_splitting(a.shape, b.shape):
        return matmul_split.matmul_split(a, b, out=out)
    return np.matmul(a, b, out=out)


class SoftmaxCrossEntropy:
    """Mean sparse softmax cross-entropy of (rows, classes) logits; the gradient written into ``d_logits``."""

    def __init__(self, rows: int, classes: int, dtype):
        self.rows = np.arange(rows)
        self.d_logits = np.empty((rows, classes), dtype)
        self.column = np.empty((rows, 1), dtype)

    def __call__(self, logits: np.ndarray, labels: np.ndarray) -> float:
        d, column, n = self.d_logits, self.column, len(self.rows)
        np.max(logits, axis=1, keepdims=True, out=column)
        np.subtract(logits, column, out=d)
        picked = d[self.rows, labels]
        np.exp(d, out=d)
        np.sum(d, axis=1, keepdims=True, out=column)
        loss = float(np.mean(np.log(column[:, 0]) - picked))
        d /= column
        d[self.rows, labels] -= 1
        d *= 1 / n
        return loss


class Momentum:
    """``m = momentum * m + g; w -= lr * m``, in place (MindSpore's ``nn.Momentum``)."""

    def __init__(self, weights: dict, lr: float, momentum: float):
        self.lr, self.momentum = lr, momentum
        self.moments = {k: np.zeros_like(w) for k, w in weights.items()}
        self.scratch = {k: np.empty_like(w) for k, w in weights.items()}

    def update(self, weights: dict, grads: dict) -> None:
        for name, w in weights.items():
            m, scratch = self.moments[name], self.scratch[name]
            m *= self.momentum
            m += grads[name]
            np.multiply(m, self.lr, out=scratch)
            w -= scratch


class Adam:
    """MindSpore's ``nn.Adam``: ``w -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)``, in place."""

    def __init__(self, weights: dict, lr: float, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.m = {k: np.zeros_like(w) for k, w in weights.items()}
        self.v = {k: np.zeros_like(w) for k, w in weights.items()}
        self.scratch = {k: np.empty_like(w) for k, w in weights.items()}
        self.power1 = self.power2 = 1.0

    def update(self, weights: dict, grads: dict) -> None:
        self.power1 *= self.beta1
        self.power2 *= self.beta2
        step = self.lr * math.sqrt(1 - self.power2) / (1 - self.power1)
        for name, w in weights.items():
            g, m, v, scratch = grads[name], self.m[name], self.v[name], self.scratch[name]
            m *= self.beta1
            np.multiply(g, 1 - self.beta1, out=scratch)
            m += scratch
            v *= self.beta2
            np.multiply(g, g, out=scratch)
            scratch *= 1 - self.beta2
            v += scratch
            np.sqrt(v, out=scratch)
            scratch += self.eps
            np.divide(m, scratch, out=scratch)
            scratch *= step
            w -= scratch


def _dense_backward(d_out, x, w, g_w, g_b, d_x=None):
    """Gradients of ``x @ w.T + b``: into ``g_w``, ``g_b`` and (when given) ``d_x``."""
    matmul(d_out.T, x, out=g_w)
    np.sum(d_out, axis=0, out=g_b)
    if d_x is not None:
        matmul(d_out, w, out=d_x)


def _grads_like(weights: dict) -> dict:
    return {k: np.empty_like(w) for k, w in weights.items()}


# ---------------------------------------------------------------- T1: LeNet-5, Momentum


class LeNetByHand:
    """T1: LeNet-5 on 1x32x32, channel-major activations (C, N, H, W), nn.Momentum."""

    def __init__(self, weights: dict, batch: int, lr: float, momentum: float, dtype=np.float32):
        self.w = {k: v.astype(dtype) for k, v in weights.items()}
        self.g = _grads_like(self.w)
        self.optimizer = Momentum(self.w, lr, momentum)
        n, e = batch, lambda *shape: np.empty(shape, dtype)
        self.n = n
        self.cols1, self.z1, self.p1 = e(25, n * 784), e(6, n, 28, 28), e(6, n, 14, 14)
        self.cols2, self.z2, self.p2 = e(150, n * 100), e(16, n, 10, 10), e(16, n, 5, 5)
        self.h0, self.z3, self.z4, self.logits = e(n, 400), e(n, 120), e(n, 84), e(n, 10)
        self.d_z4, self.d_z3, self.d_h0 = e(n, 84), e(n, 120), e(n, 400)
        self.d_z2, self.d_cols2, self.d_p1, self.d_z1 = e(16, n, 10, 10), e(150, n * 100), e(6, n, 14, 14), e(6, n, 28, 28)
        self.free2, self.hit2 = np.empty((16, n, 5, 5), bool), np.empty((16, n, 5, 5), bool)
        self.free1, self.hit1 = np.empty((6, n, 14, 14), bool), np.empty((6, n, 14, 14), bool)
        self.loss = SoftmaxCrossEntropy(n, 10, dtype)

    @staticmethod
    def _im2col(x, cols, k, out_hw):
        """Columns ``(C*k*k, N*OH*OW)`` of channel-major ``x`` (C, N, H, W), copied into ``cols``."""
        c, n, _, _ = x.shape
        s = x.strides
        view = np.lib.stride_tricks.as_strided(x, (c, k, k, n, out_hw, out_hw), (s[0], s[2], s[3], s[1], s[2], s[3]))
        np.copyto(cols.reshape(c, k, k, n, out_hw, out_hw), view)

    @staticmethod
    def _pool(a, p):
        """2x2 max pool, stride 2, of (C, N, H, W) into ``p``."""
        np.maximum(a[:, :, 0::2, 0::2], a[:, :, 0::2, 1::2], out=p)
        np.maximum(p, a[:, :, 1::2, 0::2], out=p)
        np.maximum(p, a[:, :, 1::2, 1::2], out=p)

    @staticmethod
    def _pool_backward(d_p, a, p, d_a, free, hit):
        """The gradient to each window's first maximum (as MindSpore's MaxPool), tap by tap, into ``d_a``."""
        free.fill(True)
        for i in range(2):
            for j in range(2):
                np.equal(a[:, :, i::2, j::2], p, out=hit)
                hit &= free
                free ^= hit
                np.multiply(d_p, hit, out=d_a[:, :, i::2, j::2])

    def step(self, x: np.ndarray, labels: np.ndarray) -> float:
        w, g, n = self.w, self.g, self.n
        w1, w2 = w["conv1.weight"].reshape(6, 25), w["conv2.weight"].reshape(16, 150)
        self._im2col(x.transpose(1, 0, 2, 3), self.cols1, 5, 28)
        z1 = self.z1.reshape(6, -1)
        matmul(w1, self.cols1, out=z1)
        np.maximum(z1, 0, out=z1)                                   # a1, in place
        self._pool(self.z1, self.p1)
        self._im2col(self.p1, self.cols2, 5, 10)
        z2 = self.z2.reshape(16, -1)
        matmul(w2, self.cols2, out=z2)
        np.maximum(z2, 0, out=z2)
        self._pool(self.z2, self.p2)
        np.copyto(self.h0.reshape(n, 16, 5, 5), self.p2.transpose(1, 0, 2, 3))
        matmul(self.h0, w["fc1.weight"].T, out=self.z3)
        self.z3 += w["fc1.bias"]
        np.maximum(self.z3, 0, out=self.z3)
        matmul(self.z3, w["fc2.weight"].T, out=self.z4)
        self.z4 += w["fc2.bias"]
        np.maximum(self.z4, 0, out=self.z4)
        matmul(self.z4, w["fc3.weight"].T, out=self.logits)
        self.logits += w["fc3.bias"]
        loss = self.loss(self.logits, labels)

        d = self.loss.d_logits
        _dense_backward(d, self.z4, w["fc3.weight"], g["fc3.weight"], g["fc3.bias"], self.d_z4)
        self.d_z4 *= self.z4 > 0
        _dense_backward(self.d_z4, self.z3, w["fc2.weight"], g["fc2.weight"], g["fc2.bias"], self.d_z3)
        self.d_z3 *= self.z3 > 0
        _dense_backward(self.d_z3, self.h0, w["fc1.weight"], g["fc1.weight"], g["fc1.bias"], self.d_h0)
        d_p2 = self.d_h0.reshape(n, 16, 5, 5).transpose(1, 0, 2, 3)
        self._pool_backward(d_p2, self.z2, self.p2, self.d_z2, self.free2, self.hit2)
        self.d_z2 *= self.z2 > 0
        d_z2 = self.d_z2.reshape(16, -1)
        matmul(d_z2, self.cols2.T, out=g["conv2.weight"].reshape(16, 150))
        matmul(w2.T, d_z2, out=self.d_cols2)
        taps = self.d_cols2.reshape(6, 5, 5, n, 10, 10)
        self.d_p1.fill(0)
        for i in range(5):                                           # col2im: one kernel tap at a time
            for j in range(5):
                self.d_p1[:, :, i:i + 10, j:j + 10] += taps[:, i, j]
        self._pool_backward(self.d_p1, self.z1, self.p1, self.d_z1, self.free1, self.hit1)
        self.d_z1 *= self.z1 > 0
        matmul(self.d_z1.reshape(6, -1), self.cols1.T, out=g["conv1.weight"].reshape(6, 25))
        self.optimizer.update(w, g)
        return loss


# ---------------------------------------------------------------- T4: MLP, Adam


class MLPByHand:
    """T4: 784-512-512-10 with ReLU, nn.Adam."""

    def __init__(self, weights: dict, batch: int, lr: float, dtype=np.float32):
        self.w = {k: v.astype(dtype) for k, v in weights.items()}
        self.g = _grads_like(self.w)
        self.optimizer = Adam(self.w, lr)
        e = lambda *shape: np.empty(shape, dtype)  # noqa: E731
        self.z1, self.z2, self.logits = e(batch, 512), e(batch, 512), e(batch, 10)
        self.d_z2, self.d_z1 = e(batch, 512), e(batch, 512)
        self.loss = SoftmaxCrossEntropy(batch, 10, dtype)

    def step(self, x: np.ndarray, labels: np.ndarray) -> float:
        w, g = self.w, self.g
        matmul(x, w["fc1.weight"].T, out=self.z1)
        self.z1 += w["fc1.bias"]
        np.maximum(self.z1, 0, out=self.z1)
        matmul(self.z1, w["fc2.weight"].T, out=self.z2)
        self.z2 += w["fc2.bias"]
        np.maximum(self.z2, 0, out=self.z2)
        matmul(self.z2, w["fc3.weight"].T, out=self.logits)
        self.logits += w["fc3.bias"]
        loss = self.loss(self.logits, labels)
        _dense_backward(self.loss.d_logits, self.z2, w["fc3.weight"], g["fc3.weight"], g["fc3.bias"], self.d_z2)
        self.d_z2 *= self.z2 > 0
        _dense_backward(self.d_z2, self.z1, w["fc2.weight"], g["fc2.weight"], g["fc2.bias"], self.d_z1)
        self.d_z1 *= self.z1 > 0
        _dense_backward(self.d_z1, x, w["fc1.weight"], g["fc1.weight"], g["fc1.bias"])
        self.optimizer.update(w, g)
        return loss


# ---------------------------------------------------------------- T2: embedding + 2-layer LSTM, Adam


def _sigmoid(x, out):
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1
    np.reciprocal(out, out=out)


class LSTMByHand:
    """T2: embedding, 2-layer LSTM (gates i, f, g, o), Dense decoder, nn.Adam; buffers per layer and step."""

    def __init__(self, weights: dict, seq: int, batch: int, hidden: int, vocab: int, lr: float, dtype=np.float32):
        self.w = {k: v.astype(dtype) for k, v in weights.items()}
        self.g = _grads_like(self.w)
        self.optimizer = Adam(self.w, lr)
        e = lambda *shape: np.empty(shape, dtype)  # noqa: E731
        self.seq, self.batch, self.hidden = seq, batch, hidden
        embed = self.w["embedding.embedding_table"].shape[1]
        self.x0 = e(seq, batch, embed)
        self.gates = [e(seq, batch, 4 * hidden) for _ in range(2)]    # activated gates i, f, g, o
        self.c = [e(seq + 1, batch, hidden) for _ in range(2)]        # c[0] = 0
        self.tanh_c = [e(seq, batch, hidden) for _ in range(2)]
        self.h = [e(seq + 1, batch, hidden) for _ in range(2)]        # h[0] = 0; h[1:] the layer's outputs
        self.logits = e(seq * batch, vocab)
        self.d_h_out = [e(seq, batch, hidden) for _ in range(2)]      # the gradient reaching each output
        self.d_gates = e(seq, batch, 4 * hidden)
        self.d_h, self.d_c, self.tmp = e(batch, hidden), e(batch, hidden), e(batch, hidden)
        self.d_x0 = e(seq, batch, embed)
        self.loss = SoftmaxCrossEntropy(seq * batch, vocab, dtype)

    def _layer(self, layer: int, x: np.ndarray) -> None:
        w, hd = self.w, self.hidden
        gates, c, tanh_c, h = self.gates[layer], self.c[layer], self.tanh_c[layer], self.h[layer]
        rows = gates.reshape(self.seq * self.batch, 4 * hd)
        matmul(x.reshape(self.seq * self.batch, -1), w[f"lstm.weight_ih_l{layer}"].T, out=rows)
        rows += w[f"lstm.bias_ih_l{layer}"]
        rows += w[f"lstm.bias_hh_l{layer}"]
        c[0].fill(0)
        h[0].fill(0)
        w_hh = w[f"lstm.weight_hh_l{layer}"].T
        for t in range(self.seq):
            gate = gates[t]
            gate += h[t] @ w_hh
            _sigmoid(gate[:, :2 * hd], gate[:, :2 * hd])
            np.tanh(gate[:, 2 * hd:3 * hd], out=gate[:, 2 * hd:3 * hd])
            _sigmoid(gate[:, 3 * hd:], gate[:, 3 * hd:])
            np.multiply(gate[:, hd:2 * hd], c[t], out=c[t + 1])
            np.multiply(gate[:, :hd], gate[:, 2 * hd:3 * hd], out=self.tmp)
            c[t + 1] += self.tmp
            np.tanh(c[t + 1], out=tanh_c[t])
            np.multiply(gate[:, 3 * hd:], tanh_c[t], out=h[t + 1])

    def _layer_backward(self, layer: int, x: np.ndarray, d_x: np.ndarray) -> None:
        w, g, hd = self.w, self.g, self.hidden
        gates, c, tanh_c, h = self.gates[layer], self.c[layer], self.tanh_c[layer], self.h[layer]
        d_out, d_gates, d_h, d_c, tmp = self.d_h_out[layer], self.d_gates, self.d_h, self.d_c, self.tmp
        w_hh = w[f"lstm.weight_hh_l{layer}"]
        d_h.fill(0)
        d_c.fill(0)
        for t in reversed(range(self.seq)):
            gate, d_gate = gates[t], d_gates[t]
            i, f, cell, o = gate[:, :hd], gate[:, hd:2 * hd], gate[:, 2 * hd:3 * hd], gate[:, 3 * hd:]
            d_h += d_out[t]
            np.multiply(d_h, tanh_c[t], out=d_gate[:, 3 * hd:])           # d_o
            d_gate[:, 3 * hd:] *= o
            np.subtract(1, o, out=tmp)
            d_gate[:, 3 * hd:] *= tmp
            np.multiply(tanh_c[t], tanh_c[t], out=tmp)                   # d_c += d_h * o * (1 - tanh^2)
            np.subtract(1, tmp, out=tmp)
            tmp *= o
            tmp *= d_h
            d_c += tmp
            np.multiply(d_c, cell, out=d_gate[:, :hd])                   # d_i
            d_gate[:, :hd] *= i
            np.subtract(1, i, out=tmp)
            d_gate[:, :hd] *= tmp
            np.multiply(d_c, c[t], out=d_gate[:, hd:2 * hd])             # d_f
            d_gate[:, hd:2 * hd] *= f
            np.subtract(1, f, out=tmp)
            d_gate[:, hd:2 * hd] *= tmp
            np.multiply(d_c, i, out=d_gate[:, 2 * hd:3 * hd])            # d_g
            np.multiply(cell, cell, out=tmp)
            np.subtract(1, tmp, out=tmp)
            d_gate[:, 2 * hd:3 * hd] *= tmp
            d_c *= f
            matmul(d_gate, w_hh, out=d_h)
        rows = d_gates.reshape(self.seq * self.batch, 4 * hd)
        matmul(rows.T, h[:-1].reshape(self.seq * self.batch, hd), out=g[f"lstm.weight_hh_l{layer}"])
        matmul(rows.T, x.reshape(self.seq * self.batch, -1), out=g[f"lstm.weight_ih_l{layer}"])
        np.sum(rows, axis=0, out=g[f"lstm.bias_ih_l{layer}"])
        np.copyto(g[f"lstm.bias_hh_l{layer}"], g[f"lstm.bias_ih_l{layer}"])
        matmul(rows, w[f"lstm.weight_ih_l{layer}"], out=d_x.reshape(self.seq * self.batch, -1))

    def step(self, tokens: np.ndarray, labels: np.ndarray) -> float:
        w, g, hd = self.w, self.g, self.hidden
        table = w["embedding.embedding_table"]
        np.take(table, tokens, axis=0, out=self.x0)
        self._layer(0, self.x0)
        self._layer(1, self.h[0][1:])
        top = self.h[1][1:].reshape(-1, hd)
        matmul(top, w["decoder.weight"].T, out=self.logits)
        self.logits += w["decoder.bias"]
        loss = self.loss(self.logits, labels.reshape(-1))
        _dense_backward(self.loss.d_logits, top, w["decoder.weight"], g["decoder.weight"], g["decoder.bias"],
                        self.d_h_out[1].reshape(-1, hd))
        self._layer_backward(1, self.h[0][1:], self.d_h_out[0])
        self._layer_backward(0, self.x0, self.d_x0)
        g_table = g["embedding.embedding_table"]
        g_table.fill(0)
        np.add.at(g_table, tokens.reshape(-1), self.d_x0.reshape(-1, table.shape[1]))
        self.optimizer.update(w, g)
        return loss


# ---------------------------------------------------------------- T3: 2-layer Transformer encoder, Adam


class _LayerNorm:
    """Layer normalization over the last axis (rows, E), its statistics kept for the backward."""

    def __init__(self, rows: int, width: int, dtype, eps=1e-5):
        self.eps = eps
        self.xhat, self.rstd, self.column = np.empty((rows, width), dtype), np.empty((rows, 1), dtype), np.empty((rows, 1), dtype)
        self.scratch = np.empty((rows, width), dtype)

    def forward(self, x, gamma, beta, out):
        np.mean(x, axis=1, keepdims=True, out=self.column)
        np.subtract(x, self.column, out=self.xhat)
        np.multiply(self.xhat, self.xhat, out=self.scratch)
        np.mean(self.scratch, axis=1, keepdims=True, out=self.rstd)
        self.rstd += self.eps
        np.sqrt(self.rstd, out=self.rstd)
        np.reciprocal(self.rstd, out=self.rstd)
        self.xhat *= self.rstd
        np.multiply(self.xhat, gamma, out=out)
        out += beta

    def backward(self, d_y, gamma, g_gamma, g_beta, d_x):
        """``d_x = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat))``; ``d_x`` may be ``d_y``."""
        np.multiply(d_y, self.xhat, out=self.scratch)
        np.sum(self.scratch, axis=0, out=g_gamma)
        np.sum(d_y, axis=0, out=g_beta)
        np.multiply(d_y, gamma, out=d_x)                                 # dxhat
        np.multiply(d_x, self.xhat, out=self.scratch)
        np.mean(self.scratch, axis=1, keepdims=True, out=self.column)
        np.multiply(self.xhat, self.column, out=self.scratch)
        np.mean(d_x, axis=1, keepdims=True, out=self.column)
        d_x -= self.column
        d_x -= self.scratch
        d_x *= self.rstd


class TransformerByHand:
    """T3: 2 post-norm encoder layers (packed in-projection, ReLU feed-forward, no dropout), a Dense
    classifier per token, nn.Adam. Rows are (seq, batch) flattened, as the sequence-first layout gives."""

    def __init__(self, weights: dict, seq: int, batch: int, d_model: int, heads: int, feedforward: int,
                 classes: int, lr: float, dtype=np.float32):
        self.w = {k: v.astype(dtype) for k, v in weights.items()}
        self.g = _grads_like(self.w)
        self.optimizer = Adam(self.w, lr)
        self.seq, self.batch, self.e, self.heads, self.dh = seq, batch, d_model, heads, d_model // heads
        rows = seq * batch
        e = lambda *shape: np.empty(shape, dtype)  # noqa: E731
        self.layers = []
        for _ in range(2):
            self.layers.append({
                "x": e(rows, d_model), "qkv": e(rows, 3 * d_model), "q": e(batch, heads, seq, self.dh),
                "k": e(batch, heads, seq, self.dh), "v": e(batch, heads, seq, self.dh),
                "p": e(batch, heads, seq, seq), "o": e(batch, heads, seq, self.dh), "o_rows": e(rows, d_model),
                "r1": e(rows, d_model), "y1": e(rows, d_model), "f": e(rows, feedforward), "r2": e(rows, d_model),
                "norm1": _LayerNorm(rows, d_model, dtype), "norm2": _LayerNorm(rows, d_model, dtype)})
        self.out = e(rows, d_model)
        self.logits = e(rows, classes)
        self.d_y, self.d_r1, self.d_f = e(rows, d_model), e(rows, d_model), e(rows, feedforward)
        self.d_o, self.d_p = e(batch, heads, seq, self.dh), e(batch, heads, seq, seq)
        self.d_qkv, self.d_heads, self.column = e(rows, 3 * d_model), e(batch, heads, seq, self.dh), e(batch, heads, seq, 1)
        self.loss = SoftmaxCrossEntropy(rows, classes, dtype)

    def _heads(self, rows_view, out):
        """(rows, E) columns of one projection -> (batch, heads, seq, dh)."""
        np.copyto(out, rows_view.reshape(self.seq, self.batch, self.heads, self.dh).transpose(1, 2, 0, 3))

    def _unheads(self, heads, out_rows):
        """(batch, heads, seq, dh) -> (rows, E) columns."""
        np.copyto(out_rows.reshape(self.seq, self.batch, self.heads, self.dh), heads.transpose(2, 0, 1, 3))

    def _layer(self, index: int, x_in: np.ndarray, y_out: np.ndarray) -> None:
        w, s, em = self.w, self.layers[index], self.e
        p = f"encoder.layers.{index}."
        np.copyto(s["x"], x_in)
        matmul(s["x"], w[p + "self_attn.in_proj_weight"].T, out=s["qkv"])
        s["qkv"] += w[p + "self_attn.in_proj_bias"]
        for name, part in zip("qkv", range(3)):
            self._heads(s["qkv"][:, part * em:(part + 1) * em], s[name])
        s["q"] *= 1 / math.sqrt(self.dh)
        matmul(s["q"], s["k"].transpose(0, 1, 3, 2), out=s["p"])
        s["p"] -= s["p"].max(axis=-1, keepdims=True)
        np.exp(s["p"], out=s["p"])
        s["p"] /= s["p"].sum(axis=-1, keepdims=True)
        matmul(s["p"], s["v"], out=s["o"])
        self._unheads(s["o"], s["o_rows"])
        matmul(s["o_rows"], w[p + "self_attn.out_proj.weight"].T, out=s["r1"])
        s["r1"] += w[p + "self_attn.out_proj.bias"]
        s["r1"] += s["x"]
        s["norm1"].forward(s["r1"], w[p + "norm1.gamma"], w[p + "norm1.beta"], s["y1"])
        matmul(s["y1"], w[p + "dense1.weight"].T, out=s["f"])
        s["f"] += w[p + "dense1.bias"]
        np.maximum(s["f"], 0, out=s["f"])
        matmul(s["f"], w[p + "dense2.weight"].T, out=s["r2"])
        s["r2"] += w[p + "dense2.bias"]
        s["r2"] += s["y1"]
        s["norm2"].forward(s["r2"], w[p + "norm2.gamma"], w[p + "norm2.beta"], y_out)

    def _layer_backward(self, index: int, d_y: np.ndarray) -> None:
        """``d_y``: the gradient of the layer's output, overwritten with the gradient of its input."""
        w, g, s, em = self.w, self.g, self.layers[index], self.e
        p = f"encoder.layers.{index}."
        s["norm2"].backward(d_y, w[p + "norm2.gamma"], g[p + "norm2.gamma"], g[p + "norm2.beta"], d_y)   # d_r2
        _dense_backward(d_y, s["f"], w[p + "dense2.weight"], g[p + "dense2.weight"], g[p + "dense2.bias"], self.d_f)
        self.d_f *= s["f"] > 0
        _dense_backward(self.d_f, s["y1"], w[p + "dense1.weight"], g[p + "dense1.weight"], g[p + "dense1.bias"],
                        self.d_r1)
        self.d_r1 += d_y                                                       # d_y1
        s["norm1"].backward(self.d_r1, w[p + "norm1.gamma"], g[p + "norm1.gamma"], g[p + "norm1.beta"], self.d_r1)
        _dense_backward(self.d_r1, s["o_rows"], w[p + "self_attn.out_proj.weight"], g[p + "self_attn.out_proj.weight"],
                        g[p + "self_attn.out_proj.bias"], d_y)                 # d_y: d_o_rows for now
        self._heads(d_y, self.d_o)
        matmul(self.d_o, s["v"].transpose(0, 1, 3, 2), out=self.d_p)
        matmul(s["p"].transpose(0, 1, 3, 2), self.d_o, out=self.d_heads)    # d_v
        self._unheads(self.d_heads, self.d_qkv[:, 2 * em:])
        np.multiply(self.d_p, s["p"], out=self.d_p)                            # d_scores = p * (d_p - sum(d_p * p))
        np.sum(self.d_p, axis=-1, keepdims=True, out=self.column)
        np.multiply(s["p"], self.column, out=s["p"])
        self.d_p -= s["p"]
        matmul(self.d_p, s["k"], out=self.d_heads)                          # d_q (q was scaled)
        self.d_heads *= 1 / math.sqrt(self.dh)
        self._unheads(self.d_heads, self.d_qkv[:, :em])
        matmul(self.d_p.transpose(0, 1, 3, 2), s["q"], out=self.d_heads)   # d_k
        self._unheads(self.d_heads, self.d_qkv[:, em:2 * em])
        _dense_backward(self.d_qkv, s["x"], w[p + "self_attn.in_proj_weight"], g[p + "self_attn.in_proj_weight"],
                        g[p + "self_attn.in_proj_bias"], d_y)
        d_y += self.d_r1                                                       # the residual path

    def step(self, x: np.ndarray, labels: np.ndarray) -> float:
        w, g, em = self.w, self.g, self.e
        rows = x.reshape(-1, em)
        self._layer(0, rows, self.layers[1]["x"])
        self._layer(1, self.layers[1]["x"], self.out)
        matmul(self.out, w["classifier.weight"].T, out=self.logits)
        self.logits += w["classifier.bias"]
        loss = self.loss(self.logits, labels.reshape(-1))
        _dense_backward(self.loss.d_logits, self.out, w["classifier.weight"], g["classifier.weight"],
                        g["classifier.bias"], self.d_y)
        self._layer_backward(1, self.d_y)
        self._layer_backward(0, self.d_y)
        self.optimizer.update(w, g)
        return loss
