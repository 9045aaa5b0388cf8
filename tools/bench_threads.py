"""Benchmark: a training step on a quiet and on a loaded machine, by thread setting.

    python tools/bench_threads.py [--runs 5] [--steps 60] [--epochs 20]
    python tools/bench_threads.py --workload T4 [--runs 5] [--steps 60]     # a step of train_workloads.py

The step is examples/train_digits_cnn.py's (``ms.jit`` of ``TrainOneStepCell`` over its LeNet, batch
32), or with ``--workload`` one of issue 27's T1-T4 (``tools/train_workloads.py``), whose large products
npspore splits across threads (``npspore.core.matmul_split``). Each run is a fresh process (the thread
policy of npspore.core.threads applies per process) that times ``--steps`` steps after a warm-up; a
run's step time is the median of those. "Loaded" starts one CPU-bound process per usable core (a
Python busy loop) for the duration of the runs.

Configurations: ``default`` (no setting: one BLAS thread, large products split across every core),
``threads=1`` (``set_context(runtime_num_threads=1)``: everything on the calling thread) and
``BLAS threads=N`` (``OPENBLAS_NUM_THREADS=N``, N the usable cores: BLAS's own threads, what every
process got before the policy). Reported per configuration: the median and the largest of the runs'
step times, each also as a multiple of the quiet machine's ``threads=1`` median; the goal is loaded
default ≤ 2x and no run above 3x. Then, for the example, the test accuracy it reaches (``--epochs``
epochs of ``train_digits_cnn.main``) at 1 and at N threads. Other BLAS environment variables are
removed from the runs' environment, so that only the configuration decides.
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


def time_steps(threads, steps, workload=None) -> float:
    """In this process: the median seconds of one training step of the example, or of ``workload`` (one of
    ``train_workloads.NAMES``), after 5 warm-up steps."""
    ms = _set_threads(threads)
    if workload:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import train_workloads
        chosen = train_workloads.workload(workload)
        return _median_step(chosen.step, [chosen.tensors(i) for i in range(train_workloads.BATCHES)], steps)
    from npspore import nn
    example = _example()
    ms.set_seed(0)
    (train_x, train_y), _ = example.digits_split()
    net = example.LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    train_step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer))
    net.set_train()
    return _median_step(train_step, [(ms.Tensor(train_x[:32]), ms.Tensor(train_y[:32]))], steps)


def _median_step(step, batches, steps) -> float:
    for index in range(5):
        step(*batches[index % len(batches)])
    times = []
    for index in range(steps):
        start = time.perf_counter()
        step(*batches[index % len(batches)])
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


def _in_process(*args, blas_threads=None) -> float:
    """Run this file with ``args`` in a fresh process (no BLAS environment variables but
    ``OPENBLAS_NUM_THREADS=blas_threads`` when given); its printed number."""
    environment = {k: v for k, v in os.environ.items() if k not in BLAS_ENVIRONMENT}
    if blas_threads is not None:
        environment["OPENBLAS_NUM_THREADS"] = str(blas_threads)
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
    parser.add_argument("--workload", choices=["T1", "T2", "T3", "T4"],
                        help="time this step of tools/train_workloads.py instead of the example's")
    parser.add_argument("--worker", choices=["step", "accuracy"], help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker == "step":
        print(json.dumps(time_steps(options.threads, options.steps, options.workload)))
        return
    if options.worker == "accuracy":
        print(json.dumps(accuracy(options.threads, options.epochs)))
        return

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    configurations = [("default", None, None), ("threads=1", 1, None), (f"BLAS threads={cores}", None, cores)]

    def runs(threads, blas_threads):
        extra = [] if threads is None else ["--threads", str(threads)]
        extra += ["--workload", options.workload] if options.workload else []
        return [_in_process("--worker", "step", "--steps", str(options.steps), *extra, blas_threads=blas_threads)
                for _ in range(options.runs)]

    print(f"{options.workload or 'the example'}: {cores} usable cores; load average now {os.getloadavg()[0]:.2f}; "
          f"{options.runs} runs x {options.steps} steps per configuration")
    results = {}
    for label, threads, blas_threads in configurations:
        results[("quiet", label)] = runs(threads, blas_threads)
    with cpu_load(cores):
        for label, threads, blas_threads in configurations:
            results[(f"loaded ({cores} busy)", label)] = runs(threads, blas_threads)
    reference = statistics.median(results[("quiet", "threads=1")])
    print(f"{'machine':<16} {'setting':<15} {'median ms':>10} {'max ms':>9} {'median x':>9} {'max x':>7}")
    for (machine, label), times in results.items():
        median, worst = statistics.median(times), max(times)
        print(f"{machine:<16} {label:<15} {median * 1e3:10.2f} {worst * 1e3:9.2f} {median / reference:9.2f} "
              f"{worst / reference:7.2f}")
    loaded = results[(f"loaded ({cores} busy)", "default")]
    verdict = statistics.median(loaded) <= 2 * reference and max(loaded) <= 3 * reference
    print(f"goal (loaded default: median <= 2x, every run <= 3x the quiet threads=1 median): "
          f"{'met' if verdict else 'NOT met'}; load average now {os.getloadavg()[0]:.2f}")
    if options.workload:
        return
    for threads in sorted({1, cores}):
        print(f"test accuracy at {threads} thread(s) after {options.epochs} epochs: "
              f"{_in_process('--worker', 'accuracy', '--threads', str(threads), '--epochs', str(options.epochs)):.4f}")


if __name__ == "__main__":
    main()
