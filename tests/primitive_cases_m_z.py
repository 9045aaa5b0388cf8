"""The cases of tests/test_primitives_m_z.py, as data both MindSpore 2.10 (``tools/observe_mindspore_primitives_m_z.py``)
and npspore run: ``name: (primitive class under ops.operations, constructor args, constructor kwargs, inputs)``.
An input is a NumPy array (a Tensor), a :class:`Param` (a Parameter, updated in place), a :class:`Const` (a
constant Tensor, the last inputs) or a Python value.
Each primitive has its MindSpore docstring example (``_doc``) and at least one more case."""
import numpy as np


class Const:
    """An input given as a constant Tensor ``value`` (in compiled code: held by the Cell, not passed to it)."""

    def __init__(self, value):
        self.value = value


class Param:
    """An input given as a Parameter named ``name`` holding ``value``."""

    def __init__(self, value, name="x"):
        self.value, self.name = value, name


def build_input(value, framework, unique=""):
    """A case input as ``framework``'s (``mindspore`` or ``npspore``) Tensor, Parameter (named ``name`` +
    ``unique``) or Python value."""
    if isinstance(value, Param):
        return framework.Parameter(framework.Tensor(value.value), name=f"{value.name}{unique}")
    if isinstance(value, Const):
        return framework.Tensor(value.value)
    if isinstance(value, tuple):
        return tuple(build_input(part, framework, unique) for part in value)
    return framework.Tensor(value) if isinstance(value, np.ndarray) else value


def build_primitive(case, framework):
    """The case's primitive, constructed in ``framework``; a constructor argument naming a dtype (``'int64'``) is
    ``framework``'s dtype."""
    primitive, args, kwargs, _ = case

    def argument(value):
        return getattr(framework, value) if isinstance(value, str) and value.startswith(("int", "float")) else value

    return getattr(framework.ops.operations, primitive)(*map(argument, args),
                                                         **{key: argument(value) for key, value in kwargs.items()})


def f32(values):
    return np.array(values, np.float32)


def i32(values):
    return np.array(values, np.int32)


X23 = f32([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]])
IDX00 = i32([[0, 0], [0, 0]])
ROWS = f32([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])
ROWS2 = f32([[[1.0, 1.0, 1.0], [3.0, 3.0, 3.0]], [[7.0, 7.0, 7.0], [9.0, 9.0, 9.0]]])
VEC8 = f32([1, 2, 3, 4, 5, 6, 7, 8])
IDX4 = i32([[2], [4], [1], [7]])
UPD4 = f32([6, 7, 8, 9])
IDX_MIXED = i32([[0, 1], [1, 2], [0, 1], [1, 0]])
UPD_MIXED = f32([2.0, -4.0, 0.5, 3.0])

CASES = {
    # scatter updates that combine (scatter_reduce.py)
    "TensorScatterMul_doc": ("TensorScatterMul", (), {}, [X23, IDX00, f32([1.0, 2.2])]),
    "TensorScatterMul_mixed": ("TensorScatterMul", (), {}, [X23, IDX_MIXED, UPD_MIXED]),
    "TensorScatterDiv_doc": ("TensorScatterDiv", (), {}, [X23, IDX00, f32([1.0, 2.0])]),
    "TensorScatterDiv_mixed": ("TensorScatterDiv", (), {}, [X23, IDX_MIXED, UPD_MIXED]),
    "TensorScatterMax_doc": ("TensorScatterMax", (), {}, [X23, IDX00, f32([1.0, 2.2])]),
    "TensorScatterMax_mixed": ("TensorScatterMax", (), {}, [X23, IDX_MIXED, UPD_MIXED]),
    "TensorScatterMin_doc": ("TensorScatterMin", (), {}, [X23, IDX00, f32([1.0, 2.2])]),
    "TensorScatterMin_mixed": ("TensorScatterMin", (), {}, [X23, IDX_MIXED, UPD_MIXED]),
    "TensorScatterMax_rows": ("TensorScatterMax", (), {}, [X23, i32([[1], [0], [1]]),
                                                           f32([[0, 0, 0], [1, 1, 1], [-5, 9, -1]])]),
    "ScatterMul_doc": ("ScatterMul", (), {}, [Param(ROWS), i32([0, 1]), f32([[2.0] * 3, [2.0] * 3])]),
    "ScatterMul_doc_repeated": ("ScatterMul", (), {}, [Param(ROWS), i32([[0, 1], [1, 1]]), ROWS2]),
    "ScatterDiv_doc": ("ScatterDiv", (), {}, [Param(f32([[6.0] * 3, [2.0] * 3])), i32([0, 1]),
                                              f32([[2.0] * 3, [2.0] * 3])]),
    "ScatterDiv_repeated": ("ScatterDiv", (), {}, [Param(f32([[105.0] * 3, [315.0] * 3])), i32([[0, 1], [1, 1]]),
                                                   f32([[[1.0] * 3, [3.0] * 3], [[5.0] * 3, [7.0] * 3]])]),
    "ScatterMax_doc": ("ScatterMax", (), {}, [Param(f32([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])), i32([[0, 0], [1, 1]]),
                                              f32(np.ones((2, 2, 3)) * 88)]),
    "ScatterMax_mixed": ("ScatterMax", (), {}, [Param(X23), i32([1, 0, 1]), f32([[0, 0, 0], [1, 1, 1], [-5, 9, -1]])]),
    "ScatterMin_doc": ("ScatterMin", (), {}, [Param(f32([[0.0, 1.0, 2.0], [0.0, 0.0, 0.0]])), i32([[0, 0], [1, 1]]),
                                              f32(np.ones((2, 2, 3)))]),
    "ScatterMin_mixed": ("ScatterMin", (), {}, [Param(X23), i32([1, 0, 1]), f32([[0, 0, 0], [1, 1, 1], [-5, 9, -1]])]),
    "ScatterSub_doc": ("ScatterSub", (), {}, [Param(f32([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])), i32([[0, 1]]),
                                              f32([[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]])]),
    "ScatterSub_repeated": ("ScatterSub", (), {}, [Param(X23), i32([1, 1, 0]), f32([[1, 2, 3], [4, 5, 6], [7, 8, 9]])]),
    "ScatterNdMul_doc": ("ScatterNdMul", (), {}, [Param(VEC8), IDX4, UPD4]),
    "ScatterNdMul_repeated": ("ScatterNdMul", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
    "ScatterNdDiv_doc": ("ScatterNdDiv", (), {}, [Param(VEC8), IDX4, UPD4]),
    "ScatterNdDiv_repeated": ("ScatterNdDiv", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
    "ScatterNdMax_doc": ("ScatterNdMax", (), {}, [Param(VEC8), IDX4, UPD4]),
    "ScatterNdMax_repeated": ("ScatterNdMax", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
    "ScatterNdMin_doc": ("ScatterNdMin", (), {}, [Param(f32(np.ones(8) * 10)), IDX4, UPD4]),
    "ScatterNdMin_repeated": ("ScatterNdMin", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
    "ScatterNdSub_doc": ("ScatterNdSub", (), {}, [Param(VEC8), IDX4, UPD4]),
    "ScatterNdSub_repeated": ("ScatterNdSub", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
}

X2244 = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4) - 10.5
CASES.update({
    # functional ops of npspore under their primitive names (primitive_table.py)
    "Roll_doc": ("Roll", (2,), {"dims": 0}, [f32([0, 1, 2, 3, 4])]),
    "Roll_2d": ("Roll", ((1, -1),), {"dims": (0, 1)}, [X23]),
    "NanToNum_doc": ("NanToNum", (1.0, 5.0, -5.0), {}, [f32([float("nan"), float("inf"), -float("inf"), 5.0])]),
    "NanToNum_default": ("NanToNum", (), {}, [f32([float("nan"), float("inf"), -float("inf"), 5.0])]),
    "SearchSorted_doc": ("SearchSorted", (), {}, [f32([1, 2, 2, 3, 4, 5, 5]), f32([2])]),
    "SearchSorted_right": ("SearchSorted", (), {"right": True},
                                 [f32([1, 3, 3, 5]), f32([3, 6, 0])]),
    "Rank_doc": ("Rank", (), {}, [f32([[2, 2], [2, 2]])]),
    "Rank_3d": ("Rank", (), {}, [f32(np.ones((1, 2, 3)))]),
    # array layout (array_layout.py)
    "SpaceToDepth_doc_shape": ("SpaceToDepth", (2,), {}, [f32(np.ones((1, 3, 2, 2)))]),
    "SpaceToDepth_values": ("SpaceToDepth", (2,), {}, [X2244]),
    "SpaceToBatch_doc": ("SpaceToBatch", (2, [[0, 0], [0, 0]]), {}, [f32([[[[1, 2], [3, 4]]]])]),
    "SpaceToBatch_padded": ("SpaceToBatch", (2, [[1, 1], [0, 2]]), {}, [X2244]),
    "SpaceToBatchND_doc": ("SpaceToBatchND", ([2, 2], [[0, 0], [0, 0]]), {}, [f32([[[[1, 2], [3, 4]]]])]),
    "SpaceToBatchND_padded": ("SpaceToBatchND", ([2, 1], [[1, 1], [0, 1]]), {}, [X2244]),
    "Padding_doc": ("Padding", (4,), {}, [f32([[8], [10]])]),
    "Padding_default": ("Padding", (), {}, [i32([[[1], [2]]])]),
    "ParallelConcat_doc": ("ParallelConcat", (), {}, [(i32([[0, 1]]), i32([[2, 1]]))]),
    "ParallelConcat_3": ("ParallelConcat", (), {}, [(f32([[[0.5]]]), f32([[[1.5]]]), f32([[[-2.0]]]))]),
    "SplitV_doc": ("SplitV", (), {"size_splits": [1, -1], "split_dim": 1, "num_split": 2},
                   [i32([[1, 2, 3], [4, 5, 6], [7, 8, 9]])]),
    "SplitV_doc_rows": ("SplitV", (), {"size_splits": [2, 1], "split_dim": 0, "num_split": 2},
                        [i32([[1, 2, 3], [4, 5, 6], [7, 8, 9]])]),
    "MatrixBandPart_doc": ("MatrixBandPart", (), {}, [f32(np.ones([2, 4, 4])), 2, 1]),
    "MatrixBandPart_negative": ("MatrixBandPart", (), {}, [X2244[0], -1, 0]),
    "MatrixBandPart_tensor_bounds": ("MatrixBandPart", (), {}, [X2244[0], i32(1), i32(-1)]),
    "TrilIndices_doc": ("TrilIndices", (4, 3, -1, "int64"), {}, []),
    "TrilIndices_default": ("TrilIndices", (3, 4), {}, []),
    "TriuIndices_doc": ("TriuIndices", (5, 4, 2, "int64"), {}, []),
    "TriuIndices_default": ("TriuIndices", (3, 3), {}, []),
    "UnravelIndex_doc": ("UnravelIndex", (), {}, [i32([2, 5]), i32([3, 3])]),
    "UnravelIndex_3d_int64": ("UnravelIndex", (), {}, [np.array([0, 7, 23], np.int64), np.array([2, 3, 4], np.int64)]),
    "UnravelIndex_scalar": ("UnravelIndex", (), {}, [i32(10), i32([3, 4])]),
    "UpperBound_doc": ("UpperBound", (), {"out_type": "int32"}, [np.arange(12).reshape(3, 4).astype(np.int8),
                                                                  np.array([[3], [6], [9]], np.int8)]),
    "UpperBound_float_int64": ("UpperBound", ("int64",), {}, [f32([[1, 2, 2, 5], [0, 0, 1, 1]]),
                                                             f32([[2, 0.5, 9], [0, 1, -1]])]),
    # elementwise math (math_extra.py)
    "MulNoNan_doc": ("MulNoNan", (), {}, [f32([[-1.0, 6.0, np.inf], [np.nan, -7.0, 4.0]]),
                                          f32([[-1.0, 4.0, 0], [0, -3.0, 1.0]])]),
    "MulNoNan_doc2": ("MulNoNan", (), {}, [f32([[-1.0, 6.0, 0], [0, np.nan, 4.0]]),
                                           f32([[-1.0, 4.0, np.inf], [np.nan, 0, 1.0]])]),
    "MulNoNan_doc_scalar": ("MulNoNan", (), {}, [f32([[-1.0, 6.0, 0], [0, np.nan, 4.0]]), f32(0)]),
    "Mvlgamma_doc": ("Mvlgamma", (), {"p": 3}, [f32([[3, 4, 5], [4, 2, 6]])]),
    "Mvlgamma_p1": ("Mvlgamma", (1,), {}, [np.array([0.5, 1.5, 7.25])]),
    "Renorm_doc": ("Renorm", (), {"p": 1, "dim": 0, "maxnorm": 5.0}, [f32([[1, 1, 1], [2, 2, 2], [3, 3, 3]])]),
    "Renorm_p2_dim1": ("Renorm", (), {"p": 2, "dim": -1, "maxnorm": 1.5}, [X23]),
    "PopulationCount_doc": ("PopulationCount", (), {}, [np.array([0, 1, 3], np.int16)]),
    "PopulationCount_negative": ("PopulationCount", (), {}, [np.array([-1, -128, 127, 85], np.int8)]),
    "PopulationCount_int64": ("PopulationCount", (), {}, [np.array([-1, 2 ** 40 + 7], np.int64)]),
})

SCORES = f32([[0.3, -1.2, 0.8, 0.1], [1.5, 0.2, -0.4, 0.9], [-0.7, 0.6, 0.0, 2.0]])
SEGMENT_ROWS = f32([[1, 2, 3], [4, 2, 0], [4, 5, 6], [4, 2, 1]])
CASES.update({
    # losses and distances (margin_losses.py)
    "SoftMarginLoss_doc": ("SoftMarginLoss", (), {}, [f32([[0.3, 0.7], [0.5, 0.5]]), f32([[-1, 1], [1, -1]])]),
    "MultiMarginLoss_doc": ("MultiMarginLoss", (), {}, [f32(np.ones((3, 3))), np.array([1, 2, 1], np.int64),
                                                        f32([1, 1, 1])]),
    "MultiMarginLoss_p2_none": ("MultiMarginLoss", (2, 2.0, "none"), {}, [SCORES, np.array([2, 0, 3], np.int64),
                                                                           f32([0.5, 1.0, 2.0, 1.5])]),
    "MultiMarginLoss_sum": ("MultiMarginLoss", (), {"reduction": "sum"}, [SCORES, np.array([1, 3, 0], np.int64),
                                                                          f32([1, 1, 1, 1])]),
    "TripletMarginLoss_doc": ("TripletMarginLoss", (), {}, [f32([[0.3, 0.7], [0.5, 0.5]]), f32([[0.4, 0.6], [0.4, 0.6]]),
                                                            f32([[0.2, 0.9], [0.3, 0.7]]), f32(1.0)]),
    "Pdist_doc": ("Pdist", (), {"p": 2.0}, [f32([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])]),
    "Pdist_p1": ("Pdist", (1.0,), {}, [SCORES]),
    "Pdist_p3": ("Pdist", (3.0,), {}, [SCORES.T.copy()]),
    # segments, sparse tensors, masked scatter (segment_sparse.py)
    "UnsortedSegmentSum_doc": ("UnsortedSegmentSum", (), {}, [f32([1, 2, 3, 4]), i32([0, 0, 1, 2]), 4]),
    "UnsortedSegmentSum_2d_ids": ("UnsortedSegmentSum", (), {}, [SEGMENT_ROWS, i32([2, 0, 2, -1]), 3]),
    "UnsortedSegmentMax_doc": ("UnsortedSegmentMax", (), {}, [f32([[1, 2, 3], [4, 5, 6], [4, 2, 1]]), i32([0, 1, 1]), 2]),
    "UnsortedSegmentMax_doc2": ("UnsortedSegmentMax", (), {}, [SEGMENT_ROWS, i32([0, 0, 1, 1]), 2]),
    "UnsortedSegmentMax_empty": ("UnsortedSegmentMax", (), {}, [SEGMENT_ROWS, i32([0, 0, 2, 2]), 3]),
    "UnsortedSegmentMin_doc": ("UnsortedSegmentMin", (), {}, [f32([[1, 2, 3], [4, 5, 6], [4, 2, 1]]), i32([0, 1, 1]), 2]),
    "UnsortedSegmentMin_empty_int": ("UnsortedSegmentMin", (), {}, [i32([[1, 2], [3, -4], [5, 6]]), i32([2, 0, 2]), 3]),
    "UnsortedSegmentProd_doc": ("UnsortedSegmentProd", (), {}, [f32([[1, 2, 3], [4, 5, 6], [4, 2, 1]]), i32([0, 1, 0]), 2]),
    "UnsortedSegmentProd_empty": ("UnsortedSegmentProd", (), {}, [SEGMENT_ROWS, i32([1, 1, 3, 1]), 4]),
    "SparseToDense_doc": ("SparseToDense", (), {}, [np.array([[0, 1], [1, 2]], np.int64), f32([1, 2]), (3, 4)]),
    "SparseToDense_3d": ("SparseToDense", (), {}, [i32([[0, 1, 0], [1, 0, 1]]), i32([7, -3]), (2, 2, 2)]),
    "SparseTensorDenseAdd_doc": ("SparseTensorDenseAdd", (), {}, [np.array([[0, 0], [0, 1]], np.int64), f32([1, 1]),
                                                                  np.array([3, 3], np.int64), f32(np.ones((3, 3)))]),
    "SparseTensorDenseAdd_more": ("SparseTensorDenseAdd", (), {}, [i32([[1, 2], [0, 0], [1, 0]]), f32([0.5, -1, 2]),
                                                                   i32([2, 3]), X23]),
    "SparseTensorDenseMatmul_doc": ("SparseTensorDenseMatmul", (), {},
                                    [i32([[0, 1], [1, 2]]), f32([1, 2]), (3, 4), f32([[1, 1], [2, 2], [3, 3], [4, 4]])]),
    "SparseTensorDenseMatmul_adjoint": ("SparseTensorDenseMatmul", (True, True), {},
                                        [i32([[0, 1], [2, 0], [1, 1]]), f32([1.5, -2, 3]), (3, 2), X23]),
    "MaskedScatter_doc": ("MaskedScatter", (), {}, [f32([1.0, 2.0, 3.0, 4.0]), np.array([True, True, False, True]),
                                                    f32([5.0, 6.0, 7.0])]),
    "MaskedScatter_broadcast": ("MaskedScatter", (), {}, [X23, np.array([True, False, True]),
                                                          f32([[10, 20, 30], [40, 50, 60]])]),
    "SparseGatherV2_doc": ("SparseGatherV2", (), {}, [f32([[1, 2, 7, 42], [3, 4, 54, 22], [2, 2, 55, 3]]),
                                                      i32([1, 2]), 1]),
})

VAR = f32([[0.6, 0.3], [0.1, 0.5], [-1.2, 2.0]])
GRAD2 = f32([[0.3, -0.7], [0.1, 0.8]])
GRAD3 = f32([[0.3, -0.7], [0.1, 0.8], [-1.5, 0.25]])
CASES.update({
    # sparse optimizers (sparse_optimizers.py): the Parameters first, updated in place
    "SparseApplyAdagrad_rows": ("SparseApplyAdagrad", (0.1,), {}, [Param(VAR), Param(f32(np.full((3, 2), 0.5)), "accum"),
                                                                   GRAD2, i32([2, 0])]),
    "SparseApplyAdagrad_no_slots": ("SparseApplyAdagrad", (0.5, False), {}, [Param(VAR), Param(f32(np.full((3, 2), 4.0)), "accum"),
                                                                             GRAD2, i32([1, 2])]),
    "SparseApplyAdagradV2_doc": ("SparseApplyAdagradV2", (), {"lr": 1e-8, "epsilon": 1e-6},
                                 [Param(f32([[0.2]])), Param(f32([[0.1]]), "accum"), f32([[0.7]]), i32([0])]),
    "SparseApplyAdagradV2_rows": ("SparseApplyAdagradV2", (0.1, 0.01), {}, [Param(VAR), Param(f32(np.full((3, 2), 0.5)), "accum"),
                                                                            GRAD2, i32([0, 2])]),
    "SparseApplyProximalAdagrad_doc": ("SparseApplyProximalAdagrad", (), {},
                                       [Param(f32([[4.1, 7.2], [1.1, 3.0]])), Param(f32(np.zeros((2, 2))), "accum"),
                                        1.0, 1.0, 0.0, f32(np.ones((2, 2))), i32([0, 1])]),
    "SparseApplyFtrl_doc": ("SparseApplyFtrl", (), {"lr": 0.01, "l1": 0.0, "l2": 0.0, "lr_power": -0.5},
                            [Param(f32([[0.2]])), Param(f32([[0.1]]), "accum"), Param(f32([[0.6]]), "linear"),
                             f32([[0.7]]), i32([1])]),
    "SparseApplyFtrl_rows": ("SparseApplyFtrl", (0.1, 0.05, 0.2, -0.5), {},
                             [Param(VAR), Param(f32(np.full((3, 2), 0.5)), "accum"),
                              Param(f32([[0.1, -0.2], [0.3, 0.02], [0.0, 1.0]]), "linear"), GRAD2, i32([0, 2])]),
    "SparseApplyRMSProp_doc": ("SparseApplyRMSProp", (0.2, 0.01, 1e-6), {},
                               [Param(f32([[0.6, 0.3], [0.1, 0.5]])), Param(f32([[0.2, 0.4], [0.1, 0.3]]), "ms"),
                                Param(f32([[0.3, 0.1], [0.3, 0.6]]), "mom"), 0.01, f32([[0.3, 0.7], [0.1, 0.8]]),
                                i32([0, 1])]),
    "SparseApplyRMSProp_rows": ("SparseApplyRMSProp", (0.9, 0.5, 1e-6), {},
                                [Param(VAR), Param(f32(np.full((3, 2), 0.5)), "ms"), Param(f32(np.full((3, 2), 0.1)), "mom"),
                                 f32(0.05), GRAD3, i32([2, 0, 1])]),
    "SparseApplyAdadelta_doc": ("SparseApplyAdadelta", (1e-6,), {},
                                [Param(f32([[1.0, 2.0], [2.0, 3.0]])), Param(f32([[1.5, 2.5], [3.5, 4.5]]), "accum"),
                                 Param(f32([[1.2, 2.4], [1.8, 0.6]]), "accum_update"), 0.01, 0.2,
                                 f32([[0.3, 0.7], [0.1, 0.8]]), i32([0, 1])]),
})

RGB = f32([[0.25, 0.5, 0.5], [0.9, 0.1, 0.3], [0.2, 0.7, 0.1], [0.4, 0.4, 0.4], [0.0, 0.0, 0.0], [0.3, 0.1, 0.8]])
CASES.update({
    # scatter-add along an axis, special functions, matrix products, selection, colour (primitive_table.py,
    # special_extra.py, matrix_extra.py, image_color.py)
    "ScatterAddWithAxis_doc": ("ScatterAddWithAxis", (0,), {}, [f32([[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
                                                                i32([[1, 0, 2], [0, 2, 1]]), f32(np.ones((2, 3)))]),
    "ScatterAddWithAxis_doc_axis1": ("ScatterAddWithAxis", (1,), {}, [i32([[1, 2, 3, 4, 5]]), i32([[2, 4]]), i32([[8, 8]])]),
    "Zeta_doc": ("Zeta", (), {}, [f32([10.0]), f32([1.0])]),
    "Zeta_more": ("Zeta", (), {}, [np.array([1.5, 2.0, 3.5, 7.0, 2.0]), np.array([0.3, 1.0, 2.5, 0.9, 15.0])]),
    "Polygamma_doc1": ("Polygamma", (), {}, [np.array(1, np.int64), f32([1.0, -0.5])]),
    "Polygamma_doc2": ("Polygamma", (), {}, [np.array(2, np.int64), f32([1.0, -0.5])]),
    "Polygamma_doc3": ("Polygamma", (), {}, [np.array(3, np.int64), f32([1.0, -0.5])]),
    "Polygamma_doc4": ("Polygamma", (), {}, [np.array(4, np.int64), f32([1.0, -0.5])]),
    "Polygamma_order0": ("Polygamma", (), {}, [np.array(0, np.int32), np.array([0.5, 3.25, -1.5])]),
    "Polygamma_order1_float64": ("Polygamma", (), {}, [np.array(1, np.int32), np.array([0.5, 3.25, -1.5, 20.0])]),
    "MatrixPower_doc": ("MatrixPower", (), {"n": 2}, [f32([[[0, 1], [-1, 0]], [[1, 0], [0, -1]]])]),
    "MatrixPower_cube": ("MatrixPower", (3,), {}, [f32([[[1.0, 0.5], [-0.25, 2.0]]])]),
    "MatrixPower_negative": ("MatrixPower", (-2,), {}, [f32([[[2.0, 1.0], [1.0, 3.0]], [[1.0, 0.0], [0.5, 4.0]]])]),
    "MatrixPower_zero": ("MatrixPower", (0,), {}, [f32([[[2.0, 1.0], [1.0, 3.0]]])]),
    "TridiagonalMatMul_doc": ("TridiagonalMatMul", (), {}, [f32([[1, 2, 3]]), f32([[1, 2, 3]]), f32([[1, 2, 3]]),
                                                            f32(np.ones((3, 3)))]),
    "TridiagonalMatMul_batched": ("TridiagonalMatMul", (), {}, [f32([[[0.5, -1, 2, 9]], [[1, 1, 1, 9]]]),
                                                                f32([[[2, 3, -1, 0.5]], [[1, 2, 3, 4]]]),
                                                                f32([[[9, 0.25, 1, -2]], [[9, 1, -1, 1]]]),
                                                                f32(np.arange(16).reshape(2, 4, 2) - 5)]),
    "NthElement_doc": ("NthElement", (), {}, [np.array([[1, 2, 3], [4, 5, 6]], np.int8), 1]),
    "NthElement_reverse": ("NthElement", (True,), {}, [SCORES, 2]),
    "NthElement_tensor_n": ("NthElement", (), {}, [SCORES, i32(0)]),
    "RGBToHSV_doc": ("RGBToHSV", (), {}, [f32([0.25, 0.5, 0.5]).reshape((1, 1, 1, 3))]),
    "RGBToHSV_more": ("RGBToHSV", (), {}, [RGB]),
})

VOLUME = np.arange(1, 17, dtype=np.float32).reshape((1, 1, 2, 2, 4))
IMAGE = (np.arange(20, dtype=np.float32).reshape((1, 1, 4, 5)) * 0.5 - 3.0) ** 2
CASES.update({
    # resampling (resample.py)
    "UpsampleNearest3D_doc": ("UpsampleNearest3D", (), {}, [VOLUME, [3, 4, 5], None]),
    "UpsampleNearest3D_scales": ("UpsampleNearest3D", (), {}, [VOLUME, None, [1.5, 2.0, 0.75]]),
    "UpsampleTrilinear3D_doc": ("UpsampleTrilinear3D", (), {}, [np.arange(1, 5, dtype=np.float32).reshape((1, 1, 1, 2, 2)),
                                                                [2, 4, 4], None]),
    "UpsampleTrilinear3D_align": ("UpsampleTrilinear3D", (True,), {}, [VOLUME, [3, 3, 6], None]),
    "UpsampleTrilinear3D_scales": ("UpsampleTrilinear3D", (), {}, [VOLUME, None, [2.0, 1.5, 0.5]]),
    "ResizeLinear1D_doc": ("ResizeLinear1D", (), {"coordinate_transformation_mode": "align_corners"},
                           [f32([[[1, 2, 3], [4, 5, 6]]]), (6,)]),
    "ResizeLinear1D_half_pixel": ("ResizeLinear1D", ("half_pixel",), {}, [f32([[[1, 2, 3], [4, 5, 9]]]), i32([5])]),
    "ResizeNearestNeighborV2_doc": ("ResizeNearestNeighborV2", (), {}, [f32(np.ones((1, 1, 4, 4))), i32([2, 2])]),
    "ResizeNearestNeighborV2_align": ("ResizeNearestNeighborV2", (True,), {}, [IMAGE, i32([3, 7])]),
    "ResizeNearestNeighborV2_half_pixel": ("ResizeNearestNeighborV2", (False, True), {}, [IMAGE, i32([6, 3])]),
    "ResizeNearestNeighborV2_plain": ("ResizeNearestNeighborV2", (), {}, [IMAGE, i32([5, 8])]),
})

CASES.update({
    "MatrixDeterminant_doc": ("MatrixDeterminant", (), {}, [f32([[[-4.5, -1.5], [7.0, 6.0]], [[2.5, 0.5], [3.0, 9.0]]])]),
    "MatrixDeterminant_3x3_float64": ("MatrixDeterminant", (), {}, [np.array([[2.0, -1.0, 0.5], [0.3, 1.5, -2.0],
                                                                                 [1.0, 0.25, 3.0]])]),
})

F64_ROWS = np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]])
SORTED_IDS = np.array([0, 0, 2], np.int64)
CASES.update({
    # sorted segment reductions (segment_sparse.py)
    "SegmentSum_doc": ("SegmentSum", (), {}, [F64_ROWS, Const(SORTED_IDS)]),
    "SegmentSum_more": ("SegmentSum", (), {}, [SEGMENT_ROWS, Const(i32([1, 1, 1, 3]))]),
    "SegmentMax_doc": ("SegmentMax", (), {}, [F64_ROWS, Const(SORTED_IDS)]),
    "SegmentMax_more": ("SegmentMax", (), {}, [SEGMENT_ROWS * -1, Const(i32([0, 1, 1, 3]))]),
    "SegmentMin_doc": ("SegmentMin", (), {}, [F64_ROWS, Const(SORTED_IDS)]),
    "SegmentMin_more": ("SegmentMin", (), {}, [i32([[1, 2], [3, -4], [5, 6]]), Const(i32([1, 1, 2]))]),
    "SegmentMean_doc": ("SegmentMean", (), {}, [np.array([[1.0, 2, 3], [1, 2, 3], [7, 8, 9]]), Const(SORTED_IDS)]),
    "SegmentMean_more": ("SegmentMean", (), {}, [SEGMENT_ROWS, Const(i32([0, 0, 0, 2]))]),
    "SegmentProd_doc": ("SegmentProd", (), {}, [F64_ROWS, Const(SORTED_IDS)]),
    "SegmentProd_more": ("SegmentProd", (), {}, [SEGMENT_ROWS, Const(i32([1, 2, 2, 2]))]),
})

TALL = np.array([[1.0, -2.0, 0.5], [0.3, 1.5, -2.0], [2.0, 0.25, 3.0], [-1.0, 1.0, 1.0]])
CASES.update({
    "Qr_doc": ("Qr", (), {}, [f32([[20., -31, 7], [4, 270, -90], [-8, 17, -32]])]),
    "Qr_tall_reduced": ("Qr", (), {}, [TALL]),
    "Qr_tall_full": ("Qr", (True,), {}, [TALL]),
    "Qr_wide_batched": ("Qr", (), {"full_matrices": False}, [np.stack([TALL.T, -TALL.T * 0.5]).astype(np.float32)]),
})

REFLECTORS = f32([[-114.6, 10.9, 1.1], [-0.304, 38.07, 69.38], [-0.45, -0.17, 62.]])
SQUARE3 = np.array([[2.0, -1.0, 0.5], [0.3, 1.5, -2.0], [1.0, 0.25, 3.0]])
CASES.update({
    # Householder reflectors and solvers (matrix_extra.py)
    "Orgqr_doc": ("Orgqr", (), {}, [REFLECTORS, f32([1.55, 1.94, 0.0])]),
    "Orgqr_tall_batched": ("Orgqr", (), {}, [np.stack([TALL, TALL * 0.5]), np.array([[1.2, 0.4], [0.3, 1.9]])]),
    "Ormqr_doc": ("Ormqr", (), {}, [REFLECTORS, f32([1.55, 1.94, 3.0]), REFLECTORS]),
    "MatrixTriangularSolve_doc": ("MatrixTriangularSolve", (), {"lower": True, "adjoint": False},
                                  [f32([[3, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1]]),
                                   f32([[1, 0], [2, 2], [1, 5], [0, 3]])]),
    "MatrixTriangularSolve_upper_adjoint": ("MatrixTriangularSolve", (False, True), {}, [SQUARE3, TALL[:3]]),
    "MatrixTriangularSolve_lower_adjoint": ("MatrixTriangularSolve", (True, True), {}, [SQUARE3, TALL[1:]]),
    "MatrixSolve_doc": ("MatrixSolve", (), {"adjoint": False}, [f32([[1.0, 4.0], [2.0, 7.0]]), f32([[1.0], [3.0]])]),
    "MatrixSolve_adjoint": ("MatrixSolve", (True,), {}, [SQUARE3, TALL[:3]]),
})

CASES.update({
    "MultilabelMarginLoss_doc": ("MultilabelMarginLoss", (), {}, [f32([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]]),
                                                                  i32([[1, 2, 0, 3], [2, 3, -1, 1]])]),
})

CASES.update({
    "Quantile_doc": ("Quantile", (), {}, [f32([0.0700, -0.5446, 0.9214]), f32([0, 0.5, 1])]),
})

POOLED = f32([[[[5.0, -1.0], [2.5, 7.0]], [[0.5, 3.0], [-2.0, 1.5]]]])
CASES.update({
    "MaxUnpool2D_doc": ("MaxUnpool2D", (), {"ksize": 1, "strides": 1, "pads": 0},
                        [f32([[[[0, 1], [8, 9]]]]), np.array([[[[0, 1], [2, 3]]]], np.int64)]),
    "MaxUnpool2D_stride2": ("MaxUnpool2D", (2,), {}, [POOLED, np.array([[[[1, 6], [9, 15]], [[4, 2], [13, 11]]]],
                                                                         np.int64)]),
    "MaxUnpool2D_nhwc_pads": ("MaxUnpool2D", (3, 2, 1), {"data_format": "NHWC"},
                              [POOLED.transpose(0, 2, 3, 1).copy(), i32([[[[0, 3], [8, 5]], [[2, 1], [7, 6]]]])]),
    "MaxUnpool3D_doc": ("MaxUnpool3D", (), {"ksize": 1, "strides": 1, "pads": 0},
                        [f32([[[[[0, 1], [8, 9]]]]]), np.array([[[[[0, 1], [2, 3]]]]], np.int64)]),
    "MaxUnpool3D_stride2": ("MaxUnpool3D", ((1, 2, 2),), {}, [POOLED.reshape(1, 1, 2, 2, 2),
                                                               np.array([[[[[1, 6], [9, 15]], [[4, 2], [13, 11]]]]],
                                                                        np.int64)]),
})
