"""compiler.naming: values named after what they hold, SSA copies coalesced, op-named temporaries read once
written inside the expression that reads them; the kernels compute what eager code computes."""
import re

import numpy as np

import npspore as ms
from npspore import Tensor, nn, ops
from catalogue import TanhRNN


class _TwoLayers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 6, weight_init="ones", bias_init="zeros")
        self.fc2 = nn.Dense(6, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc2(ops.tanh(self.fc1(x)))


def _code_lines(source: str) -> list:
    """The statements of the kernel's functions, without indentation and trailing comments."""
    return [line.split("  #")[0].strip() for line in source.splitlines() if line.startswith("    ")]


def test_a_sub_cell_call_is_named_after_the_attribute_that_holds_the_cell():
    net = _TwoLayers()
    x = Tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4))
    source = ms.jit(net).kernel_source(x)
    lines = _code_lines(source)
    assert any(line.startswith("fc1 = Dense_construct(x,") for line in lines), source
    assert any(line.startswith("fc2 = Dense_construct(") for line in lines), source
    np.testing.assert_allclose(ms.jit(net)(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)


def test_a_loop_carried_value_keeps_one_name_without_copies_in_and_out_of_the_loop():
    net = TanhRNN()
    xs = Tensor(np.random.default_rng(0).standard_normal((4, 2, 3)).astype(np.float32))
    h = Tensor(np.zeros((2, 5), np.float32))
    grad = ms.grad(net, grad_position=(0, 1), weights=net.trainable_params())
    source = grad.kernel_source(xs, h)
    copies = [line for line in _code_lines(source) if re.fullmatch(r"\w+ = \w+", line)]
    # h is also written into the history's first row, so the loop's h starts as a copy; d_h_3 is read
    # after d_h_1 is made: those two copies stay, none at the end of the forward loop
    assert copies == ["h_1 = h", "d_h_3 = d_h_1"], copies
    assert "h_1 = h_1 @ wh" in _code_lines(source), source
    (_, d_h), _ = grad(xs, h)
    np.testing.assert_allclose(d_h.asnumpy(), _gradient_of_initial_state(net, xs.asnumpy(), h.asnumpy()),
                               rtol=1e-4, atol=1e-6)


def test_a_loop_over_large_rows_keeps_its_history_buffer_alive_until_read():
    net = TanhRNN(steps=32, features=64, hidden=128)
    for weight in (net.wx, net.wh):   # a contracting recurrence: float32 follows the float64 reference
        weight.set_data(Tensor(weight.asnumpy() * 0.1))
    xs = Tensor((0.1 * np.random.default_rng(0).standard_normal((32, 16, 64))).astype(np.float32))
    h = Tensor(np.zeros((16, 128), np.float32))
    (_, d_h), _ = ms.grad(net, grad_position=(0, 1), weights=net.trainable_params())(xs, h)
    np.testing.assert_allclose(d_h.asnumpy(), _gradient_of_initial_state(net, xs.asnumpy(), h.asnumpy()),
                               rtol=1e-3, atol=1e-6)


def _gradient_of_initial_state(net, xs, h):
    """d sum(h_T ** 2) / d h_0 of the tanh RNN, written directly in NumPy (float64)."""
    wx, wh, b = (p.asnumpy().astype(np.float64) for p in (net.wx, net.wh, net.b))
    states = [h.astype(np.float64)]
    for t in range(net.steps):
        states.append(np.tanh(xs[t] @ wx + states[-1] @ wh + b))
    d = 2 * states[-1]
    for t in reversed(range(net.steps)):
        d = (d * (1 - states[t + 1] ** 2)) @ wh.T
    return d


def test_op_named_values_read_once_are_written_inside_the_expression_that_reads_them():
    net = _TwoLayers()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=0.01)
    step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer))
    x = Tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4))
    y = Tensor(np.ones((2, 2), np.float32))
    source = step.kernel_source(x, y)
    lines = _code_lines(source)
    # (NumPy 1.26 promotes a Python scalar by value: codegen writes float32 casts there)
    plain = [line.replace("np.float32(", "(") for line in lines]
    # the powers are updated in their Parameters' arrays (0-d, in place), and lr_t reads them there
    assert "beta1_power *= beta1" in plain and "beta2_power *= beta2" in plain, source
    assert any(re.fullmatch(r"lr_t = learning_rate \* np\.sqrt\(\(?1 - beta2_power\)?\) / \(1 - beta1_power\)", line)
               for line in plain), source
    assert sum(re.fullmatch(r"one_minus_beta1 = \(?1 - beta1\)?", line) is not None for line in plain) == 1, source
    eager_net = _TwoLayers()
    eager_step = nn.TrainOneStepCell(nn.WithLossCell(eager_net, nn.MSELoss()),
                                     nn.Adam(eager_net.trainable_params(), learning_rate=0.01))
    for _ in range(3):
        loss, expected = step(x, y), eager_step(x, y)
        np.testing.assert_allclose(loss.asnumpy(), expected.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(net.fc1.weight.asnumpy(), eager_net.fc1.weight.asnumpy(), rtol=1e-5)


def _stacked_alone(x):
    return ops.sum(ops.stack((x,), 0) * 3.0)


def test_a_one_result_op_returning_a_tuple_is_unpacked_not_written_inside_its_reader():
    d_x = ms.grad(_stacked_alone)(Tensor(np.array(0.5)))   # the adjoint splits one row off: ``row, = np.split(...)``
    assert d_x.shape == ()
    np.testing.assert_allclose(d_x.asnumpy(), 3.0)


def test_a_branch_hands_its_value_out_under_the_ifs_output_name():
    import catalogue
    net = catalogue.GatedCell()
    x = Tensor(np.ones((2, 3), np.float32))
    lines = _code_lines(ms.jit(net).kernel_source(x))
    outputs = [line.split(" = ")[0] for line in lines if line.endswith(("= x + x", "= x - 1.0"))]
    assert len(outputs) == 2 and outputs[0] == outputs[1], lines          # both branches write the if's output
    assert not any(re.fullmatch(rf"{outputs[0]} = \w+", line) for line in lines), lines   # no copy after


def _returning_within(steps):
    """A loop of ``steps`` steps whose tensor ``if`` may return (one ``if`` per step once unrolled)."""
    def returns_within(x):
        for _ in range(steps):
            x = x * 0.5 + 1.0
            if x.sum() > 100.0:
                return x * 2.0
        return x
    return returns_within


def test_branch_values_are_named_in_walks_that_do_not_grow_with_the_number_of_ifs(monkeypatch):
    """A loop whose tensor ``if`` returns unrolls into one ``if`` per step; naming the values its branches hand
    out walks the function's variables as often for 12 steps as for 3, not once per ``if`` and output (which
    made a gradient of such a loop take seconds to name)."""
    from npspore.compiler import naming
    walks = []
    variables = naming._variables
    monkeypatch.setattr(naming, "_variables", lambda function: walks.append(function) or variables(function))
    counts = []
    for steps in (3, 12):
        fn = _returning_within(steps)
        walks.clear()
        x = Tensor(np.array([0.5, 1.0]))
        np.testing.assert_allclose(ms.grad(fn)(x).asnumpy(), [0.5 ** steps] * 2)   # x stays below 2: no return
        counts.append(len(walks))
    assert counts[0] > 0 and counts[0] == counts[1], counts


class _NestedLoops(nn.Cell):
    """The fuzzer's seed 60: the outer loop's gradient leaves its inner loop under the inner loop variable's name,
    which the outer loop's next value must not take while that output is still to be read."""

    def construct(self, x1, x2):
        n0 = Tensor(0, ms.int32)
        while n0 < 1:
            n0 = n0 + 1
            v1 = x1 * -1.25
            for _ in range(3):
                x1 = x1 + v1 * x2
        return ops.sum(ops.cos(ops.sigmoid(x1)))


def test_an_inner_loops_output_keeps_its_name_until_read_in_the_outer_loop():
    rng = np.random.default_rng(0)
    x1, x2 = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    net = _NestedLoops()
    got = ms.grad(net, grad_position=0)(Tensor(x1), Tensor(x2)).asnumpy()
    expected = np.zeros_like(x1)
    for index in np.ndindex(x1.shape):
        up, down = x1.copy(), x1.copy()
        up[index] += 1e-6
        down[index] -= 1e-6
        expected[index] = (float(net(Tensor(up), Tensor(x2)).asnumpy())
                           - float(net(Tensor(down), Tensor(x2)).asnumpy())) / 2e-6
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


class _LoopInLoop(nn.Cell):
    """The fuzzer's seed 603: the inner loop's counter starts from a value the outer loop made once (hoisted:
    loop-invariant), so the inner loop must not count up under that value's name (the next outer iteration
    would start where the last stopped)."""

    def construct(self, x0, x1):
        for _ in range(2):
            c1 = x1.sum() * 0.0
            while c1 < 1:
                c1 = c1 + 1.0
                x0 = x0 + x0
        return x0


def test_a_loop_entered_again_by_an_outer_loop_starts_from_its_initial_value_each_time():
    x0 = np.arange(6.0).reshape(2, 3)
    got = ms.jit(_LoopInLoop())(Tensor(x0), Tensor(np.ones((2, 3))))
    np.testing.assert_array_equal(got.asnumpy(), 4 * x0)   # each outer iteration doubles once
