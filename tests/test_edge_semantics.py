"""Edge values where NumPy and MindSpore 2.10's CPU kernels part: division and remainders by zero, NumPy's
floating-point warnings, and what ``ops.assign`` and the optimizer primitives return.

Every expected value below was printed by MindSpore 2.10 (CPU wheel); each is checked eagerly and in
compiled code (``ms.jit``, a Cell under GRAPH_MODE, ``ms.grad`` and ``value_and_grad``).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, mint, nn, ops
import npspore.numpy as mnp

INT_DIVIDENDS, INT_DIVISORS = [7, -7, 0, 5], [0, 0, 0, 2]
UINT_DIVIDENDS = [7, 200, 0, 5]

# dtype -> (a // b, a % b) of a = [7, -7, 0, 5] (uint8: [7, 200, 0, 5]) and b = [0, 0, 0, 2], as MindSpore 2.10
# prints them
FLOOR_BY_ZERO = {
    ms.int8: ([127, -128, 0, 2], [0, 0, 0, 1]),
    ms.int16: ([32767, -32768, 0, 2], [0, 0, 0, 1]),
    ms.int32: ([2147483647, -2147483648, 0, 2], [-2147483648, -2147483648, -2147483648, 1]),
    ms.int64: ([2**63 - 1, -2**63, 0, 2], [-2**63, -2**63, -2**63, 1]),
    ms.uint8: ([255, 255, 0, 2], [0, 0, 0, 1]),
}


def operands(dtype):
    dividends = UINT_DIVIDENDS if dtype == ms.uint8 else INT_DIVIDENDS
    return Tensor(dividends, dtype), Tensor(INT_DIVISORS, dtype)


@pytest.mark.parametrize("dtype", list(FLOOR_BY_ZERO), ids=str)
def test_integer_floor_division_by_zero_gives_the_dtypes_extremes_in_every_spelling(dtype):
    a, b = operands(dtype)
    quotient, remainder = FLOOR_BY_ZERO[dtype]
    for result in (a // b, ops.floor_divide(a, b), ops.floor_div(a, b), ops.FloorDiv()(a, b), a.floor_divide(b),
                   ops.div(a, b, rounding_mode="floor"), mint.floor_divide(a, b), b.__rfloordiv__(a)):
        assert result.dtype == dtype and result.asnumpy().tolist() == quotient
    for result in (a % b, ops.floor_mod(a, b), ops.FloorMod()(a, b)):
        assert result.dtype == dtype and result.asnumpy().tolist() == remainder


@pytest.mark.parametrize("dtype", list(FLOOR_BY_ZERO), ids=str)
def test_the_other_integer_divisions_by_zero(dtype):
    a, b = operands(dtype)
    # ops.remainder, mint.remainder, Tensor.remainder and the fmods give the dividend
    for result in (ops.remainder(a, b), mint.remainder(a, b), a.remainder(b), ops.fmod(a, b), mint.fmod(a, b),
                   a.fmod(b)):
        assert result.dtype == dtype and result.asnumpy().tolist() == a.asnumpy().tolist()[:3] + [1]
    # truncation toward zero: TruncateDiv takes floor division's values, div(trunc) C's cast of inf and NaN
    assert ops.truncate_div(a, b).asnumpy().tolist() == FLOOR_BY_ZERO[dtype][0]
    assert ops.TruncateDiv()(a, b).asnumpy().tolist() == FLOOR_BY_ZERO[dtype][0]
    trunc = {ms.int32: [-2**31] * 3 + [2], ms.int64: [-2**63] * 3 + [2]}.get(dtype, [0, 0, 0, 2])
    assert ops.div(a, b, rounding_mode="trunc").asnumpy().tolist() == trunc
    if dtype in (ms.int8, ms.int32, ms.uint8):   # TruncateMod refuses int16 and int64 in MindSpore 2.10
        assert ops.truncate_mod(a, b).asnumpy().tolist() == [0, 0, 0, 1]


def test_integer_division_by_a_python_zero_and_of_a_python_number():
    a, b = operands(ms.int32)
    assert (a // 0).asnumpy().tolist() == [2147483647, -2147483648, 0, 2147483647]
    assert (a % 0).asnumpy().tolist() == [-2147483648] * 4
    assert (7 // b).asnumpy().tolist() == [2147483647] * 3 + [3]
    assert (7 % b).asnumpy().tolist() == [-2147483648] * 3 + [1]
    assert ops.remainder(a, 0).asnumpy().tolist() == INT_DIVIDENDS
    assert ops.remainder(7, b).asnumpy().tolist() == [7, 7, 7, 1]
    int8 = Tensor(INT_DIVIDENDS, ms.int8)
    assert (int8 // 0).asnumpy().tolist() == [127, -128, 0, 127] and (int8 % 0).asnumpy().tolist() == [0] * 4


def test_mindspore_numpy_remainders_by_zero_are_numpys():
    a, b = operands(ms.int32)
    for function in (mnp.remainder, mnp.mod, mnp.fmod):
        assert function(a, b).asnumpy().tolist() == [0, 0, 0, 1]
    assert mnp.floor_divide(a, b).asnumpy().tolist() == [2147483647, -2147483648, 0, 2]


NAN, INF = float("nan"), float("inf")
FLOAT_DIVIDENDS = [7.0, -7.0, 0.0, 5.0, -5.0, 7.5, INF, NAN]
FLOAT_DIVISORS = [0.0, 0.0, 0.0, 2.0, 2.0, -0.0, 0.0, 0.0]


def same(result, expected):
    np.testing.assert_array_equal(result.asnumpy(), np.array(expected, result.asnumpy().dtype))


@pytest.mark.parametrize("dtype", [ms.float16, ms.float32, ms.float64], ids=str)
def test_float_floor_division_by_zero_takes_the_sign_of_the_dividend(dtype):
    # x > 0 gives inf whatever the zero's sign, 0 gives NaN, x < 0 and NaN give -inf (NumPy: 7.5 // -0.0 is -inf,
    # NaN // 0 is NaN)
    a, b = Tensor(FLOAT_DIVIDENDS, dtype), Tensor(FLOAT_DIVISORS, dtype)
    expected = [INF, -INF, NAN, 2.0, -3.0, INF, INF, -INF]
    for result in (a // b, ops.floor_divide(a, b), ops.FloorDiv()(a, b), ops.div(a, b, rounding_mode="floor"),
                   ops.truncate_div(a, b)[:3]):
        same(result, expected[:result.shape[0]])
    same(a // 0, [INF, -INF, NAN, INF, -INF, INF, INF, -INF])
    same(7.0 // b, [INF, INF, INF, 3.0, 3.0, INF, INF, INF])
    for result in (a % b, ops.floor_mod(a, b), ops.remainder(a, b)):
        same(result, [NAN, NAN, NAN, 1.0, 1.0, NAN, NAN, NAN])
    same(a % 0, [NAN] * 8)
    same(ops.fmod(a, b), [NAN, NAN, NAN, 1.0, -1.0, NAN, NAN, NAN])
    same(ops.truncate_mod(a, b), [NAN, NAN, NAN, 1.0, -1.0, NAN, NAN, NAN])
    same(ops.div(a, b, rounding_mode="trunc")[:5], [INF, -INF, NAN, 2.0, -2.0])


class Divisions(nn.Cell):
    def construct(self, a, b):
        return a // b, a % b, 7 // b, a // 0, a % 0, ops.remainder(a, b), a // 2


DIVISIONS_INT32 = [[2147483647, -2147483648, 0, 2], [-2147483648] * 3 + [1], [2147483647] * 3 + [3],
                   [2147483647, -2147483648, 0, 2147483647], [-2147483648] * 4, [7, -7, 0, 1], [3, -4, 0, 2]]


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_compiled_divisions_by_zero_match_eager_ones(graph_mode):
    a, b = operands(ms.int32)
    assert [r.asnumpy().tolist() for r in Divisions()(a, b)] == DIVISIONS_INT32
    jitted = ms.jit(Divisions().construct)
    assert [r.asnumpy().tolist() for r in jitted(a, b)] == DIVISIONS_INT32
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [r.asnumpy().tolist() for r in Divisions()(a, b)] == DIVISIONS_INT32


def test_a_nonzero_literal_divisor_is_the_plain_operator_in_a_kernel():
    source = ms.jit(Divisions().construct).kernel_source(*operands(ms.int32))
    assert "= a // 2  #" in source
    assert "rt.floor_divide(a, b)" in source and "rt.floor_mod(a, b)" in source and "rt.floor_divide(a, 0)" in source


def wrapped_remainder(x, y):
    return (x * (x // y)).sum() + (x % y).sum()


def test_gradients_through_divisions_by_zero():
    # MindSpore 2.10: grad [inf, -inf, 3]; d/dy of x % y is -floor_div(x, y), so 7.5 // -0.0 = inf gives -inf
    x, y = Tensor([7.5, -3.0, 5.0]), Tensor([-0.0, 0.0, 2.0])
    same(ms.grad(wrapped_remainder)(x, y), [INF, -INF, 3.0])
    value, (d_x, d_y) = ms.value_and_grad(wrapped_remainder, grad_position=(0, 1))(x, y)
    assert np.isnan(value.asnumpy())
    same(d_x, [INF, -INF, 3.0])
    same(d_y, [-INF, INF, -2.0])
    same(ms.jit(ms.grad(wrapped_remainder))(x, y), [INF, -INF, 3.0])


# ---------------------------------------------------------------- NumPy's floating-point warnings


def overflowing(x, y):
    return ops.exp(x * 100) + ops.log(y) + x // y + x % y


def float_warnings(function, *args) -> list:
    with warnings.catch_warnings(record=True) as caught:
        function(*args)
    return [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


def test_no_numpy_warning_from_eager_or_compiled_ops():
    x, y = Tensor([10.0, -1.0, 0.0]), Tensor([0.0, 0.0, 0.0])
    assert float_warnings(overflowing, x, y) == []
    assert float_warnings(ms.jit(overflowing), x, y) == []
    assert float_warnings(ms.grad(overflowing, grad_position=(0, 1)), x, y) == []
    a, b = operands(ms.int32)
    assert float_warnings(lambda: (a // b, a % b, ops.remainder(a, b), ops.div(a, b, rounding_mode="trunc"))) == []


def test_the_users_own_numpy_code_still_warns():
    ms.jit(overflowing)(Tensor([1.0]), Tensor([0.0]))
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        np.log(np.zeros(2))
    with pytest.warns(RuntimeWarning, match="overflow"):
        np.exp(np.float32([100.0]))


# ---------------------------------------------------------------- what assign and the optimizer primitives return


def tensor_repr(values) -> str:
    return repr(Tensor(np.array(values, np.float32)))


def test_assign_returns_a_tensor_of_the_value_written_and_updates_in_place():
    # MindSpore 2.10 PYNATIVE: Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+00,  4.00000000e+00]), not
    # the Parameter; a later write to the Parameter leaves the result as it was
    p = Parameter(Tensor([1.0, 2.0]), name="w")
    written = ops.assign(p, Tensor([3.0, 4.0]))
    assert type(written) is Tensor and repr(written) == tensor_repr([3.0, 4.0])
    assert str(written) == "[3. 4.]"
    assert p.asnumpy().tolist() == [3.0, 4.0]
    ops.assign(p, Tensor([9.0, 9.0]))
    assert written.asnumpy().tolist() == [3.0, 4.0] and p.asnumpy().tolist() == [9.0, 9.0]
    assert repr(ops.assign_add(p, Tensor([1.0, 1.0]))) == tensor_repr([10.0, 10.0])
    assert repr(ops.assign_sub(p, Tensor([1.0, 1.0]))) == tensor_repr([9.0, 9.0])
    q = Parameter(Tensor([0.0, 0.0]), name="q")
    from_parameter = ops.assign(q, p)   # the value of another Parameter: copied, not shared
    ops.assign(p, Tensor([0.0, 0.0]))
    assert from_parameter.asnumpy().tolist() == [9.0, 9.0]


def test_optimizer_primitives_return_tensors_of_the_updated_values():
    p = Parameter(Tensor([3.0, 4.0]), name="w")
    moment = Parameter(Tensor([0.0, 0.0]), name="moment")
    updated = ops.ApplyMomentum()(p, moment, 0.1, Tensor([1.0, 1.0]), 0.9)
    assert repr(updated) == tensor_repr([2.9, 3.9]) and p.asnumpy().tolist() == pytest.approx([2.9, 3.9])
    assert moment.asnumpy().tolist() == [1.0, 1.0]
    p.set_data(Tensor([0.0, 0.0]))
    assert updated.asnumpy().tolist() == pytest.approx([2.9, 3.9])   # a snapshot, as MindSpore's
    p.set_data(Tensor([2.9, 3.9]))
    descended = ops.ApplyGradientDescent()(p, 0.1, Tensor([1.0, 1.0]))
    assert type(descended) is Tensor and descended.asnumpy().tolist() == pytest.approx([2.8, 3.8])
    var, accum = ops.ApplyAdagrad()(p, Parameter(Tensor([0.1, 0.1]), name="accum"), 0.1, Tensor([1.0, 1.0]))
    assert type(var) is Tensor and type(accum) is Tensor
    np.testing.assert_allclose(var.asnumpy(), np.array([2.8, 3.8]) - 0.1 / np.sqrt(1.1), rtol=1e-6)
    np.testing.assert_allclose(accum.asnumpy(), [1.1, 1.1], rtol=1e-6)
    m, v = Parameter(Tensor([0.0, 0.0]), name="m"), Parameter(Tensor([0.0, 0.0]), name="v")
    outputs = ops.Adam()(p, m, v, 0.9, 0.999, 0.001, 0.9, 0.999, 1e-8, Tensor([1.0, 1.0]))
    # MindSpore 2.10's CPU Adam returns three zero Tensors here (its documented outputs are the updated values)
    assert all(type(o) is Tensor for o in outputs)
    np.testing.assert_allclose(outputs[0].asnumpy(), p.asnumpy())
    np.testing.assert_allclose([o.asnumpy() for o in outputs[1:]], [m.asnumpy(), v.asnumpy()])


class AssignsThenUpdates(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([1.0, 2.0]), name="w")
        self.v = Parameter(Tensor([0.0, 0.0]), name="v")
        self.momentum = ops.ApplyMomentum()

    def construct(self, x):
        return ops.assign(self.w, x), self.momentum(self.w, self.v, 0.1, x, 0.9)


def test_assign_results_in_pynative_and_graph_cells():
    # MindSpore 2.10: PYNATIVE gives the value each write wrote ([5, 6], then [4.5, 5.4]); GRAPH reads the
    # Parameter at the end for both ([4.5, 5.4] twice); both are Tensors and both update w to [4.5, 5.4]
    net = AssignsThenUpdates()
    written, updated = net(Tensor([5.0, 6.0]))
    assert (repr(written), repr(updated)) == (tensor_repr([5.0, 6.0]), tensor_repr([4.5, 5.4]))
    assert net.w.asnumpy().tolist() == pytest.approx([4.5, 5.4]) and net.v.asnumpy().tolist() == [5.0, 6.0]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = AssignsThenUpdates()
        written, updated = net(Tensor([5.0, 6.0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert type(written) is Tensor and repr(written) == repr(updated) == tensor_repr([4.5, 5.4])
    assert net.w.asnumpy().tolist() == pytest.approx([4.5, 5.4])
    q = Parameter(Tensor([1.0, 2.0]), name="q")
    jitted = ms.jit(lambda x: ops.assign(q, x))
    result = jitted(Tensor([7.0, 8.0]))
    assert type(result) is Tensor and repr(result) == tensor_repr([7.0, 8.0]) and q.asnumpy().tolist() == [7.0, 8.0]


# ---------------------------------------------------------------- forward mode through an integer cast


def to_int(x):
    return x.astype(ms.int32)


def int_times_x(x):
    return ops.cast(x, ms.int32) * x


def both(x):
    return x * 2, x.astype(ms.int32)


@pytest.mark.parametrize("jvp", [ops.jvp, ms.jvp], ids=["ops.jvp", "ms.jvp"])
def test_a_tangent_passes_through_an_integer_cast_truncated(jvp):
    # MindSpore 2.10 (PYNATIVE and GRAPH): the cast's tangent is the tangent cast to int32, [0.5, 1.5, -2.5] -> [0, 1, -2]
    x, v = Tensor([1.5, 2.7, -3.2]), Tensor([0.5, 1.5, -2.5])
    out, tangent = jvp(to_int, x, v)
    assert tangent.dtype == ms.int32 and tangent.asnumpy().tolist() == [0, 1, -2]
    assert out.asnumpy().tolist() == [1, 2, -3]
    _, tangent = jvp(int_times_x, x, v)   # int(x) * v + x * int(v)
    np.testing.assert_allclose(tangent.asnumpy(), [0.5, 5.7, 13.9], rtol=1e-6)
    _, tangent = jvp(int_times_x, x, Tensor([1.0, 1.0, 1.0]))
    np.testing.assert_allclose(tangent.asnumpy(), [2.5, 4.7, -6.2], rtol=1e-6)
    _, (float_tangent, int_tangent) = jvp(both, x, v)
    assert float_tangent.asnumpy().tolist() == [1.0, 3.0, -5.0] and int_tangent.asnumpy().tolist() == [0, 1, -2]


def test_a_tangent_through_an_integer_cast_in_graph_mode(graph_mode):
    _, tangent = ops.jvp(int_times_x, Tensor([1.5, 2.7, -3.2]), Tensor([0.5, 1.5, -2.5]))
    np.testing.assert_allclose(tangent.asnumpy(), [0.5, 5.7, 13.9], rtol=1e-6)
