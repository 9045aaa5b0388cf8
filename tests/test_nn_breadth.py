"""``nn.ClipByNorm`` and ``nn.SyncBatchNorm`` against MindSpore 2.10 (values recorded with the real
MindSpore 2.10.0 CPU: their docstring examples, the API pages of 2.10, and more cases), gradients against
central differences to second order, and SyncBatchNorm across two MPI ranks against one process's
BatchNorm2d on the whole batch.

MindSpore 2.10's CPU kernel of ``ClipByNorm`` with an ``axis`` gives rows it should leave alone other
values (``[[3, 4], [0.3, 0.4], [6, 8]]`` clipped to 1 along axis 1 gives ``[0.6, 0.8], [0.0748, 0.0997],
[6, 8]``); npspore computes the documented formula there, checked against NumPy.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from compiled_vjp import Program, check_second_order
from npspore import Tensor, nn

HERE = Path(__file__).parent
CLIP_ALL = [[1.1940447, 1.5920596], [0.11940447, 0.15920596]]
SYNC_BN_4D = [[[[-1.075262, -1.033895], [-0.958258, -0.860311]], [[-1.149066, -1.045276], [-0.930511, -0.805737]],
               [[-1.172992, -1.05083], [-0.921679, -0.785898]]],
              [[[0.644348, 0.863717], [1.091694, 1.327966]], [[0.678494, 0.877333], [1.082109, 1.292655]],
               [[0.693697, 0.883434], [1.077745, 1.276523]]]]
SYNC_BN_MOVING = ([5.198598384857178, 8.641923904418945, 12.922578811645508],
                  [134.36903381347656, 215.4123077392578, 293.6398010253906])
SYNC_BN_2D = [[-0.4629080593585968, 0.0], [1.3887242078781128, 1.2247438430786133],
              [-0.9258161187171936, -1.2247438430786133]]


def test_clip_by_norm_docstring_example_and_values():
    x = Tensor(np.random.default_rng(0).integers(0, 10, [4, 16]), ms.float32)
    assert nn.ClipByNorm()(x, Tensor(np.array([100]).astype(np.float32))).shape == (4, 16)
    xs = Tensor(np.array([[3.0, 4.0], [0.3, 0.4]], np.float32))
    for run in (nn.ClipByNorm(), ms.jit(nn.ClipByNorm())):
        np.testing.assert_allclose(run(xs, Tensor(np.array([2.0], np.float32))).asnumpy(), CLIP_ALL, rtol=1e-6)
    rows = np.array([[3.0, 4.0], [0.3, 0.4], [6, 8]], np.float32)
    clipped = nn.ClipByNorm(axis=1)(Tensor(rows), Tensor(np.array(1.0, np.float32))).asnumpy()
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    np.testing.assert_allclose(clipped, rows / np.maximum(norms, 1.0), rtol=1e-6)
    assert nn.ClipByNorm(axis=1)(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.array([1.0], np.float32))) \
        .asnumpy().tolist() == [[0.0, 0.0], [0.0, 0.0]]
    with pytest.raises(TypeError, match="'axis' must be one of"):
        nn.ClipByNorm(axis="0")


@pytest.mark.parametrize("axis", [None, 1, (0, 1)])
def test_clip_by_norm_gradients_to_second_order(axis):
    rng = np.random.default_rng(4)
    check_second_order(Program(nn.ClipByNorm(axis)), [rng.standard_normal((3, 4)) * 2, np.array([1.5])])


def test_sync_batch_norm_on_one_process_as_mindspore():
    x = Tensor(np.arange(24).reshape(2, 3, 2, 2).astype(np.float32) ** 1.5)
    net = nn.SyncBatchNorm(num_features=3, momentum=0.8)
    net.set_train()
    np.testing.assert_allclose(net(x).asnumpy(), SYNC_BN_4D, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.moving_mean.asnumpy(), SYNC_BN_MOVING[0], rtol=1e-6)
    np.testing.assert_allclose(net.moving_variance.asnumpy(), SYNC_BN_MOVING[1], rtol=1e-6)
    assert [p.name for p in net.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    flat = nn.SyncBatchNorm(2)
    flat.set_train()
    np.testing.assert_allclose(flat(Tensor(np.array([[1.0, 2.0], [3.0, 5.0], [0.5, -1.0]], np.float32))).asnumpy(),
                               SYNC_BN_2D, rtol=1e-6)
    np.testing.assert_allclose(flat.moving_variance.asnumpy(), [1.0749999284744263, 1.7999999523162842], rtol=1e-6)
    inference = nn.SyncBatchNorm(3)(x)   # not training: the moving statistics (0, 1) normalize
    np.testing.assert_allclose(inference.asnumpy(), x.asnumpy() / np.sqrt(1 + 1e-5), rtol=1e-6)
    with pytest.raises(ValueError, match="For 'SyncBatchNorm', the must have 2 dims or 4 dims, but got 3."):
        nn.SyncBatchNorm(3)(Tensor(np.ones((2, 3, 4), np.float32)))


def test_sync_batch_norm_across_two_ranks_is_batch_norm_of_the_whole_batch():
    from test_data_parallel import launch
    result = launch(2, sys.executable, str(HERE / "mpi_programs" / "sync_batch_norm.py"))
    assert result.returncode == 0, result.stdout
    assert "rank 0 ok" in result.stdout and "rank 1 ok" in result.stdout
