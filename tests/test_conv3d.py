"""``nn.Conv3d`` / ``ops.nn_functional.conv3d`` against MindSpore 2.10 (``tests/fixtures/conv3d/conv3d.npz``,
recorded from the real MindSpore 2.10.0 by ``tools/make_layer_fixtures.py``: 'same', 'valid' with strides,
'pad' with dilation, groups and bias; the docstring example of the ``mindspore.nn.Conv3d`` page of 2.10),
eagerly and compiled, and gradients against central differences to second order."""
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from compiled_vjp import Program, check_second_order
from npspore import Tensor, nn
from npspore.ops import nn_functional as F

FIXTURE = np.load(Path(__file__).parent / "fixtures" / "conv3d" / "conv3d.npz")
CASES = {"same": dict(pad_mode="same"), "valid": dict(pad_mode="valid", stride=(2, 1, 2)),
         "pad": dict(pad_mode="pad", padding=(1, 0, 2, 1, 0, 1), dilation=(1, 2, 1)),
         "group_bias": dict(pad_mode="valid", has_bias=True)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_outputs_are_mindspores_eager_and_compiled(name):
    kwargs = dict(CASES[name])
    extra = {"bias_init": Tensor(FIXTURE["b"])} if kwargs.get("has_bias") else {}
    net = nn.Conv3d(4, 6, (3, 2, 3), group=2, weight_init=Tensor(FIXTURE["w"]), **kwargs, **extra)
    for run in (net, ms.jit(net)):
        np.testing.assert_allclose(run(Tensor(FIXTURE["x"])).asnumpy(), FIXTURE[name], rtol=1e-5, atol=2e-5)


def test_docstring_example_parameters_and_errors():
    conv3d = nn.Conv3d(in_channels=3, out_channels=32, kernel_size=(4, 3, 3))
    assert conv3d(Tensor(np.ones([2, 3, 10, 8, 8]), ms.float32)).shape == (2, 32, 10, 8, 8)
    assert [(p.name, p.shape) for p in nn.Conv3d(4, 6, 3).get_parameters()] == [("weight", (6, 4, 3, 3, 3))]
    assert "format=NCDHW" in repr(nn.Conv3d(4, 6, 3))
    with pytest.raises(ValueError, match="For 'Conv3d', the 'format' must be str"):
        nn.Conv3d(4, 6, 3, data_format="NDHWC")
    with pytest.raises(ValueError, match="For 'Conv3d', the 'padding size' must be int and must = 6, but got '2'"):
        nn.Conv3d(4, 6, 3, pad_mode="pad", padding=(1, 2))


@pytest.mark.parametrize("kwargs", [dict(pad_mode="same"), dict(stride=(2, 1, 1), pad_mode="pad", padding=1),
                                    dict(dilation=(2, 1, 1), groups=2)])
def test_gradients_to_second_order(kwargs):
    rng = np.random.default_rng(2)
    check_second_order(Program(F.conv3d, kwargs), [rng.standard_normal((1, 2, 5, 3, 3)),
                                                   rng.standard_normal((2, 2 // kwargs.get("groups", 1), 2, 2, 2))])
