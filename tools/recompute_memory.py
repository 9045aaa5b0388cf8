"""Peak memory and time of a compiled gradient with and without ``Cell.recompute()`` or ``Primitive.recompute()``.

Eight stacked ``Dense(1024, 1024)`` + ReLU blocks at batch 256; the gradient of their summed output
with respect to the input (``--wrt inputs``, where activations dominate the memory) or to every
weight (``--wrt weights``, where the 32 MiB of weight gradients do). With ``recompute()`` on each block the forward sweep keeps only each
block's output, and the backward sweep runs the block's forward again for the values it needs.

``--level op`` measures the op-level API instead: blocks ``Dense`` + ``ops.Tanh()`` + ``ops.Sigmoid()``
with and without ``ops.Sigmoid().recompute()``. Sigmoid's backward reads its output; recomputed,
it reads the Tanh output instead, which Tanh's own backward keeps anyway, so each block keeps one
activation less (and runs one more sigmoid). With ``--wrt weights`` the next Dense's weight
gradient reads the sigmoid output too: it is computed again there, and the peak stays that of the
weight gradients. ``ReLU().recompute()`` would save nothing here: ReLU's
backward reads its input, not its output.

    python tools/recompute_memory.py [--blocks 8] [--width 1024] [--batch 256] [--repeat 3] [--wrt inputs]
                                     [--level cell]

Peak memory is measured with ``tracemalloc`` (NumPy reports its buffers to it) around one call of
the compiled gradient; time is the best of ``--repeat`` calls.
"""
from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

import npspore as ms
from npspore import Tensor, nn, ops


class Block(nn.Cell):
    """Dense + ReLU."""

    def __init__(self, width):
        super().__init__()
        self.dense = nn.Dense(width, width, weight_init="normal", bias_init="zeros")
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.dense(x))


class OpBlock(nn.Cell):
    """Dense + Tanh + Sigmoid (primitives), the Sigmoid recomputed in the backward when asked."""

    def __init__(self, width, recompute):
        super().__init__()
        self.dense = nn.Dense(width, width, weight_init="normal", bias_init="zeros")
        self.tanh = ops.Tanh()
        self.sigmoid = ops.Sigmoid().recompute(recompute)

    def construct(self, x):
        return self.sigmoid(self.tanh(self.dense(x)))


def measure(blocks: int, width: int, batch: int, repeat: int, recompute: bool, wrt: str, level: str) -> tuple:
    """``(peak MiB, best seconds, gradients)`` of one gradient call."""
    ms.set_seed(0)
    if level == "op":
        cells = [OpBlock(width, recompute) for _ in range(blocks)]
    else:
        cells = [Block(width) for _ in range(blocks)]
        if recompute:
            for cell in cells:
                cell.recompute()
    net = nn.SequentialCell(cells)
    grad = ms.grad(net) if wrt == "inputs" else ms.grad(net, grad_position=None, weights=net.trainable_params())
    x = Tensor(np.random.default_rng(0).standard_normal((batch, width)).astype(np.float32))
    grads = grad(x)  # compile
    tracemalloc.start()
    grads = grad(x)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        grad(x)
        best = min(best, time.perf_counter() - start)
    return peak / 2 ** 20, best, grads


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--wrt", choices=("inputs", "weights"), default="inputs")
    parser.add_argument("--level", choices=("cell", "op"), default="cell")
    args = parser.parse_args(argv)
    plain = measure(args.blocks, args.width, args.batch, args.repeat, False, args.wrt, args.level)
    again = measure(args.blocks, args.width, args.batch, args.repeat, True, args.wrt, args.level)
    pairs = zip(plain[2], again[2]) if args.wrt == "weights" else [(plain[2], again[2])]
    same = all(np.allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-5) for a, b in pairs)
    block = "ReLU), Cell.recompute()" if args.level == "cell" else "Tanh + Sigmoid), Sigmoid().recompute()"
    print(f"{args.blocks} x (Dense({args.width}, {args.width}) + {block}, batch {args.batch}, gradient wrt {args.wrt}")
    print(f"without recompute: peak {plain[0]:8.1f} MiB  time {plain[1] * 1e3:8.1f} ms")
    print(f"with recompute:    peak {again[0]:8.1f} MiB  time {again[1] * 1e3:8.1f} ms")
    print(f"same gradients: {same}")


if __name__ == "__main__":
    main()
