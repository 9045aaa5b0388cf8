"""Forward-mode benchmarks: ``jvp`` against the forward kernel; ``jacfwd``/``jacrev`` against a
hand-written Jacobian (same run, interleaved rounds of ``tools/timing.py``).

    python tools/bench_forward_mode.py

* ``jvp`` of the W2 MLP (784-256-10, ReLU, MSE loss, batch 64, float32; ``/work/shared/bench``'s W2)
  with respect to its input, one tangent, against its forward kernel (``jit``): goal ≤ ×3.
* ``jacfwd`` and ``jacrev`` of a 3-layer 64→64 tanh MLP at one input (float32), against the
  Jacobian written by hand (``W3ᵀ·diag(1-h2²)·W2ᵀ·diag(1-h1²)·W1ᵀ``, three products): goal ≤ ×1.5.

BLAS threads are pinned to 1. Prints the ratios by wall time and by this process's CPU time (median of
21 interleaved rounds), and the machine's load (``os.getloadavg``).
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import time  # noqa: E402

import numpy as np  # noqa: E402
from timing import compare  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Tensor, nn, ops  # noqa: E402


# wall time, and this process's CPU time, which the other processes of a loaded machine inflate far less
CLOCKS = (("wall time", time.perf_counter), ("CPU time", time.process_time))


class MLPLoss(nn.Cell):
    """The W2 workload: ReLU MLP 784-256-10 with the MSE loss against targets ``y``."""

    def __init__(self, rng):
        super().__init__()
        self.fc1 = nn.Dense(784, 256, weight_init=Tensor((rng.standard_normal((256, 784)) / 28).astype(np.float32)))
        self.fc2 = nn.Dense(256, 10, weight_init=Tensor((rng.standard_normal((10, 256)) / 16).astype(np.float32)))

    def construct(self, x, y):
        return ((self.fc2(ops.relu(self.fc1(x))) - y) ** 2).mean()


class TanhMLP(nn.Cell):
    """Three 64→64 tanh layers."""

    def __init__(self, rng):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(64, 64, weight_init=Tensor((rng.standard_normal((64, 64)) / 8)
                                                                      .astype(np.float32)), activation="tanh")
                                   for _ in range(3)])

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def jvp_against_forward():
    rng = np.random.default_rng(0)
    net = MLPLoss(rng)
    x = Tensor(rng.standard_normal((64, 784)).astype(np.float32))
    y = Tensor(rng.standard_normal((64, 10)).astype(np.float32))
    v = Tensor(rng.standard_normal((64, 784)).astype(np.float32))
    forward = ms.jit(lambda a, b: net(a, b))

    def with_respect_to_x(a):
        return net(a, y)

    tangent = ms.derivatives.JvpFunction(with_respect_to_x, ms.compiler.jvpspec.JvpSpec())
    tangent(x, v), forward(x, y)
    return {clock: compare(lambda: tangent(x, v), lambda: forward(x, y), 200, timer=timer) for clock, timer in CLOCKS}


def jacobian_by_hand(x, weights, biases):
    """The Jacobian of the tanh MLP at ``x``, written by hand: rows scaled by ``1 - h²`` per layer."""
    jac = None
    h = x
    for w, b in zip(weights, biases):
        h = np.tanh(w @ h + b)
        layer = (1 - h * h)[:, None] * w
        jac = layer if jac is None else layer @ jac
    return jac


def jacobians_against_hand():
    rng = np.random.default_rng(1)
    net = TanhMLP(rng)
    x = Tensor(rng.standard_normal(64).astype(np.float32))
    weights = [layer.weight.asnumpy() for layer in net.layers]
    biases = [layer.bias.asnumpy() for layer in net.layers]
    expected = jacobian_by_hand(x.asnumpy(), weights, biases)
    results = {}
    for name, transform in (("jacfwd", ops.jacfwd), ("jacrev", ops.jacrev)):
        jacobian = transform(net)
        np.testing.assert_allclose(jacobian(x).asnumpy(), expected, rtol=1e-4, atol=1e-5)
        results[name] = {clock: compare(lambda: jacobian(x), lambda: jacobian_by_hand(x.asnumpy(), weights, biases),
                                        200, timer=timer) for clock, timer in CLOCKS}
    return results


def main():
    print(f"load average: {os.getloadavg()}")
    for clock, (compiled, forward) in jvp_against_forward().items():
        print(f"jvp of the W2 MLP w.r.t. x: {compiled * 1e6:.1f} us, its forward kernel {forward * 1e6:.1f} us: "
              f"x{compiled / forward:.2f} (goal <= x3; {clock})")
    for name, by_clock in jacobians_against_hand().items():
        for clock, (compiled, hand) in by_clock.items():
            print(f"{name} of the 3-layer 64->64 tanh MLP: {compiled * 1e6:.1f} us, by hand {hand * 1e6:.1f} us: "
                  f"x{compiled / hand:.2f} (goal <= x1.5; {clock})")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
