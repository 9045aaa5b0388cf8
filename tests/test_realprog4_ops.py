"""Ops and compiled-code patterns of the fourth round of real MindSpore programs (MindSpore's own
``tests/st/ops/cpu`` and ``tests/st/nn`` files), each as our own minimal program, with the values
MindSpore 2.10 (CPU) gives, eagerly and compiled."""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.ops import operations as P


class Call(nn.Cell):
    """A Cell calling ``fn`` on its inputs (a primitive or a functional op)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        return self.fn(*args)


def _grads(fn, *args, sens=None, jit=False):
    """``GradOperation(get_all=True)`` of ``Call(fn)`` as arrays, eager or compiled (a jit Cell)."""
    grad = ops.GradOperation(get_all=True, sens_param=sens is not None)(Call(fn))
    run = ms.jit(grad) if jit else grad
    out = run(*args) if sens is None else run(*args, sens)
    return [g.asnumpy() for g in out]


# ---------------------------------------------------------------- primitives


def test_set_device_records_the_target_and_keeps_the_primitive():
    add = ops.Add()
    assert add.set_device("CPU") is add
    assert add.primitive_target == "CPU"
    assert "primitive_target=CPU" in repr(P.AdamWeightDecay().set_device("CPU"))
    np.testing.assert_array_equal(add(Tensor([1.0]), Tensor([2.0])).asnumpy(), [3.0])


@pytest.mark.parametrize("jit", [False, True])
def test_fmax_gives_a_tie_to_the_first_input(jit):
    """MindSpore 2.10's values: int64 (ties at [0, 2] and [0, 3]) and float32 with NaNs."""
    x1 = Tensor(np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.int64))
    x2 = Tensor(np.array([4, 4, 3, 3], np.int64))
    np.testing.assert_array_equal(ops.fmax(x1, x2).asnumpy(), [[4, 4, 3, 4], [5, 6, 7, 8]])
    d1, d2 = _grads(ops.fmax, x1, x2, jit=jit)
    np.testing.assert_array_equal(d1, [[0, 0, 1, 1], [1, 1, 1, 1]])
    np.testing.assert_array_equal(d2, [1, 1, 0, 0])
    f1 = Tensor(np.array([[1, 2, 3, 4], [5, np.nan, 7, 8]], np.float32))
    f2 = Tensor(np.array([4, 4, 3, np.nan], np.float32))
    np.testing.assert_array_equal(ops.fmax(f1, f2).asnumpy(), [[4, 4, 3, 4], [5, 4, 7, 8]])
    d1, d2 = _grads(ops.fmax, f1, f2, jit=jit)
    np.testing.assert_array_equal(d1, [[0, 0, 1, 1], [1, 0, 1, 1]])
    np.testing.assert_array_equal(d2, [1, 2, 0, 0])


@pytest.mark.parametrize("op", [ops.Maximum(), ops.Minimum()])
@pytest.mark.parametrize("jit", [False, True])
def test_maximum_and_minimum_give_both_sides_the_gradient_where_one_is_nan(op, jit):
    """MindSpore 2.10's MaximumGrad/MinimumGrad: NaN on either side gives both sides all of ``dout``, a tie half."""
    x = Tensor(np.array([1.0, np.nan, np.nan, 2.0, 3.0, 1.0], np.float32))
    y = Tensor(np.array([np.nan, 1.0, np.nan, 2.0, 1.0, 3.0], np.float32))
    dout = Tensor(np.array([1, 2, 3, 4, 5, 6], np.float32))
    dx, dy = _grads(op, x, y, sens=dout, jit=jit)
    larger, smaller = [1, 2, 3, 2, 5, 0], [1, 2, 3, 2, 0, 6]
    np.testing.assert_array_equal(dx, larger if isinstance(op, ops.Maximum) else smaller)
    np.testing.assert_array_equal(dy, smaller if isinstance(op, ops.Maximum) else larger)


@pytest.mark.parametrize("jit", [False, True])
def test_prelu_of_a_0d_input_is_0d_and_its_weight_gradient_keeps_its_shape(jit):
    x, w = Tensor(np.float32(-1.0)), Tensor(np.array([0.2], np.float32))
    out = (ms.jit(Call(ops.PReLU())) if jit else Call(ops.PReLU()))(x, w)
    assert out.shape == ()
    np.testing.assert_allclose(out.asnumpy(), -0.2, rtol=1e-6)
    dx, dw = _grads(ops.PReLU(), x, w, jit=jit)
    assert dx.shape == () and dw.shape == (1,)
    np.testing.assert_allclose(dx, 0.2, rtol=1e-6)
    np.testing.assert_allclose(dw, [-1.0])


def test_prelu_refuses_a_weight_per_element_of_a_1d_input():
    with pytest.raises(ValueError, match="number of channels: 1, but got"):
        ops.PReLU()(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))


def test_tensor_index_add_takes_both_overloads():
    x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32))
    index = Tensor([0, 2], ms.int32)
    source = Tensor(np.array([[0.5, 1.0], [1.0, 1.5], [2.0, 2.5]], np.float32))
    expected = [[1.5, 2, 4], [5, 5, 7.5], [9, 8, 11.5]]   # MindSpore 2.10, both overloads
    for out in (x.index_add(1, index, source), x.index_add(dim=1, index=index, source=source),
                x.index_add(index, source, 1), x.index_add(index, source, axis=1)):
        np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(x.index_add(1, index, source, alpha=2).asnumpy(),
                                  [[2, 2, 5], [6, 5, 9], [11, 8, 14]])


# ---------------------------------------------------------------- NLLLoss and a sensitivity held by the Cell


class NLLLossGrad(nn.Cell):
    """MindSpore's tests/st NLLLoss pattern: the sensitivity is a tuple of Tensors stored on the Cell."""

    def __init__(self, sens):
        super().__init__()
        self.forward = Call(P.NLLLoss(reduction="none"))
        self.grad = ops.GradOperation(get_all=True, sens_param=True)
        self.sens = sens

    def construct(self, x, t, w):
        return self.grad(self.forward)(x, t, w, self.sens)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_sensitivity_held_by_the_cell_reaches_the_staged_gradient(mode):
    logits = Tensor(np.array([[-1.3739, -2.2700, -3.2333, -2.4589, -0.6566],
                              [-1.2156, -2.6026, -1.2200, -1.8731, -1.7119]], np.float32))
    target = Tensor(np.array([1, 4], np.int32))
    weight = Tensor(np.array([0.2, 0.3, 0.1, 0.15, 0.25], np.float32))
    loss, total = P.NLLLoss(reduction="none")(logits, target, weight)
    np.testing.assert_allclose(loss.asnumpy(), [0.681, 0.427975], rtol=1e-5)
    ms.set_context(mode=mode)
    try:
        dx, dt, dw = NLLLossGrad((loss + 0.5, total + 0.5))(logits, target, weight)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    expected = np.zeros((2, 5), np.float32)
    expected[0, 1], expected[1, 4] = -0.35430002, -0.23199375    # MindSpore 2.10
    np.testing.assert_allclose(dx.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(dt.asnumpy(), [0, 0])
    np.testing.assert_array_equal(dw.asnumpy(), np.zeros(5))       # the kernel's: no weight gradient


# ---------------------------------------------------------------- dynamic shapes (set_inputs)


class Queries(nn.Cell):
    def construct(self, x):
        return ops.size(x), P.Size()(x), ops.shape(x), P.Shape()(x), x.size


def test_shape_and_size_ops_of_a_dynamic_dim_read_its_size_when_the_kernel_runs():
    net = Queries()
    net.set_inputs(Tensor(shape=[3, None], dtype=ms.float32))
    for cols in (4, 6):
        size, prim_size, shape, prim_shape, attr = ms.jit(net)(Tensor(np.ones((3, cols), np.float32)))
        assert int(size) == int(prim_size) == int(attr) == 3 * cols
        assert [int(d) for d in shape] == [int(d) for d in prim_shape] == [3, cols]


class Dense1d(nn.Cell):
    def construct(self, x, w, b):
        return ops.matmul(x, w) + b


def test_a_placeholder_without_a_shape_is_of_dynamic_rank():
    """MindSpore's dense test: ``set_inputs(Tensor(dtype=...))`` accepts inputs of any rank."""
    net = Dense1d()
    b = Tensor(np.float32(7))
    net.set_inputs(Tensor(dtype=ms.float32), Tensor(dtype=ms.float32), b)
    one_d = ms.jit(net)(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([1, 2, 3], np.float32)), b)
    np.testing.assert_allclose(one_d.asnumpy(), 21.0)
    x, w = np.arange(6, dtype=np.float32).reshape(2, 3), np.ones((3, 2), np.float32)
    np.testing.assert_allclose(ms.jit(net)(Tensor(x), Tensor(w), b).asnumpy(), x @ w + 7)


class MomentumOfRows(nn.Cell):
    """MindSpore's momentum test: the gradient's rows are gathered by unique indices (a dynamic shape)."""

    def __init__(self, variable):
        super().__init__()
        self.variable = Parameter(Tensor(variable), name="variable")
        self.accumulation = Parameter(Tensor(variable), name="accumulation")

    def construct(self, learning_rate, gradient, momentum):
        return P.ApplyMomentum()(self.variable, self.accumulation, learning_rate, gradient, momentum)


def test_apply_momentum_takes_a_gradient_of_dynamic_shape():
    start = np.arange(10, dtype=np.float32).reshape(2, 5) / 10
    gradient = np.arange(24, 34, dtype=np.float32).reshape(2, 5)
    lr, momentum = Tensor(np.float32(0.1)), Tensor(np.float32(0.9))
    eager = MomentumOfRows(start)
    eager(lr, Tensor(gradient), momentum)
    compiled = MomentumOfRows(start)
    compiled.set_inputs(lr, Tensor(shape=[None, None], dtype=ms.float32), momentum)
    ms.jit(compiled)(lr, Tensor(gradient), momentum)
    np.testing.assert_allclose(compiled.variable.asnumpy(), start - 0.1 * (0.9 * start + gradient), rtol=1e-6)
    np.testing.assert_array_equal(compiled.variable.asnumpy(), eager.variable.asnumpy())


def test_gather_elements_of_dynamic_shapes_agree_where_a_dim_is_dynamic():
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    index = np.array([[0, 1], [1, 0], [0, 0], [1, 1], [0, 1]], np.int64)
    net = Call(lambda a, i: ops.gather_elements(a, 1, i))
    net.set_inputs(Tensor(shape=[None, 2], dtype=ms.float32), Tensor(shape=[5, None], dtype=ms.int64))
    out = ms.jit(net)(Tensor(x), Tensor(index))
    np.testing.assert_array_equal(out.asnumpy(), np.take_along_axis(x, index, 1))


def test_pad_takes_paddings_of_at_most_four_dims():
    with pytest.raises(ValueError, match="only 'paddings' up to 4 dims is supported, but got 5"):
        nn.Pad(paddings=((0, 0), (0, 0), (0, 0), (0, 0), (1, 0)))
    out = nn.Pad(paddings=((0, 0), (1, 0)))(Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 1], [0, 1, 1]])


# ---------------------------------------------------------------- a custom optimizer over map_reverse


_sgd_step = ops.MultitypeFuncGraph("sgd_step")


@_sgd_step.register("Tensor", "Tensor", "Tensor")
def _sgd_step_tensor(lr, param, gradient):
    return ops.assign(param, param - lr * gradient)


class MapSGD(nn.Optimizer):
    """MindSpore's tests/st AdamWeightDecayOp pattern: the update applied with the optimizer's ``map_reverse``."""

    def construct(self, gradients):
        return self.map_reverse(ops.partial(_sgd_step, self.get_lr()), self.parameters, gradients)


@pytest.mark.parametrize("jit", [False, True])
def test_an_optimizer_applies_its_update_with_map_reverse_and_hyper_map(jit):
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    optimizer = MapSGD(0.5, net.trainable_params())
    assert isinstance(optimizer.map_, ops.Map) and isinstance(optimizer.hyper_map_reverse, ops.HyperMap)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer)
    x, y = Tensor(np.array([[1.0, 2.0, 3.0]], np.float32)), Tensor(np.array([[1.0, 2.0]], np.float32))
    loss = (ms.jit(step) if jit else step)(x, y)
    np.testing.assert_allclose(loss.asnumpy(), 20.5)               # ((6 - 1)² + (6 - 2)²) / 2
    np.testing.assert_allclose(net.weight.asnumpy(), [[-1.5, -4.0, -6.5], [-1.0, -3.0, -5.0]])
    np.testing.assert_allclose(net.bias.asnumpy(), [-2.5, -2.0])


# ---------------------------------------------------------------- the LSTM primitive's projection


class ProjectedLSTM(nn.Cell):
    def __init__(self, weights):
        super().__init__()
        self.lstm = P.LSTM(3, 4, 1, False, False, 0.0, 2)
        self.w = Parameter(Tensor(weights.reshape(-1, 1, 1)), name="w")

    def construct(self, x, h, c):
        out, h_n, c_n, _, _ = self.lstm(x, h, c, self.w)
        return out, h_n, c_n


@pytest.mark.parametrize("jit", [False, True])
def test_lstm_primitive_projects_the_hidden_state(jit):
    """MindSpore 2.10's values: the projection ``(proj_size, hidden_size)`` follows the hidden-to-hidden matrix."""
    rng = np.random.RandomState(0)
    weights = rng.uniform(-0.5, 0.5, 4 * 4 * (3 + 2) + 2 * 4).astype(np.float32)
    x, h0, c0 = (rng.randn(*shape).astype(np.float32) for shape in ((3, 2, 3), (1, 2, 2), (1, 2, 4)))
    net = ProjectedLSTM(weights)
    out, h_n, c_n = (ms.jit(net) if jit else net)(Tensor(x), Tensor(h0), Tensor(c0))
    assert out.shape == (3, 2, 2) and h_n.shape == (1, 2, 2) and c_n.shape == (1, 2, 4)
    np.testing.assert_allclose(out.asnumpy().ravel()[:4], [0.037562, -0.04517, -0.039363, 0.002562], atol=2e-6)
    np.testing.assert_allclose(h_n.asnumpy().ravel()[:4], [0.15313, -0.092914, 0.039271, -0.042258], atol=2e-6)
    np.testing.assert_allclose(c_n.asnumpy().ravel()[:4], [-0.320525, 0.001406, -0.261183, 0.393881], atol=2e-6)
    dx, dh, dc = _grads(net, Tensor(x), Tensor(h0), Tensor(c0), jit=jit)
    np.testing.assert_allclose(dx.ravel()[:3], [0.026631, -0.048943, 0.042262], atol=2e-6)
    np.testing.assert_allclose(dh.ravel()[:3], [0.067342, -0.017022, 0.010741], atol=2e-6)
    np.testing.assert_allclose(dc.ravel()[:3], [-0.006253, 0.052299, -0.169365], atol=2e-6)


def test_lstm_primitive_projects_one_layer_in_one_direction_only():
    with pytest.raises(ValueError, match="one layer in one direction only"):
        P.LSTM(3, 4, 2, False, False, 0.0, 2)
    with pytest.raises(ValueError, match=r"must be an int in \[0, hidden_size\)"):
        P.LSTM(3, 4, 1, False, False, 0.0, 4)
