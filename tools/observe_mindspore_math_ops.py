"""Print MindSpore 2.10's outputs for the math ops of tests/test_math_ops.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_math_ops.py``. Each case is a MindSpore docstring example (``_doc``) or one more case; the
printed ``repr`` of each result is pasted into ``tests/test_math_ops.py``'s ``MINDSPORE_VALUES`` (an error as
``('TypeError', first line of its message)``).
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import composite as C, functional as F, operations as P
from mindspore.ops._primitive_cache import _get_cache_prim
from mindspore.ops.auto_generate import gen_ops_prim as G

add_flags = C.add_flags
ms.set_context(pynative_synchronize=True)   # each error shows at its own call

F32 = np.float32
V4 = np.array([0.74, 0.04, 0.30, 0.56], F32)
STATS = np.array([[1.0, 3, 4, 2], [4, 2, 5, 3], [5, 4, 2, 3]], F32)
LP = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], F32)
INNER = np.array([[[1.0, 2, 3], [3, 2, 1]], [[4, 5, 6], [4, 5, 6]]], F32)
DIAGONAL = np.array([[[1, 0, 0], [0, 2, 0], [0, 0, 3]], [[4, 0, 0], [0, 5, 0], [0, 0, 6]], [[7, 0, 0], [0, 8, 0],
                                                                                         [0, 0, 9]]], np.int64)
EXT = np.array([[1.5, -2, 3], [4, 5, -6.25]], F32)
EXT_INT = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
BITS_A = np.array([0, 0, 1, -1, 1, 1, 1], np.int16)
BITS_B = np.array([0, 1, 1, -1, -1, 2, 3], np.int16)
BATCH_A = np.arange(24, dtype=F32).reshape(2, 3, 4)
BATCH_B = np.arange(16, dtype=F32).reshape(2, 4, 2) - 5
COS_A = np.array([[-0.0256, 0.0127, -0.2475, 0.2316, 0.8037], [0.5809, -1.2712, -0.7038, -0.2558, 0.7494]], F32)
COS_B = np.array([[-0.6115, -0.1965, -0.8484, 0.2389, 0.2409], [1.8940, -2.1997, 0.1915, 0.0856, 0.7542]], F32)
INVERTIBLE = np.array([[[-0.710504, -1.1207525], [-1.7651395, -1.7576632]],
                       [[0.52412605, 1.9070215], [1.3384849, 1.4274558]]], F32)
CUMMAX = np.array([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]], np.int64)
CUMMIN = np.array([-0.2284, -0.6628, 0.0975, 0.2680, -1.3298, -0.4220], F32)
STD_IN = np.array([[1, 2, 3], [-1, 1, 4]], F32)
GAMMA_POINTS = np.array([0.5, 3.2, 8.5, -0.5, 0.0, -2.0, 1e-3, 40.0], F32)
LSE = np.array([[9.0, 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]], F32)
SIGNED = np.array([-4.5, -3.0, 2.5, 7.0], F32)
DIVISORS = np.array([2.0, -2.0, -1.5, 3.0], F32)
INTS = np.array([-7, -6, 5, 7], np.int32)
INT_DIVISORS = np.array([2, -4, -3, 3], np.int32)
CASES = {
    "acos_doc": lambda: ops.acos(Tensor(V4)),
    "acos_prim_f64": lambda: P.ACos()(Tensor(np.array([-1.0, 0.5, 1.0]))),
    "asin_doc": lambda: ops.asin(Tensor(V4)),
    "asin_prim": lambda: P.Asin()(Tensor(np.array([-1.0, -0.25], F32))),
    "atan_doc": lambda: ops.atan(Tensor(np.array([1.0, 0.0], F32))),
    "atan_prim": lambda: P.Atan()(Tensor(np.array([-3.0, 20.0], F32))),
    "atan2_doc": lambda: ops.atan2(Tensor(np.array([0.0, 1.0], F32)), Tensor(np.array([1.0, 1.0], F32))),
    "atan2_quadrants": lambda: P.Atan2()(Tensor(np.array([[1.0], [-1.0]], F32)), Tensor(np.array([-1.0, 2.0], F32))),
    "atan2_scalar": lambda: ops.atan2(Tensor(np.array([1.0, 2.0], F32)), 2),
    "sinh_doc": lambda: ops.sinh(Tensor(np.array([0.62, 0.28, 0.43, 0.62], F32))),
    "sinh_small": lambda: P.Sinh()(Tensor(np.array([1e-4, -3.0], F32))),
    "cosh_doc": lambda: ops.cosh(Tensor(V4)),
    "cosh_prim": lambda: P.Cosh()(Tensor(np.array([-2.0, 0.0], F32))),
    "asinh_doc": lambda: ops.asinh(Tensor(np.array([-5.0, 1.5, 3.0, 100.0], F32))),
    "acosh_doc": lambda: ops.acosh(Tensor(np.array([1.0, 1.5, 3.0, 100.0], F32))),
    "atanh_doc": lambda: ops.atanh(Tensor(np.array([0, -0.5], F32))),
    "atanh_prim": lambda: P.Atanh()(Tensor(np.array([0.9, 0.25], F32))),
    "expm1_doc": lambda: ops.expm1(Tensor(np.array([0.0, 1.0, 3.0], F32))),
    "expm1_small": lambda: P.Expm1()(Tensor(np.array([1e-5, -1e-3], F32))),
    "erfc_doc_f64": lambda: ops.erfc(Tensor(np.array([-1, 0, 1, 2, 3], np.float64))),
    "erfc_far": lambda: P.Erfc()(Tensor(np.array([-3.5, -0.3, 0.45, 0.6, 4.0, 6.0], F32))),
    "trunc_doc": lambda: ops.trunc(Tensor(np.array([3.4742, 0.5466, -0.8008, -3.9079], F32))),
    "trunc_int": lambda: P.Trunc()(Tensor(np.array([3, -2], np.int32))),
    "isinf_doc": lambda: ops.isinf(Tensor(np.array([-1, 3, float("inf"), float("-inf"), float("nan")], F32))),
    "isinf_prim": lambda: P.IsInf()(Tensor(np.array([1e38, float("-inf")], F32))),
    "log2_doc": lambda: ops.log2(Tensor(np.array([2, 4, 8], np.float16))),
    "log2_f32": lambda: ops.log2(Tensor(np.array([3.0, 0.5], F32))),
    "log10_doc": lambda: ops.log10(Tensor(np.array([2, 4, 10], np.float16))),
    "log10_f32": lambda: ops.log10(Tensor(np.array([1000.0, 0.5], F32))),
    "deg2rad_doc": lambda: ops.deg2rad(Tensor(np.array([[90.0, -90.0], [180.0, -180.0], [270.0, -270.0]], F32))),
    "rad2deg_doc": lambda: ops.rad2deg(Tensor(np.array([[6.283, -3.142], [1.570, -6.283], [3.142, -1.570]], F32))),
    "inv_doc": lambda: ops.inv(Tensor(np.array([0.25, 0.4, 0.31, 0.52], F32))),
    "inv_int": lambda: P.Inv()(Tensor(np.array([1, -1, 2, -3], np.int32))),
    "sinc_doc": lambda: ops.sinc(Tensor(np.array([0.62, 0.28, 0.43, 0.62], F32))),
    "sinc_zero_int": lambda: P.Sinc()(Tensor(np.array([0, 1, 2], np.int32))),
    "xlogy_doc": lambda: ops.xlogy(Tensor(np.array([-5.0, 0.0, 4.0], F32)), Tensor(np.array([2.0, 2.0, 2.0], F32))),
    "xlogy_zero": lambda: P.Xlogy()(Tensor(np.array([0.0, 0.0, 1.5], F32)), Tensor(np.array([0.0, -1.0, 3.0], F32))),
    "lerp_doc": lambda: ops.lerp(Tensor(np.array([1.0, 2, 3, 4], F32)), Tensor(np.full(4, 10.0, F32)), 0.5),
    "lerp_doc_tensor": lambda: P.Lerp()(Tensor(np.array([1.0, 2, 3, 4], F32)), Tensor(np.full(4, 10.0, F32)),
                                        Tensor(np.array([0.5, 0.25, 0, 1], F32))),
    "addcmul_doc": lambda: ops.addcmul(Tensor(np.ones(3, F32)), Tensor(np.array([[1.0], [2], [3]], F32)),
                                       Tensor(np.array([[1.0, 2, 3]], F32)), Tensor(np.array([1.0], F32))),
    "addcmul_prim": lambda: P.Addcmul()(Tensor(np.ones(3, F32)), Tensor(np.array([1.0, 2, 3], F32)),
                                        Tensor(np.array([4.0, 5, 6], F32)), Tensor(np.array([0.5], F32))),
    "addcdiv_doc": lambda: ops.addcdiv(Tensor(np.ones(4, F32)), Tensor(np.array([1.0, 2, 3, 4], F32)),
                                       Tensor(np.array([4.0, 4, 2, 1], F32)), 0.1),
    "logsumexp_doc_all": lambda: ops.logsumexp(Tensor(LSE), ()),
    "logsumexp_doc_dim0": lambda: ops.logsumexp(Tensor(LSE), 0),
    "logsumexp_doc_keepdim": lambda: ops.logsumexp(Tensor(LSE), 1, True),
    "logsumexp_large": lambda: ops.logsumexp(Tensor(np.array([[1000.0, 1000.0], [-1000.0, 0.0]], F32)), -1),
    "logaddexp_doc": lambda: ops.logaddexp(Tensor(np.array([1, 2, 3], np.float16)), Tensor(2, ms.float16)),
    "logaddexp_large": lambda: ops.logaddexp(Tensor(np.array([800.0, -3.0], F32)), Tensor(np.array([799.0, 2.0], F32))),
    "logical_xor_doc": lambda: ops.logical_xor(Tensor(np.array([True, False, True])),
                                               Tensor(np.array([True, True, False]))),
    "logical_xor_scalar": lambda: P.LogicalXor()(Tensor(np.array([True, False])), Tensor(True)),
    "multiply": lambda: ops.multiply(Tensor(np.array([1, 2], np.int32)), 2.5),
    "subtract_doc": lambda: ops.subtract(Tensor(np.array([4.0, 5, 6], F32)), Tensor(np.array([1.0, 2, 3], F32)),
                                         alpha=1),
    "subtract_alpha": lambda: ops.subtract(Tensor(np.array([4.0, 5, 6], F32)), Tensor(np.array([1.0, 2, 3], F32)),
                                           alpha=2),
    "std_doc": lambda: ops.std(Tensor(STATS)),
    "std_doc_axis0": lambda: ops.std(Tensor(STATS), axis=0),
    "std_doc_ddof": lambda: ops.std(Tensor(STATS), axis=0, keepdims=True, ddof=1),
    "std_doc_ddof_true": lambda: ops.std(Tensor(STATS), axis=0, keepdims=True, ddof=True),
    "var_doc": lambda: ops.var(Tensor(STATS)),
    "var_doc_axis0": lambda: ops.var(Tensor(STATS), axis=0),
    "var_doc_ddof": lambda: ops.var(Tensor(STATS), axis=0, keepdims=True, ddof=1),
    "var_axes": lambda: ops.var(Tensor(STATS), axis=(0, 1), ddof=2),
    "cumprod_doc": lambda: ops.cumprod(Tensor(np.array([1, 2, 3], F32)), 0),
    "cumprod_int_dim1": lambda: ops.cumprod(Tensor(np.array([[1, 2, 0], [3, -1, 2]], np.int32)), 1),
    "cumprod_prim_doc": lambda: P.CumProd()(Tensor(np.array([5.0, 6, 7], F32)), 0),
    "cumprod_prim_exclusive": lambda: P.CumProd(exclusive=True)(Tensor(np.array([5.0, 6, 7], F32)), 0),
    "cumprod_prim_reverse": lambda: P.CumProd(reverse=True)(Tensor(np.array([5.0, 6, 7], F32)), 0),
    "cumprod_prim_both": lambda: P.CumProd(exclusive=True, reverse=True)(Tensor(np.array([5.0, 6, 7], F32)), 0),
    "mod_doc": lambda: P.Mod()(Tensor(np.array([-4.0, 3.0, 4.0], F32)), Tensor(np.array([3.0, 2.0, -3.0], F32))),
    "mod_float": lambda: P.Mod()(Tensor(SIGNED), Tensor(DIVISORS)),
    "mod_int": lambda: P.Mod()(Tensor(INTS), Tensor(INT_DIVISORS)),
    "truncate_mod": lambda: P.TruncateMod()(Tensor(INTS), Tensor(INT_DIVISORS)),
    "truncate_div_int": lambda: P.TruncateDiv()(Tensor(INTS), Tensor(INT_DIVISORS)),
    "truncate_div_float": lambda: P.TruncateDiv()(Tensor(SIGNED), Tensor(DIVISORS)),
    "squared_difference_doc": lambda: P.SquaredDifference()(Tensor(np.array([1.0, 2, 3], F32)),
                                                            Tensor(np.array([2.0, 4, 6], F32))),
    "squared_difference_int": lambda: P.SquaredDifference()(Tensor(np.array([1, -2], np.int32)),
                                                            Tensor(np.array([4, 3], np.int32))),
    "div_no_nan_doc": lambda: P.DivNoNan()(Tensor(np.array([-1.0, 0, 1, 5, 6], F32)),
                                           Tensor(np.array([0.0, 0, 0, 2, 3], F32))),
    "rint_doc": lambda: P.Rint()(Tensor(np.array([-1.6, -0.1, 1.5, 2.0], F32))),
    "rint_halves": lambda: P.Rint()(Tensor(np.array([[-2.5, -1.5, -0.5], [0.5, 1.5, 2.5]], F32))),
    "lp_norm_doc": lambda: _get_cache_prim(P.LpNorm)([0, 1], 2, False, 1e-12)(Tensor(LP)),
    "lp_norm_doc_keywords": lambda: _get_cache_prim(P.LpNorm)([0, 1], 2, keep_dims=False, epsilon=1e-12)(Tensor(LP)),
    "lp_norm_zero": lambda: P.LpNorm(axis=0, p=2)(Tensor(np.zeros((2, 2), F32))),
    "lp_norm_p1_keep": lambda: P.LpNorm(axis=1, p=1, keep_dims=True)(Tensor(np.array([[1.0, -2], [3, 4]], F32))),
    "lp_norm_p3_epsilon": lambda: P.LpNorm(axis=1, p=3, epsilon=1.0)(Tensor(np.array([[1.0, -2], [0.1, 0.2]], F32))),
    "lp_norm_p0": lambda: P.LpNorm(axis=-1, p=0)(Tensor(np.array([[1.0, -2], [0.0, 0.2]], F32))),
    "eps_doc": lambda: P.Eps()(Tensor(np.array([4, 1, 2, 3], F32))),
    "eps_f16": lambda: P.Eps()(Tensor(np.array([4, 1], np.float16))),
    "eps_f64": lambda: P.Eps()(Tensor(np.array([4, 1], np.float64))),
    "tensor_mul": lambda: F.tensor_mul(Tensor(np.array([1, 2], np.int32)), 1.5),
    "tensor_add": lambda: ops.tensor_add(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([3, 4], np.int32))),
    "tensor_floordiv": lambda: F.tensor_floordiv(Tensor(np.array([-7.0, 7.0], F32)), 2),
    "mixed_precision_cast": lambda: F.mixed_precision_cast(ms.float16, Tensor(np.ones(2, F32))),
    "mixed_precision_cast_int": lambda: F.mixed_precision_cast(ms.float16, Tensor(np.ones(2, np.int32))),
    "mv_doc": lambda: ops.mv(Tensor(np.array([[3.0, 4], [1, 6], [1, 3]], F32)), Tensor(np.array([1.0, 2], F32))),
    "inner_doc_vectors": lambda: ops.inner(Tensor(np.array([1.0, 2, 3], F32)), Tensor(np.array([4.0, 5, 6], F32))),
    "inner_doc_scalar": lambda: ops.inner(Tensor(INNER), Tensor(2.0, ms.float32)),
    "inner_doc_tensors": lambda: ops.inner(Tensor(INNER), Tensor(np.array([[2.0, 3, 4], [4, 3, 2]], F32))),
    "ger_doc": lambda: ops.ger(Tensor(np.array([1.0, 2, 3, 4], F32)), Tensor(np.array([1.0, 2, 3], F32))),
    "diagonal_doc": lambda: ops.diagonal(Tensor(DIAGONAL)),
    "diagonal_doc_offset": lambda: ops.diagonal(Tensor(DIAGONAL), offset=1),
    "diagonal_doc_dims": lambda: ops.diagonal(Tensor(DIAGONAL), offset=0, dim1=2, dim2=1),
    "diagonal_below": lambda: ops.diagonal(Tensor(np.arange(12, dtype=F32).reshape(3, 4)), offset=-1),
    "trace_doc": lambda: ops.trace(Tensor(np.arange(9).reshape(3, 3))),
    "trace_float": lambda: ops.trace(Tensor(np.arange(6, dtype=F32).reshape(2, 3))),
    "diag_part_doc": lambda: ops.DiagPart()(Tensor(np.diag(np.array([1, 2, 3, 4], np.int32)))),
    "diag_part_rank4": lambda: ops.DiagPart()(Tensor(np.arange(16, dtype=F32).reshape(2, 2, 2, 2))),
    "frac_doc": lambda: ops.frac(Tensor(np.array([2, 4.2, -2.5], np.float16))),
    "frac_signs": lambda: ops.frac(Tensor(np.array([-1.75, 3.5], F32))),
    "exp2_doc": lambda: ops.exp2(Tensor(np.array([2, 3, 4], F32))),
    "exp2_int": lambda: ops.exp2(Tensor(np.array([-1, 3], np.int32))),
    "nansum_doc": lambda: ops.nansum(Tensor(np.array([[float("nan"), 2, 3], [1, 2, float("nan")]], F32))),
    "nansum_doc_axis": lambda: ops.nansum(Tensor(np.array([[float("nan"), 2, 3], [1, 2, float("nan")]], F32)),
                                          axis=0, keepdims=True, dtype=ms.float16),
    "nansum_int": lambda: ops.nansum(Tensor(np.array([[1, 2], [3, 4]], np.int32)), 1),
    "count_nonzero_doc": lambda: ops.count_nonzero(Tensor(np.array([[0, 1, 0], [1, 1, 0]], np.int64))),
    "count_nonzero_doc_axis": lambda: ops.count_nonzero(Tensor(np.array([[0, 1, 0], [1, 1, 0]], np.int64)),
                                                        axis=[0, 1], keep_dims=True, dtype=ms.int32),
    "count_nonzero_axis1": lambda: ops.count_nonzero(Tensor(np.array([[0.0, 1.5, 0], [1, -1, 0]], F32)), axis=1),
    "floor_mod_doc": lambda: ops.floor_mod(Tensor(np.array([2, 4, -1], np.int32)), Tensor(np.array([3, 3, 3],
                                                                                                    np.int32))),
    "hypot_doc": lambda: ops.hypot(Tensor(np.array([3.0, 5.0, 7.0], F32)), Tensor(np.array([4.0, 12.0, 24.0], F32))),
    "heaviside_doc": lambda: ops.heaviside(Tensor(np.array([-5.0, 1.0, 0.0], F32)), Tensor(np.array([1.5], F32))),
    "logit_doc": lambda: ops.logit(Tensor(np.array([0.1, 0.2, 0.3], F32)), eps=1e-5),
    "logit_none": lambda: P.Logit()(Tensor(np.array([0.0, 0.5, 0.9], F32))),
    "logit_eps": lambda: P.Logit(eps=0.2)(Tensor(np.array([0.0, 0.5, 0.9], F32))),
    "isclose_doc": lambda: ops.isclose(Tensor(np.array([1.3, 2.1, 2.4], F32)), Tensor(np.array([1.3, 3.3, 2.3], F32))),
    "isclose_special": lambda: P.IsClose(rtol=1e-3, atol=0.0, equal_nan=True)(
        Tensor(np.array([np.inf, -np.inf, np.nan, 1000.0, 1.0], F32)),
        Tensor(np.array([np.inf, np.inf, np.nan, 1000.9, 1.001], F32))),
    "baddbmm_doc": lambda: ops.baddbmm(Tensor(np.ones((1, 3, 3), F32)), Tensor(np.ones((1, 3, 4), F32)),
                                       Tensor(np.ones((1, 4, 3), F32)), 0.5, 2),
    "addmm_doc": lambda: ops.addmm(Tensor(np.ones((3, 3), F32)), Tensor(np.ones((3, 4), F32)),
                                   Tensor(np.ones((4, 3), F32)), beta=1, alpha=0.5),
    "addmv_doc": lambda: ops.addmv(Tensor(np.array([2.0, 3.0], F32)), Tensor(np.array([[2.0, -1, 3], [3, 1, -2]], F32)),
                                   Tensor(np.array([1.0, 2.0, 3.0], F32)), beta=2, alpha=0.5),
    "sum_ext_int": lambda: G.SumExt()(Tensor(EXT_INT)),
    "sum_ext_dim": lambda: G.SumExt()(Tensor(EXT), 1, True),
    "sum_ext_dtype": lambda: G.SumExt()(Tensor(EXT_INT), (0,), False, ms.float32),
    "mean_ext": lambda: G.MeanExt()(Tensor(EXT), 0),
    "mean_ext_int": lambda: G.MeanExt()(Tensor(EXT_INT)),
    "max_dim": lambda: G.MaxDim()(Tensor(EXT), 1)[0],
    "max_dim_index": lambda: G.MaxDim()(Tensor(EXT), 1)[1],
    "min_dim_keep": lambda: G.MinDim()(Tensor(EXT), 0, True)[0],
    "min_dim_keep_index": lambda: G.MinDim()(Tensor(EXT), 0, True)[1],
    "bmm_ext": lambda: G.BatchMatMulExt()(Tensor(np.arange(12, dtype=F32).reshape(2, 2, 3)),
                                          Tensor(np.ones((2, 3, 1), F32))),
    "matmul_ext_vector": lambda: G.MatMulExt()(Tensor(EXT), Tensor(np.array([1.0, 0, 2], F32))),
    "prod_ext": lambda: G.ProdExt()(Tensor(EXT), 1),
    "prod_ext_int": lambda: G.ProdExt()(Tensor(EXT_INT)),
    "top_k_values": lambda: ops.top_k(Tensor(EXT), 2)[0],
    "top_k_indices": lambda: ops.top_k(Tensor(EXT), 2)[1],
    "bitwise_and_doc": lambda: ops.bitwise_and(Tensor(BITS_A), Tensor(BITS_B)),
    "bitwise_or_doc": lambda: ops.bitwise_or(Tensor(BITS_A), Tensor(BITS_B)),
    "bitwise_xor_doc": lambda: ops.bitwise_xor(Tensor(BITS_A), Tensor(BITS_B)),
    "bitwise_and_bool": lambda: P.BitwiseAnd()(Tensor(np.array([True, False])), Tensor(np.array([True, True]))),
    "bitwise_and_mixed": lambda: P.BitwiseAnd()(Tensor(np.array([6, 3], np.int32)), Tensor(np.array([3, 5], np.int64))),
    "bitwise_and_scalar": lambda: ops.bitwise_and(Tensor(np.array([6, 3], np.int32)), 5),
    "left_shift_doc": lambda: ops.bitwise_left_shift(Tensor(np.array([1024, 2], np.int16)),
                                                     Tensor(np.array([2], np.int16))),
    "right_shift_doc": lambda: ops.bitwise_right_shift(Tensor(np.array([1024, 2], np.int16)),
                                                       Tensor(np.array([2], np.int16))),
    "right_shift_prim": lambda: P.RightShift()(Tensor(np.array([1, 2, 3], np.uint8)), Tensor(np.array([1, 1, 1],
                                                                                                   np.uint8))),
    "right_shift_negative": lambda: P.RightShift()(Tensor(np.array([-8, -7], np.int32)),
                                                   Tensor(np.array([1, 2], np.int32))),
    "left_shift_prim": lambda: P.LeftShift()(Tensor(np.array([1, 2, 3], np.int8)), Tensor(np.array([0, 1, -1],
                                                                                                 np.int8))),
    "left_shift_scalar": lambda: ops.bitwise_left_shift(Tensor(np.array([4], np.int32)), 2),
    "gcd_doc": lambda: ops.gcd(Tensor(np.array([7, 8, 9], np.int32)), Tensor(np.array([14, 6, 12], np.int32))),
    "gcd_signs": lambda: P.Gcd()(Tensor(np.array([-4, 0, 0], np.int32)), Tensor(np.array([6, 5, 0], np.int32))),
    "lcm_doc": lambda: ops.lcm(Tensor(np.array([7, 8, 9], np.int32)), Tensor(np.array([14, 6, 12], np.int32))),
    "lcm_signs": lambda: P.Lcm()(Tensor(np.array([-4, 0, 3], np.int64)), Tensor(np.array([6, 5, -5], np.int64))),
    "batch_dot_doc_tuple": lambda: ops.batch_dot(ops.ones([2, 2, 3]), ops.ones([2, 3, 2]), (-1, -2)),
    "batch_dot_doc_rank2": lambda: ops.batch_dot(ops.ones([2, 2], ms.float32), ops.ones([2, 3, 2], ms.float32), (1, 2)),
    "batch_dot_vectors": lambda: ops.batch_dot(Tensor(np.arange(6, dtype=F32).reshape(2, 3)),
                                               Tensor(np.arange(6, dtype=F32).reshape(2, 3) + 1)),
    "batch_dot_default": lambda: ops.batch_dot(Tensor(BATCH_A), Tensor(BATCH_B)),
    "batch_dot_int_axes": lambda: ops.batch_dot(Tensor(BATCH_A), Tensor(BATCH_A), (1, 1)),
    "diff_int": lambda: ops.diff(Tensor(np.array([1, 3, -1, 0, 4], np.int32))),
    "diff_axis0": lambda: ops.diff(Tensor(np.array([[1.0, 3], [4, 8]], F32)), axis=0),
    "diff_pend": lambda: ops.diff(Tensor(np.array([1.0, 3], F32)), prepend=Tensor(np.array([0.0], F32)),
                                  append=Tensor(np.array([7.0, 9], F32))),
    "truncate_div_functional": lambda: ops.truncate_div(Tensor(np.array([-7, 7], np.int32)), Tensor(np.array([2, -2], np.int32))),
    "truncate_mod_functional": lambda: ops.truncate_mod(Tensor(np.array([-7, 7], np.int32)), Tensor(np.array([2, -2], np.int32))),
    "cosine_similarity_doc": lambda: ops.cosine_similarity(Tensor(COS_A), Tensor(COS_B)),
    "cosine_similarity_zero": lambda: ops.cosine_similarity(Tensor(np.array([[0.0, 0], [1, 2]], F32)),
                                                            Tensor(np.array([[1.0, 1], [2, -1]], F32)), dim=1),
    "cosine_similarity_dim0": lambda: ops.cosine_similarity(Tensor(np.array([[3.0, 0], [4, 2]], F32)),
                                                            Tensor(np.array([[1.0, 1], [2, -1]], F32)), dim=0),
    "matrix_inverse_doc": lambda: P.MatrixInverse()(Tensor(INVERTIBLE)),
    "matrix_inverse_adjoint": lambda: P.MatrixInverse(adjoint=True)(Tensor(np.array([[1.0, 2], [3, 4]], F32))),
    "inverse_f64": lambda: ops.inverse(Tensor(np.array([[1.0, 2], [3, 4]]))),
    "erfinv_doc": lambda: ops.erfinv(Tensor(np.array([0, 0.5, -0.9], F32))),
    "erfinv_edges": lambda: P.Erfinv()(Tensor(np.array([-1.0, -0.999, 1e-6, 0.99, 1.0, 1.5], F32))),
    "erfinv_f64": lambda: P.Erfinv()(Tensor(np.array([-0.3, 0.7]))),
    "cummax_doc": lambda: ops.cummax(Tensor(CUMMAX), axis=0)[0],
    "cummax_doc_indices": lambda: ops.cummax(Tensor(CUMMAX), axis=0)[1],
    "cummax_ties_indices": lambda: ops.cummax(Tensor(np.array([1.0, 3, 3, 2, 3, 0], F32)), 0)[1],
    "cummin_doc": lambda: P.Cummin(0)(Tensor(CUMMIN))[0],
    "cummin_doc_indices": lambda: P.Cummin(0)(Tensor(CUMMIN))[1],
    "cummin_int_ties": lambda: P.Cummin(0)(Tensor(np.array([2, 1, 1, 3, 1], np.int32)))[1],
    "bucketize_doc": lambda: ops.bucketize(Tensor(np.array([[3, 6, 9], [3, 6, 9]])), [1.0, 3.0, 5.0, 7.0, 9.0], right=True),
    "bucketize_left": lambda: P.Bucketize([1.0, 3.0, 5.0, 7.0, 9.0])(Tensor(np.array([[0.5, 3.0, 9.5], [3.2, 6, 9]], F32))),
    "cross_doc": lambda: P.Cross(dim=0)(Tensor(np.array([1, 2, 3], np.int8)), Tensor(np.array([1, 2, 3], np.int8))),
    "cross_rows": lambda: ops.cross(Tensor(np.array([[1.0, 0, 0], [0, 2, 1]], F32)),
                                    Tensor(np.array([[0.0, 1, 0], [3, 0, 1]], F32))),
    "cross_first_dim": lambda: ops.cross(Tensor(np.arange(6.0, dtype=F32).reshape(3, 2)), Tensor(np.ones((3, 2), F32))),
    "cdist_doc": lambda: ops.cdist(Tensor(np.array([[[1.0, 1.0], [2.0, 2.0]]], F32)),
                                   Tensor(np.array([[[3.0, 3.0], [3.0, 3.0]]], F32)), 2.0),
    "cdist_p1": lambda: P.Cdist(1.0)(Tensor(np.array([[[1.0, 1.0], [2.0, 2.0]]], F32)),
                                     Tensor(np.array([[[3.0, 3.5], [0.0, 3.0]]], F32))),
    "cdist_p3": lambda: ops.cdist(Tensor(np.array([[1.0, 1.0], [2.0, 2.0]], F32)),
                                  Tensor(np.array([[3.0, 3.5], [0.0, 3.0]], F32)), 3.0),
    "reduce_std_doc": lambda: P.ReduceStd(axis=1, unbiased=True, keep_dims=False)(Tensor(STD_IN))[0],
    "reduce_std_doc_mean": lambda: P.ReduceStd(axis=1, unbiased=True, keep_dims=False)(Tensor(STD_IN))[1],
    "reduce_std_all": lambda: P.ReduceStd(axis=[], unbiased=False, keep_dims=True)(Tensor(STD_IN))[0],
    "diag_vector": lambda: ops.diag(Tensor(np.array([1, -2, 3], np.int32))),
    "diag_matrix": lambda: P.Diag()(Tensor(np.array([[1.0, 2], [3, 4]], F32))),
    "lgamma_doc": lambda: ops.lgamma(Tensor(np.array([0.5, 3.2, 8.5], F32))),
    "lgamma_poles": lambda: P.Lgamma()(Tensor(GAMMA_POINTS)),
    "digamma_doc": lambda: ops.digamma(Tensor(np.array([1.5, 0.5, 9.4], np.float16))),
    "digamma_poles": lambda: P.Digamma()(Tensor(GAMMA_POINTS)),
}
# values that are no Tensors: reprs, dtypes of structures, flags
OTHER_CASES = {
    "reprs": lambda: [repr(p) for p in (P.ACos(), P.Addcmul(), P.CumProd(True), P.LpNorm(axis=0, p=1),
                                        P.LpNorm((0, 1)), F.tensor_mul, ops.tensor_add, F.tensor_floordiv)],
    "is_tensor": lambda: [ops.is_tensor(Tensor(1)), ops.is_tensor(1), ops.is_tensor(ms.Parameter(Tensor(1.0), "p"))],
    "mixed_precision_cast_tuple": lambda: [str(v.dtype) if isinstance(v, Tensor) else v for v in F.mixed_precision_cast(
        ms.float16, (Tensor(np.ones(2, F32)), Tensor(np.ones(2, np.int32)), 3.0))],
    "mixed_precision_cast_dict": lambda: {k: str(v.dtype) for k, v in F.mixed_precision_cast(
        ms.float32, {"a": Tensor(np.ones(2, np.float16))}).items()},
    "add_flags": lambda: _flags(),
}
# random draws: (shape, dtype) of the docstring examples (MindSpore's numbers come from its own generator)
RANDOM_CASES = {
    "randint_doc": lambda: ops.randint(1, 10, (2, 3)),
    "uniform_int_doc": lambda: ops.UniformInt(seed=0)((2, 4), Tensor(1, ms.int32), Tensor(5, ms.int32)),
    "multinomial_doc_no_replacement": lambda: ops.multinomial(Tensor(np.array([0.9, 0.1, 0], F32)), 2,
                                                              replacement=False),
    "multinomial_doc_replacement": lambda: ops.multinomial(Tensor(np.array([0.9, 0.1, 0], F32)), 10),
    "multinomial_doc_rank2": lambda: ops.multinomial(Tensor(np.array([[90, 10, 0], [10, 90, 0]], F32)), 10),
    "multinomial_prim_doc": lambda: ops.Multinomial()(Tensor(np.array([[0.0, 9, 4, 0]], F32)), 2),
    "randn_like_doc": lambda: ops.randn_like(Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32)), dtype=ms.float32),
    "rand_like_doc": lambda: ops.rand_like(Tensor(np.array([[2, 3, 4], [1, 2, 3]], np.int32)), dtype=ms.float32),
    "rand_like_f16": lambda: ops.rand_like(Tensor(np.ones((3,), np.float16))),
    # ops.Randperm has no CPU kernel in MindSpore 2.10: its docstring gives a (30,) Int32 result
    "randperm_doc": lambda: ops.randperm(4, 0, 0, dtype=ms.int64),
    "random_categorical_doc": lambda: ops.RandomCategorical(ms.int64)(Tensor(np.random.random((10, 5)).astype(F32)),
                                                                     8, 0),
    "shuffle_doc": lambda: ops.shuffle(Tensor(np.array([1, 2, 3, 4], F32))),
    "standard_laplace_doc": lambda: ops.standard_laplace((4, 4)),
    "standard_laplace_prim": lambda: P.StandardLaplace(seed=0)((4, 16)),
    "truncated_normal_doc": lambda: P.TruncatedNormal()(Tensor(np.array([2, 2]), ms.int32)),
    "truncated_normal_f16": lambda: P.TruncatedNormal(dtype=ms.float16)(Tensor(np.array([3, 2]), ms.int32)),
}


def _flags():
    def fn(x):
        return x
    same = add_flags(fn, predict=True) is fn
    return [same, fn._func_graph_flags, callable(add_flags(predict=True))]


def _error(call):
    """``(exception type, the line of its message naming the problem)``, or None when ``call`` succeeds."""
    try:
        call().asnumpy()
    except (TypeError, ValueError, RuntimeError) as error:
        lines = [line for line in str(error).splitlines() if line.strip() and not line.startswith(("---", "- "))]
        return (type(error).__name__, next((line for line in lines if "operator[" in line), lines[0]))
    return None


ERRORS = {
    "acos_int": lambda: ops.acos(Tensor(np.array([1, 0], np.int32))),
    "atan2_int": lambda: ops.atan2(Tensor(np.array([1, 0], np.int32)), Tensor(np.array([1, 0], np.int32))),
    "deg2rad_int": lambda: ops.deg2rad(Tensor(np.array([1, 0], np.int32))),
    "isinf_int": lambda: ops.isinf(Tensor(np.array([1, 0], np.int32))),
    "log2_int": lambda: ops.log2(Tensor(np.array([1, 2], np.int32))),
    "bitwise_and_float": lambda: ops.bitwise_and(Tensor(np.array([6.0], F32)), Tensor(np.array([3.0], F32))),
    "inverse_int": lambda: ops.inverse(Tensor(np.array([[1, 2], [3, 4]], np.int32))),
    "inverse_not_square": lambda: ops.inverse(Tensor(np.ones((2, 3), F32))),
    "bucketize_int_boundary": lambda: P.Bucketize([1.0, 3])(Tensor(np.array([2.0], F32))),
    "diff_n2": lambda: ops.diff(Tensor(np.array([1.0, 3, 4], F32)), n=2),
    "left_shift_mixed": lambda: ops.bitwise_left_shift(Tensor(np.array([4], np.int32)), Tensor(np.array([1],
                                                                                                      np.int64))),
}

if __name__ == "__main__":
    for name, case in CASES.items():
        value = case()
        if isinstance(value, Tensor):
            value = (value.asnumpy().tolist(), str(value.dtype))
        print(f"    {name!r}: {value!r},")
    for name, case in OTHER_CASES.items():
        print(f"    {name!r}: {case()!r},")
    for name, case in RANDOM_CASES.items():
        value = case()
        print(f"    {name!r}: ({value.shape!r}, {str(value.dtype)!r}),")
    for name, case in ERRORS.items():
        print(f"    {name!r}: {_error(case)!r},")
