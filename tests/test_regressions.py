"""Regression tests for issue 10 ("never silently wrong"): each is a minimal program that once gave a
wrong value, a crash or a wrong refusal, checked against eager execution or float64 central
differences. The comment on each names the stage where its class of bug arose."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops


def T(a):
    """A float64 Tensor of ``a``."""
    return Tensor(np.array(a, dtype=np.float64))


def total(fn, arrays):
    """The sum of every element of every output of ``fn`` (MindSpore's all-ones sensitivity)."""
    out = fn(*[T(a) for a in arrays])
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return sum(float(np.sum(o.asnumpy())) for o in outs)


def fd_grad(fn, arrays, j, h=1e-6):
    """d total(fn) / d arrays[j] by central differences of the eager float64 function."""
    x = np.array(arrays[j], dtype=np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        ahead = [np.array(a, dtype=np.float64) for a in arrays]
        behind = [np.array(a, dtype=np.float64) for a in arrays]
        ahead[j][idx] += h
        behind[j][idx] -= h
        g[idx] = (total(fn, ahead) - total(fn, behind)) / (2 * h)
    return g


def assert_close(got, expected):
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(expected, np.float64), rtol=1e-5, atol=1e-6)


# ---- codegen: a loop's back edge is a parallel copy (swaps of carried values)

def swap(a, b):
    for _ in range(3):
        a, b = b, a
    return a * 10.0 + b


def swap_scaled(a, b):
    for _ in range(3):
        a, b = b, a * 2.0
    return (a * 10.0 + b).sum()


def test_loop_swap_forward():
    a, b = np.array([1.0, 2.0]), np.array([-2.0, 3.0])
    assert_close(ms.jit(swap)(T(a), T(b)).asnumpy(), [-19.0, 32.0])


def test_loop_swap_gradient():
    a, b = np.array([1.0, 2.0]), np.array([-2.0, 3.0])
    da, db = ms.grad(swap_scaled, (0, 1))(T(a), T(b))
    assert_close(da.asnumpy(), [4.0, 4.0])
    assert_close(db.asnumpy(), [20.0, 20.0])


# ---- codegen: a loop parameter the body never reads is still bound (its output is read after the loop)

def carried_not_read(a):
    x = a
    for i in range(3):
        x = a * i
    return x.sum()


def cotangent_not_read(x0, x1):
    v1 = x0 * 2.0
    for _ in range(2):
        x0 = ops.where(x0 < 0.0, x1, 0.0)
    return x0.sum() + v1.sum()


def test_loop_value_not_read_forward():
    assert float(ms.jit(carried_not_read)(T([1.0, 2.0])).asnumpy()) == 6.0


def test_loop_cotangent_not_read_gradient():
    x0, x1 = np.array([[0.5, -0.3], [0.2, 0.9]]), np.array([[1.0, 2.0], [3.0, 4.0]])
    assert_close(ms.grad(cotangent_not_read, 0)(T(x0), T(x1)).asnumpy(), fd_grad(cotangent_not_read, [x0, x1], 0))


# ---- differentiate (backward_loop): a carried value whose initial value the body also reads

def init_read_by_body(a):
    out = a
    for i in range(3):
        out = out + a * i
    return out.sum()


def init_through_tuple(a):
    pair = (a, a * 2.0)
    out, other = pair
    for i in range(3):
        out = out * 0.5 + a * i + other
    return out.sum()


def init_in_while(a):
    out = a
    n = ops.zeros((), ms.float64)
    while n < 3:
        out = out * 0.5 + ops.sin(a)
        n = n + 1
    return out.sum()


class ParamInit(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = ms.Parameter(T([0.5, -1.5]), name="w0")

    def construct(self, x):
        v = self.w0
        for i in range(3):
            v = v * x + self.w0
        return v.sum()


class MethodSameTensorTwice(nn.Cell):
    def step(self, a0, a1):
        for _ in range(1, 4):
            a1 = ops.sin(a1 * a0)
        return a1

    def construct(self, x):
        return self.step(x, x).sum()


def loop_over_tuple(x0, x1):
    out = x0
    for t in (x0, x1, x0):
        for i in range(2):
            out = out * t + x0
    return out.sum()


@pytest.mark.parametrize("fn", [init_read_by_body, init_through_tuple, init_in_while, MethodSameTensorTwice()])
def test_loop_init_read_by_body_gradient(fn):
    a = np.array([0.3, -0.8])
    assert_close(ms.grad(fn, 0)(T(a)).asnumpy(), fd_grad(fn, [a], 0))


def test_loop_init_from_parameter_gradient():
    net = ParamInit()
    x = np.array([0.7, -0.4])
    grad = ms.grad(net, None, net.trainable_params())(T(x))[0].asnumpy()
    w = net.w0.asnumpy().copy()
    expected = np.zeros(2)
    for k in range(2):
        for sign in (1, -1):
            net.w0.set_data(T(w + sign * 1e-6 * np.eye(2)[k]))
            expected[k] += sign * float(net(T(x)).asnumpy()) / 2e-6
    net.w0.set_data(T(w))
    assert_close(grad, expected)


def test_loop_over_tuple_alias_gradient():
    x0, x1 = np.array([0.3, -0.8]), np.array([0.5, 0.2])
    for j in (0, 1):
        assert_close(ms.grad(loop_over_tuple, j)(T(x0), T(x1)).asnumpy(), fd_grad(loop_over_tuple, [x0, x1], j))


# ---- specialize (_merge_envs): a name already poisoned by an earlier unrolled iteration stays poisoned

def helper_double(a):
    return a * 2.0


def one_branch_name_in_unrolled_loop(x):
    for _ in (x, x, x):
        if x.sum() > 0.0:
            a = helper_double(x)  # noqa: F841 - assigned in one branch only
        else:
            b = x * 3.0  # noqa: F841
    return x * 1.0


def test_one_branch_name_in_unrolled_loop_compiles():
    assert_close(ms.jit(one_branch_name_in_unrolled_loop)(T([1.0, 2.0])).asnumpy(), [1.0, 2.0])


# ---- specialize (_binary): arithmetic on Tensors built in compiled code is computed at compile time

def tensor_ctor_then_add(x):
    c = Tensor(0, ms.int32)
    c = c + 1
    return x * c


@ms.jit
def two_tensor_constants():
    a = Tensor([1, 2, 3])
    b = Tensor([1, 1, 1])
    return a + b


def test_tensor_built_in_compiled_code():
    assert_close(ms.jit(tensor_ctor_then_add)(T([1.0, 2.0])).asnumpy(), [1.0, 2.0])
    # observed on MindSpore 2.10 CPU: [2 3 4]
    assert two_tensor_constants().asnumpy().tolist() == [2, 3, 4]


# ---- differentiate (backward_loop): a loop's tape is created once at the top of the function, so a
# loop inside a tensor 'if' or inside a while keeps its tape dependencies at the second order

def loop_in_branch(x, y):
    if y.sum() > -100.0:
        for _ in range(3):
            x = ops.sin(x * y)
    return x.sum()


def loop_in_while(x, y):
    v = ops.tanh(x)
    c = x.sum() * 0.0
    while c < 2:
        for _ in range(2):
            x = x + ops.tanh(v)
        c = c + 1.0
    return (y * x).sum()


@pytest.mark.parametrize("fn", [loop_in_branch, loop_in_while])
def test_second_order_through_nested_loop(fn):
    x, y = np.array([0.3, -0.7]), np.array([0.9, 0.4])
    inner = ms.grad(fn, 0)
    assert_close(inner(T(x), T(y)).asnumpy(), fd_grad(fn, [x, y], 0))
    dd = ms.grad(inner, (0, 1))(T(x), T(y))
    for j in (0, 1):
        assert_close(dd[j].asnumpy(), fd_grad(inner, [x, y], j))
