"""Linear algebra of the linalg2 family (``ops.svd``/``Svd``, ``ops.eig``/``Eig``, ``ops.det``, ``ops.logdet``,
``ops.slogdet``/``LogMatrixDeterminant``, ``ops.cholesky``, ``ops.matrix_solve``, ``ops.nextafter``/``NextAfter``,
``ListDiff``): MindSpore 2.10 CPU's values and dtypes for the cases of ``tests/linalg2_cases.py`` (recorded by
``tools/observe_mindspore_linalg2.py``), eager and compiled where the API compiles, the refusal of the host-computed
ones under compilation and gradients, and gradients of the compositions against central differences in float64."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.ops import operations as P
from npspore.compiler.errors import NotSupportedError
from composition_checks import check_composition
from linalg2_cases import CASES, Const, build_call, tensor_of

nan = float("nan")  # as MindSpore prints it

# name: MindSpore 2.10 CPU's (dtype, values) for the case of that name, a list of them for a tuple result
RECORDED = {
    'svd_doc': [('Float32', [7.065284252166748, 1.0400810241699219]), ('Float32', [[0.3082190454006195, -0.4881948232650757, 0.8164969682693481], [-0.9061335325241089, 0.11070571839809418, 0.4082481265068054], [0.28969550132751465, 0.8656849265098572, 0.4082478880882263]]), ('Float32', [[0.6386359333992004, 0.7695090174674988], [0.7695090174674988, -0.6386359333992004]])],
    'svd_reduced': [('Float64', [[3.3694896306129154, 2.282332059362098], [4.238341619465681, 2.070376853788951]]), ('Float64', [[[-0.08164723211954206, 0.9966612912555687], [-0.9966612912555687, -0.08164723211954206]], [[-0.265422734605802, 0.9641321340741518], [-0.9641321340741518, -0.265422734605802]]]), ('Float64', [[[-0.12241016660376228, 0.8644275780942552], [-0.8994856260398013, 0.11102194714820735], [-0.4194536442323823, -0.49034588759519687]], [[-0.972538705226422, -0.047121278510487585], [0.12524839120413483, -0.9313590734070607], [0.19616652960505487, 0.3610399721552698]]])],
    'svd_values_only': ('Float64', [[3.3694896306129154, 2.282332059362098], [4.238341619465681, 2.070376853788951]]),
    'Svd_doc': [('Float32', [7.065284252166748, 1.0400810241699219]), ('Float32', [[0.3082190454006195, -0.4881948232650757, 0.8164969682693481], [-0.9061335325241089, 0.11070571839809418, 0.4082481265068054], [0.28969550132751465, 0.8656849265098572, 0.4082478880882263]]), ('Float32', [[0.6386359333992004, 0.7695090174674988], [0.7695090174674988, -0.6386359333992004]])],
    'Svd_no_uv': [('Float32', [7.065284252166748, 1.0400810241699219]), ('Float32', [0.0]), ('Float32', [0.0])],
    'eig_doc': [('Complex64', [(1+0j), (2+0j)]), ('Complex64', [[(1+0j), 0j], [0j, (1+0j)]])],
    'eig_complex_pair': [('Complex128', [1.9999999999999996j, -1.9999999999999996j]), ('Complex128', [[(0.7071067811865475+0j), -0.7071067811865475j], [-0.7071067811865475j, (0.7071067811865475+0j)]])],
    'Eig_doc': [('Complex64', [(1+0j), (2+0j)]), ('Complex64', [[(1+0j), 0j], [0j, (1+0j)]])],
    'Eig_values_only': [('Complex64', [(1+0j), (3+0j)]), ('Complex64', 0j)],
    'logdet_doc': ('Float32', [1.945910096168518, 0.693146824836731]),
    'logdet_negative': ('Float64', nan),
    'slogdet_doc': [('Float32', [-1.0, 1.0]), ('Float32', [2.8033604621887207, 3.044522285461426])],
    'slogdet_more': [('Float64', 1.0), ('Float64', 3.7977338590260183)],
    'det_doc': ('Float32', [-16.5, 21.0]),
    'det_more': ('Float64', 44.6),
    'LogMatrixDeterminant_doc': [('Float32', [-1.0, 1.0]), ('Float32', [2.8033604621887207, 3.044522285461426])],
    'LogMatrixDeterminant_more': [('Float64', 1.0), ('Float64', 3.7977338590260183)],
    'cholesky_doc': ('Float32', [[1.0, 0.0], [1.0, 1.0]]),
    'cholesky_upper': ('Float64', [[2.0, 1.0, 0.3], [0.0, 2.0, 0.35], [0.0, 0.0, 1.6695807857064]]),
    'matrix_solve_doc': ('Float32', [[0.14285707473754883], [1.571428656578064]]),
    'matrix_solve_adjoint': ('Float64', [[0.06053811659192824, -0.0986547085201794], [0.3695067264573991, 0.3237668161434978], [0.03139013452914799, -0.42152466367713004]]),
    'nextafter_doc': ('Float32', [1.0, 2.0]),
    'nextafter_float64': ('Float64', [5e-324, 1.0, -3.5000000000000004]),
    'NextAfter_doc': ('Float32', [0.0]),
    'ListDiff_doc': [('Int32', [2, 4, 6]), ('Int32', [1, 3, 5])],
    'ListDiff_int64_repeats': [('Float32', [3.0, 3.0, 2.0, 7.0]), ('Int64', [0, 2, 3, 4])],
    'CumulativeLogsumexp_doc': ('Float32', [1.0, 2.3132617473602295, 3.4076058864593506]),
    'CumulativeLogsumexp_exclusive': ('Float32', [-3.4028234663852886e+38, 1.0, 2.3132617473602295]),
    'CumulativeLogsumexp_reverse': ('Float32', [3.4076058864593506, 3.3132617473602295, 3.0]),
    'CumulativeLogsumexp_both': ('Float32', [3.3132617473602295, 3.0, -3.4028234663852886e+38]),
    'CumulativeLogsumexp_axis1_float64': ('Float64', [[30.000000000000014, 30.0, -1.7976931348623157e+308], [0.501929081345373, -1.0, -1.7976931348623157e+308]]),
    'NuclearNorm_doc_keepdim': ('Float32', [[[15.407588958740234], [21.711605072021484]]]),
    'NuclearNorm_doc': ('Float32', [15.407588958740234, 21.711605072021484]),
    'NuclearNorm_doc_dim01': ('Float32', [[[14.212674140930176, 15.81138801574707, 17.49285316467285]]]),
    'NuclearNorm_2d_default': ('Float64', 7.1234753829798),
    'LuUnpack_doc': [('Float32', [[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), ('Float32', [[[1.0, 0.0, 0.0], [-0.12870000302791595, 1.0, 0.0], [0.2583000063896179, 0.5238999724388123, 1.0]], [[1.0, 0.0, 0.0], [-0.6401000022888184, 1.0, 0.0], [0.1014999970793724, -0.536300003528595, 1.0]]]), ('Float32', [[[-0.3806000053882599, -0.487199991941452, 0.553600013256073], [0.0, 0.6507999897003174, -0.23960000276565552], [0.0, 0.0, 0.6901999711990356]], [[0.6705999970436096, -1.1782000064849854, 0.45739999413490295], [0.0, -0.4778999984264374, 0.6700999736785889], [0.0, 0.0, 0.6165000200271606]]])],
    'LuUnpack_wide': [('Float64', [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]), ('Float64', [[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [-0.25, 0.4, 1.0]]), ('Float64', [[2.0, 1.0, -1.0, 0.5], [0.0, 3.0, 2.0, 1.0], [0.0, 0.0, 1.5, 2.0]])],
    'LuUnpack_no_data': [('Float64', [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]), ('Float64', [[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [-0.25, 0.4, 1.0]]), ('Float64', [[2.0, 1.0, -1.0, 0.5], [0.0, 3.0, 2.0, 1.0], [0.0, 0.0, 1.5, 2.0]])],
    'LuUnpack_no_pivots': [('Float64', [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]), ('Float64', [[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [-0.25, 0.4, 1.0]]), ('Float64', [[2.0, 1.0, -1.0, 0.5], [0.0, 3.0, 2.0, 1.0], [0.0, 0.0, 1.5, 2.0]])],
    'MatrixDiagV3_doc': ('Float32', [[1.0, 8.0, 11.0], [4.0, 2.0, 9.0], [11.0, 5.0, 3.0]]),
    'MatrixDiagV3_one_diagonal_wide': ('Float64', [[[-1.0, 1.0, -1.0, -1.0], [-1.0, -1.0, 2.0, -1.0]], [[-1.0, 3.0, -1.0, -1.0], [-1.0, -1.0, 4.0, -1.0]]]),
    'matrix_diag_doc': ('Float32', [[1.0, 8.0, 11.0], [4.0, 2.0, 9.0], [11.0, 5.0, 3.0]]),
    'matrix_diag_default': ('Float32', [[[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]]),
    'MatrixDiagPartV3_doc': ('Float32', [[9.0, 9.0, 4.0], [9.0, 3.0, 8.0], [2.0, 7.0, 6.0]]),
    'MatrixDiagPartV3_left_right_batch': ('Float64', [[[1.0, 6.0, 11.0], [0.0, 5.0, 10.0], [-5.0, 4.0, 9.0], [-5.0, -5.0, 8.0]], [[13.0, 18.0, 23.0], [12.0, 17.0, 22.0], [-5.0, 16.0, 21.0], [-5.0, -5.0, 20.0]]]),
    'MatrixSetDiagV3_doc': ('Float32', [[1.0, 6.0, 9.0, 7.0], [4.0, 2.0, 5.0, 1.0], [7.0, 5.0, 3.0, 8.0]]),
    'MatrixSetDiagV3_main_diagonal': ('Float64', [[[5.0, 1.0], [1.0, 6.0], [1.0, 1.0]], [[7.0, 1.0], [1.0, 8.0], [1.0, 1.0]]]),
    'Lstsq_doc': ('Float32', [[17.000001907348633, 11.00000286102295], [-6.5, -4.500000953674316], [-3.5000016689300537, -2.500001907348633]]),
    'MatrixSolveLs_doc': ('Float32', [[1.3333333730697632], [-0.6666668057441711], [2.666666269302368], [-1.3333330154418945]]),
    'MatrixSolveLs_underdetermined_batch': ('Float64', [[[0.2857142857142857], [0.5714285714285714], [0.4285714285714286]], [[0.014285714285714287], [0.028571428571428574], [-0.17857142857142858]]]),
    'LuSolve_doc': ('Float32', [[1.9000000953674316], [-1.4000000953674316], [0.6000000238418579]]),
    'lu_solve_doc': ('Float32', [[1.9000000953674316], [-1.4000000953674316], [0.6000000238418579]]),
    'LuSolve_batch': ('Float32', [[[-0.3125, -0.375], [0.75, 0.5]], [[-0.4166666567325592, 0.9166666865348816], [0.1666666716337204, 0.8333333730697632]]]),
    'Lstsq_overdetermined': ('Float64', [[0.11811722912966252], [0.31438721136767317]]),
    'geqrf_doc': [('Float32', [[2.2360680103302, 1.7888543605804443], [-0.236067995429039, 1.3416407108306885]]), ('Float32', [1.8944270610809326, 0.0])],
    'Geqrf_tall_batch': [('Float64', [[[-3.2015621187164243, 2.8892145949392125], [0.7140201466107322, 3.72859746076058], [0.11900335776845537, -0.22637325745341846]], [[-2.29128784747792, -1.527525231651947], [0.11651513899116801, -2.7688746209726918], [0.23303027798233603, 0.7363179689943983]]]), ('Float64', [[1.3123475237772122, 1.902506344534889], [1.8728715609439694, 1.2968788037909733]])],
    'lu_unpack_doc': [('Float32', [[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), ('Float32', [[[1.0, 0.0, 0.0], [-0.12870000302791595, 1.0, 0.0], [0.2583000063896179, 0.5238999724388123, 1.0]], [[1.0, 0.0, 0.0], [-0.6401000022888184, 1.0, 0.0], [0.1014999970793724, -0.536300003528595, 1.0]]]), ('Float32', [[[-0.3806000053882599, -0.487199991941452, 0.553600013256073], [0.0, 0.6507999897003174, -0.23960000276565552], [0.0, 0.0, 0.6901999711990356]], [[0.6705999970436096, -1.1782000064849854, 0.45739999413490295], [0.0, -0.4778999984264374, 0.6700999736785889], [0.0, 0.0, 0.6165000200271606]]])],
    'matrix_band_part_doc': ('Float32', [[[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0]], [[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0]]]),
    'cholesky_solve_doc': ('Float32', [[5.8125, -2.625, 0.625], [-2.625, 1.25, -0.25], [0.625, -0.25, 0.25]]),
    'cholesky_inverse_doc': ('Float32', [[5.812499523162842, -2.624999761581421, 0.6249998211860657], [-2.624999761581421, 1.2499998807907104, -0.24999991059303284], [0.6249999403953552, -0.2499999850988388, 0.2499999850988388]]),
    'matrix_determinant_more': ('Float32', [-16.5, 21.0]),
    'log_matrix_determinant_more': [('Float32', [-1.0, 1.0]), ('Float32', [2.8033604621887207, 3.044522285461426])],
    'logcumsumexp_doc': ('Float32', [[9.0, 3.0, 4.0, 5.0], [9.018150329589844, 3.3132617473602295, 7.048587322235107, 5.31326150894165], [9.326562881469727, 3.4076058864593506, 7.065884113311768, 6.40760612487793]]),
    'matrix_set_diag_doc': ('Float32', [[1.0, 6.0, 9.0, 7.0], [4.0, 2.0, 5.0, 1.0], [7.0, 5.0, 3.0, 8.0]]),
    'matrix_diag_part_doc': ('Float32', [[9.0, 9.0, 4.0], [9.0, 3.0, 8.0], [2.0, 7.0, 6.0]]),
    'eigvals_doc': ('Complex64', [(1+0j), (2+0j)]),
    'orgqr_doc': ('Float32', [[-0.8944270610809326, 0.4472135901451111], [0.4472135901451111, 0.8944271802902222]]),
    'matrix_power_doc': ('Float32', [[[-1.0, 0.0], [-0.0, -1.0]], [[1.0, 0.0], [0.0, 1.0]]]),
    'lstsq_doc': ('Float32', [[17.000001907348633, 11.00000286102295], [-6.5, -4.500000953674316], [-3.5000016689300537, -2.500001907348633]]),
}

# MindSpore 2.10's CPU kernel of NextAfter rounds float32 through float64 and so returns its input unchanged
# ([1.0, 2.0] and [0.0] above); its docstring states the float32 result ``[1 + eps, 2 - eps]``, which npspore gives.
_EPS32 = float(np.finfo(np.float32).eps)
DOCUMENTED = {
    "nextafter_doc": ("Float32", [1.0 + _EPS32, 2.0 - _EPS32 / 2]),
    "NextAfter_doc": ("Float32", [float(np.float32(1e-45))]),
}
# MindSpore 2.10 has no CPU kernel of MatrixExp (RuntimeError): the values of its docstring, and the rotations
# exp([[0, -t], [t, 0]]) = [[cos t, -sin t], [sin t, cos t]] for t = 1 and t = 30
DOCUMENTED["matrix_exp_doc"] = DOCUMENTED["MatrixExp_doc"] = ("Float32", [[2.7182817, 5.436563], [0.0, 2.7182817]])
DOCUMENTED["matrix_exp_rotation_batch"] = ("Float64", [
    [[0.5403023058681398, -0.8414709848078965], [0.8414709848078965, 0.5403023058681398]],
    [[0.15425144988758405, 0.9880316240928618], [-0.9880316240928618, 0.15425144988758405]]])
EXPECTED = {**RECORDED, **DOCUMENTED}

# Singular vectors (each column's sign) and eigenvectors (each column's unit complex factor) are determined only up
# to that factor; these cases compare them after aligning each column's factor to MindSpore's.
_VECTOR_OUTPUTS = {"svd_doc": (1, 2), "svd_reduced": (1, 2), "Svd_doc": (1, 2), "eig_doc": (1,),
                   "eig_complex_pair": (1,), "Eig_doc": (1,)}


def _aligned(got, expected):
    """``got``'s columns each multiplied by the unit factor that best aligns it with ``expected``'s column."""
    inner = np.sum(np.conj(got) * expected, axis=-2, keepdims=True)
    factor = np.where(np.abs(inner) > 0, inner / np.where(np.abs(inner) > 0, np.abs(inner), 1), 1)
    return got * factor


def _check(out, expected, vector_outputs=()):
    if isinstance(expected, list):
        assert len(out) == len(expected)
        for index, (part, part_expected) in enumerate(zip(out, expected)):
            _check(part, part_expected, () if index not in vector_outputs else (index,))
        return
    dtype, values = expected
    assert isinstance(out, Tensor) and str(out.dtype) == dtype
    values = np.asarray(values)
    got = out.asnumpy()
    assert got.shape == values.shape
    if vector_outputs:
        got = _aligned(got, values)
    np.testing.assert_allclose(got, values, rtol=2e-6, atol=2e-6, equal_nan=True)


# Eigenvalues come in the order of the algorithm (LAPACK's in npspore, Eigen's in MindSpore): these cases compare
# them (and their eigenvectors) after putting npspore's in the order of MindSpore's
_EIGEN_CASES = {"eig_doc", "eig_complex_pair", "Eig_doc", "Eig_values_only"}


def _in_recorded_order(out, expected):
    values = out[0].asnumpy()
    order = [int(np.argmin(np.abs(values - v))) for v in np.asarray(expected[0][1])]
    assert sorted(order) == list(range(len(values)))
    vectors = out[1].asnumpy()
    return [Tensor(values[order]), Tensor(vectors[..., order] if vectors.ndim else vectors)]


def _inputs(name):
    return [tensor_of(value, ms) for value in CASES[name][4]]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_values_and_dtypes_match_mindspore(name):
    out = build_call(CASES[name], ms)(*_inputs(name))
    if name in _EIGEN_CASES:
        out = _in_recorded_order(out, EXPECTED[name])
    _check(out, EXPECTED[name], _VECTOR_OUTPUTS.get(name, ()))


def _is_constant(value):
    return isinstance(value, Const)


class _Applied(nn.Cell):
    """The case's API applied to its inputs."""

    def __init__(self, case):
        super().__init__()
        self.call = build_call(case, ms)

    def construct(self, *inputs):
        return self.call(*inputs)


@pytest.mark.parametrize("name", sorted(name for name in EXPECTED if CASES[name][1] != "ListDiff"))
def test_compiled_matches_mindspore(name):
    net = _Applied(CASES[name])
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = net(*[value.value.tolist() if _is_constant(value) else tensor_of(value, ms) for value in CASES[name][4]])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    if name in _EIGEN_CASES:
        out = _in_recorded_order(out, EXPECTED[name])
    _check(out, EXPECTED[name], _VECTOR_OUTPUTS.get(name, ()))


def test_list_diff_refuses_compilation_its_output_shape_depending_on_the_values():
    with pytest.raises(NotSupportedError, match="'ListDiff' \\(its output's shape depends on the values"):
        ms.jit(lambda x, y: P.ListDiff()(x, y))(Tensor(np.array([1, 2, 3])), Tensor(np.array([2])))


def _singular_values_sum(x):
    return ops.svd(x, compute_uv=False).sum()


@pytest.mark.parametrize("function", [_singular_values_sum, lambda x: ops.eig(x)[1].sum(),
                                      lambda x: ops.nextafter(x, x + 1.0).sum(),
                                      lambda x: ops.matrix_exp(x).sum(),
                                      lambda x: P.NuclearNorm()(x)])
def test_host_computed_apis_refuse_a_gradient_rather_than_give_a_wrong_one(function):
    with pytest.raises(RuntimeError, match="the gradient is not implemented in npspore"):
        ms.grad(function)(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]])))


def _determinants(a, b):
    square = ops.matmul(a, b.T) + Tensor(np.array([[1.5, 0.2], [0.1, 2.0]]))   # (2, 2), determinant > 0
    sign, logabs = ops.slogdet(square)
    sign2, logabs2 = P.LogMatrixDeterminant()(square)
    return (ops.logdet(square) + sign * logabs + sign2 * logabs2 + ops.det(square)
            + ops.matrix_solve(square, a).sum() + ops.cholesky(ops.matmul(square, square.T)).sum())


def test_determinant_compositions_gradients_against_central_differences():
    check_composition(_determinants, orders=(1, 2))


def _bands_cumulative_and_unpacked(a, b):
    band = (P.MatrixDiagPartV3()(a, Tensor(np.array([-1, 1], np.int32)), Tensor(np.array(0.5))).T
            + ops.matrix_diag(b[:, :2], 1, 2, 3, 0.25)[0])
    band = P.MatrixSetDiagV3(align="LEFT_RIGHT")(a * b, band[0, :2], Tensor(np.array(0, np.int32))) * band[1, 2]
    logsumexp = P.CumulativeLogsumexp(True, True)(a * b, 1)[:, :2] + P.CumulativeLogsumexp()(a - b, 0)[:, 1:]
    permutation, lower, upper = P.LuUnpack()(ops.matmul(a, b.T), Tensor(np.array([2, 2], np.int32)))
    return band.sum() + logsumexp.sum() * a[0, 1] + (ops.matmul(permutation, ops.matmul(lower, upper)) * a[:, :2]).sum()


def test_bands_cumulative_logsumexp_and_lu_unpack_gradients_against_central_differences():
    check_composition(_bands_cumulative_and_unpacked, orders=(1, 2))


def _least_squares_and_lu(a, b):
    tall = ops.concat((a.T, b.T), 1)                                                    # (3, 4)
    solved = P.Lstsq()(tall[:, :2], b.T) + P.MatrixSolveLs()(tall[:2, :], a[:, :1], Tensor(np.array(0.3)))[:2]
    lu = ops.matmul(a, b.T) + Tensor(np.array([[2.0, 0.0], [0.0, 2.0]]))
    y, tau = P.Geqrf()(tall)
    return solved.sum() + y.sum() * tau.sum() + (P.LuSolve()(b, lu, Tensor(np.array([2, 2], np.int32))) * a).sum()


def test_least_squares_geqrf_and_lu_solve_gradients_against_central_differences():
    check_composition(_least_squares_and_lu, orders=(1, 2))


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="'input' must be a batch of square matrices"):
        ops.logdet(Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(TypeError, match="'full_matrices'"):
        ops.svd(Tensor(np.ones((2, 2), np.float32)), full_matrices=1)
    with pytest.raises(ValueError, match="'x' must be 1-D"):
        P.ListDiff()(Tensor(np.ones((2, 2), np.int32)), Tensor(np.ones((2,), np.int32)))
    with pytest.raises(TypeError, match="'out_idx'"):
        P.ListDiff(ms.float32)
    with pytest.raises(TypeError, match="'input' and 'other'"):
        ops.nextafter(Tensor(np.ones((2,), np.float32)), Tensor(np.ones((2,), np.float64)))
    with pytest.raises(ValueError, match="'dim' must name two different dims"):
        P.NuclearNorm(dim=[1, 1])(Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(ValueError, match="'LU_pivots' must be in \\[1, 2\\]"):
        P.LuUnpack()(Tensor(np.ones((2, 2), np.float32)), Tensor(np.array([3, 2], np.int32)))
    with pytest.raises(ValueError, match="'axis' must be in \\[-1, 1\\)"):
        P.CumulativeLogsumexp()(Tensor(np.ones((2,), np.float32)), Tensor(1))
    with pytest.raises(TypeError, match="'l2_regularizer' should be 0.0"):
        P.Lstsq(l2_regularizer=0.5)(Tensor(np.ones((2, 2))), Tensor(np.ones((2, 1))))
    with pytest.raises(ValueError, match="'LU_data' must be \\(\\*, M, M\\)"):
        P.LuSolve()(Tensor(np.ones((2, 1))), Tensor(np.ones((2, 3))), Tensor(np.array([1, 2], np.int32)))
    with pytest.raises(ValueError, match="'A' must be a batch of square matrices"):
        ops.eig(Tensor(np.ones((2, 3), np.float32)))


# ops.qr / gen_ops_prim.LinalgQr: MindSpore 2.10 CPU's ops.qr (LinalgQr has no CPU kernel in 2.10 and is documented
# as ops.linalg_qr, the same decomposition).
_QR_A = np.array([[20., -31, 7], [4, 270, -90], [-8, 17, -32]], np.float32)
_QR_B = np.array([[1., 2], [3, 4], [5, 6]], np.float32)
_QR_CASES = {
    "reduced_docstring": (_QR_A, "reduced",
                          [[-0.9128710031509399, 0.16366125643253326, 0.37400758266448975],
                           [-0.18257418274879456, -0.9830709099769592, -0.015443757176399231],
                           [0.3651483654975891, -0.08238228410482407, 0.927297055721283]],
                          [[-21.908903121948242, -14.788505554199219, -1.643167495727539],
                           [0.0, -271.9031066894531, 92.25823974609375], [0.0, 0.0, -25.66551399230957]]),
    "complete_tall": (_QR_B, "complete",
                      [[-0.1690307855606079, 0.8970850110054016, 0.4082489311695099],
                       [-0.5070924758911133, 0.2760266959667206, -0.8164964318275452],
                       [-0.8451542258262634, -0.34503304958343506, 0.40824803709983826]],
                      [[-5.916079998016357, -7.437356948852539], [0.0, 0.8280784487724304], [0.0, 0.0]]),
}


@pytest.mark.parametrize("name", sorted(_QR_CASES))
@pytest.mark.parametrize("spelling", ["ops.qr", "LinalgQr"])
def test_qr_is_mindspores(name, spelling):
    from npspore.ops.auto_generate import gen_ops_prim
    x, mode, q_expected, r_expected = _QR_CASES[name]
    call = ops.qr if spelling == "ops.qr" else gen_ops_prim.LinalgQr()
    q, r = call(Tensor(x), mode)
    np.testing.assert_allclose(q.asnumpy(), q_expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(r.asnumpy(), r_expected, rtol=1e-5, atol=1e-4)


def test_qr_mode_error_is_mindspores():
    with pytest.raises(TypeError, match="For qr, the arg mode must be 'reduced' or 'complete', but got r."):
        ops.qr(Tensor(_QR_A), mode="r")
