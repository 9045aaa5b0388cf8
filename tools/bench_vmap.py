"""Per-sample gradients of an MLP (784-256-10, batch 64, all weights) with ``vmap(grad(loss))``.

    python tools/bench_vmap.py

Compares, in interleaved rounds (``tools/timing.py``), the vmap kernel against a careful hand-written
batched NumPy version (einsum over the batch) and against a Python loop of ``ms.grad`` over the
samples; checks that all three agree first. JAX's ``jit(vmap(grad))`` on the same workload is timed
for scale when ``jax`` is importable: run it from a benchmark-only virtualenv that has ``jax[cpu]``
beside npspore (``python -m venv V && V/bin/pip install -e . 'jax[cpu]'``; jax is never a dependency
of the project). Goals (issue 25): vmap ≤ ×1.5 of the hand-written version, ≥ 4× faster than the loop.

The per-sample gradients of the first layer are 51 MB per call, so both sides are mostly memory
traffic: the benchmark also times writing d_w1's products alone (einsum, a broadcast ``*`` and a stacked
``matmul``: the forms NumPy has; into fresh memory, as every call that returns new arrays does, and
``out=`` memory reused from the previous call) and a plain 51 MB write, and counts the minor page faults
and the kernel (system) time per call of each side. Fresh memory costs no page faults once the process
keeps freed memory (``npspore.core.heap``, in force once npspore's runtime loads; the run says whether it
is): without it a 51 MB block is mapped afresh on every call. Prints the machine load beside the figures.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from timing import faults_and_system_time, interleaved  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Tensor, ops  # noqa: E402
from npspore.core import heap  # noqa: E402

BATCH, D_IN, HIDDEN, D_OUT = 64, 784, 256, 10


def loss(w1, b1, w2, b2, x, label):
    """Cross entropy of one sample through a relu MLP."""
    h = ops.relu(ops.matmul(x, w1) + b1)
    logits = ops.matmul(h, w2) + b2
    return -ops.sum(ops.log_softmax(logits, -1) * label)


def by_hand(w1, b1, w2, b2, x, label):
    """The per-sample gradients of ``loss``, batched by hand as carefully as the kernel: in place where a
    value dies, the weights' outer products as ``einsum`` over the batch (the fastest NumPy form measured:
    ``outer_products_alone``)."""
    h = x @ w1
    h += b1
    np.maximum(h, 0, out=h)
    logits = h @ w2
    logits += b2
    logits -= logits.max(axis=1, keepdims=True)
    np.exp(logits, out=logits)
    logits /= logits.sum(axis=1, keepdims=True)
    logits *= label.sum(axis=1, keepdims=True)
    d_logits = np.subtract(logits, label, out=logits)
    d_w2 = np.einsum("bi,bj->bij", h, d_logits)
    d_h = d_logits @ w2.T
    d_h *= h > 0
    return np.einsum("bi,bj->bij", x, d_h), d_h, d_w2, d_logits


def outer_products_alone(x, d, out=None):
    """d_w1's products alone, written three ways NumPy can: ``(einsum, broadcast *, stacked matmul)``."""
    return (lambda: np.einsum("bi,bj->bij", x, d, out=out), lambda: np.multiply(x[:, :, None], d[:, None, :], out=out),
            lambda: np.matmul(x[:, :, None], d[:, None, :], out=out))


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

    output = np.empty((BATCH, D_IN, HIDDEN), np.float32)
    x, d_h = arrays[4], by_hand(*arrays)[1]
    for form in outer_products_alone(x, d_h) + outer_products_alone(x, d_h, output):
        np.testing.assert_array_equal(form(), x[:, :, None] * d_h[:, None, :])
    einsum, broadcast, matmul = outer_products_alone(x, d_h, output)
    sides = {"vmap(grad(loss))": lambda: per_sample(*tensors),
             "by hand (einsum over the batch)": lambda: by_hand(*arrays),
             "loop of ms.grad": loop,
             "d_w1's products alone, einsum": outer_products_alone(x, d_h)[0],
             "d_w1's products, einsum, out=": einsum,
             "d_w1's products, broadcast *, out=": broadcast,
             "d_w1's products, matmul, out=": matmul,
             "floor: 51 MB written (np.copyto)": lambda: np.copyto(output, 0.5)}
    jax_side = jax_per_sample_gradients(arrays)
    if jax_side is not None:
        sides[f"jax.jit(vmap(grad)) {jax_side[0]}"] = jax_side[1]
    print(f"load average (1, 5, 15 min): {os.getloadavg()}; freed memory kept (npspore.core.heap): "
          f"{heap.keep_freed_memory()}")
    print(f"the per-sample weight gradients d_w1 alone are {BATCH}x{D_IN}x{HIDDEN} float32 = "
          f"{output.nbytes / 1e6:.0f} MB written per call; glibc malloc settings from the environment: "
          f"{ {k: v for k, v in os.environ.items() if k.startswith(('MALLOC_', 'GLIBC_TUNABLES'))} }")
    names = list(sides)
    for clock, timer in (("wall time", time.perf_counter), ("CPU time of this process", time.process_time)):
        found = dict(zip(names, interleaved(list(sides.values()), number=3, rounds=11, timer=timer)))
        t_vmap, t_loop = found["vmap(grad(loss))"], found["loop of ms.grad"]
        t_hand = found["by hand (einsum over the batch)"]
        print(f"-- {clock}, median of 11 interleaved rounds of 3 calls")
        for name in names:
            print(f"{name:36s} {found[name] * 1e3:8.2f} ms")
        print(f"vmap / by hand = x{t_vmap / t_hand:.2f} (goal <= x1.5)")
        t_floor, t_products = found["floor: 51 MB written (np.copyto)"], found["d_w1's products, einsum, out="]
        print(f"loop / vmap = {t_loop / t_vmap:.1f}x (goal >= 4x); at most loop / floor = {t_loop / t_floor:.1f}x "
              f"for any implementation, loop / d_w1's products = {t_loop / t_products:.1f}x for one in NumPy")
    print("-- page faults and kernel (system) time per call, 10 calls each")
    for name in names:
        faults, system = faults_and_system_time(sides[name], 10)
        print(f"{name:36s} {faults:8.0f} minor faults  {system * 1e3:7.2f} ms system")
    print(f"load average (1, 5, 15 min): {os.getloadavg()}")


def jax_per_sample_gradients(arrays):
    """``(jax version, a call of jax.jit(vmap(grad)) on the workload)``, or None without ``jax``."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        print("jax: not installed (in a benchmark-only virtualenv: pip install 'jax[cpu]'; never a project "
              "dependency)")
        return None

    def jax_loss(w1, b1, w2, b2, x, label):
        logits = jnp.maximum(x @ w1 + b1, 0) @ w2 + b2
        return -jnp.sum(jax.nn.log_softmax(logits) * label)

    jax_per_sample = jax.jit(jax.vmap(jax.grad(jax_loss, argnums=(0, 1, 2, 3)), in_axes=(None,) * 4 + (0, 0)))
    jax_arrays = [jnp.asarray(a) for a in arrays]
    for got, want in zip(jax_per_sample(*jax_arrays), by_hand(*arrays)):   # d_w1, d_b1, d_w2, d_b2
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-5)
    return jax.__version__, lambda: jax.block_until_ready(jax_per_sample(*jax_arrays))


if __name__ == "__main__":
    main()
