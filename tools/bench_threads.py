"""Benchmark: the main example's training step on a quiet and on a loaded machine, by BLAS thread setting.

    python tools/bench_threads.py [--runs 5] [--steps 60] [--epochs 20]

The step is examples/train_digits_cnn.py's (``ms.jit`` of ``TrainOneStepCell`` over its LeNet, batch
32). Each run is a fresh process (the thread policy of npspore.core.threads applies per process)
that times ``--steps`` steps after a warm-up; a run's step time is the median of those. "Loaded"
starts one CPU-bound process per usable core (a Python busy loop) for the duration of the runs.

Configurations: ``default`` (no setting: the policy's one BLAS thread), ``threads=1`` and
``threads=N`` (``set_context(runtime_num_threads=...)``, N the usable cores: what every process got
before the policy, BLAS's own default). Reported per configuration: the median and the largest of
the runs' step times, each also as a multiple of the quiet machine's ``threads=1`` median; the goal
is loaded default ≤ 2x and no run above 3x. Then the test accuracy the example reaches (``--epochs``
epochs of ``train_digits_cnn.main``) at 1 and at N threads. BLAS environment variables are removed
from the runs' environment, so that only the setting decides.
"""
import argparse
import contextlib
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(REPO, "examples", "train_digits_cnn.py")
BLAS_ENVIRONMENT = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


def _example():
    spec = importlib.util.spec_from_file_location("train_digits_cnn", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _set_threads(threads):
    import npspore as ms
    if threads is not None:
        ms.set_context(runtime_num_threads=threads)
    return ms


def time_steps(threads, steps) -> float:
    """In this process: the median seconds of one training step of the example (after 5 warm-up steps)."""
    ms = _set_threads(threads)
    from npspore import nn
    example = _example()
    ms.set_seed(0)
    (train_x, train_y), _ = example.digits_split()
    net = example.LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    train_step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer))
    net.set_train()
    image, label = ms.Tensor(train_x[:32]), ms.Tensor(train_y[:32])
    for _ in range(5):
        train_step(image, label)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        train_step(image, label)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def accuracy(threads, epochs) -> float:
    """In this process: the test accuracy the example's ``main`` prints after ``epochs`` epochs."""
    _set_threads(threads)
    output = _captured(lambda: _example().main(epochs=epochs))
    return float(re.search(r"test accuracy ([0-9.]+)", output).group(1))


def _captured(fn) -> str:
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        fn()
    return buffer.getvalue()


def _in_process(*args) -> float:
    """Run this file with ``args`` in a fresh process (no BLAS environment variables); its printed number."""
    environment = {k: v for k, v in os.environ.items() if k not in BLAS_ENVIRONMENT}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.join(REPO, "src"),
                                                               environment.get("PYTHONPATH")]))
    run = subprocess.run([sys.executable, os.path.abspath(__file__), *args], env=environment, capture_output=True,
                         text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def cpu_load(processes):
    """``processes`` CPU-bound processes running for the duration of the block."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)]
    try:
        time.sleep(0.5)
        yield
    finally:
        for process in busy:
            process.kill()
        for process in busy:
            process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per configuration (default 5)")
    parser.add_argument("--steps", type=int, default=60, help="timed steps per run (default 60)")
    parser.add_argument("--epochs", type=int, default=20, help="training epochs for the accuracy (default 20)")
    parser.add_argument("--worker", choices=["step", "accuracy"], help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker == "step":
        print(json.dumps(time_steps(options.threads, options.steps)))
        return
    if options.worker == "accuracy":
        print(json.dumps(accuracy(options.threads, options.epochs)))
        return

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    configurations = [("default", None), ("threads=1", 1), (f"threads={cores}", cores)]

    def runs(threads):
        extra = [] if threads is None else ["--threads", str(threads)]
        return [_in_process("--worker", "step", "--steps", str(options.steps), *extra) for _ in range(options.runs)]

    print(f"{cores} usable cores; load average now {os.getloadavg()[0]:.2f}; {options.runs} runs x "
          f"{options.steps} steps per configuration")
    results = {}
    for label, threads in configurations:
        results[("quiet", label)] = runs(threads)
    with cpu_load(cores):
        for label, threads in configurations:
            results[(f"loaded ({cores} busy)", label)] = runs(threads)
    reference = statistics.median(results[("quiet", "threads=1")])
    print(f"{'machine':<16} {'setting':<11} {'median ms':>10} {'max ms':>9} {'median x':>9} {'max x':>7}")
    for (machine, label), times in results.items():
        median, worst = statistics.median(times), max(times)
        print(f"{machine:<16} {label:<11} {median * 1e3:10.2f} {worst * 1e3:9.2f} {median / reference:9.2f} "
              f"{worst / reference:7.2f}")
    loaded = results[(f"loaded ({cores} busy)", "default")]
    verdict = statistics.median(loaded) <= 2 * reference and max(loaded) <= 3 * reference
    print(f"goal (loaded default: median <= 2x, every run <= 3x the quiet threads=1 median): "
          f"{'met' if verdict else 'NOT met'}")
    for threads in sorted({1, cores}):
        print(f"test accuracy at {threads} thread(s) after {options.epochs} epochs: "
              f"{_in_process('--worker', 'accuracy', '--threads', str(threads), '--epochs', str(options.epochs)):.4f}")


if __name__ == "__main__":
    main()
