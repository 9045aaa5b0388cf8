"""Run by test_nn_breadth.py under ``mpiexec -n 2``: SyncBatchNorm on each rank's half of a batch gives
what BatchNorm2d gives on the whole batch in one process: the output rows, the moving statistics, the
gradient with respect to the rank's inputs (the loss summed over ranks) and, summed over ranks, to gamma;
eagerly and under ``jit``. Prints ``rank R ok``."""
import numpy as np

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.communication import get_group_size, get_rank, init

init()
rank, size = get_rank(), get_group_size()
batch = np.random.default_rng(0).standard_normal((4, 3, 2, 2)).astype(np.float32) * 2 + 1
weights = np.random.default_rng(1).standard_normal((4, 3, 2, 2)).astype(np.float32)
mine = slice(rank * 2, rank * 2 + 2)


def loss_of(norm, w):
    return lambda x: (norm(x) * w).sum()


reference = nn.BatchNorm2d(3, momentum=0.8, gamma_init=Tensor(np.array([1.0, 2.0, 0.5], np.float32)))
reference.set_train()
full_out = reference(Tensor(batch)).asnumpy()
moving = reference.moving_mean.asnumpy().copy(), reference.moving_variance.asnumpy().copy()
full_dx, full_dgamma = ms.value_and_grad(loss_of(reference, Tensor(weights)), 0, reference.gamma)(Tensor(batch))[1]
for compiled in (False, True):
    norm = nn.SyncBatchNorm(3, momentum=0.8, gamma_init=Tensor(np.array([1.0, 2.0, 0.5], np.float32)))
    norm.set_train()
    run = ms.jit(norm) if compiled else norm
    out = run(Tensor(batch[mine])).asnumpy()
    np.testing.assert_allclose(out, full_out[mine], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(norm.moving_mean.asnumpy(), moving[0], rtol=1e-5)
    np.testing.assert_allclose(norm.moving_variance.asnumpy(), moving[1], rtol=1e-5)
    dx, dgamma = ms.value_and_grad(loss_of(norm, Tensor(weights[mine])), 0, norm.gamma)(Tensor(batch[mine]))[1]
    np.testing.assert_allclose(dx.asnumpy(), full_dx.asnumpy()[mine], rtol=1e-4, atol=1e-5)
    total = ops.AllReduce()(dgamma[0]).asnumpy()
    np.testing.assert_allclose(total, full_dgamma[0].asnumpy(), rtol=1e-4, atol=1e-5)
print(f"rank {rank} ok", flush=True)
