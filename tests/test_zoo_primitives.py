"""Model-zoo-era primitives and layers against MindSpore 2.10: ``ops.range``, ``P.AddN``, ``P.L2Loss``,
``P.FloatStatus``, ``P.Dropout``, ``nn.Norm``, ``nn.BatchNorm3d``, ``nn.Conv2dBnAct``,
``dataset.config.set_numa_enable`` and ``vision.CutOut``.

The values are those the real MindSpore 2.10.0 CPU printed for the same calls (``Conv2dBnAct``'s in
``tests/fixtures/conv3d/conv2d_bn_act.npz``, ``tools/make_layer_fixtures.py``). MindSpore 2.10 has no CPU kernel
for ``FloatStatus`` (it raises); npspore gives its documented result. ``CutOut``'s and ``Dropout``'s draws are
npspore's own; their shapes, counts and errors are checked.
"""
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
from compiled_vjp import Program, check_second_order
from npspore import Tensor, nn, ops
from npspore.dataset import vision
from npspore.ops import operations as P

X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)
CONV_BN_ACT = np.load(Path(__file__).parent / "fixtures" / "conv3d" / "conv2d_bn_act.npz")


def test_range_as_mindspore():
    out = ops.range(Tensor(0, ms.int32), Tensor(10, ms.int32), Tensor(4, ms.int32))
    assert (str(out.dtype), out.asnumpy().tolist()) == ("Int64", [0, 4, 8])
    out = ops.range(Tensor(1.0, ms.float32), Tensor(2.0, ms.float32), Tensor(0.3, ms.float32))
    assert str(out.dtype) == "Float32"
    np.testing.assert_allclose(out.asnumpy(), [1.0, 1.29999995, 1.60000002, 1.9000001], rtol=1e-7)
    # MindSpore 2.10's CPU kernel does not enforce maxlen: range(0, 6, 2, maxlen=2) gives [0 2 4]
    assert ops.range(Tensor(0), Tensor(6), Tensor(2), maxlen=2).asnumpy().tolist() == [0, 2, 4]


def test_sums_and_losses_as_mindspore():
    x = Tensor(X)
    for run in (lambda f, *a: f(*a), lambda f, *a: ms.jit(f)(*a)):
        np.testing.assert_array_equal(run(lambda t: P.AddN()((t, t, t)), x).asnumpy(), X * 3)
        assert run(lambda t: P.L2Loss()(t), x).asnumpy() == np.float32(45.5)
        assert run(lambda t: P.FloatStatus()(t), x).asnumpy().tolist() == [0.0]
    assert P.FloatStatus()(Tensor(np.array([1.0, np.inf], np.float32))).asnumpy().tolist() == [1.0]
    assert P.FloatStatus()(Tensor(np.array([np.nan, 1.0], np.float16))).dtype == ms.float16
    with pytest.raises(TypeError, match=r'Failed calling AddN with "AddN\(\)\(x=Tensor\)".'):   # MindSpore 2.10
        P.AddN()(x)


def test_norm_and_batch_norm_3d_as_mindspore():
    np.testing.assert_allclose(nn.Norm(axis=1)(Tensor(X)).asnumpy(), [3.7416575, 8.77496433], rtol=1e-6)
    keep = nn.Norm(axis=(0, 1), keep_dims=True)(Tensor(X))
    assert keep.shape == (1, 1) and np.isclose(keep.asnumpy()[0, 0], 9.53939247)
    assert np.isclose(nn.Norm()(Tensor(X)).asnumpy(), 9.53939)
    norm = nn.BatchNorm3d(2)
    norm.set_train()
    out = norm(Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 2, 2))).asnumpy()
    row = [-1.52752376, -1.09108841, -0.654653072, -0.218217686, 0.218217686, 0.654653072, 1.09108841, 1.52752376]
    np.testing.assert_allclose(out.reshape(2, 8), [row, row], rtol=1e-5)


def add_square(x):
    return P.AddN()((x, x * x))


@pytest.mark.parametrize("make", [lambda: nn.Norm(axis=1), P.L2Loss, lambda: add_square])
def test_gradients_to_second_order(make):
    check_second_order(Program(make()), [np.random.default_rng(1).standard_normal((3, 4)) + 2])


def test_conv2d_bn_act_as_mindspore():
    x = Tensor(CONV_BN_ACT["x"])
    net = nn.Conv2dBnAct(2, 3, 2, has_bn=True, activation="relu", weight_init=Tensor(CONV_BN_ACT["w"]))
    assert [p.name for p in net.get_parameters()] == ["conv.weight", "batchnorm.moving_mean",
                                                      "batchnorm.moving_variance", "batchnorm.gamma", "batchnorm.beta"]
    net.set_train()
    np.testing.assert_allclose(net(x).asnumpy(), CONV_BN_ACT["train"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.batchnorm.moving_mean.asnumpy(), CONV_BN_ACT["moving_mean"], rtol=1e-5)
    net.set_train(False)
    np.testing.assert_allclose(ms.jit(net)(x).asnumpy(), CONV_BN_ACT["eval"], rtol=1e-5, atol=1e-6)
    leaky = nn.Conv2dBnAct(2, 3, 2, activation="leakyrelu", alpha=0.1, weight_init=Tensor(CONV_BN_ACT["w"]))
    np.testing.assert_allclose(leaky(x).asnumpy(), CONV_BN_ACT["leaky"], rtol=1e-5, atol=1e-6)


def test_dropout_primitive_returns_the_output_and_its_mask():
    out, mask = P.Dropout(keep_prob=1.0)(Tensor(X))
    assert out.asnumpy().tolist() == X.tolist() and mask.asnumpy().tolist() == [[1.0] * 3] * 2
    ms.set_seed(0)
    out, mask = P.Dropout(keep_prob=0.5)(Tensor(np.ones((50, 40), np.float32)))
    kept = mask.asnumpy()
    assert set(np.unique(kept)) == {0.0, 1.0} and 0.4 < kept.mean() < 0.6
    np.testing.assert_array_equal(out.asnumpy(), kept * 2)
    dropout = P.Dropout(keep_prob=0)     # MindSpore 2.10 accepts it here and refuses it at the call
    with pytest.raises(RuntimeError, match=r"For 'Dropout, the 'keep_prob' must be in \(0.0, 1.0\], but got 0"):
        dropout(Tensor(X))


def test_numa_setting_and_cutout():
    ds.config.set_numa_enable(True)
    assert ds.config.get_numa_enable() is True
    ds.config.set_numa_enable(False)
    with pytest.raises(TypeError, match="numa_enable must be a boolean"):
        ds.config.set_numa_enable(1)
    image = np.full((10, 12, 3), 7, np.uint8)
    ds.config.set_seed(2)
    rows = ds.NumpySlicesDataset({"image": np.stack([image] * 300)}, shuffle=False).map(vision.CutOut(4))
    zeros = {int((row[0][:, :, 0] == 0).sum()) for row in rows.create_tuple_iterator(output_numpy=True)}
    assert zeros <= {h * w for h in range(5) for w in range(5)} and {0, 16} <= zeros   # clipped at the edges
    patched = vision.CutOut(4, num_patches=3, is_hwc=False)(np.ones((3, 10, 12), np.uint8))
    assert patched.shape == (3, 10, 12) and ((patched[0] == 0) == (patched[2] == 0)).all()
    assert image.min() == 7   # the input is not changed in place
    with pytest.raises(ValueError, match="Input is not within the required interval of \\[1, 16777216\\]."):
        vision.CutOut(0)
    with pytest.raises(TypeError, match="Argument is_hwc with value 1 is not of type"):
        vision.CutOut(4, is_hwc=1)
