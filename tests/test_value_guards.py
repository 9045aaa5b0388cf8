"""Value guards: a kernel specialized on a tensor value checks it where it runs, and a call whose
value differs runs the kernel compiled for that value — never a stale branch (issue 23).

The values come from two routes: a traced function (no source: ``exec``) reading a traced tensor's
values (``if x.sum() > 0``), and MindSpore's JIT fallback in compiled code (``x.asnumpy()``,
``x.item()``, ``bool/float/int(x)``, NumPy and ``math`` on tensors, ``assert``). Each guard kind
(``truth``, ``item``, ``array``, ``value``, ``aval``) has a test that changes the guarded value and
checks the recompile and the result; code that only uses such values runs in the kernel at each call
(one compile); MindSpore 2.10's values are quoted where it defines them (programs/r13, r15).
"""
import math
import warnings

import numpy as np
import pytest

import npspore as ms
from npspore import nn, ops
from npspore.compiler.errors import NotSupportedError
from npspore.compiler.library import GuardFailed

from gradcheck import check_grads


def t32(*values):
    return ms.Tensor(np.array(values, np.float32))


def traced(source: str, name: str):
    """A function defined by ``exec``: it has no source file, so npspore traces it."""
    namespace = {"ops": ops, "np": np, "ms": ms}
    exec(source, namespace)
    return namespace[name]


BRANCH = "def h(x):\n    if x.sum() > 0:\n        return (x * 2).sum()\n    return (x * x).sum()\n"


# ---------------------------------------------------------------------------- the traced path


def test_r15_a_traced_branch_is_traced_again_when_the_input_takes_the_other_one(monkeypatch, caplog):
    # programs/r15: the true gradients are [2. 2.] then [-2. -2.] (npspore printed [2. 2.] twice)
    monkeypatch.setenv("NPSPORE_EXPLAIN_CACHE_MISSES", "1")
    h = traced(BRANCH, "h")
    gh = ms.grad(h)
    with caplog.at_level("WARNING", logger="npspore.cache"):
        assert gh(t32(1.0, 1.0)).asnumpy().tolist() == [2.0, 2.0]
        assert gh(t32(-1.0, -1.0)).asnumpy().tolist() == [-2.0, -2.0]
    assert "recompiling: value read at <string>:2: True -> False" in caplog.text
    assert gh(t32(3.0, 1.0)).asnumpy().tolist() == [2.0, 2.0]        # each value's kernel is kept
    assert gh(t32(-3.0, 1.0)).asnumpy().tolist() == [-6.0, 2.0]
    assert gh.cache_info()["compiles"] == 2
    assert ms.grad(h)(t32(-1.0, -2.0)).asnumpy().tolist() == [-2.0, -4.0]   # a fresh grad: not stale


def test_a_traced_read_of_a_value_is_guarded_on_the_value():
    scale = traced("def scale(x):\n    return x * float(x.sum())\n", "scale")
    compiled = ms.jit(scale)
    assert compiled(t32(1.0, 2.0)).asnumpy().tolist() == [3.0, 6.0]
    assert compiled(t32(2.0, 2.0)).asnumpy().tolist() == [8.0, 8.0]
    assert compiled(t32(1.0, 2.0)).asnumpy().tolist() == [3.0, 6.0]
    assert compiled.cache_info()["compiles"] == 2


def test_a_traced_guard_stops_the_kernel_before_it_writes_a_parameter():
    # the Parameter is written before the branch in the source; the guard is checked first, so the
    # kernel that stops writes nothing and each call adds 1 exactly once
    bump = traced("def bump(p, x):\n    ops.assign(p, p + 1)\n    if x.sum() > 0:\n        return x * 2\n"
                  "    return x * 3\n", "bump")
    counter = ms.Parameter(ms.Tensor(np.zeros(1, np.float32)), name="counter")
    compiled = ms.jit(lambda x: bump(counter, x))
    assert compiled(t32(1.0)).asnumpy().tolist() == [2.0]
    assert compiled(t32(-1.0)).asnumpy().tolist() == [-3.0]
    assert compiled(t32(-2.0)).asnumpy().tolist() == [-6.0]
    assert counter.asnumpy().tolist() == [3.0]


def test_a_traced_read_of_a_sum_of_a_sum_is_checked_against_the_bits_eager_code_saw():
    # fuzz: the optimizer's sum(p + q) -> sum(p) + sum(q) moved the kernel's value by an ulp from the
    # traced one, its guard failed at every call and the call raised "differs between the compile and
    # the run" (about half of these inputs); a guarded value keeps NumPy's summation order
    scaled = traced("def scaled(x, w):\n    y = ops.tanh(ops.matmul(x, w)) + x\n    return x * float(y.sum())\n",
                    "scaled")
    rng = np.random.default_rng(0)
    for _ in range(20):
        x, w = ms.Tensor(rng.uniform(-1, 1, (2, 3))), ms.Tensor(rng.uniform(-0.6, 0.6, (3, 3)))
        want = x.asnumpy() * np.sum(np.tanh(x.asnumpy() @ w.asnumpy()) + x.asnumpy())
        np.testing.assert_array_equal(ms.jit(scaled)(x, w).asnumpy(), want)


def test_a_traced_read_of_a_large_column_sum_is_checked_against_the_bits_eager_code_saw():
    # a column sum of 16,384 elements or more is a product with a row of ones in kernels (compiler/columnsums.py),
    # which rounds otherwise than NumPy's sum: a guarded one keeps NumPy's, or its guard would fail at every call
    scaled = traced("def scaled(x):\n    return x * float(x.sum(axis=0)[0] * 1000.0)\n", "scaled")
    rng = np.random.default_rng(1)
    for _ in range(5):
        x = ms.Tensor(rng.uniform(-1, 1, (4096, 8)).astype(np.float32))
        want = x.asnumpy() * float(x.asnumpy().sum(axis=0)[0] * np.float32(1000.0))
        np.testing.assert_array_equal(ms.jit(scaled)(x).asnumpy(), want)


def test_a_tensor_made_from_a_traced_tensor_follows_the_input():
    # Tensor(x) in a traced function was captured as the first call's array (stale ever after)
    copy = traced("def copy(x):\n    return ms.Tensor(x, ms.float64) * 2\n", "copy")
    compiled = ms.jit(copy)
    assert compiled(t32(1.0, 1.0)).asnumpy().tolist() == [2.0, 2.0]
    result = compiled(t32(-1.0, 3.0))
    assert result.asnumpy().tolist() == [-2.0, 6.0] and result.dtype == ms.float64
    assert compiled.cache_info()["compiles"] == 1


def test_the_kernels_of_one_signature_are_bounded_by_the_recompile_limit(monkeypatch):
    monkeypatch.setenv("NPSPORE_RECOMPILE_LIMIT", "2")
    scale = traced("def scale(x):\n    return x * float(x.sum())\n", "scale")
    compiled = ms.jit(scale)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for value in (1.0, 2.0, 3.0, 1.0):
            assert compiled(t32(value)).asnumpy().tolist() == [value * value]
    assert any("a value it reads keeps changing (value read at" in str(w.message) for w in caught)
    assert compiled.cache_info()["compiles"] == 4                      # 1.0 was evicted by then
    assert len(compiled._cache.variants[next(iter(compiled._cache.entries))]) == 2


# ---------------------------------------------------------------------------- JIT fallback reads


def r13(x):
    return float(x.asnumpy()), ms.tensor(x.asnumpy(), dtype=ms.float32)


def test_r13_asnumpy_inside_jit_returns_mindspores_values():
    # MindSpore 2.10 (CPU) prints: (-1.0, Tensor(shape=[1], dtype=Float32, value= [-1.00000000e+00]))
    f = ms.jit(r13)
    value, tensor = f(ms.Tensor([-1], ms.int32))
    assert type(value) is float and value == -1.0
    assert repr(tensor) == "Tensor(shape=[1], dtype=Float32, value= [-1.00000000e+00])"
    value, tensor = f(ms.Tensor([4], ms.int32))      # host code in the kernel: run on each call's values
    assert value == 4.0 and tensor.asnumpy().tolist() == [4.0]
    assert f(ms.Tensor([-1], ms.int32))[0] == -1.0
    assert f.cache_info()["compiles"] == 1


class Branch(nn.Cell):
    """``if x.item() > 0`` in construct: the kernel is specialized on the element (an item guard)."""

    def construct(self, x, y):
        if x.item() > 0:
            return y * y * 2.0
        return y * y * y


@pytest.mark.parametrize("mode", ["pynative", "graph", "jit"])
def test_an_item_read_decides_the_branch_in_each_mode(mode):
    net = Branch()
    if mode == "graph":
        net.set_grad(False)
        call = lambda x, y: ms.jit(net)(x, y)   # noqa: E731 - the GRAPH Cell call
    elif mode == "jit":
        call = ms.jit(net.construct)
    else:
        call = net
    y = t32(1.0, 3.0)
    assert call(ms.Tensor(2.0), y).asnumpy().tolist() == [2.0, 18.0]
    assert call(ms.Tensor(-2.0), y).asnumpy().tolist() == [1.0, 27.0]
    assert call(ms.Tensor(5.0), y).asnumpy().tolist() == [2.0, 18.0]


def test_graph_mode_cell_reads_compile_once_per_value():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Branch()
        y = t32(1.0, 3.0)
        assert net(ms.Tensor(2.0), y).asnumpy().tolist() == [2.0, 18.0]
        assert net(ms.Tensor(-2.0), y).asnumpy().tolist() == [1.0, 27.0]
        assert net(ms.Tensor(2.0), y).asnumpy().tolist() == [2.0, 18.0]
        assert ms.jit(net).cache_info()["compiles"] == 2
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def scaled(x, y):
    s = float(x.sum())
    if s > 0:
        return (y * s * y).sum()
    return (y * y * y).sum()


def test_gradients_through_a_value_read_first_and_second_order():
    # float(x) is a Python number: a constant for the gradient (no derivative flows to x)
    x, y = t32(1.0, 2.0), t32(1.0, 3.0)
    g = ms.grad(scaled, grad_position=(0, 1))
    dx, dy = g(x, y)
    assert dx.asnumpy().tolist() == [0.0, 0.0] and dy.asnumpy().tolist() == [6.0, 18.0]     # 2 s y, s = 3
    dx, dy = g(-x, y)
    assert dy.asnumpy().tolist() == [3.0, 27.0]                                            # 3 y^2
    grad_y = ms.grad(scaled, grad_position=1)
    for point in (x, -x):    # central differences in float64, on both sides of the guard
        check_grads(lambda v: scaled(point, ms.Tensor(v)).asnumpy(), (np.array([1.0, 3.0]),),
                    lambda f: lambda args, dout: grad_y(point, ms.Tensor(args[0])).asnumpy() * dout)
    gg = ms.grad(ms.grad(scaled, grad_position=1), grad_position=1)
    assert gg(x, y).asnumpy().tolist() == [6.0, 6.0]                                       # 2 s
    assert gg(-x, y).asnumpy().tolist() == [6.0, 18.0]                                     # 6 y
    assert g.cache_info()["compiles"] == 2


def test_bool_of_a_tensor_is_guarded_on_its_truth_only(monkeypatch, caplog):
    @ms.jit
    def pick(x, y):
        if bool(x > 1.0):
            return y + 1.0
        return y - 1.0

    monkeypatch.setenv("NPSPORE_EXPLAIN_CACHE_MISSES", "1")
    y = t32(0.0)
    assert pick(ms.Tensor(3.0), y).asnumpy().tolist() == [1.0]
    assert pick(ms.Tensor(5.0), y).asnumpy().tolist() == [1.0]      # same truth: no compile
    assert pick.cache_info()["compiles"] == 1
    with caplog.at_level("WARNING", logger="npspore.cache"):
        assert pick(ms.Tensor(0.5), y).asnumpy().tolist() == [-1.0]     # the truth guard changes
    assert pick.cache_info()["compiles"] == 2
    assert f"recompiling: value read at {__file__}:" in caplog.text and ": True -> False" in caplog.text
    with pytest.raises(ValueError, match="The tensor should have only one element, but got 2"):
        pick(t32(1.0, 2.0), y)


def test_int_of_a_tensor_as_a_loop_bound():
    @ms.jit
    def add_n(n, y):
        for _ in range(int(n)):
            y = y + 1.0
        return y

    assert add_n(ms.Tensor(2), t32(0.0)).asnumpy().tolist() == [2.0]
    assert add_n(ms.Tensor(5), t32(0.0)).asnumpy().tolist() == [5.0]
    assert add_n(ms.Tensor(2.5), t32(0.0)).asnumpy().tolist() == [2.0]   # int() truncates (MindSpore 2.10)


def test_numpy_and_math_on_tensor_values_inside_jit():
    @ms.jit
    def host(x):
        a = np.sum(x) * 2 + math.sqrt(float(x[0]))
        return ms.Tensor(np.asarray(a, np.float32)), x.tolist()

    tensor, values = host(t32(4.0, 1.0))
    assert tensor.asnumpy().tolist() == 12.0 and values == [4.0, 1.0]
    tensor, values = host(t32(9.0, 0.0))
    assert tensor.asnumpy().tolist() == 21.0 and values == [9.0, 0.0]
    assert host.cache_info()["compiles"] == 1       # run in the kernel: nothing was specialized on a value


def test_a_tensor_made_from_values_is_guarded_on_its_shape():
    # the aval guard: the kernel is specialized on the shape of np.flatnonzero(...), not on the values
    @ms.jit
    def nonzero(x):
        return ms.tensor(np.flatnonzero(x.asnumpy()), ms.int64) * 2

    assert nonzero(t32(0.0, 3.0, 4.0)).asnumpy().tolist() == [2, 4]
    assert nonzero(t32(5.0, 0.0, 4.0)).asnumpy().tolist() == [0, 4]       # same shape: no compile
    assert nonzero.cache_info()["compiles"] == 1
    assert nonzero(t32(5.0, 1.0, 4.0)).asnumpy().tolist() == [0, 2, 4]    # another shape: compiled again
    assert nonzero.cache_info()["compiles"] == 2


def test_an_array_read_that_picks_a_python_item_is_guarded_on_the_array():
    # the array guard: np.argmax(...) of the values indexes a Python tuple at compile time
    @ms.jit
    def pick(x, a, b):
        return (a, b)[np.argmax(x.asnumpy())] * 1.0

    a, b = t32(1.0), t32(2.0)
    assert pick(t32(3.0, 1.0), a, b).asnumpy().tolist() == [1.0]
    assert pick(t32(5.0, 1.0), a, b).asnumpy().tolist() == [1.0]     # the same index: no compile
    assert pick(t32(0.0, 1.0), a, b).asnumpy().tolist() == [2.0]
    assert pick.cache_info()["compiles"] == 2


def test_a_traced_asnumpy_is_guarded_on_the_array():
    scale = traced("def scale(x):\n    return x * ms.Tensor(x.asnumpy()[::-1].copy())\n", "scale")
    compiled = ms.jit(scale)
    assert compiled(t32(1.0, 2.0)).asnumpy().tolist() == [2.0, 2.0]
    assert compiled(t32(3.0, 2.0)).asnumpy().tolist() == [6.0, 6.0]
    assert compiled.cache_info()["compiles"] == 2


def test_a_returned_value_is_computed_at_each_call():
    @ms.jit
    def label(x):
        return int(x.argmax().item()), x.max().item()

    assert label(t32(1.0, 3.0, 2.0)) == (1, 3.0)
    assert label(t32(5.0, 3.0, 2.0)) == (0, 5.0)
    assert label.cache_info()["compiles"] == 1


def test_assert_on_a_tensor_value_raises_for_the_call_whose_value_fails():
    @ms.jit
    def checked(x):
        assert bool(x.sum() > 0), "must be positive"
        return x * 2

    assert checked(t32(1.0)).asnumpy().tolist() == [2.0]
    with pytest.raises(AssertionError, match="must be positive"):
        checked(t32(-1.0))
    assert checked(t32(3.0)).asnumpy().tolist() == [6.0]


def test_assert_on_a_tensor_raises_assertion_error_for_the_call_that_fails():
    # MindSpore: an AssertionError at run time, for the inputs that fail it
    @ms.jit
    def checked(x):
        assert x.sum() > 0, "must be positive"
        return x * 2

    assert checked(t32(1.0)).asnumpy().tolist() == [2.0]
    with pytest.raises(AssertionError, match="must be positive"):
        checked(t32(-1.0))
    assert checked(t32(3.0)).asnumpy().tolist() == [6.0]
    assert checked.cache_info()["compiles"] == 1


def test_printing_a_read_value_prints_at_every_call(capsys):
    @ms.jit
    def show(x):
        print("value", x.item())
        return x + 1

    show(ms.Tensor(2.0))
    show(ms.Tensor(2.0))
    show(ms.Tensor(3.0))
    assert capsys.readouterr().out == "value 2.0\nvalue 2.0\nvalue 3.0\n"
    assert show.cache_info()["compiles"] == 1


def test_an_f_string_of_values_is_formatted_at_each_call(capsys):
    @ms.jit
    def report(x):
        print(f"loss {x.sum().item():.3f} of {len(x.tolist())}")
        return x

    report(t32(1.0, 2.0))
    report(t32(0.5, 0.25))
    assert capsys.readouterr().out == "loss 3.000 of 2\nloss 0.750 of 2\n"
    assert report.cache_info()["compiles"] == 1


class Counting(nn.Cell):
    """Writes a Parameter and prints before the read that decides the branch."""

    def __init__(self):
        super().__init__()
        self.count = ms.Parameter(ms.Tensor(np.zeros(1, np.float32)), name="count")

    def construct(self, x):
        ops.assign(self.count, self.count + 1)
        print("called")
        if x.item() > 0:
            return x * 2
        return x * 3


def test_a_failed_guard_stops_the_kernel_before_it_writes_a_parameter_or_prints(capsys):
    net = Counting()
    call = ms.jit(net)
    assert call(ms.Tensor(1.0)).asnumpy().tolist() == 2.0
    assert call(ms.Tensor(-1.0)).asnumpy().tolist() == -3.0    # the first kernel stops, the second runs
    assert call(ms.Tensor(1.0)).asnumpy().tolist() == 2.0
    assert net.count.asnumpy().tolist() == [3.0]
    assert capsys.readouterr().out == "called\n" * 3


def test_a_kernel_stops_at_its_guard_with_guard_failed():
    @ms.jit
    def double_if_positive(x):
        if x.item() > 0:
            return x * 2
        return x

    double_if_positive(ms.Tensor(1.0))
    (kernel,) = double_if_positive._cache.entries.values()
    assert kernel.run([np.array(1.0, np.float32)]).asnumpy().tolist() == 2.0
    with pytest.raises(GuardFailed):
        kernel.run([np.array(-1.0, np.float32)])


class ReadsAfterWrite(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones(1, np.float32)), name="w")

    def construct(self, x):
        ops.assign(self.w, self.w * 2)
        if self.w.item() > 1:
            return x
        return -x


class ReadsUnderTensorIf(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            if x.item() > 1:
                return x
        return -x


class ReadsAfterATensorContinue(nn.Cell):
    """fuzz: the second iteration is staged under ``if not broke``; the shape guard of the tensor made
    in it was put in the function's body, before the tensor existed (UnboundLocalError in the kernel)."""

    def construct(self, x, y):
        for _ in range(2):
            y = y + ms.Tensor(x.asnumpy()).sum()
            if x[0] > x[1]:
                continue
        return y


class ReadsWithBprop(nn.Cell):
    def construct(self, x, y):
        if x.item() > 0:
            return y * 2
        return y

    def bprop(self, x, y, out, dout):
        return x * 0, dout * 5


class CallsReaderWithBprop(nn.Cell):
    """A sub-cell with a bprop is a call of its own (its backward is the bprop): no value can be read."""

    def __init__(self):
        super().__init__()
        self.inner = ReadsWithBprop()

    def construct(self, x, y):
        return self.inner(x, y) + 1


class ReadsARandomDraw(nn.Cell):
    """Reading a dropped-out value at compile time would draw from the generator once more than eager
    code does, and the kernel's own draw would disagree with the value it was specialized on."""

    def construct(self, x):
        if ops.dropout(x, p=0.5).sum().item() > 0:
            return x * 2
        return x


def test_a_read_after_a_parameter_write_sees_the_written_value():
    # MindSpore orders the write before the read (side-effect analysis): w is 2 at the first read
    eager, compiled = ReadsAfterWrite(), ReadsAfterWrite()
    f = ms.jit(compiled)
    for x in (t32(1.0), t32(3.0)):
        assert f(x).asnumpy().tolist() == eager(x).asnumpy().tolist() == x.asnumpy().tolist()
    assert compiled.w.asnumpy().tolist() == eager.w.asnumpy().tolist() == [4.0]


@pytest.mark.parametrize("net, args, message, line", [
    (ReadsARandomDraw, (t32(1.0, 1.0, 1.0, 1.0),), "from a random draw or a collective",
     "if ops.dropout(x, p=0.5).sum().item() > 0:"),
    (ReadsUnderTensorIf, (t32(2.0),), "under tensor-dependent control flow", "if x.item() > 1:"),
    (ReadsAfterATensorContinue, (t32(2.0, 1.0), t32(1.0)), "under tensor-dependent control flow",
     "y = y + ms.Tensor(x.asnumpy()).sum()"),
    (CallsReaderWithBprop, (ms.Tensor(1.0), t32(1.0)), "in a function or Cell called from compiled code",
     "if x.item() > 0:"),
])
def test_a_read_the_kernel_cannot_check_first_is_a_compile_error_at_its_line(net, args, message, line):
    with pytest.raises(NotSupportedError, match=message) as error:
        ms.jit(net())(*args)
    assert line in str(error.value)


# ---------------------------------------------------------------------------- more of MindSpore's syntax


class Father(nn.Cell):
    def construct(self, x):
        return x * 3


class Child(Father):
    @ms.jit
    def construct(self, x):
        return super().construct(x) + 1


def test_r14_zero_argument_super_in_a_jit_method():
    # programs/r14: MindSpore 2.10 (CPU) prints [4. 7.]
    assert Child()(t32(1.0, 2.0)).asnumpy().tolist() == [4.0, 7.0]


def python_builtins(x, xs):
    a = pow(x, 2) + pow(2.0, x)
    s = sum(v * 2 for v in xs)
    doubled = tuple(i * 2 for i in range(3))
    if x in [2, 3, 4]:
        return a + s + doubled[2]
    return a - s


@pytest.mark.parametrize("value", [2.0, 5.0])
def test_pow_generator_expressions_and_in_a_list_as_in_eager_mode(value):
    x, xs = ms.Tensor(np.float32(value)), (ms.Tensor(1.0), ms.Tensor(2.0))
    eager = python_builtins(x, xs).asnumpy()
    assert ms.jit(python_builtins)(x, xs).asnumpy() == eager
    expected_grad = 2 * value + 2.0 ** value * np.log(2.0)     # d/dx (x^2 + 2^x); `in` and sum add none
    assert np.isclose(ms.grad(python_builtins)(x, xs).asnumpy(), expected_grad, rtol=1e-6)


def scalar_operands(x, y):
    s, n = float(y), int(y)
    return x * s, x + n, x > s, 2 ** n - x, x / n


@pytest.mark.parametrize("dtype", [np.float16, np.int32, np.bool_])
def test_a_read_number_is_an_operand_as_eager_mode_takes_a_python_number(dtype):
    # the type guard: the number is computed at each call, in the dtype MindSpore's promotion gives
    # a Python scalar (f16 * 2.0 stays float16, i32 + 3 stays int32, bool + 3 is int64)
    compiled = ms.jit(scalar_operands)
    x = ms.Tensor(np.array([1, 0], dtype))
    for value in (2.0, 3.0):
        y = ms.Tensor(value)
        for got, expected in zip(compiled(x, y), scalar_operands(x, y)):
            assert got.dtype == expected.dtype and got.asnumpy().tolist() == expected.asnumpy().tolist()
    assert compiled.cache_info()["compiles"] == 1


class R13Cell(nn.Cell):
    def construct(self, x):
        return float(x.asnumpy()), ms.tensor(x.asnumpy(), dtype=ms.float32)


def test_r13_in_a_graph_mode_cell():
    # programs/r13 as a Cell's construct, in GRAPH mode: MindSpore's (-1.0, Tensor([-1.], Float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = R13Cell()
        value, tensor = net(ms.Tensor([-1], ms.int32))
        assert type(value) is float and value == -1.0
        assert repr(tensor) == "Tensor(shape=[1], dtype=Float32, value= [-1.00000000e+00])"
        assert net(ms.Tensor([7], ms.int32))[0] == 7.0
        assert ms.jit(net).cache_info()["compiles"] == 1
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def clamped_scale(x, y):
    return x * max(y.item(), 0)


def test_the_type_of_a_read_number_is_guarded():
    # max(2.5, 0) is a float, max(-1.0, 0) the int 0: int32 * float is float32, int32 * int stays int32
    compiled = ms.jit(clamped_scale)
    x = ms.Tensor(np.array([1, 2], np.int32))
    for value in (2.5, -1.0, 4.0):
        got, expected = compiled(x, ms.Tensor(value)), clamped_scale(x, ms.Tensor(value))
        assert got.dtype == expected.dtype and got.asnumpy().tolist() == expected.asnumpy().tolist()
    assert compiled.cache_info()["compiles"] == 2


class Gate(nn.Cell):
    """A sub-cell with a Parameter that reads a value: interpreted in its caller's body."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([2.0], np.float32)), name="w")

    def construct(self, x, y):
        if x.item() > 0:
            return y * self.w
        return y - self.w


class CallsGate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gate = Gate()

    def construct(self, x, y):
        return self.gate(x, y) * 3


def test_a_sub_cell_that_reads_a_value_is_compiled_into_its_caller():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = CallsGate()
        y = t32(1.0, 2.0)
        assert net(ms.Tensor(1.0), y).asnumpy().tolist() == [6.0, 12.0]
        assert net(ms.Tensor(-1.0), y).asnumpy().tolist() == [-3.0, 0.0]
        assert net(ms.Tensor(5.0), y).asnumpy().tolist() == [6.0, 12.0]
        assert ms.jit(net).cache_info()["compiles"] == 2
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    grad = ms.grad(net, grad_position=1, weights=net.trainable_params())
    (dy, (dw,)) = grad(ms.Tensor(1.0), y)
    assert dy.asnumpy().tolist() == [6.0, 6.0] and dw.asnumpy().tolist() == [9.0]
    (dy, (dw,)) = grad(ms.Tensor(-1.0), y)
    assert dy.asnumpy().tolist() == [3.0, 3.0] and dw.asnumpy().tolist() == [-6.0]


# ---------------------------------------------------------------------------- containers of read values

def _in_a_set_comprehension(x, a):
    axes = {axis % 2 for axis in [int(a)]}
    return x * (0 in axes) + len({int(a), int(a) * 1})


def _item_of_a_python_list(x, a):
    n = int(a)
    return x * [5, 7][n] + len([1, 2] + [n])


@pytest.mark.parametrize("fn", [_in_a_set_comprehension, _item_of_a_python_list])
@pytest.mark.parametrize("value", [0, 1])
def test_sets_and_lists_of_read_values_behave_as_in_eager_mode(fn, value):
    """A set built by a comprehension holds the values read (so ``0 in axes`` and its length are eager
    mode's: the set once held the staged values, and ``0 in axes`` was False), and Python code indexes and
    concatenates the Python list (it got a NumPy array: ``[5, 7][n]`` was an int64, a guard then failed
    at every call)."""
    x = t32(1.0, 2.0)
    a = ms.Tensor(np.array(value, np.int32))
    expected = fn(x, a).asnumpy()
    compiled = ms.jit(fn)
    np.testing.assert_array_equal(compiled(x, a).asnumpy(), expected)
    np.testing.assert_array_equal(compiled(x, a).asnumpy(), expected)


@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_flip_along_a_tensor_axis_as_mindspore(mode):
    """``ops.flip(x, (Tensor(0),))``: MindSpore 2.10 flips along axis 0 (eager mode gave ``x`` unflipped);
    compiled, the kernel is specialized on the axis and compiled again for another."""
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))

    def flip(x, axis):
        return ops.flip(x, (axis,))

    run = flip if mode == "eager" else ms.jit(flip)
    assert run(x, ms.Tensor(0)).asnumpy().tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    assert run(x, ms.Tensor(-1)).asnumpy().tolist() == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]


def test_an_integer_tensor_is_taken_for_an_op_attribute_in_eager_mode():
    """MindSpore 2.10's eager ops take a one-element integer Tensor where an int is expected (values
    printed by MindSpore 2.10 for this input: ``[6, 22, 38]``, ``[3, 3, 3]``, ``[[3, 2], [7, 6], [11, 10]]``)."""
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert ops.sum(x, ms.Tensor(1)).asnumpy().tolist() == [6.0, 22.0, 38.0]
    assert ops.argmax(x, ms.Tensor(1)).asnumpy().tolist() == [3, 3, 3]
    assert ops.topk(x, ms.Tensor(2))[0].asnumpy().tolist() == [[3.0, 2.0], [7.0, 6.0], [11.0, 10.0]]
    with pytest.raises(TypeError, match="'axis'"):
        ops.sum(x, ms.Tensor(1.0))
    # the reductions written in Python over an axis tuple, eager and compiled (MindSpore 2.10's values)
    for run in (lambda f, *a: f(*a), lambda f, *a: ms.jit(f)(*a)):
        np.testing.assert_allclose(run(ops.logsumexp, x, ms.Tensor(1)).asnumpy(), [3.4401891, 7.4401894, 11.440189],
                                   rtol=1e-6)
        assert run(ops.nansum, x, ms.Tensor(1)).asnumpy().tolist() == [6.0, 22.0, 38.0]
        assert run(ops.count_nonzero, x, ms.Tensor(1)).asnumpy().tolist() == [3, 4, 4]
    with pytest.raises(TypeError, match="'dim' must be an int or a tuple of ints"):
        ops.logsumexp(x, ms.Tensor(1.0))


class _NumPyConstants(nn.Cell):
    """NumPy on Python values inside construct: MindSpore's JIT fallback runs it while compiling."""

    def construct(self, x):
        kernel = ms.Tensor(np.ones((3, 2, 3, 3), np.float32) * 0.1)
        ramp = ms.Tensor(np.linspace(0.0, 1.0, 4, dtype=np.float32))
        return ops.conv2d(x, kernel, pad_mode="same") * ramp


def test_numpy_on_python_values_in_construct_is_a_constant_of_the_kernel():
    # np.ones was compiled as user code: 'calling <function copyto> in compiled code', located in NumPy's source
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 2, 4, 4)).astype(np.float32))
    net = _NumPyConstants()
    compiled = ms.jit(net)
    np.testing.assert_allclose(compiled(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(compiled(x * 2).asnumpy(), net(x * 2).asnumpy(), rtol=1e-6)
    assert compiled.cache_info()["compiles"] <= 1

