"""``nn.Conv3dTranspose`` and ``nn.Conv1dTranspose`` against MindSpore 2.10 (``tests/fixtures/conv3d/
conv_transpose.npz``, recorded from the real MindSpore 2.10.0 by ``tools/make_conv_transpose_fixtures.py``:
'same' with stride, 'valid' with strides and dilation, 'pad' with a 6-tuple padding, output_padding, group 2 and
bias; the shapes of the docstring examples of the ``mindspore.nn.Conv3dTranspose`` and ``Conv1dTranspose`` pages of
2.10), eagerly and compiled, and gradients against central differences to second order."""
import sys
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from compiled_vjp import Program, check_second_order
from npspore import Tensor, nn
from npspore.ops.conv_transpose import conv_transpose3d

FIXTURE = np.load(Path(__file__).parent / "fixtures" / "conv3d" / "conv_transpose.npz")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from make_conv_transpose_fixtures import CASES_1D, CASES_3D  # noqa: E402


@pytest.mark.parametrize("name", sorted(CASES_3D))
def test_conv3d_transpose_outputs_are_mindspores_eager_and_compiled(name):
    kwargs = dict(CASES_3D[name])
    extra = {"bias_init": Tensor(FIXTURE["b3"])} if kwargs.get("has_bias") else {}
    net = nn.Conv3dTranspose(4, 6, (3, 2, 3), group=2, weight_init=Tensor(FIXTURE["w3"]), **kwargs, **extra)
    for run in (net, ms.jit(net)):
        np.testing.assert_allclose(run(Tensor(FIXTURE["x3"])).asnumpy(), FIXTURE[f"3d_{name}"], rtol=1e-5,
                                   atol=1e-5)


@pytest.mark.parametrize("name", sorted(CASES_1D))
def test_conv1d_transpose_outputs_are_mindspores_eager_and_compiled(name):
    kwargs = dict(CASES_1D[name])
    extra = {"bias_init": Tensor(FIXTURE["b1"])} if kwargs.get("has_bias") else {}
    net = nn.Conv1dTranspose(4, 6, 3, group=2, weight_init=Tensor(FIXTURE["w1"]), **kwargs, **extra)
    for run in (net, ms.jit(net)):
        np.testing.assert_allclose(run(Tensor(FIXTURE["x1"])).asnumpy(), FIXTURE[f"1d_{name}"], rtol=1e-5,
                                   atol=1e-5)


def test_docstring_examples_parameters_and_errors():
    net = nn.Conv3dTranspose(in_channels=16, out_channels=3, kernel_size=(4, 6, 2), pad_mode="pad")
    assert net(Tensor(np.ones([2, 16, 10, 32, 32]), ms.float32)).shape == (2, 3, 13, 37, 33)
    assert [(p.name, p.shape) for p in net.get_parameters()] == [("weight", (16, 3, 4, 6, 2))]
    assert "kernel_size=(4, 6, 2), stride=(1, 1, 1), pad_mode=pad" in repr(net)
    net = nn.Conv1dTranspose(3, 64, 4, has_bias=False, weight_init="normal", pad_mode="pad")
    assert net(Tensor(np.ones([1, 3, 50]), ms.float32)).shape == (1, 64, 53)
    assert net.weight.shape == (3, 64, 1, 4)
    assert "kernel_size=(1, 4), stride=(1, 1), pad_mode=pad, padding=(0, 0, 0, 0)" in repr(net)
    with pytest.raises(ValueError, match="For 'Conv1dTranspose', the 'weight_init_shape' must be int and must = 3"):
        nn.Conv1dTranspose(4, 6, 3, weight_init=Tensor(FIXTURE["w1"][:, :, None]))
    with pytest.raises(TypeError, match="For 'Conv1dTranspose', the type of 'padding' should be 'int'"):
        nn.Conv1dTranspose(4, 6, 3, pad_mode="pad", padding=(1, 1))
    with pytest.raises(ValueError, match="For 'Conv3dTranspose', the 'padding size' must be int and must = 6"):
        nn.Conv3dTranspose(4, 6, 3, pad_mode="pad", padding=(1, 2))
    with pytest.raises(ValueError, match="For 'Conv3dTranspose', the 'output_padding' must be a non-negative"):
        nn.Conv3dTranspose(4, 6, 3, output_padding=-1)


@pytest.mark.parametrize("kwargs", [dict(pad_mode="same", stride=2), dict(pad_mode="valid", stride=(2, 1, 1)),
                                    dict(pad_mode="pad", padding=(1, 0, 0, 1, 1, 0), dilation=(2, 1, 1),
                                         output_padding=(1, 0, 0), stride=(2, 1, 1), groups=2)])
def test_conv3d_transpose_gradients_to_second_order(kwargs):
    rng = np.random.default_rng(2)
    check_second_order(Program(conv_transpose3d, kwargs), [rng.standard_normal((1, 2, 3, 2, 3)),
                                                           rng.standard_normal((2, 2 // kwargs.get("groups", 1), 2, 2,
                                                                                2))])


def test_conv1d_transpose_layer_gradient_matches_central_differences():
    rng = np.random.default_rng(3)
    net = nn.Conv1dTranspose(2, 2, 3, stride=2, pad_mode="pad", padding=1, weight_init=Tensor(
        rng.standard_normal((2, 2, 3))), dtype=ms.float64)
    check_second_order(net, [rng.standard_normal((1, 2, 4))])
