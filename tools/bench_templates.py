"""Benchmark: the op lowerings and training-step pieces issue 27 changed, before against after, on the
shapes of the training-step workloads T1 (LeNet-5, 1x32x32, batch 32, Momentum) and T2 (embedding +
2-layer LSTM h128, seq 35, batch 20, Adam; 1000 classes).

    python tools/bench_templates.py

Each "before" is the lowering the kernels ran until then, written out here; each "after" is what they
run now (``npspore.core.kernels_np``, the ops' templates, the in-place updates). Times are medians of
interleaved rounds (tools/timing.py), BLAS on one thread; the machine's load is printed beside them.
Whole training steps are measured by tools/bench_train_steps.py.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402

import numpy as np  # noqa: E402
from timing import interleaved  # noqa: E402

from npspore.core import kernels_np  # noqa: E402

RNG = np.random.default_rng(0)
POOL = {"kernel_size": (2, 2), "stride": (2, 2)}


def _load() -> str:
    return "load %.2f %.2f %.2f" % os.getloadavg()


def _report(title, functions, number):
    names = list(functions)
    times = interleaved([functions[n] for n in names], number)
    text = ", ".join(f"{name} {t * 1e6:8.1f} us" for name, t in zip(names, times))
    print(f"  {title:<44} {text}   ({_load()})")


# ---------------------------------------------------------------- max pooling


def _windows(x, fill=-np.inf):
    return kernels_np.pool_windows(x, (2, 2), (2, 2), (0, 0, 0, 0), (1, 1), fill=fill)


def max_pool_before(x):
    """The forward as the template wrote it: a copy of the first tap, then one maximum per tap."""
    windows = _windows(x)
    out = windows[:, :, :, :, 0, 0].copy()
    for tap in range(1, 4):
        np.maximum(out, windows[:, :, :, :, tap // 2, tap % 2], out=out)
    return out


def max_pool_grad_before(x, g):
    """The adjoint as the template wrote it: windows and maximum rebuilt, then a masked add per tap."""
    windows = _windows(x)
    top = max_pool_before(x)
    grad = np.zeros(x.shape, g.dtype)
    grad_windows = _windows(grad, 0.0)
    free = np.ones(top.shape, np.bool_)
    for tap in range(4):
        hit = ~(windows[:, :, :, :, tap // 2, tap % 2] < top)
        hit &= free
        free ^= hit
        grad_windows[:, :, :, :, tap // 2, tap % 2] += g * hit
    return grad


def bench_max_pool():
    print("max pooling 2x2/2 (T1's two pools):")
    for shape in [(32, 6, 28, 28), (32, 16, 10, 10)]:
        x = np.maximum(RNG.standard_normal(shape).astype(np.float32), 0)
        out = kernels_np.max_pool2d(x, **POOL)
        g = RNG.standard_normal(out.shape).astype(np.float32)
        assert np.array_equal(max_pool_before(x), out)
        assert np.array_equal(max_pool_grad_before(x, g), kernels_np.max_pool2d_grad(x, out, g, **POOL))
        _report(f"forward {shape}", {"before": lambda: max_pool_before(x),
                                     "after": lambda: kernels_np.max_pool2d(x, **POOL)}, 100)
        _report(f"adjoint {shape}", {"before": lambda: max_pool_grad_before(x, g),
                                     "after": lambda: kernels_np.max_pool2d_grad(x, out, g, **POOL)}, 100)


# ---------------------------------------------------------------- col2im


def col2im_add_at(cols, c, k, n, oh, ow):
    """``np.add.at`` on the overlapping windows view of the gradient (one call, no Python loop)."""
    grad = np.zeros((c, n, oh + k - 1, ow + k - 1), cols.dtype)
    s = grad.strides
    view = np.lib.stride_tricks.as_strided(grad, (c, k, k, n, oh, ow), (s[0], s[2], s[3], s[1], s[2], s[3]))
    np.add.at(view, Ellipsis, cols.reshape(c, k, k, n, oh, ow))
    return grad.transpose(1, 0, 2, 3)


def col2im_strided_sum(cols, c, k, n, oh, ow):
    """Each tap's columns placed in a zero-padded buffer; the sum over taps of a strided view of it."""
    hp, wp = oh + 2 * (k - 1), ow + 2 * (k - 1)
    padded = np.zeros((c, k, k, n, hp, wp), cols.dtype)
    padded[:, :, :, :, k - 1:k - 1 + oh, k - 1:k - 1 + ow] = cols.reshape(c, k, k, n, oh, ow)
    s = padded.strides
    view = np.lib.stride_tricks.as_strided(padded[:, :, :, :, k - 1:, k - 1:], (c, n, oh + k - 1, ow + k - 1, k, k),
                                           (s[0], s[3], s[4], s[5], s[1] - s[4], s[2] - s[5]))
    return view.sum(axis=(4, 5)).transpose(1, 0, 2, 3)


def input_grad_transposed_conv(dy, w):
    """The input gradient as the transposed convolution: columns of the padded ``dy``, one GEMM."""
    o, c, k, _ = w.shape
    cols = kernels_np.im2col(dy, (c, o, k, k), padding=(k - 1,) * 4)
    flipped = w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3).reshape(1, c, o * k * k)
    return (flipped @ cols).reshape(c, dy.shape[0], dy.shape[2] + k - 1, dy.shape[3] + k - 1).transpose(1, 0, 2, 3)


def bench_col2im():
    print("conv2d input gradient (T1's second conv 6->16 5x5 on 14x14; its col2im alone):")
    c, o, k, n, oh, ow = 6, 16, 5, 32, 10, 10
    w = RNG.standard_normal((o, c, k, k)).astype(np.float32)
    dy = RNG.standard_normal((n, o, oh, ow)).astype(np.float32)

    def gemm_then_col2im():
        cols = w.reshape(1, o, c * k * k).transpose(0, 2, 1) @ dy.transpose(1, 0, 2, 3).reshape(1, o, n * oh * ow)
        return kernels_np.col2im(cols, (n, c, oh + k - 1, ow + k - 1), (o, c, k, k))

    cols = RNG.standard_normal((1, c * k * k, n * oh * ow)).astype(np.float32)
    shape = (n, c, oh + k - 1, ow + k - 1)
    reference = kernels_np.col2im(cols, shape, (o, c, k, k))
    np.testing.assert_allclose(col2im_add_at(cols, c, k, n, oh, ow), reference, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(col2im_strided_sum(cols, c, k, n, oh, ow), reference, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(input_grad_transposed_conv(dy, w), gemm_then_col2im(), rtol=1e-3, atol=1e-3)
    _report("col2im", {"tap loop (kept)": lambda: kernels_np.col2im(cols, shape, (o, c, k, k)),
                       "np.add.at": lambda: col2im_add_at(cols, c, k, n, oh, ow),
                       "strided sum": lambda: col2im_strided_sum(cols, c, k, n, oh, ow)}, 30)
    _report("input gradient", {"GEMM + col2im (kept)": gemm_then_col2im,
                               "transposed conv": lambda: input_grad_transposed_conv(dy, w)}, 30)


# ---------------------------------------------------------------- sparse softmax cross-entropy


def cross_entropy_before(logits, labels):
    """Loss and logits gradient as the kernels computed them: a dense one-hot, the fused loss, and an
    adjoint computing log_softmax again."""
    depth = logits.shape[-1]
    one_hot = np.where(np.expand_dims(labels, -1) == np.arange(depth), np.float32(1), np.float32(0))
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    loss = -np.sum(one_hot * (shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))), axis=-1).mean()
    again = logits - np.max(logits, axis=-1, keepdims=True)
    log_probs = again - np.log(np.sum(np.exp(again), axis=-1, keepdims=True))
    grad = np.exp(log_probs)
    grad *= one_hot.sum(axis=-1, keepdims=True)
    grad -= one_hot
    grad *= np.float32(1 / len(labels))
    return loss, grad


def cross_entropy_after(logits, labels):
    """As the kernels compute it now: log_softmax once, the label's entry read and scattered back, and
    log_softmax's adjoint from its output."""
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))
    index = np.expand_dims(labels, -1)
    loss = -np.squeeze(np.take_along_axis(log_probs, index, axis=-1), axis=-1).mean()
    d_log_probs = np.zeros(log_probs.shape, log_probs.dtype)
    np.put_along_axis(d_log_probs, index, np.float32(-1 / len(labels)), axis=-1)
    grad = np.exp(log_probs)
    grad *= d_log_probs.sum(axis=-1, keepdims=True)
    np.subtract(d_log_probs, grad, out=grad)
    return loss, grad


def bench_cross_entropy():
    print("sparse softmax cross-entropy, loss and logits gradient:")
    for rows, classes, number in [(32, 10, 2000), (700, 1000, 20)]:
        logits = RNG.standard_normal((rows, classes)).astype(np.float32)
        labels = RNG.integers(0, classes, rows).astype(np.int32)
        for a, b in zip(cross_entropy_before(logits, labels), cross_entropy_after(logits, labels)):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
        _report(f"({rows}, {classes})", {"before": lambda: cross_entropy_before(logits, labels),
                                          "after": lambda: cross_entropy_after(logits, labels)}, number)


# ---------------------------------------------------------------- optimizer updates


def momentum_before(params, moments, grads, lr, momentum):
    for w, m, g in zip(params, moments, grads):
        mul = m * momentum
        mul += g
        np.copyto(m, mul)
        step = lr * mul
        np.subtract(w, step, out=step)
        np.copyto(w, step)


def momentum_after(params, moments, grads, lr, momentum):
    for w, m, g in zip(params, moments, grads):
        m *= momentum
        m += g
        w -= lr * m


def adam_before(params, m1, m2, grads, lr_t, beta1, beta2, eps):
    for w, m, v, g in zip(params, m1, m2, grads):
        t = g - m
        t *= 1 - beta1
        new_m = m + t
        np.copyto(m, new_m)
        s = g * g
        s -= v
        s *= 1 - beta2
        new_v = v + s
        np.copyto(v, new_v)
        step = lr_t * new_m
        root = np.sqrt(new_v)
        root += eps
        step /= root
        np.subtract(w, step, out=step)
        np.copyto(w, step)


def adam_after(params, m1, m2, grads, lr_t, beta1, beta2, eps):
    for w, m, v, g in zip(params, m1, m2, grads):
        t = g - m
        t *= 1 - beta1
        m += t
        s = g * g
        s -= v
        s *= 1 - beta2
        v += s
        step = lr_t * m
        root = np.sqrt(v)
        root += eps
        step /= root
        w -= step


def _state(shapes):
    return [RNG.standard_normal(s).astype(np.float32) for s in shapes]


def bench_optimizers():
    print("optimizer updates of every Parameter:")
    lenet = [(6, 1, 5, 5), (16, 6, 5, 5), (120, 400), (120,), (84, 120), (84,), (10, 84), (10,)]
    lstm = [(1000, 128), (512, 128), (512, 128), (512, 128), (512, 128), (512,), (512,), (512,), (512,),
            (1000, 128), (1000,)]
    f32 = np.float32
    state = [_state(lenet) for _ in range(3)]
    _report("Momentum, T1's Parameters", {
        "before": lambda: momentum_before(*state, f32(0.01), f32(0.9)),
        "after": lambda: momentum_after(*state, f32(0.01), f32(0.9))}, 500)
    params, m1, m2, grads = (_state(lstm) for _ in range(4))
    m2 = [np.abs(v) for v in m2]
    args = (params, m1, m2, grads, f32(1e-3), f32(0.9), f32(0.999), f32(1e-8))
    _report("Adam, T2's Parameters", {"before": lambda: adam_before(*args), "after": lambda: adam_after(*args)}, 50)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    bench_max_pool()
    bench_col2im()
    bench_cross_entropy()
    bench_optimizers()


if __name__ == "__main__":
    main()
