"""Values carried by a loop that stays a loop (issue 23): a Tensor built in compiled code is a value of
the IR like any other, so a ``while`` over a counter ``c = Tensor(0, ms.int32)`` carries ``c`` through
the loop (it once evaluated ``c < 2`` once, before the loop, and dropped ``c = c + 1``: the kernel
never returned). Each program is checked against eager execution and float64 central differences;
the kernel is inspected before it runs, so a loop that would not end fails instead of hanging.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops

from test_regressions import T, assert_close, fd_grad


def counted(x):
    y = x
    c = Tensor(0, ms.int32)
    while c < 2:
        y = y * x + 1.0
        c = c + 1
    return y


def counted_in_branch(x):
    y = x
    if x.sum() > 0:
        c = Tensor(0, ms.int32)
        while c < 3:
            y = y + x * 0.5
            c = c + 1
    return y


def counted_with_tensor_condition(x):
    c = Tensor(0, ms.int32)
    while (c < 4) & (ops.abs(x).sum() < 20.0):
        x = x * 1.5 + 0.25
        c = c + 1
    return x * c


def accumulated_constant(x):
    acc = Tensor(np.array([1.0, -2.0]), ms.float64)
    c = Tensor(0.0, ms.float64)
    while c < 3.0:
        acc = acc * x + c
        c = c + 1.0
    return acc


CARRIED = [counted, counted_in_branch, counted_with_tensor_condition, accumulated_constant]


@pytest.mark.parametrize("fn", CARRIED, ids=lambda f: f.__name__)
def test_a_tensor_built_in_compiled_code_is_carried_by_the_loop(fn):
    x = T([0.5, 1.5])
    source = ms.jit(fn).kernel_source(x)
    loop = source[source.index("while True:"):]
    assert "+ 1" in loop, source  # the counter's update runs inside the loop
    assert_close(ms.jit(fn)(x).asnumpy(), fn(x).asnumpy())


@pytest.mark.parametrize("fn", CARRIED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("values", [[0.5, 1.5], [-1.0, 0.25], [3.0, 4.0]])
def test_tensor_counter_loops_against_eager_and_central_differences(fn, values):
    x = T(values)
    assert_close(ms.jit(fn)(x).asnumpy(), fn(x).asnumpy())
    grad = ms.grad(lambda a: fn(a).sum())
    assert_close(grad(x).asnumpy(), fd_grad(fn, [values], 0))
    assert_close(ms.grad(grad)(x).asnumpy(), fd_grad(grad, [values], 0))


class CountedCell(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([0.5, -0.25]), ms.float64), name="w")

    def construct(self, x):
        c = Tensor(0, ms.int32)
        while c < 3:
            x = ops.tanh(x * -0.22 + x) + self.w
            c = c + 1
        return x


def test_a_tensor_counter_in_a_graph_mode_cell_with_its_weight_gradient():
    net = CountedCell()
    x = T([0.3, -0.7])
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert "while True:" in ms.jit(net).kernel_source(x)
        assert_close(net(x).asnumpy(), eager)
        _, grad_w = ms.grad(net, 0, net.trainable_params())(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    w = net.w.asnumpy().copy()
    expected = np.zeros_like(w)
    for k in range(w.size):
        for sign in (1.0, -1.0):
            moved = w.copy()
            moved[k] += sign * 1e-6
            net.w.set_data(Tensor(moved))
            expected[k] += sign * float(net(x).asnumpy().sum()) / 2e-6
    net.w.set_data(Tensor(w))
    assert_close(grad_w[0].asnumpy(), expected)


def int_input_counter(x, k):
    while k < 3:
        x = x * 1.5
        k = k + 1
    return x * k


def test_an_integer_loop_output_cast_in_an_op_is_read_under_its_loop_name():
    """codegen: the cast of an operand (``np.float64(k)``) named a loop's output that only exists
    under the loop variable's name (NameError in the generated kernel)."""
    x, k = T([0.5, 1.5]), Tensor(np.array(1, np.int32))
    assert_close(ms.jit(int_input_counter)(x, k).asnumpy(), int_input_counter(x, k).asnumpy())


# ---- a loop's index and the names first assigned in its body, after a loop that stays a loop

def index_after_loop(x):
    for i in range(4):
        x = x * 1.1 + i
    return x * i


def index_after_loop_that_breaks(x):
    for i in range(5):
        x = x * 1.5
        if x.sum() > 6.0:
            break
    return x * i


def first_assigned_in_loop(x):
    for i in range(3):
        y = x * i
        x = x + y * 0.5
    return y + x


def first_assigned_tuple_in_loop(x):
    for i in range(3):
        pair = (x * 0.5, ops.sin(x) + i)
        x = pair[0] + pair[1]
    return pair[0] * pair[1] + x


AFTER_LOOP = [index_after_loop, index_after_loop_that_breaks, first_assigned_in_loop, first_assigned_tuple_in_loop]


@pytest.mark.parametrize("fn", AFTER_LOOP, ids=lambda f: f.__name__)
@pytest.mark.parametrize("values", [[0.5, 1.5], [-1.0, 0.25], [3.0, 4.0]])
def test_names_bound_by_a_loop_that_stays_a_loop_are_read_after_it(fn, values):
    """After ``for i in range(n)``, ``i`` is the last index (or the one broken at) and a name first
    assigned in the body holds the last iteration's value, as in Python (a NameError before:
    ``'i9' is the index of a loop that stays a loop``, ``'hx' is assigned inside a loop ...``)."""
    x = T(values)
    assert "for i in range" in ms.jit(fn).kernel_source(x) or "while True" in ms.jit(fn).kernel_source(x)
    assert_close(ms.jit(fn)(x).asnumpy(), fn(x).asnumpy())
    grad = ms.grad(lambda a: fn(a).sum())
    assert_close(grad(x).asnumpy(), fd_grad(fn, [values], 0))
    assert_close(ms.grad(grad)(x).asnumpy(), fd_grad(grad, [values], 0))


def test_an_lstm_cell_state_first_assigned_in_a_loop():
    """The LSTMCell docstring example in a @jit function: ``hx`` (a tuple) is only assigned inside
    the loop."""
    cell = nn.LSTMCell(4, 3)

    def run(x, h, c):
        for i in range(5):
            hx = cell(x[i], (h, c))
        return hx

    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((5, 2, 4)).astype(np.float32))
    h, c = (Tensor(np.ones((2, 3), np.float32)) for _ in range(2))
    for got, want in zip(ms.jit(run)(x, h, c), run(x, h, c)):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)


def counters_of_two_dtypes_in_the_branches(x):
    if x.sum() > 0.5:
        c = x.sum() * 0.0
        while c < 2:
            c = c + 1.0
            x = x * 1.5
    else:
        c = Tensor(0, ms.int32)
        while c < 3:
            c = c + 1
            x = ops.sin(x) + x
    return x


def test_a_name_of_another_dtype_in_each_branch_is_an_error_only_when_read():
    """Fuzz seed 100324: a float counter in one branch of a tensor ``if`` and an int32 one in the other
    (never read after it) made the ``if`` a TypeError; it is one only where the name is read."""
    for values in ([0.5, 1.5], [-1.0, 0.25]):
        x = T(values)
        assert_close(ms.jit(counters_of_two_dtypes_in_the_branches)(x).asnumpy(),
                     counters_of_two_dtypes_in_the_branches(x).asnumpy())

    def read_after(x):
        if x.sum() > 0.5:
            c = x.sum() * 0.0
        else:
            c = Tensor(0, ms.int32)
        return x * c

    with pytest.raises(TypeError, match="'c' has shape/dtype float64\\[\\] in one branch"):
        ms.jit(read_after)(T([0.5, 1.5]))


def python_scalar_read_in_tensor_while(x):
    n = 0
    scale = 1.0
    while x.sum() < 10.0:
        x = x * scale + n
        n = n + 1
        scale = scale * 1.5
    return x


@pytest.mark.parametrize("values", [[0.5, 1.5], [0.1, 0.2], [3.0, 4.0]])
def test_python_scalars_changed_in_a_tensor_while_are_carried(values):
    """Each iteration read the Python values from before the loop (n = 0, scale = 1.0), silently."""
    x = T(values)
    assert_close(ms.jit(python_scalar_read_in_tensor_while)(x).asnumpy(), python_scalar_read_in_tensor_while(x).asnumpy())
    grad = ms.grad(lambda a: python_scalar_read_in_tensor_while(a).sum())
    assert_close(grad(x).asnumpy(), fd_grad(python_scalar_read_in_tensor_while, [values], 0))
