"""Benchmark: a run of elementwise statements split into row blocks (``rt.split_rows``) against one thread.

    python tools/bench_split_rows.py [--repeats 200] [--rounds 5]

The run is Adam's update of one weight as a kernel writes it (12 in-place float32 statements on the
gradient, the two moments, the weight and a workspace buffer, ``compiler/splitregions.py``; and a copy of
a fixed gradient, which the update overwrites), on weights
from 32x256 to 1024x1024. For each size, interleaved rounds time ``--repeats`` calls of the update on the
whole arrays (one thread, what ``runtime_num_threads=1`` runs) and as ``core.split_rows.split_rows`` runs it
on the calling thread and one helper; the table gives the median time per call of each, their ratio and
the work (elements times statements) that ``core.split_rows.MIN_WORK`` is compared with. The load average
is printed: the ratio is only meaningful on a machine whose second core is not busy.
"""
import argparse
import os
import statistics
import time

for _variable in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
    os.environ.pop(_variable, None)

import numpy as np  # noqa: E402

from npspore.core import split_rows, thread_pool  # noqa: E402

STATEMENTS = 12                 # and a copy of the gradient
SHAPES = ((32, 256), (64, 512), (128, 512), (256, 512), (512, 512), (512, 784), (1024, 1024))


def adam_update(fresh_gradient, gradient, moment1, buffer, moment2, weight, one_minus_beta1, one_minus_beta2, lr_t,
                eps):
    """The 12 statements of a kernel's Adam update of one weight (T4's ``Adam_update_net_fc1_weight``), on a
    copy of the same gradient each time (the update overwrites it; squared again and again it would end
    in subnormal numbers, many times slower)."""
    np.copyto(gradient, fresh_gradient)
    np.subtract(gradient, moment1, out=buffer)
    buffer *= one_minus_beta1
    moment1 += buffer
    gradient *= gradient
    gradient -= moment2
    gradient *= one_minus_beta2
    moment2 += gradient
    np.multiply(lr_t, moment1, out=gradient)
    np.sqrt(moment2, out=buffer)
    buffer += eps
    gradient /= buffer
    weight -= gradient


def _time(call, repeats: int) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        call()
    return (time.perf_counter() - start) / repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; 1 helper thread for the split runs")
    print(f"{'shape':>12} {'work':>10} {'blocks':>6} {'1 thread us':>12} {'split us':>9} {'ratio':>6}")
    rng = np.random.default_rng(0)
    scalars = tuple(np.float32(v) for v in (0.1, 0.001, 0.0005, 1e-8))
    for shape in SHAPES:
        arrays = [rng.random(shape, np.float32) for _ in range(6)]
        sliced = tuple(arrays)
        one, split = [], []
        for _ in range(options.rounds):
            thread_pool.set_helpers(0)
            one.append(_time(lambda: split_rows.split_rows(adam_update, sliced, scalars), options.repeats))
            thread_pool.set_helpers(1)
            split.append(_time(lambda: split_rows.split_rows(adam_update, sliced, scalars), options.repeats))
        work = shape[0] * shape[1] * STATEMENTS
        one_us, split_us = statistics.median(one) * 1e6, statistics.median(split) * 1e6
        print(f"{str(shape):>12} {work:>10} {len(split_rows.blocks(shape)):>6} {one_us:>12.1f} {split_us:>9.1f} "
              f"{split_us / one_us:>6.2f}")
    thread_pool.set_helpers(0)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
