"""``x[index] = value`` on a local tensor in compiled code (op ``setitem``; a bool mask of ``x``'s shape is
``where``), as MindSpore 2.10's graph mode compiles it: the name is bound to a new tensor, another name for the
old tensor and the caller's tensor keep the old value. Expected values observed on MindSpore 2.10 (GRAPH_MODE,
CPU) where the test says so."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.compiler.errors import NotSupportedError

from gradcheck import central_difference


class _Rebinds(nn.Cell):
    def construct(self, x, v):
        y = x
        z = x * 1
        x[0] = v
        z[:, 1] = 7.0
        return x, y, z


class _Overwrites(nn.Cell):
    def construct(self, x, v):
        z = x * 2
        z[0] = v * 3
        z[1, 1:] = 5.0
        return (z * z).sum()


class _Masked(nn.Cell):
    def construct(self, x):
        z = x * 1
        z[z > 2] = 0.0
        return z


def _inputs(dtype=np.float32):
    return Tensor(np.arange(6.0).reshape(2, 3).astype(dtype)), Tensor(np.array([10.0, 20.0, 30.0], dtype))


def test_an_item_assignment_binds_the_name_to_a_new_tensor_as_mindspores_graph_mode_does():
    x, v = _inputs()
    out_x, out_y, out_z = ms.jit(_Rebinds())(x, v)
    np.testing.assert_array_equal(out_x.asnumpy(), [[10, 20, 30], [3, 4, 5]])   # MindSpore 2.10 GRAPH
    np.testing.assert_array_equal(out_y.asnumpy(), [[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal(out_z.asnumpy(), [[0, 7, 2], [3, 7, 5]])
    np.testing.assert_array_equal(x.asnumpy(), [[0, 1, 2], [3, 4, 5]])          # the caller's tensor


@pytest.mark.parametrize("compiled", [False, True])
def test_the_gradient_of_overwritten_elements_is_zero_and_the_values_get_theirs(compiled):
    x, v = _inputs()
    grad = ms.grad(_Overwrites(), grad_position=(0, 1))
    d_x, d_v = (ms.jit(grad) if compiled else grad)(x, v)
    np.testing.assert_array_equal(d_x.asnumpy(), [[0, 0, 0], [24, 0, 0]])        # MindSpore 2.10 GRAPH
    np.testing.assert_array_equal(d_v.asnumpy(), [180, 360, 540])


def test_gradients_and_second_derivatives_match_central_differences_in_float64():
    rng = np.random.default_rng(0)
    x, v = rng.standard_normal((2, 3)), rng.standard_normal(3)
    net = _Overwrites()

    def loss(a, b):
        return float(net(Tensor(a), Tensor(b)).asnumpy())

    d_x, d_v = ms.grad(net, grad_position=(0, 1))(Tensor(x), Tensor(v))
    np.testing.assert_allclose(d_x.asnumpy(), central_difference(lambda a: loss(a, v), x), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(d_v.asnumpy(), central_difference(lambda b: loss(x, b), v), rtol=1e-6, atol=1e-8)
    first = ms.grad(net, grad_position=1)
    second = ms.grad(lambda a, b: first(a, b).sum(), grad_position=1)(Tensor(x), Tensor(v))
    expected = central_difference(lambda b: float(first(Tensor(x), Tensor(b)).asnumpy().sum()), v)
    np.testing.assert_allclose(second.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_a_bool_mask_of_the_tensors_shape_selects_the_elements_written():
    x, _ = _inputs()
    np.testing.assert_array_equal(ms.jit(_Masked())(x).asnumpy(), [[0, 1, 2], [0, 0, 0]])   # MindSpore 2.10 GRAPH


class _Indexing(nn.Cell):
    def construct(self, x, v):
        a = x * 1
        a[..., -1] = v              # (3,) into (2, 3)
        a[1] = 0.5                  # a Python number into (3, 4)
        a[None, 0, ::2] = v[:2].reshape((2, 1))   # (2, 1) into (1, 2, 4)
        return a


def test_ellipsis_none_negative_and_stepped_indices_and_broadcast_values_write_what_numpy_writes():
    x = np.arange(24.0).reshape(2, 3, 4).astype(np.float32)
    v = np.array([-1.0, -2.0, -3.0], np.float32)
    expected = x.copy()
    expected[..., -1] = v
    expected[1] = 0.5
    expected[None, 0, ::2] = v[:2].reshape((2, 1))
    np.testing.assert_array_equal(ms.jit(_Indexing())(Tensor(x), Tensor(v)).asnumpy(), expected)
    np.testing.assert_array_equal(_Indexing()(Tensor(x), Tensor(v)).asnumpy(), expected)


class _IntoInts(nn.Cell):
    def construct(self, x):
        y = x + 0
        y[0] = 2.7
        return y


def test_a_value_is_cast_to_the_tensors_dtype():
    out = ms.jit(_IntoInts())(Tensor(np.array([5, 6], np.int32)))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [2, 6])


def test_the_kernel_writes_the_index_as_python_does():
    source = ms.jit(_Overwrites()).kernel_source(*_inputs())
    assert "[1, 1:] = 5.0" in source and "slice(" not in source, source


class _ParameterElement(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")

    def construct(self, x):
        w = self.p
        w[0] = x
        return w


class _TensorIndex(nn.Cell):
    def construct(self, x, i):
        y = x * 1
        y[i] = 1.0
        return y


class _MixedIndex(nn.Cell):
    def construct(self, x, i):
        y = x * 1
        y[i, 0] = 1.0
        return y


class _RowsWritten(nn.Cell):
    def construct(self, x, i, v):
        y = ops.sin(x)
        y[i] = v * 2
        y[[0]] = y[[0]] * 3
        return (y * y).sum()


def test_int_tensor_and_list_indices_write_rows_of_the_first_dim_the_last_write_winning():
    x, _ = _inputs()
    out = ms.jit(_TensorIndex())(x, Tensor(np.array([1], np.int32)))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 2], [1, 1, 1]])     # MindSpore 2.10 GRAPH
    rng = np.random.default_rng(3)
    a, v = rng.standard_normal((4, 3)), rng.standard_normal((3, 3))
    i = np.array([2, -1, 2], np.int64)    # row 2 twice: the last value stays

    def reference(a, v):
        y = np.sin(a)
        y[i] = v * 2
        y[[0]] = y[[0]] * 3
        return float((y * y).sum())

    net = _RowsWritten()
    assert float(ms.jit(net)(Tensor(a), Tensor(i), Tensor(v)).asnumpy()) == pytest.approx(reference(a, v), rel=1e-12)
    d_a, d_v = ms.grad(net, grad_position=(0, 2))(Tensor(a), Tensor(i), Tensor(v))
    np.testing.assert_allclose(d_a.asnumpy(), central_difference(lambda t: reference(t, v), a), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(d_v.asnumpy(), central_difference(lambda t: reference(a, t), v), rtol=1e-6, atol=1e-8)
    assert not d_v.asnumpy()[0].any()   # overwritten by the second write to row 2


class _WrongShape(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[0] = ops.ones((2,), ms.float32)
        return y


def test_what_it_does_not_compile_is_refused_at_the_users_line():
    with pytest.raises(NotSupportedError, match=r"Parameter's elements") as error:
        ms.jit(_ParameterElement())(Tensor(np.float32(1.0)))
    assert "w[0] = x" in str(error.value)
    with pytest.raises(NotSupportedError, match=r"tensor or list indices mixed") as error:
        ms.jit(_MixedIndex())(Tensor(np.zeros((2, 3), np.float32)), Tensor(np.array([1], np.int32)))
    assert "y[i, 0] = 1.0" in str(error.value)
    with pytest.raises(ValueError, match=r"For 'setitem'") as error:
        ms.jit(_WrongShape())(Tensor(np.zeros((2, 3), np.float32)))
    assert "y[0] = ops.ones" in str(error.value)


def test_vmap_writes_each_samples_elements():
    def write(x, v):
        y = x * 2
        y[1:, 0] = v
        return y

    rng = np.random.default_rng(1)
    xs, vs = rng.standard_normal((4, 3, 2)).astype(np.float32), rng.standard_normal((4, 2)).astype(np.float32)
    out = ms.vmap(ms.jit(write))(Tensor(xs), Tensor(vs)).asnumpy()
    for k in range(4):
        expected = xs[k] * 2
        expected[1:, 0] = vs[k]
        np.testing.assert_array_equal(out[k], expected)
    shared = ms.vmap(ms.jit(write), in_axes=(None, 0))(Tensor(xs[0]), Tensor(vs)).asnumpy()
    for k in range(4):
        expected = xs[0] * 2
        expected[1:, 0] = vs[k]
        np.testing.assert_array_equal(shared[k], expected)


def test_the_forward_mode_derivative_is_the_assignment_of_the_tangents():
    def write(x, v):
        y = ops.sin(x)
        y[0] = v * v
        return y

    rng = np.random.default_rng(2)
    x, v = rng.standard_normal((2, 3)), rng.standard_normal(3)
    dx, dv = rng.standard_normal((2, 3)), rng.standard_normal(3)
    _, tangent = ms.jvp(write, (Tensor(x), Tensor(v)), (Tensor(dx), Tensor(dv)))
    expected = np.cos(x) * dx
    expected[0] = 2 * v * dv
    np.testing.assert_allclose(tangent.asnumpy(), expected, rtol=1e-12)


_INDICES = st.sampled_from([0, -1, slice(None), slice(1, None), slice(None, None, 2), (0, slice(1, 3)),
                            (Ellipsis, 1), (slice(None), None, 0), (1, 2)])


@settings(max_examples=25, deadline=None)
@given(index=_INDICES, scale=st.floats(-3, 3), seed=st.integers(0, 2**16))
def test_compiled_item_assignment_equals_numpys_and_its_gradient_central_differences(index, scale, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((3, 4))
    value = rng.standard_normal(np.shape(x[index]))

    class Write(nn.Cell):
        def construct(self, a, b):
            y = ops.tanh(a)
            y[index] = b * scale
            return (y * y * y).sum()

    def reference(a, b):
        y = np.tanh(a)
        y[index] = b * scale
        return float((y ** 3).sum())

    net = Write()
    assert float(ms.jit(net)(Tensor(x), Tensor(value)).asnumpy()) == pytest.approx(reference(x, value), rel=1e-12)
    d_x, d_v = ms.grad(net, grad_position=(0, 1))(Tensor(x), Tensor(value))
    np.testing.assert_allclose(d_x.asnumpy(), central_difference(lambda a: reference(a, value), x),
                               rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(d_v.asnumpy(), central_difference(lambda b: reference(x, b), value),
                               rtol=1e-5, atol=1e-7)


class _Chain(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[0] = y[0] * 2 + 1
        y[1] = y[1] * 2 + 1
        y[2:] = y[2:] * 2 + 1
        return y


class _Rows(nn.Cell):
    def construct(self, x):
        y = x * 1
        for i in range(3):
            y[i] = y[i] * 2 + 1
        return y


def test_a_new_array_read_nowhere_else_is_written_in_place_and_an_input_is_copied_once():
    x = np.arange(12.0).reshape(3, 4).astype(np.float32)
    out = ms.jit(_Chain())(Tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), x * 2 + 1)
    source = ms.jit(_Chain()).kernel_source(Tensor(x))
    assert source.count("np.array(") == 1 and "[2:] = " in source, source   # x copied once, rows written into it


def test_a_row_written_at_a_loops_index_in_a_loop_that_stays_a_loop():
    x = np.arange(12.0).reshape(3, 4).astype(np.float32)
    np.testing.assert_array_equal(ms.jit(_Rows())(Tensor(x)).asnumpy(), x * 2 + 1)
    source = ms.jit(_Rows()).kernel_source(Tensor(x))
    assert "for i in range(3):" in source and "[i] = " in source, source
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, 4))
    grad = ms.grad(lambda t: (_Rows()(t) ** 2).sum())(Tensor(a))
    np.testing.assert_allclose(grad.asnumpy(), 4 * (2 * a + 1), rtol=1e-12)


class _InLoop(nn.Cell):
    def construct(self, x, n):
        z = x * 2
        acc = x * 0
        k = Tensor(0, ms.int32)
        while k < n:
            w = z
            w[0] = w[0] + 1
            acc = acc + w
            k = k + 1
        return acc


def test_an_assignment_in_a_loop_to_an_array_made_before_it_starts_from_that_array_each_time():
    x = np.arange(6.0).reshape(2, 3).astype(np.float32)
    acc = ms.jit(_InLoop())(Tensor(x), Tensor(3, ms.int32))
    expected = 3 * (2 * x)
    expected[0] += 3
    np.testing.assert_array_equal(acc.asnumpy(), expected)


class _InBlocks(nn.Cell):
    def construct(self, x, n):
        y = x * 1
        k = Tensor(0, ms.int32)
        while k < n:
            y[0] = y[0] + 1
            k = k + 1
        if x.sum() > 0:
            y[1] += 5.0
        y[1:, ::2] *= 2
        return y


@pytest.mark.parametrize("sign", [1, -1])
def test_assignments_in_tensor_loops_and_branches_and_augmented_ones_rebind_the_name_there_too(sign):
    x = sign * np.arange(6.0).reshape(2, 3).astype(np.float32)
    expected = x.copy()
    expected[0] += 3
    if x.sum() > 0:
        expected[1] += 5.0
    expected[1:, ::2] *= 2
    np.testing.assert_array_equal(ms.jit(_InBlocks())(Tensor(x), Tensor(3, ms.int32)).asnumpy(), expected)
    np.testing.assert_array_equal(_InBlocks()(Tensor(x), Tensor(3, ms.int32)).asnumpy(), expected)


def test_vmap_of_rows_written_at_a_loops_index():
    def rows(x):
        y = x * 1
        for i in range(3):
            y[i] = y[i] * 2 + i
        return y

    xs = np.random.default_rng(5).standard_normal((4, 3, 2)).astype(np.float32)
    expected = xs * 2 + np.arange(3, dtype=np.float32).reshape(1, 3, 1)
    np.testing.assert_allclose(ms.vmap(ms.jit(rows))(Tensor(xs)).asnumpy(), expected, rtol=1e-6)



class _Recurrence(nn.Cell):
    def construct(self, x):
        out = ops.zeros((x.shape[0], x.shape[1]), x.dtype)
        h = x[0] * 0
        for t in range(x.shape[0]):
            h = ops.tanh(x[t] + h)
            out[t] = h
        return out


def test_a_sequence_written_row_by_row_is_an_empty_buffer_filled_in_place_and_differentiates():
    x = np.random.default_rng(6).standard_normal((12, 3))
    source = ms.jit(_Recurrence()).kernel_source(Tensor(x.astype(np.float32)))
    assert "np.empty((12, 3), np.float32)" in source and "out[t] = h" in source and ".copy()" not in source, source

    def reference(v):
        h, rows = np.zeros(3), []
        for t in range(12):
            h = np.tanh(v[t] + h)
            rows.append(h)
        return np.array(rows)

    np.testing.assert_allclose(ms.jit(_Recurrence())(Tensor(x)).asnumpy(), reference(x), rtol=1e-12)
    grad = ms.grad(lambda v: (_Recurrence()(v) ** 2).sum())(Tensor(x))
    expected = central_difference(lambda v: float((reference(v) ** 2).sum()), x)
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-6, atol=1e-8)


class _Selected(nn.Cell):
    def construct(self, x, rows):
        big = x[x > 0.5]
        return big.sum() * 2 + x[rows].mean(), big


def test_a_bool_mask_index_selects_elements_in_compiled_code_as_in_eager_code():
    rng = np.random.default_rng(7)
    x, rows = rng.standard_normal((4, 3)), np.array([True, False, True, True])
    out, big = ms.jit(_Selected())(Tensor(x), Tensor(rows))
    np.testing.assert_array_equal(big.asnumpy(), x[x > 0.5])                   # 1-D: the semantics doc, 11.3
    assert float(out.asnumpy()) == pytest.approx(x[x > 0.5].sum() * 2 + x[rows].mean(), rel=1e-12)
    eager_out, eager_big = _Selected()(Tensor(x), Tensor(rows))
    np.testing.assert_array_equal(big.asnumpy(), eager_big.asnumpy())
    grad = ms.grad(lambda a, m: _Selected()(a, m)[0])(Tensor(x), Tensor(rows))
    expected = central_difference(lambda a: float(a[x > 0.5].sum() * 2 + a[rows].mean()), x)
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-6, atol=1e-8)


class _AugmentedAtMaskAndCalls(nn.Cell):
    def construct(self, x):
        y = x * 1.0
        y[x > 0] *= 0.25                                        # a mask computed from x
        y[Tensor([[True, False, True], [False, True, False]])] += 2.0   # the index calls Tensor(...)
        y[Tensor([1, 0], ms.int32)] -= ops.sin(x)               # rows at a tensor index made in the code
        return y * x


def _augmented_reference(x):
    y = x * 1.0
    y[x > 0] *= 0.25
    y[np.array([[True, False, True], [False, True, False]])] += 2.0
    y[np.array([1, 0])] -= np.sin(x)
    return y * x


def test_augmented_assignment_at_a_bool_mask_or_an_index_that_calls_compiles_to_eagers_values_and_gradient():
    """Fuzz (fuzz9): ``y[mask] *= 0.25`` was desugared to ``y[mask] = y[mask] * 0.25``, a masked read of the mask's
    count of elements written back with ``where`` (a ValueError in ms.jit, an OpShapeError in ms.grad); and
    ``y[Tensor(...)] += v`` was refused because its index calls something (it must be evaluated once). The
    specializer now evaluates the index once and writes a mask's elements with ``where(mask, y * 0.25, y)``."""
    x = np.random.default_rng(3).uniform(-1, 1, (2, 3))
    want = _augmented_reference(x)
    np.testing.assert_allclose(ms.jit(_AugmentedAtMaskAndCalls())(Tensor(x)).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(_AugmentedAtMaskAndCalls()(Tensor(x)).asnumpy(), want, rtol=1e-12)
    grad = ms.grad(lambda a: _AugmentedAtMaskAndCalls()(a).sum())(Tensor(x))
    expected = central_difference(lambda a: float(_augmented_reference(a).sum()), x)
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-6, atol=1e-8)
    batched = ms.vmap(lambda a: _AugmentedAtMaskAndCalls()(a))(Tensor(np.stack([x, -x])))
    np.testing.assert_allclose(batched.asnumpy(), np.stack([want, _augmented_reference(-x)]), rtol=1e-12)
