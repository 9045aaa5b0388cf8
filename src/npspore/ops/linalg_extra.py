"""Linear algebra of ``mindspore.ops`` added by the linalg2 family: ``det``, ``logdet``, ``slogdet`` and
``LogMatrixDeterminant`` (compositions over the ``matrix_determinant`` op, so differentiable and compiled), the
functional spellings ``cholesky`` and ``matrix_solve`` of existing primitives, and the eager-only host
computations ``svd``/``Svd``, ``eig``/``Eig``, ``nextafter``/``NextAfter`` and ``ListDiff`` (NumPy's LAPACK
calls: npspore's op table has no decomposition with an adjoint, so a value of a compiled or differentiated
function reaching one raises npspore's ``NotSupportedError`` naming it rather than a wrong gradient).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from . import functional as F
from ..compiler.errors import NotSupportedError, located
from ..compiler.library import LIBRARY, check_not_traced
from . import cholesky_ops as _cholesky_ops
from . import matrix_extra as _matrix_extra
from . import array_layout as _array_layout
from . import matrix_band as _matrix_band
from .eager import run
from .numeric import _check_tensor

__all__ = ["qr", "det", "logdet", "slogdet", "cholesky", "matrix_solve", "svd", "eig", "nextafter", "lu_unpack", "lu_solve",
           "matrix_exp", "geqrf", "matrix_determinant", "log_matrix_determinant", "eigvals", "logcumsumexp",
           "lstsq", "cholesky_solve", "cholesky_inverse", "matrix_band_part", "matrix_diag_part", "matrix_set_diag",
           "orgqr", "ormqr", "matrix_power", "pinv"]

_FLOATS = (mstype.float32, mstype.float64)


def _square_matrices(name: str, argument: str, x: Tensor, dtypes: Any = _FLOATS) -> None:
    """Check that ``x`` is a Tensor of one of ``dtypes`` holding a batch of square matrices."""
    _check_tensor(name, argument, x)
    if x.dtype not in dtypes:
        raise TypeError(f"For '{name}', the dtype of '{argument}' must be one of "
                        f"{', '.join(str(d) for d in dtypes)}, but got {x.dtype}.")
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{name}', the '{argument}' must be a batch of square matrices (*, M, M), but got "
                         f"shape {x.shape}.")


def det(input: Tensor) -> Tensor:
    """The determinant of each square matrix of ``input`` (*, M, M) (``ops.det``)."""
    _square_matrices("det", "input", input)
    return run("matrix_determinant", input)


def logdet(input: Tensor) -> Tensor:
    """``log(det(input))`` of each square matrix: NaN where the determinant is negative, -inf where it is 0."""
    _square_matrices("logdet", "input", input)
    return run("log", run("matrix_determinant", input))


def slogdet(input: Tensor) -> tuple[Tensor, Tensor]:
    """The sign of the determinant of each square matrix of ``input`` and the log of its absolute value."""
    _square_matrices("slogdet", "input", input)
    determinant = run("matrix_determinant", input)
    return run("sign", determinant), run("log", run("abs", determinant))


def log_matrix_determinant(x: Tensor) -> tuple[Tensor, Tensor]:
    """``LogMatrixDeterminant()(x)``: ``(sign, log|det|)`` of each square matrix of ``x``."""
    _square_matrices("LogMatrixDeterminant", "x", x)
    return slogdet(x)


def cholesky(input_x: Tensor, upper: bool = False) -> Tensor:
    """``ops.cholesky``: the Cholesky factor of each symmetric positive-definite matrix (see
    :func:`cholesky_ops.cholesky`)."""
    check_value_type("upper", upper, [bool], "Cholesky")
    _square_matrices("Cholesky", "input_x", input_x)
    return _cholesky_ops.cholesky(input_x, upper)


def matrix_solve(matrix: Tensor, rhs: Tensor, adjoint: bool = False) -> Tensor:
    """``ops.matrix_solve``: ``X`` with ``matrix X = rhs`` (see :func:`matrix_extra.matrix_solve`)."""
    return _matrix_extra.matrix_solve(matrix, rhs, adjoint)


class _HostCall:
    """A NumPy computation on the host, called as ``call(results, constants, *tensors)``: ``forward(*arrays,
    *constants)`` gives the arrays of ``results`` (their ``(shape, NumPy dtype)``). Eagerly it runs at once; in
    compiled code it is a host call of the kernel (registered by :data:`_STAGE`), and a gradient reaching it raises
    npspore's ``RuntimeError`` naming ``name``."""

    def __init__(self, name: str, forward: Any, of_integers: bool = False) -> None:
        self.name, self.forward = name, forward
        # a function of integer inputs only is constant to a gradient; any other refuses one
        refusal = None if of_integers else (f"For '{name}', the gradient is not implemented in npspore (it is "
                                            f"computed by NumPy on the host, without an adjoint).")
        self.key = LIBRARY.host_function(
            lambda dtypes, *values: tuple(np.asarray(a, d) for a, d in zip(forward(*values), dtypes.split(","))),
            opaque=True, underivable=refusal)

    def __call__(self, results: tuple, constants: tuple, *tensors: Tensor) -> tuple:
        for tensor in tensors:
            check_not_traced(tensor, f"'{self.name}' (computed by NumPy on the host, without a gradient)")
        arrays = self.forward(*(t.asnumpy() for t in tensors), *constants)
        return tuple(Tensor(np.asarray(a, dtype).reshape(shape)) for a, (shape, dtype) in zip(arrays, results))


def _stage(call: _HostCall, specializer: Any, args: tuple, kwargs: dict, loc: Any) -> tuple:
    results, constants, *tensors = args
    dtypes = ",".join(np.dtype(dtype).name for _, dtype in results)
    return specializer.host_effect(call.key, (dtypes, *tensors, *constants), loc, results)


LIBRARY.register_stager(_HostCall, _stage)
_NUMPY_FLOATS = {mstype.float32: np.dtype(np.float32), mstype.float64: np.dtype(np.float64)}


def _svd_forward(x: np.ndarray, full_matrices: bool, compute_uv: bool) -> tuple:
    if not compute_uv:
        return (np.linalg.svd(x, compute_uv=False),)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s, u, np.swapaxes(vh, -1, -2)


def _eig_forward(x: np.ndarray) -> tuple:
    """The eigenvalues and eigenvectors, complex even where all are real (NumPy then gives real arrays)."""
    complex_dtype = np.result_type(x.dtype, np.complex64)
    return tuple(part.astype(complex_dtype) for part in np.linalg.eig(x))


_SVD = _HostCall("Svd", _svd_forward)
_EIG = _HostCall("Eig", _eig_forward)
_NEXTAFTER = _HostCall("NextAfter", lambda x, y: (np.nextafter(x, y),))


def svd(input: Tensor, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    """The singular values ``s`` (*, K) of each (M, N) matrix of ``input`` (K = min(M, N)), descending, and with
    ``compute_uv`` the singular vectors: ``(s, u, v)`` with ``input = u diag(s) v^T``, ``u`` (*, M, K) and ``v``
    (*, N, K) (``full_matrices``: (*, M, M) and (*, N, N)). Not differentiable in npspore.

    Raises:
        TypeError: if the flags are not bools or ``input`` not float32/float64. ValueError: if its rank is below 2.
    """
    name = "Svd"
    check_value_type("full_matrices", full_matrices, [bool], name)
    check_value_type("compute_uv", compute_uv, [bool], name)
    _check_tensor(name, "input", input)
    if input.dtype not in _FLOATS:
        raise TypeError(f"For '{name}', the dtype of 'input' must be float32 or float64, but got {input.dtype}.")
    if len(input.shape) < 2:
        raise ValueError(f"For '{name}', the rank of 'input' must be at least 2, but got {len(input.shape)}.")
    batch, (m, n) = tuple(input.shape[:-2]), tuple(input.shape[-2:])
    k = min(m, n)
    dtype = _NUMPY_FLOATS[input.dtype]
    if not compute_uv:
        return _SVD(((batch + (k,), dtype),), (full_matrices, compute_uv), input)[0]
    columns = (m, n) if full_matrices else (k, k)
    return _SVD(((batch + (k,), dtype), (batch + (m, columns[0]), dtype), (batch + (n, columns[1]), dtype)),
                (full_matrices, compute_uv), input)


def pinv(x: Tensor, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse (*, N, M) of each (M, N) matrix of ``x``, from its singular values as
    MindSpore computes it: those not above ``max(atol, rtol * largest)`` count as zero (default ``atol`` 0,
    ``rtol`` ``max(M, N) * eps`` of the dtype). A Hermitian ``x`` has the same pseudo-inverse from its
    singular values as from its eigenvalues. Not differentiable in npspore (see :func:`svd`).

    Raises:
        TypeError: if ``x`` is not a float32/float64 Tensor or ``hermitian`` not a bool. ValueError: if its
            rank is below 2.
    """
    if not isinstance(x, Tensor):
        raise TypeError("The input x must be tensor")
    if len(x.shape) < 2:
        raise ValueError(f"input x should have 2 or more dimensions, but got {len(x.shape)}.")
    if x.dtype not in _FLOATS:
        raise TypeError(f"For 'pinv', the type of 'x' should be float32 or float64, but got {x.dtype}.")
    check_value_type("hermitian", hermitian, [bool], "pinv")
    if atol is None:
        atol = 0.0
        if rtol is None:
            rtol = max(x.shape) * float(np.finfo(_NUMPY_FLOATS[x.dtype]).eps)
    elif rtol is None:
        rtol = 0.0
    s, u, v = svd(x)
    threshold = F.maximum(F.expand_dims(atol, -1) if isinstance(atol, Tensor) else atol,
                          (F.expand_dims(rtol, -1) if isinstance(rtol, Tensor) else rtol) * s[..., :1])
    kept = F.select(s > threshold, 1 / s, F.zeros_like(s))
    return F.matmul(v * F.expand_dims(kept, -2), F.swapaxes(u, -1, -2))


def svd_primitive(input: Tensor, full_matrices: bool = False, compute_uv: bool = True) -> tuple:
    """``Svd(full_matrices, compute_uv)(input)``: always ``(s, u, v)``; without ``compute_uv`` ``u`` and ``v``
    are each a one-element zero, as MindSpore 2.10's CPU kernel gives them."""
    if compute_uv:
        return svd(input, full_matrices, True)
    s = svd(input, full_matrices, False)
    return s, Tensor(np.zeros((1,), _NUMPY_FLOATS[input.dtype])), Tensor(np.zeros((1,), _NUMPY_FLOATS[input.dtype]))


_COMPLEX_OF = {mstype.float32: np.dtype(np.complex64), mstype.float64: np.dtype(np.complex128),
               mstype.complex64: np.dtype(np.complex64), mstype.complex128: np.dtype(np.complex128)}


def eig(A: Tensor) -> tuple[Tensor, Tensor]:
    """The eigenvalues (*, N) and unit eigenvectors (*, N, N) (the columns) of each square matrix of ``A``, both
    complex (complex64 for float32/complex64, complex128 for float64/complex128), in LAPACK's order. Not
    differentiable in npspore.

    Raises:
        TypeError: if ``A`` is not a float32/float64/complex Tensor. ValueError: if its matrices are not square.
    """
    _square_matrices("Eig", "A", A, tuple(_COMPLEX_OF))
    dtype = _COMPLEX_OF[A.dtype]
    return _EIG(((tuple(A.shape[:-1]), dtype), (tuple(A.shape), dtype)), (), A)


def eig_primitive(x: Tensor, compute_v: bool = False) -> tuple[Tensor, Tensor]:
    """``Eig(compute_v)(x)``: the eigenvalues and, with ``compute_v``, the eigenvectors (else a 0-D zero, as
    MindSpore 2.10's CPU kernel gives it)."""
    check_value_type("compute_v", compute_v, [bool], "Eig")
    values, vectors = eig(x)
    return (values, vectors) if compute_v else (values, Tensor(np.zeros((), _COMPLEX_OF[x.dtype])))


def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """The next float32/float64 value after each ``input`` towards ``other`` (broadcast), NumPy's ``nextafter``.
    Not differentiable in npspore.

    Raises:
        TypeError: if the inputs are not float32/float64 Tensors of one dtype.
    """
    name = "NextAfter"
    _check_tensor(name, "input", input)
    _check_tensor(name, "other", other)
    if input.dtype not in _FLOATS or other.dtype != input.dtype:
        raise TypeError(f"For '{name}', the 'input' and 'other' must be float32 or float64 Tensors of one dtype, "
                        f"but got {input.dtype} and {other.dtype}.")
    shape = tuple(np.broadcast_shapes(tuple(input.shape), tuple(other.shape)))
    return _NEXTAFTER(((shape, _NUMPY_FLOATS[input.dtype]),), (), input, other)[0]


def list_diff(x: Tensor, y: Tensor, out_idx: Any = mstype.int32) -> tuple[Tensor, Tensor]:
    """``ListDiff(out_idx)(x, y)``: the entries of the 1-D ``x`` not in ``y``, in order (repeats kept), and their
    positions in ``x`` as ``out_idx`` (int32 or int64).

    Raises:
        TypeError: if the dtypes differ or ``out_idx`` is neither int32 nor int64.
        ValueError: if ``x`` or ``y`` is not 1-D.
    """
    name = "ListDiff"
    if out_idx not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'out_idx' must be int32 or int64, but got {out_idx}.")
    for argument, value in (("x", x), ("y", y)):
        _check_tensor(name, argument, value)
        if len(value.shape) != 1:
            raise ValueError(f"For '{name}', the '{argument}' must be 1-D, but got shape {value.shape}.")
    if x.dtype != y.dtype:
        raise TypeError(f"For '{name}', the 'x' and 'y' must have one dtype, but got {x.dtype} and {y.dtype}.")
    return _LIST_DIFF(x, y, np.int32 if out_idx == mstype.int32 else np.int64)


class _EagerOnlyCall:
    """A NumPy computation whose output's shape depends on the input values: eager only (a compiled call raises
    npspore's ``NotSupportedError`` naming ``name``, registered by :data:`_refuse_compiled`)."""

    def __init__(self, name: str, forward: Any) -> None:
        self.name, self.forward = name, forward

    def __call__(self, *tensors_and_constants: Any) -> tuple:
        for value in tensors_and_constants:
            if isinstance(value, Tensor):
                check_not_traced(value, f"'{self.name}' (its output's shape depends on the values)")
        arrays = self.forward(*(v.asnumpy() if isinstance(v, Tensor) else v for v in tensors_and_constants))
        return tuple(Tensor(array) for array in arrays)


def _refuse_compiled(call: _EagerOnlyCall, specializer: Any, args: tuple, kwargs: dict, loc: Any) -> None:
    raise located(NotSupportedError(f"'{call.name}' (its output's shape depends on the values) runs eagerly only "
                                    f"in npspore, not in compiled code"), loc)


def _list_diff_forward(x: np.ndarray, y: np.ndarray, index_dtype: Any) -> tuple:
    kept = np.flatnonzero(~np.isin(x, y))
    return x[kept], kept.astype(index_dtype)


LIBRARY.register_stager(_EagerOnlyCall, _refuse_compiled)
_LIST_DIFF = _EagerOnlyCall("ListDiff", _list_diff_forward)


def cumulative_logsumexp(x: Tensor, axis: Any = 0, exclusive: bool = False, reverse: bool = False) -> Tensor:
    """``CumulativeLogsumexp(exclusive, reverse)(x, axis)``: ``log(cumsum(exp(x)))`` along ``axis`` (an int or a
    0-D int Tensor), from the end with ``reverse``, each entry left out of its own sum with ``exclusive`` (the
    empty sum then gives the dtype's lowest value), computed relative to the maximum so it does not overflow.

    Raises:
        TypeError: if ``x`` is not a float Tensor or the flags not bools. ValueError: if ``x`` is 0-D or ``axis``
        out of range.
    """
    name = "CumulativeLogsumexp"
    check_value_type("exclusive", exclusive, [bool], name)
    check_value_type("reverse", reverse, [bool], name)
    _check_tensor(name, "x", x)
    if x.dtype not in (mstype.float16,) + _FLOATS:
        raise TypeError(f"For '{name}', the dtype of 'x' must be float16, float32 or float64, but got {x.dtype}.")
    if isinstance(axis, Tensor):
        axis = axis.asnumpy().item()
    check_value_type("axis", axis, [int], name)
    rank = len(x.shape)
    if not -rank <= axis < rank:
        raise ValueError(f"For '{name}', the 'axis' must be in [{-rank}, {rank}), but got {axis}.")
    axis %= rank
    data = F.flip(x, (axis,)) if reverse else x
    peak = F.stop_gradient(F.reduce_max(data, axis, True))   # the shift cancels: no gradient through it
    out = run("add", run("log", F.cumsum(run("exp", run("sub", data, peak)), axis)), peak)
    if exclusive:
        lowest = float(np.finfo(np.dtype(_NUMPY_FLOATS.get(x.dtype, np.float16))).min)
        first = run("add", run("zeros_like", run("getitem", out, index=(slice(None),) * axis + (slice(0, 1),))),
                    lowest)
        out = F.concat((first, run("getitem", out, index=(slice(None),) * axis + (slice(0, -1),))), axis)
    return F.flip(out, (axis,)) if reverse else out


def nuclear_norm(x: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """``NuclearNorm(dim, keepdim)(x)``: the sum of the singular values of the matrices of the two dims ``dim``
    (None: the 2-D ``x`` itself). Not differentiable in npspore (the singular values come from :func:`svd`).

    Raises:
        TypeError: if ``dim`` is not a list/tuple of ints or None, or ``keepdim`` not a bool.
        ValueError: if ``dim`` does not name two different dims of ``x``, or ``dim`` is None and ``x`` not 2-D.
    """
    name = "NuclearNorm"
    check_value_type("keepdim", keepdim, [bool], name)
    _check_tensor(name, "x", x)
    rank = len(x.shape)
    if dim is None:
        if rank != 2:
            raise ValueError(f"For '{name}', the 'x' must be 2-D when 'dim' is not set, but got rank {rank}.")
        dim = (0, 1)
    check_value_type("dim", dim, [list, tuple], name)
    if len(dim) != 2 or any(not isinstance(d, int) or not -rank <= d < rank for d in dim) \
            or dim[0] % rank == dim[1] % rank:
        raise ValueError(f"For '{name}', the 'dim' must name two different dims in [{-rank}, {rank}), but got "
                         f"{dim}.")
    rows, columns = dim[0] % rank, dim[1] % rank
    others = tuple(d for d in range(rank) if d not in (rows, columns))
    norm = run("sum", svd(F.transpose(x, others + (rows, columns)), compute_uv=False), axis=(-1,))
    if keepdim:
        norm = run("reshape", norm, shape=tuple(1 if d in (rows, columns) else x.shape[d] for d in range(rank)))
    return norm


def _permutation_forward(pivots: np.ndarray, m: int) -> tuple:
    """The (*, m, m) permutation matrices ``P`` of LAPACK's 1-based row interchanges ``pivots`` (*, k):
    ``A = P L U``."""
    flat = pivots.reshape(-1, pivots.shape[-1])
    out = np.zeros((flat.shape[0], m, m))
    for batch, swaps in enumerate(flat):
        if np.any(swaps < 1) or np.any(swaps > m):
            raise ValueError(f"For 'LuUnpack', the 'LU_pivots' must be in [1, {m}], but got {swaps.tolist()}.")
        order = np.arange(m)
        for row, swap in enumerate(swaps):
            order[[row, swap - 1]] = order[[swap - 1, row]]
        out[batch, order, np.arange(m)] = 1.0
    return (out.reshape(pivots.shape[:-1] + (m, m)),)


_PERMUTATION = _HostCall("LuUnpack", _permutation_forward, of_integers=True)


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True, unpack_pivots: bool = True) -> tuple:
    """The permutation ``P`` (*, M, M), unit lower ``L`` (*, M, K) and upper ``U`` (*, K, N) (K = min(M, N)) of
    a packed LU factorization ``LU_data`` (*, M, N) with 1-based row interchanges ``LU_pivots`` (*, K):
    ``A = P L U``. As MindSpore 2.10's CPU kernel, all three are returned whatever the flags say; ``L`` and ``U``
    are differentiable in ``LU_data``.

    Raises:
        TypeError: if the flags are not bools or ``LU_pivots`` not an int Tensor.
        ValueError: if the shapes do not fit or a pivot is outside [1, M].
    """
    name = "LuUnpack"
    check_value_type("unpack_data", unpack_data, [bool], name)
    check_value_type("unpack_pivots", unpack_pivots, [bool], name)
    _check_tensor(name, "LU_data", LU_data)
    _check_tensor(name, "LU_pivots", LU_pivots)
    if LU_pivots.dtype not in (mstype.int8, mstype.uint8, mstype.int16, mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'LU_pivots' must be an int Tensor, but got {LU_pivots.dtype}.")
    if len(LU_data.shape) < 2:
        raise ValueError(f"For '{name}', the rank of 'LU_data' must be at least 2, but got {len(LU_data.shape)}.")
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    if tuple(LU_pivots.shape) != tuple(LU_data.shape[:-2]) + (k,):
        raise ValueError(f"For '{name}', the shape of 'LU_pivots' must be {tuple(LU_data.shape[:-2]) + (k,)}, but "
                         f"got {LU_pivots.shape}.")
    dtype = _NUMPY_FLOATS.get(LU_data.dtype, np.dtype(np.float32))
    (permutation,) = _PERMUTATION(((tuple(LU_data.shape[:-2]) + (m, m), dtype),), (m,), LU_pivots)
    permutation = run("cast", permutation, dtype=_np_dtype(LU_data.dtype))
    lower_part = run("getitem", LU_data, index=(Ellipsis, slice(None), slice(0, k)))
    strictly_lower = Tensor([[float(i > j) for j in range(k)] for i in range(m)], LU_data.dtype)
    identity = Tensor([[float(i == j) for j in range(k)] for i in range(m)], LU_data.dtype)
    lower = run("add", run("mul", lower_part, strictly_lower), identity)
    upper_part = run("getitem", LU_data, index=(Ellipsis, slice(0, k), slice(None)))
    upper = run("mul", upper_part, Tensor([[float(i <= j) for j in range(n)] for i in range(k)], LU_data.dtype))
    return permutation, lower, upper


def _transposed(x: Tensor) -> Tensor:
    rank = len(x.shape)
    return F.transpose(x, tuple(range(rank - 2)) + (rank - 1, rank - 2))


def _least_squares(name: str, matrix: Tensor, rhs: Tensor, l2_regularizer: Any) -> Tensor:
    """The ``X`` (*, N, K) minimising ``|matrix X - rhs|^2 + l2 |X|^2`` for ``matrix`` (*, M, N) and ``rhs``
    (*, M, K), by the normal equations (the minimum-norm solution when M < N), so differentiable."""
    for argument, value in (("matrix", matrix), ("rhs", rhs)):
        _check_tensor(name, argument, value)
        if value.dtype not in (mstype.float16,) + _FLOATS or value.dtype != matrix.dtype:
            raise TypeError(f"For '{name}', the '{argument}' must be a float16, float32 or float64 Tensor of the "
                            f"dtype of 'matrix', but got {value.dtype}.")
    if len(matrix.shape) < 2 or tuple(rhs.shape[:-1]) != tuple(matrix.shape[:-1]):
        raise ValueError(f"For '{name}', the 'matrix' must be (*, M, N) and 'rhs' (*, M, K), but got {matrix.shape} "
                         f"and {rhs.shape}.")
    m, n = matrix.shape[-2:]
    size = min(m, n)
    regularizer = run("mul", Tensor([[float(i == j) for j in range(size)] for i in range(size)], matrix.dtype),
                      l2_regularizer)
    transposed = _transposed(matrix)
    if m >= n:
        gram = run("add", run("matmul", transposed, matrix), regularizer)
        return run("matmul", run("matrix_inverse", gram), run("matmul", transposed, rhs))
    gram = run("add", run("matmul", matrix, transposed), regularizer)
    return run("matmul", transposed, run("matmul", run("matrix_inverse", gram), rhs))


def lstsq(x: Tensor, a: Tensor, fast: bool = True, l2_regularizer: float = 0.0) -> Tensor:
    """``Lstsq(fast, l2_regularizer)(x, a)``: the least-squares (minimum-norm when ``x`` is wide) solution ``X``
    of ``x X = a``. MindSpore 2.10 accepts only ``l2_regularizer=0.0``.

    Raises:
        TypeError: if ``fast`` is not a bool, ``l2_regularizer`` not 0.0 or the inputs not float Tensors of one dtype.
    """
    check_value_type("fast", fast, [bool], "Lstsq")
    check_value_type("l2_regularizer", l2_regularizer, [float], "Lstsq")
    if l2_regularizer != 0.0:
        raise TypeError(f"For 'Lstsq', the 'l2_regularizer' should be 0.0, but got '{l2_regularizer}'.")
    return _least_squares("Lstsq", x, a, 0.0)


def matrix_solve_ls(matrix: Tensor, rhs: Tensor, l2: Any, fast: bool = True) -> Tensor:
    """``MatrixSolveLs(fast)(matrix, rhs, l2)``: the ``X`` minimising ``|matrix X - rhs|^2 + l2 |X|^2`` (the
    minimum-norm solution of a wide ``matrix`` for ``l2 = 0``).

    Raises:
        TypeError: if ``fast`` is not a bool or the inputs not float Tensors of one dtype.
    """
    check_value_type("fast", fast, [bool], "MatrixSolveLs")
    l2 = run("cast", l2, dtype=_np_dtype(matrix.dtype)) if isinstance(l2, Tensor) else l2
    return _least_squares("MatrixSolveLs", matrix, rhs, l2)


def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """The solution ``X`` of ``A X = b`` for ``A = P L U`` given packed as ``LU_data`` (*, M, M) and its 1-based
    row interchanges ``LU_pivots`` (*, M) (see :func:`lu_unpack`); differentiable in ``b`` and ``LU_data``.

    Raises:
        ValueError: if ``LU_data`` is not square or the shapes do not fit.
    """
    _check_tensor("LuSolve", "b", b)
    _check_tensor("LuSolve", "LU_data", LU_data)
    if len(LU_data.shape) < 2 or LU_data.shape[-1] != LU_data.shape[-2] or b.shape[-2] != LU_data.shape[-1]:
        raise ValueError(f"For 'LuSolve', the 'LU_data' must be (*, M, M) and 'b' (*, M, K), but got "
                         f"{LU_data.shape} and {b.shape}.")
    permutation, lower, upper = lu_unpack(LU_data, LU_pivots)
    matrix = run("matmul", permutation, run("matmul", lower, upper))
    return run("matmul", run("matrix_inverse", matrix), b)


# Higham (2005)'s degree-13 Pade approximant of exp: its coefficients and the norm up to which it is exact in float64
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
           10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_PADE13_NORM = 5.371920351148152


def _matrix_exp_forward(x: np.ndarray) -> tuple:
    """``exp`` of each square matrix of ``x`` by scaling and squaring the degree-13 Pade approximant."""
    work = x.astype(np.result_type(x.dtype, np.float64))
    out = np.empty_like(work)
    flat, results = work.reshape((-1,) + work.shape[-2:]), out.reshape((-1,) + work.shape[-2:])
    identity = np.eye(work.shape[-1], dtype=work.dtype)
    for index, a in enumerate(flat):
        norm = np.abs(a).sum(axis=0).max() if a.size else 0.0
        squarings = max(0, int(np.ceil(np.log2(norm / _PADE13_NORM)))) if norm > _PADE13_NORM else 0
        a = a / 2.0 ** squarings
        a2 = a @ a
        a4 = a2 @ a2
        a6 = a4 @ a2
        b = _PADE13
        u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * identity)
        v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * identity
        result = np.linalg.solve(v - u, v + u)
        for _ in range(squarings):
            result = result @ result
        results[index] = result
    return (out,)


_MATRIX_EXP = _HostCall("MatrixExp", _matrix_exp_forward)
_EXP_DTYPES = {mstype.float16: np.dtype(np.float16), **_NUMPY_FLOATS, **{d: _COMPLEX_OF[d] for d in
                                                                        (mstype.complex64, mstype.complex128)}}


def matrix_exp(input: Tensor) -> Tensor:
    """The matrix exponential of each square matrix of ``input`` (*, n, n), computed in float64/complex128 by
    scaling and squaring the degree-13 Pade approximant (Higham 2005). Not differentiable in npspore.

    Raises:
        TypeError: if ``input`` is not a float or complex Tensor. ValueError: if its matrices are not square.
    """
    _square_matrices("MatrixExp", "input", input, tuple(_EXP_DTYPES))
    return _MATRIX_EXP(((tuple(input.shape), _EXP_DTYPES[input.dtype]),), (), input)[0]


def geqrf(input: Tensor) -> tuple[Tensor, Tensor]:
    """LAPACK's ``geqrf`` of each (m, n) matrix of ``input``: ``y`` holding ``R`` on and above the diagonal and
    the Householder vectors (their implicit leading 1 left out) below it, and ``tau`` (*, min(m, n)) their
    coefficients (the reflections of :func:`matrix_extra.qr`, so differentiable).

    Raises:
        TypeError: if ``input`` is not a float32/float64 Tensor. ValueError: if its rank is below 2.
    """
    name = "Geqrf"
    _check_tensor(name, "input", input)
    if input.dtype not in _FLOATS:
        raise TypeError(f"For '{name}', the dtype of 'input' must be float32 or float64, but got {input.dtype}.")
    if len(input.shape) < 2:
        raise ValueError(f"For '{name}', the rank of 'input' must be at least 2, but got {len(input.shape)}.")
    m, n = input.shape[-2:]
    _, r, reflectors = _matrix_extra._householder(input)
    columns = []
    for j in range(n):
        column = run("zeros_like", run("getitem", r, index=(Ellipsis, slice(None), slice(j, j + 1))))
        if j < len(reflectors):
            below = run("getitem", reflectors[j][0], index=(Ellipsis, slice(1, None), slice(None)))
            column = F.concat((run("getitem", column, index=(Ellipsis, slice(0, j + 1), slice(None))), below), -2)
        columns.append(column)
    upper = Tensor([[i <= j for j in range(n)] for i in range(m)], mstype.bool_)
    y = run("where", upper, r, F.concat(tuple(columns), -1))
    zero = run("zeros_like", run("getitem", r, index=(Ellipsis, 0, slice(0, 1))))          # (*, 1)
    taus = [run("getitem", tau, index=(Ellipsis, 0)) for _, tau in reflectors]            # each (*, 1)
    return y, F.concat(tuple(taus + [zero] * (min(m, n) - len(taus))), -1)


# The functional spellings of MindSpore 2.10 for primitives npspore has (ops.matrix_determinant ...)
matrix_power = _matrix_extra.matrix_power
orgqr = _matrix_extra.orgqr
ormqr = _matrix_extra.ormqr
cholesky_solve = _cholesky_ops.cholesky_solve
cholesky_inverse = _cholesky_ops.cholesky_inverse
matrix_band_part = _array_layout.matrix_band_part


def matrix_determinant(input: Tensor) -> Tensor:
    """``ops.matrix_determinant`` (deprecated in MindSpore for :func:`det`): :func:`det`."""
    return det(input)


def log_matrix_determinant(input: Tensor) -> tuple[Tensor, Tensor]:
    """``ops.log_matrix_determinant``: ``(sign, log|det|)`` as :func:`slogdet`."""
    return slogdet(input)


def eigvals(A: Tensor) -> Tensor:
    """The complex eigenvalues of each square matrix of ``A`` (see :func:`eig`)."""
    return eig(A)[0]


def logcumsumexp(input: Tensor, axis: int) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``axis`` (see :func:`cumulative_logsumexp`)."""
    return cumulative_logsumexp(input, axis)


def matrix_diag_part(x: Tensor, k: Any, padding_value: Any, align: str = "RIGHT_LEFT") -> Tensor:
    """The diagonals ``k`` of the matrices of ``x`` (see :func:`matrix_band.matrix_diag_part_v3`)."""
    return _matrix_band.matrix_diag_part_v3(x, k, padding_value, align)


def matrix_set_diag(x: Tensor, diagonal: Tensor, k: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """``x`` with its diagonals ``k`` set to ``diagonal`` (see :func:`matrix_band.matrix_set_diag_v3`)."""
    return _matrix_band.matrix_set_diag_v3(x, diagonal, k, align)


def qr(input: Tensor, mode: str = "reduced") -> tuple[Tensor, Tensor]:
    """``ops.qr`` (and ``gen_ops_prim.LinalgQr``): the QR decomposition of each matrix of ``input``, ``Q`` of
    (m, min(m, n)) columns with ``mode='reduced'``, (m, m) with ``'complete'``, and upper-triangular ``R``
    (LAPACK's signs, :func:`npspore.ops.matrix_extra.qr`).

    Raises:
        TypeError: if ``mode`` is neither 'reduced' nor 'complete' (MindSpore's message).
    """
    if mode not in ("reduced", "complete"):
        raise TypeError(f"For qr, the arg mode must be 'reduced' or 'complete', but got {mode}.")
    return _matrix_extra.qr(input, mode == "complete")
