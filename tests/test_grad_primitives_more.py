"""MindSpore's gradient primitives of ``ops.operations._grad_ops`` added by the grad3 family (PdistGrad,
MultiMarginLossGrad, MultilabelMarginLossGrad, MedianGrad, {Maximum,Minimum}GradGrad,
CholeskyGrad, InstanceNormV2Grad, LayerNormGradGrad,
BatchNormGradGrad): MindSpore 2.10's values (recorded by
``tools/observe_mindspore_grad_primitives_more.py`` from the real MindSpore, CPU, in a separate virtualenv), eagerly
and compiled; each one against central differences of its forward op in float64; and its own gradient against
finite differences."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops
from npspore.ops.operations import _grad_ops as G
from grad_primitive_more_cases import (CASES, CLASS_WEIGHT, CLASSES, IS_TARGET, LABELS, MEDIAN_ALL, MEDIAN_ROWS,
                                       TANGENTS, X_MEDIAN, X_PAIR, X_ROWS, X_NORM, NORM_GAMMA,
                                       RUNNING_MEAN, RUNNING_VARIANCE, SAVED_MEAN, SAVED_INVERSE_STD, X_LAYER,
                                       DY_LAYER, LAYER_GAMMA, LAYER_MEAN, LAYER_VARIANCE, LAYER_MOVES, DY_NORM,
                                       BATCH_SCALE, BATCH_STATISTICS, BATCH_MOVES)
from recorded_values import check_value
from test_grad_primitives import _row, check_derivative, check_own_gradient


# printed by tools/observe_mindspore_grad_primitives_more.py (MindSpore 2.10.0 CPU); every result is Float32, and
# a string is the error MindSpore 2.10 CPU raises (no kernel: that primitive is checked by its derivative only;
# MultilabelMarginLoss's "Kernel select failed: Unsupported op on CPU" begins with an empty line)
MINDSPORE_VALUES = {
    'PdistGrad': [[0.8989551067352295, -0.5485201478004456, -0.8018245697021484], [-0.5570656061172485, -1.2043037414550781, -0.17871691286563873], [-0.34188950061798096, 1.7528239488601685, 0.980541467666626]],
    'PdistGrad_p1': [[3.0, -1.0, -1.0], [-1.5, -1.5, -0.5], [-1.5, 2.5, 1.5]],
    'MultiMarginLossGrad': [[0.0, 0.0, 0.0], [-0.1666666716337204, 0.0, 0.1666666716337204], [0.1666666716337204, -0.3333333432674408, 0.1666666716337204]],
    'MultiMarginLossGrad_weighted': [[0.0, 1.3333333730697632, -1.3333333730697632], [-5.333333492279053, 0.6666666865348816, 4.6666669845581055], [4.0, -7.5, 3.500000238418579]],
    'MultilabelMarginLossGrad': 'RuntimeError: ',
    'MultilabelMarginLossGrad_none': 'RuntimeError: ',
    'MedianGrad': [[0.0, 0.0, 1.5, 0.0], [0.0, 0.0, 0.0, -2.0]],
    'MedianGrad_global': [[0.0, 0.0, 1.5, 0.0], [0.0, 0.0, 0.0, 0.0]],
    'MaximumGradGrad': ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [0.0, 0.0, 0.0], [[1000.0, 10.0, 100.0], [1000.0, -10.0, 100000.0]]),
    'MaximumGradGrad_x_only': ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [0.0, 0.0, 0.0], [[1000.0, 10.0, 100.0], [1000.0, -10.0, 100000.0]]),
    'MinimumGradGrad': ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [0.0, 0.0, 0.0], [[1.0, 10.0, 100000.0], [-1.0, 10000.0, -100.0]]),
    'InstanceNormV2Grad': ([[[[0.7309352159500122, 0.3758605122566223, -0.29836899042129517], [-0.6718698143959045, -0.4012470245361328, 0.2646900713443756]], [[2.8766772747039795, 2.1366841793060303, -0.48443928360939026], [-2.5768442153930664, -2.216783285140991, 0.2647053003311157]]], [[[1.280619502067566, 1.317062497138977, 0.16822950541973114], [-1.1096477508544922, -1.341694951057434, -0.31456878781318665]], [[1.4698760509490967, 2.1689634323120117, 0.8827228546142578], [-1.2062816619873047, -2.17742919921875, -1.1378512382507324]]]], [[[[0.23331919312477112]], [[0.23773464560508728]]], [[[0.1664348989725113]], [[0.040072690695524216]]]], [[[[-0.23581847548484802]], [[-0.17720356583595276]]], [[[-0.10447275638580322]], [[-0.023419737815856934]]]]),
    'InstanceNormV2Grad_inference': ([[[[0.49975019693374634, 0.2700161635875702, -0.20796945691108704], [-0.49474895000457764, -0.3266585171222687, 0.1417602300643921]], [[2.713059902191162, 2.1302285194396973, -0.4111253321170807], [-2.5744924545288086, -2.370882987976074, 0.01250526588410139]]], [[[0.5965457558631897, 0.6415014863014221, 0.09666366130113602], [-0.5370462536811829, -0.6769983172416687, -0.19452126324176788]], [[1.1066933870315552, 1.6570727825164795, 0.6839470863342285], [-0.9179962873458862, -1.6759382486343384, -0.8930302262306213]]]], [[[[0.1826988309621811]], [[0.17543913424015045]]], [[[0.07789087295532227]], [[0.03727630153298378]]]], [[[[-0.23581847548484802]], [[-0.17720356583595276]]], [[[-0.10447275638580322]], [[-0.023419737815856934]]]]),
    'LayerNormGradGrad': ([[-1.8734701871871948, -1.4205875396728516, 0.09611085802316666, 1.2665185928344727, 1.332635521888733, 0.5987928509712219], [-1.296046495437622, 0.13105228543281555, 1.3032712936401367, 0.8339864015579224, -0.4214218556880951, -0.5508416891098022]], [[2.8119029998779297, 1.353788137435913, 0.6802569031715393, 0.4159621000289917, -0.08275389671325684, -0.6627250909805298], [1.8822718858718872, 0.8437721729278564, 1.527701735496521, 2.5142195224761963, 1.9436339139938354, -0.3893857002258301]], [0.4420202970504761, -0.24169790744781494, 0.22813203930854797, 0.062193453311920166, -0.37505173683166504, -0.03875964507460594]),
    'BatchNormGradGrad': ([[[[-1.538681149482727, -0.8659797310829163, 0.5473400354385376], [1.4109759330749512, 0.9412244558334351, -0.4233383536338806]], [[0.6596816182136536, -0.06130772829055786, -0.6893385052680969], [-0.6727780699729919, -0.03666675090789795, 0.6449204087257385]]], [[[-1.2562328577041626, -1.3400338888168335, -0.2211836576461792], [1.0713874101638794, 1.3423391580581665, 0.33218297362327576]], [[0.6791747808456421, 0.289612352848053, -0.3539659082889557], [-0.6333388686180115, -0.2623206377029419, 0.4363273084163666]]]], [[[[2.9060473442077637, 1.5124924182891846, 0.9897018671035767], [1.6279290914535522, 2.6244077682495117, 2.92299222946167]], [[-0.9908400774002075, 1.3448454141616821, 3.1802561283111572], [3.5910842418670654, 2.4902021884918213, 0.5711032152175903]]], [[[2.604979991912842, 0.9057385921478271, 0.08697926998138428], [0.907001256942749, 2.7574734687805176, 4.154256343841553]], [[3.113844394683838, 2.7420129776000977, 1.3060013055801392], [-0.6590582132339478, -2.2149457931518555, -2.474506139755249]]]], [0.9109097123146057, 1.7477505207061768]),
    'BatchNormGradGrad_inference': ([[[[-0.9999949932098389, -0.5402995944023132, 0.4161447286605835], [0.9899875521659851, 0.6536403298377991, -0.28366073966026306]], [[0.6789360642433167, 0.5330840349197388, -0.10288302600383759], [-0.6442599296569824, -0.5933071970939636, 0.0031294096261262894]]], [[[-0.8438497185707092, -0.9074422717094421, -0.13673654198646545], [0.7596840858459473, 0.9576547145843506, 0.2751619815826416]], [[0.4669097363948822, 0.6991127133369446, 0.28855469822883606], [-0.38729918003082275, -0.7070719599723816, -0.37676605582237244]]]], [[[[2.599997043609619, 1.6409518718719482, 1.2756898403167725], [1.7064584493637085, 2.3856894969940186, 2.5906929969787598]], [[-0.4428081512451172, 2.1335065364837646, 4.034604072570801], [4.260827541351318, 2.8890790939331055, 0.8681301474571228]]], [[[2.376926898956299, 1.2059762477874756, 0.6441863775253296], [1.2119476795196533, 2.489403247833252, 3.454425096511841]], [[3.4371964931488037, 3.348188638687134, 2.173710823059082], [0.22382986545562744, -1.5601692199707031, -2.0707578659057617]]]], [0.7176636457443237, 1.6996116638183594]),
}


CANCELLING = {"LayerNormGradGrad": 1e-6}


@pytest.mark.parametrize("case", [case for case in CASES if not isinstance(MINDSPORE_VALUES[case], str)])
def test_mindspore_values(case):
    name, keywords, inputs = CASES[case]
    primitive = getattr(G, name)(**keywords)
    arguments = [Tensor(item) if isinstance(item, np.ndarray) else item for item in inputs]
    for out in (primitive(*arguments), ms.jit(lambda *tensors: primitive(*tensors))(*arguments)):
        recorded = MINDSPORE_VALUES[case]
        for item, value in zip(out, recorded) if isinstance(recorded, tuple) else [(out, recorded)]:
            if case in CANCELLING:   # sums of terms of either sign: float32's rounding of the largest terms
                assert str(item.dtype) == "Float32"
                np.testing.assert_allclose(item.asnumpy(), value, rtol=1e-6, atol=CANCELLING[case])
            else:
                check_value(item, (value, "Float32"))


# away from every hinge's kink (MultiMarginLoss's first row of X_ROWS sits on one)
X_SMOOTH = X_ROWS.astype(np.float64) + np.arange(9).reshape(3, 3) * 0.013

NORM_STATISTICS = (NORM_GAMMA, RUNNING_MEAN, RUNNING_VARIANCE, SAVED_MEAN, SAVED_INVERSE_STD, X_LAYER,
                                       DY_LAYER, LAYER_GAMMA, LAYER_MEAN, LAYER_VARIANCE, LAYER_MOVES, DY_NORM,
                                       BATCH_SCALE, BATCH_STATISTICS, BATCH_MOVES)


def _instance_normalized(is_training, epsilon):
    """``x`` (NCHW) normalized over H and W by its own statistics (else the running ones), times NORM_GAMMA
    (NumPy)."""
    def forward(x):
        x = x.asnumpy()
        mean = x.mean((2, 3), keepdims=True) if is_training else RUNNING_MEAN
        variance = x.var((2, 3), keepdims=True) if is_training else RUNNING_VARIANCE
        return Tensor((x - mean) / np.sqrt(variance + epsilon) * NORM_GAMMA)

    return forward


DERIVATIVES = {case: _row(*row[:4], *row[4:]) for case, row in {
    "PdistGrad": ("PdistGrad", lambda x: ops.Pdist()(x), "dxy", X_SMOOTH),
    "PdistGrad_p3": ("PdistGrad", lambda x: ops.Pdist(3.0)(x), "dxy", X_SMOOTH, {"p": 3.0}),
    "MultiMarginLossGrad": ("MultiMarginLossGrad", lambda x: ops.MultiMarginLoss()(x, Tensor(CLASSES)), "dxc",
                            X_SMOOTH, None, (CLASSES,)),
    "MultiMarginLossGrad_weighted": ("MultiMarginLossGrad", lambda x: ops.MultiMarginLoss(2, 2.0, "none")(
        x, Tensor(CLASSES), Tensor(CLASS_WEIGHT.astype(np.float64))), "dxcc", X_SMOOTH,
        {"p": 2, "margin": 2.0, "reduction": "none"}, (CLASSES, CLASS_WEIGHT)),
    "MultilabelMarginLossGrad": ("MultilabelMarginLossGrad", lambda x: ops.MultilabelMarginLoss()(
        x, Tensor(LABELS))[0], "dxcc", X_SMOOTH, None, (LABELS, IS_TARGET)),
    "MultilabelMarginLossGrad_none": ("MultilabelMarginLossGrad", lambda x: ops.MultilabelMarginLoss("none")(
        x, Tensor(LABELS))[0], "dxcc", X_SMOOTH, {"reduction": "none"}, (LABELS, IS_TARGET)),
    "MedianGrad": ("MedianGrad", lambda x: ops.median(x, 1)[0], "dxyc", X_MEDIAN.astype(np.float64), {"axis": 1},
                   (MEDIAN_ROWS[1],)),
    "MedianGrad_global": ("MedianGrad", lambda x: ops.median(x.reshape(-1), 0)[0], "dxyc",
                          X_MEDIAN.astype(np.float64), {"global_median": True}, (MEDIAN_ALL[1],)),
    "InstanceNormV2Grad": ("InstanceNormV2Grad", _instance_normalized(True, 1e-5), "dxccccc", X_NORM.astype(np.float64),
                           None, NORM_STATISTICS, 0),
    "InstanceNormV2Grad_inference": ("InstanceNormV2Grad", _instance_normalized(False, 1e-3), "dxccccc",
                                     X_NORM.astype(np.float64), {"is_training": False, "epsilon": 1e-3},
                                     NORM_STATISTICS, 0),
}.items()}


@pytest.mark.parametrize("case", sorted(DERIVATIVES))
@pytest.mark.parametrize("check", [check_derivative, check_own_gradient])
def test_derivatives(check, case):
    # the forward's vjp by central differences in float64, then the primitive's own gradient
    check(DERIVATIVES[case])


@pytest.mark.parametrize("name, forward", [("MaximumGradGrad", ops.maximum), ("MinimumGradGrad", ops.minimum)])
def test_grad_grad_is_the_forwards_directional_derivative(name, forward, step=1e-6):
    # away from ties: the third output is forward's derivative along (grad_y1, grad_y2), by central differences
    x1, x2 = X_PAIR[0].astype(np.float64), X_PAIR[1].astype(np.float64) + 0.25
    t1, t2 = (tangent.astype(np.float64) for tangent in TANGENTS)
    out = getattr(G, name)()(Tensor(x1), Tensor(x2), Tensor(t1), Tensor(t2))
    ahead = forward(Tensor(x1 + step * t1), Tensor(x2 + step * t2)).asnumpy()
    behind = forward(Tensor(x1 - step * t1), Tensor(x2 - step * t2)).asnumpy()
    np.testing.assert_allclose(out[2].asnumpy(), (ahead - behind) / (2 * step), rtol=1e-6)
    np.testing.assert_array_equal(out[0].asnumpy(), np.zeros_like(x1))
    np.testing.assert_array_equal(out[1].asnumpy(), np.zeros_like(x2))


SPD = np.array([[[4.0, 2.0, 0.5], [2.0, 10.0, -1.0], [0.5, -1.0, 3.0]], [[2.0, 0.3, 0.1], [0.3, 1.5, 0.2],
                                                                        [0.1, 0.2, 5.0]]])


@pytest.mark.parametrize("compiled", [False, True])
def test_cholesky_grad_is_the_derivative_along_symmetric_moves(compiled, step=1e-6):
    # MindSpore 2.10 CPU has no CholeskyGrad kernel ("Unsupported op [CholeskyGrad] on CPU"): checked against
    # central differences of ops.Cholesky along each symmetric move E_ij + E_ji of the input; symmetric itself
    lower = np.linalg.cholesky(SPD)
    dout = np.tril(np.cos(np.arange(18.0)).reshape(2, 3, 3))
    primitive = G.CholeskyGrad()
    run = ms.jit(lambda x, grad: primitive(x, grad)) if compiled else primitive
    out = run(Tensor(lower), Tensor(dout)).asnumpy()
    np.testing.assert_allclose(out, np.swapaxes(out, -1, -2), rtol=1e-12)
    for i, j in np.ndindex(3, 3):
        move = np.zeros((3, 3))
        move[i, j] = move[j, i] = 1.0
        ahead = ops.Cholesky()(Tensor(SPD + step * move)).asnumpy()
        behind = ops.Cholesky()(Tensor(SPD - step * move)).asnumpy()
        expected = np.sum(dout * (ahead - behind), axis=(-1, -2)) / (2 * step)
        np.testing.assert_allclose(np.sum(out * move, axis=(-1, -2)), expected, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", ["MaximumGradGrad", "CholeskyGrad", "LayerNormGradGrad", "BatchNormGradGrad"])
def test_generated_ones_are_in_gen_ops_prim(name):
    # MindSpore 2.10 defines these in ops.auto_generate.gen_ops_prim (and _grad_ops imports them from there)
    from npspore.ops.auto_generate import gen_ops_prim
    assert getattr(gen_ops_prim, name) is getattr(G, name)


SECOND_ORDER = {   # primitive -> (its first-order primitive, keywords, that one's inputs, the outputs' moves)
    "LayerNormGradGrad": ("LayerNormGrad", {}, (X_LAYER, DY_LAYER, LAYER_VARIANCE, LAYER_MEAN, LAYER_GAMMA),
                          LAYER_MOVES),
    "BatchNormGradGrad": ("BatchNormGrad", {"is_training": True}, (DY_NORM, X_NORM, BATCH_SCALE) + BATCH_STATISTICS,
                          BATCH_MOVES),
    "BatchNormGradGrad_inference": ("BatchNormGrad", {}, (DY_NORM, X_NORM, BATCH_SCALE, RUNNING_MEAN.ravel()[:2],
                                                          RUNNING_VARIANCE.ravel()[:2]), BATCH_MOVES),
}


@pytest.mark.parametrize("case", sorted(SECOND_ORDER))
def test_second_order_is_the_first_orders_vjp(case, step=1e-6):
    # each output against central differences in float64 of <moves, first-order primitive's outputs> along its
    # input x, its output gradient and gamma/scale (LayerNormGrad takes (x, dy, ...), BatchNormGrad (dy, x, ...))
    first, keywords, inputs, moves = SECOND_ORDER[case]
    inputs = [a.astype(np.float64) for a in inputs]
    moves = [a.astype(np.float64) for a in moves]
    layer = first == "LayerNormGrad"
    ordered = inputs if layer else [inputs[1], inputs[0]] + inputs[2:]       # the second order's: x, dy, ...
    out = getattr(G, case.split("_")[0])(**keywords)(*[Tensor(a) for a in ordered + moves])

    def contracted(arrays):
        return sum(np.sum(move * grad.asnumpy()) for move, grad in zip(moves, getattr(G, first)(**keywords)(
            *[Tensor(a) for a in arrays])))

    for result, position in zip(out, (0, 1, 4) if layer else (1, 0, 2)):
        expected = np.zeros_like(inputs[position])
        for index in np.ndindex(expected.shape):
            ahead, behind = list(inputs), list(inputs)
            shift = np.zeros_like(expected)
            shift[index] = step
            ahead[position], behind[position] = inputs[position] + shift, inputs[position] - shift
            expected[index] = (contracted(ahead) - contracted(behind)) / (2 * step)
        np.testing.assert_allclose(result.asnumpy(), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", ["MaximumGradGrad", "CholeskyGrad", "LayerNormGradGrad", "BatchNormGradGrad"])
def test_generated_ones_are_in_gen_ops_prim(name):
    # MindSpore 2.10 defines these in ops.auto_generate.gen_ops_prim (and _grad_ops imports them from there)
    from npspore.ops.auto_generate import gen_ops_prim
    assert getattr(gen_ops_prim, name) is getattr(G, name)
