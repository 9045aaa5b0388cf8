"""Per-sample gradients of an MLP (784-256-10, batch 64, all weights) with ``vmap(grad(loss))``.

    python tools/bench_vmap.py [--threads N]

Compares, in interleaved rounds (``tools/timing.py``), the vmap kernel against a careful hand-written
batched NumPy version (einsum over the batch) and against a Python loop of ``ms.grad`` over the
samples; checks that all three agree first. JAX's ``vmap(grad)`` on the same workload is timed for
scale when ``jax`` is importable. Goals (issue 25): vmap ≤ ×1.5 of the hand-written version, ≥ 4×
faster than the loop. Prints the machine load beside the figures.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from timing import interleaved  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Tensor, ops  # noqa: E402

BATCH, D_IN, HIDDEN, D_OUT = 64, 784, 256, 10


def loss(w1, b1, w2, b2, x, label):
    """Cross entropy of one sample through a relu MLP."""
    h = ops.relu(ops.matmul(x, w1) + b1)
    logits = ops.matmul(h, w2) + b2
    return -ops.sum(ops.log_softmax(logits, -1) * label)


def by_hand(w1, b1, w2, b2, x, label, outer=lambda a, b: np.einsum("bi,bj->bij", a, b)):
    """The per-sample gradients of ``loss``, batched by hand (einsum over the batch for the weights'
    outer products, or ``outer``)."""
    pre = x @ w1 + b1
    h = np.maximum(pre, 0)
    logits = h @ w2 + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    softmax = np.exp(shifted)
    softmax /= softmax.sum(axis=1, keepdims=True)
    d_logits = softmax * label.sum(axis=1, keepdims=True) - label
    d_w2 = outer(h, d_logits)
    d_h = d_logits @ w2.T
    d_h *= pre > 0
    d_w1 = outer(x, d_h)
    return d_w1, d_h, d_w2, d_logits


def broadcast_outer(a, b):
    """A batch of outer products as a broadcast product (faster than einsum's in NumPy)."""
    return a[:, :, None] * b[:, None, :]


def main() -> None:
    rng = np.random.default_rng(0)
    arrays = [(rng.standard_normal((D_IN, HIDDEN)) * 0.05).astype(np.float32), np.zeros(HIDDEN, np.float32),
              (rng.standard_normal((HIDDEN, D_OUT)) * 0.05).astype(np.float32), np.zeros(D_OUT, np.float32),
              rng.standard_normal((BATCH, D_IN)).astype(np.float32),
              np.eye(D_OUT, dtype=np.float32)[rng.integers(0, D_OUT, BATCH)]]
    tensors = [Tensor(a) for a in arrays]
    gradient = ms.grad(loss, grad_position=(0, 1, 2, 3))
    per_sample = ms.vmap(gradient, in_axes=(None, None, None, None, 0, 0))

    def loop():
        return [gradient(*tensors[:4], Tensor(arrays[4][i]), Tensor(arrays[5][i])) for i in range(BATCH)]

    vmapped = [g.asnumpy() for g in per_sample(*tensors)]
    for got, want in zip(vmapped, by_hand(*arrays)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    looped = loop()
    for k, got in enumerate(vmapped):
        np.testing.assert_allclose(got, np.stack([g[k].asnumpy() for g in looped]), rtol=1e-4, atol=1e-5)

    for got, want in zip(by_hand(*arrays, outer=broadcast_outer), by_hand(*arrays)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)

    functions = [lambda: per_sample(*tensors), lambda: by_hand(*arrays),
                 lambda: by_hand(*arrays, outer=broadcast_outer), loop]
    print(f"load average (1, 5, 15 min): {os.getloadavg()}")
    for clock, timer in (("wall time", time.perf_counter), ("CPU time of this process", time.process_time)):
        t_vmap, t_einsum, t_broadcast, t_loop = interleaved(functions, number=3, rounds=11, timer=timer)
        t_hand = min(t_einsum, t_broadcast)
        print(f"-- {clock}, median of 11 interleaved rounds of 3 calls")
        print(f"vmap(grad(loss))             {t_vmap * 1e3:8.2f} ms")
        print(f"by hand, einsum over batch   {t_einsum * 1e3:8.2f} ms")
        print(f"by hand, broadcast products  {t_broadcast * 1e3:8.2f} ms")
        print(f"vmap / best by hand = x{t_vmap / t_hand:.2f} (goal <= x1.5)")
        print(f"loop of ms.grad              {t_loop * 1e3:8.2f} ms   loop / vmap = {t_loop / t_vmap:.1f}x (goal >= 4x)")
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        print("jax: not installed (pip install jax to time jax.vmap(jax.grad) for scale)")
        return

    def jax_loss(w1, b1, w2, b2, x, label):
        logits = jnp.maximum(x @ w1 + b1, 0) @ w2 + b2
        return -jnp.sum(jax.nn.log_softmax(logits) * label)

    jax_per_sample = jax.jit(jax.vmap(jax.grad(jax_loss, argnums=(0, 1, 2, 3)), in_axes=(None,) * 4 + (0, 0)))
    jax_arrays = [jnp.asarray(a) for a in arrays]
    jax.block_until_ready(jax_per_sample(*jax_arrays))
    (t_jax,) = interleaved([lambda: jax.block_until_ready(jax_per_sample(*jax_arrays))], number=3, rounds=11)
    print(f"jax.jit(vmap(grad)) {jax.__version__:7s}  {t_jax * 1e3:8.2f} ms   vmap / jax = x{t_vmap / t_jax:.2f}")


if __name__ == "__main__":
    main()
