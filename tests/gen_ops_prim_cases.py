"""The cases of tests/test_gen_ops_prim.py: ``(key, call, inputs, reference)``.

``call`` is a lambda's body over the Tensors ``a, b, c ...`` (made from the arrays named in ``inputs``) and ``G``
(``ops.auto_generate.gen_ops_prim``), ``mint``, ``ms``, ``np``; the test evaluates it with npspore, eagerly and under
``jit``, and ``tools/observe_mindspore_gen_ops_prim.py`` with MindSpore 2.10. Where MindSpore 2.10's CPU has no
kernel for the primitive (nor for the ``mint`` function built on it), ``reference`` is what MindSpore documents it
as, spelled with ops CPU MindSpore runs (``ops.acos`` for ``AcosExt``; for an in-place primitive the out-of-place
value, which its first input then holds too; for a backward primitive MindSpore's gradient of the forward op; for
``AdamW`` and the gathered batch statistics their documented formulas, over this module's arrays), and the
observer records that one's value instead.
"""
import numpy as np

F32 = np.float32
X = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], F32)
Y = np.array([[2.0, 0.5, -1.5], [-3.0, 1.0, 2.5]], F32)
ROW = np.array([0.25, -0.5, 2.0], F32)
UNIT = np.array([0.74, 0.04, 0.30, 0.56], F32)
ABOVE_ONE = np.array([1.0, 1.5, 3.0, 100.0], F32)
POSITIVE = np.array([[0.5, 1.0, 2.0], [3.0, 4.0, 0.25]], F32)
INTS = np.array([[-7, -6, 5], [7, 0, 3]], np.int32)
INT_DIVISORS = np.array([[2, -4, -3], [3, 5, -2]], np.int32)
BITS = np.array([0, 1, 6, -3, 12], np.int16)
OTHER_BITS = np.array([3, 1, 5, -1, 10], np.int16)
FLAGS = np.array([True, False, True], np.bool_)
BATCH1 = np.arange(12, dtype=F32).reshape(2, 2, 3) / 4
BATCH2 = np.arange(12, dtype=F32).reshape(2, 3, 2) / 3 - 1
SQUARE = np.array([[2.0, 1.0], [0.5, 3.0]], F32)
SEQUENCE = np.array([[3.0, 1.0, 2.0, 5.0], [4.0, -1.0, 0.0, 2.0]], F32)
IMAGE = np.arange(32, dtype=F32).reshape(1, 2, 4, 4) / 8
SIGNAL = np.arange(12, dtype=F32).reshape(1, 2, 6) / 3 - 1
VOLUME = np.arange(16, dtype=F32).reshape(1, 1, 2, 2, 4) / 4
KERNEL1D = np.array([[[1.0, 0.5], [-1.0, 0.25]], [[0.5, 0.5], [2.0, -1.0]]], F32)
KERNEL2D = np.arange(16, dtype=F32).reshape(2, 2, 2, 2) / 10 - 0.5
KERNEL3D = np.arange(8, dtype=F32).reshape(1, 1, 2, 2, 2) / 4 - 0.75
BIAS2 = np.array([0.5, -1.0], F32)
INDEX = np.array([2, 0], np.int64)
SCATTER_INDEX = np.array([[0, 2, 1], [2, 1, 0]], np.int64)   # no index twice along dimension 1
ROWS_INDEX = np.array([[1, 0, 1], [0, 1, 0]], np.int64)   # nor along dimension 0
MASK = np.array([[True, False, True], [False, False, True]], np.bool_)
TABLE = np.arange(12, dtype=F32).reshape(4, 3) / 2
IDS = np.array([[0, 3], [1, 1]], np.int64)
PROBS = np.array([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]], F32)
LOGPROBS = np.log(PROBS).astype(F32)
NCHW = (np.arange(24, dtype=F32).reshape(2, 4, 3) ** 1.5 / 10).reshape(2, 4, 3, 1)
CHANNELS = np.array([0.5, -1.0, 2.0, 1.5], F32)
SHIFTS = np.array([0.1, 0.2, -0.3, 0.0], F32)
HALVES = (NCHW[:1], NCHW[1:])   # the samples of two ranks, for the gathered batch statistics
RANK_MEANS = np.stack([h.mean((0, 2, 3)) for h in HALVES]).astype(F32)
RANK_INVSTDS = np.stack([1 / np.sqrt(h.var((0, 2, 3)) + 1e-5) for h in HALVES]).astype(F32)
RANK_COUNTS = np.array([3.0, 3.0], F32)
ROPE = np.arange(16, dtype=F32).reshape(1, 1, 2, 8) / 8 - 1
ROPE_COS = np.cos(np.arange(8, dtype=F32) / 3).reshape(1, 1, 1, 8)
ROPE_SIN = np.sin(np.arange(8, dtype=F32) / 3).reshape(1, 1, 1, 8)
ADAM_STATE = np.array([[0.1, -0.2, 0.3], [0.05, 0.0, -0.1]], F32)

# (key, call, inputs, reference expression where MindSpore 2.10 CPU has no kernel for the primitive)
CASES = [
    # elementwise math
    ("AcosExt", "G.AcosExt()(a)", ["UNIT"], "ms.ops.acos(a)"),
    ("AcoshExt", "G.AcoshExt()(a)", ["ABOVE_ONE"], "ms.ops.acosh(a)"),
    ("AsinExt", "G.AsinExt()(a)", ["UNIT"], "ms.ops.asin(a)"),
    ("AsinhExt", "G.AsinhExt()(a)", ["X"], "ms.ops.asinh(a)"),
    ("AtanExt", "G.AtanExt()(a)", ["X"], "ms.ops.atan(a)"),
    ("Atan2Ext", "G.Atan2Ext()(a, b)", ["X", "Y"], "ms.ops.atan2(a, b)"),
    ("AddExt", "G.AddExt()(a, b, 2)", ["X", "Y"], None),
    ("AddExt_int_keyword", "G.AddExt()(a, b, alpha=3)", ["INTS", "INT_DIVISORS"], None),
    ("AddScalar", "G.AddScalar()(a, 1.5, 2)", ["X"], "mint.add(a, 1.5, alpha=2)"),
    ("SubExt", "G.SubExt()(a, b, 0.5)", ["X", "Y"], None),
    ("SubScalar", "G.SubScalar()(a, 2, 3)", ["INTS"], "mint.sub(a, 2, alpha=3)"),
    ("Muls", "G.Muls()(a, -2.5)", ["X"], "mint.mul(a, -2.5)"),
    ("Divs", "G.Divs()(a, 4)", ["INTS"], "mint.div(a, 4)"),
    ("DivMod_floor", "G.DivMod()(a, b, 'floor')", ["INTS", "INT_DIVISORS"], "mint.div(a, b, rounding_mode='floor')"),
    ("DivMod_trunc", "G.DivMod()(a, b, rounding_mode='trunc')", ["X", "Y"], "mint.div(a, b, rounding_mode='trunc')"),
    ("DivMods", "G.DivMods()(a, 3, 'floor')", ["X"], "ms.ops.div(a, 3.0, rounding_mode='floor')"),
    ("FloorDivScalar", "G.FloorDivScalar()(a, 4)", ["INTS"], "ms.ops.floor_divide(a, 4)"),
    ("FmodScalar", "G.FmodScalar()(a, 1.5)", ["X"], "mint.fmod(a, 1.5)"),
    ("FmodTensor", "G.FmodTensor()(a, b)", ["INTS", "INT_DIVISORS"], "mint.fmod(a, b)"),
    ("RemainderScalarTensor", "G.RemainderScalarTensor()(5.0, a)", ["Y"], "mint.remainder(5.0, a)"),
    ("RemainderTensorScalar", "G.RemainderTensorScalar()(a, 3)", ["INTS"], "mint.remainder(a, 3)"),
    ("RemainderTensorTensor", "G.RemainderTensorTensor()(a, b)", ["X", "Y"], "mint.remainder(a, b)"),
    ("PowScalarTensor", "G.PowScalarTensor()(2.0, a)", ["X"], "mint.pow(2.0, a)"),
    ("PowTensorScalar", "G.PowTensorScalar()(a, 3)", ["X"], "mint.pow(a, 3)"),
    ("XLogYScalarOther", "G.XLogYScalarOther()(a, 2.0)", ["POSITIVE"], "mint.xlogy(a, 2.0)"),
    ("XLogYScalarSelf", "G.XLogYScalarSelf()(3.0, a)", ["POSITIVE"], "ms.ops.xlogy(ms.Tensor(3.0), a)"),
    ("LogAddExp2", "G.LogAddExp2()(a, b)", ["X", "Y"], "ms.ops.logaddexp2(a, b)"),
    ("AddcdivExt", "G.AddcdivExt()(a, b, c, 0.5)", ["X", "Y", "POSITIVE"], "ms.ops.addcdiv(a, b, c, ms.Tensor(0.5))"),
    ("AddcmulExt", "G.AddcmulExt()(a, b, c, value=2)", ["X", "Y", "POSITIVE"], "ms.ops.addcmul(a, b, c, ms.Tensor(2.0))"),
    ("ClampScalar", "G.ClampScalar()(a, -1.0, 2.0)", ["X"], None),
    ("ClampScalar_max_only", "G.ClampScalar()(a, max=1)", ["INTS"], None),
    ("ClampTensor", "G.ClampTensor()(a, b, c)", ["X", "Y", "POSITIVE"], None),
    ("GreaterEqualScalar", "G.GreaterEqualScalar()(a, 0.5)", ["X"], "mint.greater_equal(a, 0.5)"),
    ("IsNegInf", "G.IsNegInf()(a / b)", ["X", "Y"], "ms.ops.isneginf(a / b)"),
    ("BitwiseAndScalar", "G.BitwiseAndScalar()(a, 6)", ["BITS"], "ms.ops.bitwise_and(a, ms.Tensor(np.int16(6)))"),
    ("BitwiseAndTensor", "G.BitwiseAndTensor()(a, b)", ["BITS", "OTHER_BITS"], "mint.bitwise_and(a, b)"),
    ("BitwiseOrScalar", "G.BitwiseOrScalar()(a, 5)", ["BITS"], "ms.ops.bitwise_or(a, ms.Tensor(np.int16(5)))"),
    ("BitwiseOrTensor", "G.BitwiseOrTensor()(a, b)", ["BITS", "OTHER_BITS"], "ms.ops.bitwise_or(a, b)"),
    ("BitwiseXorScalar", "G.BitwiseXorScalar()(a, 3)", ["BITS"], "ms.ops.bitwise_xor(a, ms.Tensor(np.int16(3)))"),
    ("BitwiseXorTensor", "G.BitwiseXorTensor()(a, b)", ["BITS", "OTHER_BITS"], "ms.ops.bitwise_xor(a, b)"),
    ("BitwiseNot", "G.BitwiseNot()(a)", ["BITS"], "ms.ops.invert(a) if a.dtype != ms.bool_ else ms.ops.logical_not(a)"),
    ("BitwiseNot_bool", "G.BitwiseNot()(a)", ["FLAGS"], "ms.ops.invert(a) if a.dtype != ms.bool_ else ms.ops.logical_not(a)"),
    ("SelectV2", "G.SelectV2()(c, a, b)", ["X", "Y", "MASK"], "mint.where(c, a, b)"),
    # linear algebra
    ("Addbmm", "G.Addbmm()(a, b, c, 0.5, 2)", ["SQUARE", "BATCH1", "BATCH2"], "ms.ops.addbmm(a, b, c, beta=0.5, alpha=2)"),
    ("Dot", "G.Dot()(a, b)", ["ROW", "ROW"], "ms.ops.tensor_dot(a, b, 1)"),
    ("Mm", "G.Mm()(a, b)", ["X", "BATCH2[0]"], "ms.ops.matmul(a, b)"),
    ("TraceExt", "G.TraceExt()(a)", ["X"], "ms.ops.trace(a)"),
    ("MatrixInverseExt", "G.MatrixInverseExt()(a)", ["SQUARE"], "ms.ops.inverse(a)"),
    ("TExt", "G.TExt()(a)", ["X"], "mint.t(a)"),
    # reductions, sorting
    ("CountNonZero", "G.CountNonZero()(a, 1)", ["INTS"], "ms.ops.count_nonzero(a, 1)"),
    ("CountNonZero_all", "G.CountNonZero()(a)", ["X"], "ms.ops.count_nonzero(a)"),
    ("CumminExt", "G.CumminExt()(a, 1)", ["SEQUENCE"], "ms.ops.cummin(a, 1)"),
    ("CumsumExt", "G.CumsumExt()(a, 0)", ["X"], "ms.ops.cumsum(a, 0)"),
    ("CumsumExt_dtype", "G.CumsumExt()(a, 1, ms.float32)", ["INTS"], "ms.ops.cumsum(a, 1, ms.float32)"),
    ("ArgSort", "G.ArgSort()(a, 1, True)", ["SEQUENCE"], "ms.ops.argsort(a, 1, True)"),
    ("SortExt", "G.SortExt()(a, 0, descending=True)", ["SEQUENCE"], "ms.ops.sort(a, 0, True)"),
    ("TopkExt", "G.TopkExt()(a, 2)", ["SEQUENCE"], "ms.ops.topk(a, 2)"),
    ("TopkExt_smallest", "G.TopkExt()(a, 1, 0, False)", ["SEQUENCE"], "ms.ops.topk(a, 1, 0, False)"),
    ("Kthvalue", "G.Kthvalue()(a, 2, 1)", ["SEQUENCE"], "(ms.ops.sort(a, 1)[0][:, 1], ms.ops.sort(a, 1)[1][:, 1])"),
    ("Kthvalue_keepdim", "G.Kthvalue()(a, 1, 0, True)", ["SEQUENCE"], "(ms.ops.sort(a, 0)[0][:1], ms.ops.sort(a, 0)[1][:1])"),
    ("MedianDim", "G.MedianDim()(a, 1)", ["SEQUENCE"], "ms.ops.median(a, 1)"),
    ("MedianExt", "G.MedianExt()(a)", ["SEQUENCE"], "ms.ops.median(a.reshape(-1))[0]"),
    ("Max", "G.Max()(a)", ["X"], None),
    ("Min", "G.Min()(a)", ["INTS"], None),
    ("StdMean", "G.StdMean()(a, 1)", ["SEQUENCE"], "ms.ops.std_mean(a, 1, ddof=1)"),
    ("VarMean", "G.VarMean()(a, 0, 0, True)", ["SEQUENCE"], "ms.ops.var_mean(a, 0, ddof=0, keepdims=True)"),
    ("HistcExt", "G.HistcExt()(a, 4, -2, 4)", ["X"], "ms.ops.histc(a, 4, -2, 4)"),
    ("NonZeroExt", "G.NonZeroExt()(a)", ["INTS"], "mint.nonzero(a)"),
    # creation
    ("Arange", "G.Arange()(1, 7, 2)", [], "ms.ops.arange(1, 7, 2)"),
    ("Arange_float", "G.Arange()(0.5, 2.0, 0.5, ms.float32)", [], "ms.ops.arange(0.5, 2.0, 0.5, dtype=ms.float32)"),
    ("LinSpaceExt", "G.LinSpaceExt()(-1.0, 2.0, 5)", [], "ms.ops.linspace(-1.0, 2.0, 5)"),
    ("FillScalar", "G.FillScalar()((2, 3), 2.5)", [], "ms.ops.full((2, 3), 2.5, dtype=ms.float32)"),
    ("FillTensor", "G.FillTensor()((2, 2), a[0, 0], ms.int32)", ["X"], "ms.ops.full((2, 2), a[0, 0], dtype=ms.int32)"),
    ("FullLike", "G.FullLike()(a, 7)", ["X"], "ms.ops.full_like(a, 7)"),
    ("OnesLikeExt", "G.OnesLikeExt()(a, ms.int32)", ["X"], "ms.ops.ones_like(a, dtype=ms.int32)"),
    ("ZerosLikeExt", "G.ZerosLikeExt()(a)", ["INTS"], "ms.ops.zeros_like(a)"),
    ("NewOnes", "G.NewOnes()(a, (2, 2))", ["INTS"], "a.new_ones((2, 2))"),
    ("NewZeros", "G.NewZeros()(a, (3,), ms.float32)", ["INTS"], "a.new_zeros((3,), dtype=ms.float32)"),
    ("DiagExt", "G.DiagExt()(a, 1)", ["ROW"], "ms.ops.pad(ms.ops.diag(a), (1, 0, 0, 1))"),
    ("TrilExt", "G.TrilExt()(a, -1)", ["SEQUENCE"], "ms.ops.tril(a, -1)"),
    # shapes, views, indexing
    ("Clone", "G.Clone()(a)", ["X"], "a.copy()"),
    ("Contiguous", "G.Contiguous()(a)", ["X"], None),
    ("Copy", "G.Copy()(a)", ["INTS"], None),
    ("StackExt", "G.StackExt(1)([a, b])", ["X", "Y"], "ms.ops.stack([a, b], 1)"),
    ("StackExt_default", "G.StackExt()((a, b))", ["ROW", "ROW"], "ms.ops.stack((a, b))"),
    ("BroadcastToView", "G.BroadcastToView()(a, (2, 3))", ["ROW"], None),
    ("ExpandAs", "G.ExpandAs()(a, b)", ["ROW", "X"], None),
    ("ExpandDimsView", "G.ExpandDimsView()(a, 1)", ["X"], None),
    ("ViewAs", "G.ViewAs()(a, b)", ["X", "BATCH2[0]"], None),
    ("FlattenExt", "G.FlattenExt()(a, 1)", ["IMAGE"], "mint.flatten(a, 1)"),
    ("Chunk", "G.Chunk()(a, 2, 1)", ["SEQUENCE"], "mint.chunk(a, 2, 1)"),
    ("ChunkView", "G.ChunkView()(a, 2)", ["X"], None),
    ("Narrow", "G.Narrow()(a, 1, 1, 2)", ["SEQUENCE"], "mint.narrow(a, 1, 1, 2)"),
    ("NarrowView", "G.NarrowView()(a, 0, 1, 1)", ["X"], None),
    ("SelectExtView", "G.SelectExtView()(a, 1, 2)", ["X"], None),
    ("SliceExt", "G.SliceExt()(a, 1, 0, 3, 2)", ["X"], None),
    ("SliceExtView", "G.SliceExtView()(a, 1, 1, 4, 2)", ["SEQUENCE"], None),
    ("SplitTensor", "G.SplitTensor()(a, 3, 1)", ["SEQUENCE"], "mint.split(a, 3, 1)"),
    ("SplitTensorView", "G.SplitTensorView()(a, 1)", ["X"], None),
    ("SplitWithSize", "G.SplitWithSize()(a, (1, 3), 1)", ["SEQUENCE"], "mint.split(a, (1, 3), 1)"),
    ("SplitWithSizeView", "G.SplitWithSizeView()(a, [2, 1], 1)", ["X"], None),
    ("UnstackExtView", "G.UnstackExtView()(a, 1)", ["X"], None),
    ("Repeat", "G.Repeat()(a, (2, 1, 2))", ["X"], "ms.ops.tile(a, (2, 1, 2))"),
    ("RepeatInterleaveInt", "G.RepeatInterleaveInt()(a, 2, 1)", ["X"], "ms.ops.repeat_interleave(a, 2, 1)"),
    ("RepeatInterleaveTensor", "G.RepeatInterleaveTensor()(a, b, 0)", ["X", "INDEX"],
     "ms.ops.repeat_interleave(a, b, 0)"),
    ("IndexSelect", "G.IndexSelect()(a, 1, b)", ["X", "INDEX"], "ms.ops.gather(a, b, 1)"),
    ("IndexAddExt", "G.IndexAddExt()(a, 1, b, c, 2)", ["X", "INDEX", "Y[:, :2]"],
     "ms.ops.index_add(a, b.astype(ms.int32), c * 2, 1)"),
    ("IndexFillScalar", "G.IndexFillScalar()(a, 1, b, -9.0)", ["X", "INDEX"], "ms.ops.index_fill(a, 1, b.astype(ms.int32), -9.0)"),
    ("IndexFillTensor", "G.IndexFillTensor()(a, 0, b, c)", ["X", "INDEX[1:]", "ROW[0]"], "ms.ops.index_fill(a, 0, b.astype(ms.int32), c)"),
    ("Take", "G.Take()(a, b)", ["X", "SCATTER_INDEX"], "ms.ops.gather(a.reshape(-1), b, 0)"),
    ("Index", "G.Index()(a, [b])", ["X", "INDEX[1:]"], "a[b]"),
    ("InnerIndex", "G.InnerIndex()(a, [b, c])", ["X", "INDEX[1:]", "INDEX"], "a[b, c]"),
    ("Scatter", "G.Scatter()(a, 1, b, c)", ["X", "SCATTER_INDEX", "Y"], "mint.scatter(a, 1, b, c)"),
    ("ScatterValue", "G.ScatterValue()(a, 1, b, 5.0)", ["X", "SCATTER_INDEX"], "mint.scatter(a, 1, b, 5.0)"),
    ("ScatterAddExt", "G.ScatterAddExt()(a, 0, b, c)", ["X", "ROWS_INDEX", "Y"], "ms.ops.tensor_scatter_elements(a, b, c, 0, 'add')"),
    ("AsStrided", "G.AsStrided()(a, (2, 2), (1, 2), 1)", ["X"], None),
    ("AsStrided_3d", "G.AsStrided()(a, (2, 2, 2), (4, 1, 2))", ["SEQUENCE"], None),
    ("Unique2", "G.Unique2()(a, True, True, True)", ["np.array([2, 1, 2, 3, 1, 3, 3])"],
     "(lambda f: (lambda y: (y.astype(ms.int64), ms.ops.searchsorted(y, f).astype(ms.int64), "
     "ms.ops.unique_consecutive(ms.ops.sort(f)[0], return_counts=True)[1]))(ms.ops.unique(ms.ops.sort(f)[0])[0]))"
     "(a.astype(ms.float32))"),
    ("Unique2_float", "G.Unique2()(a, True, True, True)", ["np.array([[0.5, -1.0], [0.5, 2.0]], np.float32)"],
     "(lambda y: (y, ms.ops.searchsorted(y, a).astype(ms.int64), ms.ops.unique_consecutive(ms.ops.sort("
     "a.reshape(-1))[0], return_counts=True)[1]))(ms.ops.unique(ms.ops.sort(a.reshape(-1))[0])[0])"),
    # activations, losses
    ("GeluExt", "G.GeluExt()(a)", ["X"], "ms.ops.gelu(a)"),
    ("GeluExt_tanh", "G.GeluExt()(a, 'tanh')", ["X"], "ms.ops.gelu(a, 'tanh')"),
    ("LeakyReLUExt", "G.LeakyReLUExt()(a, 0.2)", ["X"], "ms.ops.leaky_relu(a, 0.2)"),
    ("MishExt", "G.MishExt()(a)", ["X"], "ms.ops.mish(a)"),
    ("SeLUExt", "G.SeLUExt()(a)", ["X"], "ms.ops.selu(a)"),
    ("SoftplusExt", "G.SoftplusExt()(a, 2, 3)", ["X"], "mint.nn.functional.softplus(a, 2, 3)"),
    ("Hardtanh", "G.Hardtanh()(a)", ["X"], "ms.ops.hardtanh(a)"),
    ("Hardtanh_bounds", "G.Hardtanh()(a, -0.5, 2.0)", ["X"], "ms.ops.hardtanh(a, -0.5, 2.0)"),
    ("Threshold", "G.Threshold()(a, 0.75, -1.0)", ["X"], "ms.ops.threshold(a, 0.75, -1.0)"),
    ("Swiglu", "G.Swiglu()(a)", ["SEQUENCE"], "ms.ops.silu(a[:, :2]) * a[:, 2:]"),
    ("KLDiv", "G.KLDiv()(a, b)", ["LOGPROBS", "PROBS"], "ms.ops.kl_div(a, b, 'mean')"),
    ("KLDiv_log_target", "G.KLDiv()(a, b, 'sum', True)", ["LOGPROBS", "LOGPROBS[::-1]"],
     "ms.ops.kl_div(a, b.exp(), 'sum')"),
    ("L1LossExt", "G.L1LossExt()(a, b)", ["X", "Y"], "ms.ops.l1_loss(a, b)"),
    ("MSELossExt", "G.MSELossExt()(a, b, 'none')", ["X", "Y"], "ms.ops.mse_loss(a, b, 'none')"),
    # padding, convolution, pooling, resizing
    ("ConstantPadND", "G.ConstantPadND()(a, (1, 0, 0, 1), 9.0)", ["X"], "ms.ops.pad(a, (1, 0, 0, 1), value=9.0)"),
    ("ReflectionPad1D", "G.ReflectionPad1D()(a, (2, 1))", ["SIGNAL"], "ms.ops.pad(a, (2, 1), 'reflect')"),
    ("ReflectionPad2D", "G.ReflectionPad2D()(a, (1, 1, 2, 0))", ["IMAGE"],
     "ms.ops.pad(a, (1, 1, 2, 0), 'reflect')"),
    ("ReflectionPad3D", "G.ReflectionPad3D()(a, (1, 0, 1, 0, 1, 1))", ["VOLUME[0]"],
     "(lambda p: ms.ops.cat([p[:, 1:2], p, p[:, :1]], 1))(ms.ops.pad(a, (1, 0, 1, 0), 'reflect'))"),
    ("ReplicationPad1D", "G.ReplicationPad1D()(a, (1, 2))", ["SIGNAL"], "ms.ops.pad(a, (1, 2), 'replicate')"),
    ("ReplicationPad2D", "G.ReplicationPad2D()(a, (0, 1, 1, 0))", ["IMAGE"],
     "ms.ops.pad(a, (0, 1, 1, 0), 'replicate')"),
    ("ReplicationPad3D", "G.ReplicationPad3D()(a, (0, 1, 1, 0, 1, 0))", ["VOLUME"],
     "ms.ops.pad(a, (0, 1, 1, 0, 1, 0), 'replicate')"),
    ("Conv1DExt", "G.Conv1DExt()(a, b, c, 1, 1)", ["SIGNAL", "KERNEL1D", "BIAS2"],
     "ms.ops.conv1d(a, b, c, 1, 'pad', 1)"),
    ("Conv1DPadding", "G.Conv1DPadding()(a, b, None, 1, 'same')", ["SIGNAL", "KERNEL1D"],
     "ms.ops.conv1d(a, b, None, 1, 'same')"),
    ("Conv2DExt", "G.Conv2DExt()(a, b, c, 2, 1)", ["IMAGE", "KERNEL2D", "BIAS2"],
     "ms.ops.conv2d(a, b, c, 2, 'pad', 1)"),
    ("Conv2DPadding", "G.Conv2DPadding()(a, b, c, 1, 'valid', 2)", ["IMAGE", "KERNEL2D", "BIAS2"],
     "ms.ops.conv2d(a, b, c, 1, 'valid', 0, 2)"),
    ("Conv3DExt", "G.Conv3DExt()(a, b)", ["VOLUME", "KERNEL3D"], "ms.ops.conv3d(a, b)"),
    ("Conv3DPadding", "G.Conv3DPadding()(a, b, None, 1, 'same')", ["VOLUME", "KERNEL3D"],
     "ms.ops.conv3d(a, b, None, 1, 'same')"),
    ("AdaptiveAvgPool1D", "G.AdaptiveAvgPool1D()(a, 3)", ["SIGNAL"], "ms.ops.adaptive_avg_pool1d(a, 3)"),
    ("AdaptiveAvgPool2DExt", "G.AdaptiveAvgPool2DExt()(a, (3, 2))", ["IMAGE"],
     "ms.ops.adaptive_avg_pool2d(a, (3, 2))"),
    ("AdaptiveAvgPool3DExt", "G.AdaptiveAvgPool3DExt()(a, (1, 2, 3))", ["VOLUME"],
     "ms.ops.adaptive_avg_pool3d(a, (1, 2, 3))"),
    ("AdaptiveMaxPool1D", "G.AdaptiveMaxPool1D()(a, 3)", ["SIGNAL"],
     "(ms.ops.adaptive_max_pool1d(a, 3), ms.ops.adaptive_max_pool2d(a.expand_dims(2), (1, 3), True)[1].squeeze(2))"),
    ("AvgPool1D", "G.AvgPool1D()(a, 3, 2, 1)", ["SIGNAL"], "ms.ops.avg_pool1d(a, 3, 2, 1)"),
    ("AvgPool2D", "G.AvgPool2D()(a, 2, 2)", ["IMAGE"], "ms.ops.avg_pool2d(a, 2, 2)"),
    ("AvgPool2D_padded", "G.AvgPool2D()(a, 3, 2, 1, False, False)", ["IMAGE"],
     "ms.ops.avg_pool2d(a, 3, 2, 1, False, False)"),
    ("AvgPool3DExt", "G.AvgPool3DExt()(a, (1, 2, 2))", ["VOLUME"], "ms.ops.avg_pool3d(a, (1, 2, 2), (1, 2, 2))"),
    ("PixelShuffle", "G.PixelShuffle()(a, 2)", ["IMAGE[:, :, :2].reshape(1, 4, 2, 2)"],
     "mint.nn.functional.pixel_shuffle(a, 2)"),
    ("Im2ColExt", "G.Im2ColExt()(a, 2, 1, 0, 2)", ["IMAGE"], "ms.ops.unfold(a, 2, 1, 0, 2)"),
    ("Col2ImExt", "G.Col2ImExt()(a, (3, 3), 2)", ["np.arange(16, dtype=np.float32).reshape(1, 4, 4)"],
     "ms.ops.fold(a, ms.Tensor([3, 3], ms.int32), 2)"),
    ("Embedding", "G.Embedding()(a, b)", ["IDS", "TABLE"], "ms.ops.gather(b, a, 0)"),
    ("UpsampleNearest1D", "G.UpsampleNearest1D()(a, (9,))", ["SIGNAL"],
     "mint.nn.functional.interpolate(a, 9, mode='nearest')"),
    ("UpsampleNearest2D", "G.UpsampleNearest2D()(a, None, (1.5, 2.0))", ["IMAGE"],
     "mint.nn.functional.interpolate(a, scale_factor=(1.5, 2.0), mode='nearest')"),
    ("UpsampleLinear1D", "G.UpsampleLinear1D()(a, (8,), None, True)", ["SIGNAL"],
     "ms.ops.interpolate(a, size=8, mode='linear', align_corners=True)"),
    ("UpsampleBilinear2D", "G.UpsampleBilinear2D()(a, (3, 5))", ["IMAGE"],
     "ms.ops.interpolate(a, size=(3, 5), mode='bilinear', align_corners=False)"),
    # normalization, backward, optimizer and attention primitives
    ("LayerNormExt", "G.LayerNormExt()(a, (3,), b, c)", ["X", "ROW", "ROW[::-1]"],
     "(lambda o: (o[0], o[1], ms.ops.rsqrt(o[2] + 1e-5)))(ms.ops.operations.LayerNorm(1, 1, 1e-5)(a, b, c))"),
    ("LayerNormExt_two_dims", "G.LayerNormExt()(a, (2, 3), eps=0.1)", ["BATCH1"],
     "(lambda o: (o[0], o[1], ms.ops.rsqrt(o[2] + 0.1)))(ms.ops.operations.LayerNorm(1, 1, 0.1)(a, "
     "ms.ops.ones((2, 3), ms.float32), ms.ops.zeros((2, 3), ms.float32)))"),
    ("AddLayerNormV2_doc", "G.AddLayerNormV2()(a, a, b, c, 1e-7)", ["np.array([[1, 2, 3], [1, 2, 3]], np.float32)",
     "np.ones(3, np.float32)", "np.zeros(3, np.float32)"],
     "(lambda x: (lambda o: (o[0], o[1], ms.ops.rsqrt(o[2] + 1e-7), x))(ms.ops.operations.LayerNorm(1, 1, 1e-7)(x, b, "
     "c)))(a + a)"),
    ("AddLayerNormV2", "G.AddLayerNormV2()(a, b, c, d)", ["X", "Y", "ROW", "ROW[::-1]"],
     "(lambda x: (lambda o: (o[0], o[1], ms.ops.rsqrt(o[2] + 1e-5), x))(ms.ops.operations.LayerNorm(1, 1, 1e-5)(x, c, "
     "d)))(a + b)"),
    ("AddRmsNorm_doc", "G.AddRmsNorm()(a, a, b)", ["np.array([[0.5, 1.0, 1.5], [0.5, 1.0, 1.5]], np.float32)",
     "np.ones(3, np.float32)"], "(lambda x: (lambda r: (x * r * b, r, x))(ms.ops.rsqrt((x * x).mean(-1, True) + 1e-6)))"
     "(a + a)"),
    ("AddRmsNorm", "G.AddRmsNorm()(a, b, c, 0.1)", ["BATCH1", "BATCH1[::-1]", "X"],
     "(lambda x: (lambda r: (x * r * c, r, x))(ms.ops.rsqrt((x * x).mean((-2, -1), True) + 0.1)))(a + b)"),
    ("GroupNorm", "G.GroupNorm()(a, 2, b, c)", ["NCHW", "CHANNELS", "SHIFTS"],
     "(ms.ops.group_norm(a, 2, b, c), a.reshape(2, 2, -1).mean(2), ms.ops.rsqrt(a.reshape(2, 2, -1).var(2) + 1e-5))"),
    ("BatchNormStats", "G.BatchNormStats()(a, 1e-5)", ["NCHW"],
     "(a.mean((0, 2, 3)), ms.ops.rsqrt(a.var((0, 2, 3)) + 1e-5))"),
    ("BatchNormElemt", "G.BatchNormElemt()(a, b, c, d, e)", ["NCHW", "CHANNELS", "SHIFTS", "ROW[[0, 1, 2, 0]]", "CHANNELS ** 2"],
     "(a - d.reshape(1, 4, 1, 1)) * e.reshape(1, 4, 1, 1) * b.reshape(1, 4, 1, 1) + c.reshape(1, 4, 1, 1)"),
    ("BatchNormGatherStatsWithCounts", "(lambda s: (*s, c, d))(G.BatchNormGatherStatsWithCounts()(b[0], a, b, c, d, "
     "0.1, 1e-5, e))", ["RANK_MEANS", "RANK_INVSTDS", "SHIFTS", "CHANNELS ** 2", "RANK_COUNTS"],
     "(lambda t: (t.mean((0, 2, 3)), ms.ops.rsqrt(t.var((0, 2, 3)) + 1e-5), c * 0.9 + t.mean((0, 2, 3)) * 0.1, "
     "d * 0.9 + t.var((0, 2, 3), ddof=1) * 0.1))(ms.Tensor(NCHW))"),
    ("SoftmaxBackward", "G.SoftmaxBackward()(b, ms.ops.softmax(a, 1), 1)", ["X", "Y"],
     "ms.grad(lambda x: (ms.ops.softmax(x, 1) * b).sum())(a)"),
    ("L1LossBackwardExt", "G.L1LossBackwardExt()(c, a, b)", ["X", "Y", "np.float32(2.0)"],
     "ms.grad(lambda x: ms.ops.l1_loss(x, b) * c)(a)"),
    ("L1LossBackwardExt_none", "G.L1LossBackwardExt()(c, a, b, 'none')", ["X", "Y", "POSITIVE"],
     "ms.grad(lambda x: (ms.ops.l1_loss(x, b, 'none') * c).sum())(a)"),
    ("BinaryCrossEntropyWithLogitsBackward", "G.BinaryCrossEntropyWithLogitsBackward()(d, a, b)", ["X", "PROBS",
     "POSITIVE", "np.float32(0.5)"],
     "ms.grad(lambda x: ms.ops.binary_cross_entropy_with_logits(x, b, ms.ops.ones_like(x), ms.ops.ones_like(x)) * d)(a)"),
    ("BinaryCrossEntropyWithLogitsBackward_weights", "G.BinaryCrossEntropyWithLogitsBackward()(d, a, b, c, e, 'sum')",
     ["X", "PROBS", "POSITIVE", "np.float32(1.5)", "ROW"],
     "ms.grad(lambda x: ms.ops.binary_cross_entropy_with_logits(x, b, c, e, 'sum') * d)(a)"),
    ("EmbeddingDenseBackward", "G.EmbeddingDenseBackward()(a, b, 4)", ["np.arange(12, dtype=np.float32).reshape(2, 2, 3)",
     "IDS"], "ms.grad(lambda w: (ms.ops.gather(w, b, 0) * a).sum())(ms.ops.zeros((4, 3), ms.float32))"),
    ("EmbeddingDenseBackward_padding", "G.EmbeddingDenseBackward()(a, b, 4, 1)",
     ["np.arange(12, dtype=np.float32).reshape(2, 2, 3)", "IDS"],
     "ms.grad(lambda w: (ms.ops.gather(w, b, 0) * a).sum())(ms.ops.zeros((4, 3), ms.float32)) "
     "* ms.Tensor([[1.0], [0.0], [1.0], [1.0]])"),
    ("AdamW", "(lambda out: (*out, d))(G.AdamW()(a, b, c, d, e, f, 0.01, 0.9, 0.999, 0.1, 1e-8))",
     ["X", "ADAM_STATE", "ADAM_STATE ** 2", "ADAM_STATE ** 2", "Y", "np.float32(3.0)"],
     "(lambda m, v: (a * (1 - 0.01 * 0.1) - 0.01 / (1 - 0.9 ** 3) * m / (ms.ops.sqrt(v) / (1 - 0.999 ** 3) ** 0.5 "
     "+ 1e-8), m, v, d))(0.9 * b + 0.1 * e, 0.999 * c + 0.001 * e * e)"),
    ("AdamW_amsgrad_maximize", "(lambda out: (*out, d))(G.AdamW()(a, b, c, d, e, f, 0.1, 0.8, 0.99, 0.0, 1e-6, "
     "True, True))", ["X", "ADAM_STATE", "ADAM_STATE ** 2", "ADAM_STATE ** 2 * 2", "Y", "np.float32(2.0)"],
     "(lambda m, v, top: (a - 0.1 / (1 - 0.8 ** 2) * m / (ms.ops.sqrt(top) / (1 - 0.99 ** 2) ** 0.5 + 1e-6), m, v, "
     "top))(0.8 * b - 0.2 * e, 0.99 * c + 0.01 * e * e, ms.ops.maximum(d, 0.99 * c + 0.01 * e * e))"),
    ("RotaryPositionEmbedding", "G.RotaryPositionEmbedding()(a, b, c)", ["ROPE", "ROPE_COS", "ROPE_SIN"],
     "a * b + ms.ops.cat((-a[..., 4:], a[..., :4]), -1) * c"),
    ("RotaryPositionEmbedding_interleaved", "G.RotaryPositionEmbedding()(a, b, c, 1)", ["ROPE", "ROPE_COS", "ROPE_SIN"],
     "a * b + ms.ops.stack((-a[..., 1::2], a[..., ::2]), -1).reshape(a.shape) * c"),
    ("TriangularSolve", "G.TriangularSolve()(a, b)", ["BATCH2[0, :2]", "SQUARE"],
     "(ms.ops.matmul(ms.ops.inverse(ms.ops.triu(b)), a), b)"),
    ("TriangularSolve_lower_unit_transposed", "G.TriangularSolve()(a, b, False, True, True)",
     ["BATCH2[:, :2]", "np.array([[[2.0, 5.0], [-1.5, 3.0]], [[1.0, 0.0], [4.0, 2.0]]], np.float32)"],
     "(ms.ops.matmul(ms.ops.inverse((ms.ops.tril(b, -1) + ms.ops.eye(2, 2, ms.float32)).swapaxes(-1, -2)), a), b)"),
    ("Convolution", "G.Convolution()(a, b, c, 2, 1)", ["IMAGE", "KERNEL2D", "BIAS2"],
     "ms.ops.conv2d(a, b, c, 2, 'pad', 1)"),
    ("ConvTranspose2D", "G.ConvTranspose2D()(a, b, c, 2, 1, 1)", ["IMAGE", "KERNEL2D", "BIAS2"],
     "ms.ops.operations.Conv2DTranspose(2, 2, 'pad', 1, stride=2)(a, b, (1, 2, 7, 7)) + c.reshape(1, 2, 1, 1)"),
    ("ConvTranspose2D_dilated", "G.ConvTranspose2D()(a, b, None, 1, 0, 0, 1, 2)", ["IMAGE", "KERNEL2D"],
     "ms.ops.operations.Conv2DTranspose(2, 2, dilation=2)(a, b, (1, 2, 6, 6))"),
    ("Convolution_transposed", "G.Convolution()(a, b, None, 2, 0, 1, True, 1)", ["IMAGE", "KERNEL2D"],
     "ms.ops.operations.Conv2DTranspose(2, 2, stride=2)(a, b, (1, 2, 9, 9))"),
    ("ConvolutionStr", "G.ConvolutionStr()(a, b, None, 1, 'same')", ["VOLUME", "KERNEL3D"],
     "ms.ops.conv3d(a, b, None, 1, 'same')"),
    ("LinalgVectorNorm", "G.LinalgVectorNorm()(a, 3.0, 1)", ["X"], "ms.ops.vector_norm(a, 3.0, 1)"),
    ("LinalgVectorNorm_all", "G.LinalgVectorNorm()(a)", ["X"], "ms.ops.vector_norm(a)"),
    ("EqualExt", "G.EqualExt()(a, b)", ["X", "X"], "bool(ms.ops.equal(a, b).all())"),
    ("EqualExt_differ", "G.EqualExt()(a, b)", ["X", "Y"], "bool(ms.ops.equal(a, b).all())"),
    # in-place primitives: the value of the call (the updated first input) and of the first input after it
    ("InplaceAddExt", "(G.InplaceAddExt()(a, b, 2), a)", ["X", "Y"], "(lambda r: (r, r))(a + 2 * b)"),
    ("InplaceAddsExt", "(G.InplaceAddsExt()(a, 1.5), a)", ["X"], "(lambda r: (r, r))(a + 1.5)"),
    ("InplaceSubExt", "(G.InplaceSubExt()(a, b, 3), a)", ["INTS", "INT_DIVISORS"], "(lambda r: (r, r))(a - 3 * b)"),
    ("InplaceSubScalar", "(G.InplaceSubScalar()(a, 0.5), a)", ["X"], "(lambda r: (r, r))(a - 0.5)"),
    ("InplaceMul", "(G.InplaceMul()(a, b), a)", ["X", "Y"], "(lambda r: (r, r))(a * b)"),
    ("InplaceMuls", "(G.InplaceMuls()(a, 3), a)", ["INTS"], "(lambda r: (r, r))(a * 3)"),
    ("InplaceDiv", "(G.InplaceDiv()(a, b), a)", ["X", "Y"], "(lambda r: (r, r))(a / b)"),
    ("InplaceDivs", "(G.InplaceDivs()(a, 4.0), a)", ["X"], "(lambda r: (r, r))(a / 4.0)"),
    ("InplaceDivMod", "(G.InplaceDivMod()(a, b, 'floor'), a)", ["X", "Y"], "(lambda r: (r, r))(ms.ops.div(a, b, rounding_mode='floor'))"),
    ("InplaceDivMods", "(G.InplaceDivMods()(a, 2, 'trunc'), a)", ["X"], "(lambda r: (r, r))(ms.ops.div(a, 2.0, rounding_mode='trunc'))"),
    ("InplaceFloorDivide", "(G.InplaceFloorDivide()(a, b), a)", ["INTS", "INT_DIVISORS"], "(lambda r: (r, r))(ms.ops.floor_divide(a, b))"),
    ("InplaceFloorDivides", "(G.InplaceFloorDivides()(a, 2.0), a)", ["X"], "(lambda r: (r, r))(ms.ops.floor_divide(a, 2.0))"),
    ("InplaceAddmm", "(G.InplaceAddmm()(a, b, c, 0.5, 2), a)", ["SQUARE", "BATCH1[0]", "BATCH2[0]"],
     "(lambda r: (r, r))(ms.ops.addmm(a, b, c, beta=0.5, alpha=2))"),
    ("InplaceClampScalar", "(G.InplaceClampScalar()(a, 0, 2), a)", ["X"], "(lambda r: (r, r))(ms.ops.clamp(a, 0, 2))"),
    ("InplaceClampTensor", "(G.InplaceClampTensor()(a, b), a)", ["X", "Y"], "(lambda r: (r, r))(ms.ops.clamp(a, b))"),
    ("InplaceCopy", "(G.InplaceCopy()(a, b), a)", ["X", "ROW"], "(lambda r: (r, r))(ms.ops.broadcast_to(b, (2, 3)))"),
    ("InplaceFillScalar", "(G.InplaceFillScalar()(a, 2.5), a)", ["INTS"], "(lambda r: (r, r))(ms.ops.full_like(a, 2.5))"),
    ("InplaceFillTensor", "(G.InplaceFillTensor()(a, b[0, 1]), a)", ["X", "Y"], "(lambda r: (r, r))(ms.ops.full_like(a, 0.5))"),
    ("InplaceZero", "(G.InplaceZero()(a), a)", ["X"], "(lambda r: (r, r))(ms.ops.zeros_like(a))"),
    ("InplaceFillDiagonal", "(G.InplaceFillDiagonal()(a, 9.0), a)", ["SEQUENCE"], "(lambda r: (r, r))(ms.ops.operations.FillDiagonal(9.0)(a))"),
    ("InplaceFillDiagonal_wrap", "(G.InplaceFillDiagonal()(a, -1.0, True), a)", ["np.zeros((7, 3), np.float32)"],
     "(lambda r: (r, r))(ms.ops.operations.FillDiagonal(-1.0, True)(a))"),
    ("InplaceElu", "(G.InplaceElu()(a, 0.5), a)", ["X"], "(lambda r: (r, r))(ms.ops.where(a > 0, a, 0.5 * (ms.ops.exp(a) - 1)))"),
    ("InplaceErfinv", "(G.InplaceErfinv()(a), a)", ["UNIT"], "(lambda r: (r, r))(ms.ops.erfinv(a))"),
    ("InplaceExp", "(G.InplaceExp()(a), a)", ["X"], "(lambda r: (r, r))(ms.ops.exp(a))"),
    ("InplaceLog", "(G.InplaceLog()(a), a)", ["POSITIVE"], "(lambda r: (r, r))(ms.ops.log(a))"),
    ("InplaceFloor", "(G.InplaceFloor()(a), a)", ["Y"], "(lambda r: (r, r))(ms.ops.floor(a))"),
    ("InplaceTanh", "(G.InplaceTanh()(a), a)", ["UNIT"], "(lambda r: (r, r))(ms.ops.tanh(a))"),
    ("InplaceReLU", "(G.InplaceReLU()(a), a)", ["X"], "(lambda r: (r, r))(ms.ops.relu(a))"),
    ("InplaceHardtanh", "(G.InplaceHardtanh()(a, 0.0, 2.0), a)", ["X"],
     "(lambda r: (r, r))(ms.ops.hardtanh(a, 0.0, 2.0))"),
    ("InplaceThreshold", "(G.InplaceThreshold()(a, 1.0, 0.0), a)", ["X"],
     "(lambda r: (r, r))(ms.ops.threshold(a, 1.0, 0.0))"),
    ("InplaceIndexAddExt", "(G.InplaceIndexAddExt()(a, 0, b, c), a)", ["X", "INDEX[1:]", "ROW[None]"],
     "(lambda r: (r, r))(ms.ops.index_add(a, b.astype(ms.int32), c, 0))"),
    ("InplaceIndexPut", "(G.InplaceIndexPut()(a, [b, c], d), a)", ["X", "INDEX[1:]", "INDEX", "ROW[:2]"],
     "(lambda r: (r, r))(ms.ops.tensor_scatter_update(a, ms.ops.stack([ms.ops.broadcast_to(b, (2,)), c], -1), d))"),
    ("InnerInplaceIndexPut", "(G.InnerInplaceIndexPut()(a, [b], c, True), a)", ["X", "np.array([1, 1])", "ROW"],
     "(lambda r: (r, r))(ms.ops.tensor_scatter_add(a, b.reshape(2, 1), ms.ops.stack([c, c])))"),
    ("InplacePut", "(G.InplacePut()(a, b, c), a)", ["X", "INDEX", "ROW[:2]"], "(lambda r: (r, r))(ms.ops.tensor_scatter_update(a.reshape(-1), b.reshape(2, 1), c).reshape(2, 3))"),
    ("InplaceMaskedFillScalar", "(G.InplaceMaskedFillScalar()(a, b, -1.0), a)", ["X", "MASK"],
     "(lambda r: (r, r))(ms.ops.masked_fill(a, b, ms.Tensor(-1.0)))"),
    ("InplaceMaskedFillTensor", "(G.InplaceMaskedFillTensor()(a, b, c), a)", ["X", "MASK", "ROW[0]"],
     "(lambda r: (r, r))(ms.ops.masked_fill(a, b, c))"),
    ("InplaceMaskedScatter", "(G.InplaceMaskedScatter()(a, b, c), a)", ["X", "MASK", "Y"],
     "(lambda r: (r, r))(ms.ops.operations.MaskedScatter()(a, b, c))"),
    ("InplaceScatterAdd", "(G.InplaceScatterAdd()(a, 1, b, c), a)", ["X", "SCATTER_INDEX", "Y"],
     "(lambda r: (r, r))(ms.ops.tensor_scatter_elements(a, b, c, 1, 'add'))"),
    ("InplaceScatterSrc", "(G.InplaceScatterSrc()(a, 0, b, c), a)", ["X", "ROWS_INDEX", "Y"],
     "(lambda r: (r, r))(ms.ops.tensor_scatter_elements(a, b, c, 0))"),
    ("InplaceScatterSrcReduce", "(G.InplaceScatterSrcReduce()(a, 1, b, c, 'add'), a)",
     ["X", "SCATTER_INDEX", "Y"], "(lambda r: (r, r))(ms.ops.tensor_scatter_elements(a, b, c, 1, 'add'))"),
    ("InplaceScatterValue", "(G.InplaceScatterValue()(a, 1, b, 4.0), a)", ["X", "SCATTER_INDEX"],
     "(lambda r: (r, r))(ms.ops.tensor_scatter_elements(a, b, ms.ops.full(b.shape, 4.0, dtype=ms.float32), 1))"),
    ("InplaceScatterValueReduce", "(G.InplaceScatterValueReduce()(a, 0, b, 2.0, 'add'), a)", ["X", "ROWS_INDEX"],
     "(lambda r: (r, r))(ms.ops.tensor_scatter_elements(a, b, ms.ops.full(b.shape, 2.0, dtype=ms.float32), 0, 'add'))"),
]


def arrays(inputs):
    """The NumPy arrays the input expressions ``inputs`` name (over this module's arrays and ``np``)."""
    return [np.asarray(eval(expression, {"np": np, **globals()})) for expression in inputs]
