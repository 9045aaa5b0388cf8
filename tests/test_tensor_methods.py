"""Tensor methods that delegate to ops (``npspore.ops.tensor_methods``): eager, compiled and gradients.

Each case calls ``x.<method>(*args)`` eagerly and under ``ms.jit`` (Tensor arguments are passed to the
compiled function, the rest are constants) and compares both with NumPy; a differentiable subset checks
``ms.grad`` of ``x.<method>(*args).sum()`` against float64 central differences.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor
from npspore.ops import tensor_methods

from method_checks import check_method_gradient, method_call

A = np.array([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], np.float32)
P = np.array([[0.5, 1.25, 2.0], [1.5, 0.25, 0.75]], np.float32)     # positive
U = np.array([[0.5, -0.25, 0.75], [0.1, 0.25, -0.6]], np.float32)   # inside (-1, 1)
Q = P / 2.5                                                          # inside (0, 1)
B = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]], np.float32)
M = np.array([[True, False, True], [False, False, True]])
S = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)                  # square, invertible
V = np.array([1.0, -2.0, 0.5], np.float32)
I = np.array([[1, 0, 3], [-2, 0, 4]], np.int32)
t = Tensor

CASES = [
    # dtype conversions and layout
    ("float", I, (), I.astype(np.float32)),
    ("half", A, (), A.astype(np.float16)),
    ("double", A, (), A.astype(np.float64)),
    ("int", A, (), A.astype(np.int32)),
    ("long", A, (), A.astype(np.int64)),
    ("bool", I, (), I.astype(bool)),
    ("type_as", I, (t(A),), I.astype(np.float32)),
    ("copy", A, (), A),
    ("contiguous", A, (), A),
    ("unsqueeze", A, (1,), A[:, None]),
    ("permute", A, (1, 0), A.T),
    ("swapaxes", A, (0, 1), A.T),
    ("expand", V, (2, 3), np.broadcast_to(V, (2, 3))),
    ("expand_as", V, (t(A),), np.broadcast_to(V, (2, 3))),
    ("reshape_as", A, (t(A.T),), A.reshape(3, 2)),
    ("view_as", A, (t(A.T),), A.reshape(3, 2)),
    ("ravel", A, (), A.ravel()),
    ("tile", A, ((2, 1),), np.tile(A, (2, 1))),
    ("flip", A, ((1,),), A[:, ::-1]),
    ("fliplr", A, (), np.fliplr(A)),
    ("flipud", A, (), np.flipud(A)),
    ("roll", A, (1, 1), np.roll(A, 1, 1)),
    ("narrow", A, (1, 1, 2), A[:, 1:3]),
    ("split", A, (1, 1), tuple(np.split(A, 3, 1))),
    ("tensor_split", A, (3, 1), tuple(np.split(A, 3, 1))),
    ("chunk", A, (2, 0), (A[:1], A[1:])),
    ("unbind", A, (0,), (A[0], A[1])),
    ("tril", S, (), np.tril(S)),
    ("triu", A, (1,), np.triu(A, 1)),
    ("diag", V, (), np.diag(V)),
    ("repeat_interleave", V, (2, 0), np.repeat(V, 2)),
    # indexing and selection
    ("index_select", A, (1, t(np.array([2, 0], np.int32))), A[:, [2, 0]]),
    ("gather_elements", A, (1, t(np.array([[2, 0], [1, 1]], np.int32))), np.take_along_axis(
        A, np.array([[2, 0], [1, 1]]), 1)),
    ("masked_fill", A, (t(M), 9.0), np.where(M, 9.0, A).astype(np.float32)),
    ("masked_select", A, (t(M),), A[M]),
    ("where", A, (t(M), t(B)), np.where(M, A, B)),
    ("nonzero", I, (), np.argwhere(I)),
    # elementwise, one operand
    ("neg", A, (), -A),
    ("negative", A, (), -A),
    ("absolute", A, (), np.abs(A)),
    ("sign", A, (), np.sign(A)),
    ("floor", A, (), np.floor(A)),
    ("ceil", A, (), np.ceil(A)),
    ("trunc", A, (), np.trunc(A)),
    ("frac", A, (), A - np.trunc(A)),
    ("round", A, (), np.round(A)),
    ("reciprocal", A, (), 1 / A),
    ("rsqrt", P, (), 1 / np.sqrt(P)),
    ("log1p", P, (), np.log1p(P)),
    ("expm1", A, (), np.expm1(A)),
    ("log2", P, (), np.log2(P)),
    ("log10", P, (), np.log10(P)),
    ("sigmoid", A, (), 1 / (1 + np.exp(-A))),
    ("tan", U, (), np.tan(U)),
    ("sinh", A, (), np.sinh(A)),
    ("cosh", A, (), np.cosh(A)),
    ("asin", U, (), np.arcsin(U)),
    ("acos", U, (), np.arccos(U)),
    ("atan", A, (), np.arctan(A)),
    ("asinh", A, (), np.arcsinh(A)),
    ("acosh", P + 1, (), np.arccosh(P + 1)),
    ("atanh", U, (), np.arctanh(U)),
    ("erf", A, (), np.array([[0.5204999, -0.9229001, 0.9953223], [0.9661051, 0.2763264, -0.7111556]])),
    ("erfc", A, (), 1 - np.array([[0.5204999, -0.9229001, 0.9953223], [0.9661051, 0.2763264, -0.7111556]])),
    ("deg2rad", A, (), np.deg2rad(A)),
    ("rad2deg", A, (), np.rad2deg(A)),
    ("isnan", np.array([1.0, np.nan, np.inf], np.float32), (), np.array([False, True, False])),
    ("isinf", np.array([1.0, np.nan, -np.inf], np.float32), (), np.array([False, False, True])),
    ("isfinite", np.array([1.0, np.nan, np.inf], np.float32), (), np.array([True, False, False])),
    ("logical_not", M, (), ~M),
    ("inv", A, (), 1 / A),
    ("sinc", A, (), np.sinc(A)),
    ("logit", Q, (), np.log(Q / (1 - Q))),
    ("logit", Q, (0.25,), np.log(np.clip(Q, 0.25, 0.75) / (1 - np.clip(Q, 0.25, 0.75)))),
    ("nan_to_num", np.array([1.0, np.nan, np.inf, -np.inf], np.float32), (),
     np.nan_to_num(np.array([1.0, np.nan, np.inf, -np.inf], np.float32))),
    ("nan_to_num", np.array([1.0, np.nan, np.inf], np.float32), (2.0, 5.0), np.array([1.0, 2.0, 5.0])),
    ("clamp", A, (-1.0, 1.0), np.clip(A, -1, 1)),
    # elementwise, two or more operands
    ("add", A, (t(B),), A + B),
    ("sub", A, (t(B),), A - B),
    ("mul", A, (t(B),), A * B),
    ("div", A, (t(B),), A / B),
    ("true_divide", A, (t(B),), A / B),
    ("floor_divide", A, (t(B),), np.floor_divide(A, B)),
    ("remainder", A, (t(B),), np.remainder(A, B)),
    ("maximum", A, (t(B),), np.maximum(A, B)),
    ("minimum", A, (t(B),), np.minimum(A, B)),
    ("atan2", A, (t(B),), np.arctan2(A, B)),
    ("hypot", A, (t(B),), np.hypot(A, B)),
    ("logaddexp", A, (t(B),), np.logaddexp(A, B)),
    ("xlogy", A, (t(P),), A * np.log(P)),
    ("lerp", A, (t(B), 0.25), A + 0.25 * (B - A)),
    ("addcmul", A, (t(B), t(P), 0.5), A + 0.5 * B * P),
    ("addcdiv", A, (t(B), t(P)), A + B / P),
    ("eq", I, (t(np.zeros_like(I)),), I == 0),
    ("ne", I, (t(np.zeros_like(I)),), I != 0),
    ("gt", A, (t(B),), A > B),
    ("ge", A, (t(B),), A >= B),
    ("lt", A, (t(B),), A < B),
    ("le", A, (t(B),), A <= B),
    ("isclose", A, (t(A + 1e-9),), np.ones(A.shape, bool)),
    ("heaviside", np.array([-1.5, 0.0, 2.0], np.float32), (t(np.float32([0.5, 0.5, 0.5])),), [0.0, 0.5, 1.0]),
    ("bitwise_and", I, (t(np.full_like(I, 6)),), I & 6),
    ("bitwise_or", I, (t(np.full_like(I, 6)),), I | 6),
    ("bitwise_xor", I, (t(np.full_like(I, 6)),), I ^ 6),
    ("logical_and", M, (t(~M[::-1]),), M & ~M[::-1]),
    ("logical_or", M, (t(~M[::-1]),), M | ~M[::-1]),
    ("logical_xor", M, (t(~M[::-1]),), M ^ ~M[::-1]),
    # reductions and scans
    ("var", A, (), A.var()),
    ("var", A, (1, 1, True), A.var(1, ddof=1, keepdims=True)),
    ("std", A, (0,), A.std(0)),
    ("norm", A, (), np.linalg.norm(A)),
    ("logsumexp", A, (1,), np.log(np.exp(A).sum(1))),
    ("amax", A, (1,), A.max(1)),
    ("amin", A, (0, True), A.min(0, keepdims=True)),
    ("nansum", np.array([1.0, np.nan, 2.0], np.float32), (), np.float32(3.0)),
    ("median", np.array([[3.0, 1.0, 2.0], [0.5, 4.0, 5.0]], np.float32), (),
     (np.array([2.0, 4.0], np.float32), np.array([2, 1]))),
    ("cumsum", A, (1,), A.cumsum(1)),
    ("cumprod", A, (0,), A.cumprod(0)),
    ("cummax", A, (1,), (np.maximum.accumulate(A, 1), np.array([[0, 0, 2], [0, 0, 0]]))),
    ("cummin", A, (1,), (np.minimum.accumulate(A, 1), np.array([[0, 1, 1], [0, 1, 2]]))),
    ("diff", A, (), np.diff(A)),
    ("trace", S, (), np.trace(S)),
    # sorting
    ("sort", A, (), (np.sort(A), np.argsort(A))),
    ("sort", A, (0, True), (-np.sort(-A, 0), np.argsort(-A, 0))),
    ("argsort", A, (), np.argsort(A)),
    ("topk", A, (2,), (-np.sort(-A)[:, :2], np.argsort(-A)[:, :2])),
    # linear algebra and nn
    ("matmul", A, (t(B.T),), A @ B.T),
    ("bmm", A[None], (t(B.T[None]),), (A @ B.T)[None]),
    ("dot", V, (t(V),), V @ V),
    ("outer", V, (t(V),), np.outer(V, V)),
    ("inner", A, (t(B),), np.inner(A, B)),
    ("cross", A, (t(B),), np.cross(A, B)),
    ("det", S, (), np.linalg.det(S)),
    ("inverse", S, (), np.linalg.inv(S)),
    ("softmax", A, (1,), np.exp(A) / np.exp(A).sum(1, keepdims=True)),
]


def _assert_close(actual, expected):
    if isinstance(expected, tuple):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            _assert_close(a, e)
        return
    assert isinstance(actual, Tensor)
    e = np.asarray(expected)
    np.testing.assert_allclose(actual.asnumpy(), e, rtol=1e-5, atol=1e-6, equal_nan=False)
    if e.dtype.kind in "bf" and not (e.dtype == np.float64 and actual.dtype != ms.float64):
        assert actual.asnumpy().dtype.kind == e.dtype.kind


@pytest.mark.parametrize("name, x, args, expected", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_method_eager_and_compiled(name, x, args, expected):
    f, tensors = method_call(name, args)
    _assert_close(f(Tensor(x), *tensors), expected)
    _assert_close(ms.jit(f)(Tensor(x), *tensors), expected)


GRAD_CASES = ["var", "std", "norm", "logsumexp", "cumsum", "cumprod", "sigmoid", "expm1", "log1p", "rsqrt",
              "reciprocal", "sinh", "atan", "asinh", "erf", "clamp", "masked_fill", "where", "sub", "div",
              "hypot", "logaddexp", "lerp", "addcdiv", "amax", "diff", "matmul", "softmax", "permute", "tile",
              "narrow", "index_select", "gather_elements", "roll", "tril", "expand_as", "trace", "det", "inverse", "sinc", "logit", "cross"]


@pytest.mark.parametrize("name", GRAD_CASES)
def test_method_gradient(name):
    _, x, args, _ = next(c for c in CASES if c[0] == name)
    check_method_gradient(name, x, args)


def test_methods_are_attached_without_replacing_tensor_methods():
    assert len(tensor_methods.METHODS) >= 60
    for name, function in tensor_methods.METHODS.items():
        assert getattr(Tensor, name) is function
    assert isinstance(vars(Tensor)["size"], property)   # size stays a property, as in MindSpore 2.x
    x = Tensor(A)
    assert (x.numel(), x.dim()) == (6, 2)


@pytest.mark.parametrize("name, args, dtype", [   # MindSpore 2.10's index dtypes, observed
    ("sort", (), ms.int32), ("topk", (2,), ms.int32), ("cummax", (1,), ms.int64), ("cummin", (1,), ms.int32),
    ("median", (), ms.int64),
])
def test_index_dtypes_as_mindspore(name, args, dtype):
    assert getattr(Tensor(A), name)(*args)[1].dtype == dtype


def test_getattr_of_a_tensor_in_compiled_code_is_its_method():
    def f(x):
        return getattr(x, "cumsum")(1)
    np.testing.assert_array_equal(ms.jit(f)(Tensor(A)).asnumpy(), A.cumsum(1))


def test_cumsum_takes_axis_dim_and_no_dim_as_mindspore():
    # MindSpore 2.10: A.cumsum(axis=0) (d2l's linear-algebra notebook), A.cumsum(dim=1), A.cumsum() over the
    # flattened tensor, a positional dtype; eager and compiled
    a = np.arange(6, dtype=np.float32).reshape(2, 3)

    def spellings(x):
        return x.cumsum(axis=0), x.cumsum(dim=1), x.cumsum(), x.cumsum(1, ms.float64)

    for by_axis, by_dim, flat, wide in (spellings(Tensor(a)), ms.jit(spellings)(Tensor(a))):
        np.testing.assert_array_equal(by_axis.asnumpy(), [[0, 1, 2], [3, 5, 7]])
        np.testing.assert_array_equal(by_dim.asnumpy(), [[0, 1, 3], [3, 7, 12]])
        np.testing.assert_array_equal(flat.asnumpy(), [0, 1, 3, 6, 10, 15])
        assert wide.dtype == ms.float64 and wide.asnumpy().tolist() == [[0, 1, 3], [3, 7, 12]]
    with pytest.raises(TypeError, match="give 'dim' or 'axis', not both"):
        Tensor(a).cumsum(0, axis=1)
