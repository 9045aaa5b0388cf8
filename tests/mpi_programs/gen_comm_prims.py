"""Run by test_gen_ops_prim.py under ``mpiexec -n 2``: the collective primitives of
``ops.auto_generate.gen_ops_prim`` (``InnerComm*``, ``DistComm*``) across two ranks, with MindSpore's argument
order. Every rank asserts its own values and prints ``ok``."""
import numpy as np

import npspore as ms
from npspore.communication import GlobalComm, get_group_size, get_rank, init
from npspore.ops.auto_generate import gen_ops_prim as G

init()
rank, size, group = get_rank(), get_group_size(), GlobalComm.WORLD_COMM_GROUP
assert size == 2
x0 = np.arange(6, dtype=np.float32).reshape(3, 2)
x = ms.Tensor(x0 + 10 * rank)   # rank r holds x0 + 10 r


def zeros(*shape):
    return ms.Tensor(np.zeros(shape, np.float32))


def check(tensor, expected):
    np.testing.assert_array_equal(tensor.asnumpy(), expected)


check(G.InnerCommAllReduce()(x, "sum", group), 2 * x0 + 10)
check(G.InnerCommAllGather()(x, 2, group), np.concatenate([x0, x0 + 10]))
check(G.InnerCommReduceScatter()(ms.Tensor(np.ones((4, 2), np.float32) * (rank + 1)), 2, "sum", group),
      np.full((2, 2), 3.0))
inout = ms.Tensor(x0 + 10 * rank)
assert G.DistCommAllReduce()(inout, "max", group) is inout
check(inout, x0 + 10)
other = zeros(6, 2)
assert G.DistCommAllGatherIntoTensor()(other, x, 2, group) is other
check(other, np.concatenate([x0, x0 + 10]))
pieces = [zeros(3, 2), zeros(3, 2)]
G.DistCommAllGather()(pieces, x, 2, group)
check(pieces[0], x0)
check(pieces[1], x0 + 10)
block = zeros(1, 2)
G.DistCommReduceScatterTensor()(block, ms.Tensor(np.ones((2, 2), np.float32) * (rank + 1)), 2, "sum", group)
check(block, np.full((1, 2), 3.0))
G.DistCommReduceScatter()(block, [x[:1], x[1:2]], 2, "sum", group)
check(block, (2 * x0 + 10)[rank:rank + 1])
shared = ms.Tensor(x0 + 10 * rank)
G.DistCommBroadcast()(shared, 1, rank, group)
check(shared, x0 + 10)
reduced = ms.Tensor(x0 + 10 * rank)
G.DistCommReduce()(reduced, "sum", 0, group)
check(reduced, 2 * x0 + 10 if rank == 0 else x0 + 10)   # only the destination's input changes
assert G.DistCommBarrier()(group) is None
mine = zeros(3, 2)
G.DistCommScatter()(mine, [x, x + 100], 2, 0, rank, group)   # rank 0's list: x0, x0 + 100
check(mine, x0 + 100 * rank)
half = zeros(3, 2)
G.DistCommScatterTensor()(half, ms.Tensor(np.concatenate([x0, x0 + 1]) + 10 * rank), 2, 1, rank, group)
check(half, x0 + 10 + rank)
gathered = zeros(6, 2)
G.DistCommGatherIntoTensor()(gathered, x, 2, 1, rank, group)
check(gathered, np.concatenate([x0, x0 + 10]) if rank == 1 else np.zeros((6, 2)))
collected = [zeros(3, 2), zeros(3, 2)]
G.DistCommGather()(x, collected, 2, 0, rank, group)
check(collected[1], x0 + 10 if rank == 0 else np.zeros((3, 2)))
print(f"rank {rank} ok")
