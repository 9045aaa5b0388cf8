"""The array primitives and layers added for issue 26 (``P.Shape``, ``P.Slice``, ``P.GatherNd``,
``ops.norm``, ``nn.Pad``, ``nn.ReLU6``, ``nn.MAELoss`` ...): MindSpore 2.10's values for its docstring
examples and more cases (recorded by ``tools/observe_mindspore_array_ops.py`` from the real MindSpore in
a separate virtualenv), eagerly and compiled; their gradients against finite differences, first and
second order; and the errors bad arguments get."""
import logging

import numpy as np
import pytest

import npspore as ms
from npspore._checkparam import args_type_check
from npspore import Tensor, nn, ops
from npspore.ops import functional as F, operations as P
from npspore.testing import check_grads
from recorded_values import check_eager_and_compiled, check_value

# printed by tools/observe_mindspore_array_ops.py (MindSpore 2.10.0 CPU): (value, dtype) or a Python value
MINDSPORE_VALUES = {
    'reciprocal_doc': ([1.0, 0.5, 0.25], 'Float32'),
    'reciprocal_int': ([1.0, 0.5, 0.25], 'Float32'),
    'shape_doc': (3, 2, 1),
    'dtype_doc': 'Float32',
    'identity_doc': ([1, 2, 3, 4], 'Int64'),
    'slice_doc': ([[[3, 3, 3]]], 'Int32'),
    'slice_to_end': ([[1.0, 2.0], [4.0, 5.0]], 'Float32'),
    'strided_slice_doc': ([[[3]], [[5]]], 'Int32'),
    'strided_slice_masks': ([[1, 2], [3, 4], [5, 6]], 'Int32'),
    'gather_nd_doc': ([-0.10000000149011612, 0.5], 'Float32'),
    'gather_nd_rows': ([[[5, 5, 5], [6, 6, 6]], [[1, 1, 1], [2, 2, 2]]], 'Int32'),
    'bias_add_doc': ([[0.0, 2.0, 4.0], [3.0, 5.0, 7.0]], 'Float32'),
    'bias_add_nchw': ([[[[2.0, 2.0], [2.0, 2.0]], [[0.0, 0.0], [0.0, 0.0]]]], 'Float32'),
    'l2_normalize_doc':
        ([[0.0, 0.4472135901451111, 0.8944271802902222],
          [0.4242640733718872, 0.5656854510307312, 0.7071067690849304]],
         'Float32'),
    'l2_normalize_axis0':
        ([[0.10000000894069672, 0.6000000238418579], [0.10000000894069672, 0.800000011920929]], 'Float32'),
    'norm_doc': (13.0, 'Float32'),
    'norm_doc_ord1': (19.0, 'Float32'),
    'norm_doc_ord0': (3.0, 'Float32'),
    'norm_doc_fro': (10.198039054870605, 'Float32'),
    'norm_doc_matrix1': (10.0, 'Float32'),
    'norm_doc_batched': ([3.7416574954986572, 9.486832618713379], 'Float32'),
    'norm_matrix_inf_keepdim': ([[6.0]], 'Float32'),
    'norm_ord1_dim': ([3.0, 12.0], 'Float32'),
    'norm_inf_keepdim': ([[3.0, 2.0, 2.0]], 'Float32'),
    'norm_ord3_dim': ([2.0800838470458984, 6.000000476837158], 'Float32'),
    'norm_fro': (7.416198253631592, 'Float32'),
    'relu6_doc': ([[0.0, 4.0, 0.0], [2.0, 0.0, 6.0]], 'Float32'),
    'relu6_prim': ([6.0, 0.5], 'Float32'),
    'pad_constant':
        ([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0],
          [0.0, 0.0, 3.0, 4.0, 5.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
         'Float32'),
    'pad_reflect':
        ([[5.0, 4.0, 3.0, 4.0, 5.0, 4.0, 3.0], [2.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0],
          [5.0, 4.0, 3.0, 4.0, 5.0, 4.0, 3.0], [2.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0]],
         'Float32'),
    'pad_symmetric':
        ([[1.0, 0.0, 0.0, 1.0, 2.0, 2.0, 1.0], [1.0, 0.0, 0.0, 1.0, 2.0, 2.0, 1.0],
          [4.0, 3.0, 3.0, 4.0, 5.0, 5.0, 4.0], [4.0, 3.0, 3.0, 4.0, 5.0, 5.0, 4.0]],
         'Float32'),
    'pad_doc': ([[0.0, 1.0, 2.0, 3.0, 0.0], [0.0, 4.0, 5.0, 6.0, 0.0]], 'Float32'),
    'mae_loss_doc': (0.3333333432674408, 'Float32'),
    'mae_loss_none': ([[0.0, 3.0], [2.0, 0.0]], 'Float32'),
    'scalar_to_tensor_doc': (1.0, 'Float32'),
    'scalar_to_tensor_int': (7, 'Int32'),
    'pad_prim_doc':
        ([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
          [0.0, 0.0, -0.10000000149011612, 0.30000001192092896, 3.5999999046325684, 0.0],
          [0.0, 0.0, 0.4000000059604645, 0.5, -3.200000047683716, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
          [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
         'Float32'),
    'pad_functional_value': ([[1.5, 0.0, 1.0, 2.0, 1.5, 1.5], [1.5, 3.0, 4.0, 5.0, 1.5, 1.5]], 'Float32'),
    'pad_functional_reflect':
        ([[[5.0, 4.0, 3.0, 4.0, 5.0, 4.0], [2.0, 1.0, 0.0, 1.0, 2.0, 1.0], [5.0, 4.0, 3.0, 4.0, 5.0, 4.0]]],
         'Float32'),
    'resize_nearest_doc': ([[[[-0.10000000149011612, 0.30000001192092896], [0.4000000059604645, 0.5]]]], 'Float32'),
    'resize_nearest_up':
        ([[[[0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0], [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0],
            [4.0, 4.0, 5.0, 5.0, 6.0, 6.0, 7.0], [4.0, 4.0, 5.0, 5.0, 6.0, 6.0, 7.0],
            [8.0, 8.0, 9.0, 9.0, 10.0, 10.0, 11.0]]]],
         'Float32'),
    'resize_nearest_align':
        ([[[[0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0], [4.0, 5.0, 5.0, 6.0, 6.0, 7.0, 7.0],
            [4.0, 5.0, 5.0, 6.0, 6.0, 7.0, 7.0], [8.0, 9.0, 9.0, 10.0, 10.0, 11.0, 11.0],
            [8.0, 9.0, 9.0, 10.0, 10.0, 11.0, 11.0]]]],
         'Float32'),
    'resize_nearest_half_pixel': ([[[[0.0, 1.0, 2.0], [4.0, 5.0, 6.0]]]], 'Float32'),
    'sigmoid_ce_doc':
        ([[0.6111006736755371, 0.5032824277877808, 0.2631860375404358],
          [0.5843966603279114, 0.5530152916908264, -0.43681398034095764]],
         'Float32'),
    'sigmoid_ce_large': ([30.0, 30.0], 'Float32'),
    'tuple_to_array_doc': ([1, 2, 3], 'Int32'),
    'tuple_to_array_float': ([1.0, 2.5], 'Float32'),
    'eye_doc': ([[1, 0], [0, 1]], 'Int32'),
    'eye_rect': ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 'Float32'),
    'one_hot_doc': ([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]], 'Float32'),
    'one_hot_axis0': ([[5.0, -1.0], [-1.0, -1.0], [-1.0, 5.0]], 'Float32'),
    'args_type_check_error': "The parameter 'a' must be <class 'int'>, but got <class 'str'>",
    'interpolate_bilinear':
        ([[[[0.0, 0.35714292526245117, 0.9285714626312256, 1.5, 2.0714287757873535, 2.642857313156128, 3.0],
            [1.6000001430511475, 1.9571430683135986, 2.528571605682373, 3.1000001430511475, 3.671428918838501,
             4.242857456207275, 4.600000381469727],
            [4.0, 4.357142925262451, 4.928571701049805, 5.5, 6.0714287757873535, 6.642857551574707, 7.0],
            [6.40000057220459, 6.757143974304199, 7.3285722732543945, 7.90000057220459, 8.471428871154785,
             9.042858123779297, 9.40000057220459],
            [8.0, 8.35714340209961, 8.928571701049805, 9.5, 10.071428298950195, 10.642857551574707, 11.0]]]],
         'Float32'),
    'interpolate_bilinear_align':
        ([[[[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0], [2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0],
            [4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0], [6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0],
            [8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0]]]],
         'Float32'),
    'interpolate_bilinear_down':
        ([[[[1.1666666269302368, 2.5, 3.8333334922790527], [7.1666669845581055, 8.5, 9.833333969116211]]]],
         'Float32'),
    'interpolate_linear': ([[[0.0, 0.5, 1.1666666269302368, 1.8333333730697632, 2.5, 3.0]]], 'Float32'),
    'interpolate_nearest_1d': ([[[0.0, 0.0, 1.0, 2.0, 2.0, 3.0]]], 'Float32'),
    'interpolate_doc': ([[[1.0, 1.25, 1.75, 2.25, 2.75, 3.0], [4.0, 4.25, 4.75, 5.25, 5.75, 6.0]]], 'Float32'),
    'resize_bilinear_v2':
        ([[[[0.0, 0.5714285969734192, 1.1428571939468384, 1.7142858505249023, 2.2857143878936768,
             2.857142925262451, 3.0],
            [2.4000000953674316, 2.971428632736206, 3.5428571701049805, 4.114285945892334, 4.685714244842529,
             5.257143020629883, 5.400000095367432],
            [4.800000190734863, 5.371428966522217, 5.942857265472412, 6.514286041259766, 7.085714340209961,
             7.6571431159973145, 7.800000190734863],
            [7.200000286102295, 7.77142858505249, 8.342857360839844, 8.914285659790039, 9.485713958740234,
             10.057144165039062, 10.200000762939453],
            [8.0, 8.571428298950195, 9.142857551574707, 9.714285850524902, 10.285714149475098,
             10.85714340209961, 11.0]]]],
         'Float32'),
    'resize_bilinear_v2_doc':
        ([[[[1.0, 1.7999999523162842, 2.5999999046325684, 3.4000000953674316, 4.0],
            [2.5999999046325684, 3.4000000953674316, 4.199999809265137, 5.0, 5.599999904632568],
            [4.199999809265137, 5.0, 5.800000190734863, 6.600000381469727, 7.199999809265137],
            [5.0, 5.800000190734863, 6.599999904632568, 7.400000095367432, 8.0],
            [5.0, 5.800000190734863, 6.599999904632568, 7.400000095367432, 8.0]]]],
         'Float32'),
    'depth_to_space_doc':
        ([[[[0.0, 3.0], [6.0, 9.0]], [[1.0, 4.0], [7.0, 10.0]], [[2.0, 5.0], [8.0, 11.0]]]], 'Float32'),
    'depth_to_space_2x2':
        ([[[[0.0, 4.0, 1.0, 5.0], [8.0, 12.0, 9.0, 13.0], [2.0, 6.0, 3.0, 7.0], [10.0, 14.0, 11.0, 15.0]]]],
         'Float32'),
    'smooth_l1_prim_doc': ([0.0, 0.0, 0.5], 'Float32'),
    'smooth_l1_prim_sum': (1.7899999618530273, 'Float32'),
    'make_range_doc': (1, 2, 3, 4),
    'make_range_step': (0, 3, 6, 9),
    'identity_functional': ([1.5, -2.0], 'Float32'),
    'tuple_len_doc': 3,
    'bce_prim_doc': (2.6431355476379395, 'Float32'),
    'bce_prim_none': ([0.10536054521799088, 0.2231435328722], 'Float32'),
    'adaptive_avg_pool_2d_prim': ([[[2.5, 4.5], [6.5, 8.5]]], 'Float32'),
    'gather_d_doc': ([[1, 1], [4, 3]], 'Int32'),
    'gather_d_dim0': ([[8.0, 1.0, 6.0, 7.0], [0.0, 1.0, 10.0, 7.0]], 'Float32'),
    'gather_elements_3d':
        ([[[3.0, 0.0], [5.0, 5.0], [10.0, 8.0]], [[15.0, 12.0], [17.0, 17.0], [22.0, 20.0]]], 'Float32'),
    'check_valid_doc': ([True, False, False], 'Bool'),
    'check_valid_edges': ([True, False, False, False, False, True], 'Bool'),
    'ops_arange_int': ([1, 3, 5], 'Int64'),
    'ops_arange_float': ([0.0, 0.25, 0.5, 0.75], 'Float32'),
    'ops_arange_dtype': ([0.0, 1.0, 2.0, 3.0, 4.0], 'Float32'),
    'floor_doc': ([1.0, 2.0, -2.0], 'Float32'),
    'floor_grad': ([0.0, 0.0, 0.0], 'Float32'),
    'repeat_elements_doc': ([[0, 1, 2], [0, 1, 2], [3, 4, 5], [3, 4, 5]], 'Int32'),
    'repeat_elements_axis1':
        ([[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 4.0, 4.0, 4.0, 5.0, 5.0, 5.0]],
         'Float32'),
    'upsample_nearest':
        ([[[[0.0, 0.0, 1.0, 2.0, 2.0, 3.0], [0.0, 0.0, 1.0, 2.0, 2.0, 3.0], [4.0, 4.0, 5.0, 6.0, 6.0, 7.0],
            [8.0, 8.0, 9.0, 10.0, 10.0, 11.0]]]],
         'Float32'),
    'cumsum_doc':
        ([[3.0, 7.0, 13.0, 23.0], [1.0, 7.0, 14.0, 23.0], [4.0, 7.0, 15.0, 22.0], [1.0, 4.0, 11.0, 20.0]],
         'Float32'),
    'cumsum_exclusive':
        ([[0.0, 0.0, 0.0, 0.0], [3.0, 4.0, 6.0, 10.0], [4.0, 10.0, 13.0, 19.0], [8.0, 13.0, 21.0, 26.0]],
         'Float32'),
    'cumsum_reverse':
        ([[23.0, 20.0, 16.0, 10.0], [23.0, 22.0, 16.0, 9.0], [22.0, 18.0, 15.0, 7.0],
          [20.0, 19.0, 16.0, 9.0]],
         'Float32'),
    'cumsum_exclusive_reverse':
        ([[6.0, 12.0, 22.0, 25.0], [5.0, 6.0, 15.0, 16.0], [1.0, 3.0, 7.0, 9.0], [0.0, 0.0, 0.0, 0.0]],
         'Float32'),
    'cumsum_int': ([1, 3, 6], 'Int32'),
    'cumsum_functional_dtype': ([1.0, 3.0, 6.0], 'Float32'),
    'unstack_doc': ([2, 2, 2, 2], 'Int32'),
    'unstack_axis1': ([2.0, 5.0], 'Float32'),
    'sort_doc_values': ([[1.0, 2.0, 8.0], [3.0, 5.0, 9.0], [4.0, 6.0, 7.0]], 'Float16'),
    'sort_doc_indices': ([[2, 1, 0], [2, 0, 1], [0, 1, 2]], 'Int32'),
    'sort_ties_descending': ([[1, 4, 3, 0, 2]], 'Int32'),
    'sort_axis0_indices': ([[1, 2], [2, 0], [0, 1]], 'Int32'),
    'round_halves': ([0.0, 2.0, 2.0, -0.0, -2.0, 1.0, -3.0, 3.0], 'Float32'),
    'round_int': ([1, 2], 'Int32'),
    'round_grad': ([0.0, 0.0], 'Float32'),
    'linspace_doc': ([1.0, 3.25, 5.5, 7.75, 10.0], 'Float32'),
    'linspace_numbers': ([-1.0, -0.3333333134651184, 0.3333333730697632, 1.0], 'Float32'),
    'linspace_one': ([0.0], 'Float32'),
    'meshgrid_xy': ([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]], 'Int32'),
    'meshgrid_ij': ([[5, 6, 7], [5, 6, 7], [5, 6, 7], [5, 6, 7]], 'Int32'),
}

X23 = np.arange(6).reshape(2, 3).astype(np.float32)
X34 = np.arange(12).reshape(1, 1, 3, 4).astype(np.float32)
BOXES = np.array([[0, 0, 2, 5], [-0.1, 0, 1, 1], [0, -0.1, 1, 1], [0, 0, 2.01, 1], [0, 0, 1, 5.01],
                  [1, 1, 0.5, 0.5]], np.float32)
CUMSUM_DATA = np.array([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]], np.float32)
SLICE_DATA = np.array([[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 6, 6]]], np.int32)
MATRIX = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32)
VECTOR = np.array([3.0, 4.0, 12.0], np.float32)

# each case: a function of Tensors (the same call as the recording tool's) and its inputs


def reciprocal_doc(x):
    return P.Reciprocal()(x)


def reciprocal_int(x):
    return P.Reciprocal()(x)


def identity_doc(x):
    return ops.Identity()(x)


def slice_doc(x):
    return P.Slice()(x, (1, 0, 0), (1, 1, 3))


def slice_to_end(x):
    return P.Slice()(x, (0, 1), (2, -1))


def strided_slice_doc(x):
    return P.StridedSlice()(x, (1, 0, 2), (3, 1, 3), (1, 1, 1))


def strided_slice_masks(x):
    return P.StridedSlice(begin_mask=1, end_mask=2, shrink_axis_mask=4)(x, (2, 0, 1), (3, 1, 3), (1, 1, 1))


def gather_nd_doc(x, i):
    return P.GatherNd()(x, i)


def gather_nd_rows(x, i):
    return P.GatherNd()(x, i)


def bias_add_doc(x, b):
    return P.BiasAdd()(x, b)


def bias_add_nchw(x, b):
    return P.BiasAdd()(x, b)


def l2_normalize_doc(x):
    return ops.L2Normalize(axis=1)(x)


def l2_normalize_axis0(x):
    return ops.L2Normalize()(x)


def norm_doc(x):
    return ops.norm(x)


def norm_doc_ord1(x):
    return ops.norm(x, ord=1)


def norm_doc_ord0(x):
    return ops.norm(x, ord=0)


def norm_doc_batched(x):
    return ops.norm(x, dim=1)


def norm_matrix_inf_keepdim(x):
    return ops.norm(x, ord=float("inf"), dim=(0, 1), keepdim=True)


def norm_ord1_dim(x):
    return ops.norm(x, ord=1, dim=1)


def norm_inf_keepdim(x):
    return ops.norm(x, ord=float("inf"), dim=0, keepdim=True)


def norm_ord3_dim(x):
    return ops.norm(x, ord=3, dim=1)


def norm_fro(x):
    return ops.norm(x, ord="fro", dim=(0, 1))


def relu6_doc(x):
    return nn.ReLU6()(x)


def relu6_prim(x):
    return P.ReLU6()(x)


def pad_constant(x):
    return nn.Pad(paddings=((1, 1), (2, 2)))(x)


def pad_reflect(x):
    return nn.Pad(paddings=((1, 1), (2, 2)), mode="REFLECT")(x)


def pad_symmetric(x):
    return nn.Pad(paddings=((1, 1), (2, 2)), mode="SYMMETRIC")(x)


def pad_doc(x):
    return nn.Pad(paddings=((0, 0), (1, 1)), mode="CONSTANT")(x)


def mae_loss_doc(x, y):
    return nn.MAELoss()(x, y)


def mae_loss_none(x, y):
    return nn.MAELoss(reduction="none")(x, y)


def pad_prim_doc(x):
    return ops.Pad(((1, 2), (2, 1)))(x)


def pad_functional_value(x):
    return ops.pad(x, (1, 2), value=1.5)


def pad_functional_reflect(x):
    return ops.pad(x, (2, 1, 1, 0), mode="reflect")


def resize_nearest_doc(x):
    return ops.ResizeNearestNeighbor((2, 2))(x)


def resize_nearest_up(x):
    return ops.ResizeNearestNeighbor((5, 7))(x)


def resize_nearest_align(x):
    return ops.ResizeNearestNeighbor((5, 7), align_corners=True)(x)


def resize_nearest_half_pixel(x):
    return ops.ResizeNearestNeighbor((2, 3), half_pixel_centers=True)(x)


def tuple_to_array_doc():
    return F.tuple_to_array((1, 2, 3))


def tuple_to_array_float():
    return F.tuple_to_array((1.0, 2.5))


def eye_doc():
    return ops.Eye()(2, 2, ms.int32)


def eye_rect():
    return ops.Eye()(2, 3, ms.float32)


def one_hot_doc(indices):
    return nn.OneHot(depth=4)(indices)


def one_hot_axis0(indices):
    return nn.OneHot(axis=0, depth=3, on_value=5.0, off_value=-1.0)(indices)


def interpolate_bilinear(x):
    return ops.interpolate(x, size=(5, 7), mode="bilinear")


def interpolate_bilinear_align(x):
    return ops.interpolate(x, size=(5, 7), mode="bilinear", align_corners=True)


def interpolate_bilinear_down(x):
    return ops.interpolate(x, size=(2, 3), mode="bilinear")


def interpolate_nearest(x):
    return ops.interpolate(x, size=(5, 7))


def interpolate_linear(x):
    return ops.interpolate(x, size=6, mode="linear")


def interpolate_nearest_1d(x):
    return ops.interpolate(x, size=6)


def interpolate_doc(x):
    return ops.interpolate(x, size=(6,), mode="linear")


def resize_bilinear_v2(x):
    return ops.ResizeBilinearV2()(x, (5, 7))


def resize_bilinear_v2_half_pixel(x):
    return ops.ResizeBilinearV2(half_pixel_centers=True)(x, (5, 7))


def resize_bilinear_v2_align(x):
    return ops.ResizeBilinearV2(align_corners=True)(x, (5, 7))


def resize_bilinear_v2_doc(x):
    return ops.ResizeBilinearV2()(x, (5, 5))


def depth_to_space(x):
    return ops.DepthToSpace(2)(x)


def smooth_l1_prim_doc(x, y):
    return P.SmoothL1Loss()(x, y)


def smooth_l1_prim_sum(x, y):
    return P.SmoothL1Loss(beta=0.5, reduction="sum")(x, y)


def resize_bilinear_1x_layer(x):
    return nn.ResizeBilinear()(x, (5, 7))


def resize_bilinear_1x_layer_half_pixel(x):
    return nn.ResizeBilinear(half_pixel_centers=True)(x, size=(5, 7))


def resize_bilinear_1x_primitive_align(x):
    return ops.ResizeBilinear((5, 7), align_corners=True)(x)


def identity_functional(x):
    return F.identity(x)


def bce_prim_doc(x, y, w):
    return ops.BinaryCrossEntropy()(x, y, w)


def bce_prim_none(x, y):
    return ops.BinaryCrossEntropy("none")(x, y)


def adaptive_avg_pool_2d_prim(x):
    return ops.AdaptiveAvgPool2D((2, 2))(x)


def gather_d_doc(x, index):
    return ops.GatherD()(x, 1, index)


def gather_d_dim0(x, index):
    return ops.gather_d(x, 0, index)


def gather_elements_3d(x, index):
    return ops.gather_elements(x, -1, index)


def check_valid(boxes, metas):
    return ops.CheckValid()(boxes, metas)


def ops_arange_int():
    return ops.arange(1, 6, 2)


def ops_arange_float():
    return ops.arange(0.0, 1.0, 0.25)


def ops_arange_dtype():
    return ops.arange(5, dtype=ms.float32)


def floor_doc(x):
    return ops.Floor()(x)


def floor_sum(x):
    return ops.Floor()(x).sum()


def floor_grad(x):
    return ms.grad(floor_sum)(x)


def repeat_elements_doc(x):
    return ops.repeat_elements(x, rep=2)


def repeat_elements_axis1(x):
    return ops.repeat_elements(x, rep=3, axis=1)


def upsample_bilinear(x):
    return nn.Upsample(size=(5, 7), mode="bilinear")(x)


def upsample_nearest(x):
    return nn.Upsample(size=(4, 6))(x)


def cumsum_doc(x):
    return P.CumSum()(x, 1)


def cumsum_exclusive(x):
    return P.CumSum(exclusive=True)(x, 0)


def cumsum_reverse(x):
    return P.CumSum(reverse=True)(x, 1)


def cumsum_exclusive_reverse(x):
    return P.CumSum(exclusive=True, reverse=True)(x, 0)


def cumsum_int(x):
    return ops.cumsum(x, 0)


def cumsum_functional_dtype(x):
    return ops.cumsum(x, -1, dtype=ms.float32)


def unstack_doc(x):
    return ops.Unstack()(x)[1]


def unstack_axis1(x):
    return ops.Unstack(axis=1)(x)[2]


def unstack_weighted(x):
    first, second, third = ops.Unstack(axis=1)(x)
    return first * 2 + second * third


def sort_doc_values(x):
    return ops.Sort()(x)[0]


def sort_doc_indices(x):
    return ops.Sort()(x)[1]


def sort_ties_descending(x):
    return ops.sort(x, descending=True)[1]


def sort_axis0_indices(x):
    return ops.Sort(axis=0)(x)[1]


def sort_weighted(x):
    return ops.Sort(axis=0, descending=True)(x)[0] * Tensor(np.arange(1.0, 7.0).reshape(3, 2))


def round_halves(x):
    return P.Round()(x)


def round_int(x):
    return ops.round(x)


def round_sum(x):
    return P.Round()(x).sum()


def round_grad(x):
    return ms.grad(round_sum)(x)


def linspace_doc(start, end):
    return ops.linspace(start, end, 5)


def linspace_numbers():
    return ops.linspace(-1, 1, 4)


def linspace_one():
    return ops.linspace(0, 1, 1)


def meshgrid_xy(x, y):
    return ops.Meshgrid(indexing="xy")((x, y))[0]


def meshgrid_ij(x, y):
    return ops.Meshgrid(indexing="ij")((x, y))[1]


def meshgrid_weighted(x, y):
    xx, yy = ops.Meshgrid()((x, y))
    return xx * yy * yy


def sigmoid_ce(x, y):
    return P.SigmoidCrossEntropyWithLogits()(x, y)


CASES = {
    "pad_prim_doc": (pad_prim_doc, (np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32),)),
    "pad_functional_value": (pad_functional_value, (X23,)),
    "pad_functional_reflect": (pad_functional_reflect, (X23.reshape(1, 2, 3),)),
    "resize_nearest_doc": (resize_nearest_doc, (np.array([[[[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]]], np.float32),)),
    "resize_nearest_up": (resize_nearest_up, (X34,)),
    "resize_nearest_align": (resize_nearest_align, (X34,)),
    "resize_nearest_half_pixel": (resize_nearest_half_pixel, (X34,)),
    "tuple_to_array_doc": (tuple_to_array_doc, ()),
    "tuple_to_array_float": (tuple_to_array_float, ()),
    "eye_doc": (eye_doc, ()),
    "eye_rect": (eye_rect, ()),
    "one_hot_doc": (one_hot_doc, (np.array([1, 3], np.int32),)),
    "one_hot_axis0": (one_hot_axis0, (np.array([0, 2], np.int32),)),
    "interpolate_bilinear": (interpolate_bilinear, (X34,)),
    "interpolate_bilinear_align": (interpolate_bilinear_align, (X34,)),
    "interpolate_bilinear_down": (interpolate_bilinear_down, (X34,)),
    "interpolate_nearest": (interpolate_nearest, (X34,)),
    "interpolate_linear": (interpolate_linear, (np.arange(4).reshape(1, 1, 4).astype(np.float32),)),
    "interpolate_nearest_1d": (interpolate_nearest_1d, (np.arange(4).reshape(1, 1, 4).astype(np.float32),)),
    "interpolate_doc": (interpolate_doc, (np.array([[[1, 2, 3], [4, 5, 6]]], np.float32),)),
    "resize_bilinear_v2": (resize_bilinear_v2, (X34,)),
    "resize_bilinear_v2_half_pixel": (resize_bilinear_v2_half_pixel, (X34,)),
    "resize_bilinear_v2_align": (resize_bilinear_v2_align, (X34,)),
    "resize_bilinear_v2_doc": (resize_bilinear_v2_doc, (np.array([[[[1, 2, 3, 4], [5, 6, 7, 8]]]], np.float32),)),
    "depth_to_space_doc": (depth_to_space, (np.arange(12).reshape(1, 12, 1, 1).astype(np.float32),)),
    "depth_to_space_2x2": (depth_to_space, (np.arange(16).reshape(1, 4, 2, 2).astype(np.float32),)),
    "smooth_l1_prim_doc": (smooth_l1_prim_doc, (np.array([1, 2, 3], np.float32), np.array([1, 2, 2], np.float32))),
    "smooth_l1_prim_sum": (smooth_l1_prim_sum, (np.array([1.0, 2.0, 4.0], np.float32),
                                                np.array([1.2, 2.0, 2.0], np.float32))),
    "identity_functional": (identity_functional, (np.array([1.5, -2.0], np.float32),)),
    "bce_prim_doc": (bce_prim_doc, (np.array([0.1, 0.2, 0.3], np.float32), np.ones(3, np.float32),
                                    np.array([1, 2, 2], np.float32))),
    "bce_prim_none": (bce_prim_none, (np.array([0.9, 0.2], np.float32), np.array([1.0, 0.0], np.float32))),
    "adaptive_avg_pool_2d_prim": (adaptive_avg_pool_2d_prim, (X34.reshape(1, 3, 4),)),
    "gather_d_doc": (gather_d_doc, (np.array([[1, 2], [3, 4]], np.int32), np.array([[0, 0], [1, 0]], np.int32))),
    "gather_d_dim0": (gather_d_dim0, (X34.reshape(3, 4), np.array([[2, 0, 1, 1], [0, 0, 2, 1]], np.int32))),
    "gather_elements_3d": (gather_elements_3d, (np.arange(24).reshape(2, 3, 4).astype(np.float32),
                                                np.array([[[3, 0], [1, 1], [2, 0]]] * 2, np.int32))),
    "check_valid_doc": (check_valid, (np.linspace(0, 6, 12).reshape(3, 4).astype(np.float32),
                                      np.array([2, 1, 3], np.float32))),
    "check_valid_edges": (check_valid, (BOXES, np.array([2, 1, 3], np.float32))),
    "ops_arange_int": (ops_arange_int, ()),
    "ops_arange_float": (ops_arange_float, ()),
    "ops_arange_dtype": (ops_arange_dtype, ()),
    "floor_doc": (floor_doc, (np.array([1.1, 2.5, -1.5], np.float32),)),
    "floor_grad": (floor_grad, (np.array([1.1, 2.5, -1.5], np.float32),)),
    "repeat_elements_doc": (repeat_elements_doc, (np.array([[0, 1, 2], [3, 4, 5]], np.int32),)),
    "repeat_elements_axis1": (repeat_elements_axis1, (X23,)),
    "upsample_bilinear": (upsample_bilinear, (X34,)),
    "upsample_nearest": (upsample_nearest, (X34,)),
    "cumsum_doc": (cumsum_doc, (CUMSUM_DATA,)),
    "cumsum_exclusive": (cumsum_exclusive, (CUMSUM_DATA,)),
    "cumsum_reverse": (cumsum_reverse, (CUMSUM_DATA,)),
    "cumsum_exclusive_reverse": (cumsum_exclusive_reverse, (CUMSUM_DATA,)),
    "cumsum_int": (cumsum_int, (np.array([1, 2, 3], np.int32),)),
    "cumsum_functional_dtype": (cumsum_functional_dtype, (np.array([1, 2, 3], np.int32),)),
    "unstack_doc": (unstack_doc, (np.array([[1, 1, 1, 1], [2, 2, 2, 2]], np.int32),)),
    "unstack_axis1": (unstack_axis1, (X23,)),
    "sort_doc_values": (sort_doc_values, (np.array([[8, 2, 1], [5, 9, 3], [4, 6, 7]], np.float16),)),
    "sort_doc_indices": (sort_doc_indices, (np.array([[8, 2, 1], [5, 9, 3], [4, 6, 7]], np.float16),)),
    "sort_ties_descending": (sort_ties_descending, (np.array([[1, 3, 1, 2, 3]], np.float32),)),
    "sort_axis0_indices": (sort_axis0_indices, (np.array([[3, 1], [1, 2], [2, 0]], np.float32),)),
    "round_halves": (round_halves, (np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.8, -2.7, 3.49], np.float32),)),
    "round_int": (round_int, (np.array([1, 2], np.int32),)),
    "round_grad": (round_grad, (np.array([0.5, -2.7], np.float32),)),
    "linspace_doc": (linspace_doc, (np.array(1, np.float32), np.array(10, np.float32))),
    "linspace_numbers": (linspace_numbers, ()),
    "linspace_one": (linspace_one, ()),
    "meshgrid_xy": (meshgrid_xy, (np.array([1, 2, 3, 4], np.int32), np.array([5, 6, 7], np.int32))),
    "meshgrid_ij": (meshgrid_ij, (np.array([1, 2, 3, 4], np.int32), np.array([5, 6, 7], np.int32))),
    "sigmoid_ce_doc": (sigmoid_ce, (np.array([[-0.8, 1.2, 0.7], [-0.1, -0.4, 0.7]], np.float32),
                                    np.array([[0.3, 0.8, 1.2], [-0.6, 0.1, 2.2]], np.float32))),
    "sigmoid_ce_large": (sigmoid_ce, (np.array([-30.0, 30.0], np.float32), np.array([1.0, 0.0], np.float32))),
    "reciprocal_doc": (reciprocal_doc, (np.array([1.0, 2.0, 4.0], np.float32),)),
    "reciprocal_int": (reciprocal_int, (np.array([1, 2, 4], np.int32),)),
    "identity_doc": (identity_doc, (np.array([1, 2, 3, 4], np.int64),)),
    "slice_doc": (slice_doc, (SLICE_DATA,)),
    "slice_to_end": (slice_to_end, (X23,)),
    "strided_slice_doc": (strided_slice_doc, (SLICE_DATA,)),
    "strided_slice_masks": (strided_slice_masks, (SLICE_DATA,)),
    "gather_nd_doc": (gather_nd_doc, (np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32),
                                      np.array([[0, 0], [1, 1]], np.int32))),
    "gather_nd_rows": (gather_nd_rows, (SLICE_DATA, np.array([[2], [0]], np.int32))),
    "bias_add_doc": (bias_add_doc, (X23, np.arange(3).astype(np.float32))),
    "bias_add_nchw": (bias_add_nchw, (np.ones((1, 2, 2, 2), np.float32), np.array([1.0, -1.0], np.float32))),
    "l2_normalize_doc": (l2_normalize_doc, (X23,)),
    "l2_normalize_axis0": (l2_normalize_axis0, (np.array([[1e-3, 3.0], [1e-3, 4.0]], np.float32),)),
    "norm_doc": (norm_doc, (VECTOR,)),
    "norm_doc_ord1": (norm_doc_ord1, (VECTOR,)),
    "norm_doc_ord0": (norm_doc_ord0, (VECTOR,)),
    "norm_doc_fro": (norm_doc, (MATRIX,)),
    "norm_doc_matrix1": (norm_doc_ord1, (MATRIX,)),
    "norm_doc_batched": (norm_doc_batched, (MATRIX,)),
    "norm_matrix_inf_keepdim": (norm_matrix_inf_keepdim, (X23 - 3,)),
    "norm_ord1_dim": (norm_ord1_dim, (X23,)),
    "norm_inf_keepdim": (norm_inf_keepdim, (X23 - 3,)),
    "norm_ord3_dim": (norm_ord3_dim, (X23,)),
    "norm_fro": (norm_fro, (X23,)),
    "relu6_doc": (relu6_doc, (np.array([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]], np.float32),)),
    "relu6_prim": (relu6_prim, (np.array([6.5, 0.5], np.float32),)),
    "pad_constant": (pad_constant, (X23,)),
    "pad_reflect": (pad_reflect, (X23,)),
    "pad_symmetric": (pad_symmetric, (X23,)),
    "pad_doc": (pad_doc, (np.array([[1, 2, 3], [4, 5, 6]], np.float32),)),
    "mae_loss_doc": (mae_loss_doc, (np.array([1, 2, 3], np.float32), np.array([1, 2, 2], np.float32))),
    "mae_loss_none": (mae_loss_none, (np.array([[1, 2], [3, 4]], np.float32), np.array([[1, 5], [1, 4]], np.float32))),
}


# cases whose MindSpore outputs equal another case's (the recording tool checks it)
SAME_AS = {"resize_bilinear_v2_half_pixel": "interpolate_bilinear",
           "resize_bilinear_v2_align": "interpolate_bilinear_align", "upsample_bilinear": "interpolate_bilinear",
           "interpolate_nearest": "resize_nearest_up"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_are_mindspores_eagerly_and_compiled(name):
    fn, inputs = CASES[name]
    check_eager_and_compiled(fn, inputs, MINDSPORE_VALUES[SAME_AS.get(name, name)])


def test_round_keeps_the_sign_of_zero_as_mindspore():
    rounded = P.Round()(Tensor(np.array([-0.5, 0.4], np.float32))).asnumpy()
    assert np.signbit(rounded).tolist() == [True, False]  # MindSpore 2.10 prints -0. for -0.5
    with pytest.raises(ValueError, match="For Round only support decimals equal 0, but got decimals equal 1"):
        ops.round(Tensor(np.ones(2, np.float32)), decimals=1)


def test_shape_and_dtype_primitives_eagerly_and_compiled():
    x = Tensor(np.ones((3, 2, 1), np.float32))
    assert P.Shape()(x) == MINDSPORE_VALUES["shape_doc"]
    assert str(P.DType()(Tensor(np.ones((2, 2), np.float32)))) == MINDSPORE_VALUES["dtype_doc"]

    @ms.jit
    def reshaped(x):
        rows, cols, _ = P.Shape()(x)
        return ops.cast(x.reshape((rows * cols,)), P.DType()(x))
    assert reshaped(x).shape == (6,)


def test_scalar_to_tensor_is_mindspores():
    for name, out in (("scalar_to_tensor_doc", F.scalar_to_tensor(1, ms.float32)),
                      ("scalar_to_tensor_int", F.scalar_to_tensor(7, ms.int32))):
        check_value(out, MINDSPORE_VALUES[name])
        assert out.shape == ()
    with pytest.raises(TypeError, match="'input_x' must be an int, float or bool, but got str"):
        F.scalar_to_tensor("1")


def test_identity_is_a_new_tensor():
    weight = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")
    copy = ops.Identity()(weight)
    ops.assign(weight, Tensor(np.zeros(2, np.float32)))
    np.testing.assert_array_equal(copy.asnumpy(), [1.0, 1.0])


def f64(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


# functions of float64 points, away from the kinks of relu6, abs and max
def reciprocal(x):
    return P.Reciprocal()(x)


def slice_block(x):
    return P.Slice()(x, (1, 0), (2, -1))


def strided(x):
    return P.StridedSlice(begin_mask=1, shrink_axis_mask=2)(x, (1, 1, 0), (3, 2, 4), (2, 1, 2))


def gather_nd(x):
    return P.GatherNd()(x, Tensor(np.array([[0, 1], [2, 0], [0, 1]], np.int32)))


def bias_add(x, b):
    return P.BiasAdd()(x, b)


def l2_normalize(x):
    return ops.L2Normalize(axis=1)(x)


def vector_norm3(x):
    return ops.norm(x, ord=3, dim=1)


def euclidean(x):
    return ops.norm(x)


def matrix_norm1(x):
    return ops.norm(x, ord=1)


def pad_constant(x):
    return nn.Pad(((1, 0), (2, 1)))(x)


def pad_reflect(x):
    return nn.Pad(((1, 1), (2, 1)), mode="REFLECT")(x)


def pad_symmetric(x):
    return nn.Pad(((0, 2), (1, 3)), mode="SYMMETRIC")(x)


def pad_value(x):
    return ops.pad(x, (1, 2), value=1.5)


def relu6(x):
    return nn.ReLU6()(x)


def mae(x, y):
    return nn.MAELoss()(x, y)


GRADIENT_CASES = {
    "linspace": (linspace_doc, (np.array(-1.5), np.array(2.0))),
    "meshgrid": (meshgrid_weighted, (f64((3,), 32), f64((2,), 33))),
    "sort": (sort_weighted, (np.array([[0.3, -1.2], [2.5, 0.7], [-0.4, 1.9]]),)),
    "cumsum": (cumsum_exclusive_reverse, (f64((3, 4), 29),)),
    "cumsum_reverse": (cumsum_reverse, (f64((2, 3), 30),)),
    "unstack": (unstack_weighted, (f64((2, 3), 31),)),
    "repeat_elements": (repeat_elements_axis1, (f64((2, 3), 27),)),
    "upsample_bilinear": (upsample_bilinear, (f64((1, 1, 3, 4), 28),)),
    "gather_d": (gather_d_dim0, (f64((3, 4), 24), np.array([[2, 0, 1, 1], [0, 0, 2, 1]], np.int32))),
    "gather_elements": (gather_elements_3d, (f64((2, 3, 4), 25), np.array([[[3, 0], [1, 1], [2, 0]]] * 2, np.int32))),
    "identity": (identity_functional, (f64((3,), 26),)),
    "depth_to_space": (depth_to_space, (f64((1, 8, 2, 1), 22),)),
    "resize_bilinear_1x": (resize_bilinear_1x_layer, (f64((1, 1, 3, 4), 23),)),
    "interpolate_bilinear": (interpolate_bilinear, (f64((1, 2, 3, 4), 18),)),
    "interpolate_bilinear_down": (interpolate_bilinear_down, (f64((1, 1, 3, 4), 19),)),
    "interpolate_linear": (interpolate_linear, (f64((1, 2, 4), 20),)),
    "resize_bilinear_v2_align": (resize_bilinear_v2_align, (f64((1, 1, 3, 4), 21),)),
    "pad_prim": (pad_prim_doc, (f64((2, 3), 13),)),
    "resize_nearest": (resize_nearest_align, (f64((1, 2, 3, 4), 14),)),
    "resize_nearest_down": (resize_nearest_doc, (f64((1, 1, 3, 4), 15),)),
    "sigmoid_ce": (sigmoid_ce, (f64((2, 3), 16), f64((2, 3), 17))),
    "reciprocal": (reciprocal, (f64((3,), 0) + 3,)),
    "slice": (slice_block, (f64((3, 4), 1),)),
    "strided_slice": (strided, (f64((3, 3, 4), 2),)),
    "gather_nd": (gather_nd, (f64((3, 2, 2), 3),)),
    "bias_add": (bias_add, (f64((2, 3, 2), 4), f64((3,), 5))),
    "l2_normalize": (l2_normalize, (f64((2, 3), 6),)),
    "vector_norm3": (vector_norm3, (f64((2, 3), 7),)),
    "euclidean": (euclidean, (f64((2, 3), 8),)),
    "matrix_norm1": (matrix_norm1, (np.array([[1.0, -2.5, 3.0], [4.0, 0.5, -7.0]]),)),
    "pad_constant": (pad_constant, (f64((2, 3), 9),)),
    "pad_reflect": (pad_reflect, (f64((2, 3), 10),)),
    "pad_symmetric": (pad_symmetric, (f64((2, 3), 11),)),
    "pad_value": (pad_value, (f64((3,), 12),)),
    "relu6": (relu6, (np.array([-1.0, 0.5, 3.0, 7.0]),)),
    "mae": (mae, (np.array([1.0, 2.0, 3.0]), np.array([0.5, 2.5, 2.0]))),
}


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradients_match_finite_differences_first_and_second_order(name):
    fn, args = GRADIENT_CASES[name]
    check_grads(fn, [Tensor(a) for a in args], order=2)


@ops.constexpr
def flattened(shape):
    size = 1
    for dim in shape:
        size *= dim
    return (size,)


@ops.constexpr(reuse_result=False)
def scale(n):
    return 1.0 / n


def flattened_and_scaled(x):
    return ops.reshape(x, flattened(x.shape)) * scale(x.shape[0])


def test_constexpr_runs_on_static_values_eagerly_and_compiled():
    x = Tensor(np.arange(6).reshape(2, 3).astype(np.float32))
    expected = np.arange(6, dtype=np.float32) / 2
    np.testing.assert_array_equal(flattened_and_scaled(x).asnumpy(), expected)
    np.testing.assert_array_equal(ms.jit(flattened_and_scaled)(x).asnumpy(), expected)


def test_bad_arguments_get_mindspores_errors():
    x = Tensor(X23)
    with pytest.raises(ValueError, match="the length of 'paddings' must be equal to the rank of 'input_x', "
                                         "but got 1 vs 2"):
        nn.Pad(paddings=((1, 1),))(x)
    with pytest.raises(ValueError, match="'mode' must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC'"):
        nn.Pad(((1, 1), (1, 1)), mode="EDGE")
    with pytest.raises(ValueError, match="a 'reflect' padding must be smaller than the padded dim"):
        nn.Pad(((0, 0), (3, 0)), mode="REFLECT")(x)
    with pytest.raises(ValueError, match=r"the ord mode must be in .* for matrices, but got 3"):
        ops.norm(x, ord=3)
    with pytest.raises(TypeError, match="ord mode can not be str for vectors"):
        ops.norm(x, ord="fro", dim=1)
    with pytest.raises(ValueError, match="ord='nuc' .* not implemented in npspore"):
        ops.norm(x, ord="nuc")
    with pytest.raises(ValueError, match="'bias' must be 1-D with the size of the channel dim"):
        P.BiasAdd()(x, Tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="the length of 'begin' and 'size' must equal the rank"):
        P.Slice()(x, (0,), (1,))
    with pytest.raises(ValueError, match="'ellipsis_mask' is not implemented in npspore"):
        P.StridedSlice(ellipsis_mask=1)(x, (0, 0), (1, 1), (1, 1))
    with pytest.raises(ValueError, match="'device_target' must be one of"):
        ms.set_device("TPU")


def test_args_type_check_raises_mindspores_type_error():
    @args_type_check(a=int, b=str)
    def checked(a, b=None, **kwargs):
        return a

    assert checked(1) == 1 and checked(2, "x") == 2 and checked(3, None) == 3
    with pytest.raises(TypeError) as info:
        checked("1")
    assert str(info.value) == MINDSPORE_VALUES["args_type_check_error"]

    @args_type_check(device_num=int)
    def configured(**kwargs):
        return kwargs

    assert configured(device_num=8) == {"device_num": 8}
    with pytest.raises(TypeError, match="The parameter 'device_num' must be <class 'int'>"):
        configured(device_num="8")


@pytest.mark.parametrize("fn, recorded", [
    (resize_bilinear_1x_layer, "resize_bilinear_v2"),
    (resize_bilinear_1x_layer_half_pixel, "interpolate_bilinear"),
    (resize_bilinear_1x_primitive_align, "interpolate_bilinear_align")])
def test_mindspore_1x_resize_bilinear_is_the_v2_kernel(fn, recorded):
    # MindSpore 2.10 has no nn.ResizeBilinear / ops.ResizeBilinear to record: 1.x's are ResizeBilinearV2's rules
    check_eager_and_compiled(fn, (X34,), MINDSPORE_VALUES[recorded])


def test_tuple_len_is_mindspores():
    assert F.tuple_len((1, 2, 3)) == MINDSPORE_VALUES["tuple_len_doc"]


def test_make_range_is_mindspores_and_static_in_compiled_code():
    assert F.make_range(1, 5) == MINDSPORE_VALUES["make_range_doc"]
    assert F.make_range(0, 10, 3) == MINDSPORE_VALUES["make_range_step"]
    assert F.make_range(3) == (0, 1, 2)

    @ms.jit
    def summed(x):
        return sum(x[i] for i in F.make_range(0, 4, 2))
    assert summed(Tensor(np.arange(4, dtype=np.float32))).asnumpy() == 2.0
    with pytest.raises(ValueError, match="'delta' must not be 0"):
        F.make_range(0, 3, 0)


def test_interpolate_errors_name_what_is_not_implemented():
    x = Tensor(np.ones((1, 1, 2, 2), np.float32))
    with pytest.raises(ValueError, match="the mode 'bicubic' is not implemented in npspore"):
        ops.interpolate(x, size=(3, 3), mode="bicubic")
    with pytest.raises(ValueError, match="'scale_factor' option cannot currently be set with the mode = bilinear "
                                         "and dim = 4D"):
        ops.interpolate(x, scale_factor=2.0, mode="bilinear")
    with pytest.raises(ValueError, match="'size' must be 2 positive int"):
        ops.interpolate(x, size=(3,), mode="bilinear")
    with pytest.raises(ValueError, match="'half_pixel_centers' must be False when 'align_corners' is True"):
        ops.ResizeBilinearV2(align_corners=True, half_pixel_centers=True)


def test_interpolate_by_a_scale_factor_is_mindspores():
    # MindSpore 2.10 CPU's values: the size is floor(dim * factor) (3 x 1.5 -> 4, 5 x 1.7 -> 8), then resized by size;
    # nn.Upsample(scale_factor=2.0, recompute_scale_factor=True) is the DCGAN examples' generator layer
    x = Tensor(np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4))
    doubled = np.repeat(np.repeat(np.arange(12, dtype=np.float32).reshape(3, 4), 2, axis=0), 2, axis=1)
    up = nn.Upsample(scale_factor=2.0, recompute_scale_factor=True)
    check_eager_and_compiled(up, (x.asnumpy(),), (doubled[None, None].tolist(), "Float32"))
    np.testing.assert_allclose(
        ops.interpolate(x, scale_factor=(1.5, 0.75), recompute_scale_factor=True, mode="bilinear").asnumpy()[0, 0],
        [[0.16666669, 1.5, 2.8333335], [2.6666665, 4.0, 5.3333335], [5.666667, 7.0, 8.333334],
         [8.166667, 9.5, 10.833334]], rtol=1e-6)
    line = ops.interpolate(Tensor(np.arange(5, dtype=np.float32).reshape(1, 1, 5)), scale_factor=1.7,
                           recompute_scale_factor=True, mode="linear")
    np.testing.assert_allclose(line.asnumpy()[0, 0], [0, 0.4375, 1.0625, 1.6875, 2.3125, 2.9375, 3.5625, 4], rtol=1e-6)
    weights = Tensor(np.arange(48, dtype=np.float32).reshape(1, 1, 6, 8))
    grad = ms.grad(lambda t: (up(t) * weights).sum())(x)
    np.testing.assert_array_equal(grad.asnumpy()[0, 0], [[18, 26, 34, 42], [82, 90, 98, 106], [146, 154, 162, 170]])
    for kwargs, message in ((dict(scale_factor=2.0), "cannot currently be set with the mode = nearest and dim = 4D"),
                            (dict(size=(6, 8), recompute_scale_factor=True), "incorrect to set 'recompute_scale_factor'"),
                            (dict(scale_factor=2.0, size=(6, 8)), "'size' and 'scale_factor' cannot be set simultaneously")):
        with pytest.raises(ValueError, match=message):
            ops.interpolate(x, **kwargs)


def test_set_device_sets_the_context():
    ms.set_device("CPU", 1)
    assert (ms.get_context("device_target"), ms.get_context("device_id")) == ("CPU", 1)
    ms.set_device("CPU", 0)


class Records(logging.Handler):
    """Keeps the records the logger passes on."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def emit(self, record):
        self.seen.append((record.levelname, record.getMessage()))


def test_log_writes_to_the_mindspore_logger_at_the_glog_level(monkeypatch):
    records = Records()
    logger = logging.getLogger("mindspore")
    logger.addHandler(records)
    try:
        monkeypatch.setenv("GLOG_v", "1")
        ms.log.info("epoch %d", 3)
        ms.log.debug("hidden")
        assert ms.log.get_level() == "1"
        monkeypatch.delenv("GLOG_v")
        ms.log.info("hidden too")
        ms.log.warning("loss is %s", "nan")
        assert ms.log.get_level() == "2"
    finally:
        logger.removeHandler(records)
    assert records.seen == [("INFO", "epoch 3"), ("WARNING", "loss is nan")]


def test_parallel_context_object_and_utils_read_the_auto_parallel_context():
    # MindSpore 2.10: stand_alone 1 0 False False False False / stand_alone 1 False; after
    # set_auto_parallel_context(device_num=4, parallel_mode='data_parallel', gradients_mean=True):
    # data_parallel 4 True 4 True; set_gradients_mean(False) then reads False
    from npspore.parallel import _utils
    from npspore.parallel._auto_parallel_context import auto_parallel_context
    context = auto_parallel_context()
    ms.reset_auto_parallel_context()
    try:
        assert (context.get_parallel_mode(), context.get_device_num(), context.get_global_rank(),
                context.get_gradients_mean(), context.get_full_batch(), context.get_device_num_is_set(),
                context.get_parameter_broadcast()) == ("stand_alone", 1, 0, False, False, False, False)
        assert (_utils._get_parallel_mode(), _utils._get_device_num(), _utils._get_gradients_mean()) == (
            "stand_alone", 1, False)
        ms.set_auto_parallel_context(device_num=4, parallel_mode="data_parallel", gradients_mean=True)
        assert (context.get_parallel_mode(), context.get_device_num(), context.get_device_num_is_set(),
                _utils._get_device_num(), _utils._get_gradients_mean()) == ("data_parallel", 4, True, 4, True)
        context.set_gradients_mean(False)
        assert ms.get_auto_parallel_context("gradients_mean") is False
    finally:
        ms.reset_auto_parallel_context()


def draws(x):
    return x + ops.randn(2000) + ops.UniformReal()((2000,))


def test_random_draws_are_seeded_fresh_per_call_and_shaped_as_mindspores():
    # MindSpore 2.10: randn(2, 3) and randn((2, 3)) are Float32 (2, 3); dtype=float64 gives Float64;
    # StandardNormal()((2, 2)) and UniformReal()((3,)) are Float32 (unseeded: std::random_device's numbers)
    assert (ops.randn(2, 3).dtype, ops.randn(2, 3).shape, ops.randn((2, 3)).shape) == (ms.float32, (2, 3), (2, 3))
    assert ops.randn(2, dtype=ms.float64).dtype == ms.float64
    assert (ops.StandardNormal()((2, 2)).dtype, ops.UniformReal()((3,)).shape) == (ms.float32, (3,))
    ms.set_seed(5)
    first = ops.randn(4).asnumpy()
    ms.set_seed(5)
    np.testing.assert_array_equal(ops.randn(4).asnumpy(), first)
    assert not np.array_equal(ops.randn(4).asnumpy(), first)
    compiled = ms.jit(draws)
    zeros = Tensor(np.zeros(2000, np.float32))
    one, two = compiled(zeros).asnumpy(), compiled(zeros).asnumpy()
    assert not np.array_equal(one, two)  # a compiled draw is not folded into a constant
    uniform = ops.rand(20000).asnumpy()
    normal = ops.randn(20000).asnumpy()
    assert 0 <= uniform.min() and uniform.max() < 1 and abs(uniform.mean() - 0.5) < 0.01
    assert abs(normal.mean()) < 0.03 and abs(normal.std() - 1) < 0.03
    # MindSpore 2.10: normal((2, 3), Tensor(1.0), Tensor(2.0)) is Float32 (2, 3)
    shifted = ops.normal((20000,), Tensor(1.0), Tensor(2.0))
    assert shifted.dtype == ms.float32 and ops.normal((2, 3), Tensor(1.0), Tensor(2.0)).shape == (2, 3)
    assert abs(shifted.asnumpy().mean() - 1) < 0.06 and abs(shifted.asnumpy().std() - 2) < 0.06
    # MindSpore 2.10: uniform((2, 3), Tensor(1.0), Tensor(2.0)) is Float32
    ranged = ops.uniform((20000,), Tensor(1.0, ms.float32), Tensor(3.0, ms.float32)).asnumpy()
    assert ranged.dtype == np.float32 and 1 <= ranged.min() and ranged.max() < 3 and abs(ranged.mean() - 2) < 0.03
    with pytest.raises(TypeError, match="the 'seed' must be an int"):
        ops.randn(2, seed=1.5)
    seeded = ops.StandardNormal(seed=2)((3,)).asnumpy()   # a new primitive of the same seeds draws them again
    np.testing.assert_array_equal(ops.StandardNormal(seed=2)((3,)).asnumpy(), seeded)


def test_algo_parameters_are_checked_and_recorded_as_mindspores():
    # MindSpore 2.10's defaults and errors (get_algo_parameters of a fresh process, bad values)
    ms.reset_algo_parameters()
    assert [ms.get_algo_parameters(key) for key in (
        "fully_use_devices", "elementwise_op_strategy_follow", "enable_algo_approxi", "algo_approxi_epsilon",
        "tensor_slice_align_enable", "tensor_slice_align_size")] == [False, False, False, 0.10000000149011612,
                                                                     False, 16]
    from npspore import parallel
    parallel.set_algo_parameters(elementwise_op_strategy_follow=True)
    assert ms.get_algo_parameters("elementwise_op_strategy_follow") is True
    ms.reset_algo_parameters()
    assert parallel.get_algo_parameters("elementwise_op_strategy_follow") is False
    with pytest.raises(TypeError) as info:
        ms.set_algo_parameters(fully_use_devices=1)
    assert str(info.value) == "The parameter 'fully_use_devices' must be <class 'bool'>, but got <class 'int'>"
    with pytest.raises(ValueError, match="^Set context keyword foo is not recognized!$"):
        ms.set_algo_parameters(foo=True)
    with pytest.raises(ValueError, match=r"^Align_size must be in \[1, 1024\], but got 0$"):
        ms.set_algo_parameters(tensor_slice_align_size=0)
    with pytest.raises(RuntimeError, match=r"'epsilon' must be in \(0, 1\]"):
        ms.set_algo_parameters(algo_approxi_epsilon=2.0)


# ops.range: values and errors as MindSpore 2.10 (CPU) prints them
@pytest.mark.parametrize("args, dtype, values", [
    ((0, 6, 2), ms.int64, [0, 2, 4]),
    ((1.0, 2.5, 0.5), ms.float32, [1.0, 1.5, 2.0]),
    ((Tensor(0.5), Tensor(2.0), Tensor(0.5)), ms.float32, [0.5, 1.0, 1.5]),
    ((Tensor(1, ms.int32), Tensor(5, ms.int32), Tensor(2, ms.int32)), ms.int64, [1, 3]),
    ((0, 5, 3), ms.int64, [0, 3]),
])
def test_ops_range_values(args, dtype, values):
    result = ops.range(*args)
    assert result.dtype == dtype
    np.testing.assert_array_equal(result.asnumpy(), values)


@pytest.mark.parametrize("args, error, message", [
    ((0, 6, 0), ValueError, "For Range, delta cannot be equal to zero."),
    ((0, 6.0, 1), TypeError, r"For Range, the dtypes of inputs must be the same, but got \(Int64, Float32, Int64\)."),
    ((6, 0, 1), ValueError, "For Range, delta cannot be positive when limit < start."),
    ((Tensor([0, 1]), 6, 2), ValueError, "Can only convert tensor with one element to number"),
])
def test_ops_range_errors(args, error, message):
    with pytest.raises(error, match=message):
        ops.range(*args)


def test_a_per_call_seed_draws_from_its_own_generator_eager_and_compiled(isolated_seeds):
    # MindSpore 2.10 CPU: ops.normal(shape, mean, stddev, seed=5) draws new numbers on each call, the same ones on
    # every run: eagerly each call is a new StandardNormal of the next op seed; under @jit the op seed is taken once,
    # when compiling, and the graph's kernel continues its engine (these are MindSpore's numbers)
    mean, stddev = Tensor(1.0, ms.float32), Tensor(2.0, ms.float32)

    def draw():
        return ops.normal((3,), mean, stddev, seed=5)

    ms.set_seed(4)
    eager = [draw().asnumpy() for _ in range(2)]
    first = np.array([-0.9651177, 0.5313995, 4.2213697], np.float32)
    np.testing.assert_array_equal(np.stack(eager), [first, np.array([-0.8333247, -0.8002906, 4.026037], np.float32)])
    ms.set_seed(4)
    compiled = ms.jit(draw)
    np.testing.assert_array_equal(np.stack([compiled().asnumpy() for _ in range(2)]),
                                  [first, np.array([1.9773985, 2.3350816, 1.4791272], np.float32)])
    ms.set_seed(4)
    assert not np.array_equal(ops.normal((3,), mean, stddev, seed=6).asnumpy(), eager[0])
    ms.set_seed(4)
    unseeded = ops.normal((3,), mean, stddev).asnumpy()   # the global generator: untouched by the seeded draws
    ms.set_seed(4)
    ops.normal((3,), mean, stddev, seed=5)
    np.testing.assert_array_equal(ops.normal((3,), mean, stddev).asnumpy(), unseeded)


GATHERED = np.arange(12, dtype=np.float32).reshape(3, 4)


def _gather_nd(x, indices):
    return ops.gather_nd(x, indices)


def _gather_elements(x, indices):
    return ops.gather_elements(x, 1, indices)


@pytest.mark.parametrize("compiled", [False, True])
def test_gather_elements_counts_a_negative_index_from_the_end_as_mindspore(compiled):
    # MindSpore 2.10 CPU: [[0, 3], [5, 5], [8, 8]] (the flat position of -1 was read: x[2, 3] = 11)
    gather = ms.jit(_gather_elements) if compiled else _gather_elements
    index = Tensor(np.array([[0, -1], [1, 1], [0, 0]], np.int32))
    np.testing.assert_array_equal(gather(Tensor(GATHERED), index).asnumpy(), [[0, 3], [5, 5], [8, 8]])
    grad = ms.grad(lambda x: gather(x, index).sum())(Tensor(GATHERED)).asnumpy()
    np.testing.assert_array_equal(grad, [[1, 0, 0, 1], [0, 2, 0, 0], [2, 0, 0, 0]])


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("gather, index", [(_gather_nd, [[0, 5], [1, 1]]), (_gather_elements, [[0, 5], [1, 1], [0, 0]])])
def test_a_gather_index_past_its_dim_is_an_error_not_another_row(compiled, gather, index):
    # MindSpore 2.10 CPU raises RuntimeError ("does not index into input_shape", "must be in [-4, 4)"); the flat
    # position of [0, 5] is x[1, 1] = 5, which npspore returned
    gather = ms.jit(gather) if compiled else gather
    with pytest.raises(IndexError, match="out of bounds"):
        gather(Tensor(GATHERED), Tensor(np.array(index, np.int32)))
