"""MindSpore's gradient primitives (``ops.operations._grad_ops``, the ``*Grad`` classes of
``ops.auto_generate.gen_ops_prim``): MindSpore 2.10's values (recorded by
``tools/observe_mindspore_grad_primitives.py`` from the real MindSpore, CPU, in a separate virtualenv), eagerly
and compiled; each one against central differences of its forward op in float64 (which ties it to the
forward's derivative); its own gradient against finite differences; and the paths that reach it."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.ops import operations as P
from npspore.ops.operations import _grad_ops as G
from npspore.testing import check_grads
from grad_primitive_cases import (CASES, CHANNELS, DELTA, GRID, INDEX, KEEP, KINKS, MASK, OPTIMIZER_CASES, VAR, X4_MEAN,
                                  X4_VAR, X5, X_LRN, X_POOL, X_SAMPLE)
from recorded_values import check_value


# printed by tools/observe_mindspore_grad_primitives.py (MindSpore 2.10.0 CPU); every result is Float32, and a
# string is the error MindSpore 2.10 CPU raises (no kernel: that primitive is checked by its derivative only)
MINDSPORE_VALUES = {
    'SigmoidGrad': [[0.1875, -0.5, 0.09375], [0.26999998092651367, 0.05999999865889549, -0.13500002026557922]],
    'TanhGrad': [[0.9375, -1.5, 0.21875], [2.9700000286102295, 0.1599999964237213, -0.2850000560283661]],
    'SqrtGrad': [[2.0, -2.0, 0.3333333432674408], [15.0, 0.2083333283662796, -0.8333333730697632]],
    'RsqrtGrad': [[-0.0078125, 0.125, -0.10546875], [-0.001500000013038516, -0.027000002562999725, 0.5467499494552612]],
    'ReciprocalGrad': [[-0.0625, 0.5, -0.28125], [-0.030000001192092896, -0.09000000357627869, 1.2149999141693115]],
    'InvGrad': [[-0.0625, 0.5, -0.28125], [-0.030000001192092896, -0.09000000357627869, 1.2149999141693115]],
    'ReluGrad': [[0.0, 0.0, 0.0], [3.0, 0.25, -1.5]],
    'AcoshGrad': [[3.958635091781616, -3.8380696773529053, 0.6080382466316223], [29.950057983398438, 0.3926781713962555, -1.4612524509429932]],
    'AsinhGrad': [[0.9695436358451843, -1.7736377716064453, 0.3861948251724243], [2.98506236076355, 0.21088767051696777, -1.0466920137405396]],
    'EluGrad': [[-0.5, -1.5, 0.5], [3.0, 0.25, -1.5]],
    'SeluGrad': 'RuntimeError: The kernel SeluGrad unregistered.',
    'AbsGrad': [[-1.0, 2.0, 0.0], [3.0, 0.25, -1.5]],
    'ACosGrad': [[-1.0327955484390259, 2.309401035308838, -0.7559289932250977], [-3.015113353729248, -0.3125, 3.4412355422973633]],
    'AsinGrad': [[1.0327955484390259, -2.309401035308838, 0.7559289932250977], [3.015113353729248, 0.3125, -3.4412355422973633]],
    'AtanGrad': [[0.3076923191547394, -1.8823529481887817, 0.5], [2.4000000953674316, 0.05000000074505806, -0.029999999329447746]],
    'ReLU6Grad': [[0.0, 0.0, 0.0], [3.0, 0.25, 0.0]],
    'ReLU6Grad_kinks': [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
    'SoftplusGrad': [[0.18242548406124115, -0.8756470680236816, 0.25], [1.8673782348632812, 0.22019928693771362, -1.4986335039138794]],
    'FastGeLUGrad': [[-0.09884806722402573, -0.5869991183280945, 0.25], [2.6376657485961914, 0.26845383644104004, -1.5001096725463867]],
    'HSigmoidGrad': [[0.1666666716337204, -0.3333333432674408, 0.0833333358168602], [0.5, 0.0416666679084301, 0.0]],
    'HSwishGrad': [[0.0, -0.8333333134651184, 0.25], [2.0, 0.2916666567325592, -1.5]],
    'SiLUGrad': [[-0.04129414260387421, -0.7525800466537476, 0.25], [2.219883680343628, 0.27269604802131653, -1.5081902742385864]],
    'HShrinkGrad': [[1.0, 0.0, 0.0], [0.0, 0.25, -1.5]],
    'HShrinkGrad_lambd': [[0.0, 0.0, 0.0], [0.0, 0.25, -1.5]],
    'SoftShrinkGrad': [[1.0, 0.0, 0.0], [0.0, 0.25, -1.5]],
    'SoftShrinkGrad_lambd': [[0.0, 0.0, 0.0], [0.0, 0.25, -1.5]],
    'LogitGrad': [[5.333333492279053, -8.0, 2.6666667461395264], [33.333335876464844, 1.0416667461395264, -16.666664123535156]],
    'LogitGrad_eps': [[5.333333492279053, -8.0, 2.6666667461395264], [0.0, 1.0416667461395264, 0.0]],
    'GeLUGrad': [[-0.12771078944206238, -0.6092917919158936, 0.25], [2.602109670639038, 0.2715248167514801, -1.5]],
    'GeluGradExt': 'RuntimeError: The kernel GeluGradExt unregistered.',
    'GeluGradExt_tanh': 'RuntimeError: The kernel GeluGradExt unregistered.',
    'PReLUGrad': ([[0.10000000149011612, -0.4000000059604645, 0.15000000596046448], [3.0, 0.25, -1.5]], [-1.5, 0.5, 0.0]),
    'MaskedSelectGrad': [[1.0, 0.0, 2.0], [0.0, 3.0, 4.0]],
    'GatherDGradV2': [[-2.0, 0.0, 1.0], [0.0, 3.5, 0.0]],
    'HardtanhGrad': 'RuntimeError: The kernel HardtanhGrad unregistered.',
    'HardtanhGrad_bounds': 'RuntimeError: The kernel HardtanhGrad unregistered.',
    'LeakyReLUGradExt': 'RuntimeError: The kernel LeakyReLUGradExt unregistered.',
    'EluGradExt': 'RuntimeError: The kernel EluGradExt unregistered.',
    'EluGradExt_result': 'RuntimeError: The kernel EluGradExt unregistered.',
    'SoftplusGradExt': 'RuntimeError: The kernel SoftplusGradExt unregistered.',
    'ThresholdGrad': 'RuntimeError: The kernel ThresholdGrad unregistered.',
    'MishGradExt': 'RuntimeError: The kernel MishGradExt unregistered.',
    'LogSigmoidGrad': 'RuntimeError: The kernel LogSigmoidGrad unregistered.',
    'MSELossGradExt': 'RuntimeError: The kernel MSELossGradExt unregistered.',
    'MSELossGradExt_none': 'RuntimeError: The kernel MSELossGradExt unregistered.',
    'KLDivGrad': 'RuntimeError: The kernel KLDivGrad unregistered.',
    'KLDivGrad_log_target': 'RuntimeError: The kernel KLDivGrad unregistered.',
    'SmoothL1LossGrad': [[-1.0, -1.5, -0.5], [1.5, 0.125, -1.5]],
    'SmoothL1LossGrad_mean': [[-0.25, 0.25, -0.25], [0.25, 0.25, 0.25]],
    'SoftMarginLossGrad': 'RuntimeError: The kernel SoftMarginLossGrad unregistered.',
    'SoftMarginLossGrad_none': 'RuntimeError: The kernel SoftMarginLossGrad unregistered.',
    'BinaryCrossEntropyGrad': [[0.06666667014360428, -0.15000000596046448, 0.3333333432674408], [-1.5000001192092896, 0.0625000074505806, 0.33333325386047363]],
    'BinaryCrossEntropyGrad_none': [[1.3333333730697632, 4.0, 1.3333333730697632], [-30.0, 0.6250000596046448, -6.666665077209473]],
    'SigmoidCrossEntropyWithLogitsGrad': [[0.18242551386356354, 1.1243529319763184, 0.125], [-1.1326220035552979, 0.22019925713539124, -0.7486335039138794]],
    'NLLLossGrad': [[0.0, 0.0, -1.2000000476837158], [-0.30000001192092896, 0.0, 0.0]],
    'SoftmaxGrad': 'RuntimeError: The pointer[value] is null.',
    'LogSoftmaxGrad': [[1.100000023841858, -1.850000023841858, 0.75], [1.9500000476837158, 0.07500001043081284, -2.0249998569488525]],
    'LogSoftmaxGrad_axis0': [[0.20000004768371582, -1.475000023841858, 1.0], [0.5999999046325684, 0.42499998211860657, -1.2000000476837158]],
    'MaximumGrad': ([[0.5, 0.0, 0.25], [0.0, 0.125, 0.0]], [[0.5, -2.0, 0.25], [3.0, 0.125, -1.5]]),
    'MinimumGrad': ([[0.5, -2.0, 0.25], [3.0, 0.125, -1.5]], [[0.5, 0.0, 0.25], [0.0, 0.125, 0.0]]),
    'BiasAddGrad': [-5.400000095367432, 9.0],
    'BiasAddGrad_nhwc': [1.1920928955078125e-07, 0.5999999046325684, 1.1999999284744263, 1.7999999523162842],
    'DropoutGrad': [[1.25, -0.0, 0.625], [0.0, 0.3125, -1.875]],
    'DropoutGradExt': 'RuntimeError: The kernel DropoutGradExt unregistered.',
    'SliceGrad': [[0.0, 1.0, -2.0], [0.0, 0.5, 3.0]],
    'StridedSliceGrad': [[0.0, 0.0, 1.0], [0.0, 0.0, 2.0]],
    'StridedSliceGrad_masks': [[0.0, 0.0, 0.0], [1.0, 0.0, 2.0]],
    'L2NormalizeGrad': [[0.23104727268218994, -1.386283278465271, 0.32879796624183655], [0.42205050587654114, 0.07800856977701187, -0.05243465304374695]],
    'GluGrad': [[0.43782350420951843, -0.36920109391212463], [-1.7615940570831299, -0.10499362647533417]],
    'ReflectionPad1DGrad': 'RuntimeError: The kernel ReflectionPad1DGrad unregistered.',
    'ReflectionPad2DGrad': 'RuntimeError: The kernel ReflectionPad2DGrad unregistered.',
    'RepeatInterleaveGrad': 'RuntimeError: The kernel RepeatInterleaveGrad unregistered.',
    'TraceGrad': [[1.5, 0.0, 0.0], [0.0, 1.5, 0.0]],
    'FlattenGrad': [[[0.0, 1.0, 2.0]], [[3.0, 4.0, 5.0]]],
    'LayerNormGrad': ([[-0.15977466106414795, 0.9586459398269653, -0.7988715767860413], [0.11973631381988525, -0.1556571125984192, 0.03592085838317871]], [-4.27584981918335, -1.120958924293518, -1.6246716976165771], [4.0, -1.75, -1.0]),
    'BatchNormGrad': ([[[[-0.5450228452682495, 0.7637955546379089, 0.9521035552024841, -0.07041697949171066], [-1.280854344367981, -1.4835264682769775, -0.4092865288257599, 1.0370255708694458], [1.6084884405136108, 0.86251300573349, -0.43224313855171204, -1.0025759935379028]], [[-3.9966981410980225, 1.6576536893844604, 5.074012279510498, 3.2139639854431152], [-2.109801769256592, -5.900068283081055, -4.569511890411377, 0.7611295580863953], [5.293459892272949, 4.963045120239258, 0.1762380450963974, -4.5634236335754395]]]], [-2.576258659362793, -0.7977402210235596], [0.4111979007720947, 0.5686078071594238]),
    'BatchNormGrad_inference': ([[[[-1.3912166357040405, -1.2520949840545654, -1.1129733324050903, -0.9738516211509705], [-0.8347300291061401, -0.6956083178520203, -0.5564866065979004, -0.41736501455307007], [-0.2782433032989502, -0.13912169635295868, 0.0, 0.13912169635295868]], [[1.112973690032959, 1.6694598197937012, 2.2259466648101807, 2.78243350982666], [3.3389203548431396, 3.895407199859619, 4.451893329620361, 5.00838041305542], [5.56486701965332, 6.1213531494140625, 6.677840709686279, 7.2343268394470215]]]], [3.9788804054260254, 3.978879451751709], [-5.400000095367432, 9.0]),
    'MaxPoolGrad': [[[[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [0.5, 0.0, 0.0, 0.0]]]],
    'AvgPoolGrad': [[[[0.25, 0.25, -0.5, -0.5], [0.25, 0.25, -0.5, -0.5], [0.125, 0.125, 0.75, 0.75], [0.125, 0.125, 0.75, 0.75]]]],
    'AvgPoolGrad_same': [[[[0.1111111119389534, 0.1111111119389534, -0.222222238779068, -0.3333333432674408], [0.1111111119389534, 0.1111111119389534, -0.222222238779068, -0.3333333432674408], [0.1944444477558136, 0.1944444477558136, 0.6111111044883728, 0.4166666567325592], [0.0833333358168602, 0.0833333358168602, 0.8333333134651184, 0.75]]]],
    'AvgPool2DGrad': 'RuntimeError: The kernel AvgPool2DGrad unregistered.',
    'AdaptiveAvgPool2DGrad': [[[[0.25, 0.25, -0.5, -0.5], [0.375, 0.375, 0.25, 0.25], [0.125, 0.125, 0.75, 0.75]]]],
    'AdaptiveAvgPool2DGradExt': 'RuntimeError: The kernel AdaptiveAvgPool2DGradExt unregistered.',
    'Conv2DBackpropFilter': [[[[4.5, 27.0, 24.0], [2.75, -6.25, 17.75], [3.0, 10.5, -4.75]]]],
    'ResizeBilinearGrad': [[[[-2.8333332538604736, -2.3333332538604736, -2.1666665077209473], [-0.7291666865348816, -0.10416668653488159, 0.6666666269302368]], [[2.1666665077209473, 2.6666665077209473, 3.8333332538604736], [5.520833492279053, 6.145833492279053, 8.166666984558105]]]],
    'ResizeBilinearGrad_align': [[[[-3.2083332538604736, -2.5833334922790527, -1.9583333730697632], [-0.5416666865348816, 0.0833333283662796, 0.7083333730697632]], [[2.7916665077209473, 3.4166665077209473, 4.0416669845581055], [5.4583330154418945, 6.0833330154418945, 6.708333492279053]]]],
    'ResizeNearestNeighborGrad': [[[[-5.5, -2.0, -1.5], [0.25, 0.5, 0.75]], [[6.5, 4.0, 4.5], [6.25, 3.5, 3.75]]]],
    'UpsampleNearest1DGrad': [[[-3.5, -1.5, 0.0], [1.5, 3.5, 2.5]]],
    'UpsampleLinear1DGrad': 'RuntimeError: The kernel UpsampleLinear1DGrad unregistered.',
    'UpsampleNearest2DGrad': [[[[-5.5, -2.0, -1.5], [0.25, 0.5, 0.75]], [[6.5, 4.0, 4.5], [6.25, 3.5, 3.75]]]],
    'UpsampleBilinear2DGrad': 'RuntimeError: The kernel UpsampleBilinear2DGrad unregistered.',
    'GridSampler2DGrad': ([[[[0.1875, 0.1875, 0.0, 0.22750002145767212], [0.3125, 1.5874998569488525, 1.2749998569488525, 0.0], [0.0, 0.22500014305114746, -1.2150003910064697, -0.15999989211559296]]]], [[[[0.3999999761581421, 1.2000000476837158], [-0.6400002837181091, 6.059999942779541]], [[-0.39000004529953003, 0.3150000274181366], [1.200000286102295, 3.5999999046325684]]]]),
    'RmsNormGrad': 'RuntimeError: The kernel RmsNormGrad unregistered.',
    'AvgPool3DGradExt': 'RuntimeError: The kernel AvgPool3DGradExt unregistered.',
    'MaxPool3DGrad': [[[[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.5, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 3.0], [0.0, 0.0, 0.0, 0.0]]]]],
    'AvgPool3DGrad': [[[[[0.125, 0.125, -0.25, -0.25], [0.125, 0.125, -0.25, -0.25], [0.0625, 0.0625, 0.375, 0.375], [0.0625, 0.0625, 0.375, 0.375]], [[0.125, 0.125, -0.25, -0.25], [0.125, 0.125, -0.25, -0.25], [0.0625, 0.0625, 0.375, 0.375], [0.0625, 0.0625, 0.375, 0.375]]]]],
    'LRNGrad': [[[[1.4407283067703247, 0.5528330206871033], [-0.2290184497833252, -1.4867933988571167]], [[-0.6502715945243835, 0.20578205585479736], [1.2038592100143433, 0.8226560354232788]], [[-0.3207797408103943, -1.0415172576904297], [-1.1488367319107056, 0.22758737206459045]]]],
    'KLDivLossGrad': [[-0.05000000074505806, -0.07500000298023224, -0.125], [-0.15000000596046448, -0.02500000037252903, -0.07500000298023224]],
    'KLDivLossGrad_none': [[-0.20000000298023224, 0.6000000238418579, -0.25], [-1.8000000715255737, -0.02500000037252903, 0.45000001788139343]],
    'AdaptiveMaxPool2DGrad': [[[[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [0.5, 0.0, 0.0, 0.0]]]],
    'ROIAlignGrad': [[[[0.025429684668779373, 0.07710937410593033, -0.0680859237909317, -0.16570311784744263], [0.10898437350988388, 0.3304688036441803, -0.29179686307907104, -0.7101563215255737], [0.08416014909744263, 0.2551953196525574, 0.15263673663139343, 0.09863290190696716], [0.0720507800579071, 0.2184765636920929, 0.9041210412979126, 1.4084765911102295]]]],
    'ResizeNearestNeighborV2Grad': [[[[-5.5, -2.0, -1.5], [0.25, 0.5, 0.75]], [[6.5, 4.0, 4.5], [6.25, 3.5, 3.75]]]],
    'ResizeLinear1DGrad': [[[-2.75, -2.0, -0.25], [1.0, 3.0, 3.5]]],
    'ResizeLinear1DGrad_half_pixel': [[[-2.9000000953674316, -1.7999999523162842, -0.30000001192092896], [1.100000023841858, 2.6999998092651367, 3.6999998092651367]]],
    'SwigluGrad': 'RuntimeError: The kernel SwigluGrad unregistered.',
    'NLLLoss2dGrad': 'RuntimeError: The kernel NLLLoss2dGrad unregistered.',
    'EinsumGrad': 'RuntimeError: ',
}


@pytest.mark.parametrize("case", [case for case in CASES if not isinstance(MINDSPORE_VALUES[case], str)])
def test_mindspore_values(case):
    name, keywords, inputs = CASES[case]
    primitive = getattr(G, name)(**keywords)
    arguments = [Tensor(item) if isinstance(item, np.ndarray) else item for item in inputs]
    recorded = MINDSPORE_VALUES[case]
    for out in (primitive(*arguments), ms.jit(lambda *tensors: primitive(*tensors))(*arguments)):
        if isinstance(recorded, tuple):
            assert isinstance(out, tuple) and len(out) == len(recorded)
            for item, value in zip(out, recorded):
                check_value(item, (value, "Float32"))
        else:
            check_value(out, (recorded, "Float32"))


def test_relu6_gradient_at_its_kinks():
    # MindSpore differentiates ReLU6 by ReLU6Grad: 0 at x = 0 (npspore's clip passed 1 there), 1 at x = 6
    gradient = ms.grad(ops.relu6)(Tensor(KINKS))
    np.testing.assert_array_equal(gradient.asnumpy(), MINDSPORE_VALUES["ReLU6Grad_kinks"])


def _ones_between(low, high):
    """A float64 point of 2x3 values spread over ``[low, high]``, none at a kink of the ops below."""
    return np.linspace(low, high, 6).reshape(2, 3) + 0.013


def _row(name, forward, order, x, keywords=None, constants=(), part=None):
    """How to check primitive ``name`` against ``forward``: its inputs in MindSpore's order as letters of ``order``
    (``x`` the forward's input, ``y`` its output, ``d`` the output's gradient, ``c`` the next of ``constants``),
    its constructor ``keywords``, the point ``x`` (float64) and, for a tuple result, the ``part`` that is x's."""
    return name, forward, order, x, keywords or {}, constants, part


R = np.array([[0.8, -1.1, 0.3], [1.7, 0.4, -0.6]])                   # float64 constants of the checks
P64 = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])
X4_64 = np.arange(24.0).reshape(1, 2, 3, 4) / 10 - 1
REPEATS = np.array([1, 2, 3], np.int64)
LABELS = np.array([2, 0], np.int32)
CLASS_WEIGHTS = np.array([0.5, 1.0, 2.0])
LABELS_2D = np.array([[[1], [2]]], np.int64)

DERIVATIVES = {case: _row(*row[:4], *row[4:]) for case, row in {
    "SigmoidGrad": ("SigmoidGrad", ops.sigmoid, "yd", _ones_between(-3, 3)),
    "TanhGrad": ("TanhGrad", ops.tanh, "yd", _ones_between(-2, 2)),
    "SqrtGrad": ("SqrtGrad", ops.sqrt, "yd", _ones_between(0.2, 4)),
    "RsqrtGrad": ("RsqrtGrad", ops.rsqrt, "yd", _ones_between(0.2, 4)),
    "ReciprocalGrad": ("ReciprocalGrad", ops.reciprocal, "yd", _ones_between(0.2, 4)),
    "InvGrad": ("InvGrad", ops.inv, "yd", _ones_between(-4, -0.2)),
    "ReluGrad": ("ReluGrad", ops.relu, "dx", _ones_between(-2, 2)),
    "AcoshGrad": ("AcoshGrad", ops.acosh, "yd", _ones_between(1.2, 4)),
    "AsinhGrad": ("AsinhGrad", ops.asinh, "yd", _ones_between(-3, 3)),
    "EluGrad": ("EluGrad", ops.elu, "dy", _ones_between(-3, 3)),
    "SeluGrad": ("SeluGrad", ops.selu, "dy", _ones_between(-3, 3)),
    "AbsGrad": ("AbsGrad", ops.abs, "xd", _ones_between(-3, 3)),
    "ACosGrad": ("ACosGrad", ops.acos, "xd", _ones_between(-0.9, 0.9)),
    "AsinGrad": ("AsinGrad", ops.asin, "xd", _ones_between(-0.9, 0.9)),
    "AtanGrad": ("AtanGrad", ops.atan, "xd", _ones_between(-3, 3)),
    "ReLU6Grad": ("ReLU6Grad", ops.relu6, "dx", _ones_between(-2, 8)),
    "SoftplusGrad": ("SoftplusGrad", ops.softplus, "dx", _ones_between(-3, 3)),
    "FastGeLUGrad": ("FastGeLUGrad", ops.fast_gelu, "dx", _ones_between(-3, 3)),
    "HSigmoidGrad": ("HSigmoidGrad", ops.hardsigmoid, "dx", _ones_between(-4, 4)),
    "HSwishGrad": ("HSwishGrad", ops.hardswish, "dx", _ones_between(-4, 4)),
    "SiLUGrad": ("SiLUGrad", ops.silu, "dx", _ones_between(-3, 3)),
    "HShrinkGrad": ("HShrinkGrad", lambda x: ops.hardshrink(x, 1.2), "dx", _ones_between(-3, 3), {"lambd": 1.2}),
    "SoftShrinkGrad": ("SoftShrinkGrad", lambda x: ops.softshrink(x, 1.2), "dx", _ones_between(-3, 3),
                       {"lambd": 1.2}),
    "LogitGrad": ("LogitGrad", lambda x: ops.logit(x, 0.2), "dx", _ones_between(0.05, 0.95), {"eps": 0.2}),
    "GeLUGrad": ("GeLUGrad", lambda x: ops.gelu(x, "tanh"), "dxy", _ones_between(-3, 3)),
    "GeluGradExt": ("GeluGradExt", ops.gelu, "dx", _ones_between(-3, 3)),
    "GeluGradExt_tanh": ("GeluGradExt", lambda x: ops.gelu(x, "tanh"), "dxc", _ones_between(-3, 3), None, ("tanh",)),
    "PReLUGrad": ("PReLUGrad", lambda x: ops.prelu(x, Tensor(R[0])), "dxc", _ones_between(-3, 3), None,
                  (R[0],), 0),
    "MaskedSelectGrad": ("MaskedSelectGrad", lambda x: ops.masked_select(x, Tensor(MASK)), "xcd",
                         _ones_between(-3, 3), None, (MASK,)),
    "GatherDGradV2": ("GatherDGradV2", lambda x: ops.gather_d(x, 1, Tensor(INDEX)), "xccd", _ones_between(-3, 3),
                      None, (1, INDEX)),
    "HardtanhGrad": ("HardtanhGrad", lambda x: ops.clamp(x, -0.25, 2.0), "dxcc", _ones_between(-3, 3), None,
                     (-0.25, 2.0)),
    "LeakyReLUGradExt": ("LeakyReLUGradExt", lambda x: ops.leaky_relu(x, 0.2), "dxcc", _ones_between(-3, 3), None,
                         (0.2, False)),
    "EluGradExt": ("EluGradExt", lambda x: ops.elu(x, 0.5), "dxcc", _ones_between(-3, 3), None, (0.5, False)),
    "EluGradExt_result": ("EluGradExt", lambda x: ops.elu(x, 0.5), "dycc", _ones_between(-3, 3), None,
                          (0.5, True)),
    "SoftplusGradExt": ("SoftplusGradExt", lambda x: ops.softplus(x, 2, 3), "dxcc", _ones_between(-3, 3), None,
                        (2, 3)),
    "ThresholdGrad": ("ThresholdGrad", lambda x: ops.threshold(x, 0.25, 0.0), "dxc", _ones_between(-3, 3), None,
                      (0.25,)),
    "MishGradExt": ("MishGradExt", ops.mish, "dx", _ones_between(-3, 3)),
    "LogSigmoidGrad": ("LogSigmoidGrad", ops.logsigmoid, "dxy", _ones_between(-3, 3)),
    "SoftmaxGrad": ("SoftmaxGrad", ops.softmax, "yd", _ones_between(-3, 3)),
    "LogSoftmaxGrad": ("LogSoftmaxGrad", ops.log_softmax, "yd", _ones_between(-3, 3)),
    "LogSoftmaxGrad_axis0": ("LogSoftmaxGrad", lambda x: ops.log_softmax(x, 0), "yd", _ones_between(-3, 3),
                             {"axis": 0}),
    "MSELossGradExt": ("MSELossGradExt", lambda x: ops.mse_loss(x, Tensor(R)), "dxcc", _ones_between(-3, 3), None,
                       (R, "mean")),
    "KLDivGrad": ("KLDivGrad", lambda x: ops.kl_div(x, Tensor(P64), "sum"), "dxccc", _ones_between(-3, 3), None,
                  (P64, "sum", False)),
    "KLDivGrad_log_target": ("KLDivGrad", lambda x: ops.kl_div(x, Tensor(P64)), "dxccc", _ones_between(-3, 3),
                             None, (np.log(P64), "mean", True)),
    "SmoothL1LossGrad": ("SmoothL1LossGrad", lambda x: ops.smooth_l1_loss(x, Tensor(R), 0.5, "mean"), "xcd",
                         _ones_between(-3, 3), {"beta": 0.5, "reduction": "mean"}, (R,)),
    "SoftMarginLossGrad": ("SoftMarginLossGrad", lambda x: nn.SoftMarginLoss()(x, Tensor(np.sign(R))), "xcd",
                           _ones_between(-3, 3), None, (np.sign(R),)),
    "BinaryCrossEntropyGrad": ("BinaryCrossEntropyGrad",
                               lambda x: ops.binary_cross_entropy(x, Tensor(P64), Tensor(R)), "xcdc",
                               _ones_between(0.1, 0.9), None, (P64, R)),
    "SigmoidCrossEntropyWithLogitsGrad": (
        "SigmoidCrossEntropyWithLogitsGrad",
        lambda x: ops.binary_cross_entropy_with_logits(x, Tensor(P64), reduction="none"), "xcd",
        _ones_between(-3, 3), None, (P64,)),
    "NLLLossGrad": ("NLLLossGrad", lambda x: ops.nll_loss(x, Tensor(LABELS), Tensor(CLASS_WEIGHTS)), "xdccc",
                    _ones_between(-3, 3), None, (LABELS, CLASS_WEIGHTS, np.array(2.5))),
    "MaximumGrad": ("MaximumGrad", lambda x: ops.maximum(x, Tensor(R)), "xcd", _ones_between(-3, 3), None, (R,), 0),
    "MinimumGrad": ("MinimumGrad", lambda x: ops.minimum(x, Tensor(R)), "xcd", _ones_between(-3, 3), None, (R,), 0),
    "BiasAddGrad": ("BiasAddGrad", lambda b: ops.bias_add(Tensor(X4_64), b), "d", np.array([0.5, -0.25])),
    "BiasAddGrad_nhwc": ("BiasAddGrad", lambda b: ops.bias_add(Tensor(X4_64), b, "NHWC"), "d",
                         np.array([0.5, -0.25, 1.0, 2.0]), {"data_format": "NHWC"}),
    "DropoutGrad": ("DropoutGrad", lambda x: x * Tensor(KEEP.astype(np.float64)) / 0.8, "dc", _ones_between(-3, 3),
                    {"keep_prob": 0.8}, (KEEP,)),
    "DropoutGradExt": ("DropoutGradExt", lambda x: x * Tensor(MASK.astype(np.float64)) / 0.8, "dcc",
                       _ones_between(-3, 3), None, (MASK, 0.2)),
    "SliceGrad": ("SliceGrad", lambda x: ops.slice(x, (0, 1), (2, 2)), "dxcc", _ones_between(-3, 3), None,
                  ((0, 1), (2, 2))),
    "StridedSliceGrad": ("StridedSliceGrad", lambda x: ops.strided_slice(x, (1, 0), (2, 3), (1, 2), shrink_axis_mask=1),
                         "dcccc", _ones_between(-3, 3), {"shrink_axis_mask": 1}, ((2, 3), (1, 0), (2, 3), (1, 2))),
    "L2NormalizeGrad": ("L2NormalizeGrad", lambda x: ops.L2Normalize(axis=1)(x), "xyd", _ones_between(-3, 3),
                        {"axis": 1}),
    "GluGrad": ("GluGrad", lambda x: x[:, :1] * ops.sigmoid(x[:, 1:]), "dx", _ones_between(-3, 3)[:, :2],
                {"axis": 1}),
    "TraceGrad": ("TraceGrad", ops.trace, "dc", _ones_between(-3, 3), None, (np.array([2, 3], np.int64),)),
    "FlattenGrad": ("FlattenGrad", ops.flatten, "dc", _ones_between(-3, 3).reshape(2, 1, 3), None, ((2, 1, 3),)),
    "RepeatInterleaveGrad": ("RepeatInterleaveGrad", lambda x: ops.repeat_interleave(x, (1, 2, 3), 1), "dcc",
                             _ones_between(-3, 3), None, (REPEATS, 1)),
    "ReflectionPad1DGrad": ("ReflectionPad1DGrad", lambda x: ops.pad(x, (1, 2), "reflect"), "dxc",
                            _ones_between(-3, 3).reshape(1, 2, 3), None, ((1, 2),)),
    "ReflectionPad2DGrad": ("ReflectionPad2DGrad", lambda x: ops.pad(x, (1, 1, 0, 1), "reflect"), "dxc",
                            X4_64, None, ((1, 1, 0, 1),)),
    "ReflectionPad3DGrad": ("ReflectionPad3DGrad", lambda x: ops.pad(x, (1, 1, 0, 1, 1, 0), "reflect"), "dxc",
                            X4_64, None, ((1, 1, 0, 1, 1, 0),)),
    "LayerNormGrad": ("LayerNormGrad", lambda x: ops.LayerNorm(-1, -1)(x, Tensor(R[0]), Tensor(R[1]))[0], "xdccc",
                      _ones_between(-3, 3), {"begin_norm_axis": -1, "begin_params_axis": -1}, (R, R, R[0]), 0),
    "BatchNormGrad": ("BatchNormGrad", lambda x: _batch_norm_training(x), "dxcccc", X4_64, {"is_training": True},
                      (CHANNELS, X4_MEAN, X4_VAR, X4_VAR), 0),
    "BatchNormGrad_inference": (
        "BatchNormGrad", lambda x: ops.BatchNorm(False, 0.01)(x, *[Tensor(v.astype(np.float64)) for v in (
            CHANNELS, CHANNELS, X4_MEAN, X4_VAR)])[0], "dxcccc", X4_64, {"is_training": False, "epsilon": 0.01},
        (CHANNELS, X4_MEAN, X4_VAR, X4_VAR), 0),
    "MaxPoolGrad": ("MaxPoolGrad", lambda x: ops.MaxPool(2, 2)(x), "xyd", X_POOL.astype(np.float64),
                    {"kernel_size": 2, "strides": 2}),
    "AvgPoolGrad": ("AvgPoolGrad", lambda x: ops.AvgPool(3, 2, "SAME")(x), "xyd", X_POOL.astype(np.float64),
                    {"kernel_size": 3, "strides": 2, "pad_mode": "SAME"}),
    "AvgPool2DGrad": ("AvgPool2DGrad", lambda x: ops.avg_pool2d(x, 2, 1, 1, False, False), "dxccccc",
                      X_POOL.astype(np.float64), None, (2, 1, 1, False, False)),
    "AdaptiveAvgPool2DGrad": ("AdaptiveAvgPool2DGrad", lambda x: ops.adaptive_avg_pool2d(x, (2, 2)), "dc",
                              X_POOL[:, :, :3].astype(np.float64), None, (np.array([1, 1, 3, 4], np.int64),)),
    "AdaptiveAvgPool2DGradExt": ("AdaptiveAvgPool2DGradExt", lambda x: ops.adaptive_avg_pool2d(x, (2, 3)), "dx",
                                 X_POOL.astype(np.float64)),
    "Conv2DBackpropFilter": ("Conv2DBackpropFilter", lambda w: ops.Conv2D(1, 2, stride=2, pad_mode="pad", pad=1)(
        Tensor(X_POOL.astype(np.float64)), w), "dcc", _ones_between(-1, 1)[:, :2].reshape(1, 1, 2, 2),
        {"out_channel": 1, "kernel_size": 2, "stride": 2, "pad_mode": "pad", "pad": 1}, (X_POOL, (1, 1, 2, 2))),
    "ResizeBilinearGrad": ("ResizeBilinearGrad", lambda x: ops.ResizeBilinearV2(True)(x, (3, 4)), "dx",
                           X4_64[:, :, :2, :3], {"align_corners": True}),
    "ResizeNearestNeighborGrad": ("ResizeNearestNeighborGrad", lambda x: ops.ResizeNearestNeighbor((3, 4))(x), "dc",
                                  X4_64[:, :, :2, :3], None, ((2, 3),)),
    "UpsampleNearest1DGrad": ("UpsampleNearest1DGrad", lambda x: ops.interpolate(x, (5,)), "dcc",
                              X4_64[0, :, 0, :3][None], None, ((1, 2, 3), (5,))),
    "UpsampleNearest2DGrad": ("UpsampleNearest2DGrad", lambda x: ops.interpolate(x, (3, 4)), "dcc",
                              X4_64[:, :, :2, :3], None, ((1, 2, 2, 3), (3, 4))),
    "UpsampleLinear1DGrad": ("UpsampleLinear1DGrad", lambda x: ops.interpolate(x, (5,), mode="linear",
                                                                                align_corners=True), "dcccc",
                             X4_64[0, :, 0, :3][None], None, ((1, 2, 3), (5,), None, True)),
    "UpsampleBilinear2DGrad": ("UpsampleBilinear2DGrad", lambda x: ops.interpolate(x, (3, 4), mode="bilinear",
                                                                                    align_corners=False), "dcccc",
                               X4_64[:, :, :2, :3], None, ((1, 2, 2, 3), (3, 4), None, False)),
    "GridSampler2DGrad": ("GridSampler2DGrad", lambda x: ops.grid_sample(x, Tensor(GRID.astype(np.float64))), "dxc",
                          X_SAMPLE.astype(np.float64), None, (GRID,), 0),
    "RmsNormGrad": ("RmsNormGrad", lambda x: ops.rms_norm(x, Tensor(R[0]))[0], "dxcc", _ones_between(-3, 3), None,
                    (R, R[0]), 0),
    "MaxPool3DGrad": ("MaxPool3DGrad", lambda x: ops.MaxPool3D(2, 2)(x), "xyd", X5.astype(np.float64),
                      {"kernel_size": 2, "strides": 2}),
    "AvgPool3DGrad": ("AvgPool3DGrad", lambda x: ops.AvgPool3D(2, 1)(x), "cd", X5.astype(np.float64),
                      {"kernel_size": 2, "strides": 1}, (np.array([1, 1, 2, 4, 4], np.int64),)),
    "AvgPool3DGradExt": ("AvgPool3DGradExt", lambda x: ops.avg_pool3d(x, 2, 2), "dxcc", X5.astype(np.float64), None,
                         (2, 2)),
    "LRNGrad": ("LRNGrad", lambda x: ops.LRN(1, 0.5, 0.2, 0.75)(x), "dxy", X_LRN.astype(np.float64),
                {"depth_radius": 1, "bias": 0.5, "alpha": 0.2, "beta": 0.75}),
    "KLDivLossGrad": ("KLDivLossGrad", lambda x: ops.kl_div(x, Tensor(P64), "batchmean"), "dxc",
                      _ones_between(-3, 3), {"reduction": "batchmean"}, (P64,)),
    "AdaptiveMaxPool2DGrad": ("AdaptiveMaxPool2DGrad", lambda x: ops.adaptive_max_pool2d(x, (2, 2)), "dxc",
                              X_POOL.astype(np.float64), None, (np.array([[[[1, 6], [12, 11]]]], np.int64),)),
    "ResizeNearestNeighborV2Grad": ("ResizeNearestNeighborV2Grad", lambda x: ops.ResizeNearestNeighbor((3, 4))(x),
                                    "dc", X4_64[:, :, :2, :3], None, ((2, 3),)),
    "ResizeLinear1DGrad": ("ResizeLinear1DGrad", lambda x: ops.interpolate(x, (5,), mode="linear",
                                                                            align_corners=False), "dx",
                           X4_64[0, :, 0, :3][None], {"coordinate_transformation_mode": "half_pixel"}),
    "SwigluGrad": ("SwigluGrad", lambda x: ops.silu(x[:, :2]) * x[:, 2:], "dx", np.linspace(-3, 3, 8).reshape(2, 4) + 0.013),
    "NLLLoss2dGrad": ("NLLLoss2dGrad", lambda x: ops.nll_loss(x, Tensor(LABELS_2D), Tensor(CLASS_WEIGHTS)), "dxcccc",
                      _ones_between(-3, 3).reshape(1, 3, 2, 1), None, (LABELS_2D, CLASS_WEIGHTS, "mean", -100)),
}.items()}


def test_einsum_grad_is_the_einsums_derivative():
    # MindSpore 2.10 CPU has no EinsumGrad kernel: each operand's gradient against central differences
    a, b = _ones_between(-3, 3), _ones_between(-1, 2).reshape(3, 2)
    dout = np.cos(np.arange(4.0)).reshape(2, 2)
    da, db = G.EinsumGrad("ij,jk->ik")((Tensor(a), Tensor(b)), Tensor(dout))
    np.testing.assert_allclose(da.asnumpy(), _vjp_by_differences(lambda x: ops.einsum("ij,jk->ik", x, Tensor(b)),
                                                                 a, dout), rtol=1e-6)
    np.testing.assert_allclose(db.asnumpy(), _vjp_by_differences(lambda x: ops.einsum("ij,jk->ik", Tensor(a), x),
                                                                 b, dout), rtol=1e-6)


def _batch_norm_training(x):
    """``BatchNorm(is_training=True)``'s output, by the batch's statistics of ``x`` over N, H, W."""
    mean = x.mean((0, 2, 3), keep_dims=True)
    variance = ((x - mean) ** 2).mean((0, 2, 3), keep_dims=True)
    scale = Tensor(CHANNELS.astype(np.float64)).reshape(1, 2, 1, 1)
    return (x - mean) / ops.sqrt(variance + 1e-5) * scale


def _vjp_by_differences(forward, x, dout, step=1e-6):
    """``dout``'s vector-Jacobian product with ``forward`` at ``x``, by central differences in float64."""
    gradient = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        shift = np.zeros_like(x)
        shift[index] = step
        ahead = forward(Tensor(x + shift)).asnumpy()
        behind = forward(Tensor(x - shift)).asnumpy()
        gradient[index] = np.sum(dout * (ahead - behind)) / (2 * step)
    return gradient


def _argument(value):
    if isinstance(value, np.ndarray):
        return Tensor(value.astype(np.float64) if value.dtype == np.float32 else value)
    return value


def _inputs(forward, order, x, constants):
    """The primitive's inputs at ``x`` (float64) and the output's gradient ``dout`` they hold."""
    y = forward(Tensor(x)).asnumpy()
    dout = np.asarray(1.5 * np.cos(1.3 * np.arange(y.size))).reshape(y.shape)
    values = {"x": x, "y": y, "d": dout}
    remaining = iter(constants)
    return [_argument(next(remaining) if kind == "c" else values[kind]) for kind in order], dout


def check_derivative(row):
    """The primitive of ``row`` (a :func:`_row`) is its forward's vjp: central differences in float64."""
    name, forward, order, x, keywords, constants, part = row
    inputs, dout = _inputs(forward, order, x, constants)
    out = getattr(G, name)(**keywords)(*inputs)
    out = out if part is None else out[part]
    assert out.dtype == ms.float64
    np.testing.assert_allclose(out.asnumpy(), _vjp_by_differences(forward, x, dout), rtol=1e-6, atol=1e-8)


def check_own_gradient(row):
    """The primitive of ``row`` (a :func:`_row`) has a gradient that matches finite differences."""
    name, forward, order, x, keywords, constants, part = row
    primitive = getattr(G, name)(**keywords)
    inputs, _ = _inputs(forward, order, x, constants)
    check_grads(lambda *arguments: primitive(*arguments), inputs, order=1)


@pytest.mark.parametrize("case", sorted(DERIVATIVES))
def test_is_the_forward_ops_derivative(case):
    check_derivative(DERIVATIVES[case])


@pytest.mark.parametrize("case", sorted(DERIVATIVES))
def test_own_gradient(case):
    check_own_gradient(DERIVATIVES[case])


# printed by tools/observe_mindspore_grad_primitives.py (MindSpore 2.10.0 CPU): (output, the Parameter after)
OPTIMIZER_VALUES = {
    'ApplyGradientDescent': ([[0.949999988079071, -2.0999999046325684], [0.6000000238418579, 0.029999999329447746]], [[0.949999988079071, -2.0999999046325684], [0.6000000238418579, 0.029999999329447746]]),
    'ApplyProximalGradientDescent': ([[0.8823529481887817, -2.0098040103912354], [0.5392156839370728, 0.0]], [[0.8823529481887817, -2.0098040103912354], [0.5392156839370728, 0.0]]),
    'ApplyProximalGradientDescent_l1_zero': ([[0.9313725829124451, -2.058823585510254], [0.5882353186607361, 0.029411764815449715]], [[0.9313725829124451, -2.058823585510254], [0.5882353186607361, 0.029411764815449715]]),
}


class _Step(nn.Cell):
    def __init__(self, name):
        super().__init__()
        self.step = getattr(P, name)()
        self.var = ms.Parameter(Tensor(VAR), name="var")

    def construct(self, *inputs):
        return self.step(self.var, *inputs)


@pytest.mark.parametrize("case", sorted(OPTIMIZER_CASES))
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_gradient_descent_primitives(case, mode):
    name, scalars = OPTIMIZER_CASES[case]
    ms.set_context(mode=mode)
    try:
        net = _Step(name)
        out = net(*[Tensor(value, ms.float32) for value in scalars], Tensor(DELTA))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    output, updated = OPTIMIZER_VALUES[case]
    check_value(out, (output, "Float32"))
    check_value(net.var, (updated, "Float32"))


def test_paths_and_names():
    from npspore.ops.auto_generate import gen_ops_prim
    assert gen_ops_prim.SigmoidGrad is G.SigmoidGrad and gen_ops_prim.MatMul is P.MatMul
    assert repr(G.HShrinkGrad(lambd=1.0)) == "Prim[HShrinkGrad]<lambd=1.0>"
    with pytest.raises(AttributeError, match="'mindspore.ops.operations.ReluGrad' is not implemented"):
        P.ReluGrad  # noqa: B018 (MindSpore keeps the gradient primitives out of ops.operations)
    with pytest.raises(AttributeError, match="InvGrad"):
        gen_ops_prim.InvGrad  # noqa: B018 (only _grad_ops has InvGrad in MindSpore 2.10)
    with pytest.raises(TypeError, match="lambd"):
        G.SoftShrinkGrad(lambd=1)
