"""Run by test_data_parallel.py under ``mpiexec``: data-parallel training WITHOUT ``set_seed`` (every
rank initialises its own, different weights) along each path that reduces gradients: ``Model.train``,
a loop of the user's own around ``value_and_grad`` and ``DistributedGradReducer``, an eager
``TrainOneStepCell`` and a ``jit`` one. Each path trains an MLP for 20 steps of a global batch of 8 on an
unshuffled dataset, each rank reading its shard.

    replicas.py OUT_DIR [--init INIT.npz]

Every rank writes ``OUT_DIR/final_RANK.npz`` (``PATH/PARAMETER`` -> trained value); rank 0 writes
``OUT_DIR/init.npz``, the values training started from. ``--init`` starts each path from such a file
instead (a one-process reference run over the same global batches)."""
import sys
from pathlib import Path

import numpy as np

import npspore as ms
import npspore.dataset as ds
from npspore import nn
from npspore.communication import comm_func, get_group_size, get_rank, init
from npspore.train import Model

GLOBAL_BATCH, STEPS = 8, 20
PATHS = ("model", "loop", "eager", "jit")

init()
rank, size = get_rank(), get_group_size()
out_dir = Path(sys.argv[1])
start_from = dict(np.load(sys.argv[3])) if len(sys.argv) > 3 else None
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
rows = np.random.default_rng(7)
features = rows.standard_normal((GLOBAL_BATCH * STEPS, 8)).astype(np.float32)
targets = rows.standard_normal((GLOBAL_BATCH * STEPS, 3)).astype(np.float32)


def shard():
    """This rank's batches: rows r, r + size ... of each global batch (unshuffled)."""
    data = ds.NumpySlicesDataset((features, targets), column_names=["x", "y"], shuffle=False, num_shards=size,
                                 shard_id=rank)
    return data.batch(GLOBAL_BATCH // size)


def fresh_mlp(path):
    net = nn.SequentialCell([nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 3)])
    if start_from is not None:
        for p in net.trainable_params():
            p.set_data(ms.Tensor(start_from[f"{path}/{p.name}"]))
    elif size > 1:  # without set_seed the ranks start apart: the test is about making them equal
        weights, _ = comm_func.all_gather_into_tensor(net.trainable_params()[0].value().expand_dims(0))
        assert not np.array_equal(weights.asnumpy()[0], weights.asnumpy()[1])
    return net


def train(path):
    """Train a fresh MLP along ``path``; returns ``(initial values, trained values)``."""
    net = fresh_mlp(path)
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    if path == "model":
        model = Model(net, nn.MSELoss(), optimizer)
        initial = {p.name: p.asnumpy().copy() for p in net.trainable_params()}
        model.train(1, shard())
    elif path == "loop":
        grad_fn = ms.value_and_grad(nn.WithLossCell(net, nn.MSELoss()), None, optimizer.parameters)
        reducer = nn.DistributedGradReducer(optimizer.parameters, mean=True)
        initial = {p.name: p.asnumpy().copy() for p in net.trainable_params()}
        for x, y in shard().create_tuple_iterator():
            _, grads = grad_fn(x, y)
            optimizer(reducer(grads))
    else:
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer)
        step = ms.jit(step) if path == "jit" else step
        initial = {p.name: p.asnumpy().copy() for p in net.trainable_params()}
        for x, y in shard().create_tuple_iterator():
            step(x, y)
    return initial, {p.name: p.asnumpy().copy() for p in net.trainable_params()}


initial, final = {}, {}
for path in PATHS:
    start, end = train(path)
    initial.update({f"{path}/{name}": value for name, value in start.items()})
    final.update({f"{path}/{name}": value for name, value in end.items()})
np.savez(out_dir / f"final_{rank}.npz", **final)
if rank == 0:
    np.savez(out_dir / "init.npz", **initial)
print(f"rank {rank} trained", flush=True)
