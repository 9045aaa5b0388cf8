"""Primitive classes that call one functional op, made from one table: ``TensorScatterAdd()(x, i, u)`` is
``tensor_scatter_add(x, i, u)``, ``Elu(alpha=1.0)(x)`` is ``elu(x, alpha=1.0)``, ``P.ACos()(x)`` is ``ops.acos(x)``.

Each row of :data:`_TABLE` names the class, the function and the constructor's attributes as ``(attribute,
default, the function's keyword)``. An attribute must have its default's type (MindSpore's TypeError
otherwise), or one of the types a fourth element lists; a default :data:`REQUIRED` makes it a required argument
(``Roll(shifts, dims=None)``). The instance records it (``Prim[Elu]<alpha=1.0>``) and passes it to the function
by keyword.
"""
from __future__ import annotations

from typing import Any, Callable

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import activation_ops as act
from . import array_extra as arr
from . import array_functional as A
from . import functional as F
from . import grid_sample as sampling
from . import primitive_functions_a_l as pal
from . import cholesky_ops as chol
from . import primitive_arrays_a_l as pa
from . import primitive_statistics_a_l as pst
from . import linalg_functional as L
from . import losses
from . import math_functional as M
from . import nn_functional as nnf
from . import scatter_ops as sc
from . import scatter_reduce as scr
from . import array_layout as lay
from . import math_extra as mx
from . import mint_functions as mint
from . import margin_losses as ml
from . import segment_sparse as seg
from . import special_extra as spx
from . import matrix_extra as mxe
from . import image_color
from . import resample
from . import random_ops as rnd
from . import unpool
from . import primitive_arrays2 as pa2
from . import functional_tail
from . import linalg_extra as lx
from . import matrix_band as band
from ..common import dtype as mstype
from .eager import run
from .numeric import _check_tensor
from .primitives import Primitive


REQUIRED = object()   # the default of a constructor argument without one


def functional_primitive(name: str, function: Callable, attributes: tuple = ()) -> type:
    """A :class:`Primitive` subclass ``name`` whose instances call ``function`` on their inputs with the
    constructor's ``attributes`` (``(attribute, default, keyword)`` triples) as keywords; a fourth element lists
    the types the attribute accepts (default: its default's type), a default :data:`REQUIRED` makes it required."""
    names = [attribute for attribute, *_ in attributes]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        Primitive.__init__(self, name)
        if len(args) > len(attributes) or any(key not in names for key in kwargs):
            raise TypeError(f"For '{name}', the arguments are {names}, but got {len(args)} positional and "
                            f"{sorted(kwargs)}.")
        self._keywords = {}
        for position, (attribute, default, keyword, *types) in enumerate(attributes):
            value = args[position] if position < len(args) else kwargs.get(attribute, default)
            if value is REQUIRED:
                raise TypeError(f"For '{name}', the argument '{attribute}' is required.")
            check_value_type(attribute, value, list(types[0]) if types else [type(default)], name)
            self.add_prim_attr(attribute, value)
            self._keywords[keyword] = value

    def __call__(self, *inputs: Any, **keywords: Any) -> Any:
        return function(*inputs, **self._keywords, **keywords)

    shown = ", ".join(attribute if default is REQUIRED else f"{attribute}={default!r}"
                      for attribute, default, *_ in attributes)
    doc = f"``{name}({shown})(*inputs)``: :func:`{function.__module__}.{function.__name__}` of the inputs."
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


# The functions of the rows below whose primitive's argument order or defaults differ from the functional op's
def _squared_difference(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``(x - y) ** 2``, broadcast."""
    difference = run("sub", x, y)
    return run("mul", difference, difference)


def _div_no_nan(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``x / y``, 0 where ``y`` is 0."""
    zero = run("equal", y, 0)
    return run("where", zero, 0, run("div", x, run("where", zero, 1, y)))


def _rint(x: Tensor) -> Tensor:
    """The nearest integer, halves to even, in ``x``'s dtype."""
    _check_tensor("Rint", "x", x)
    return run("round", x)


def _sum_ext(input: Tensor, dim=None, keepdim=False, dtype=None) -> Tensor:
    return F.sum(input, dim, keepdim, dtype=dtype)


def _mean_ext(input: Tensor, dim=None, keepdim=False, dtype=None) -> Tensor:
    return F.mean(input if dtype is None else F.cast(input, dtype), dim, keepdim)


def _prod_ext(input: Tensor, dim=None, keepdim=False, dtype=None) -> Tensor:
    return F.prod(input, dim, keepdim, dtype)


def _max_dim(input: Tensor, dim, keepdim=False) -> tuple[Tensor, Tensor]:
    return F.max(input, dim, keepdim)


def _min_dim(input: Tensor, dim, keepdim=False) -> tuple[Tensor, Tensor]:
    return F.min(input, dim, keepdim)


def _argmin_ext(input: Tensor, dim=None, keepdim=False) -> Tensor:
    return F.cast(F.argmin(input, dim, keepdim), mstype.int64)


def _var_ext(input: Tensor, dim=None, correction=1, keepdim=False) -> Tensor:
    return M.var(input, dim, correction, keepdim)


def _std_ext(input: Tensor, dim=None, correction=1, keepdim=False) -> Tensor:
    return M.std(input, dim, correction, keepdim)


def _norm_ext(input: Tensor, p=2.0, dim=None, keepdim=False, dtype=None) -> Tensor:
    """The vector ``p``-norm over ``dim`` (None: all elements, as one vector)."""
    if dtype is not None:
        input = F.cast(input, dtype)
    if dim is None:
        flat = F.reshape(input, (-1,))
        norm = A.norm(flat, ord=p, dim=0)
        return F.reshape(norm, (1,) * len(input.shape)) if keepdim else norm
    return A.norm(input, ord=p, dim=dim, keepdim=keepdim)


def _addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta=1, alpha=1) -> Tensor:
    return L.addmm(input, mat1, mat2, beta=beta, alpha=alpha)


def _addmv(input: Tensor, mat: Tensor, vec: Tensor, beta=1, alpha=1) -> Tensor:
    return L.addmv(input, mat, vec, beta=beta, alpha=alpha)


def _xdivy(x: Tensor | float, y: Tensor | float) -> Tensor:
    """``x / y``, 0 where ``x`` is 0."""
    zero = run("equal", x, 0)
    return run("where", zero, 0, run("div", x, run("where", zero, 1, y)))


def _square_sum_all(x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
    """The sums of the squares of all elements of ``x`` and of ``y``."""
    return run("sum", run("mul", x, x)), run("sum", run("mul", y, y))


def _search_sorted(sorted_sequence: Tensor, values: Tensor, sorter: Tensor | None = None, dtype=None,
                   right: bool = False) -> Tensor:
    """``ops.searchsorted`` with the index dtype ``dtype`` (int32 or int64)."""
    if dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For 'SearchSorted', the 'dtype' must be int32 or int64, but got {dtype}.")
    return mint.searchsorted(sorted_sequence, values, out_int32=dtype == mstype.int32, right=right, sorter=sorter)


def _scatter_add_with_axis(input_x: Tensor, indices: Tensor, updates: Tensor, axis: int = 0) -> Tensor:
    """``TensorScatterElements(axis, 'add')``, which MindSpore 2.10 names as its replacement."""
    return sc.tensor_scatter_elements(input_x, indices, updates, axis, "add")


def _random_shuffle(x: Tensor, seed: int = 0, seed2: int = 0) -> Tensor:
    """``RandomShuffle(seed, seed2)(x)``: ``x``'s dim-0 slices in the order its MindSpore kernel draws."""
    return rnd.shuffle_with_seeds(x, (seed, seed2))


_UNPOOL = (("ksize", REQUIRED, "ksize", [int, tuple]), ("strides", 0, "strides", [int, tuple]),
           ("pads", 0, "pads", [int, tuple]), ("output_shape", (), "output_shape", [tuple]))

_TRIANGLE_INDICES = (("row", REQUIRED, "row", [int]), ("col", REQUIRED, "col", [int]), ("offset", 0, "offset"),
                     ("dtype", mstype.int32, "dtype"))

_TABLE: dict[str, tuple] = {
    "TensorScatterAdd": (sc.tensor_scatter_add, ()),
    "TensorScatterSub": (sc.tensor_scatter_sub, ()),
    "TensorScatterUpdate": (sc.tensor_scatter_update, ()),
    "Elu": (act.elu_alpha_one, (("alpha", 1.0, "alpha"),)),
    "PReLU": (nnf.prelu, ()),
    "Mish": (nnf.mish, ()),
    "HSigmoid": (nnf.hardsigmoid, ()),
    "Softsign": (nnf.softsign, ()),
    "SeLU": (act.selu, ()),
    "CeLU": (act.celu, (("alpha", 1.0, "alpha"),)),
    "HShrink": (act.hardshrink, (("lambd", 0.5, "lambd"),)),
    "SoftShrink": (act.softshrink, (("lambd", 0.5, "lambd"),)),
    "SparseSoftmaxCrossEntropyWithLogits": (act.sparse_softmax_cross_entropy, (("is_grad", False, "is_grad"),)),
    "KLDivLoss": (losses.kl_div, (("reduction", "mean", "reduction"),)),
    "BCEWithLogitsLoss": (losses.binary_cross_entropy_with_logits, (("reduction", "mean", "reduction"),)),
    "Tril": (arr.tril, (("diagonal", 0, "diagonal"),)),
    "Triu": (arr.triu, (("diagonal", 0, "diagonal"),)),
    "NonZero": (arr.nonzero, ()),
    "MaskedSelect": (F.masked_select, ()),
    "StopGradient": (F.stop_gradient, ()),
    "FastGeLU": (act.fast_gelu, ()),
    "SiLU": (nnf.silu, ()),
    "Dense": (nnf.dense, ()),
    "TransposeView": (F.transpose, ()),
    "TransposeExtView": (arr.swapaxes, ()),
    "Unique": (arr.unique_1d, ()),
    "RmsNorm": (act.rms_norm, (("epsilon", 1e-6, "epsilon"),)),
    "TensorScatterElements": (sc.tensor_scatter_elements, (("axis", 0, "axis"), ("reduction", "none", "reduction"))),
    "GridSampler2D": (sampling.grid_sample, (("interpolation_mode", "bilinear", "mode"),
                                             ("padding_mode", "zeros", "padding_mode"),
                                             ("align_corners", False, "align_corners"))),
    # math primitives without constructor arguments (ops-math)
    "ACos": (M.acos, ()), "Asin": (M.asin, ()), "Atan": (M.atan, ()), "Atan2": (M.atan2, ()), "Sinh": (M.sinh, ()),
    "Cosh": (M.cosh, ()), "Asinh": (M.asinh, ()), "Acosh": (M.acosh, ()), "Atanh": (M.atanh, ()),
    "Expm1": (M.expm1, ()), "Erfc": (M.erfc, ()), "Erfinv": (M.erfinv, ()), "Lgamma": (M.lgamma, ()),
    "Digamma": (M.digamma, ()), "Trunc": (M.trunc, ()), "IsInf": (M.isinf, ()), "Inv": (M.inv, ()),
    "Sinc": (M.sinc, ()), "Xlogy": (M.xlogy, ()), "Lerp": (M.lerp, ()), "Addcmul": (M.addcmul, ()),
    "Addcdiv": (M.addcdiv, ()), "LogicalXor": (M.logical_xor, ()), "Mod": (M.truncate_mod, ()),
    "TruncateMod": (M.truncate_mod, ()), "TruncateDiv": (M.truncate_div, ()), "LerpScalar": (M.lerp, ()),
    "SquaredDifference": (_squared_difference, ()), "DivNoNan": (_div_no_nan, ()), "Rint": (_rint, ()),
    "Frac": (M.frac, ()), "Exp2": (M.exp2, ()), "Log2": (M.log2, ()), "Log10": (M.log10, ()),
    "LogSumExp": (M.logsumexp, ()), "LogAddExp": (M.logaddexp, ()), "Nansum": (M.nansum, ()), "Hypot": (M.hypot, ()),
    "Heaviside": (M.heaviside, ()), "Xdivy": (_xdivy, ()), "SquareSumAll": (_square_sum_all, ()), "Mv": (L.mv, ()),
    "Outer": (L.ger, ()), "Ger": (L.ger, ()), "Trace": (L.trace, ()), "Baddbmm": (L.baddbmm, ()),
    "Addmm": (_addmm, ()), "Addmv": (_addmv, ()), "MatMulExt": (F.matmul, ()), "BatchMatMulExt": (F.bmm, ()),
    "SumExt": (_sum_ext, ()), "MeanExt": (_mean_ext, ()), "ProdExt": (_prod_ext, ()), "MaxDim": (_max_dim, ()),
    "MinDim": (_min_dim, ()), "ArgMaxExt": (F.argmax, ()), "ArgMinExt": (_argmin_ext, ()), "Var": (_var_ext, ()),
    "Std": (_std_ext, ()), "Norm": (_norm_ext, ()), "BitwiseAnd": (M.bitwise_and, ()),
    "BitwiseOr": (M.bitwise_or, ()), "BitwiseXor": (M.bitwise_xor, ()), "LeftShift": (M.bitwise_left_shift, ()),
    "RightShift": (M.bitwise_right_shift, ()), "Gcd": (M.gcd, ()), "Lcm": (M.lcm, ()), "Diag": (L.diag, ()),
    # ops.operations primitives A-L
    "LogSoftmaxExt": (pal.log_softmax_ext, ()), "EqualCount": (pal.equal_count, ()),
    "EuclideanNorm": (pal.euclidean_norm, (("keep_dims", False, "keep_dims"),)),
    "ApproximateEqual": (pal.approximate_equal, (("tolerance", 1e-5, "tolerance"),)),
    "Fmax": (pal.fmax, ()), "Fmin": (pal.fmin, ()), "Invert": (pal.invert, ()), "Fills": (pal.fills, ()),
    "IdentityN": (pal.identity_n, ()), "InvertPermutation": (pal.invert_permutation, ()),
    "Cholesky": (chol.cholesky, (("upper", False, "upper"),)),
    "CholeskySolve": (chol.cholesky_solve, (("upper", False, "upper"),)),
    "CholeskyInverse": (chol.cholesky_inverse, (("upper", False, "upper"),)),
    "BartlettWindow": (pa.bartlett_window, (("periodic", True, "periodic"), ("dtype", mstype.float32, "dtype"))),
    "BlackmanWindow": (pa.blackman_window, (("periodic", True, "periodic"), ("dtype", mstype.float32, "dtype"))),
    "HammingWindow": (pa.hamming_window, (("periodic", True, "periodic"), ("alpha", 0.54, "alpha"),
                                          ("beta", 0.46, "beta"), ("dtype", mstype.float32, "dtype"))),
    "AccumulateNV2": (pa.accumulate_n_v2, ()), "GLU": (pa.glu, (("axis", -1, "axis"),)),
    "LogSpace": (pa.log_space, (("steps", 10, "steps"), ("base", 10, "base"), ("dtype", mstype.float32, "dtype"))),
    "DataFormatDimMap": (pa.data_format_dim_map, (("src_format", "NHWC", "src_format"),
                                                  ("dst_format", "NCHW", "dst_format"))),
    "DataFormatVecPermute": (pa.data_format_vec_permute, (("src_format", "NHWC", "src_format"),
                                                          ("dst_format", "NCHW", "dst_format"))),
    "CheckNumerics": (pa.check_numerics, ()), "InplaceUpdateV2": (pa.inplace_update_v2, ()),
    "IndexFill": (pa.index_fill, ()), "LowerBound": (pa.lower_bound, (("out_type", mstype.int32, "out_type"),)),
    "Histogram": (pst.histogram, (("bins", 100, "bins"), ("min", 0.0, "min"), ("max", 0.0, "max"))),
    "Bincount": (pst.bincount, ()), "Bernoulli": (pst.bernoulli, (("seed", -1, "seed"), ("offset", 0, "offset"))),
    "LogNormalReverse": (pst.log_normal_reverse, (("mean", 1.0, "mean"), ("std", 2.0, "std"))),
    # ops.operations primitives M-Z
    "TensorScatterMul": (scr.tensor_scatter_mul, ()), "TensorScatterDiv": (scr.tensor_scatter_div, ()),
    "TensorScatterMax": (scr.tensor_scatter_max, ()), "TensorScatterMin": (scr.tensor_scatter_min, ()),
    "Roll": (mint.roll, (("shifts", REQUIRED, "shifts", [int, tuple, list]),
                         ("dims", None, "dims", [int, tuple, list, type(None)]))),
    "NanToNum": (mint.nan_to_num, tuple((bound, None, bound, [float, int, type(None)])
                                        for bound in ("nan", "posinf", "neginf"))),
    "SearchSorted": (_search_sorted, (("dtype", mstype.int64, "dtype"), ("right", False, "right"))),
    "Rank": (F.rank, ()),
    "SpaceToDepth": (lay.space_to_depth, (("block_size", REQUIRED, "block_size", [int]),)),
    "SpaceToBatch": (lay.space_to_batch, (("block_size", REQUIRED, "block_size", [int]),
                                          ("paddings", REQUIRED, "paddings", [list, tuple]))),
    "SpaceToBatchND": (lay.space_to_batch_nd, (("block_shape", REQUIRED, "block_shape", [int, list, tuple]),
                                               ("paddings", REQUIRED, "paddings", [list, tuple]))),
    "Padding": (lay.padding, (("pad_dim_size", 8, "pad_dim_size"),)),
    "ParallelConcat": (lay.parallel_concat, ()),
    "SplitV": (lay.split_v, (("size_splits", REQUIRED, "size_splits", [list, tuple]),
                             ("split_dim", REQUIRED, "split_dim", [int]), ("num_split", REQUIRED, "num_split", [int]))),
    "MatrixBandPart": (lay.matrix_band_part, ()),
    "TrilIndices": (lay.tril_indices, _TRIANGLE_INDICES), "TriuIndices": (lay.triu_indices, _TRIANGLE_INDICES),
    "UnravelIndex": (lay.unravel_index, ()),
    "UpperBound": (lay.upper_bound, (("out_type", mstype.int32, "out_type"),)),
    "MulNoNan": (mx.mul_no_nan, ()), "Mvlgamma": (mx.mvlgamma, (("p", REQUIRED, "p", [int]),)),
    "Renorm": (mx.renorm, (("p", REQUIRED, "p", [int]), ("dim", REQUIRED, "dim", [int]),
                           ("maxnorm", REQUIRED, "maxnorm", [float]))),
    "PopulationCount": (mx.population_count, ()),
    "SoftMarginLoss": (ml.soft_margin_loss, (("reduction", "mean", "reduction"),)),
    "MultiMarginLoss": (ml.multi_margin_loss, (("p", 1, "p"), ("margin", 1.0, "margin"),
                                               ("reduction", "mean", "reduction"))),
    "TripletMarginLoss": (ml.triplet_margin_loss, (("p", 2, "p"), ("swap", False, "swap"), ("eps", 1e-6, "eps"),
                                                   ("reduction", "mean", "reduction"))),
    "Pdist": (ml.pdist, (("p", 2.0, "p"),)),
    "MultilabelMarginLoss": (ml.multilabel_margin_loss, (("reduction", "mean", "reduction"),)),
    "UnsortedSegmentSum": (seg.unsorted_segment_sum, ()), "UnsortedSegmentMax": (seg.unsorted_segment_max, ()),
    "UnsortedSegmentMin": (seg.unsorted_segment_min, ()), "UnsortedSegmentProd": (seg.unsorted_segment_prod, ()),
    "SparseToDense": (seg.sparse_to_dense, ()), "SparseTensorDenseAdd": (seg.sparse_tensor_dense_add, ()),
    "SparseTensorDenseMatmul": (seg.sparse_tensor_dense_matmul, (("adjoint_st", False, "adjoint_st"),
                                                                 ("adjoint_dt", False, "adjoint_dt"))),
    "MaskedScatter": (seg.masked_scatter, ()), "SparseGatherV2": (F.gather, ()),
    "SegmentSum": (seg.segment_sum, ()), "SegmentMax": (seg.segment_max, ()), "SegmentMin": (seg.segment_min, ()),
    "SegmentMean": (seg.segment_mean, ()), "SegmentProd": (seg.segment_prod, ()),
    "ScatterAddWithAxis": (_scatter_add_with_axis, (("axis", 0, "axis"),)),
    "Zeta": (spx.zeta, ()), "Polygamma": (spx.polygamma, ()),
    "MatrixPower": (mxe.matrix_power, (("n", REQUIRED, "n", [int]),)),
    "TridiagonalMatMul": (mxe.tridiagonal_matmul, ()),
    "NthElement": (mxe.nth_element, (("reverse", False, "reverse"),)),
    "RGBToHSV": (image_color.rgb_to_hsv, ()), "MatrixDeterminant": (mxe.matrix_determinant, ()),
    "Qr": (mxe.qr, (("full_matrices", False, "full_matrices"),)), "Orgqr": (mxe.orgqr, ()),
    "Ormqr": (mxe.ormqr, (("left", True, "left"), ("transpose", False, "transpose"))),
    "MatrixTriangularSolve": (mxe.matrix_triangular_solve, (("lower", True, "lower"), ("adjoint", False, "adjoint"))),
    "MatrixSolve": (mxe.matrix_solve, (("adjoint", False, "adjoint"),)),
    "Quantile": (mxe.quantile, (("dim", None, "dim", [int, type(None)]), ("keep_dims", False, "keep_dims"),
                                ("ignore_nan", False, "ignore_nan"))),
    "RandpermV2": (rnd.randperm, (("seed", 0, "seed"), ("offset", 0, "offset"), ("dtype", mstype.int64, "dtype"))),
    "RandomShuffle": (_random_shuffle, (("seed", 0, "seed"), ("seed2", 0, "seed2"))),
    "MaxUnpool2D": (unpool.max_unpool2d, _UNPOOL + (("data_format", "NCHW", "data_format"),)),
    "MaxUnpool3D": (unpool.max_unpool3d, _UNPOOL + (("data_format", "NCDHW", "data_format"),)),
    "UpsampleNearest3D": (resample.upsample_nearest3d, ()),
    "UpsampleTrilinear3D": (resample.upsample_trilinear3d, (("align_corners", False, "align_corners"),)),
    "ResizeLinear1D": (resample.resize_linear1d, (("coordinate_transformation_mode", "align_corners",
                                                   "coordinate_transformation_mode"),)),
    "ResizeNearestNeighborV2": (resample.resize_nearest_neighbor_v2, (("align_corners", False, "align_corners"),
                                                                      ("half_pixel_centers", False,
                                                                       "half_pixel_centers"))),
    # ops.operations primitives
    "CountNonZero": (pa2.count_nonzero_dims, (("dims", None, "dims", [int, list, tuple, type(None)]),)),
    "FillV2": (pa2.fill_v2, ()), "InTopK": (functional_tail.intopk, (("k", REQUIRED, "k", [int]),)),
    "InplaceSub": (pa2.inplace_sub, (("indices", REQUIRED, "indices", [int, tuple, list]),)),
    "InplaceUpdate": (pa2.inplace_update, (("indices", REQUIRED, "indices", [int, tuple, list]),)),
    "ChannelShuffle": (pa2.channel_shuffle, (("group", REQUIRED, "group", [int]),)),
    "HSVToRGB": (pa2.hsv_to_rgb, ()),
    "AdaptiveAvgPool3D": (pa2.adaptive_avg_pool3d, (("output_size", REQUIRED, "output_size", [int, tuple, list]),)),
    "AdaptiveMaxPool2D": (pa2.adaptive_max_pool2d, (("output_size", REQUIRED, "output_size", [int, tuple, list]),)),
    "FillDiagonal": (pa2.fill_diagonal, (("fill_value", REQUIRED, "fill_value", [float, int]), ("wrap", False, "wrap"))),
    "InplaceIndexAdd": (pa2.inplace_index_add, (("axis", REQUIRED, "axis", [int]),)),
    "HistogramFixedWidth": (pa2.histogram_fixed_width, (("nbins", REQUIRED, "nbins", [int]),
                                                        ("dtype", "int32", "dtype"))),
    "BatchToSpace": (pa2.batch_to_space, (("block_size", REQUIRED, "block_size", [int]),
                                          ("crops", REQUIRED, "crops", [list, tuple]))),
    "BatchToSpaceND": (pa2.batch_to_space_nd, (("block_shape", REQUIRED, "block_shape", [int, list, tuple]),
                                               ("crops", REQUIRED, "crops", [list, tuple]))),
    "ConfusionMatrix": (pa2.confusion_matrix, (("num_classes", REQUIRED, "num_classes", [int]),
                                               ("dtype", "int32", "dtype"))),
    "EmbeddingLookup": (pa2.embedding_lookup, ()), "CompareAndBitpack": (pa2.compare_and_bitpack, ()),
    "IndexPut": (pa2.index_put, (("accumulate", 0, "accumulate"),)),
    "AdjustHue": (pa2.adjust_hue, ()), "AdjustSaturation": (pa2.adjust_saturation, ()),
    "Conv3D": (pa2.conv3d, (("out_channel", REQUIRED, "out_channel", [int]),
                            ("kernel_size", REQUIRED, "kernel_size", [int, tuple, list]), ("mode", 1, "mode"),
                            ("pad_mode", "valid", "pad_mode"), ("pad", 0, "pad", [int, tuple, list]),
                            ("stride", 1, "stride", [int, tuple, list]), ("dilation", 1, "dilation", [int, tuple, list]),
                            ("group", 1, "group"), ("data_format", "NCDHW", "data_format"))),
    "UniqueConsecutive": (pa2.unique_consecutive, (("return_inverse", False, "return_inverse"),
                                                   ("return_counts", False, "return_counts"),
                                                   ("dim", None, "dim", [int, type(None)]))),
    "DynamicShape": (pa2.dynamic_shape, (("dtype", 9, "dtype"),)),
    # linear algebra
    "Svd": (lx.svd_primitive, (("full_matrices", False, "full_matrices"), ("compute_uv", True, "compute_uv"))),
    "Eig": (lx.eig_primitive, (("compute_v", False, "compute_v"),)),
    "LogMatrixDeterminant": (lx.log_matrix_determinant, ()),
    "NextAfter": (lx.nextafter, ()),
    "ListDiff": (lx.list_diff, (("out_idx", mstype.int32, "out_idx", [type(mstype.int32)]),)),
    "CumulativeLogsumexp": (lx.cumulative_logsumexp, (("exclusive", False, "exclusive"),
                                                      ("reverse", False, "reverse"))),
    "NuclearNorm": (lx.nuclear_norm, (("dim", None, "dim", [list, tuple, type(None)]), ("keepdim", False, "keepdim"))),
    "MatrixDiagV3": (band.matrix_diag_v3, (("align", "RIGHT_LEFT", "align"),)),
    "MatrixDiagPartV3": (band.matrix_diag_part_v3, (("align", "RIGHT_LEFT", "align"),)),
    "MatrixSetDiagV3": (band.matrix_set_diag_v3, (("align", "RIGHT_LEFT", "align"),)),
    "Lstsq": (lx.lstsq, (("fast", True, "fast"), ("l2_regularizer", 0.0, "l2_regularizer"))),
    "MatrixSolveLs": (lx.matrix_solve_ls, (("fast", True, "fast"),)), "LuSolve": (lx.lu_solve, ()),
    "MatrixExp": (lx.matrix_exp, ()), "Geqrf": (lx.geqrf, ()),
    "LuUnpack": (lx.lu_unpack, (("unpack_data", True, "unpack_data"), ("unpack_pivots", True, "unpack_pivots"))),
}

__all__ = sorted(_TABLE)
globals().update({name: functional_primitive(name, function, attributes)
                  for name, (function, attributes) in _TABLE.items()})
