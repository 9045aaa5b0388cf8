"""``mindspore.ops.auto_generate.gen_ops_prim``'s generated primitives (``AcosExt``, ``AddExt``, ``Inplace*``,
``Clamp*``, ``Bitwise*``, ``Conv*Ext``, ``Upsample*``, ``Split*`` ...): one factory over npspore's functional ops,
with MindSpore's call signatures, eagerly and compiled.

``RECORDED`` are MindSpore 2.10 CPU's outputs ``(dtype, values)`` (a list of them for a tuple) for the cases of
``tests/gen_ops_prim_cases.py``, printed by ``tools/observe_mindspore_gen_ops_prim.py``. MindSpore 2.10's CPU has no
kernel for most of these primitives (they are Ascend's ``pyboost`` kernels): for the keys of ``FROM_REFERENCE`` the
value is that of the case's reference, the CPU function MindSpore documents the primitive as (``ops.acos`` for
``AcosExt``, the out-of-place op for an in-place one, whose first input then holds the same value).

The collective primitives (``InnerComm*``, ``DistComm*``) run in a group of one here and across two MPI ranks in
``tests/mpi_programs/gen_comm_prims.py``.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from gen_ops_prim_cases import CASES, arrays
from npspore import Tensor, mint
from npspore.communication import GlobalComm
from npspore.ops import gen_ops_prim as generated
from npspore.ops.auto_generate import gen_ops_prim as G
from npspore.testing import check_grads
from test_data_parallel import launch

RECORDED = {
    'AcosExt': ('Float32', [0.7377259731292725, 1.5307856798171997, 1.2661036252975464, 0.9764105081558228]),
    'AcoshExt': ('Float32', [0.0, 0.9624236226081848, 1.7627471685409546, 5.29829216003418]),
    'AsinExt': ('Float32', [0.8330703973770142, 0.04001067206263542, 0.30469265580177307, 0.5943858027458191]),
    'AsinhExt': ('Float32',
                 [[0.8813735842704773, -1.4436354637145996, 1.8184465169906616],
                  [0.4812118113040924, 2.094712495803833, -0.8813735842704773]]),
    'AtanExt': ('Float32',
                [[0.7853981852531433, -1.1071487665176392, 1.249045729637146],
                 [0.46364760398864746, 1.3258177042007446, -0.7853981852531433]]),
    'Atan2Ext': ('Float32',
                 [[0.46364760398864746, -1.3258177042007446, 2.0344438552856445],
                  [2.9764440059661865, 1.3258177042007446, -0.38050636649131775]]),
    'AddExt': ('Float32', [[5.0, -1.0, 0.0], [-5.5, 6.0, 4.0]]),
    'AddExt_int_keyword': ('Int32', [[-1, -18, -4], [16, 15, -3]]),
    'AddScalar': ('Float32', [[4.0, 1.0, 6.0], [3.5, 7.0, 2.0]]),
    'SubExt': ('Float32', [[0.0, -2.25, 3.75], [2.0, 3.5, -2.25]]),
    'SubScalar': ('Int32', [[-13, -12, -1], [1, -6, -3]]),
    'Muls': ('Float32', [[-2.5, 5.0, -7.5], [-1.25, -10.0, 2.5]]),
    'Divs': ('Float32', [[-1.75, -1.5, 1.25], [1.75, 0.0, 0.75]]),
    'DivMod_floor': ('Int32', [[-4, 1, -2], [2, 0, -2]]),
    'DivMod_trunc': ('Float32', [[0.0, -4.0, -2.0], [-0.0, 4.0, -0.0]]),
    'DivMods': ('Float32', [[0.0, -1.0, 1.0], [0.0, 1.0, -1.0]]),
    'FloorDivScalar': ('Int32', [[-2, -2, 1], [1, 0, 0]]),
    'FmodScalar': ('Float32', [[1.0, -0.5, 0.0], [0.5, 1.0, -1.0]]),
    'FmodTensor': ('Int32', [[-1, -2, 2], [1, 0, 1]]),
    'RemainderScalarTensor': ('Float32', [[1.0, 0.0, -1.0], [-1.0, 0.0, 0.0]]),
    'RemainderTensorScalar': ('Int32', [[2, 0, 2], [1, 0, 0]]),
    'RemainderTensorTensor': ('Float32', [[1.0, 0.0, 0.0], [-2.5, 0.0, 1.5]]),
    'PowScalarTensor': ('Float32', [[2.0, 0.25, 8.0], [1.4142135381698608, 16.0, 0.5]]),
    'PowTensorScalar': ('Float32', [[1.0, -8.0, 27.0], [0.125, 64.0, -1.0]]),
    'XLogYScalarOther': ('Float32',
                         [[0.3465735912322998, 0.6931471824645996, 1.3862943649291992],
                          [2.079441547393799, 2.7725887298583984, 0.1732867956161499]]),
    'XLogYScalarSelf': ('Float32',
                        [[-2.079441547393799, 0.0, 2.079441547393799],
                         [3.295836925506592, 4.158883094787598, -4.158883094787598]]),
    'LogAddExp2': ('Float32',
                   [[2.5849626064300537, 0.7348405122756958, 3.062390089035034],
                    [0.6221933960914612, 4.169925212860107, 2.6221933364868164]]),
    'AddcdivExt': ('Float32', [[3.0, -1.75, 2.625], [0.0, 4.125, 4.0]]),
    'AddcmulExt': ('Float32', [[3.0, -1.0, -3.0], [-17.5, 12.0, 0.25]]),
    'ClampScalar': ('Float32', [[1.0, -1.0, 2.0], [0.5, 2.0, -1.0]]),
    'ClampScalar_max_only': ('Int32', [[-7, -6, 1], [1, 0, 1]]),
    'ClampTensor': ('Float32', [[0.5, 0.5, 2.0], [0.5, 4.0, 0.25]]),
    'GreaterEqualScalar': ('Bool', [[True, False, True], [True, True, False]]),
    'IsNegInf': ('Bool', [[False, False, False], [False, False, False]]),
    'BitwiseAndScalar': ('Int16', [0, 0, 6, 4, 4]),
    'BitwiseAndTensor': ('Int16', [0, 1, 4, -3, 8]),
    'BitwiseOrScalar': ('Int16', [5, 5, 7, -3, 13]),
    'BitwiseOrTensor': ('Int16', [3, 1, 7, -1, 14]),
    'BitwiseXorScalar': ('Int16', [3, 2, 5, -2, 15]),
    'BitwiseXorTensor': ('Int16', [3, 0, 3, 2, 6]),
    'BitwiseNot': ('Int16', [-1, -2, -7, 2, -13]),
    'BitwiseNot_bool': ('Bool', [False, True, False]),
    'SelectV2': ('Float32', [[1.0, 0.5, 3.0], [-3.0, 1.0, -1.0]]),
    'Addbmm': ('Float32', [[19.33333396911621, 22.83333396911621], [24.583332061767578, 32.833335876464844]]),
    'Dot': ('Float32', 4.3125),
    'Mm': ('Float32', [[0.6666667461395264, 1.3333332538604736], [-2.1666665077209473, -0.9999999403953552]]),
    'TraceExt': ('Float32', 5.0),
    'MatrixInverseExt': ('Float32',
                         [[0.5454545617103577, -0.1818181872367859], [-0.09090909361839294, 0.3636363744735718]]),
    'TExt': ('Float32', [[1.0, 0.5], [-2.0, 4.0], [3.0, -1.0]]),
    'CountNonZero': ('Int32', [3, 2]),
    'CountNonZero_all': ('Int32', 6),
    'CumminExt': [('Float32', [[3.0, 1.0, 1.0, 1.0], [4.0, -1.0, -1.0, -1.0]]),
                  ('Int32', [[0, 1, 1, 1], [0, 1, 1, 1]])],
    'CumsumExt': ('Float32', [[1.0, -2.0, 3.0], [1.5, 2.0, 2.0]]),
    'CumsumExt_dtype': ('Float32', [[-7.0, -13.0, -8.0], [7.0, 7.0, 10.0]]),
    'ArgSort': ('Int32', [[3, 0, 2, 1], [0, 3, 2, 1]]),
    'SortExt': [('Float32', [[4.0, 1.0, 2.0, 5.0], [3.0, -1.0, 0.0, 2.0]]), ('Int32', [[1, 0, 0, 0], [0, 1, 1, 1]])],
    'TopkExt': [('Float32', [[5.0, 3.0], [4.0, 2.0]]), ('Int32', [[3, 0], [0, 3]])],
    'TopkExt_smallest': [('Float32', [[3.0, -1.0, 0.0, 2.0]]), ('Int32', [[0, 1, 1, 1]])],
    'Kthvalue': [('Float32', [2.0, 0.0]), ('Int32', [2, 2])],
    'Kthvalue_keepdim': [('Float32', [[3.0, -1.0, 0.0, 2.0]]), ('Int32', [[0, 1, 1, 1]])],
    'MedianDim': [('Float32', [2.0, 0.0]), ('Int64', [2, 2])],
    'MedianExt': ('Float32', 2.0),
    'Max': ('Float32', 4.0),
    'Min': ('Int32', -7),
    'StdMean': [('Float32', [1.7078251838684082, 2.217355728149414]), ('Float32', [2.75, 1.25])],
    'VarMean': [('Float32', [[0.25, 1.0, 1.0, 2.25]]), ('Float32', [[3.5, 0.0, 1.0, 3.5]])],
    'HistcExt': ('Float32', [2.0, 1.0, 1.0, 2.0]),
    'NonZeroExt': ('Int64', [[0, 0], [0, 1], [0, 2], [1, 0], [1, 2]]),
    'Arange': ('Int64', [1, 3, 5]),
    'Arange_float': ('Float32', [0.5, 1.0, 1.5]),
    'LinSpaceExt': ('Float32', [-1.0, -0.25, 0.5, 1.25, 2.0]),
    'FillScalar': ('Float32', [[2.5, 2.5, 2.5], [2.5, 2.5, 2.5]]),
    'FillTensor': ('Int32', [[1, 1], [1, 1]]),
    'FullLike': ('Float32', [[7.0, 7.0, 7.0], [7.0, 7.0, 7.0]]),
    'OnesLikeExt': ('Int32', [[1, 1, 1], [1, 1, 1]]),
    'ZerosLikeExt': ('Int32', [[0, 0, 0], [0, 0, 0]]),
    'NewOnes': ('Int32', [[1, 1], [1, 1]]),
    'NewZeros': ('Float32', [0.0, 0.0, 0.0]),
    'DiagExt': ('Float32', [[0.0, 0.25, 0.0, 0.0], [0.0, 0.0, -0.5, 0.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0]]),
    'TrilExt': ('Float32', [[0.0, 0.0, 0.0, 0.0], [4.0, 0.0, 0.0, 0.0]]),
    'Clone': ('Float32', [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]),
    'Contiguous': ('Float32', [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]),
    'Copy': ('Int32', [[-7, -6, 5], [7, 0, 3]]),
    'StackExt': ('Float32', [[[1.0, -2.0, 3.0], [2.0, 0.5, -1.5]], [[0.5, 4.0, -1.0], [-3.0, 1.0, 2.5]]]),
    'StackExt_default': ('Float32', [[0.25, -0.5, 2.0], [0.25, -0.5, 2.0]]),
    'BroadcastToView': ('Float32', [[0.25, -0.5, 2.0], [0.25, -0.5, 2.0]]),
    'ExpandAs': ('Float32', [[0.25, -0.5, 2.0], [0.25, -0.5, 2.0]]),
    'ExpandDimsView': ('Float32', [[[1.0, -2.0, 3.0]], [[0.5, 4.0, -1.0]]]),
    'ViewAs': ('Float32', [[1.0, -2.0], [3.0, 0.5], [4.0, -1.0]]),
    'FlattenExt': ('Float32',
                   [[0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75,
                     1.875, 2.0, 2.125, 2.25, 2.375, 2.5, 2.625, 2.75, 2.875, 3.0, 3.125, 3.25, 3.375, 3.5, 3.625,
                     3.75, 3.875]]),
    'Chunk': [('Float32', [[3.0, 1.0], [4.0, -1.0]]), ('Float32', [[2.0, 5.0], [0.0, 2.0]])],
    'ChunkView': [('Float32', [[1.0, -2.0, 3.0]]), ('Float32', [[0.5, 4.0, -1.0]])],
    'Narrow': ('Float32', [[1.0, 2.0], [-1.0, 0.0]]),
    'NarrowView': ('Float32', [[0.5, 4.0, -1.0]]),
    'SelectExtView': ('Float32', [3.0, -1.0]),
    'SliceExt': ('Float32', [[1.0, 3.0], [0.5, -1.0]]),
    'SliceExtView': ('Float32', [[1.0, 5.0], [-1.0, 2.0]]),
    'SplitTensor': [('Float32', [[3.0, 1.0, 2.0], [4.0, -1.0, 0.0]]), ('Float32', [[5.0], [2.0]])],
    'SplitTensorView': [('Float32', [[1.0, -2.0, 3.0]]), ('Float32', [[0.5, 4.0, -1.0]])],
    'SplitWithSize': [('Float32', [[3.0], [4.0]]), ('Float32', [[1.0, 2.0, 5.0], [-1.0, 0.0, 2.0]])],
    'SplitWithSizeView': [('Float32', [[1.0, -2.0], [0.5, 4.0]]), ('Float32', [[3.0], [-1.0]])],
    'UnstackExtView': [('Float32', [1.0, 0.5]), ('Float32', [-2.0, 4.0]), ('Float32', [3.0, -1.0])],
    'Repeat': ('Float32',
               [[[1.0, -2.0, 3.0, 1.0, -2.0, 3.0], [0.5, 4.0, -1.0, 0.5, 4.0, -1.0]],
                [[1.0, -2.0, 3.0, 1.0, -2.0, 3.0], [0.5, 4.0, -1.0, 0.5, 4.0, -1.0]]]),
    'RepeatInterleaveInt': ('Float32', [[1.0, 1.0, -2.0, -2.0, 3.0, 3.0], [0.5, 0.5, 4.0, 4.0, -1.0, -1.0]]),
    'RepeatInterleaveTensor': ('Float32', [[1.0, -2.0, 3.0], [1.0, -2.0, 3.0]]),
    'IndexSelect': ('Float32', [[3.0, 1.0], [-1.0, 0.5]]),
    'IndexAddExt': ('Float32', [[2.0, -2.0, 7.0], [2.5, 4.0, -7.0]]),
    'IndexFillScalar': ('Float32', [[-9.0, -2.0, -9.0], [-9.0, 4.0, -9.0]]),
    'IndexFillTensor': ('Float32', [[0.25, 0.25, 0.25], [0.5, 4.0, -1.0]]),
    'Take': ('Float32', [[1.0, 3.0, -2.0], [3.0, -2.0, 1.0]]),
    'Index': ('Float32', [[1.0, -2.0, 3.0]]),
    'InnerIndex': ('Float32', [3.0, 1.0]),
    'Scatter': ('Float32', [[2.0, -1.5, 0.5], [2.5, 1.0, -3.0]]),
    'ScatterValue': ('Float32', [[5.0, 5.0, 5.0], [5.0, 5.0, 5.0]]),
    'ScatterAddExt': ('Float32', [[-2.0, -1.5, 5.5], [2.5, 5.0, -2.5]]),
    'GeluExt': ('Float32',
                [[0.8413447141647339, -0.04550027847290039, 2.995950222015381],
                 [0.3457312285900116, 3.999873161315918, -0.15865525603294373]]),
    'GeluExt_tanh': ('Float32',
                     [[0.8411920070648193, -0.04540228843688965, 2.9963626861572266],
                      [0.3457140028476715, 3.999929904937744, -0.15880799293518066]]),
    'LeakyReLUExt': ('Float32', [[1.0, -0.4000000059604645, 3.0], [0.5, 4.0, -0.20000000298023224]]),
    'MishExt': ('Float32',
                [[0.865098237991333, -0.25250133872032166, 2.98653507232666],
                 [0.37524521350860596, 3.997412919998169, -0.30340102314949036]]),
    'SeLUExt': ('Float32',
                [[1.0507010221481323, -1.5201665163040161, 3.1521029472351074],
                 [0.5253505110740662, 4.202804088592529, -1.1113307476043701]]),
    'SoftplusExt': ('Float32',
                    [[1.0634640455245972, 0.009074964560568333, 3.0], [0.6566308736801147, 4.0, 0.06346400082111359]]),
    'Hardtanh': ('Float32', [[1.0, -1.0, 1.0], [0.5, 1.0, -1.0]]),
    'Hardtanh_bounds': ('Float32', [[1.0, -0.5, 2.0], [0.5, 2.0, -0.5]]),
    'Threshold': ('Float32', [[1.0, -1.0, 3.0], [-1.0, 4.0, -1.0]]),
    'Swiglu': ('Float32', [[5.715444564819336, 3.655294418334961], [0.0, -0.5378831028938293]]),
    'KLDiv': ('Float32', -3.47693762670076e-09),
    'KLDiv_log_target': ('Float32', 0.8756569027900696),
    'L1LossExt': ('Float32', 3.0),
    'MSELossExt': ('Float32', [[1.0, 6.25, 20.25], [12.25, 9.0, 12.25]]),
    'ConstantPadND': ('Float32', [[9.0, 1.0, -2.0, 3.0], [9.0, 0.5, 4.0, -1.0], [9.0, 9.0, 9.0, 9.0]]),
    'ReflectionPad1D': ('Float32',
                        [[[-0.3333333134651184, -0.6666666269302368, -1.0, -0.6666666269302368, -0.3333333134651184,
                           0.0, 0.3333333730697632, 0.6666666269302368, 0.3333333730697632],
                          [1.6666667461395264, 1.3333332538604736, 1.0, 1.3333332538604736, 1.6666667461395264, 2.0,
                           2.3333332538604736, 2.6666667461395264, 2.3333332538604736]]]),
    'ReflectionPad2D': ('Float32',
                        [[[[1.125, 1.0, 1.125, 1.25, 1.375, 1.25], [0.625, 0.5, 0.625, 0.75, 0.875, 0.75],
                           [0.125, 0.0, 0.125, 0.25, 0.375, 0.25], [0.625, 0.5, 0.625, 0.75, 0.875, 0.75],
                           [1.125, 1.0, 1.125, 1.25, 1.375, 1.25], [1.625, 1.5, 1.625, 1.75, 1.875, 1.75]],
                          [[3.125, 3.0, 3.125, 3.25, 3.375, 3.25], [2.625, 2.5, 2.625, 2.75, 2.875, 2.75],
                           [2.125, 2.0, 2.125, 2.25, 2.375, 2.25], [2.625, 2.5, 2.625, 2.75, 2.875, 2.75],
                           [3.125, 3.0, 3.125, 3.25, 3.375, 3.25], [3.625, 3.5, 3.625, 3.75, 3.875, 3.75]]]]),
    'ReflectionPad3D': ('Float32',
                        [[[[3.25, 3.0, 3.25, 3.5, 3.75], [2.25, 2.0, 2.25, 2.5, 2.75], [3.25, 3.0, 3.25, 3.5, 3.75]],
                          [[1.25, 1.0, 1.25, 1.5, 1.75], [0.25, 0.0, 0.25, 0.5, 0.75], [1.25, 1.0, 1.25, 1.5, 1.75]],
                          [[3.25, 3.0, 3.25, 3.5, 3.75], [2.25, 2.0, 2.25, 2.5, 2.75], [3.25, 3.0, 3.25, 3.5, 3.75]],
                          [[1.25, 1.0, 1.25, 1.5, 1.75], [0.25, 0.0, 0.25, 0.5, 0.75],
                           [1.25, 1.0, 1.25, 1.5, 1.75]]]]),
    'ReplicationPad1D': ('Float32',
                         [[[-1.0, -1.0, -0.6666666269302368, -0.3333333134651184, 0.0, 0.3333333730697632,
                            0.6666666269302368, 0.6666666269302368, 0.6666666269302368],
                           [1.0, 1.0, 1.3333332538604736, 1.6666667461395264, 2.0, 2.3333332538604736,
                            2.6666667461395264, 2.6666667461395264, 2.6666667461395264]]]),
    'ReplicationPad2D': ('Float32',
                         [[[[0.0, 0.125, 0.25, 0.375, 0.375], [0.0, 0.125, 0.25, 0.375, 0.375],
                            [0.5, 0.625, 0.75, 0.875, 0.875], [1.0, 1.125, 1.25, 1.375, 1.375],
                            [1.5, 1.625, 1.75, 1.875, 1.875]],
                           [[2.0, 2.125, 2.25, 2.375, 2.375], [2.0, 2.125, 2.25, 2.375, 2.375],
                            [2.5, 2.625, 2.75, 2.875, 2.875], [3.0, 3.125, 3.25, 3.375, 3.375],
                            [3.5, 3.625, 3.75, 3.875, 3.875]]]]),
    'ReplicationPad3D': ('Float32',
                         [[[[[0.0, 0.25, 0.5, 0.75, 0.75], [0.0, 0.25, 0.5, 0.75, 0.75], [1.0, 1.25, 1.5, 1.75, 1.75]],
                            [[0.0, 0.25, 0.5, 0.75, 0.75], [0.0, 0.25, 0.5, 0.75, 0.75], [1.0, 1.25, 1.5, 1.75, 1.75]],
                            [[2.0, 2.25, 2.5, 2.75, 2.75], [2.0, 2.25, 2.5, 2.75, 2.75],
                             [3.0, 3.25, 3.5, 3.75, 3.75]]]]]),
    'Conv1DExt': ('Float32',
                  [[[0.25, -1.5, -1.249999761581421, -1.0, -0.75, -0.4999998211860657, -1.5],
                    [-2.5, -1.1666665077209473, -0.5000002384185791, 0.16666674613952637, 0.8333332538604736,
                     1.499999761581421, 4.6666669845581055]]]),
    'Conv1DPadding': ('Float32',
                      [[[-2.0, -1.749999761581421, -1.5, -1.25, -0.9999998211860657, -2.0],
                        [-0.16666650772094727, 0.4999997615814209, 1.1666667461395264, 1.8333332538604736,
                         2.499999761581421, 5.6666669845581055]]]),
    'Conv2DExt': ('Float32',
                  [[[[0.8999999761581421, 1.0750000476837158, 0.6250000596046448],
                     [0.699999988079071, -1.1920928955078125e-07, -0.2999999523162842],
                     [-0.10000002384185791, -1.375, -0.8250000476837158]],
                    [[1.0, 3.375, 1.3250000476837158], [4.800000190734863, 10.899999618530273, 5.0],
                     [2.3999996185302734, 5.724999904632568, 2.2750000953674316]]]]),
    'Conv2DPadding': ('Float32',
                      [[[[0.6000000834465027, 0.44999998807907104], [1.7881393432617188e-07, -0.15000009536743164]],
                        [[9.5, 10.149999618530273], [12.09999942779541, 12.75]]]]),
    'Conv3DExt': ('Float32', [[[[[6.75, 7.0, 7.25]]]]]),
    'Conv3DPadding': ('Float32',
                      [[[[[6.75, 7.0, 7.25, 2.5], [1.0, 0.875, 0.75, -0.375]],
                         [[-3.375, -3.75, -4.125, -3.0], [-3.875, -4.1875, -4.5, -2.8125]]]]]),
    'AdaptiveAvgPool1D': ('Float32',
                          [[[-0.8333333134651184, -0.1666666567325592, 0.5],
                            [1.1666666269302368, 1.8333333730697632, 2.5]]]),
    'AdaptiveAvgPool2DExt': ('Float32',
                             [[[[0.3125, 0.5625], [0.8125, 1.0625], [1.3125, 1.5625]],
                               [[2.3125, 2.5625], [2.8125, 3.0625], [3.3125, 3.5625]]]]),
    'AdaptiveAvgPool3DExt': ('Float32', [[[[[1.125, 1.375, 1.625], [2.125, 2.375, 2.625]]]]]),
    'AdaptiveMaxPool1D': [('Float32',
                           [[[-0.6666666269302368, 0.0, 0.6666666269302368],
                             [1.3333332538604736, 2.0, 2.6666667461395264]]]),
                          ('Int64', [[[1, 3, 5], [1, 3, 5]]])],
    'AvgPool1D': ('Float32',
                  [[[-0.555555522441864, -0.3333333134651184, 0.3333333432674408],
                    [0.7777777314186096, 1.6666666269302368, 2.3333332538604736]]]),
    'AvgPool2D': ('Float32', [[[[0.3125, 0.5625], [1.3125, 1.5625]], [[2.3125, 2.5625], [3.3125, 3.5625]]]]),
    'AvgPool2D_padded': ('Float32', [[[[0.3125, 0.5], [1.0625, 1.25]], [[2.3125, 2.5], [3.0625, 3.25]]]]),
    'AvgPool3DExt': ('Float32', [[[[[0.625, 1.125]], [[2.625, 3.125]]]]]),
    'PixelShuffle': ('Float32',
                     [[[[0.0, 0.5, 0.125, 0.625], [2.0, 2.5, 2.125, 2.625], [0.25, 0.75, 0.375, 0.875],
                        [2.25, 2.75, 2.375, 2.875]]]]),
    'Im2ColExt': ('Float32',
                  [[[0.0, 0.25, 1.0, 1.25], [0.125, 0.375, 1.125, 1.375], [0.5, 0.75, 1.5, 1.75],
                    [0.625, 0.875, 1.625, 1.875], [2.0, 2.25, 3.0, 3.25], [2.125, 2.375, 3.125, 3.375],
                    [2.5, 2.75, 3.5, 3.75], [2.625, 2.875, 3.625, 3.875]]]),
    'Col2ImExt': ('Float32', [[[[0.0, 5.0, 5.0], [10.0, 30.0, 20.0], [10.0, 25.0, 15.0]]]]),
    'Embedding': ('Float32', [[[0.0, 0.5, 1.0], [4.5, 5.0, 5.5]], [[1.5, 2.0, 2.5], [1.5, 2.0, 2.5]]]),
    'UpsampleNearest1D': ('Float32',
                          [[[-1.0, -1.0, -0.6666666269302368, -0.3333333134651184, -0.3333333134651184, 0.0,
                             0.3333333730697632, 0.3333333730697632, 0.6666666269302368],
                            [1.0, 1.0, 1.3333332538604736, 1.6666667461395264, 1.6666667461395264, 2.0,
                             2.3333332538604736, 2.3333332538604736, 2.6666667461395264]]]),
    'UpsampleNearest2D': ('Float32',
                          [[[[0.0, 0.0, 0.125, 0.125, 0.25, 0.25, 0.375, 0.375],
                             [0.0, 0.0, 0.125, 0.125, 0.25, 0.25, 0.375, 0.375],
                             [0.5, 0.5, 0.625, 0.625, 0.75, 0.75, 0.875, 0.875],
                             [1.0, 1.0, 1.125, 1.125, 1.25, 1.25, 1.375, 1.375],
                             [1.0, 1.0, 1.125, 1.125, 1.25, 1.25, 1.375, 1.375],
                             [1.5, 1.5, 1.625, 1.625, 1.75, 1.75, 1.875, 1.875]],
                            [[2.0, 2.0, 2.125, 2.125, 2.25, 2.25, 2.375, 2.375],
                             [2.0, 2.0, 2.125, 2.125, 2.25, 2.25, 2.375, 2.375],
                             [2.5, 2.5, 2.625, 2.625, 2.75, 2.75, 2.875, 2.875],
                             [3.0, 3.0, 3.125, 3.125, 3.25, 3.25, 3.375, 3.375],
                             [3.0, 3.0, 3.125, 3.125, 3.25, 3.25, 3.375, 3.375],
                             [3.5, 3.5, 3.625, 3.625, 3.75, 3.75, 3.875, 3.875]]]]),
    'UpsampleLinear1D': ('Float32',
                         [[[-1.0, -0.7619047164916992, -0.5238094925880432, -0.2857142984867096, -0.047619014978408813,
                            0.1904762089252472, 0.4285714030265808, 0.6666666269302368],
                           [1.0, 1.2380951642990112, 1.476190447807312, 1.7142857313156128, 1.9523810148239136,
                            2.190476179122925, 2.4285714626312256, 2.6666667461395264]]]),
    'UpsampleBilinear2D': ('Float32',
                           [[[[0.0833333432674408, 0.17083334922790527, 0.2708333432674408, 0.3708333373069763,
                               0.4583333432674408],
                              [0.75, 0.8374999761581421, 0.9375, 1.037500023841858, 1.125],
                              [1.4166667461395264, 1.5041667222976685, 1.6041667461395264, 1.7041667699813843,
                               1.7916667461395264]],
                             [[2.0833332538604736, 2.1708333492279053, 2.2708332538604736, 2.370833158493042,
                               2.4583332538604736],
                              [2.75, 2.8375000953674316, 2.9375, 3.0374999046325684, 3.125],
                              [3.4166667461395264, 3.504166841506958, 3.6041667461395264, 3.7041666507720947,
                               3.7916667461395264]]]]),
    'InplaceAddExt': [('Float32', [[5.0, -1.0, 0.0], [-5.5, 6.0, 4.0]]),
                      ('Float32', [[5.0, -1.0, 0.0], [-5.5, 6.0, 4.0]])],
    'InplaceAddsExt': [('Float32', [[2.5, -0.5, 4.5], [2.0, 5.5, 0.5]]),
                       ('Float32', [[2.5, -0.5, 4.5], [2.0, 5.5, 0.5]])],
    'InplaceSubExt': [('Int32', [[-13, 6, 14], [-2, -15, 9]]), ('Int32', [[-13, 6, 14], [-2, -15, 9]])],
    'InplaceSubScalar': [('Float32', [[0.5, -2.5, 2.5], [0.0, 3.5, -1.5]]),
                         ('Float32', [[0.5, -2.5, 2.5], [0.0, 3.5, -1.5]])],
    'InplaceMul': [('Float32', [[2.0, -1.0, -4.5], [-1.5, 4.0, -2.5]]),
                   ('Float32', [[2.0, -1.0, -4.5], [-1.5, 4.0, -2.5]])],
    'InplaceMuls': [('Int32', [[-21, -18, 15], [21, 0, 9]]), ('Int32', [[-21, -18, 15], [21, 0, 9]])],
    'InplaceDiv': [('Float32', [[0.5, -4.0, -2.0], [-0.1666666716337204, 4.0, -0.4000000059604645]]),
                   ('Float32', [[0.5, -4.0, -2.0], [-0.1666666716337204, 4.0, -0.4000000059604645]])],
    'InplaceDivs': [('Float32', [[0.25, -0.5, 0.75], [0.125, 1.0, -0.25]]),
                    ('Float32', [[0.25, -0.5, 0.75], [0.125, 1.0, -0.25]])],
    'InplaceDivMod': [('Float32', [[0.0, -4.0, -2.0], [-1.0, 4.0, -1.0]]),
                      ('Float32', [[0.0, -4.0, -2.0], [-1.0, 4.0, -1.0]])],
    'InplaceDivMods': [('Float32', [[0.0, -1.0, 1.0], [0.0, 2.0, -0.0]]),
                       ('Float32', [[0.0, -1.0, 1.0], [0.0, 2.0, -0.0]])],
    'InplaceFloorDivide': [('Int32', [[-4, 1, -2], [2, 0, -2]]), ('Int32', [[-4, 1, -2], [2, 0, -2]])],
    'InplaceFloorDivides': [('Float32', [[0.0, -1.0, 1.0], [0.0, 2.0, -1.0]]),
                            ('Float32', [[0.0, -1.0, 1.0], [0.0, 2.0, -1.0]])],
    'InplaceAddmm': [('Float32',
                      [[1.1666667461395264, 1.1666666269302368], [-1.0833330154418945, 2.1666665077209473]]),
                     ('Float32',
                      [[1.1666667461395264, 1.1666666269302368], [-1.0833330154418945, 2.1666665077209473]])],
    'InplaceClampScalar': [('Float32', [[1.0, 0.0, 2.0], [0.5, 2.0, 0.0]]),
                           ('Float32', [[1.0, 0.0, 2.0], [0.5, 2.0, 0.0]])],
    'InplaceClampTensor': [('Float32', [[2.0, 0.5, 3.0], [0.5, 4.0, 2.5]]),
                           ('Float32', [[2.0, 0.5, 3.0], [0.5, 4.0, 2.5]])],
    'InplaceCopy': [('Float32', [[0.25, -0.5, 2.0], [0.25, -0.5, 2.0]]),
                    ('Float32', [[0.25, -0.5, 2.0], [0.25, -0.5, 2.0]])],
    'InplaceFillScalar': [('Int32', [[2, 2, 2], [2, 2, 2]]), ('Int32', [[2, 2, 2], [2, 2, 2]])],
    'InplaceFillTensor': [('Float32', [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]),
                          ('Float32', [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]])],
    'InplaceZero': [('Float32', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), ('Float32', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])],
    'InplaceFillDiagonal': [('Float32', [[9.0, 1.0, 2.0, 5.0], [4.0, 9.0, 0.0, 2.0]]),
                            ('Float32', [[9.0, 1.0, 2.0, 5.0], [4.0, 9.0, 0.0, 2.0]])],
    'InplaceFillDiagonal_wrap': [('Float32',
                                  [[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0], [0.0, 0.0, 0.0],
                                   [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]]),
                                 ('Float32',
                                  [[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0], [0.0, 0.0, 0.0],
                                   [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])],
    'InplaceElu': [('Float32', [[1.0, -0.4323323965072632, 3.0], [0.5, 4.0, -0.3160606026649475]]),
                   ('Float32', [[1.0, -0.4323323965072632, 3.0], [0.5, 4.0, -0.3160606026649475]])],
    'InplaceErfinv': [('Float32', [0.7964787483215332, 0.03546393662691116, 0.27246272563934326, 0.5460230708122253]),
                      ('Float32', [0.7964787483215332, 0.03546393662691116, 0.27246272563934326, 0.5460230708122253])],
    'InplaceExp': [('Float32',
                    [[2.7182798385620117, 0.13533520698547363, 20.085548400878906],
                     [1.64872145652771, 54.59820556640625, 0.36787882447242737]]),
                   ('Float32',
                    [[2.7182798385620117, 0.13533520698547363, 20.085548400878906],
                     [1.64872145652771, 54.59820556640625, 0.36787882447242737]])],
    'InplaceLog': [('Float32',
                    [[-0.6931470036506653, 0.0, 0.6931470036506653],
                     [1.0986120700836182, 1.3862943649291992, -1.3862943649291992]]),
                   ('Float32',
                    [[-0.6931470036506653, 0.0, 0.6931470036506653],
                     [1.0986120700836182, 1.3862943649291992, -1.3862943649291992]])],
    'InplaceFloor': [('Float32', [[2.0, 0.0, -2.0], [-3.0, 1.0, 2.0]]),
                     ('Float32', [[2.0, 0.0, -2.0], [-3.0, 1.0, 2.0]])],
    'InplaceTanh': [('Float32', [0.6291451454162598, 0.03997867926955223, 0.29131263494491577, 0.5079774856567383]),
                    ('Float32', [0.6291451454162598, 0.03997867926955223, 0.29131263494491577, 0.5079774856567383])],
    'InplaceReLU': [('Float32', [[1.0, 0.0, 3.0], [0.5, 4.0, 0.0]]), ('Float32', [[1.0, 0.0, 3.0], [0.5, 4.0, 0.0]])],
    'InplaceHardtanh': [('Float32', [[1.0, 0.0, 2.0], [0.5, 2.0, 0.0]]),
                        ('Float32', [[1.0, 0.0, 2.0], [0.5, 2.0, 0.0]])],
    'InplaceThreshold': [('Float32', [[0.0, 0.0, 3.0], [0.0, 4.0, 0.0]]),
                         ('Float32', [[0.0, 0.0, 3.0], [0.0, 4.0, 0.0]])],
    'InplaceIndexAddExt': [('Float32', [[1.25, -2.5, 5.0], [0.5, 4.0, -1.0]]),
                           ('Float32', [[1.25, -2.5, 5.0], [0.5, 4.0, -1.0]])],
    'InplaceIndexPut': [('Float32', [[-0.5, -2.0, 0.25], [0.5, 4.0, -1.0]]),
                        ('Float32', [[-0.5, -2.0, 0.25], [0.5, 4.0, -1.0]])],
    'InnerInplaceIndexPut': [('Float32', [[1.0, -2.0, 3.0], [1.0, 3.0, 3.0]]),
                             ('Float32', [[1.0, -2.0, 3.0], [1.0, 3.0, 3.0]])],
    'InplacePut': [('Float32', [[-0.5, -2.0, 0.25], [0.5, 4.0, -1.0]]),
                   ('Float32', [[-0.5, -2.0, 0.25], [0.5, 4.0, -1.0]])],
    'InplaceMaskedFillScalar': [('Float32', [[-1.0, -2.0, -1.0], [0.5, 4.0, -1.0]]),
                                ('Float32', [[-1.0, -2.0, -1.0], [0.5, 4.0, -1.0]])],
    'InplaceMaskedFillTensor': [('Float32', [[0.25, -2.0, 0.25], [0.5, 4.0, 0.25]]),
                                ('Float32', [[0.25, -2.0, 0.25], [0.5, 4.0, 0.25]])],
    'InplaceMaskedScatter': [('Float32', [[2.0, -2.0, 0.5], [0.5, 4.0, -1.5]]),
                             ('Float32', [[2.0, -2.0, 0.5], [0.5, 4.0, -1.5]])],
    'InplaceScatterAdd': [('Float32', [[3.0, -3.5, 3.5], [3.0, 5.0, -4.0]]),
                          ('Float32', [[3.0, -3.5, 3.5], [3.0, 5.0, -4.0]])],
    'InplaceScatterSrc': [('Float32', [[-3.0, 0.5, 2.5], [2.0, 1.0, -1.5]]),
                          ('Float32', [[-3.0, 0.5, 2.5], [2.0, 1.0, -1.5]])],
    'InplaceScatterSrcReduce': [('Float32', [[3.0, -3.5, 3.5], [3.0, 5.0, -4.0]]),
                                ('Float32', [[3.0, -3.5, 3.5], [3.0, 5.0, -4.0]])],
    'InplaceScatterValue': [('Float32', [[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]]),
                            ('Float32', [[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]])],
    'InplaceScatterValueReduce': [('Float32', [[3.0, 0.0, 5.0], [2.5, 6.0, 1.0]]),
                                  ('Float32', [[3.0, 0.0, 5.0], [2.5, 6.0, 1.0]])],
}

FROM_REFERENCE = {
    'AcosExt', 'AcoshExt', 'AsinExt', 'AsinhExt', 'AtanExt', 'Atan2Ext', 'AddScalar', 'SubScalar', 'DivMods',
    'FloorDivScalar', 'FmodScalar', 'FmodTensor', 'RemainderScalarTensor', 'RemainderTensorScalar',
    'RemainderTensorTensor', 'XLogYScalarOther', 'XLogYScalarSelf', 'LogAddExp2', 'AddcdivExt', 'AddcmulExt',
    'GreaterEqualScalar', 'IsNegInf', 'BitwiseAndScalar', 'BitwiseOrScalar', 'BitwiseOrTensor', 'BitwiseXorScalar',
    'BitwiseXorTensor', 'BitwiseNot', 'BitwiseNot_bool', 'SelectV2', 'Addbmm', 'Dot', 'Mm', 'TraceExt',
    'MatrixInverseExt', 'CountNonZero', 'CountNonZero_all', 'CumminExt', 'CumsumExt', 'CumsumExt_dtype', 'ArgSort',
    'SortExt', 'TopkExt', 'TopkExt_smallest', 'Kthvalue', 'Kthvalue_keepdim', 'MedianDim', 'MedianExt', 'StdMean',
    'VarMean', 'HistcExt', 'NonZeroExt', 'Arange', 'Arange_float', 'LinSpaceExt', 'FillScalar', 'FillTensor',
    'FullLike', 'OnesLikeExt', 'ZerosLikeExt', 'DiagExt', 'TrilExt', 'Clone', 'StackExt', 'StackExt_default',
    'Repeat', 'RepeatInterleaveInt', 'RepeatInterleaveTensor', 'IndexSelect', 'IndexAddExt', 'IndexFillScalar',
    'IndexFillTensor', 'Take', 'Index', 'InnerIndex', 'ScatterAddExt', 'GeluExt', 'GeluExt_tanh', 'LeakyReLUExt',
    'MishExt', 'SeLUExt', 'Hardtanh', 'Hardtanh_bounds', 'Threshold', 'Swiglu', 'KLDiv', 'KLDiv_log_target',
    'L1LossExt', 'MSELossExt', 'ConstantPadND', 'ReflectionPad1D', 'ReflectionPad2D', 'ReflectionPad3D',
    'ReplicationPad1D', 'ReplicationPad2D', 'ReplicationPad3D', 'Conv1DExt', 'Conv1DPadding', 'Conv2DExt',
    'Conv2DPadding', 'Conv3DExt', 'Conv3DPadding', 'AdaptiveAvgPool1D', 'AdaptiveAvgPool2DExt',
    'AdaptiveAvgPool3DExt', 'AdaptiveMaxPool1D', 'AvgPool1D', 'AvgPool2D', 'AvgPool2D_padded', 'AvgPool3DExt',
    'Im2ColExt', 'Col2ImExt', 'Embedding', 'UpsampleLinear1D', 'UpsampleBilinear2D', 'InplaceAddExt',
    'InplaceAddsExt', 'InplaceSubExt', 'InplaceSubScalar', 'InplaceMul', 'InplaceMuls', 'InplaceDiv', 'InplaceDivs',
    'InplaceDivMod', 'InplaceDivMods', 'InplaceFloorDivide', 'InplaceFloorDivides', 'InplaceAddmm',
    'InplaceClampScalar', 'InplaceClampTensor', 'InplaceFillScalar', 'InplaceFillTensor', 'InplaceZero',
    'InplaceFillDiagonal', 'InplaceFillDiagonal_wrap', 'InplaceElu', 'InplaceErfinv', 'InplaceExp', 'InplaceLog',
    'InplaceFloor', 'InplaceTanh', 'InplaceReLU', 'InplaceHardtanh', 'InplaceThreshold', 'InplaceIndexAddExt',
    'InplaceIndexPut', 'InnerInplaceIndexPut', 'InplacePut', 'InplaceMaskedFillScalar', 'InplaceMaskedFillTensor',
    'InplaceMaskedScatter', 'InplaceScatterAdd', 'InplaceScatterSrc', 'InplaceScatterSrcReduce',
    'InplaceScatterValue', 'InplaceScatterValueReduce',
}

NAMES = {"G": G, "mint": mint, "ms": ms, "np": np}


def case_function(call, count):
    """The case's call as a function of its ``count`` Tensors."""
    parameters = ", ".join("abcdefgh"[:count])
    return eval(f"lambda {parameters}: {call}", NAMES)


# MindSpore's CPU reference of these returns Int32 indices or counts; the Ext primitives give Int64 ones, as
# mint's functions built on them (tests/test_mint.py records their docstrings' Int64)
INT64_INDICES = {"ArgSort", "CountNonZero", "CountNonZero_all", "CumminExt", "Kthvalue", "Kthvalue_keepdim",
                 "NonZeroExt", "SortExt", "TopkExt", "TopkExt_smallest"}


def ext_dtypes(recorded):
    """``recorded`` with its Int32 results as the Ext primitives' Int64."""
    if isinstance(recorded, list):
        return [ext_dtypes(item) for item in recorded]
    return ("Int64", recorded[1]) if recorded[0] == "Int32" else recorded


def check_recorded(out, recorded):
    """``out`` (a Tensor, a tuple of them, or a Python value) is the recorded ``(dtype, values)`` (or list)."""
    if isinstance(recorded, list):
        assert isinstance(out, (tuple, list)) and len(out) == len(recorded)
        for item, expected in zip(out, recorded):
            check_recorded(item, expected)
    elif isinstance(recorded, tuple) and len(recorded) == 2 and isinstance(recorded[0], str):
        dtype, values = recorded
        assert isinstance(out, Tensor) and str(out.dtype) == dtype
        np.testing.assert_allclose(out.asnumpy(), np.asarray(values), rtol=2e-6, atol=1e-6)
    else:
        assert out == recorded


def test_every_case_has_a_recorded_value():
    assert [key for key, *_ in CASES] == list(RECORDED)
    assert set(FROM_REFERENCE) <= set(RECORDED)


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_values_are_mindspores_eagerly_and_compiled(key):
    call, inputs = next((call, inputs) for name, call, inputs, _ in CASES if name == key)
    function = case_function(call, len(inputs))
    recorded = ext_dtypes(RECORDED[key]) if key in INT64_INDICES else RECORDED[key]
    check_recorded(function(*[Tensor(a) for a in arrays(inputs)]), recorded)
    check_recorded(ms.jit(function)(*[Tensor(a) for a in arrays(inputs)]), recorded)


def test_in_place_primitives_write_their_first_input_and_return_it():
    x = Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    assert G.InplaceMul()(x, 2.0) is x
    np.testing.assert_array_equal(x.asnumpy(), [2.0, -4.0, 6.0])
    ints = Tensor(np.array([5, 7], np.int32))
    G.InplaceDivs()(ints, 2)   # MindSpore's in-place kernels keep the input's dtype
    assert str(ints.dtype) == "Int32" and ints.asnumpy().tolist() == [2, 3]
    with pytest.raises(TypeError, match="For 'InplaceExp', the 'input' must be a Tensor, but got float"):
        G.InplaceExp()(1.0)
    with pytest.raises(ValueError, match="For 'Assign', the shape of 'value' must be the same as 'variable'"):
        G.InplaceAddExt()(x, Tensor(np.ones((2, 3), np.float32)))


def test_primitives_print_as_mindspores_and_take_no_constructor_arguments():
    assert [repr(G.AddExt()), repr(G.InplaceZero()), repr(G.StackExt(2))] == [
        "Prim[AddExt]", "Prim[InplaceZero]", "Prim[StackExt]<dim=2>"]
    with pytest.raises(TypeError, match="For 'AcosExt', the arguments are \\[\\], but got 1 positional"):
        G.AcosExt(1)
    with pytest.raises(TypeError, match="For 'StackExt', the type of 'dim' should be 'int', but got type 'float'"):
        G.StackExt(1.0)


def test_the_module_keeps_the_operations_primitives_and_names_what_it_lacks():
    from npspore.ops import operations as P
    assert G.MatMul is P.MatMul and G.Add is P.Add
    with pytest.raises(AttributeError, match="'mindspore.ops.auto_generate.gen_ops_prim.GmmV2' is not implemented in "
                                             "npspore"):
        G.GmmV2   # noqa: B018  (Ascend's grouped matmul: out of scope)


def test_bad_arguments_get_clear_errors():
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="For 'Repeat', the number of 'repeats' \\(1\\) must be at least the rank"):
        G.Repeat()(x, (2,))
    with pytest.raises(ValueError, match="For 'Scatter', the 'reduce' must be 'none', 'add' or 'multiply'"):
        G.Scatter()(x, 0, Tensor(np.zeros((1, 3), np.int64)), x[:1], "max")


def f64(*shape, seed=0, low=-1.0, high=1.0):
    return np.random.default_rng(seed).uniform(low, high, shape)


GRADIENT_CASES = {
    "index_fill": (lambda x: G.IndexFillScalar()(x, 1, Tensor(np.array([2, 0])), 0.5), (f64(2, 3),)),
    "take": (lambda x: G.Take()(x, Tensor(np.array([[5, 0], [2, 2]]))), (f64(2, 3),)),
    "swiglu": (lambda x: G.Swiglu()(x, 0), (f64(4, 3),)),
    "kthvalue": (lambda x: G.Kthvalue()(x, 2, 1)[0], (f64(2, 4),)),
    "conv1d": (lambda x, w: G.Conv1DExt()(x, w, None, 2, 1), (f64(1, 2, 5), f64(3, 2, 2, seed=1))),
    "hardtanh": (lambda x: G.Hardtanh()(x, -0.5, 0.5), (f64(2, 3) * 0.9 + 0.02,)),
    "threshold": (lambda x: G.Threshold()(x, 0.1, -2.0), (f64(2, 3) + 0.03,)),
    "slice": (lambda x: G.SliceExt()(x, 1, 1, 4, 2), (f64(2, 4),)),
    "repeat": (lambda x: G.Repeat()(x, (2, 1, 3)), (f64(2, 3),)),
    # the values the in-place primitives write (npspore differentiates no write into a Tensor that is no Parameter)
    "masked_scatter": (lambda x, s: generated._masked_scatter(x, Tensor(np.array([True, False, True])), s),
                       (f64(2, 3), f64(6, seed=1))),
    "put": (lambda x, s: generated._put(x, Tensor(np.array([4, 1])), s), (f64(2, 3), f64(2, seed=1))),
    "index_put": (lambda x, v: generated._index_put(x, [Tensor(np.array([1, 0]))], v, True),
                  (f64(2, 3), f64(3, seed=1))),
    "index": (lambda x: G.InnerIndex()(x, [Tensor(np.array([1, 0])), Tensor(np.array([2, 2]))]), (f64(2, 3),)),
    "fill_diagonal": (lambda x: generated._fill_diagonal(x, 2.0, True), (f64(5, 2),)),
    "replication_pad": (lambda x: G.ReplicationPad2D()(x, (2, 1, 0, 1)), (f64(1, 2, 3),)),
    "upsample_nearest_scales": (lambda x: G.UpsampleNearest2D()(x, None, (1.5, 2.0)), (f64(1, 1, 2, 3),)),
    "scatter_value_add": (lambda x: G.ScatterValue()(x, 1, Tensor(np.array([[0, 2]])), 1.5, "add"), (f64(2, 3),)),
}


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_compositions_differentiate_as_central_differences(name):
    function, inputs = GRADIENT_CASES[name]
    check_grads(function, inputs, order=2)


WORLD = GlobalComm.WORLD_COMM_GROUP


def test_collective_primitives_in_a_group_of_one_keep_their_input():
    # MindSpore 2.10's CPU has no kernel for these (they need init() and a device); in a group of one every
    # collective gives the input back, written where MindSpore's primitive writes it
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(G.InnerCommAllReduce()(x, "sum", WORLD).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(G.InnerCommAllGather()(x, 1, WORLD).asnumpy(), x.asnumpy())
    other = Tensor(np.zeros((2, 3), np.float32))
    assert G.DistCommAllGatherIntoTensor()(other, x, 1, WORLD) is other
    np.testing.assert_array_equal(other.asnumpy(), x.asnumpy())
    pieces = [Tensor(np.zeros((2, 3), np.float32))]
    G.DistCommScatter()(pieces[0], [x * 2], 1, 0, 0, WORLD)
    np.testing.assert_array_equal(pieces[0].asnumpy(), 2 * x.asnumpy())
    assert G.DistCommBarrier()(WORLD) is None
    with pytest.raises(ValueError, match=f"For 'InnerCommAllGather', the 'rank_size' must be the size 1 of the group "
                                         f"'{WORLD}', but got 2."):
        G.InnerCommAllGather()(x, 2, WORLD)


def test_collective_primitives_across_two_ranks():
    result = launch(2, sys.executable, str(Path(__file__).parent / "mpi_programs" / "gen_comm_prims.py"))
    assert result.returncode == 0, result.stdout
    assert "rank 0 ok" in result.stdout and "rank 1 ok" in result.stdout
