"""Run by test_primitives_a_l.py under ``mpiexec -n 2``: ``ops.operations.AlltoAll`` across two ranks, eagerly and
compiled, and its gradient. Every rank asserts its own values and prints ``ok``."""
import numpy as np

import npspore as ms
from npspore.communication import get_group_size, get_rank, init
from npspore.ops import operations as P

init()
rank, size = get_rank(), get_group_size()
assert size == 2
x0 = np.arange(8, dtype=np.float32).reshape(2, 4)
x = ms.Tensor(x0 + 100 * rank)            # rank r holds x0 + 100 r
# split along dim 1 into 2 blocks of 2 columns, block j to rank j, concatenated along dim 0 in rank order
expected = np.concatenate([x0[:, 2 * rank:2 * rank + 2], x0[:, 2 * rank:2 * rank + 2] + 100], axis=0)
all_to_all = P.AlltoAll(split_count=2, split_dim=1, concat_dim=0)
np.testing.assert_array_equal(all_to_all(x).asnumpy(), expected)
np.testing.assert_array_equal(ms.jit(lambda t: all_to_all(t))(x).asnumpy(), expected)


def weighted(t):
    """sum(w * AlltoAll(t)) with the weights w = 1 + rank: each rank's gradient is the weight of the rank its
    blocks went to."""
    return (all_to_all(t) * (1.0 + rank)).sum()


gradient = ms.grad(weighted)(x).asnumpy()
np.testing.assert_array_equal(gradient, np.concatenate([np.full((2, 2), 1.0), np.full((2, 2), 2.0)], axis=1))
print(f"rank {rank} ok", flush=True)
