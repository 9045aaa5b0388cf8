"""Run by test_data_parallel.py under ``mpiexec -n 2``: collectives, their gradients and the gradient
reducer across two ranks, eagerly and compiled. Every rank asserts its own values and prints ``ok``."""
import numpy as np

import npspore as ms
from npspore import nn, ops
from npspore.communication import (comm_func, create_group, destroy_group, get_group_size, get_local_rank,
                                   get_local_rank_size, get_process_group_ranks, get_rank, init, release)
from npspore.nn.wrap.grad_reducer import broadcast_parameters

init()
rank, size = get_rank(), get_group_size()
assert size == 2 and get_local_rank() == rank and get_local_rank_size() == 2
x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2) + 10 * rank)  # rank r holds x0 + 10 r
x0 = np.arange(6, dtype=np.float32).reshape(3, 2)

# eager primitives and functions
np.testing.assert_array_equal(ops.AllReduce()(x).asnumpy(), 2 * x0 + 10)
np.testing.assert_array_equal(ops.AllReduce(ops.ReduceOp.MAX)(x).asnumpy(), x0 + 10)
np.testing.assert_array_equal(ops.AllReduce(ops.ReduceOp.AVG)(x).asnumpy(), x0 + 5)
np.testing.assert_array_equal(ops.AllGather()(x).asnumpy(), np.concatenate([x0, x0 + 10]))
np.testing.assert_array_equal(ops.ReduceScatter()(ms.Tensor(np.ones((4, 2), np.float32) * (rank + 1))).asnumpy(),
                              np.full((2, 2), 3.0))
np.testing.assert_array_equal(ops.Broadcast(1)((x,))[0].asnumpy(), x0 + 10)
np.testing.assert_array_equal(comm_func.reduce(x, 0).asnumpy(), 2 * x0 + 10 if rank == 0 else 0 * x0)
out, handle = comm_func.all_reduce(x, "min")
assert handle is None
np.testing.assert_array_equal(out.asnumpy(), x0)


def gathered_energy(x):
    """sum(all_gather(x * all_reduce(x))^2): every collective in one differentiable function."""
    total, _ = comm_func.all_reduce(x)
    gathered, _ = comm_func.all_gather_into_tensor(x * total)
    return (gathered * gathered).sum()


# Every rank computes the same value F = sum_q sum((x_q s)^2), s = sum_q x_q. The adjoints of the
# collectives sum the cotangents of all ranks, so each rank gets the gradient of the sum over ranks of
# their functions, 2F: d(2F)/dx_r = 2 (2 x_r s^2 + sum_q 2 x_q^2 s). Checked compiled (grad always
# compiles) after the jit-compiled forward.
s = 2 * x0 + 10
xs = [x0, x0 + 10]
expected_value = sum(((xi * s) ** 2).sum() for xi in xs)
np.testing.assert_allclose(ms.jit(gathered_energy)(x).asnumpy(), expected_value, rtol=1e-6)
expected_grad = 2 * (2 * xs[rank] * s ** 2 + sum(2 * xq ** 2 * s for xq in xs))
np.testing.assert_allclose(ms.grad(gathered_energy)(x).asnumpy(), expected_grad, rtol=1e-5)

# groups: a group of rank 1 alone
create_group("solo", [1])
if rank == 1:
    assert get_process_group_ranks("solo") == [1] and get_group_size("solo") == 1
    np.testing.assert_array_equal(ops.AllReduce(group="solo")(x).asnumpy(), x0 + 10)
    destroy_group("solo")
else:
    try:
        get_rank("solo")
    except ValueError as error:
        assert "world rank 0) is not a member of the group 'solo' (world ranks [1])" in str(error), error
    else:
        raise AssertionError("get_rank of a group this rank is not in must raise")

# broadcast_parameters: rank 1 starts from other weights and ends with rank 0's
ms.set_seed(rank)
net = nn.Dense(3, 2)
broadcast_parameters(net.trainable_params())
w = ops.AllGather()(ops.expand_dims(net.weight, 0)).asnumpy()
np.testing.assert_array_equal(w[0], w[1])

# the reducer: a bucket of two gradients and one of one, mean over 2 ranks; compiled in a Cell
ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 40 / 2 ** 20}})
reducer = nn.DistributedGradReducer([ms.Parameter(np.zeros((2, 2), np.float32), name="a"),
                                     ms.Parameter(np.zeros((3,), np.float32), name="b"),
                                     ms.Parameter(np.zeros((4,), np.float32), name="c")], mean=True)
assert reducer.buckets == ((0, 2), (2, 3)), reducer.buckets
grads = (ms.Tensor(np.full((2, 2), rank, np.float32)), ms.Tensor(np.full((3,), 2.0 * rank, np.float32)),
         ms.Tensor(np.full((4,), 4.0 + rank, np.float32)))
for reduced in (reducer(grads), ms.jit(reducer)(grads)):
    np.testing.assert_array_equal(reduced[0].asnumpy(), np.full((2, 2), 0.5))
    np.testing.assert_array_equal(reduced[1].asnumpy(), np.full((3,), 1.0))
    np.testing.assert_array_equal(reduced[2].asnumpy(), np.full((4,), 4.5))
release()
assert get_group_size() == 1
print(f"rank {rank} ok", flush=True)
