"""Activations, losses, scatter updates and array functions of ``ops`` (and their primitive classes from the one
table, ``ops/primitive_table.py``), against MindSpore 2.10: each case of ``tools/observe_mindspore_nn_array_ops.py``
runs eagerly and compiled with the value MindSpore printed; the compositions' gradients against central
differences, to second order.
"""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.ops import composite as C, operations as P
from npspore.ops._primitive_cache import _get_cache_prim
from npspore.testing import check_grads

from recorded_values import check_value

_spec = importlib.util.spec_from_file_location(
    "observe_mindspore_nn_array_ops", Path(__file__).parent.parent / "tools" / "observe_mindspore_nn_array_ops.py")
observe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(observe)

# MindSpore 2.10, tools/observe_mindspore_nn_array_ops.py
MINDSPORE_VALUES = {
    'elu': ([[-0.7768698930740356, -0.25918275117874146, 0.0], [0.20000000298023224, 0.699999988079071, 2.0]],
            'Float32'),
    'prelu_doc': ([[[-0.6000000238418579, -0.5], [-2.4000000953674316, -1.8000000715255737],
                    [0.6000000238418579, 0.30000001192092896]],
                   [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]],
                  'Float32'),
    'mish': ([[-0.29809969663619995, -0.15113306045532227, 0.0],
              [0.13259899616241455, 0.5611484050750732, 1.9439589977264404]],
             'Float32'),
    'hsigmoid': ([0.0, 0.1666666716337204, 0.5, 0.8333333134651184, 1.0], 'Float32'),
    'softsign': ([[-0.6000000238418579, -0.23076924681663513, 0.0],
                  [0.1666666567325592, 0.4117647111415863, 0.6666666865348816]],
                 'Float32'),
    'selu': ([[-1.3658143281936646, -0.4556673467159271, 0.0],
              [0.21014021337032318, 0.7354906797409058, 2.1014020442962646]],
             'Float32'),
    'selu_fn': ([-1.1113307476043701, 4.202804088592529, -1.7575095891952515], 'Float32'),
    'celu': ([[-1.0552668571472168, -0.2785840630531311, 0.0], [0.20000000298023224, 0.699999988079071, 2.0]],
             'Float32'),
    'celu_fn': ([-0.8646647334098816, -0.6321205496788025, 1.0, 2.0], 'Float32'),
    'hshrink': ([[-1.5, 0.0, 0.0], [0.0, 0.699999988079071, 2.0]], 'Float32'),
    'hardshrink_fn': ([[-1.5, -0.30000001192092896, 0.0], [0.0, 0.699999988079071, 2.0]], 'Float32'),
    'softshrink': ([[-1.25, -0.050000011920928955, 0.0], [0.0, 0.44999998807907104, 1.75]], 'Float32'),
    'softshrink_fn': ([[-1.0, 0.0, 0.0], [0.0, 0.19999998807907104, 1.5]], 'Float32'),
    'mse_loss': (1.778333306312561, 'Float32'),
    'mse_loss_none': ([[6.25, 0.09000000357627869, 1.0], [0.64000004529953, 0.4899999797344208, 9.0]], 'Float32'),
    'mse_loss_sum': (17.469999313354492, 'Float32'),
    'sparse_ce': (1.419046401977539, 'Float32'),
    'sparse_ce_grad': ([[0.0568065345287323, 0.18860416114330292, -0.24541068077087402],
                        [-0.4425179958343506, 0.0947718545794487, 0.3477461338043213]],
                       'Float32'),
    'kldiv': (0.1769566684961319, 'Float32'),
    'kldiv_sum': (1.0617400407791138, 'Float32'),
    'bce_logits': (0.9330289959907532, 'Float32'),
    'tril': ([[0.0, 0.0, 0.0, 0.0], [4.0, 5.0, 0.0, 0.0], [8.0, 9.0, 10.0, 0.0]], 'Float32'),
    'tril_fn': ([[0.0, 0.0, 0.0, 0.0], [4.0, 0.0, 0.0, 0.0], [8.0, 9.0, 0.0, 0.0]], 'Float32'),
    'triu_fn': ([[0.0, 1.0, 2.0, 3.0], [0.0, 0.0, 6.0, 7.0], [0.0, 0.0, 0.0, 11.0]], 'Float32'),
    'nonzero': ([[0, 1], [1, 0], [1, 2]], 'Int64'),
    'nonzero_prim': ([[0, 0], [1, 0], [1, 1]], 'Int64'),
    'masked_select': ([0.0, 3.0, 6.0, 9.0], 'Float32'),
    'stop_gradient': ([[-1.5, -0.30000001192092896, 0.0], [0.20000000298023224, 0.699999988079071, 2.0]], 'Float32'),
    'index_select': ([[3.0, 0.0, 3.0], [7.0, 4.0, 7.0], [11.0, 8.0, 11.0]], 'Float32'),
    'chunk': [([[0.0, 1.0], [4.0, 5.0], [8.0, 9.0]], 'Float32'),
              ([[2.0, 3.0], [6.0, 7.0], [10.0, 11.0]], 'Float32')],
    'repeat_interleave': ([[-1.5, -1.5, -0.30000001192092896, -0.30000001192092896, 0.0, 0.0],
                           [0.20000000298023224, 0.20000000298023224, 0.699999988079071, 0.699999988079071, 2.0,
                            2.0]],
                          'Float32'),
    'repeat_interleave_flat': ([-1.5, -1.5, -0.30000001192092896, -0.30000001192092896, 0.0, 0.0,
                                0.20000000298023224, 0.20000000298023224, 0.699999988079071, 0.699999988079071, 2.0,
                                2.0],
                               'Float32'),
    'narrow': ([[1.0, 2.0], [5.0, 6.0], [9.0, 10.0]], 'Float32'),
    'unbind': [([-1.5, 0.20000000298023224], 'Float32'), ([-0.30000001192092896, 0.699999988079071], 'Float32'),
               ([0.0, 2.0], 'Float32')],
    'swapaxes': ([[-1.5, 0.20000000298023224], [-0.30000001192092896, 0.699999988079071], [0.0, 2.0]], 'Float32'),
    'dstack': ([[[-1.5, -3.0], [-0.30000001192092896, -0.6000000238418579], [0.0, 0.0]],
                [[0.20000000298023224, 0.4000000059604645], [0.699999988079071, 1.399999976158142], [2.0, 4.0]]],
               'Float32'),
    'top_k': [([[0.0, -0.30000001192092896], [2.0, 0.699999988079071]], 'Float32'), ([[2, 1], [2, 1]], 'Int32')],
    'tensor_scatter_add': ([[0.0, 5.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 13.0]], 'Float32'),
    'tensor_scatter_update': ([[0.0, 1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], 'Float32'),
    'tensor_scatter_sub': ([[0.0, 0.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 9.0]], 'Float32'),
    'tensor_scatter_elements': ([[2.0, 1.0, 2.0, 1.0], [4.0, 4.0, 6.0, 7.0], [6.0, 9.0, 5.0, 11.0]], 'Float32'),
    'tensor_scatter_elements_add': ([[0.0, 3.0, 2.0, 3.0], [4.0, 5.0, 6.0, 11.0], [9.0, 9.0, 13.0, 11.0]],
                                    'Float32'),
    'scatter_add': ([[4.0, 5.0, 6.0, 7.0], [4.0, 5.0, 6.0, 7.0], [10.0, 11.0, 12.0, 13.0]], 'Float32'),
    'scatter_update': ([[2.0, 2.0, 2.0, 2.0], [4.0, 5.0, 6.0, 7.0], [1.0, 1.0, 1.0, 1.0]], 'Float32'),
    'reverse_sequence': ([[0.0, 1.0, 2.0, 3.0], [5.0, 4.0, 6.0, 7.0], [10.0, 9.0, 8.0, 11.0]], 'Float32'),
    'reverse_sequence_batch1': ([[8.0, 1.0, 2.0, 7.0], [4.0, 5.0, 6.0, 3.0], [0.0, 9.0, 10.0, 11.0]], 'Float32'),
    'range': ([0, 4, 8], 'Int64'),
    'tensor_shape': ([3, 4], 'Int64'),
    'diag_part': ([0.0, 5.0, 10.0, 15.0], 'Float32'),
    'diag_part_4d': ([[0.0, 7.0, 14.0], [21.0, 28.0, 35.0]], 'Float32'),
    'inplace_add': ([[1.0, 2.0, 3.0, 4.0], [4.0, 5.0, 6.0, 7.0], [9.0, 10.0, 11.0, 12.0]], 'Float32'),
    'index_add': ([[1.0, 1.0, 3.0, 3.0], [5.0, 5.0, 7.0, 7.0], [9.0, 9.0, 11.0, 11.0]], 'Float32'),
    'lrn': ([[[[0.0, 0.10881204158067703], [0.20387572050094604, 0.28333747386932373]],
              [[0.34740012884140015, 0.39626580476760864], [0.430891215801239, 0.4540061354637146]],
              [[0.46827447414398193, 0.4759718179702759], [0.47890472412109375, 0.4784470796585083]],
              [[0.7273514270782471, 0.7213432788848877], [0.7127235531806946, 0.7023845911026001]]]],
            'Float32'),
    'lrn_default': ([[[[-0.8122768998146057, -0.7592566013336182], [-0.6666666865348816, -0.5423261523246765]],
                      [[-0.40613844990730286, -0.32539570331573486], [-0.2222222238779068, -0.10846523195505142]],
                      [[0.0, 0.10846523195505142], [0.2222222238779068, 0.32539570331573486]],
                      [[0.40613844990730286, 0.5423261523246765], [0.6666666865348816, 0.7592566013336182]]]],
                    'Float32'),
    'partial': (3.0, 'Float32'),
    'crop_and_resize': ([[[[44.599998474121094, 45.599998474121094], [48.599998474121094, 49.599998474121094]],
                          [[56.599998474121094, 57.599998474121094], [60.599998474121094, 61.599998474121094]],
                          [[68.5999984741211, 69.5999984741211], [72.5999984741211, 73.5999984741211]]],
                         [[[0.0, 0.0], [0.0, 0.0]], [[6.899999141693115, 7.899999141693115], [0.0, 0.0]],
                          [[17.39999771118164, 18.39999771118164], [0.0, 0.0]]]],
                        'Float32'),
    'crop_and_resize_nearest': ([[[[42.0, 43.0], [46.0, 47.0]], [[62.0, 63.0], [66.0, 67.0]],
                                  [[72.0, 73.0], [76.0, 77.0]]],
                                 [[[2.0, 3.0], [8.0, 9.0]], [[12.0, 13.0], [18.0, 19.0]],
                                  [[22.0, 23.0], [28.0, 29.0]]]],
                                'Float32'),
    'fast_gelu': ([[-0.10833780467510223, -0.1125158742070198, 0.0],
                   [0.11685754358768463, 0.536893904209137, 1.935658574104309]],
                  'Float32'),
    'fast_gelu_prim': ([[-0.10833780467510223, -0.1125158742070198, 0.0],
                        [0.11685754358768463, 0.536893904209137, 1.935658574104309]],
                       'Float32'),
    'dense': ([[-0.7999999523162842, 0.20000004768371582], [3.9000000953674316, 4.900000095367432]], 'Float32'),
    'transpose_view': ([[-1.5, 0.20000000298023224], [-0.30000001192092896, 0.699999988079071], [0.0, 2.0]],
                       'Float32'),
    'transpose_ext_view': ([[-1.5, 0.20000000298023224], [-0.30000001192092896, 0.699999988079071], [0.0, 2.0]],
                           'Float32'),
    'max_pool_with_argmax': [([[[[5.0, 6.0], [6.0, 4.0]], [[6.0, 5.0], [4.0, 6.0]], [[5.0, 6.0], [6.0, 5.0]]],
                               [[[6.0, 6.0], [5.0, 6.0]], [[6.0, 4.0], [6.0, 5.0]], [[4.0, 6.0], [5.0, 6.0]]]],
                              'Float32'),
                             ([[[[5, 6], [13, 11]], [[20, 19], [25, 27]], [[33, 34], [41, 47]]],
                               [[[0, 7], [13, 14]], [[21, 19], [28, 27]], [[33, 35], [41, 42]]]],
                              'Int32')],
    'max_pool_with_argmax_same': [([[[[5.0, 6.0, 6.0, 6.0], [5.0, 6.0, 6.0, 6.0], [6.0, 6.0, 6.0, 6.0],
                                      [6.0, 6.0, 6.0, 4.0]],
                                     [[6.0, 6.0, 5.0, 5.0], [6.0, 6.0, 6.0, 6.0], [6.0, 6.0, 6.0, 6.0],
                                      [4.0, 5.0, 6.0, 6.0]],
                                     [[5.0, 6.0, 6.0, 6.0], [6.0, 6.0, 6.0, 6.0], [6.0, 6.0, 6.0, 5.0],
                                      [6.0, 6.0, 6.0, 5.0]]],
                                    [[[6.0, 6.0, 6.0, 6.0], [6.0, 6.0, 6.0, 6.0], [5.0, 6.0, 6.0, 6.0],
                                      [5.0, 6.0, 6.0, 6.0]],
                                     [[6.0, 6.0, 6.0, 4.0], [6.0, 6.0, 6.0, 5.0], [6.0, 6.0, 6.0, 5.0],
                                      [6.0, 6.0, 5.0, 5.0]],
                                     [[4.0, 5.0, 6.0, 6.0], [5.0, 6.0, 6.0, 6.0], [5.0, 6.0, 6.0, 6.0],
                                      [5.0, 6.0, 6.0, 6.0]]]],
                                   'Float32'),
                                  ([[[[5, 6, 6, 6], [5, 6, 6, 6], [13, 6, 6, 6], [13, 13, 13, 11]],
                                     [[20, 20, 19, 19], [20, 20, 27, 27], [20, 20, 27, 27], [25, 26, 27, 27]],
                                     [[33, 34, 34, 34], [41, 34, 34, 34], [41, 41, 41, 47], [41, 41, 41, 47]]],
                                    [[[0, 0, 7, 7], [0, 0, 7, 7], [13, 14, 7, 7], [13, 14, 14, 14]],
                                     [[21, 21, 21, 19], [21, 21, 21, 27], [21, 21, 21, 27], [28, 28, 27, 27]],
                                     [[33, 34, 35, 35], [41, 42, 35, 35], [41, 42, 42, 42], [41, 42, 42, 42]]]],
                                   'Int32')],
    'pad_v3': ([[0.5, -1.5, -0.30000001192092896, 0.0, 0.5, 0.5],
                [0.5, 0.20000000298023224, 0.699999988079071, 2.0, 0.5, 0.5]],
               'Float32'),
    'pad_v3_reflect': ([[[[1.0, 0.0, 1.0, 2.0, 1.0], [4.0, 3.0, 4.0, 5.0, 4.0], [1.0, 0.0, 1.0, 2.0, 1.0]],
                         [[7.0, 6.0, 7.0, 8.0, 7.0], [10.0, 9.0, 10.0, 11.0, 10.0], [7.0, 6.0, 7.0, 8.0, 7.0]]]],
                       'Float32'),
    'mirror_pad': ([[2.0, 0.699999988079071, 0.20000000298023224, 0.699999988079071, 2.0, 0.699999988079071],
                    [0.0, -0.30000001192092896, -1.5, -0.30000001192092896, 0.0, -0.30000001192092896],
                    [2.0, 0.699999988079071, 0.20000000298023224, 0.699999988079071, 2.0, 0.699999988079071],
                    [0.0, -0.30000001192092896, -1.5, -0.30000001192092896, 0.0, -0.30000001192092896]],
                   'Float32'),
    'mirror_pad_symmetric': ([[-0.30000001192092896, -1.5, -1.5, -0.30000001192092896, 0.0, 0.0,
                               -0.30000001192092896, -1.5],
                              [-0.30000001192092896, -1.5, -1.5, -0.30000001192092896, 0.0, 0.0,
                               -0.30000001192092896, -1.5],
                              [0.699999988079071, 0.20000000298023224, 0.20000000298023224, 0.699999988079071, 2.0,
                               2.0, 0.699999988079071, 0.20000000298023224]],
                             'Float32'),
    'grid_sample_doc': ([[[[2.299999952316284], [2.8999998569488525]], [[6.300000190734863], [6.899999618530273]]],
                         [[[7.919999122619629], [4.62000036239624]], [[10.79999828338623], [6.3000006675720215]]]],
                        'Float32'),
    'grid_sample_zeros': ([[[[0.0, 2.0782320499420166, 0.0], [0.3016655743122101, 0.0, 0.0]],
                            [[1.0392305850982666, 8.601911544799805, 0.0], [5.198792934417725, 0.0, 0.0]]]],
                          'Float32'),
    'grid_sample_border_align': ([[[[0.0, 1.8289024829864502, 3.5225491523742676],
                                    [0.6323983669281006, 1.4582337141036987, 0.4379287362098694]],
                                   [[4.156922340393066, 8.20434284210205, 10.838017463684082],
                                    [5.906867504119873, 7.544922828674316, 5.6124267578125]]]],
                                 'Float32'),
    'grid_sample_reflection': ([[[[0.0, 2.0782320499420166, 3.5316450595855713],
                                  [0.3016655743122101, 2.2284939289093018, 3.468660831451416]],
                                 [[4.156922340393066, 8.601911544799805, 10.859652519226074],
                                  [5.198792934417725, 8.841156959533691, 10.755561828613281]]]],
                               'Float32'),
    'grid_sample_reflection_align': ([[[[0.0, 1.8289024829864502, 3.2568416595458984],
                                        [0.6323983669281006, 1.9102064371109009, 2.776416778564453]],
                                       [[4.156922340393066, 8.20434284210205, 10.445713996887207],
                                        [5.906867504119873, 8.317255973815918, 9.69469928741455]]]],
                                     'Float32'),
    'grid_sample_nearest': ([[[[0.0, 1.469693899154663, 0.0], [0.2828426957130432, 0.0, 0.0]],
                              [[0.0, 7.636753082275391, 0.0], [5.238320350646973, 0.0, 0.0]]]],
                            'Float32'),
    'grid_sample_nearest_border': ([[[[0.0, 1.469693899154663, 3.648287296295166],
                                      [0.2828426957130432, 0.800000011920929, 0.5196152925491333]],
                                     [[4.156922340393066, 7.636753082275391, 11.030412673950195],
                                      [5.238320350646973, 6.400000095367432, 5.809474945068359]]]],
                                   'Float32'),
    'unique_doc': [([1, 2, 5], 'Int32'), ([0, 1, 2, 1], 'Int32')],
    'unique_int64': [([5, 1, 2, 3], 'Int64'), ([0, 1, 2, 1, 0, 3], 'Int64')],
    'unique_fn': [([2.5, 1.0, 0.5, 7.0], 'Float32'), ([[0, 1, 2], [1, 0, 3]], 'Int32')],
    'reverse_sequence_fn': ([[0.0, 1.0, 2.0, 3.0], [5.0, 4.0, 6.0, 7.0], [10.0, 9.0, 8.0, 11.0]], 'Float32'),
    'inplace_add_fn': ([[0.0, 1.0, 2.0, 3.0], [5.0, 6.0, 7.0, 8.0], [8.0, 9.0, 10.0, 11.0]], 'Float32'),
    'lrn_fn': ([[[[0.0, 0.08038678765296936], [0.15665209293365479, 0.22825075685977936]],
                 [[0.2948839068412781, 0.35623523592948914], [0.41208165884017944, 0.46257302165031433]],
                 [[0.5897678136825562, 0.6412234306335449], [0.6868028044700623, 0.7269004583358765]],
                 [[0.8846517205238342, 0.9267999529838562], [0.9637998342514038, 0.9961336255073547]]]],
               'Float32'),
    'tensor_scatter_elements_prim': ([[2.0, 1.0, 2.0, 4.0], [4.0, 12.0, 6.0, 7.0], [14.0, 9.0, 15.0, 11.0]],
                                     'Float32'),
    'grid_sampler_2d': ([[[[0.0, 1.8289024829864502, 3.5225491523742676],
                           [0.6323983669281006, 1.4582337141036987, 0.4379287362098694]],
                          [[4.156922340393066, 8.20434284210205, 10.838017463684082],
                           [5.906867504119873, 7.544922828674316, 5.6124267578125]]]],
                        'Float32'),
    'scatter_nd_add': ([[0.0, 5.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 13.0]], 'Float32'),
}
CASES = observe.cases(ms)
# eager only: a Parameter made in the function (ScatterNet below writes one compiled), and MirrorPad's Tensor
# paddings (compiled, npspore cannot read them yet: a comparison of the values read is staged, not known)
IN_PLACE = ("scatter_add", "scatter_update", "scatter_nd_add", "index_add", "mirror_pad", "mirror_pad_symmetric")


# MindSpore's float32 exp - 1 in Elu/SeLU is 4e-6 relative from NumPy's (-0.25918275 for exp(-0.3) - 1, exactly
# -0.25918178): npspore's agree with the exact values
LOOSER = {"elu": 5e-6, "selu": 5e-6, "selu_fn": 5e-6}


def _check(out, recorded, rtol=None):
    if isinstance(recorded, list):
        assert len(out) == len(recorded)
        for part, expected in zip(out, recorded):
            _check(part, expected, rtol)
    elif rtol is not None:
        assert str(out.dtype) == recorded[1]
        np.testing.assert_allclose(out.asnumpy(), recorded[0], rtol=rtol)
    else:
        check_value(out, recorded)


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_are_mindspores_eagerly_and_compiled(name):
    fn, inputs = CASES[name]
    tensors = [Tensor(a) for a in inputs]
    _check(fn(*tensors), MINDSPORE_VALUES[name], LOOSER.get(name))
    if name not in IN_PLACE:
        _check(ms.jit(fn)(*tensors), MINDSPORE_VALUES[name], LOOSER.get(name))


class ScatterNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.x = Parameter(Tensor(observe.SQUARE), name="x")
        self.add, self.update = P.ScatterAdd(), P.ScatterUpdate()

    def construct(self, indices, updates, rows, row_updates):
        self.add(self.x, indices, updates)
        return self.update(self.x, rows, row_updates)


def test_in_place_scatters_write_the_parameter_compiled():
    net = ScatterNet()
    indices, updates = Tensor(np.array([0, 2, 0], np.int32)), Tensor(np.ones((3, 4), np.float32))
    rows, row_updates = Tensor(np.array([1], np.int32)), Tensor(np.full((1, 4), -1.0, np.float32))
    out = ms.jit(net)(indices, updates, rows, row_updates)
    expected = observe.SQUARE + np.array([[2.0], [0.0], [1.0]])
    expected[1] = -1.0
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(net.x.asnumpy(), expected)


def _gradient_cases():
    x = np.array([[-1.5, -0.3, 0.4], [0.2, 0.7, 2.0]])
    square = np.arange(12.0).reshape(3, 4) / 7
    return {
        "selu": (lambda a: ops.selu(a), (x,)),
        "celu": (lambda a: ops.celu(a, 2.0), (x,)),
        "softshrink": (lambda a: ops.softshrink(a, 0.25), (x,)),
        "hardshrink": (lambda a: ops.hardshrink(a, 0.25), (x,)),
        "mse_loss": (lambda a, b: ops.mse_loss(a, b), (x, x[::-1].copy())),
        "sparse_ce": (lambda a: P.SparseSoftmaxCrossEntropyWithLogits()(a, Tensor(np.array([2, 0], np.int32))), (x,)),
        "triu": (lambda a: ops.triu(a, 1), (square,)),
        "index_select": (lambda a: ops.index_select(a, 1, Tensor(np.array([3, 0, 3], np.int32))), (square,)),
        "repeat_interleave": (lambda a: ops.repeat_interleave(a, [1, 2, 0, 1], 1), (square,)),
        "tensor_scatter_update": (lambda a, u: ops.tensor_scatter_update(a, Tensor(np.array([[1], [1]], np.int32)), u),
                                  (square, np.ones((2, 4)) / 3)),
        "tensor_scatter_elements": (lambda a, u: ops.tensor_scatter_elements(
            a, Tensor(np.array([[3, 0], [1, 1], [2, 0]], np.int32)), u, 1, "add"), (square, np.ones((3, 2)) / 3)),
        "chunk": (lambda a: ops.chunk(a, 3, 1)[1] * 2.0, (square,)),
        "dstack": (lambda a: ops.dstack([a, a * a]), (x,)),
        "fast_gelu": (lambda a: ops.fast_gelu(a), (x,)),
        "grid_sample": (lambda a, g: ops.grid_sample(a, g), (observe.IMAGE.astype(np.float64),
                                                             observe.GRID.astype(np.float64) * 0.9 + 0.013)),
        "grid_sample_reflection": (lambda a, g: ops.grid_sample(a, g, padding_mode="reflection", align_corners=True),
                                   (observe.IMAGE.astype(np.float64), observe.GRID.astype(np.float64) + 0.011)),
        "pad_v3": (lambda a: P.PadV3(mode="reflect")(a, (1, 1, 0, 1)), (np.arange(12.0).reshape(1, 2, 2, 3) / 5,)),
        "max_pool_with_argmax": (lambda a: P.MaxPoolWithArgmax(2, 2)(a)[0], (np.arange(32.0).reshape(1, 2, 4, 4) % 7,)),
        "reverse_sequence": (lambda a: P.ReverseSequence(1)(a, Tensor(np.array([1, 2, 4], np.int32))), (square,)),
        "diag_part": (lambda a: P.DiagPart()(a), (np.arange(16.0).reshape(4, 4) / 5,)),
        "inplace_add": (lambda a, v: P.InplaceAdd((0, 2))(a, v), (square, np.ones((2, 4)) / 3)),
        "lrn": (lambda a: P.LRN(1, 1.0, 0.5, 0.75)(a), (np.arange(16.0).reshape(1, 4, 2, 2) / 8 - 0.9,)),
        "crop_and_resize": (lambda a, b: P.CropAndResize()(a, b, Tensor(np.array([1, 0], np.int32)), (3, 2)),
                            (np.arange(80.0).reshape(2, 4, 5, 2) / 40, np.array([[0.1, 0.2, 0.9, 0.7],
                                                                                 [0.05, 0.3, 0.5, 0.95]]))),
    }


@pytest.mark.parametrize("name", sorted(_gradient_cases()))
def test_gradients_match_central_differences(name):
    fn, args = _gradient_cases()[name]
    check_grads(fn, [Tensor(a) for a in args], order=2, modes=("pynative",))


def test_errors():
    with pytest.raises(TypeError, match="For 'Elu', the type of 'alpha' should be 'float', but got type 'int'."):
        P.Elu(alpha=1)
    with pytest.raises(ValueError, match="For 'Elu', the 'alpha' must be 1.0"):
        P.Elu(alpha=0.5)(Tensor(observe.X))
    with pytest.raises(TypeError, match="For 'Tril', the arguments are"):
        P.Tril(diagonal=1, k=2)
    with pytest.raises(ValueError, match=r"For primitive\[TensorScatterAdd\], the shape of 'updates' must be"):
        ops.tensor_scatter_add(Tensor(observe.SQUARE), Tensor(np.array([[0, 1]], np.int32)), Tensor(np.ones(2)))
    with pytest.raises(TypeError, match="npspore takes 'repeats' as an int or a list or tuple of ints"):
        ops.repeat_interleave(Tensor(observe.X), Tensor(np.array([2], np.int32)))
    with pytest.raises(ValueError, match="the 'reduction' must be str and must be in"):
        ops.tensor_scatter_elements(Tensor(observe.SQUARE), Tensor(np.zeros((3, 4), np.int32)),
                                    Tensor(observe.SQUARE), 0, "mul")
    assert repr(P.SoftShrink(0.25)) == "Prim[SoftShrink]<lambd=0.25>"


class CachedPrimitiveNet(nn.Cell):
    def construct(self, x):
        return _get_cache_prim(P.ReduceSum)(keep_dims=True)(x, 1)


def test_get_cache_prim_builds_the_primitive_eagerly_and_compiled():
    x = Tensor(observe.SQUARE)
    expected = observe.SQUARE.sum(1, keepdims=True)
    np.testing.assert_array_equal(CachedPrimitiveNet()(x).asnumpy(), expected)
    np.testing.assert_array_equal(ms.jit(CachedPrimitiveNet())(x).asnumpy(), expected)
    assert repr(_get_cache_prim(P.SoftShrink)(0.25)) == "Prim[SoftShrink]<lambd=0.25>"


def test_add_flags_as_mindspores_docstring():
    net = C.add_flags(CachedPrimitiveNet(), predit=True)
    assert net._func_graph_flags == {"predit": True}   # MindSpore 2.10's example: hasattr(net, '_func_graph_flags')
    decorated = C.add_flags(auto_parallel=True)(lambda x: x)
    assert decorated._func_graph_flags == {"auto_parallel": True}


def test_unique_takes_a_1d_input_as_mindspore():
    with pytest.raises(RuntimeError, match="Rank of Unique's input must be 1."):
        P.Unique()(Tensor(observe.SQUARE))


def test_rms_norm_is_mindspores_docstring():
    """MindSpore 2.10 has RmsNorm on Ascend only: its docstring's values, and its formula over two dims."""
    x = Tensor(np.array([[1, 2, 3], [1, 2, 3]]), ms.float32)
    y, rstd = P.RmsNorm()(x, Tensor(np.ones([3]), ms.float32))
    np.testing.assert_allclose(y.asnumpy(), [[0.46290997, 0.92581993, 1.3887299]] * 2, rtol=1e-6)
    np.testing.assert_allclose(rstd.asnumpy(), [[0.46290997]] * 2, rtol=1e-6)
    gamma = np.array([[0.5, 2.0, 1.0], [1.0, -1.0, 3.0]], np.float32)
    y, rstd = ms.jit(lambda a, g: ops.rms_norm(a, g, 1e-3))(Tensor(observe.X), Tensor(gamma))
    expected_rstd = 1 / np.sqrt((observe.X.astype(np.float64) ** 2).mean() + 1e-3)
    np.testing.assert_allclose(rstd.asnumpy(), [[expected_rstd]], rtol=1e-6)
    np.testing.assert_allclose(y.asnumpy(), observe.X * expected_rstd * gamma, rtol=1e-6)
    check_grads(lambda a, g: P.RmsNorm()(a, g)[0], [Tensor(observe.X.astype(np.float64)), Tensor(gamma * 1.0)],
                order=2, modes=("pynative",))
