"""Run by test_data_parallel.py (and tools/rank_failure.py) under ``mpiexec -n 2``: a data-parallel job
in which rank 1 goes wrong, one way per MODE. The job must end with an error naming rank 1 and what
it did, on every rank, in seconds.

    rank_failures.py MODE

MODE: ``raise-model`` (rank 1 raises at step 3 of ``Model.train``), ``raise-loop`` (the same in a loop
of ``value_and_grad`` and ``DistributedGradReducer``), ``raise-thread`` (the same in a thread of rank 1,
whose main thread waits for it), ``return`` (rank 1's script ends at step 3), ``exit0`` (rank 1 calls
``os._exit(0)`` at step 3),
``before-init`` (rank 1 raises before ``init()``), ``mismatch`` (an ``all_reduce`` of float32[4] on
rank 0 against float64[2] on rank 1), ``shapes`` (a Parameter of shape (2, 3) on rank 0 and (3, 2) on
rank 1), ``changed`` (rank 1 changes a Parameter after ``Model`` was built)."""
import os
import sys
import threading
import time

import numpy as np

import npspore as ms
import npspore.dataset as ds
from npspore import nn
from npspore.communication import comm_func, get_rank, init
from npspore.train import Callback, Model

MODE = sys.argv[1]
RAISING_STEP = 3

if MODE == "before-init" and os.environ.get("PMI_RANK") == "1":
    raise ValueError("rank 1 failed before init")
init()
rank = get_rank()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
ms.set_seed(0)
rows = np.random.default_rng(0)
data = ds.NumpySlicesDataset((rows.standard_normal((64, 4)).astype(np.float32),
                              rows.standard_normal((64, 2)).astype(np.float32)), column_names=["x", "y"],
                             shuffle=False, num_shards=2, shard_id=rank).batch(4)


def fail_here(step):
    """Rank 1 goes wrong at RAISING_STEP, saying when (for tools/rank_failure.py)."""
    if rank == 1 and step == RAISING_STEP:
        print(f"rank 1 fails at step {step}, time {time.time():.3f}", flush=True)
        if MODE == "return":
            sys.exit(0)
        if MODE == "exit0":
            os._exit(0)
        raise ValueError(f"rank 1 broke at step {step}")


class FailAtStep(Callback):
    def on_train_step_begin(self, run_context):
        fail_here(run_context.original_args().cur_step_num)


class Skewed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(np.zeros((2, 3) if rank == 0 else (3, 2), np.float32), name="w")

    def construct(self, x):
        return x


if MODE == "mismatch":
    x = np.ones(4, np.float32) if rank == 0 else np.ones(2, np.float64)
    out, _ = comm_func.all_reduce(ms.Tensor(x))
    print(f"rank {rank} all_reduce returned {out}", flush=True)
elif MODE == "shapes":
    net = Skewed()
    nn.DistributedGradReducer(net.trainable_params())
elif MODE in ("raise-model", "changed"):
    net = nn.Dense(4, 2)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    if MODE == "changed" and rank == 1:
        net.bias.set_data(ms.Tensor(np.ones(2, np.float32)))
    model.train(1, data, callbacks=[FailAtStep()] if MODE == "raise-model" else [])
else:  # raise-loop, raise-thread, return, exit0
    net = nn.Dense(4, 2)
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(nn.WithLossCell(net, nn.MSELoss()), None, optimizer.parameters)
    reducer = nn.DistributedGradReducer(optimizer.parameters, mean=True)
    for step, (x, y) in enumerate(data.create_tuple_iterator(), 1):
        if MODE == "raise-thread":  # a loader thread that dies leaves its consumer waiting
            worker = threading.Thread(target=fail_here, args=(step,), name="loader")
            worker.start()
            worker.join()
            if rank == 1 and step == RAISING_STEP:
                time.sleep(600)
        else:
            fail_here(step)
        loss, grads = grad_fn(x, y)
        optimizer(reducer(grads))
print(f"rank {rank} finished", flush=True)
