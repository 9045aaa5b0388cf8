"""Ops in eager mode: MindSpore's type promotion (semantics doc §11.4) row by row, its gradient
conventions (§5) on the adjoint rules, its error messages, and the functional and primitive
spellings agreeing with each other.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import npspore as ms
from npspore import ops
from npspore.ops.eager import run
from npspore.opdef import op_table


def T(values, dtype):
    return ms.Tensor(np.array(values), dtype)


def adjoint(name, *operands, dout, **static):
    """The op's adjoint rule called on arrays, as the compiler stages it."""
    definition = op_table()[name]
    out = definition.forward(*operands, **static)
    return definition.adjoint(*operands, out=out, dout=dout, **static)


# ---------------------------------------------------------------- §11.4 type promotion

PROMOTION = [
    # (left, right, expected dtype, expected values or None)
    (T([1., 2.], ms.float32), 1, ms.float32, [2., 3.]),
    (T([1., 2.], ms.float32), 1.5, ms.float32, [2.5, 3.5]),
    (T([1., 2.], ms.float16), 1.5, ms.float16, [2.5, 3.5]),
    (T([1., 2.], ms.float64), 1, ms.float64, [2., 3.]),
    (T([1, 2], ms.int32), 1, ms.int32, [2, 3]),
    (T([1, 2], ms.int32), True, ms.int32, [2, 3]),
    (T([1, 2], ms.int32), 1.5, ms.float32, [2.5, 3.5]),
    (T([1, 2], ms.int64), 1.5, ms.float32, [2.5, 3.5]),
    (T([True, False], ms.bool_), 1, ms.int64, [2, 1]),
    (T([True, False], ms.bool_), 1.5, ms.float32, [2.5, 1.5]),
    (T([True, False], ms.bool_), T([False, False], ms.bool_), ms.bool_, [True, False]),
    (T([1, 2], ms.uint8), 1, ms.uint8, [2, 3]),
    (T([1, 2], ms.uint8), 300, ms.uint8, [45, 46]),
    (T([1, 2], ms.int8), 1000, ms.int8, [-23, -22]),
    (T([1., 2.], ms.float32), T([1., 2.], ms.float16), ms.float32, [2., 4.]),
    (T([1., 2.], ms.float32), T([1., 2.], ms.float64), ms.float64, [2., 4.]),
    (T([1, 2], ms.int32), T([1, 2], ms.int64), ms.int64, [2, 4]),
    (T([1, 2], ms.int32), T([1., 2.], ms.float16), ms.float16, [2., 4.]),
    (T([True, False], ms.bool_), T([1., 2.], ms.float16), ms.float16, [2., 2.]),
    (T([1, 2], ms.int64), T([1., 2.], ms.float32), ms.float32, [2., 4.]),
    (T([1, 2], ms.uint8), T([1, -2], ms.int8), ms.int16, [2, 0]),
    (T([True, False], ms.bool_), T([1, 2], ms.int32), ms.int32, [2, 2]),
]


@pytest.mark.parametrize("left, right, dtype, values", PROMOTION)
def test_addition_promotes_as_mindspore(left, right, dtype, values):
    for result in (left + right, ops.add(left, right), run("add", left, right)):
        assert result.dtype == dtype
        assert result.asnumpy().tolist() == values


def test_promotion_of_the_other_operators():
    i32 = T([1, 2], ms.int32)
    assert (i32 * 2.0).dtype == ms.float32
    assert (i32 / 2).dtype == ms.float32 and (i32 / 2).asnumpy().tolist() == [0.5, 1.0]
    assert (i32 / i32).dtype == ms.float32
    both = T([True, False], ms.bool_) * T([True, True], ms.bool_)
    assert both.dtype == ms.bool_ and both.asnumpy().tolist() == [True, False]
    assert (i32 ** 2).dtype == ms.int32 and (i32 ** 2).asnumpy().tolist() == [1, 4]
    assert (i32 ** 0.5).dtype == ms.float32
    assert np.allclose((i32 ** 0.5).asnumpy(), [1.0, math.sqrt(2)])
    assert (2 ** T([1., 3.], ms.float16)).dtype == ms.float16


def test_floor_division_and_remainder_are_python_style():
    assert (T([7, -7], ms.int32) // 2).asnumpy().tolist() == [3, -4]
    assert (T([-3, 3], ms.int32) % 2).asnumpy().tolist() == [1, 1]
    assert ops.floor_div(T([7., -7.], ms.float32), 2).asnumpy().tolist() == [3., -4.]


def test_integer_true_division_by_zero_is_infinite():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = T([1, 2], ms.int32) / 0
    assert out.dtype == ms.float32 and np.isinf(out.asnumpy()).all()


def test_integer_reductions():
    i32 = T([1, 2], ms.int32)
    assert ops.sum(i32).dtype == ms.int64 and ops.sum(i32).asnumpy() == 3
    assert i32.sum().dtype == ms.int64
    assert ops.mean(i32).dtype == ms.int32 and ops.mean(i32).asnumpy() == 1
    assert ops.prod(T([2, 3], ms.int32)).dtype == ms.int64
    assert ops.sum(T([[True, True]], ms.bool_), 1).asnumpy().tolist() == [2]
    assert ops.sum(i32, dtype=ms.float16).dtype == ms.float16


def test_float_ops_do_not_promote_integers():
    with pytest.raises(TypeError, match=r"^Select CPU operator\[Exp\] fail! Unsupported data type!$"):
        ops.exp(T([1, 2], ms.int32))
    with pytest.raises(TypeError, match=r"Select CPU operator\[Log\] fail!"):
        ops.log(T([1, 2], ms.int64))


# ---------------------------------------------------------------- §5 gradient conventions


def test_relu_and_abs_have_zero_gradient_at_zero():
    x = np.array([-1.0, 0.0, 2.0])
    assert adjoint("relu", x, dout=np.ones(3)).tolist() == [0.0, 0.0, 1.0]
    assert adjoint("abs", x, dout=np.ones(3)).tolist() == [-1.0, 0.0, 1.0]


def test_reduce_max_splits_the_gradient_among_ties():
    assert adjoint("max", np.array([1.0, 3.0, 3.0]), dout=np.array(1.0)).tolist() == [0.0, 0.5, 0.5]
    rows = np.array([[2.0, 2.0, 1.0], [0.0, 5.0, 5.0]])
    assert adjoint("min", rows, dout=np.ones(2), axis=1).tolist() == [[0, 0, 1], [1, 0, 0]]
    assert adjoint("max", rows, dout=np.ones((2, 1)), axis=-1, keepdims=True).tolist() == [[.5, .5, 0], [0, .5, .5]]


def test_maximum_and_minimum_give_half_to_each_side_of_a_tie():
    x, y = np.array([1.0, 2.0, 3.0]), np.array([1.0, 5.0, 0.0])
    dx, dy = adjoint("maximum", x, y, dout=np.ones(3))
    assert dx.tolist() == [0.5, 0.0, 1.0] and dy.tolist() == [0.5, 1.0, 0.0]
    dx, dy = adjoint("minimum", x, y, dout=np.ones(3))
    assert dx.tolist() == [0.5, 1.0, 0.0] and dy.tolist() == [0.5, 0.0, 1.0]


def test_max_with_an_axis_returns_int64_indices_and_routes_the_gradient_to_them():
    x = T([[1., 3., 3.], [4., 0., 4.]], ms.float32)
    values, indices = ops.max(x, 1)
    assert values.asnumpy().tolist() == [3., 4.] and indices.dtype == ms.int64
    assert indices.asnumpy().tolist() == [1, 0]
    grad = adjoint("max_with_indices", x.asnumpy(), dout=(np.ones(2, np.float32), np.zeros(2, np.int64)), axis=1)
    assert grad.tolist() == [[0, 1, 0], [1, 0, 0]]
    index, values = ops.ArgMaxWithValue(axis=1)(x)
    assert index.asnumpy().tolist() == [1, 0] and values.asnumpy().tolist() == [3., 4.]
    values, index = ops.max(x)
    assert values.asnumpy() == 4.0 and index.asnumpy() == 0 and index.dtype == ms.int64


def test_pow_gradients_follow_the_textbook():
    a, b = np.array([2.0, 0.0, 3.0]), np.array([3.0, 2.0, 0.5])
    da, db = adjoint("pow", a, b, dout=np.ones(3))
    assert np.allclose(da, b * a ** (b - 1))
    assert np.allclose(db, [8 * math.log(2), 0.0, math.sqrt(3) * math.log(3)])  # 0 where a == 0


def test_cast_passes_the_gradient_through_in_the_input_dtype():
    x = np.array([1.5, 2.5], np.float32)
    grad = adjoint("cast", x, dout=np.array([2, 2], np.int32), dtype=np.dtype(np.int32))
    assert grad.dtype == np.float32 and grad.tolist() == [2.0, 2.0]
    assert op_table()["stop_gradient"].adjoint is None


def test_indexing_concat_reshape_and_transpose_move_the_gradient_back():
    x = np.arange(6.0).reshape(2, 3)
    assert adjoint("getitem", x, dout=np.array([7.0, 8.0]), index=(slice(None), 1)).tolist() == [[0, 7, 0], [0, 8, 0]]
    grad = adjoint("gather", x, np.array([2, 2, 0]), dout=np.ones((2, 3)), axis=1)
    assert grad[0].tolist() == [[1, 0, 2], [1, 0, 2]] and grad[1] is None
    parts = adjoint("concat", np.ones((1, 2)), np.ones((2, 2)), dout=np.arange(6.0).reshape(3, 2), axis=0)
    assert [p.tolist() for p in parts] == [[[0, 1]], [[2, 3], [4, 5]]]
    assert adjoint("reshape", x, dout=np.arange(6.0), shape=(6,)).shape == (2, 3)
    y = np.zeros((2, 3, 4))
    assert adjoint("transpose", y, dout=np.zeros((4, 2, 3)), axes=(2, 0, 1)).shape == (2, 3, 4)


# ---------------------------------------------------------------- error messages


def test_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match=r"^For 'AddExt', input.shape and other.shape need to broadcast\. .*"
                                         r"input.shape=\[2, 3\] and other.shape=\[4\]"):
        T(np.ones((2, 3)), ms.float32) + T(np.ones(4), ms.float32)


def test_matmul_shape_mismatch():
    a, b = T(np.ones((2, 3)), ms.float32), T(np.ones((2, 4)), ms.float32)
    with pytest.raises(RuntimeError, match=r"^For 'MatMulExt' op, shape1\[-1\] must be equal to shape2\[-2\], "
                                           r"but got 3 and 2\.\nshape1: \[2, 3\], shape2: \[2, 4\]"):
        ops.matmul(a, b)
    with pytest.raises(ValueError, match=r"^For 'MatMul' the input dimensions must be equal, but got 'x1_col': 3 "
                                         r"and 'x2_row': 2\.\n"):
        ops.MatMul()(a, b)
    with pytest.raises(RuntimeError, match="MatMulExt"):
        a @ b


def test_reshape_to_a_wrong_size():
    with pytest.raises(ValueError, match=r"input shape is \[3\]: proposed_shape '\[const vector\]\{2, 2\}' is "
                                         r"invalid for input of size 3$"):
        ops.reshape(T([1., 2., 3.], ms.float32), (2, 2))
    assert ops.reshape(T(np.ones(6), ms.float32), [3, -1]).shape == (3, 2)


def test_index_and_axis_out_of_range():
    x = T(np.ones((2, 3)), ms.float32)
    with pytest.raises(IndexError, match="^index 5 is out of bounds for dimension with size 2$"):
        run("getitem", x, index=5)
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 2"):
        run("getitem", x, index=(0, 0, 0))
    with pytest.raises(ValueError, match=r"For 'ReduceSum', the 'axis' must be in range \[-2, 2\), but got 2\."):
        ops.sum(x, 2)
    with pytest.raises(ValueError, match="at least one of 'min' or 'max' must not be None"):
        ops.clamp(x)


def test_reductions_of_a_0d_tensor_over_axis_0_or_minus_1():
    # observed on MindSpore 2.10 CPU: each gives 3.0 of shape (); ops.norm(b, dim=0) of a scalar is d2l's
    # autograd notebook's loop condition; an axis beyond [-1, 0] is still refused
    a = ms.Tensor(3.0)
    for result in (ops.norm(a, dim=0), ops.norm(a, dim=-1), ops.norm(a, ord=1, dim=0), ops.sum(a, dim=0),
                   ops.ReduceSum()(a, 0), ops.mean(a, 0), ops.amax(a, 0), ops.prod(a, 0), a.sum(0),
                   ops.sum(a, dim=(0,), keepdim=True)):
        assert result.shape == () and float(result) == 3.0
    assert bool(ops.all(ms.Tensor(True), 0)) and not bool(ops.any(ms.Tensor(False), -1))
    assert int(ops.argmax(a, 0)) == 0
    with pytest.raises(ValueError, match=r"For 'ReduceSum', the 'axis' must be in range \[-1, 1\), but got 1\."):
        ops.sum(a, 1)

    def doubled_until_large(x):   # d2l's f: compiled, its loop and its gradient read norm(b, dim=0)
        b = x * 2
        while ops.norm(b, dim=0) < 1000:
            b = b * 2
        return b

    x = ms.Tensor(np.float32(0.8))
    assert float(ms.jit(doubled_until_large)(x)) == 1638.4000244140625 == float(doubled_until_large(x))
    assert float(ms.grad(doubled_until_large)(x)) == 2048.0


# ---------------------------------------------------------------- eager run


def test_run_accepts_scalars_lists_and_aliases():
    assert run("add", 1, 2).dtype == ms.int64 and run("add", 1, 2).asnumpy() == 3
    assert run("mul", 1.5, 2).dtype == ms.float32
    out = run("multiply", T([1., 2.], ms.float32), [3., 4.])
    assert out.dtype == ms.float32 and out.asnumpy().tolist() == [3., 8.]
    assert isinstance(run("sum", T([1., 2.], ms.float32))._array, np.ndarray)


def test_run_returns_a_tuple_for_multi_output_ops():
    parts = ops.split(T(np.arange(10.), ms.float32), 3)
    assert [p.asnumpy().tolist() for p in parts] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    parts = ops.split(T(np.arange(6.), ms.float32), [1, 5])
    assert [p.shape for p in parts] == [(1,), (5,)]
    assert [p.shape for p in ops.Split(0, 3)(T(np.arange(6.), ms.float32))] == [(2,), (2,), (2,)]


def test_assign_writes_into_the_parameter_in_place():
    p = ms.Parameter(T([1., 2.], ms.float32), name="p")
    data = p._array
    written = ops.assign(p, T([5., 6.], ms.float32))   # a Tensor of the value written, as MindSpore 2.10's
    assert type(written) is ms.Tensor and written.asnumpy().tolist() == [5., 6.]
    assert ops.assign_add(p, T([1., 1.], ms.float32)).asnumpy().tolist() == [6., 7.]
    ops.AssignSub()(p, 0.5)
    assert p._array is data and data.tolist() == [5.5, 6.5]
    with pytest.raises(ValueError, match=r"For 'Assign', the shape of 'value' must be the same as 'variable'"):
        ops.assign(p, T([1., 2., 3.], ms.float32))


# ---------------------------------------------------------------- values of the less obvious ops


def test_erf_and_gelu_match_the_standard_library():
    xs = np.array([-5.0, -1.0, -0.3, 0.0, 1e-9, 0.46875, 0.5, 2.0, 7.0, 40.0])
    erf = ops.erf(T(xs, ms.float64)).asnumpy()
    assert np.allclose(erf, [math.erf(v) for v in xs], rtol=1e-15, atol=1e-16)
    gelu = ops.gelu(T(xs, ms.float64)).asnumpy()
    assert np.allclose(gelu, [v * (1 + math.erf(v / math.sqrt(2))) / 2 for v in xs], rtol=1e-14)
    tanh = ops.gelu(T([1.0], ms.float32), approximate="tanh").asnumpy()[0]
    assert tanh == pytest.approx(0.5 * (1 + math.tanh(math.sqrt(2 / math.pi) * 1.044715)), rel=1e-6)
    assert ops.erf(T([0.5], ms.float16)).dtype == ms.float16


@ms.jit
def compiled_sigmoid(x):
    return ops.sigmoid(x)


def test_sigmoid_tails_are_mindspores():
    """MindSpore 2.10 computes 1 / (1 + exp(-x)): 0 where exp(-x) overflows (float32 below -88.7,
    float64 below -709.8), subnormals just above; no warning, eager and compiled alike."""
    f32 = [-1000., -100., -90., -88., -87., 0., 100.]
    f64 = [-800., -745., -720., -700., -100.]
    observed32 = [0.0, 0.0, 0.0, 6.0544656e-39, 1.6457792e-38, 0.5, 1.0]
    observed64 = [0.0, 0.0, 0.0, 9.85967654e-305, 3.72007598e-044]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for sigmoid in (ops.sigmoid, compiled_sigmoid):
            got32 = sigmoid(T(f32, ms.float32)).asnumpy()
            assert got32.dtype == np.float32
            np.testing.assert_allclose(got32, observed32, rtol=1e-4, atol=0)   # subnormals keep few digits
            np.testing.assert_allclose(sigmoid(T(f64, ms.float64)).asnumpy(), observed64, rtol=1e-8, atol=0)


def test_activations_stay_finite_without_warnings():
    big = T([-1000., 0., 1000.], ms.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ops.sigmoid(big).asnumpy().tolist() == [0.0, 0.5, 1.0]
        assert ops.softplus(big).asnumpy().tolist() == [0.0, pytest.approx(math.log(2)), 1000.0]
        probs = ops.softmax(T([[1000., 0.]], ms.float32)).asnumpy()
        assert probs.tolist() == [[1.0, 0.0]]
        assert np.allclose(ops.log_softmax(T([1., 2., 3.], ms.float32)).asnumpy(),
                           np.array([1., 2., 3.]) - math.log(math.exp(1) + math.exp(2) + math.exp(3)))


def test_softmax_cross_entropy_with_logits():
    logits = T([[2., 1., 0.]], ms.float32)
    labels = T([[0., 1., 0.]], ms.float32)
    loss, backprop = ops.SoftmaxCrossEntropyWithLogits()(logits, labels)
    expected = -(1 - math.log(math.exp(2) + math.exp(1) + 1))
    assert loss.shape == (1,) and loss.asnumpy()[0] == pytest.approx(expected, rel=1e-6)
    probs = np.exp([2., 1., 0.]) / np.exp([2., 1., 0.]).sum()
    assert np.allclose(backprop.asnumpy(), [probs - [0, 1, 0]])


def test_creation_ops():
    assert ops.ones((2, 3)).dtype == ms.float32 and ops.ones(2, ms.int32).asnumpy().tolist() == [1, 1]
    assert ops.zeros((1,)).asnumpy().tolist() == [0.0]
    assert ops.full((2,), 7).dtype == ms.int64 and ops.full((2,), 1.5, dtype=ms.float32).dtype == ms.float32
    assert ops.fill(ms.float16, (2, 2), 3).dtype == ms.float16
    assert ops.ones_like(T([1, 2], ms.int32)).dtype == ms.int32
    assert ops.zeros_like(T([1, 2], ms.int32), dtype=ms.float64).dtype == ms.float64
    hot = ops.one_hot(T([0, 2], ms.int32), 3, 1.0, 0.0)
    assert hot.dtype == ms.float32 and hot.asnumpy().tolist() == [[1, 0, 0], [0, 0, 1]]
    assert ops.one_hot(T([0, 2], ms.int64), 3, axis=0).asnumpy().tolist() == [[1, 0], [0, 0], [0, 1]]
    assert ops.one_hot(T([1], ms.int64), 2).dtype == ms.int64
    chosen = ops.where(T([True, False], ms.bool_), 1.0, 0)
    assert chosen.dtype == ms.float32 and chosen.asnumpy().tolist() == [1.0, 0.0]


def test_shape_ops():
    x = T(np.arange(24.).reshape(2, 3, 4), ms.float32)
    assert ops.flatten(x).shape == (2, 12) and ops.Flatten()(x).shape == (2, 12)
    assert ops.flatten(x, start_dim=0).shape == (24,)
    assert ops.broadcast_to(T([[1.], [2.]], ms.float32), (-1, 3)).asnumpy().tolist() == [[1, 1, 1], [2, 2, 2]]
    assert ops.tile(T([1, 2], ms.int32), (2, 2)).asnumpy().tolist() == [[1, 2, 1, 2], [1, 2, 1, 2]]
    assert ops.squeeze(T(np.ones((1, 2, 1)), ms.float32)).shape == (2,)
    assert ops.Squeeze(2)(T(np.ones((1, 2, 1)), ms.float32)).shape == (1, 2)
    assert ops.unsqueeze(x, 1).shape == (2, 1, 3, 4)
    assert ops.permute(x, (2, 0, 1)).shape == (4, 2, 3)
    assert ops.stack([x, x], -1).shape == (2, 3, 4, 2)
    assert ops.cat((x, x), 1).shape == (2, 6, 4)
    assert ops.gather(x, T([2, 0], ms.int32), 1).asnumpy()[:, :, 0].tolist() == [[8, 0], [20, 12]]
    picked = ops.masked_select(T([[1., 2.], [3., 4.]], ms.float32), T([True, False], ms.bool_))
    assert picked.asnumpy().tolist() == [1., 3.]
    assert ops.dot(T(np.ones((2, 3)), ms.float32), T(np.ones((4, 3, 5)), ms.float32)).shape == (2, 4, 5)
    assert ops.outer(T([1., 2.], ms.float32), T([1., 2., 3.], ms.float32)).shape == (2, 3)
    assert ops.bmm(T(np.ones((2, 3, 4)), ms.float32), T(np.ones((2, 4, 5)), ms.float32)).shape == (2, 3, 5)


def test_division_rounding_modes():
    x, y = T([7., -7.], ms.float32), T([2., 2.], ms.float32)
    assert ops.div(x, y).asnumpy().tolist() == [3.5, -3.5]
    assert ops.div(x, y, rounding_mode="floor").asnumpy().tolist() == [3., -4.]
    assert ops.div(x, y, rounding_mode="trunc").asnumpy().tolist() == [3., -3.]
    truncated = ops.div(T([7, -7], ms.int32), 2, rounding_mode="trunc")
    assert truncated.dtype == ms.int32 and truncated.asnumpy().tolist() == [3, -3]


# ---------------------------------------------------------------- functional and primitive spellings

X = T([[1., -2.], [3., 0.5]], ms.float32)
Y = T([[0.5, 4.], [-1., 2.]], ms.float32)
SPELLINGS = [
    (lambda: ops.add(X, Y), lambda: ops.Add()(X, Y)),
    (lambda: ops.sub(X, Y), lambda: ops.Sub()(X, Y)),
    (lambda: ops.mul(X, Y), lambda: ops.Mul()(X, Y)),
    (lambda: ops.div(X, Y), lambda: ops.RealDiv()(X, Y)),
    (lambda: ops.true_divide(X, Y), lambda: ops.Div()(X, Y)),
    (lambda: ops.floor_divide(X, Y), lambda: ops.FloorDiv()(X, Y)),
    (lambda: ops.remainder(X, Y), lambda: ops.FloorMod()(X, Y)),
    (lambda: ops.pow(X, 2), lambda: ops.Pow()(X, 2)),
    (lambda: ops.neg(X), lambda: ops.Neg()(X)),
    (lambda: ops.abs(X), lambda: ops.Abs()(X)),
    (lambda: ops.exp(X), lambda: ops.Exp()(X)),
    (lambda: ops.log(ops.abs(X)), lambda: ops.Log()(ops.Abs()(X))),
    (lambda: ops.sqrt(ops.abs(X)), lambda: ops.Sqrt()(ops.Abs()(X))),
    (lambda: ops.rsqrt(ops.abs(Y)), lambda: ops.Rsqrt()(ops.Abs()(Y))),
    (lambda: ops.square(X), lambda: ops.Square()(X)),
    (lambda: ops.sin(X), lambda: ops.Sin()(X)),
    (lambda: ops.cos(X), lambda: ops.Cos()(X)),
    (lambda: ops.tanh(X), lambda: ops.Tanh()(X)),
    (lambda: ops.sigmoid(X), lambda: ops.Sigmoid()(X)),
    (lambda: ops.relu(X), lambda: ops.ReLU()(X)),
    (lambda: ops.gelu(X, approximate="tanh"), lambda: ops.GeLU()(X)),   # the primitive is the tanh approximation
    (lambda: ops.softplus(X), lambda: ops.Softplus()(X)),
    (lambda: ops.maximum(X, Y), lambda: ops.Maximum()(X, Y)),
    (lambda: ops.minimum(X, Y), lambda: ops.Minimum()(X, Y)),
    (lambda: ops.where(ops.gt(X, Y), X, Y), lambda: ops.Select()(ops.Greater()(X, Y), X, Y)),
    (lambda: ops.cast(X, ms.int32), lambda: ops.Cast()(X, ms.int32)),
    (lambda: ops.eq(X, Y), lambda: ops.Equal()(X, Y)),
    (lambda: ops.lt(X, Y), lambda: ops.Less()(X, Y)),
    (lambda: ops.sum(X, 1, keepdim=True), lambda: ops.ReduceSum(keep_dims=True)(X, 1)),
    (lambda: ops.sum(X), lambda: ops.ReduceSum()(X)),
    (lambda: ops.mean(X, (0, 1)), lambda: ops.ReduceMean()(X, ())),
    (lambda: ops.amax(X, 0), lambda: ops.ReduceMax()(X, 0)),
    (lambda: ops.reduce_min(X, 1, True), lambda: ops.ReduceMin(True)(X, 1)),
    (lambda: ops.reshape(X, (4,)), lambda: ops.Reshape()(X, (4,))),
    (lambda: ops.transpose(X, (1, 0)), lambda: ops.Transpose()(X, (1, 0))),
    (lambda: ops.expand_dims(X, 0), lambda: ops.ExpandDims()(X, 0)),
    (lambda: ops.tile(X, (1, 2)), lambda: ops.Tile()(X, (1, 2))),
    (lambda: ops.concat((X, Y), 1), lambda: ops.Concat(1)((X, Y))),
    (lambda: ops.stack((X, Y)), lambda: ops.Stack()((X, Y))),
    (lambda: ops.gather(X, T([1, 1], ms.int32), 0), lambda: ops.Gather()(X, T([1, 1], ms.int32), 0)),
    (lambda: ops.matmul(X, Y), lambda: ops.MatMul()(X, Y)),
    (lambda: ops.matmul(X, ops.transpose(Y, (1, 0))), lambda: ops.MatMul(transpose_b=True)(X, Y)),
    (lambda: ops.softmax(X, 0), lambda: ops.Softmax(0)(X)),
    (lambda: ops.log_softmax(X), lambda: ops.LogSoftmax()(X)),
    (lambda: ops.ones_like(X), lambda: ops.OnesLike()(X)),
    (lambda: ops.zeros_like(X), lambda: ops.ZerosLike()(X)),
    (lambda: ops.fill(ms.float32, (2, 2), 3.0), lambda: ops.Fill()(ms.float32, (2, 2), 3.0)),
    (lambda: ops.broadcast_to(Y[0], (3, 2)), lambda: ops.BroadcastTo((3, 2))(Y[0])),
]


@pytest.mark.parametrize("functional, primitive", SPELLINGS)
def test_functional_and_primitive_spellings_agree(functional, primitive):
    a, b = functional(), primitive()
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(a.asnumpy(), b.asnumpy())


def test_primitive_repr_and_attributes():
    assert repr(ops.MatMul(transpose_b=True)) == "Prim[MatMul]<transpose_a=False, transpose_b=True>"
    assert repr(ops.Add()) == "Prim[Add]"
    assert ops.ReduceSum(keep_dims=True).keep_dims is True
    with pytest.raises(TypeError, match="keep_dims"):
        ops.ReduceMean(keep_dims=1)
    assert ops.Argmax(axis=1)(X).dtype == ms.int32 and ops.argmax(X, 1).dtype == ms.int64
