"""The cases of tests/test_linalg2.py, as data both MindSpore 2.10 (``tools/observe_mindspore_linalg2.py``) and
npspore run: ``name: (namespace, API, constructor args, constructor kwargs, inputs, call kwargs)``, the namespace
``'ops'`` (a functional op called with the inputs and call kwargs) or ``'P'`` (a class of ``ops.operations``
constructed with the constructor arguments, then called with the inputs). An input is a NumPy array (a Tensor) or
a :class:`Const` (a Tensor too; compiled npspore code takes it as a constant Python value).
Each API has its MindSpore docstring example (``_doc``) and one more case."""
import numpy as np


class Const:
    """An input Tensor holding ``value``, which npspore's compiled code takes as the Python value (an axis, ``k``,
    a size: it fixes shapes)."""

    def __init__(self, value):
        self.value = np.asarray(value, np.int32)


def tensor_of(value, framework):
    """The case input ``value`` as ``framework``'s Tensor (a Python int stays one)."""
    if isinstance(value, int):
        return value
    return framework.Tensor(value.value if isinstance(value, Const) else value)


def f32(values):
    return np.array(values, np.float32)


def f64(values):
    return np.array(values, np.float64)


def i32(values):
    return np.array(values, np.int32)


SVD_DOC = f32([[1, 2], [-4, -5], [2, 1]])
SVD_MORE = f64([[[2.0, 0.5, -1.0], [0.25, 3.0, 1.5]], [[1.0, -2.0, 0.5], [4.0, 0.0, -1.0]]])
DET_DOC = f32([[[-4.5, -1.5], [7.0, 6.0]], [[2.5, 0.5], [3.0, 9.0]]])
LU_DOC = f32([[[-0.3806, -0.4872, 0.5536], [-0.1287, 0.6508, -0.2396], [0.2583, 0.5239, 0.6902]],
              [[0.6706, -1.1782, 0.4574], [-0.6401, -0.4779, 0.6701], [0.1015, -0.5363, 0.6165]]])
LU_WIDE = f64([[2.0, 1.0, -1.0, 0.5], [0.5, 3.0, 2.0, 1.0], [-0.25, 0.4, 1.5, 2.0]])
NUCLEAR_DOC = f32([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]])
SPD = f64([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]])

CASES = {
    "svd_doc": ("ops", "svd", (), {}, (SVD_DOC,), {"full_matrices": True, "compute_uv": True}),
    "svd_reduced": ("ops", "svd", (), {}, (SVD_MORE,), {}),
    "svd_values_only": ("ops", "svd", (), {}, (SVD_MORE,), {"compute_uv": False}),
    "Svd_doc": ("P", "Svd", (), {"full_matrices": True, "compute_uv": True}, (SVD_DOC,), {}),
    "Svd_no_uv": ("P", "Svd", (), {"compute_uv": False}, (SVD_DOC,), {}),
    "eig_doc": ("ops", "eig", (), {}, (f32([[1.0, 0.0], [0.0, 2.0]]),), {}),
    "eig_complex_pair": ("ops", "eig", (), {}, (f64([[0.0, -2.0], [2.0, 0.0]]),), {}),
    "Eig_doc": ("P", "Eig", (True,), {}, (f32([[1.0, 0.0], [0.0, 2.0]]),), {}),
    "Eig_values_only": ("P", "Eig", (), {}, (f32([[2.0, 1.0], [1.0, 2.0]]),), {}),
    "logdet_doc": ("ops", "logdet", (), {}, (f32([[[8., 9.], [1., 2.]], [[5., 6.], [3., 4.]]]),), {}),
    "logdet_negative": ("ops", "logdet", (), {}, (f64([[1.0, 2.0], [3.0, 4.0]]),), {}),
    "slogdet_doc": ("ops", "slogdet", (), {}, (DET_DOC,), {}),
    "slogdet_more": ("ops", "slogdet", (), {}, (SPD,), {}),
    "det_doc": ("ops", "det", (), {}, (DET_DOC,), {}),
    "det_more": ("ops", "det", (), {}, (SPD,), {}),
    "LogMatrixDeterminant_doc": ("P", "LogMatrixDeterminant", (), {}, (DET_DOC,), {}),
    "LogMatrixDeterminant_more": ("P", "LogMatrixDeterminant", (), {}, (SPD,), {}),
    "cholesky_doc": ("ops", "cholesky", (), {}, (f32([[1.0, 1.0], [1.0, 2.0]]),), {"upper": False}),
    "cholesky_upper": ("ops", "cholesky", (), {}, (SPD,), {"upper": True}),
    "matrix_solve_doc": ("ops", "matrix_solve", (), {}, (f32([[5., 4.], [3., 1.]]), f32([[7.], [2.]])), {}),
    "matrix_solve_adjoint": ("ops", "matrix_solve", (), {}, (SPD, f64([[1.0, 0.0], [2.0, 1.0], [0.5, -1.0]])),
                             {"adjoint": True}),
    "nextafter_doc": ("ops", "nextafter", (), {}, (f32([1.0, 2.0]), f32([2.0, 1.0])), {}),
    "nextafter_float64": ("ops", "nextafter", (), {}, (f64([0.0, 1.0, -3.5]), f64([1.0, 1.0, -4.0])), {}),
    "NextAfter_doc": ("P", "NextAfter", (), {}, (f32([0.0]), f32([0.1])), {}),
    "ListDiff_doc": ("P", "ListDiff", (), {}, (np.arange(1, 7, 1).astype(np.int32), i32([1, 3, 5])), {}),
    "ListDiff_int64_repeats": ("P", "ListDiff", (), {"out_idx": "int64"},
                               (f32([3.0, 1.0, 3.0, 2.0, 7.0]), f32([1.0, 9.0])), {}),
    "CumulativeLogsumexp_doc": ("P", "CumulativeLogsumexp", (), {"exclusive": False, "reverse": False},
                                (f32([1.0, 2.0, 3.0]), Const(0)), {}),
    "CumulativeLogsumexp_exclusive": ("P", "CumulativeLogsumexp", (), {"exclusive": True, "reverse": False},
                                      (f32([1.0, 2.0, 3.0]), Const(0)), {}),
    "CumulativeLogsumexp_reverse": ("P", "CumulativeLogsumexp", (), {"exclusive": False, "reverse": True},
                                    (f32([1.0, 2.0, 3.0]), Const(0)), {}),
    "CumulativeLogsumexp_both": ("P", "CumulativeLogsumexp", (), {"exclusive": True, "reverse": True},
                                 (f32([1.0, 2.0, 3.0]), Const(0)), {}),
    "CumulativeLogsumexp_axis1_float64": ("P", "CumulativeLogsumexp", (), {"exclusive": True, "reverse": True},
                                          (f64([[1.0, -2.0, 30.0], [0.5, 0.25, -1.0]]), Const(-1)), {}),
    "NuclearNorm_doc_keepdim": ("P", "NuclearNorm", (), {"dim": [0, 2], "keepdim": True}, (NUCLEAR_DOC,), {}),
    "NuclearNorm_doc": ("P", "NuclearNorm", (), {"dim": [0, 2], "keepdim": False}, (NUCLEAR_DOC,), {}),
    "NuclearNorm_doc_dim01": ("P", "NuclearNorm", (), {"dim": [0, 1], "keepdim": True}, (NUCLEAR_DOC,), {}),
    "NuclearNorm_2d_default": ("P", "NuclearNorm", (), {}, (f64([[1.0, 2.0], [3.0, -4.0], [0.5, 0.0]]),), {}),
    "LuUnpack_doc": ("P", "LuUnpack", (), {}, (LU_DOC, i32([[1, 3, 3], [2, 3, 3]])), {}),
    "LuUnpack_wide": ("P", "LuUnpack", (), {}, (LU_WIDE, i32([3, 3, 3])), {}),
    "lu_unpack_doc": ("ops", "lu_unpack", (), {}, (LU_DOC, i32([[1, 3, 3], [2, 3, 3]])), {}),
    "LuUnpack_no_data": ("P", "LuUnpack", (), {"unpack_data": False}, (LU_WIDE, i32([3, 3, 3])), {}),
    "LuUnpack_no_pivots": ("P", "LuUnpack", (), {"unpack_pivots": False}, (LU_WIDE, i32([3, 3, 3])), {}),
    "MatrixDiagV3_doc": ("P", "MatrixDiagV3", (), {"align": "LEFT_RIGHT"},
                         (f32([[8, 9, 0], [1, 2, 3], [0, 4, 5]]), Const([-1, 1]), Const(3), Const(3), f32(11)), {}),
    "MatrixDiagV3_one_diagonal_wide": ("P", "MatrixDiagV3", (), {},
                                       (f64([[1.0, 2.0], [3.0, 4.0]]), Const(1), Const(-1), Const(4), f64(-1.0)), {}),
    "matrix_diag_doc": ("ops", "matrix_diag", (), {"align": "LEFT_RIGHT"},
                        (f32([[8, 9, 0], [1, 2, 3], [0, 4, 5]]), Const([-1, 1]), Const(3), Const(3), f32(11)),
                        {"align": "LEFT_RIGHT"}),
    "matrix_diag_default": ("ops", "matrix_diag", (), {}, (f32([[1.0, 2.0, 3.0]]),), {}),
    "MatrixDiagPartV3_doc": ("P", "MatrixDiagPartV3", (), {"align": "RIGHT_LEFT"},
                             (f32([[1, 2, 3, 4], [5, 6, 7, 8], [9, 8, 7, 6]]), Const([1, 3]), f32(9)), {}),
    "MatrixDiagPartV3_left_right_batch": ("P", "MatrixDiagPartV3", (), {"align": "LEFT_RIGHT"},
                                          (f64(np.arange(24.0).reshape(2, 3, 4)), Const([-2, 1]), f64(-5.0)), {}),
    "MatrixSetDiagV3_doc": ("P", "MatrixSetDiagV3", (), {"align": "RIGHT_LEFT"},
                            (f32(np.full((3, 4), 7)), f32([[0, 9, 1], [6, 5, 8], [1, 2, 3], [4, 5, 0]]),
                             Const([-1, 2])),
                            {}),
    "MatrixSetDiagV3_main_diagonal": ("P", "MatrixSetDiagV3", (), {}, (f64(np.ones((2, 3, 2))), f64([[5.0, 6.0],
                                                                                                   [7.0, 8.0]]),
                                                                     Const(0)), {}),
    "Lstsq_doc": ("P", "Lstsq", (), {}, (f32([[2, 1, 5], [3, 5, 1], [1, 1, 1]]), f32([[10, 5], [15, 8], [7, 4]])), {}),
    "Lstsq_overdetermined": ("P", "Lstsq", (), {},
                             (f64([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0], [-1.0, 0.5]]),
                              f64([[1.0], [2.0], [2.5], [0.0]])),
                                {}),
    "MatrixSolveLs_doc": ("P", "MatrixSolveLs", (), {"fast": True},
                          (f32([[3, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1]]), f32([[4], [2], [4], [2]]),
                           f64(0.0)), {}),
    "MatrixSolveLs_underdetermined_batch": ("P", "MatrixSolveLs", (), {},
                                            (f64([[[1.0, 2.0, -1.0], [0.5, 1.0, 3.0]]] * 2) * f64([[[1.0]], [[2.0]]]),
                                             f64([[[1.0], [2.0]], [[0.5], [-1.0]]]), f64(0.0)), {}),
    "LuSolve_doc": ("P", "LuSolve", (), {}, (f32([[1], [3], [3]]), f32([[2, 1, 1], [0.5, 1, 1.5], [0.5, 0, 2.5]]),
                                            i32([2, 2, 3])), {}),
    "lu_solve_doc": ("ops", "lu_solve", (), {}, (f32([[1.], [3.], [3.]]),
                                                f32([[2., 1., 1.], [0.5, 1., 1.5], [0.5, 0., 2.5]]), i32([2, 2, 3])),
                     {}),
    "LuSolve_batch": ("P", "LuSolve", (), {}, (f32([[[1, 0], [2, 1]], [[0.5, 1], [1, -1]]]),
                                              f32([[[4, 3], [0.5, 2]], [[-2, 1], [0.25, 1.5]]]), i32([[1, 2], [2, 2]])),
                      {}),
    "geqrf_doc": ("ops", "geqrf", (), {}, (f32([[-2.0, -1.0], [1.0, 2.0]]),), {}),
    "Geqrf_tall_batch": ("P", "Geqrf", (), {}, (f64([[[1.0, 2.0], [3.0, -4.0], [0.5, 1.5]],
                                                   [[2.0, 0.0], [0.5, 1.0], [1.0, 3.0]]]),), {}),
    "matrix_band_part_doc": ("ops", "matrix_band_part", (), {}, (f32(np.ones((2, 4, 4))), 2, 1), {}),
    "cholesky_solve_doc": ("ops", "cholesky_solve", (), {}, (f32(np.eye(3)), f32([[2., 0., 0.], [4., 1., 0.],
                                                                                 [-1., 1., 2.]])), {"upper": False}),
    "cholesky_inverse_doc": ("ops", "cholesky_inverse", (), {}, (f32([[2, 0, 0], [4, 1, 0], [-1, 1, 2]]),), {}),
    "matrix_determinant_more": ("ops", "matrix_determinant", (), {}, (DET_DOC,), {}),
    "log_matrix_determinant_more": ("ops", "log_matrix_determinant", (), {}, (DET_DOC,), {}),
    "logcumsumexp_doc": ("ops", "logcumsumexp", (), {}, (f32([[9., 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]]), 0), {}),
    "matrix_set_diag_doc": ("ops", "matrix_set_diag", (), {}, (f32(np.full((3, 4), 7)),
                                                             f32([[0, 9, 1], [6, 5, 8], [1, 2, 3], [4, 5, 0]]),
                                                             Const([-1, 2])), {"align": "RIGHT_LEFT"}),
    "matrix_diag_part_doc": ("ops", "matrix_diag_part", (), {}, (f32([[1, 2, 3, 4], [5, 6, 7, 8], [9, 8, 7, 6]]),
                                                               Const([1, 3]), f32(9)), {"align": "RIGHT_LEFT"}),
    "eigvals_doc": ("ops", "eigvals", (), {}, (f32([[1.0, 0.0], [0.0, 2.0]]),), {}),
    "orgqr_doc": ("ops", "orgqr", (), {}, (f32([[2.236068, 1.7888544], [-0.236068, 1.3416407]]),
                                          f32([1.8944271, 0.0])), {}),
    "matrix_power_doc": ("ops", "matrix_power", (), {}, (f32([[[0, 1], [-1, 0]], [[1, 0], [0, -1]]]), 2), {}),
    "lstsq_doc": ("ops", "lstsq", (), {}, (f32([[2, 1, 5], [3, 5, 1], [1, 1, 1]]), f32([[10, 5], [15, 8], [7, 4]])),
                  {}),
    "matrix_exp_doc": ("ops", "matrix_exp", (), {}, (f32([[1, 2], [0, 1]]),), {}),
    "matrix_exp_rotation_batch": ("ops", "matrix_exp", (), {}, (f64([[[0.0, -1.0], [1.0, 0.0]],
                                                                    [[0.0, -30.0], [30.0, 0.0]]]),), {}),
    "MatrixExp_doc": ("P", "MatrixExp", (), {}, (f32([[1, 2], [0, 1]]),), {}),
}


def build_call(case, framework):
    """A function calling the case's API of ``framework`` (``mindspore`` or ``npspore``) on Tensors; a constructor
    argument naming a dtype (``'int64'``) is ``framework``'s dtype."""
    namespace, api, args, kwargs, _, call_kwargs = case

    def argument(value):
        return getattr(framework, value) if isinstance(value, str) and value.startswith(("int", "float")) else value

    if namespace == "ops":
        function = getattr(framework.ops, api)
        return lambda *inputs: function(*inputs, **call_kwargs)
    return getattr(framework.ops.operations, api)(*map(argument, args),
                                                  **{key: argument(value) for key, value in kwargs.items()})
