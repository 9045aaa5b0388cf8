"""Print MindSpore 2.10's outputs for the array ops, layers and names of tests/test_array_ops.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_array_ops.py``. Each case is a MindSpore docstring example or one more case; the
printed ``repr`` of each result is pasted into ``tests/test_array_ops.py``'s ``MINDSPORE_VALUES``.
"""
import numpy as np

import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor, nn, ops
from mindspore._checkparam import args_type_check
from mindspore.ops import functional as F, operations as P

X23 = np.arange(6).reshape(2, 3).astype(np.float32)
X34 = np.arange(12).reshape(1, 1, 3, 4).astype(np.float32)
INTS = np.array([[1, 2], [3, 4]], np.int32)
BOXES = np.array([[0, 0, 2, 5], [-0.1, 0, 1, 1], [0, -0.1, 1, 1], [0, 0, 2.01, 1], [0, 0, 1, 5.01],
                  [1, 1, 0.5, 0.5]], np.float32)
CUMSUM_DATA = np.array([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]], np.float32)
SLICE_DATA = np.array([[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 6, 6]]], np.int32)
CASES = {
    "reciprocal_doc": lambda: P.Reciprocal()(Tensor(np.array([1.0, 2.0, 4.0], np.float32))),
    "reciprocal_int": lambda: P.Reciprocal()(Tensor(np.array([1, 2, 4], np.int32))),
    "shape_doc": lambda: P.Shape()(Tensor(np.ones((3, 2, 1), np.float32))),
    "dtype_doc": lambda: str(P.DType()(Tensor(np.ones((2, 2), np.float32)))),
    "identity_doc": lambda: ops.Identity()(Tensor(np.array([1, 2, 3, 4], np.int64))),
    "slice_doc": lambda: P.Slice()(Tensor(SLICE_DATA), (1, 0, 0), (1, 1, 3)),
    "slice_to_end": lambda: P.Slice()(Tensor(X23), (0, 1), (2, -1)),
    "strided_slice_doc": lambda: P.StridedSlice()(Tensor(SLICE_DATA), (1, 0, 2), (3, 1, 3), (1, 1, 1)),
    "strided_slice_masks": lambda: P.StridedSlice(begin_mask=1, end_mask=2, shrink_axis_mask=4)(
        Tensor(SLICE_DATA), (2, 0, 1), (3, 1, 3), (1, 1, 1)),
    "gather_nd_doc": lambda: P.GatherNd()(Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32)),
                                          Tensor(np.array([[0, 0], [1, 1]], np.int32))),
    "gather_nd_rows": lambda: P.GatherNd()(Tensor(SLICE_DATA), Tensor(np.array([[2], [0]], np.int32))),
    "bias_add_doc": lambda: P.BiasAdd()(Tensor(np.arange(6).reshape((2, 3)).astype(np.float32)),
                                        Tensor(np.arange(3).astype(np.float32))),
    "bias_add_nchw": lambda: P.BiasAdd()(Tensor(np.ones((1, 2, 2, 2), np.float32)),
                                         Tensor(np.array([1.0, -1.0], np.float32))),
    "l2_normalize_doc": lambda: ops.L2Normalize(axis=1)(Tensor(X23)),
    "l2_normalize_axis0": lambda: ops.L2Normalize()(Tensor(np.array([[1e-3, 3.0], [1e-3, 4.0]], np.float32))),
    "norm_doc": lambda: ops.norm(Tensor(np.array([3.0, 4.0, 12.0], np.float32))),
    "norm_doc_ord1": lambda: ops.norm(Tensor(np.array([3.0, 4.0, 12.0], np.float32)), ord=1),
    "norm_doc_ord0": lambda: ops.norm(Tensor(np.array([3.0, 4.0, 12.0], np.float32)), ord=0),
    "norm_doc_fro": lambda: ops.norm(Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32))),
    "norm_doc_matrix1": lambda: ops.norm(Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32)), ord=1),
    "norm_doc_batched": lambda: ops.norm(Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32)), dim=1),
    "norm_matrix_inf_keepdim": lambda: ops.norm(Tensor(X23 - 3), ord=float("inf"), dim=(0, 1), keepdim=True),
    "norm_ord1_dim": lambda: ops.norm(Tensor(X23), ord=1, dim=1),
    "norm_inf_keepdim": lambda: ops.norm(Tensor(X23 - 3), ord=float("inf"), dim=0, keepdim=True),
    "norm_ord3_dim": lambda: ops.norm(Tensor(X23), ord=3, dim=1),
    "norm_fro": lambda: ops.norm(Tensor(X23), ord="fro", dim=(0, 1)),
    "relu6_doc": lambda: nn.ReLU6()(Tensor(np.array([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]], np.float32))),
    "relu6_prim": lambda: P.ReLU6()(Tensor(np.array([6.5, 0.5], np.float32))),
    "pad_constant": lambda: nn.Pad(paddings=((1, 1), (2, 2)))(Tensor(X23)),
    "pad_reflect": lambda: nn.Pad(paddings=((1, 1), (2, 2)), mode="REFLECT")(Tensor(X23)),
    "pad_symmetric": lambda: nn.Pad(paddings=((1, 1), (2, 2)), mode="SYMMETRIC")(Tensor(X23)),
    "pad_doc": lambda: nn.Pad(paddings=((0, 0), (1, 1)), mode="CONSTANT")(
        Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))),
    "mae_loss_doc": lambda: nn.MAELoss()(Tensor(np.array([1, 2, 3], np.float32)),
                                         Tensor(np.array([1, 2, 2], np.float32))),
    "mae_loss_none": lambda: nn.MAELoss(reduction="none")(Tensor(np.array([[1, 2], [3, 4]], np.float32)),
                                                          Tensor(np.array([[1, 5], [1, 4]], np.float32))),
    "scalar_to_tensor_doc": lambda: F.scalar_to_tensor(1, ms.float32),
    "scalar_to_tensor_int": lambda: F.scalar_to_tensor(7, ms.int32),
    "pad_prim_doc": lambda: ops.Pad(((1, 2), (2, 1)))(Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]],
                                                                        np.float32))),
    "pad_functional_value": lambda: ops.pad(Tensor(X23), (1, 2), value=1.5),
    "pad_functional_reflect": lambda: ops.pad(Tensor(X23.reshape(1, 2, 3)), (2, 1, 1, 0), mode="reflect"),
    "resize_nearest_doc": lambda: ops.ResizeNearestNeighbor((2, 2))(
        Tensor(np.array([[[[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]]], np.float32))),
    "resize_nearest_up": lambda: ops.ResizeNearestNeighbor((5, 7))(Tensor(X34)),
    "resize_nearest_align": lambda: ops.ResizeNearestNeighbor((5, 7), align_corners=True)(Tensor(X34)),
    "resize_nearest_half_pixel": lambda: ops.ResizeNearestNeighbor((2, 3), half_pixel_centers=True)(Tensor(X34)),
    "sigmoid_ce_doc": lambda: P.SigmoidCrossEntropyWithLogits()(
        Tensor(np.array([[-0.8, 1.2, 0.7], [-0.1, -0.4, 0.7]], np.float32)),
        Tensor(np.array([[0.3, 0.8, 1.2], [-0.6, 0.1, 2.2]], np.float32))),
    "sigmoid_ce_large": lambda: P.SigmoidCrossEntropyWithLogits()(Tensor(np.array([-30.0, 30.0], np.float32)),
                                                                  Tensor(np.array([1.0, 0.0], np.float32))),
    "np_arange_doc": lambda: mnp.arange(0, 5, 1),
    "np_arange_doc_neg": lambda: mnp.arange(-3, 3),
    "np_arange_doc_float": lambda: mnp.arange(0, 5, 0.5),
    "np_arange_stop": lambda: mnp.arange(4),
    "np_arange_dtype": lambda: mnp.arange(1, 4.0, dtype=ms.int32),
    "np_zeros_doc": lambda: mnp.zeros((2, 2)),
    "np_ones_int": lambda: mnp.ones(3, ms.int32),
    "np_full_doc": lambda: mnp.full((2, 2), True),
    "np_full_int": lambda: mnp.full((3,), 7),
    "np_zeros_like_shape": lambda: mnp.zeros_like(Tensor(X23), shape=(3,)),
    "np_ones_like_dtype": lambda: mnp.ones_like(Tensor(X23), dtype=ms.int32),
    "np_concatenate_doc": lambda: mnp.concatenate((Tensor(X23), Tensor(X23)), axis=0),
    "np_concatenate_none": lambda: mnp.concatenate((Tensor(X23), Tensor(X23)), axis=None),
    "np_stack_doc": lambda: mnp.stack((Tensor(X23), Tensor(X23)), axis=1),
    "np_reshape_doc": lambda: mnp.reshape(Tensor(X23), (3, -1)),
    "np_expand_dims_doc": lambda: mnp.expand_dims(Tensor(X23), 1),
    "np_tile_doc": lambda: mnp.tile(Tensor(np.array([0, 1, 2], np.float32)), (2, 2)),
    "np_broadcast_to_doc": lambda: mnp.broadcast_to(Tensor(np.array([1, 2, 3], np.int32)), (3, 3)),
    "np_where_doc": lambda: mnp.where(Tensor(INTS) > 2, Tensor(INTS), 0.5),
    "np_where_scalar_x": lambda: mnp.where(Tensor(INTS) > 2, 0.5, Tensor(INTS)),
    "np_where_tensors": lambda: mnp.where(Tensor(X23) > 2, Tensor(X23), Tensor(-X23)),
    "np_sum_doc": lambda: mnp.sum(Tensor(INTS)),
    "np_sum_axis_initial": lambda: mnp.sum(Tensor(X23), axis=1, keepdims=True, initial=10),
    "np_sum_bool": lambda: mnp.sum(Tensor(np.array([True, False, True]))),
    "np_mean_doc": lambda: mnp.mean(Tensor(X23), axis=0),
    "np_mean_int": lambda: mnp.mean(Tensor(INTS)),
    "np_mean_int_negative": lambda: mnp.mean(Tensor(np.array([-1, -2, -4], np.int32))),
    "np_sqrt_int": lambda: mnp.sqrt(Tensor(INTS)),
    "np_square_int": lambda: mnp.square(Tensor(INTS)),
    "np_abs_doc": lambda: mnp.absolute(Tensor(np.array([-1.0, 2.5, -3.0], np.float32))),
    "np_exp_doc": lambda: mnp.exp(Tensor(np.array([0.0, 1.0], np.float32))),
    "np_log_doc": lambda: mnp.log(Tensor(np.array([1.0, 2.0, 4.0], np.float32))),
    "np_clip_doc": lambda: mnp.clip(Tensor(np.arange(10).astype(np.float32)), 1, 8),
    "np_clip_int": lambda: mnp.clip(Tensor(INTS), 2, 3),
    "np_sqrt_dtype": lambda: mnp.sqrt(Tensor(np.array([4.0], np.float32)), dtype=ms.float16),
    "tuple_to_array_doc": lambda: F.tuple_to_array((1, 2, 3)),
    "tuple_to_array_float": lambda: F.tuple_to_array((1.0, 2.5)),
    "eye_doc": lambda: ops.Eye()(2, 2, ms.int32),
    "eye_rect": lambda: ops.Eye()(2, 3, ms.float32),
    "one_hot_doc": lambda: nn.OneHot(depth=4)(Tensor(np.array([1, 3], np.int32))),
    "one_hot_axis0": lambda: nn.OneHot(axis=0, depth=3, on_value=5.0, off_value=-1.0)(
        Tensor(np.array([0, 2], np.int32))),
    "args_type_check_error": lambda: _type_error(lambda: args_type_check(a=int)(lambda a, b=None: a)("1")),
    "interpolate_bilinear": lambda: ops.interpolate(Tensor(X34), size=(5, 7), mode="bilinear"),
    "interpolate_bilinear_align": lambda: ops.interpolate(Tensor(X34), size=(5, 7), mode="bilinear",
                                                          align_corners=True),
    "interpolate_bilinear_down": lambda: ops.interpolate(Tensor(X34), size=(2, 3), mode="bilinear"),
    "interpolate_nearest": lambda: ops.interpolate(Tensor(X34), size=(5, 7)),
    "interpolate_linear": lambda: ops.interpolate(Tensor(np.arange(4).reshape(1, 1, 4).astype(np.float32)), size=6,
                                                  mode="linear"),
    "interpolate_nearest_1d": lambda: ops.interpolate(Tensor(np.arange(4).reshape(1, 1, 4).astype(np.float32)),
                                                      size=6),
    "interpolate_doc": lambda: ops.interpolate(Tensor([[[1, 2, 3], [4, 5, 6]]], ms.float32), size=(6,),
                                               mode="linear"),
    "resize_bilinear_v2": lambda: ops.ResizeBilinearV2()(Tensor(X34), (5, 7)),
    "resize_bilinear_v2_half_pixel": lambda: ops.ResizeBilinearV2(half_pixel_centers=True)(Tensor(X34), (5, 7)),
    "resize_bilinear_v2_align": lambda: ops.ResizeBilinearV2(align_corners=True)(Tensor(X34), (5, 7)),
    "resize_bilinear_v2_doc": lambda: ops.ResizeBilinearV2()(Tensor([[[[1, 2, 3, 4], [5, 6, 7, 8]]]], ms.float32),
                                                             (5, 5)),
    "depth_to_space_doc": lambda: ops.DepthToSpace(2)(Tensor(np.arange(12).reshape(1, 12, 1, 1).astype(np.float32))),
    "depth_to_space_2x2": lambda: ops.DepthToSpace(2)(Tensor(np.arange(16).reshape(1, 4, 2, 2).astype(np.float32))),
    "smooth_l1_prim_doc": lambda: P.SmoothL1Loss()(Tensor(np.array([1, 2, 3], np.float32)),
                                                   Tensor(np.array([1, 2, 2], np.float32))),
    "smooth_l1_prim_sum": lambda: P.SmoothL1Loss(beta=0.5, reduction="sum")(
        Tensor(np.array([1.0, 2.0, 4.0], np.float32)), Tensor(np.array([1.2, 2.0, 2.0], np.float32))),
    "make_range_doc": lambda: F.make_range(1, 5),
    "make_range_step": lambda: F.make_range(0, 10, 3),
    "identity_functional": lambda: F.identity(Tensor(np.array([1.5, -2.0], np.float32))),
    "tuple_len_doc": lambda: F.tuple_len((1, 2, 3)),
    "bce_prim_doc": lambda: ops.BinaryCrossEntropy()(Tensor(np.array([0.1, 0.2, 0.3], np.float32)),
                                                     Tensor(np.array([1.0, 1.0, 1.0], np.float32)),
                                                     Tensor(np.array([1, 2, 2], np.float32))),
    "bce_prim_none": lambda: ops.BinaryCrossEntropy("none")(Tensor(np.array([0.9, 0.2], np.float32)),
                                                            Tensor(np.array([1.0, 0.0], np.float32))),
    "adaptive_avg_pool_2d_prim": lambda: ops.AdaptiveAvgPool2D((2, 2))(Tensor(X34.reshape(1, 3, 4))),
    "gather_d_doc": lambda: ops.GatherD()(Tensor(np.array([[1, 2], [3, 4]], np.int32)), 1,
                                          Tensor(np.array([[0, 0], [1, 0]], np.int32))),
    "gather_d_dim0": lambda: ops.gather_d(Tensor(X34.reshape(3, 4)), 0,
                                          Tensor(np.array([[2, 0, 1, 1], [0, 0, 2, 1]], np.int32))),
    "gather_elements_3d": lambda: ops.gather_elements(Tensor(np.arange(24).reshape(2, 3, 4).astype(np.float32)), -1,
                                                      Tensor(np.array([[[3, 0], [1, 1], [2, 0]]] * 2, np.int32))),
    "check_valid_doc": lambda: ops.CheckValid()(Tensor(np.linspace(0, 6, 12).reshape(3, 4), ms.float32),
                                                Tensor(np.array([2, 1, 3]), ms.float32)),
    "check_valid_edges": lambda: ops.CheckValid()(Tensor(BOXES), Tensor(np.array([2, 1, 3], np.float32))),
    "ops_arange_int": lambda: ops.arange(1, 6, 2),
    "ops_arange_float": lambda: ops.arange(0.0, 1.0, 0.25),
    "ops_arange_dtype": lambda: ops.arange(5, dtype=ms.float32),
    "floor_doc": lambda: ops.Floor()(Tensor(np.array([1.1, 2.5, -1.5], np.float32))),
    "floor_grad": lambda: ms.grad(_floor_sum)(Tensor(np.array([1.1, 2.5, -1.5], np.float32))),
    "repeat_elements_doc": lambda: ops.repeat_elements(Tensor(np.array([[0, 1, 2], [3, 4, 5]], np.int32)), rep=2),
    "repeat_elements_axis1": lambda: ops.repeat_elements(Tensor(X23), rep=3, axis=1),
    "np_flip_doc": lambda: mnp.flip(Tensor(np.arange(8).reshape(2, 2, 2).astype(np.float32))),
    "np_flip_axes": lambda: mnp.flip(Tensor(np.arange(8).reshape(2, 2, 2).astype(np.float32)), (0, 2)),
    "upsample_bilinear": lambda: nn.Upsample(size=(5, 7), mode="bilinear")(Tensor(X34)),
    "upsample_nearest": lambda: nn.Upsample(size=(4, 6))(Tensor(X34)),
    "cumsum_doc": lambda: P.CumSum()(Tensor(CUMSUM_DATA), 1),
    "cumsum_exclusive": lambda: P.CumSum(exclusive=True)(Tensor(CUMSUM_DATA), 0),
    "cumsum_reverse": lambda: P.CumSum(reverse=True)(Tensor(CUMSUM_DATA), 1),
    "cumsum_exclusive_reverse": lambda: P.CumSum(exclusive=True, reverse=True)(Tensor(CUMSUM_DATA), 0),
    "cumsum_int": lambda: ops.cumsum(Tensor(np.array([1, 2, 3], np.int32)), 0),
    "cumsum_functional_dtype": lambda: ops.cumsum(Tensor(np.array([1, 2, 3], np.int32)), -1, dtype=ms.float32),
    "unstack_doc": lambda: ops.Unstack()(Tensor(np.array([[1, 1, 1, 1], [2, 2, 2, 2]], np.int32)))[1],
    "unstack_axis1": lambda: ops.Unstack(axis=1)(Tensor(X23))[2],
    "sort_doc_values": lambda: ops.Sort()(Tensor(np.array([[8, 2, 1], [5, 9, 3], [4, 6, 7]], np.float16)))[0],
    "sort_doc_indices": lambda: ops.Sort()(Tensor(np.array([[8, 2, 1], [5, 9, 3], [4, 6, 7]], np.float16)))[1],
    "sort_ties_descending": lambda: ops.sort(Tensor(np.array([[1, 3, 1, 2, 3]], np.float32)), descending=True)[1],
    "sort_axis0_indices": lambda: ops.Sort(axis=0)(Tensor(np.array([[3, 1], [1, 2], [2, 0]], np.float32)))[1],
    "round_halves": lambda: P.Round()(Tensor(np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.8, -2.7, 3.49], np.float32))),
    "round_int": lambda: ops.round(Tensor(np.array([1, 2], np.int32))),
    "round_grad": lambda: ms.grad(_round_sum)(Tensor(np.array([0.5, -2.7], np.float32))),
    "linspace_doc": lambda: ops.linspace(Tensor(1, ms.float32), Tensor(10, ms.float32), 5),
    "linspace_numbers": lambda: ops.linspace(-1, 1, 4),
    "linspace_one": lambda: ops.linspace(0, 1, 1),
    "meshgrid_xy": lambda: ops.Meshgrid(indexing="xy")((Tensor(np.array([1, 2, 3, 4], np.int32)),
                                                        Tensor(np.array([5, 6, 7], np.int32))))[0],
    "meshgrid_ij": lambda: ops.Meshgrid(indexing="ij")((Tensor(np.array([1, 2, 3, 4], np.int32)),
                                                        Tensor(np.array([5, 6, 7], np.int32))))[1],
    "log_level": lambda: ms.log.get_level(),
}

def _floor_sum(x):
    return ops.Floor()(x).sum()


def _round_sum(x):
    return P.Round()(x).sum()


def _type_error(call):
    try:
        call()
    except TypeError as error:
        return str(error)
    return None


# cases whose outputs equal another's: checked here, printed once (tests/test_array_ops.py's SAME_AS)
SAME_AS = {"resize_bilinear_v2_half_pixel": "interpolate_bilinear",
           "resize_bilinear_v2_align": "interpolate_bilinear_align", "upsample_bilinear": "interpolate_bilinear",
           "interpolate_nearest": "resize_nearest_up"}

if __name__ == "__main__":
    for name, other in SAME_AS.items():
        assert np.array_equal(CASES[name]().asnumpy(), CASES[other]().asnumpy()), name
    for name, case in CASES.items():
        if name in SAME_AS:
            continue
        value = case()
        if isinstance(value, Tensor):
            value = (value.asnumpy().tolist(), str(value.dtype))
        print(f"    {name!r}: {value!r},")
