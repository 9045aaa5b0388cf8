"""nn layers and losses added for the API breadth (issue 26): ``RMSELoss``, ``DiceLoss``, ``SoftMarginLoss``,
``FastGelu``, ``Hardtanh``, ``SeLU``, ``Softmin``, ``ZeroPad2d``, ``ConstantPad1d/2d/3d``, ``ReflectionPad1d/2d/3d``,
``PixelShuffle``, ``CentralCrop``, ``AdaptiveAvgPool1d``, ``Tril``, ``Triu``, ``ReduceLogSumExp``, ``Moments``; the
initializer helpers models import; ``nn.utils.no_init_parameters``.

``RECORDED`` are MindSpore 2.10 CPU's outputs (value, dtype), shapes or errors for ``tests/nn_breadth_cases.py``
(the docstring examples of each 2.10 page first), printed by ``tools/observe_mindspore_nn_breadth.py``.
MindSpore 2.10 has no CPU kernel for SoftMarginLoss: its docstring's value, and the formula's.
Each case runs eagerly and compiled; the compositions' gradients are checked against central differences.
"""
import numpy as np
import pytest

import npspore as ms
from compiled_vjp import Program, check_second_order
from nn_breadth_cases import CASES
from npspore import Tensor, nn

RECORDED = {
    'rmse_doc': (0.5773502588272095, 'Float32'),
    'dice_doc': (0.3859661817550659, 'Float32'),
    'fast_gelu_doc': ([[-0.15420423448085785, 3.9955849647521973, -9.766428775037639e-06],
                       [1.935658574104309, -0.001007016166113317, 8.999998092651367]],
                      'Float32'),
    'zero_pad_doc': ([[[[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                        [0.0, 1.0, 1.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 1.0, 1.0, 0.0],
                        [0.0, 1.0, 1.0, 1.0, 1.0, 0.0]],
                       [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                        [0.0, 1.0, 1.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 1.0, 1.0, 0.0],
                        [0.0, 1.0, 1.0, 1.0, 1.0, 0.0]]]],
                     'Float32'),
    'constant_pad_doc': ([[[[1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 0.5], [0.5, 0.5, 0.5, 0.5]],
                           [[1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 0.5], [0.5, 0.5, 0.5, 0.5]]]],
                         'Float32'),
    'reflection_pad_doc': ([[[7.0, 6.0, 7.0, 8.0, 7.0], [4.0, 3.0, 4.0, 5.0, 4.0], [1.0, 0.0, 1.0, 2.0, 1.0],
                             [4.0, 3.0, 4.0, 5.0, 4.0], [7.0, 6.0, 7.0, 8.0, 7.0]]],
                           'Float32'),
    'pixel_shuffle_doc': (3, 2, 2, 8, 8),
    'tril_doc': ([[1, 2, 0, 0], [5, 6, 7, 0], [10, 11, 12, 13], [14, 15, 16, 17]], 'Int64'),
    'triu_doc': ([[1, 2, 3, 4], [5, 6, 7, 8], [0, 11, 12, 13], [0, 0, 16, 17]], 'Int64'),
    'logsumexp_doc': (3, 1, 5, 6),
    'rmse_2d': (1.6056541204452515, 'Float32'),
    'dice_3d': (0.49758464097976685, 'Float32'),
    'dice_shape': ('ValueError',
                   "For 'DiceLoss', the 'logits_shape' should be = label_shape: (3, 2), but got (2, 3)."),
    'dice_smooth': ('TypeError', "The 'smooth' must be float, but got 'int'"),
    'fast_gelu_small': ([-0.14961156249046326, 0.0, 0.0542447604238987, 1.1169342994689941], 'Float32'),
    'zero_pad_int': ([[[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 2.0, 0.0], [0.0, 3.0, 4.0, 5.0, 0.0],
                       [0.0, 0.0, 0.0, 0.0, 0.0]]],
                     'Float32'),
    'constant_pad_int': ([[[[-2.0, -2.0, -2.0, -2.0], [-2.0, 0.0, 1.0, -2.0], [-2.0, 2.0, 3.0, -2.0],
                            [-2.0, -2.0, -2.0, -2.0]]]],
                         'Float32'),
    'reflection_pad_4d': ([[[[5.0, 4.0, 5.0, 6.0, 7.0, 6.0], [1.0, 0.0, 1.0, 2.0, 3.0, 2.0],
                             [5.0, 4.0, 5.0, 6.0, 7.0, 6.0], [9.0, 8.0, 9.0, 10.0, 11.0, 10.0],
                             [5.0, 4.0, 5.0, 6.0, 7.0, 6.0]]]],
                          'Float32'),
    'zero_pad_bad': ('ValueError',
                     "For 'ZeroPad2d', the length of parameter 'padding' with tuple type must be a multiple of 2, "
                     'but got 3'),
    'pixel_shuffle_values': ([[[[0.0, 2.0, 1.0, 3.0], [4.0, 6.0, 5.0, 7.0]]]], 'Float32'),
    'pixel_shuffle_3d': ([[[0.0, 2.0, 1.0, 3.0], [4.0, 6.0, 5.0, 7.0]]], 'Float32'),
    'pixel_shuffle_indivisible': ('ValueError',
                                  "For 'pixel_shuffle', the length of third to last dimension is not divisibleby "
                                  '`upscale_factor` squared.'),
    'tril_float': ([[1.0, 0.0, 0.0], [4.0, 5.0, 0.0]], 'Float32'),
    'triu_batched': ([[[0.0, 2.0, 3.0], [0.0, 0.0, 6.0]], [[0.0, 8.0, 9.0], [0.0, 0.0, 12.0]]], 'Float32'),
    'logsumexp_values': ([2.5273516178131104, 3.0273523330688477, 3.5273523330688477], 'Float32'),
    'logsumexp_all': (1000.8619995117188, 'Float32'),
    'hardtanh_doc': ([-1.0, -1.0, 0.0, 1.0, 1.0], 'Float16'),
    'hardtanh_values': ([[-0.5, -0.25], [1.5, 2.0]], 'Float32'),
    'hardtanh_bad': ('ValueError', 'For Hardtanh, min_val should be less than max_val,but got 1.0 and -1.0'),
    'selu_doc': ([[-1.1113307476043701, 4.202804088592529, -1.7575095891952515],
                  [2.1014020442962646, -1.7462533712387085, 9.45630931854248]],
                 'Float32'),
    'softmin_doc': ([0.234130859375, 0.63623046875, 0.086181640625, 0.01165008544921875, 0.03167724609375], 'Float16'),
    'softmin_axis': ([[0.3775406777858734, 0.9933071732521057], [0.622459352016449, 0.006692850962281227]], 'Float32'),
    'constant_pad1d_doc': ([[[[1.0, 1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 1.0, 0.5]],
                             [[1.0, 1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 1.0, 0.5]]]],
                           'Float32'),
    'constant_pad1d_int': ([[-1.0, -1.0, 0.0, 1.0, 2.0, -1.0, -1.0]], 'Float32'),
    'reflection_pad1d_doc': ([[[3.0, 2.0, 1.0, 0.0, 1.0, 2.0, 3.0, 2.0], [7.0, 6.0, 5.0, 4.0, 5.0, 6.0, 7.0, 6.0]]],
                             'Float32'),
    'constant_pad3d_doc': ([[[[0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5],
                              [0.5, 0.5, 0.5, 0.5, 0.5]],
                             [[0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 1.0, 1.0, 1.0, 0.5], [0.5, 1.0, 1.0, 1.0, 0.5],
                              [0.5, 0.5, 0.5, 0.5, 0.5]],
                             [[0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 1.0, 1.0, 1.0, 0.5], [0.5, 1.0, 1.0, 1.0, 0.5],
                              [0.5, 0.5, 0.5, 0.5, 0.5]],
                             [[0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5],
                              [0.5, 0.5, 0.5, 0.5, 0.5]]]],
                           'Float32'),
    'reflection_pad3d_doc': ([[[[7.0, 6.0, 7.0, 6.0], [5.0, 4.0, 5.0, 4.0], [7.0, 6.0, 7.0, 6.0],
                                [5.0, 4.0, 5.0, 4.0]],
                               [[3.0, 2.0, 3.0, 2.0], [1.0, 0.0, 1.0, 0.0], [3.0, 2.0, 3.0, 2.0],
                                [1.0, 0.0, 1.0, 0.0]],
                               [[7.0, 6.0, 7.0, 6.0], [5.0, 4.0, 5.0, 4.0], [7.0, 6.0, 7.0, 6.0],
                                [5.0, 4.0, 5.0, 4.0]],
                               [[3.0, 2.0, 3.0, 2.0], [1.0, 0.0, 1.0, 0.0], [3.0, 2.0, 3.0, 2.0],
                                [1.0, 0.0, 1.0, 0.0]]]],
                             'Float32'),
    'adaptive_avg_pool1d_doc': (1, 3, 2),
    'adaptive_avg_pool1d_values': ([[[0.5, 2.5, 4.5], [6.5, 8.5, 10.5]]], 'Float32'),
    'adaptive_avg_pool1d_indivisible': ('ValueError',
                                        "For AdaptiveAvgPool1d, the input's last dimension must be divisible by "
                                        'output size 3, but got 4.'),
    'central_crop_doc': (4, 3, 2, 2),
    'central_crop_values': ([[[6.0, 7.0, 8.0], [11.0, 12.0, 13.0], [16.0, 17.0, 18.0]]], 'Float32'),
    'central_crop_bad': ('ValueError',
                         "For 'CentralCrop', the 'central_fraction' must be in range of (0.0, 1.0], but got 1.5 with "
                         "type 'float'."),
}


def _run(expression):
    return eval(expression, {"ms": ms, "nn": nn, "np": np, "Tensor": Tensor})


@pytest.mark.parametrize("key, expression", [case for case in CASES if case[0] in RECORDED])
def test_values_and_errors_are_mindspores(key, expression):
    want = RECORDED[key]
    if isinstance(want[0], str):
        error = {"ValueError": ValueError, "TypeError": TypeError}[want[0]]
        with pytest.raises(error) as raised:
            _run(expression)
        assert str(raised.value) == want[1]
        return
    out = _run(expression)
    if isinstance(want, tuple) and all(isinstance(v, int) for v in want):  # a shape
        assert out == want
        return
    np.testing.assert_allclose(out.asnumpy(), np.array(want[0]), rtol=1e-6, atol=1e-7)
    assert str(out.dtype) == want[1]


def test_soft_margin_loss_is_its_docstrings_and_formulas():
    logits = Tensor(np.array([[0.3, 0.7], [0.5, 0.5]]), ms.float32)
    labels = Tensor(np.array([[-1, 1], [1, -1]]), ms.float32)
    np.testing.assert_allclose(nn.SoftMarginLoss()(logits, labels).asnumpy(), 0.6764238, rtol=1e-6)  # its docstring
    x = np.array([[0.3, -2.0], [3.0, 0.0]])
    y = np.array([[1, 1], [-1, 1]])
    out = nn.SoftMarginLoss(reduction="none")(Tensor(x, ms.float32), Tensor(y, ms.float32))
    np.testing.assert_allclose(out.asnumpy(), np.log1p(np.exp(-y * x)), rtol=1e-6)
    np.testing.assert_allclose(nn.SoftMarginLoss(reduction="sum")(Tensor(x), Tensor(y, ms.float64)).asnumpy(),
                               np.log1p(np.exp(-y * x)).sum(), rtol=1e-12)


@pytest.mark.parametrize("layer, shape", [
    (nn.ZeroPad2d((1, -1, 2, 0)), (1, 2, 3, 4)), (nn.ConstantPad2d(1, 0.5), (2, 3, 3)),
    (nn.ReflectionPad2d((1, 2, 0, 1)), (1, 1, 3, 4)), (nn.PixelShuffle(2), (1, 8, 2, 3)), (nn.Tril(), (2, 3, 4)),
    (nn.Triu(), (3, 3)), (nn.ReduceLogSumExp((1,), keep_dims=True), (2, 3, 2)), (nn.FastGelu(), (2, 5)),
    (nn.Hardtanh(-0.5, 0.5), (2, 3)), (nn.SeLU(), (2, 3)), (nn.Softmin(0), (3, 2)), (nn.ConstantPad1d((2, -1), 1.5),
                                                                                      (2, 4)),
    (nn.ReflectionPad3d(1), (1, 2, 3, 3)), (nn.AdaptiveAvgPool1d(2), (1, 2, 4)), (nn.CentralCrop(0.5), (2, 4, 4)),
])
def test_layers_compile_to_their_eager_values(layer, shape):
    x = Tensor(np.random.default_rng(0).standard_normal(shape), ms.float32)
    np.testing.assert_allclose(ms.jit(layer)(x).asnumpy(), layer(x).asnumpy(), rtol=1e-6, atol=1e-7)


def test_losses_compile_to_their_eager_values():
    rng = np.random.default_rng(1)
    x, y = (Tensor(rng.standard_normal((3, 4)), ms.float32) for _ in range(2))
    for loss in (nn.RMSELoss(), nn.DiceLoss(), nn.SoftMarginLoss()):
        np.testing.assert_allclose(ms.jit(loss)(x, y).asnumpy(), loss(x, y).asnumpy(), rtol=1e-6)


# RMSELoss (its MSELoss) and Triu compute in float32 whatever the input, as MindSpore's do: central differences
# of a float64 input then need a wider step and tolerance
LOOSE = dict(eps=1e-3, rtol=2e-3, atol=1e-4)


@pytest.mark.parametrize("cell, shapes, tolerances", [
    (nn.RMSELoss(), [(2, 3), (2, 3)], LOOSE), (nn.DiceLoss(smooth=0.5), [(2, 3), (2, 3)], {}),
    (nn.SoftMarginLoss(), [(4,), (4,)], {}), (nn.ZeroPad2d((1, -1, 0, 2)), [(1, 3, 3)], {}),
    (nn.ReflectionPad2d(1), [(1, 3, 3)], {}), (nn.PixelShuffle(2), [(1, 4, 2, 1)], {}), (nn.Triu(), [(3, 3)], LOOSE),
    (nn.ReduceLogSumExp(0), [(3, 2)], {}), (nn.SeLU(), [(2, 3)], {}), (nn.Softmin(), [(2, 3)], {}),
    (nn.ConstantPad3d((1, 0, -1, 1, 0, 2), 0.5), [(2, 3, 2)], {}), (nn.ReflectionPad1d((2, 1)), [(2, 4)], {}),
    (nn.AdaptiveAvgPool1d(2), [(1, 2, 4)], {}), (nn.CentralCrop(0.5), [(1, 4, 4)], {}),
])
def test_gradients_to_second_order(cell, shapes, tolerances):
    rng = np.random.default_rng(2)
    check_second_order(Program(cell), [rng.standard_normal(shape) for shape in shapes], **tolerances)


def test_fast_gelu_gradient_matches_central_differences():
    x = np.array([-2.0, -0.5, 0.1, 1.25, 3.0], np.float32)

    def fast_gelu(v):
        return v / (1 + np.exp(-1.702 * np.abs(v))) * np.exp(0.851 * (v - np.abs(v)))

    eps = 1e-6
    x64 = x.astype(np.float64)
    want = (fast_gelu(x64 + eps) - fast_gelu(x64 - eps)) / (2 * eps)
    got = ms.grad(nn.FastGelu())(Tensor(x))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_rmse_and_dice_refuse_unsigned_and_fast_gelu_float64():
    with pytest.raises(TypeError, match="For 'RMSELoss', the dtype of 'logits' can not be unsigned"):
        nn.RMSELoss()(Tensor(np.ones(2), ms.uint8), Tensor(np.ones(2), ms.float32))
    with pytest.raises(TypeError, match="For 'DiceLoss', the dtype of 'labels' can not be uint8."):
        nn.DiceLoss()(Tensor(np.ones(2), ms.float32), Tensor(np.ones(2), ms.uint8))
    with pytest.raises(TypeError, match="For 'FastGeLU', the dtype of 'x' must be float16 or float32"):
        nn.FastGelu()(Tensor(np.ones(2), ms.float64))
    with pytest.raises(ValueError, match="'reflect' padding must be smaller than the padded dim"):
        nn.ReflectionPad2d(3)(Tensor(np.ones((1, 3, 3)), ms.float32))


def test_moments_are_mindspores():
    x = Tensor(np.arange(24).reshape(2, 3, 4) / 7 - 1.5, ms.float32)
    # MindSpore 2.10
    mean, variance = nn.Moments(axis=1)(x)
    np.testing.assert_allclose(mean.asnumpy(), [[-0.9285714030265808, -0.7857142090797424, -0.6428571343421936, -0.5],
                                                [0.7857142090797424, 0.9285714030265808, 1.071428656578064,
                                                 1.2142857313156128]], rtol=1e-6)
    np.testing.assert_allclose(variance.asnumpy(), np.full((2, 4), 0.21768707036972046), rtol=1e-6)
    mean, variance = nn.Moments(axis=(0, 2), keep_dims=True)(x)
    assert mean.shape == (1, 3, 1)
    np.testing.assert_allclose(mean.asnumpy().ravel(), [-0.4285714328289032, 0.1428571343421936, 0.7142857313156128],
                               rtol=1e-6)
    np.testing.assert_allclose(variance.asnumpy().ravel(), [0.760204017162323] * 3, rtol=1e-6)
    mean, variance = nn.Moments()(Tensor(np.array([1, 2, 3, 4]), ms.float16))
    assert (str(mean.dtype), float(mean.asnumpy()), float(variance.asnumpy())) == ("Float16", 2.5, 1.25)


def test_initializer_helpers_are_mindspores():
    from npspore.common.initializer import (_assignment, _calculate_correct_fan, _calculate_fan_in_and_fan_out,
                                            _calculate_gain)
    # MindSpore 2.10, mindspore.common.initializer
    assert [_calculate_fan_in_and_fan_out(s) for s in ((3, 4), (8, 4, 3, 3), [5, 2, 7])] == [(4, 3), (36, 72),
                                                                                               (14, 35)]
    assert _calculate_correct_fan((8, 4, 3, 3), "FAN_OUT") == 72 and _calculate_correct_fan((6, 5), "fan_in") == 5
    gains = [_calculate_gain(n) for n in ("relu", "leaky_relu", "tanh", "conv2d", "sigmoid")]
    np.testing.assert_allclose(gains, [1.4142135623730951, 1.4141428569978354, 1.6666666666666667, 1, 1], rtol=1e-15)
    assert _calculate_gain("leaky_relu", 0.2) == pytest.approx(1.3867504905630728, rel=1e-15)
    assert _assignment(np.zeros((2, 3), np.float32), 1.5).tolist() == [[1.5] * 3] * 2
    assert _assignment(np.zeros((), np.float32), 2.0) == 2.0
    assert _assignment(np.zeros(3), np.array([1.0, 2.0, 3.0])).tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="can not be computed for tensor with fewer than 2 dimensions, but got "
                                         "dimensions 1."):
        _calculate_fan_in_and_fan_out((3,))
    with pytest.raises(ValueError, match=r"'mode' fan not supported, please use one of \['fan_in', 'fan_out'\]"):
        _calculate_correct_fan((3, 4), "fan")
    with pytest.raises(ValueError, match="the argument 'nonlinearity' should be one of"):
        _calculate_gain("foo")


def test_no_init_parameters_marks_parameters_as_mindspore_does(tmp_path):
    from npspore.nn.utils import no_init_parameters
    source = nn.Dense(3, 4)
    path = str(tmp_path / "dense.ckpt")
    ms.save_checkpoint(source, path)
    with no_init_parameters():
        net = nn.Dense(3, 4)
        assert ms.Parameter.init_param is False and net.weight.init_param is False
    assert ms.Parameter.init_param is True
    ms.load_checkpoint(path, net=net)
    net.init_parameters_data()
    np.testing.assert_array_equal(net.weight.asnumpy(), source.weight.asnumpy())
    assert nn.utils.no_init_parameters is no_init_parameters
