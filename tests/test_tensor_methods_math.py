"""Tensor methods of ``npspore.ops.tensor_methods_math``: eager, compiled, gradients and errors.

Every expected value and dtype below was observed on MindSpore 2.10 CPU (``/work/msvenv``) calling the same
method on the same inputs, unless a comment says otherwise.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor
from npspore.ops import tensor_methods_math

from gradcheck import central_difference
from test_tensor_methods_tail import _assert_observed, _call

A = np.array([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], np.float32)
B = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]], np.float32)
S = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
P = np.array([[0.5, 1.25, 2.0], [1.5, 0.25, 0.75]], np.float32)
V = np.array([1.0, -2.0, 0.5], np.float32)
I = np.array([[1, 0, 3], [-2, 0, 4]], np.int32)
N = np.array([[1.0, np.nan, 2.0, -1.5], [np.nan, 3.0, 0.5, 4.0]], np.float32)
Z = np.array([-np.inf, np.inf, 1.0, -0.0], np.float32)
f32, i32, i64, b = np.float32, np.int32, np.int64, np.bool_
t = Tensor


def arr(values, dtype):
    return np.array(values, dtype)


CASES = [
    # elementwise
    ("signbit", A, (), {}, arr([[False, True, False], [False, False, True]], b)),
    ("copysign", A, (t(B),), {}, arr([[0.5, 1.25, -2.0], [1.5, -0.25, 0.75]], f32)),
    ("copysign", A, (-1.0,), {}, -np.abs(A)),
    ("copysign", I, (-1,), {}, arr([[-1.0, -0.0, -3.0], [-2.0, -0.0, -4.0]], f32)),
    ("copysign", A, (t(np.float32([-0.0, 0.0, -0.0])),), {}, np.abs(A)),   # -0.0 counts as positive there
    ("ldexp", A, (t(I),), {}, arr([[1.0, -1.25, 16.0], [0.375, 0.25, -12.0]], f32)),
    ("xdivy", A, (t(B),), {}, arr([[0.5, -0.625, -2.0], [3.0, -0.5, -0.25]], f32)),
    ("xdivy", arr([0, 0, 1], f32), (t(arr([0, 2, 0], f32)),), {}, arr([0.0, 0.0, np.inf], f32)),
    # Tensor.fmin raises on MindSpore 2.10 CPU (no Fmin kernel): the values of fmax's observed rule, min for max
    ("fmin", N[0], (t(arr([0.0, 1.0, np.nan, np.nan], f32)),), {}, arr([0.0, 1.0, 2.0, -1.5], f32)),
    ("isneginf", Z, (), {}, arr([True, False, False, False], b)),
    ("isposinf", Z, (), {}, arr([False, True, False, False], b)),
    ("isreal", A, (), {}, np.ones((2, 3), b)),
    ("invert", I, (), {}, arr([[-2, -1, -4], [1, -1, -5]], i32)),
    # Tensor.bitwise_not raises on MindSpore 2.10 CPU (no BitwiseNot kernel): Tensor.invert's values
    ("bitwise_not", I, (), {}, arr([[-2, -1, -4], [1, -1, -5]], i32)),
    ("bitwise_left_shift", I, (t(np.full_like(I, 2)),), {}, arr([[4, 0, 12], [-8, 0, 16]], i32)),
    ("bitwise_right_shift", I, (t(np.full_like(I, 1)),), {}, arr([[0, 0, 1], [-1, 0, 2]], i32)),
    ("bitwise_right_shift", I, (1,), {}, arr([[0, 0, 1], [-1, 0, 2]], i32)),
    ("gcd", I, (t(np.full_like(I, 6)),), {}, arr([[1, 6, 3], [2, 6, 2]], i32)),
    ("lcm", I, (t(np.full_like(I, 6)),), {}, arr([[6, 0, 6], [6, 0, 12]], i32)),
    ("soft_shrink", A, (), {}, arr([[0.0, -0.75, 1.5], [1.0, 0.0, -0.25]], f32)),
    ("soft_shrink", A, (1.0,), {}, arr([[0.0, -0.25, 1.0], [0.5, 0.0, 0.0]], f32)),
    ("approximate_equal", A, (t(A + 1e-6),), {}, np.ones((2, 3), b)),
    ("fill", A, (2.0,), {}, np.full((2, 3), 2.0, f32)),
    # reductions
    ("ptp", A, (), {}, arr(3.25, f32)),
    ("ptp", A, (1, True), {}, arr([[3.25], [2.25]], f32)),
    ("ptp", arr([[1, 5], [2, 0]], i32), (), {}, arr(5, i32)),
    ("argmax_with_value", A, (), {}, (arr([1.5, 0.25, 2.0], f32), arr([1, 1, 0], i64))),
    ("argmax_with_value", A, (1, True), {}, (arr([[2.0], [1.5]], f32), arr([[2], [0]], i64))),
    ("argmin_with_value", A, (1,), {}, (arr([-1.25, -0.75], f32), arr([1, 2], i64))),
    ("nanmedian", N, (), {}, (arr([1.0, 3.0], f32), arr([0, 1], i64))),
    ("nanmedian", N, (0, True), {}, (arr([[1.0, 3.0, 0.5, -1.5]], f32), arr([[0, 1, 1, 0]], i64))),
    ("nanmedian", arr([[np.nan, np.nan], [1, 2]], f32), (), {}, (arr([np.nan, 1.0], f32), arr([0, 0], i64))),
    ("top_k", A, (2,), {}, (arr([[2.0, 0.5], [1.5, 0.25]], f32), arr([[2, 0], [0, 1]], i32))),
    ("logcumsumexp", A, (1,), {}, arr([[0.5, 0.6602241396903992, 2.232621908187866],
                                       [1.5, 1.7519290447235107, 1.8306726217269897]], f32)),
    ("unsorted_segment_max", A, (t(np.array([1, 0], np.int32)), 3), {},
     arr([[1.5, 0.25, -0.75], [0.5, -1.25, 2.0], [-3.4028234663852886e+38] * 3], f32)),
    ("unsorted_segment_min", A, (t(np.array([1, 1], np.int32)), 2), {},
     arr([[3.4028234663852886e+38] * 3, [0.5, -1.25, -0.75]], f32)),
    ("unsorted_segment_prod", A, (t(np.array([1, 1], np.int32)), 2), {},
     arr([[1.0, 1.0, 1.0], [0.75, -0.3125, -1.5]], f32)),
    ("renorm", A, (2, 0, 1.0), {}, arr([[0.20739033818244934, -0.5184758305549622, 0.8295613527297974],
                                        [0.8846517205238342, 0.14744195342063904, -0.4423258602619171]], f32)),
    # linear algebra
    ("logdet", S, (), {}, arr(1.6094379425048828, f32)),
    ("logdet", arr([[0, 1], [1, 0]], f32), (), {}, arr(np.nan, f32)),
    ("slogdet", arr([[0, 1], [2, 0]], f32), (), {}, (arr(-1.0, f32), arr(0.6931471824645996, f32))),
    ("matrix_determinant", S, (), {}, arr(5.0, f32)),
    ("log_matrix_determinant", S, (), {}, (arr(1.0, f32), arr(1.6094379425048828, f32))),
    ("matrix_power", S, (3,), {}, arr([[15.0, 20.0], [20.0, 35.0]], f32)),
    ("matrix_power", S, (-1,), {}, arr([[0.6000000238418579, -0.20000001788139343],
                                        [-0.20000001788139343, 0.40000003576278687]], f32)),
    ("ger", V, (t(V[:2].copy()),), {}, arr([[1.0, -2.0], [-2.0, 4.0], [0.5, -1.0]], f32)),
    ("cov", A, (), {}, arr([[2.6458334922790527, -0.7395833730697632], [-0.7395833730697632, 1.2708332538604736]],
                           f32)),
    ("cov", A, (), {"correction": 0}, arr([[1.763888955116272, -0.4930555820465088],
                                           [-0.4930555820465088, 0.8472221493721008]], f32)),
    ("cov", arr([1, 2, 4], f32), (), {}, arr(2.3333334922790527, f32)),
    ("qr", S, (), {}, (
        arr([[-0.8944270610809326, -0.4472135901451111], [-0.4472135901451111, 0.8944271802902222]], f32),
        arr([[-2.2360680103302, -2.2360680103302], [0.0, 2.2360680103302]], f32))),
    ("cholesky", S, (), {}, arr([[1.4142135381698608, 0.0], [0.7071067690849304, 1.5811388492584229]], f32)),
    ("cholesky", S, (True,), {}, arr([[1.4142135381698608, 0.7071067690849304], [0.0, 1.5811388492584229]], f32)),
    ("cholesky_inverse", arr([[1.4142135, 0], [0.70710677, 1.5811388]], f32), (), {},
     arr([[0.6000000834465027, -0.20000001788139343], [-0.20000000298023224, 0.4000000059604645]], f32)),
    ("cholesky_solve", arr([[1.0], [2.0]], f32), (t(arr([[1.4142135, 0], [0.70710677, 1.5811388]], f32)),), {},
     arr([[0.20000000298023224], [0.5999999642372131]], f32)),
    ("lstsq", A.T.copy(), (t(arr([[1], [2], [3]], f32)),), {}, arr([[0.7209826707839966], [0.17949345707893372]], f32)),
    ("mvlgamma", P + 1, (2,), {}, arr([[0.4515827000141144, 0.6128355264663696, 1.5501949787139893],
                                       [0.8570477962493896, 0.677374005317688, 0.38969194889068604]], f32)),
]


@pytest.mark.parametrize("name, x, args, kwargs, expected", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_method_eager_and_compiled(name, x, args, kwargs, expected):
    f, tensors = _call(name, args, kwargs)
    _assert_observed(f(Tensor(x), *tensors), expected)
    _assert_observed(ms.jit(f)(Tensor(x), *tensors), expected)


@pytest.mark.parametrize("x, expected", [(A, True), (np.uint8([1]), False)])
def test_is_signed(x, expected):   # observed: a Python bool
    assert Tensor(x).is_signed() is expected


GRAD_CASES = [   # (name, x, args, kwargs): x.name(*args).sum() against central differences
    ("copysign", A, (t(B.astype(np.float64)),), {}), ("ldexp", A, (t(I),), {}),
    ("xdivy", A, (t(B.astype(np.float64)),), {}),
    ("ptp", A, (1,), {}), ("logcumsumexp", A, (1,), {}), ("soft_shrink", A * 1.1, (), {}), ("logdet", S, (), {}),
    ("matrix_power", S, (3,), {}), ("cov", A, (), {}), ("renorm", A, (2, 0, 1.0), {}),
    ("ger", V, (t(V[:2].astype(np.float64)),), {}), ("mvlgamma", P + 1, (2,), {}), ("cholesky", S, (), {}),
]


@pytest.mark.parametrize("name, x, args, kwargs", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_method_gradient(name, x, args, kwargs):
    f, tensors = _call(name, args, kwargs)

    def loss(x):
        return f(x, *tensors).sum()
    x64 = x.astype(np.float64)
    grad = ms.grad(loss)(Tensor(x64)).asnumpy()
    np.testing.assert_allclose(grad, central_difference(lambda v: loss(Tensor(v)).asnumpy(), x64),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ms.jit(ms.grad(loss))(Tensor(x64)).asnumpy(), grad, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name, x, args, expected", [   # MindSpore 2.10's gradients of x.name(*args).sum()
    ("ptp", A, (1,), arr([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0]], f32)),
    ("copysign", A, (t(B),), arr([[1.0, -1.0, -1.0], [1.0, -1.0, -1.0]], f32)),
    ("cov", A, (), arr([[1.25, -1.75, 0.5], [1.25, -1.75, 0.5]], f32)),
    ("logdet", S, (), arr([[0.6000000238418579, -0.20000001788139343], [-0.20000001788139343, 0.40000003576278687]],
                          f32)),
])
def test_gradient_as_mindspore(name, x, args, expected):
    _assert_observed(ms.grad(lambda x: getattr(x, name)(*args).sum())(Tensor(x)), expected)


def test_nanmedian_gradient_as_mindspore():   # observed: 1 at each row's median, 0 elsewhere
    _assert_observed(ms.grad(lambda x: x.nanmedian()[0].sum())(Tensor(N)),
                     arr([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]], f32))


def test_svd():
    # observed singular values; MindSpore 2.10 CPU's u and v are [[0.526, 0.851], [0.851, -0.526]], npspore's may
    # differ in the sign of a column (both are SVDs): checked by reconstruction
    s, u, v = Tensor(S).svd()
    _assert_observed(s, arr([3.6180343627929688, 1.3819661140441895], f32))
    np.testing.assert_allclose((u.asnumpy() * s.asnumpy()) @ v.asnumpy().T, S, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.abs(u.asnumpy()), [[0.5257311463356018, 0.8506508469581604],
                                                     [0.8506508469581604, 0.5257311463356018]], rtol=1e-5)


def test_kthvalue():
    # Tensor.kthvalue raises on MindSpore 2.10 CPU: the example of its kthvalue's docstring
    x = Tensor(np.array([[1.01, 2.02, 3.03], [1.04, 2.05, 3.06]], np.float32))
    for f in (lambda x: x.kthvalue(2, 1), ms.jit(lambda x: x.kthvalue(2, 1))):
        _assert_observed(f(x), (arr([2.02, 2.05], f32), arr([1, 1], i64)))
    _assert_observed(x.kthvalue(2, 1, True), (arr([[2.02], [2.05]], f32), arr([[1], [1]], i64)))
    with pytest.raises(ValueError, match="'k' must be in"):
        x.kthvalue(4, 1)


def test_quantile():
    # Tensor.quantile raises on MindSpore 2.10 CPU (no Quantile kernel): the example of ops.quantile's docstring
    x, q = Tensor(np.float32([-0.7832, 0.8003, 0.8111])), Tensor(np.float32([0.1, 0.7, 0.9]))
    for f in (lambda x, q: x.quantile(q), ms.jit(lambda x, q: x.quantile(q))):
        np.testing.assert_allclose(f(x, q).asnumpy(), [-0.4665, 0.80462, 0.80894], atol=1e-4)


def test_invert_refuses_bool():   # observed: TypeError naming Invert and the dtype
    with pytest.raises(TypeError, match=r"For primitive\[Invert\].*Bool"):
        Tensor(np.array([True])).invert()


def test_methods_are_attached():
    assert len(tensor_methods_math.METHODS) >= 30
    for name, function in tensor_methods_math.METHODS.items():
        assert vars(Tensor)[name] is function, name
