"""``nn.Conv2dBnAct``, ``nn.DenseBnAct`` and ``nn.Norm``: outputs, parameter names and errors as MindSpore 2.10
(CPU) printed them for the same programs (weights ``'ones'``, eval mode)."""
import logging

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn

X = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) - 5)


@pytest.mark.parametrize("kwargs, expected", [
    ({}, 12.083046),
    ({"axis": 0}, [5.91608, 5.656854, 5.91608, 6.6332498]),
    ({"axis": (0, 1), "keep_dims": True}, [[12.083046]]),
    ({"axis": 1, "keep_dims": True}, [[7.3484693], [2.4494898], [9.273619]]),
])
def test_norm(kwargs, expected):
    out = nn.Norm(**kwargs)(X)
    assert out.shape == np.shape(expected)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(nn.Norm(**kwargs))(X).asnumpy(), expected, rtol=1e-6)


def test_norm_checks_axis_and_says_it_is_deprecated(caplog):
    with pytest.raises(TypeError, match="For 'Squeeze', the type of 'axis' should be one of"):
        nn.Norm(axis=1.5)
    nn.layers._warn_norm_deprecated.cache_clear()
    with caplog.at_level(logging.WARNING):
        nn.Norm()
        nn.Norm()
    assert [r.getMessage() for r in caplog.records].count(
        "'Norm' is deprecated from version 2.0 and will be removed in a future version, use 'ops.norm' instead.") == 1


def test_conv2d_bn_act():
    net = nn.Conv2dBnAct(2, 3, 3, has_bn=True, activation="relu", weight_init="ones")
    net.set_train(False)
    x = Tensor(np.arange(2 * 2 * 4 * 4, dtype=np.float32).reshape(2, 2, 4, 4) / 10)
    assert net(x).shape == (2, 3, 4, 4)
    np.testing.assert_allclose(net(x).asnumpy().sum(), 3779.981, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(net)(x).asnumpy().sum(), 3779.981, rtol=1e-6)
    assert [p.name for p in net.get_parameters()] == [
        "conv.weight", "batchnorm.moving_mean", "batchnorm.moving_variance", "batchnorm.gamma", "batchnorm.beta"]


def test_dense_bn_act():
    net = nn.DenseBnAct(3, 2, weight_init="ones", has_bn=True, activation="relu")
    net.set_train(False)
    out = net(Tensor(np.array([[1.0, -2, 3], [0.5, 0.5, -4]], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [[1.99999, 1.99999], [0.0, 0.0]], rtol=1e-6)
    assert [p.name for p in net.get_parameters()] == [
        "dense.weight", "dense.bias", "batchnorm.moving_mean", "batchnorm.moving_variance", "batchnorm.gamma",
        "batchnorm.beta"]
    leaky = nn.DenseBnAct(3, 2, weight_init="ones", activation="leakyrelu", alpha=0.1)
    np.testing.assert_allclose(leaky(Tensor(np.array([[1.0, -2, -3]], np.float32))).asnumpy(), [[-0.4, -0.4]],
                               rtol=1e-6)


def test_combined_layers_check_their_arguments():
    with pytest.raises(TypeError, match="For 'Conv2dBnAct', the 'activation' must be str or Cell or Primitive, "
                                        "but got int."):
        nn.Conv2dBnAct(2, 3, 3, activation=3)
    with pytest.raises(TypeError, match="has_bn"):
        nn.DenseBnAct(3, 2, has_bn=1)


def test_internal_callback_param_is_importable_as_mindspore_names_it():
    from npspore.train.callback import _InternalCallbackParam
    params = _InternalCallbackParam()
    params.cur_step_num = 3          # a dict whose keys read as attributes (MindSpore's InternalCallbackParam)
    assert params == {"cur_step_num": 3} and params.cur_step_num == 3


def test_batch_norm_3d():
    net = nn.BatchNorm3d(2)
    assert [p.name for p in net.get_parameters()] == [
        "bn2d.moving_mean", "bn2d.moving_variance", "bn2d.gamma", "bn2d.beta"]    # MindSpore 2.10's names
    x = Tensor(np.arange(2 * 2 * 2 * 2 * 3, dtype=np.float32).reshape(2, 2, 2, 2, 3) / 10)
    net.set_train(True)
    y = net(x)
    np.testing.assert_allclose(float((y * y).sum().asnumpy()), 47.99969, rtol=1e-6)     # MindSpore 2.10
    net.set_train(False)
    np.testing.assert_allclose(float(net(x).sum().asnumpy()), 98.47933, rtol=1e-6)       # MindSpore 2.10
    np.testing.assert_allclose(float(ms.jit(net)(x).sum().asnumpy()), 98.47933, rtol=1e-6)
    with pytest.raises(ValueError, match="For 'BatchNorm3d', the in_shape must have 5 dims, but got 3."):
        net(Tensor(np.ones((2, 2, 3), np.float32)))
