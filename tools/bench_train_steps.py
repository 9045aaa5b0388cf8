"""Benchmark: whole training steps T1-T4 (issue 27), npspore against careful NumPy, PyTorch eager and JAX jit.

    python tools/bench_train_steps.py                       # all four, 7 interleaved rounds
    python tools/bench_train_steps.py --workloads T1,T4 --rounds 11

The workloads are ``train_workloads.py``'s (T1 LeNet-5 + Momentum, T2 embedding + 2-layer LSTM + Adam,
T3 2-layer Transformer encoder + Adam, T4 MLP + Adam). Every framework starts from the same initial
weights and trains on the same batches:

* npspore: ``ms.jit(nn.TrainOneStepCell(...))`` at its default thread policy (one BLAS thread, and the
  products above ``core.matmul_split.MIN_FLOPS`` split across every core, unless the environment chose a
  BLAS thread count), the whole user-visible call timed;
* by hand: ``train_references.py``, careful NumPy with planned buffers and in-place updates, in this
  process (so on npspore's BLAS threads, its large products split the same way);
* PyTorch eager on 2 threads and JAX jit (its default: every core), when installed (``train_peers.py``).

Before timing, the first three steps' losses of each are checked against the hand-written step run in
float64 (the deviation is printed; more than 1e-4 relative stops the benchmark). Timing is interleaved:
each round runs a few steps of every framework in turn; the figure is the median over rounds, of wall
time (steps per second) and of the CPU time per step for npspore and the hand-written step (of the calling
thread and npspore's helper threads; less disturbed by other processes on a shared machine).

Minor page faults and system CPU time per step are measured in a separate process that imports only
npspore (``--faults-only NAME``), averaged over ``--fault-steps`` steady-state steps after 20 warm-up
steps. The machine's load average is printed before and after. OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
are removed from the environment before NumPy loads (OpenBLAS reads them when it starts).
"""
import os

for _variable in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
    os.environ.pop(_variable, None)
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=true intra_op_parallelism_threads=2")

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import train_references as ref  # noqa: E402
import train_workloads as tw  # noqa: E402

STEPS_PER_ROUND = {"T1": 10, "T2": 2, "T3": 2, "T4": 10}
CHECKED_STEPS = 3
TOLERANCE = 1e-4
PEER_THREADS = 2


def hand_step(name: str, weights: dict, dtype=np.float32):
    """The hand-written step of workload ``name`` (``train_references.py``)."""
    if name == "T1":
        return ref.LeNetByHand(weights, 32, tw.MOMENTUM_LR, tw.MOMENTUM, dtype).step
    if name == "T2":
        return ref.LSTMByHand(weights, tw.SEQ_T2, tw.BATCH_T2, tw.HIDDEN, tw.VOCAB, tw.ADAM_LR, dtype).step
    if name == "T3":
        return ref.TransformerByHand(weights, tw.SEQ_T3, tw.BATCH_T3, tw.D_MODEL, tw.HEADS, tw.FEEDFORWARD,
                                     tw.CLASSES_T3, tw.ADAM_LR, dtype).step
    return ref.MLPByHand(weights, 128, tw.ADAM_LR, dtype).step


def steps(workload: tw.Workload, peers: bool) -> dict:
    """``{framework: step(x, labels) -> loss}`` on NumPy batches, each from the workload's initial weights."""
    net_step = workload.step
    out = {"npspore": lambda x, labels: float(net_step(ms_tensor(x), ms_tensor(labels))),
           "by hand": hand_step(workload.name, workload.weights)}
    if peers and importlib.util.find_spec("torch") is not None:
        import train_peers
        out["torch eager"] = train_peers.torch_step(workload.name, workload.weights, PEER_THREADS)
    if peers and importlib.util.find_spec("jax") is not None:
        import train_peers
        out["JAX jit"] = train_peers.jax_step(workload.name, workload.weights)
    return out


def ms_tensor(array):
    from npspore import Tensor
    return Tensor(array)


def check_losses(workload: tw.Workload, frameworks: dict) -> dict:
    """Run the first steps of every framework; the largest relative deviation of each from float64."""
    exact = hand_step(workload.name, workload.weights, np.float64)
    batches = [workload.batches[i] for i in range(CHECKED_STEPS)]
    expected = [exact(x.astype(np.float64) if x.dtype.kind == "f" else x, labels) for x, labels in batches]
    deviations = {}
    for name, step in frameworks.items():
        losses = [step(x, labels) for x, labels in batches]
        deviations[name] = max(abs(a - b) / abs(b) for a, b in zip(losses, expected))
        if deviations[name] > TOLERANCE:
            raise SystemExit(f"{workload.name}: {name}'s losses {losses} differ from float64's {expected}")
    return deviations


def our_cpu_time() -> float:
    """CPU seconds of the calling thread and of npspore's helper threads (``core.thread_pool``: split products
    and row blocks): the whole work of npspore and of the hand-written step (one BLAS thread each), not of the
    peers' own threads."""
    helpers = [t for t in threading.enumerate() if t.name.startswith("npspore-helper") and t.is_alive()]
    return time.thread_time() + sum(time.clock_gettime(time.pthread_getcpuclockid(t.ident)) for t in helpers)


def interleaved_times(workload: tw.Workload, frameworks: dict, rounds: int) -> tuple:
    """Median seconds per step of each framework over ``rounds`` interleaved rounds: wall time, and the CPU time
    of npspore's threads (:func:`our_cpu_time`: less disturbed than wall time by other processes on the
    cores)."""
    number = STEPS_PER_ROUND[workload.name]
    batches = workload.batches
    times = {name: [] for name in frameworks}
    cpu = {name: [] for name in frameworks}
    for _ in range(rounds):
        for name, step in frameworks.items():
            start, start_cpu = time.perf_counter(), our_cpu_time()
            for i in range(number):
                x, labels = batches[i % len(batches)]
                step(x, labels)
            times[name].append((time.perf_counter() - start) / number)
            cpu[name].append((our_cpu_time() - start_cpu) / number)
    return ({name: statistics.median(values) for name, values in times.items()},
            {name: statistics.median(values) for name, values in cpu.items()})


def faults_only(name: str, count: int) -> dict:
    """In this process (npspore only): compile time, then minor faults, system and wall time per step."""
    os.environ["NPSPORE_CACHE_DIR"] = tempfile.mkdtemp(prefix="npspore-bench-")
    workload = tw.workload(name)
    tensors = [workload.tensors(i) for i in range(len(workload.batches))]
    start = time.perf_counter()
    workload.step(*tensors[0])
    first = time.perf_counter() - start
    for i in range(20):
        workload.step(*tensors[i % len(tensors)])
    before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    for i in range(count):
        workload.step(*tensors[i % len(tensors)])
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF)
    return {"first step s": first, "minor faults/step": (after.ru_minflt - before.ru_minflt) / count,
            "system ms/step": (after.ru_stime - before.ru_stime) * 1e3 / count, "wall ms/step": wall * 1e3 / count}


def measure_faults(name: str, count: int) -> dict:
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--faults-only", name, "--fault-steps",
                          str(count)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workloads", default=",".join(tw.NAMES))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--fault-steps", type=int, default=200)
    parser.add_argument("--no-peers", action="store_true", help="npspore and the hand-written steps only")
    parser.add_argument("--faults-only", metavar="NAME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.faults_only:
        print(json.dumps(faults_only(args.faults_only, args.fault_steps)))
        return
    names = args.workloads.split(",")
    print(f"cores {os.cpu_count()}, {load()}; npspore at its default thread policy, peers on {PEER_THREADS} threads")
    faults = {name: measure_faults(name, args.fault_steps) for name in names}
    os.environ["NPSPORE_CACHE_DIR"] = tempfile.mkdtemp(prefix="npspore-bench-")
    rows = []
    for name in names:
        workload = tw.workload(name)
        frameworks = steps(workload, not args.no_peers)
        deviations = check_losses(workload, frameworks)
        times, cpu = interleaved_times(workload, frameworks, args.rounds)
        rows.append((name, times, deviations, cpu))
        print(f"{name}: losses of the first {CHECKED_STEPS} steps against float64, largest relative deviation: "
              + ", ".join(f"{k} {v:.1e}" for k, v in deviations.items()))
    print(f"\nsteps per second (median of {args.rounds} interleaved rounds), {load()}")
    frameworks = list(rows[0][1])
    print(f"{'':4}" + "".join(f"{k:>13}" for k in frameworks) + f"{'÷ by hand':>11}{'÷ torch':>9}{'÷ fastest':>11}")
    for name, times, _, _ in rows:
        ours = times["npspore"]
        peers = {k: v for k, v in times.items() if k not in ("npspore", "by hand")}
        fastest = min(list(peers.values()) + [times["by hand"]])
        line = f"{name:4}" + "".join(f"{1 / times[k]:13.1f}" for k in frameworks)
        line += f"{ours / times['by hand']:10.2f}x"
        line += f"{ours / peers['torch eager']:8.2f}x" if "torch eager" in peers else f"{'-':>9}"
        line += f"{ours / min(peers.values()) if peers else ours / fastest:10.2f}x"
        print(line)
    print(f"\nCPU ms per step of the calling thread and npspore's helper threads (median of the same rounds), "
          f"{load()}")
    print(f"{'':4}{'npspore':>13}{'by hand':>13}{'÷ by hand':>11}")
    for name, _, _, cpu in rows:
        ours, hand = cpu["npspore"], cpu["by hand"]
        print(f"{name:4}{ours * 1e3:13.2f}{hand * 1e3:13.2f}{ours / hand:10.2f}x")
    print(f"\nnpspore alone in a process, {args.fault_steps} steady-state steps after 20 warm-up steps:")
    for name, figures in faults.items():
        print(f"{name}: " + ", ".join(f"{k} {v:.2f}" for k, v in figures.items()))
    print(load())


if __name__ == "__main__":
    main()
