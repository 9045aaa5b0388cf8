"""In-place Tensor methods (``npspore.ops.tensor_inplace``): eager writes, compiled Parameter updates, errors.

The expected values were observed on MindSpore 2.10 CPU. There, in PyNative mode, ``add_``/``sub_``/``mul_``/``div_``
return the result without writing it into ``self`` and ``fill_``/``zero_``/``clamp_``/``masked_fill_`` raise (no CPU
kernel); the values below are those returned results, and for the raising methods those of their out-of-place
counterparts (``masked_fill``, ``clamp``, ``ops.fill``, ``floor``, ``scatter``...). npspore writes them into
``self`` and returns ``self``, as MindSpore documents ("In-place version of Tensor.add") and as its ``@jit`` does
(observed: ``x.add_(1.0)`` under ``@jit`` updates the caller's Tensor, ``self.w.add_(x)`` in a GRAPH_MODE Cell
updates the Parameter).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn
from npspore.compiler.errors import NotSupportedError
from npspore.ops import tensor_inplace

A = np.array([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], np.float32)
B = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]], np.float32)
P = np.array([[0.5, 1.25, 2.0], [1.5, 0.25, 0.75]], np.float32)
S = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
M = np.array([[True, False, True], [False, False, True]])
V = np.array([1.0, -2.0, 0.5], np.float32)
I = np.array([[1, 0, 3], [-2, 0, 4]], np.int32)
X = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
t = Tensor

CASES = [   # (method, x, args, kwargs, the value x holds afterwards)
    ("add_", X, (1.0,), {}, [[2.0, 3.0], [4.0, 5.0]]),
    ("add_", X, (t(X),), {}, [[2.0, 4.0], [6.0, 8.0]]),
    ("add_", X, (t(X),), {"alpha": 2}, [[3.0, 6.0], [9.0, 12.0]]),
    ("sub_", X, (1.0,), {}, [[0.0, 1.0], [2.0, 3.0]]),
    ("sub_", A, (t(V),), {"alpha": 2}, [[-1.5, 2.75, 1.0], [-0.5, 4.25, -1.75]]),
    ("mul_", X, (2.0,), {}, [[2.0, 4.0], [6.0, 8.0]]),
    ("mul_", I, (t(I),), {}, [[1, 0, 9], [4, 0, 16]]),
    ("div_", X, (2.0,), {}, [[0.5, 1.0], [1.5, 2.0]]),
    ("div_", A, (t(np.float32([1, 2, -1])),), {"rounding_mode": "floor"}, [[0.0, -1.0, -2.0], [1.0, 0.0, 0.0]]),
    ("copy_", X, (t(X * 3),), {}, [[3.0, 6.0], [9.0, 12.0]]),
    ("copy_", A, (t(V),), {}, [[1.0, -2.0, 0.5], [1.0, -2.0, 0.5]]),
    ("copy_", A, (t(I),), {}, [[1.0, 0.0, 3.0], [-2.0, 0.0, 4.0]]),
    ("fill_", A, (7.0,), {}, np.full((2, 3), 7.0)),
    ("fill_", A, (t(np.float32(2.5)),), {}, np.full((2, 3), 2.5)),
    ("zero_", A, (), {}, np.zeros((2, 3))),
    ("clamp_", A, (-1.0, 1.0), {}, [[0.5, -1.0, 1.0], [1.0, 0.25, -0.75]]),
    ("clamp_", A, (), {"min": 0.0}, [[0.5, 0.0, 2.0], [1.5, 0.25, 0.0]]),
    ("clamp_", I, (0, 2), {}, [[1, 0, 2], [0, 0, 2]]),
    ("masked_fill_", A, (t(A > 0), 2.0), {}, [[2.0, -1.25, 2.0], [2.0, 2.0, -0.75]]),
    ("exp_", X, (), {}, [[2.7182798385620117, 7.389060020446777], [20.085548400878906, 54.59820556640625]]),
    ("log_", P, (), {}, [[-0.6931470036506653, 0.2231435477733612, 0.6931470036506653],
                         [0.40546512603759766, -1.3862943649291992, -0.28768208622932434]]),
    ("floor_", A, (), {}, [[0.0, -2.0, 2.0], [1.0, 0.0, -1.0]]),
    ("sigmoid_", A, (), {}, [[0.6224594116210938, 0.2227000892162323, 0.8807971477508545],
                             [0.8175745010375977, 0.5621765851974487, 0.32082125544548035]]),
    ("tanh_", A, (), {}, [[0.46211716532707214, -0.8482837080955505, 0.9640275835990906],
                          [0.9051482677459717, 0.24491867423057556, -0.6351490020751953]]),
    ("sign_", A, (), {}, [[1.0, -1.0, 1.0], [1.0, 1.0, -1.0]]),
    ("erfinv_", A / 4, (), {}, [[0.11123545467853546, -0.2844337522983551, 0.4769362807273865],
                                [0.3456171154975891, 0.05544595047831535, -0.16772721707820892]]),
    ("remainder_", A, (t(B),), {}, [[0.5, 0.75, 0.0], [0.0, -0.25, 2.25]]),
    ("floor_divide_", A, (t(B),), {}, [[0.0, -1.0, -2.0], [3.0, -1.0, -1.0]]),
    ("addmm_", S, (t(A), t(B.T)), {}, [[-2.0, 7.875], [3.75, 1.375]]),
    ("index_add_", A, (1, t(np.array([1, 0], np.int32)), t(np.float32([[1, 2], [3, 4]]))), {"alpha": 2},
     [[4.5, 0.75, 2.0], [9.5, 6.25, -0.75]]),   # ops.index_add with the source doubled
    ("index_fill_", A, (1, t(np.array([0, 2], np.int32)), -1.0), {}, [[-1.0, -1.25, -1.0], [-1.0, 0.25, -1.0]]),
    # no index_copy on MindSpore 2.10 CPU to observe: columns 2 and 0 replaced, as its docstring describes
    ("index_copy_", A, (1, t(np.array([2, 0], np.int32)), t(np.float32([[1, 2], [3, 4]]))), {},
     [[2.0, -1.25, 1.0], [4.0, 0.25, 3.0]]),
    ("scatter_", A, (1, t(np.array([[2, 0], [1, 1]], np.int32)), t(B[:, :2].copy())), {},
     [[2.0, -1.25, 1.0], [1.5, -0.5, -0.75]]),
    ("scatter_add_", A, (1, t(np.array([[2, 0], [1, 1]], np.int32)), t(B[:, :2].copy())), {},
     [[2.5, -1.25, 3.0], [1.5, 0.25, -0.75]]),
    ("masked_scatter_", A, (t(M), t(np.float32([10, 20, 30]))), {}, [[10.0, -1.25, 20.0], [1.5, 0.25, 30.0]]),
    ("fill_diagonal_", np.zeros((3, 3), np.float32), (5.0,), {}, np.eye(3) * 5),
    # put_ and index_put_ have no CPU kernel in MindSpore 2.10: the examples of their docstrings
    ("put_", np.float32([[4, 3, 5], [6, 7, 8]]), (t(np.array([1, 3], np.int64)), t(np.float32([9, 10]))), {},
     [[4.0, 9.0, 5.0], [10.0, 7.0, 8.0]]),
    ("index_put_", np.array([[1, 2, 3], [4, 5, 6]], np.int32),
     ([t(np.array([0, 1, 1], np.int32)), t(np.array([1, 2, 1], np.int32))], t(np.array([3], np.int32)), True), {},
     [[1, 5, 3], [4, 8, 9]]),
]


@pytest.mark.parametrize("name, x, args, kwargs, expected", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_eager_writes_into_self_and_returns_it(name, x, args, kwargs, expected):
    tensor = Tensor(x.copy())
    alias = Tensor(tensor)          # shares the data, as a view would
    result = getattr(tensor, name)(*args, **kwargs)
    assert result is tensor
    np.testing.assert_allclose(tensor.asnumpy(), expected, rtol=2e-6)
    assert tensor.dtype == Tensor(x).dtype and tensor.shape == x.shape      # dtype and shape kept
    np.testing.assert_array_equal(alias.asnumpy(), tensor.asnumpy())


@pytest.fixture
def graph_mode():
    """Cells compiled (GRAPH_MODE) during the test, PyNative again afterwards."""
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class _Update(nn.Cell):
    """A Cell whose construct applies one in-place method to its Parameter and returns the Parameter."""

    def __init__(self, x, name, args, kwargs):
        super().__init__()
        self.p = Parameter(Tensor(x.copy()), name="p")
        self.method, self.args, self.kwargs = name, args, kwargs

    def construct(self):
        getattr(self.p, self.method)(*self.args, **self.kwargs)
        return self.p + 0


@pytest.mark.parametrize("name, x, args, kwargs, expected", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_compiled_writes_into_a_parameter(graph_mode, name, x, args, kwargs, expected):
    net = _Update(x, name, args, kwargs)
    np.testing.assert_allclose(net().asnumpy(), expected, rtol=2e-6)
    np.testing.assert_allclose(net.p.asnumpy(), expected, rtol=2e-6)
    assert net.p.dtype == Tensor(x).dtype


def test_int_tensor_keeps_its_dtype():
    x = Tensor(I.copy())
    x.add_(1.5)
    assert x.dtype == ms.int32
    np.testing.assert_array_equal(x.asnumpy(), [[2, 1, 4], [0, 1, 5]])   # I + 1.5 truncated toward 0


def test_result_larger_than_self_is_refused():
    with pytest.raises(ValueError, match=r"For 'Tensor.add_', the result of shape \[2, 3\] cannot be written"):
        Tensor(V.copy()).add_(Tensor(A))
    with pytest.raises(ValueError, match=r"'Tensor.copy_', 'src' of shape \[3, 3\] does not broadcast"):
        Tensor(A.copy()).copy_(Tensor(np.ones((3, 3), np.float32)))


def test_fill_value_type_error():
    with pytest.raises(TypeError, match="'value' must be a number or a Tensor"):
        Tensor(A.copy()).fill_("a")


class _AddToWeight(nn.Cell):
    """``self.w.add_(x)`` then a read of ``self.w``: MindSpore 2.10 GRAPH_MODE gives [[2, 4], [6, 8]] for
    w = x = [[1, 2], [3, 4]] and leaves w at that value (observed)."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(X.copy()), name="w")

    def construct(self, x):
        self.w.add_(x)
        return self.w * 1


def test_compiled_update_of_a_parameter(graph_mode):
    net = _AddToWeight()
    np.testing.assert_array_equal(net(Tensor(X)).asnumpy(), [[2.0, 4.0], [6.0, 8.0]])
    np.testing.assert_array_equal(net.w.asnumpy(), [[2.0, 4.0], [6.0, 8.0]])
    np.testing.assert_array_equal(net(Tensor(X)).asnumpy(), [[3.0, 6.0], [9.0, 12.0]])   # at each call


class _Chain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(A.copy()), name="w")

    def construct(self, x):
        before = self.w * 1
        self.w.mul_(2.0).clamp_(-2.0, 2.0)
        self.w.masked_fill_(x > 0, 0.0)
        return before, self.w + 0


def test_compiled_chain_of_updates_matches_eager():
    mask = Tensor(np.float32([[1, -1, -1], [-1, -1, 1]]))
    eager_net, compiled_net = _Chain(), _Chain()
    eager = eager_net(mask)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = compiled_net(mask)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for e, c in zip(eager, compiled):
        np.testing.assert_array_equal(c.asnumpy(), e.asnumpy())
    np.testing.assert_array_equal(compiled_net.w.asnumpy(), eager_net.w.asnumpy())
    np.testing.assert_array_equal(compiled_net.w.asnumpy(), [[0.0, -2.0, 2.0], [2.0, 0.5, 0.0]])


def test_compiled_update_of_a_local_tensor_is_refused_at_the_users_line():
    def f(x):
        y = x * 1
        y.mul_(3)   # the line named
        return y
    with pytest.raises(NotSupportedError, match=r"Tensor.mul_ writes into a tensor in place") as info:
        ms.jit(f)(Tensor(X))
    assert "y.mul_(3)   # the line named" in str(info.value)


def test_compiled_update_of_an_input_is_refused():
    with pytest.raises(NotSupportedError, match="Tensor.add_"):
        ms.jit(lambda x: x.add_(1.0))(Tensor(X))


def test_methods_are_attached():
    assert set(tensor_inplace.METHODS) == {
        "add_", "sub_", "mul_", "div_", "copy_", "zero_", "fill_", "clamp_", "masked_fill_", "exp_", "log_", "floor_",
        "sigmoid_", "tanh_", "sign_", "erfinv_", "remainder_", "floor_divide_", "addmm_", "index_add_", "index_fill_",
        "index_copy_", "scatter_", "scatter_add_", "masked_scatter_", "fill_diagonal_", "put_", "index_put_"}
    for name, function in tensor_inplace.METHODS.items():
        assert getattr(Tensor, name) is function


def test_traced_update_of_a_local_tensor_is_refused():
    namespace = {}
    exec("def f(x):\n    y = x * 1\n    y.add_(1.0)\n    return y\n", namespace)   # no source: traced
    with pytest.raises(NotSupportedError, match="Tensor.add_"):
        ms.jit(namespace["f"])(Tensor(X))


def test_traced_update_of_a_parameter(graph_mode):
    namespace = {}
    exec("def construct(self, x):\n    self.w.add_(x)\n    return self.w * 1\n", namespace)
    net = _AddToWeight()
    net.construct = namespace["construct"].__get__(net)
    np.testing.assert_array_equal(net(Tensor(X)).asnumpy(), [[2.0, 4.0], [6.0, 8.0]])
    np.testing.assert_array_equal(net(Tensor(X)).asnumpy(), [[3.0, 6.0], [9.0, 12.0]])
    np.testing.assert_array_equal(net.w.asnumpy(), [[3.0, 6.0], [9.0, 12.0]])


class _Accumulate(nn.Cell):
    """``self.total.add_(xs[i])`` in a loop next to a differentiated product."""

    def __init__(self):
        super().__init__()
        self.total = Parameter(Tensor(np.zeros(3, np.float32)), name="total", requires_grad=False)
        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="w")

    def construct(self, xs):
        for i in range(xs.shape[0]):
            self.total.add_(xs[i])
        return (self.w * xs).sum()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_update_in_a_loop_and_under_grad(mode):
    xs = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    net = _Accumulate()
    ms.set_context(mode=mode)
    try:
        out = net(xs)
        np.testing.assert_array_equal(net.total.asnumpy(), [3.0, 5.0, 7.0])
        (d_w,) = ms.grad(net, None, net.trainable_params())(xs)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert float(out) == 15.0
    np.testing.assert_array_equal(d_w.asnumpy(), [3.0, 5.0, 7.0])
    np.testing.assert_array_equal(net.total.asnumpy(), [6.0, 10.0, 14.0])   # the grad call ran the loop again
