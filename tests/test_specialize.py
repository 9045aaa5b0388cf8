"""Specialize: the Python subset of compiled code, evaluated at compile time or staged as ops."""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.compiler import ir, pipeline
from npspore.compiler.errors import NotSupportedError

from gradcheck import central_difference


def _t(*values):
    return Tensor(np.array(values, np.float32))


def test_print_runs_at_call_time(capsys):
    @ms.jit
    def shout(x):
        y = x * 2.0
        print("y is", y)
        return y

    shout(_t(1.0, 2.0))
    shout(_t(3.0, 4.0))
    out = capsys.readouterr().out.splitlines()
    assert out == ["y is [2. 4.]", "y is [6. 8.]"]


def test_enumerate_zip_dict_len_isinstance_and_unpacking():
    @ms.jit
    def program(pair, table):
        a, b = pair
        total = a * 0.0
        for i, (u, v) in enumerate(zip(pair, (b, a))):
            total = total + u * v * (i + 1)
        if isinstance(a, Tensor) and len(pair) == 2:
            total = total + table["bias"]
        return {"total": total, "count": len(table)}

    result = program((_t(1.0), _t(2.0)), {"bias": _t(10.0)})
    assert result["count"] == 1
    np.testing.assert_allclose(result["total"].asnumpy(), [1 * 2 * 1 + 2 * 1 * 2 + 10.0])


def test_break_and_continue_in_unrolled_loops():
    @ms.jit
    def skip_and_stop(x):
        out = x
        for k in (1.0, 2.0, 3.0, 4.0, 5.0):
            if k == 2.0:
                continue
            if k == 4.0:
                break
            out = out + k
        return out

    np.testing.assert_allclose(skip_and_stop(_t(0.0)).asnumpy(), [4.0])


def test_sequential_cell_items_and_nested_cells():
    seq = nn.SequentialCell([nn.Dense(3, 4, weight_init="ones", bias_init="zeros"), nn.ReLU(),
                             nn.Dense(4, 2, weight_init="ones", bias_init="ones")])
    x = _t(1.0, -2.0, 0.5).reshape((1, 3))
    np.testing.assert_allclose(ms.jit(seq)(x).asnumpy(), seq(x).asnumpy())


def test_graph_mode_checks_the_argument_count():
    class Two(nn.Cell):
        def construct(self, x, y):
            return x + y

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(TypeError, match="the function construct requires 2 positional argument, but got 1"):
            Two()(_t(1.0))
        with pytest.raises(TypeError, match="requires 2 positional argument and 0 default argument, total 2, but got 3"):
            Two()(_t(1.0), _t(1.0), _t(1.0))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_keyword_arguments_bind_to_positions():
    class Scale(nn.Cell):
        def construct(self, x, factor=2.0):
            return x * factor

    net = Scale()
    run = ms.jit(net)
    np.testing.assert_allclose(run(_t(1.0), factor=3.0).asnumpy(), [3.0])
    np.testing.assert_allclose(run(x=_t(1.0)).asnumpy(), [2.0])


def test_range_loop_stays_a_loop_and_index_is_usable_as_a_tensor():
    def accumulate(x):
        total = x * 0.0
        for i in range(1000):
            total = total + x * i
        return total

    program = pipeline.specialize_call(accumulate, (_t(1.0, 2.0),))
    loops = [s for s in program.module.functions[program.module.entry].body.stmts if isinstance(s, ir.ForRange)]
    assert len(loops) == 1                                    # not unrolled
    np.testing.assert_allclose(ms.jit(accumulate)(_t(1.0, 2.0)).asnumpy(), [499500.0, 999000.0])


def test_loop_needing_a_python_index_is_unrolled():
    class Pick(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scales = (1.0, 10.0, 100.0)

        def construct(self, x):
            out = x * 0.0
            for i in range(3):
                out = out + x * self.scales[i]
            return out

    np.testing.assert_allclose(ms.jit(Pick())(_t(1.0)).asnumpy(), [111.0])


class ColumnProducts(nn.Cell):
    """A range loop whose index bounds a slice (``x[:, i:i + 1]``) and is in an op's shape: both need the
    index as a Python int, so the loop is unrolled (fuzz7: a TypeError at the slice, an OpTypeError
    naming an internal ``TensorValue`` in the shape)."""

    def construct(self, x):
        y = x
        for i in range(3):
            y = ops.sin(y * x[:, i:i + 1]) + ops.ones((1, i + 1), ms.float64).sum(axis=1, keepdims=True)
        return y


def test_loop_index_bounding_a_slice_unrolls_the_loop():
    x = np.random.default_rng(0).uniform(-1.0, 1.0, (2, 3))
    net = ColumnProducts()
    eager = net(Tensor(x)).asnumpy()
    np.testing.assert_allclose(ms.jit(net)(Tensor(x)).asnumpy(), eager, rtol=1e-12, atol=1e-12)
    grad = ms.grad(net)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, central_difference(lambda a: float(net(Tensor(a)).asnumpy().sum()), x),
                               rtol=1e-6, atol=1e-8)


def test_slice_bound_from_a_tensor_counter_is_an_error_at_the_slice():
    @ms.jit
    def shifted(x):
        c = Tensor(0, ms.int32)
        y = x
        while c < 2:
            y = y * x[:, c:c + 1]
            c += 1
        return y

    with pytest.raises(TypeError, match="a Python constant is needed") as info:
        shifted(Tensor(np.ones((2, 3))))
    assert "y = y * x[:, c:c + 1]" in str(info.value)


class IndexScaled(nn.Cell):
    """Python floats made of a range loop's index (``0.1 * i``, ``(i + 1) / 3``): MindSpore's
    graph mode unrolls the loop and computes them in Python, so the loop is unrolled (fuzz7: staged, the
    index was an Int64 tensor and ``0.1 * i`` a Float32 one, a Float64 result off in its 8th digit)."""

    def construct(self, x):
        y = x
        for i in range(3):
            y = ops.sin(y) * (1 + 0.1 * i) + (i + 1) / 3
        return y


def _shifted_by_index(y, i):
    return y + (i + 1) / 3


class IndexShiftedInHelper(nn.Cell):
    """The float made of the index in a function the loop calls (the index passed as an ``IndexSlot``)."""

    def construct(self, x):
        y = x
        for i in range(3):
            y = _shifted_by_index(ops.sin(y), i)
        return y


class IndexNegated(nn.Cell):
    """The float made of ``-i`` (a Python int too)."""

    def construct(self, x):
        y = x
        for i in range(3):
            y = ops.sin(y) * (-i * 0.1 + 1)
        return y


@pytest.mark.parametrize("net", [IndexScaled(), IndexShiftedInHelper(), IndexNegated()],
                         ids=["body", "helper", "negated"])
def test_python_floats_of_a_loop_index_are_computed_as_python_computes_them(net):
    x = np.random.default_rng(2).uniform(-1.0, 1.0, (2, 3))
    np.testing.assert_array_equal(ms.jit(net)(Tensor(x)).asnumpy(), net(Tensor(x)).asnumpy())
    grad = ms.grad(net)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, central_difference(lambda a: float(net(Tensor(a)).asnumpy().sum()), x),
                               rtol=1e-6, atol=1e-8)


class ScaledUntilLarge(nn.Cell):
    """A range loop with a tensor ``break`` whose body indexes a tuple and a slice with its index and
    makes a float of it: unrolled, the iterations after a tensor break under ``if not broke`` (fuzz7: the
    loop was staged as a while whatever its body needed, a TypeError at ``self.scales[i]``)."""

    def __init__(self):
        super().__init__()
        self.scales = (1.5, 2.0, 3.0, 0.5)

    def construct(self, x):
        y = x
        for i in range(4):
            y = ops.sin(y) * self.scales[i] + x[:, i % 3:i % 3 + 1]
            if y.sum() > 0.5:
                break
            y = y * (1 + 0.1 * i)
        return y * 2


@pytest.mark.parametrize("scale", [-1.0, -0.1, -0.05, 1.0])   # breaking at iteration 0, 1, 2, never
def test_range_loop_with_a_tensor_break_needing_its_index_is_unrolled(scale):
    x = scale * np.random.default_rng(0).uniform(-1.0, 1.0, (2, 3))
    net = ScaledUntilLarge()
    np.testing.assert_array_equal(ms.jit(net)(Tensor(x)).asnumpy(), net(Tensor(x)).asnumpy())
    grad = ms.grad(net)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, central_difference(lambda a: float(net(Tensor(a)).asnumpy().sum()), x),
                               rtol=1e-6, atol=1e-7)


def test_a_loop_too_long_to_unroll_keeps_its_index_a_tensor():
    @ms.jit
    def decayed(x):
        y = x
        for i in range(1000):
            y = y + 0.5 * i
        return y

    np.testing.assert_allclose(decayed(Tensor(np.zeros(2))).asnumpy(), [249750.0, 249750.0])


class StackedByTensor(nn.Cell):
    """``Tensor(...)`` of lists holding tensor values: a kept loop's index among ints, a matrix of
    elements (fuzz7: the compiler passed its staged values to the Tensor constructor, a TypeError
    naming an internal ``TensorValue``)."""

    def construct(self, x):
        y = x
        for i in range(3):
            y = y * ops.gather(x, Tensor([i, 0, 1], ms.int32), 1)
        m = Tensor([[x[0, 0], 1.0], [2.0, x[1, 1] * 3.0]], ms.float64)
        return ops.matmul(m, y[:, :2]), Tensor([x.sum(), 0.5])


def test_tensor_of_a_list_holding_tensor_values_is_stacked_as_eager_mode_makes_it():
    x = np.random.default_rng(1).uniform(-1.0, 1.0, (2, 3))
    net = StackedByTensor()
    eager = [t.asnumpy() for t in net(Tensor(x))]
    compiled = [t.asnumpy() for t in ms.jit(net)(Tensor(x))]
    assert [c.dtype for c in compiled] == [np.float64, np.float32] == [e.dtype for e in eager]
    for got, want in zip(compiled, eager):
        np.testing.assert_array_equal(got, want)       # rounded to Float32 first, as eager mode does
    grad = ms.grad(lambda a: net(a)[0].sum())(Tensor(x)).asnumpy()
    # eager mode rounds the list to Float32: central differences of a wide step are exact enough
    expected = central_difference(lambda a: float(net(Tensor(a))[0].asnumpy().sum()), x, eps=1e-3)
    np.testing.assert_allclose(grad, expected, rtol=0, atol=5e-5)


def test_tensor_of_a_list_mixing_a_value_read_and_tensor_values_follows_each_call():
    @ms.jit
    def summary(x):
        return Tensor([float(x.sum()), x.max()], ms.float64) * 2

    for x in (np.array([[0.25, -1.5], [2.0, 0.125]]), np.array([[1.0, 3.0], [-2.0, 0.5]])):
        expected = np.array([x.sum(), x.max()], np.float32).astype(np.float64) * 2   # as eager mode rounds
        np.testing.assert_array_equal(summary(Tensor(x)).asnumpy(), expected)


def test_tensor_if_with_different_shapes_is_an_error_where_the_name_is_read():
    @ms.jit
    def bad(x):
        if x.sum() > 0:
            y = x
        else:
            y = x.sum()
        return y

    with pytest.raises(TypeError, match="'y' has shape/dtype float32\\[2\\] in one branch"):
        bad(_t(1.0, 2.0))


def test_value_assigned_in_one_branch_only_is_an_error_when_read():
    @ms.jit
    def half_defined(x):
        if x.sum() > 0:
            y = x
        return y

    with pytest.raises(NameError, match="'y' is assigned in only one branch"):
        half_defined(_t(1.0))


def test_and_or_on_tensors_explain_the_fix():
    @ms.jit
    def both(x, y):
        return (x > 0) and (y > 0)

    with pytest.raises(NotSupportedError, match="use ops.logical_and/ops.logical_or"):
        both(_t(1.0), _t(1.0))


def test_python_scalars_and_nested_structures_are_returned_as_python_values():
    @ms.jit
    def structure(x):
        return (x, (x + 1.0, 3)), [x * 2.0], None, "tag"

    (a, (b, three)), [c], none, tag = structure(_t(1.0))
    assert three == 3 and none is None and tag == "tag"
    np.testing.assert_allclose([a.asnumpy()[0], b.asnumpy()[0], c.asnumpy()[0]], [1.0, 2.0, 2.0])


def test_parameter_methods_are_available_in_construct():
    class UsesValue(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(_t(2.0), name="w")

        def construct(self, x):
            return x * self.w.value()

    np.testing.assert_allclose(ms.jit(UsesValue())(_t(3.0)).asnumpy(), [6.0])


def test_a_tensor_made_in_construct_is_a_constant():
    class AddsConstant(nn.Cell):
        def construct(self, x):
            return x + Tensor([1.0, 2.0], ms.float32) * ops.ones((2,), ms.float32)

    net = AddsConstant()
    from npspore.jit import cell_kernel_source

    source = cell_kernel_source(net, _t(0.0, 0.0))
    assert "_c0 = np.array([1.0, 2.0], dtype=np.float32)" in source
    np.testing.assert_allclose(ms.jit(net)(_t(0.0, 0.0)).asnumpy(), [1.0, 2.0])


def test_tensor_dependent_break_and_continue_in_range_loops():
    def until_large(x):
        total = x * 0.0
        for i in range(10):
            if total.sum() > 20.0:
                break
            if i % 2 == 1:
                continue
            total = total + x * i
        return total

    compiled = ms.jit(until_large)
    for start in (_t(1.0, 2.0), _t(0.1, 0.1), _t(-1.0, 0.5)):
        np.testing.assert_allclose(compiled(start).asnumpy(), until_large(start).asnumpy(), rtol=1e-6)
    program = pipeline.specialize_call(until_large, (_t(1.0, 2.0),))
    body = program.module.functions[program.module.entry].body.stmts
    assert any(isinstance(s, ir.While) for s in body)          # a loop, with a 'broke' flag


def test_tensor_dependent_break_in_while_loop():
    def halve_until_small(x):
        steps = x.sum() * 0.0
        while x.sum() > 1.0:
            x = x * 0.5
            steps = steps + 1.0
            if steps > 3.0:
                break
        return x, steps

    compiled = ms.jit(halve_until_small)
    for start in (_t(8.0), _t(100.0), _t(0.5)):
        got, want = compiled(start), halve_until_small(start)
        np.testing.assert_allclose(got[0].asnumpy(), want[0].asnumpy())
        np.testing.assert_allclose(got[1].asnumpy(), want[1].asnumpy())


def test_tensor_dependent_break_in_a_loop_over_python_values_works():
    def over_tuple(x):
        for k in (1.0, 2.0):
            if x.sum() > k:
                break
            x = x + k
        return x

    for start in (0.0, 1.5, 3.0):
        np.testing.assert_allclose(ms.jit(over_tuple)(_t(start)).asnumpy(), over_tuple(_t(start)).asnumpy())



def test_a_return_on_some_tensor_paths_only_is_explained():
    def positive_part(x):
        if x.sum() > 0.0:
            if x.sum() > 1.0:
                return x

    with pytest.raises(NotSupportedError, match="otherwise ends without 'return'"):
        ms.jit(positive_part)(_t(2.0))
