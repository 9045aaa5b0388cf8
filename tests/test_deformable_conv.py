"""ops.deformable_conv2d: outputs observed on MindSpore 2.10 CPU (two configurations, printed by the same calls),
gradients in x, weight, offsets and bias against float64 central differences, the compiled call against the eager
one, and MindSpore's argument errors."""
import numpy as np
import pytest

import npspore as ms
from gradcheck import central_difference
from npspore import ops


def _case(seed, x_shape, w_shape, offset_channels, out_hw):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    return x, w, rng, (x_shape[0], offset_channels, *out_hw)


def test_plain_case_matches_mindspore():
    x, w, rng, offset_shape = _case(0, (1, 2, 5, 5), (3, 2, 3, 3), 27, (3, 3))
    offsets = (rng.standard_normal(offset_shape) * 0.7).astype(np.float32)
    out = ops.deformable_conv2d(ms.Tensor(x), ms.Tensor(w), ms.Tensor(offsets), (3, 3), (1, 1, 1, 1), (0, 0, 0, 0))
    expected = [[[-1.9107285, -1.2428877, -2.6180968], [1.8549154, -0.053742588, 0.6925701],
                 [0.15747432, -0.8954439, -2.0597072]],
                [[2.023151, -3.2920904, 0.5284271], [1.5303164, -0.1865958, 0.7679262],
                 [-2.3398795, -2.661138, 3.6239562]],
                [[1.7488294, -0.28410038, 0.123108745], [-0.27606356, -1.1464496, 2.2721183],
                 [1.1776985, -0.48023236, 0.28258818]]]
    assert out.shape == (1, 3, 3, 3) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy()[0], expected, rtol=1e-5, atol=1e-6)


def _grouped_inputs():
    """Stride 2 x 1, padding (1, 0, 2, 1), dilation 1 x 2, groups 2, deformable groups 2, a bias."""
    x, w, rng, offset_shape = _case(1, (2, 4, 6, 7), (6, 2, 2, 3), 36, (3, 6))
    bias = rng.standard_normal(6).astype(np.float32)
    offsets = (rng.standard_normal(offset_shape) * 1.3).astype(np.float32)
    return x, w, offsets, bias


def _grouped(x, w, offsets, bias):
    return ops.deformable_conv2d(x, w, offsets, (2, 3), (1, 1, 2, 1), (1, 0, 2, 1), bias, (1, 1, 1, 2), 2, 2)


def test_groups_strides_padding_dilation_and_bias_match_mindspore():
    out = _grouped(*(ms.Tensor(a) for a in _grouped_inputs()))
    assert out.shape == (2, 6, 3, 6)
    expected = [[[1.2059916, 3.1174011, 1.1068304], [1.9812971, 1.563997, 2.1681423]],
                [[-0.96202624, -1.4677714, -1.2613078], [-0.4692384, -3.0227456, -1.6130598]],
                [[-2.3028767, -3.2706826, -2.9456475], [-0.7704693, -3.584331, -2.5854113]],
                [[0.047874033, 1.7448494, 0.63790417], [-1.967176, 0.7996666, 0.52195036]],
                [[-0.07786584, -1.1516557, 0.09960592], [1.8135307, -0.71340096, -1.2010967]],
                [[0.55138004, -2.1825616, 0.57422113], [0.09359205, 1.9438944, 1.5019419]]]
    np.testing.assert_allclose(out.asnumpy()[0, :, :2, :3], expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.asnumpy()[1, :, 1, 2], [8.5826, -6.6532383, -0.7212411, -0.1792553, 0.5807998,
                                                          -0.7838206], rtol=1e-5, atol=1e-6)


def test_gradients_match_central_differences():
    inputs = [a.astype(np.float64) for a in _grouped_inputs()]
    inputs[0], inputs[2] = inputs[0][:1, :, :4, :5], inputs[2][:1, :, :2, :3]   # small: 4 x 5 input, 2 x 3 output
    cotangent = np.random.default_rng(2).standard_normal((1, 6, 2, 3))

    def loss(*arrays):
        out = _grouped(*(ms.Tensor(a) for a in arrays))
        return (out * ms.Tensor(cotangent)).sum()

    grads = ms.grad(loss, grad_position=(0, 1, 2, 3))(*(ms.Tensor(a) for a in inputs))
    for position, grad in enumerate(grads):
        def along(value, position=position):
            arrays = list(inputs)
            arrays[position] = value
            return loss(*arrays).asnumpy().item()
        np.testing.assert_allclose(grad.asnumpy(), central_difference(along, inputs[position]), rtol=1e-6, atol=1e-8)


def test_compiled_equals_eager():
    tensors = [ms.Tensor(a) for a in _grouped_inputs()]
    np.testing.assert_array_equal(ms.jit(_grouped)(*tensors).asnumpy(), _grouped(*tensors).asnumpy())


@pytest.mark.parametrize("options, error, message", [
    (dict(strides=[1, 1, 1, 1]), TypeError,
     "For 'DeformableOffsets', the type of 'strides' should be 'tuple', but got type 'list'."),
    (dict(strides=(1, 1, 1)), ValueError,
     "For 'DeformableOffsets', the 'strides size' must be int and must = 4, but got '3' with type 'int'."),
    (dict(strides=(2, 1, 1, 1)), ValueError, "For 'DeformableOffsets', The N and C dimensions of 'strides' must be "
                                             "set to 1."),
    (dict(modulated=False), ValueError, "For 'DeformableOffsets', The modulated must be set to True."),
    (dict(dilations=(1, 1, 1, 1.0)), TypeError,
     "For 'DeformableOffsets', the type of 'arg_name' should be int, but got '1.0' with type 'float'."),
])
def test_errors_are_mindspore_s(options, error, message):
    arguments = {"strides": (1, 1, 1, 1), "padding": (0, 0, 0, 0), **options}
    x = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))
    with pytest.raises(error) as info:
        ops.deformable_conv2d(x, ms.Tensor(np.ones((1, 1, 3, 3), np.float32)),
                              ms.Tensor(np.zeros((1, 27, 2, 2), np.float32)), (3, 3), **arguments)
    assert str(info.value) == message
