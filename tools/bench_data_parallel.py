"""Data-parallel throughput on this machine: 1 and 2 MPI ranks, gradients all-reduced in buckets or one
call per Parameter.

    python tools/bench_data_parallel.py [steps]

Needs ``pip install 'npspore[mpi,examples]'``. For each model (the digits LeNet of
``examples/train_digits_cnn.py``, 6 Parameters, and a 10-layer MLP, 20 Parameters), each rank count
and each bucketing setting, it launches ``mpiexec -n R`` on this script in worker mode. A worker trains
with a compiled ``TrainOneStepCell`` in DATA_PARALLEL mode on its share of a fixed global batch and
reports (rank 0, after the first, compiling step; the fastest of 3 rounds of ``steps`` steps) the global
samples per second, the time per step and the share of the step spent inside collectives (measured
around npspore's MPI calls, waiting for the other rank included). One rank exchanges nothing. Last, the
median time of one ``all_reduce`` over 2 ranks of a small and a large array: the fixed cost of a collective.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
GLOBAL_BATCH = 64
ROUNDS = 3
LATENCY_SIZES = (1, 65536)  # one float; the 256x256 weight of the MLP's layers
LATENCY_CALLS = 2000


def build(model_name):
    """(network, input shape, number of classes) of a benchmark model."""
    from npspore import nn
    if model_name == "cnn":
        sys.path.insert(0, str(ROOT / "examples"))
        from train_digits_cnn import LeNet
        return LeNet(), (1, 8, 8), 10
    layers = []
    for _ in range(9):
        layers += [nn.Dense(256, 256), nn.ReLU()]
    return nn.SequentialCell(layers + [nn.Dense(256, 10)]), (256,), 10


def worker(model_name, fused, steps):
    """Train ``steps`` steps on this rank's share of each global batch; rank 0 prints one JSON line."""
    import npspore as ms
    from npspore import nn
    from npspore.communication import comm_func, get_group_size, get_rank, init, transport

    init()
    rank, size = get_rank(), get_group_size()
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 comm_fusion={"openstate": fused})
    ms.set_seed(0)
    net, shape, classes = build(model_name)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                               nn.Momentum(net.trainable_params(), 0.01, 0.9))
    local = GLOBAL_BATCH // size
    rng = np.random.default_rng(rank)
    data = ms.Tensor(rng.standard_normal((local,) + shape).astype(np.float32))
    label = ms.Tensor(rng.integers(0, classes, local).astype(np.int32))

    in_collectives = [0.0]
    run = transport._run

    def timed_run(*args):
        start = time.perf_counter()
        try:
            return run(*args)
        finally:
            in_collectives[0] += time.perf_counter() - start

    step(data, label)  # compiles; parameters broadcast from rank 0
    transport._run = timed_run
    rounds = []  # (elapsed, in collectives) of each round: the machine is shared, the fastest round counts
    for _ in range(ROUNDS):
        comm_func.barrier()
        in_collectives[0] = 0.0
        start = time.perf_counter()
        for _ in range(steps):
            step(data, label)
        comm_func.barrier()
        rounds.append((time.perf_counter() - start, in_collectives[0]))
    elapsed, communicating = min(rounds)
    if rank == 0:
        calls = len(step.grad_reducer.buckets) if size > 1 else 0
        print(json.dumps({"samples_per_s": GLOBAL_BATCH * steps / elapsed, "ms_per_step": 1000 * elapsed / steps,
                          "comm_share": communicating / elapsed, "calls_per_step": calls,
                          "parameters": len(net.trainable_params())}), flush=True)


def latency_worker(calls):
    """Rank 0 prints, for each size, the median seconds of one ``all_reduce`` (sum over 2 ranks), the
    fastest of ``ROUNDS`` rounds (the machine is shared), in JSON. Sizes alternate call by call."""
    from npspore.communication import init, transport

    init()
    arrays = [np.ones(elements, np.float32) for elements in LATENCY_SIZES]
    best = {elements: float("inf") for elements in LATENCY_SIZES}
    for _ in range(ROUNDS):
        times = {elements: [] for elements in LATENCY_SIZES}
        transport.barrier("hccl_world_group")
        for _ in range(calls):
            for array in arrays:
                start = time.perf_counter()
                transport.all_reduce(array, "sum", "hccl_world_group")
                times[array.size].append(time.perf_counter() - start)
        for elements, seconds in times.items():
            best[elements] = min(best[elements], float(np.median(seconds)))
    if transport.layout()[0] == 0:
        print(json.dumps(best), flush=True)


def launch(ranks, model_name, fused, steps):
    mpiexec = Path(sys.executable).parent / "mpiexec"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    result = subprocess.run([str(mpiexec) if mpiexec.exists() else "mpiexec", "-n", str(ranks), sys.executable,
                             __file__, "--worker", model_name, str(int(fused)), str(steps)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900, env=env)
    return last_json(result, ranks)


def last_json(result, ranks):
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines:
        raise RuntimeError(f"mpiexec -n {ranks} failed:\n{result.stdout}")
    return json.loads(lines[-1])


def launch_latency(calls):
    mpiexec = Path(sys.executable).parent / "mpiexec"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    result = subprocess.run([str(mpiexec) if mpiexec.exists() else "mpiexec", "-n", "2", sys.executable, __file__,
                             "--latency", str(calls)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=900, env=env)
    return last_json(result, 2)


def main(steps):
    print(f"data-parallel TrainOneStepCell (GRAPH_MODE, Momentum), global batch {GLOBAL_BATCH}, {steps} steps, "
          f"{os.cpu_count()} CPU cores")
    print("model            params  ranks  buckets              samples/s   ms/step  in collectives")
    for model_name, label in (("cnn", "digits LeNet"), ("mlp", "MLP 10x256")):
        for ranks, fusion in ((1, (True,)), (2, (True, False))):
            for fused in fusion:
                r = launch(ranks, model_name, fused, steps)
                how = f"{'25 MB' if fused else 'off (1/param)'}, {r['calls_per_step']} call(s)" if ranks > 1 else "-"
                print(f"{label:15}  {r['parameters']:6}  {ranks:5}  {how:19}  {r['samples_per_s']:9.0f}  "
                      f"{r['ms_per_step']:8.2f}  {100 * r['comm_share']:5.1f} %")
    medians = launch_latency(LATENCY_CALLS)
    print(f"\none all_reduce over 2 ranks (median of {LATENCY_CALLS} calls, fastest of {ROUNDS} rounds; each call "
          "also checks that the ranks' calls match, a 16-byte all-reduce)")
    for elements, seconds in medians.items():
        print(f"  float32[{elements}]: {1e6 * seconds:8.1f} us")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3] == "1", int(sys.argv[4]))
    elif len(sys.argv) > 1 and sys.argv[1] == "--latency":
        latency_worker(int(sys.argv[2]))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
