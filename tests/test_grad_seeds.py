"""The gradient examples of the seed pages print what the pages show (002 grad, 003 the autodiff blog,
000 mutable), in 2.10's ``value= [`` form (semantics doc §14b)."""
import numpy as np

import npspore as ms
import npspore.nn as nn
from npspore import Parameter, Tensor, grad, ops
from npspore.common import dtype as mstype
from npspore.common import mutable
from npspore.ops.composite import GradOperation


def printed(capsys, value) -> str:
    print(value)
    return capsys.readouterr().out.rstrip("\n")


# ------------------------------------------------------------------------------------ seed 002: mindspore.grad


class Net(nn.Cell):
    def construct(self, x, y, z):
        return x * y * z


def fn(x, y, z):
    res = x * ops.exp(y) * ops.pow(z, 2)
    return res, z


def test_seed_002_cell_inputs(capsys):
    x = Tensor([1, 2], ms.float32)
    y = Tensor([-2, 3], ms.float32)
    z = Tensor([0, 3], ms.float32)
    output = grad(Net(), grad_position=(1, 2))(x, y, z)
    assert printed(capsys, output) == (
        "(Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  6.00000000e+00]), "
        "Tensor(shape=[2], dtype=Float32, value= [-2.00000000e+00,  6.00000000e+00]))")


def test_seed_002_function_with_aux(capsys):
    x = Tensor([3, 3], ms.float32)
    y = Tensor([0, 0], ms.float32)
    z = Tensor([5, 5], ms.float32)
    gradient, aux = grad(fn, (1, 2), None, True)(x, y, z)
    assert printed(capsys, gradient) == (
        "(Tensor(shape=[2], dtype=Float32, value= [ 7.50000000e+01,  7.50000000e+01]), "
        "Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+01,  3.00000000e+01]))")
    assert printed(capsys, aux) == "(Tensor(shape=[2], dtype=Float32, value= [ 5.00000000e+00,  5.00000000e+00]),)"


dense_net = nn.Dense(10, 1)
loss_fn = nn.MSELoss()


def forward(inputs, labels):
    logits = dense_net(inputs)
    loss = loss_fn(logits, labels)
    return loss, logits


def test_seed_002_inputs_and_weights(capsys):
    inputs = Tensor(np.random.randn(16, 10).astype(np.float32))
    labels = Tensor(np.random.randn(16, 1).astype(np.float32))
    weights = dense_net.trainable_params()
    # Case 1: gradient with respect to inputs.
    grad_fn = grad(forward, grad_position=(0, 1), weights=None, has_aux=True)
    inputs_gradient, (aux_logits,) = grad_fn(inputs, labels)
    print(len(inputs_gradient))
    print(aux_logits.shape)
    # Case 2: gradient with respect to weights.
    grad_fn = grad(forward, grad_position=None, weights=weights, has_aux=True)
    params_gradient, (aux_logits,) = grad_fn(inputs, labels)
    print(len(weights), len(params_gradient))
    print(aux_logits.shape)
    # Case 3: gradient with respect to inputs and weights.
    grad_fn = grad(forward, grad_position=0, weights=weights, has_aux=False)
    inputs_gradient, params_gradient = grad_fn(inputs, labels)
    print(len(weights), len(params_gradient))
    assert capsys.readouterr().out == "2\n(16, 1)\n2 2\n(16, 1)\n2 2\n"
    # without has_aux both outputs get ones: d(loss + sum(logits)), loss = mean((x @ W.T + b - labels) ** 2)
    x, t = inputs.asnumpy(), labels.asnumpy()
    w, b = dense_net.weight.asnumpy(), dense_net.bias.asnumpy()
    residual = 2 * (x @ w.T + b - t) / t.size + 1
    np.testing.assert_allclose(inputs_gradient.asnumpy(), residual @ w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(params_gradient[0].asnumpy(), residual.T @ x, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(params_gradient[1].asnumpy(), residual.sum(0), rtol=1e-5, atol=1e-6)


def test_seed_002_return_ids(capsys):
    x = Tensor([1, 2], ms.float32)
    y = Tensor([-2, 3], ms.float32)
    z = Tensor([0, 3], ms.float32)
    output = grad(Net(), grad_position=(1, 2), return_ids=True)(x, y, z)
    assert printed(capsys, output) == (
        "((1, Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  6.00000000e+00])), "
        "(2, Tensor(shape=[2], dtype=Float32, value= [-2.00000000e+00,  6.00000000e+00])))")


# ------------------------------------------------------------------------------------ seed 003: the autodiff blog


def fE(x, y, z):
    return x * z + y


class E(nn.Cell):
    def __init__(self):
        super(E, self).__init__()
        self.z = Parameter(Tensor([3.], ms.float32), requires_grad=True, name='z')

    def construct(self, x, y):
        return x * self.z + y


def test_seed_003_function_positions(capsys):
    x = Tensor([2.0], ms.float32)
    y = Tensor([5.0], ms.float32)
    assert printed(capsys, ops.grad(fE)(x, y, Tensor([3.], ms.float32))) == "[3.]"
    assert printed(capsys, ops.grad(fE, grad_position=(2, ))(x, y, Tensor([3.], ms.float32))) == "[2.]"
    assert printed(capsys, ops.grad(fE, grad_position=(0, 1, 2))(x, y, Tensor([3.], ms.float32))) == (
        "(Tensor(shape=[1], dtype=Float32, value= [ 3.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))")


def test_seed_003_cell_and_grad_operation(capsys):
    x = Tensor([2.0], ms.float32)
    y = Tensor([5.0], ms.float32)
    nt = E()
    assert printed(capsys, ops.grad(nt)(x, y)) == "[3.]"
    assert printed(capsys, ops.grad(nt, grad_position=(0, 1))(x, y)) == (
        "(Tensor(shape=[1], dtype=Float32, value= [ 3.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))")
    nt = E()
    grad_net = ops.GradOperation(get_by_list=True)(nt, nt.z)
    assert printed(capsys, grad_net(x, y)) == "[2.]"


# ------------------------------------------------------------------------------------ seed 000: mutable


class MatMulNet(nn.Cell):
    def __init__(self):
        super(MatMulNet, self).__init__()
        self.matmul = ops.MatMul()

    def construct(self, z):
        x = z[0]
        y = z[1]
        out = self.matmul(x, y)
        return out


class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super(GradNetWrtX, self).__init__()
        self.net = net
        self.grad_op = GradOperation()

    def construct(self, z):
        gradient_function = self.grad_op(self.net)
        return gradient_function(z)


def _mutable_input():
    return mutable((Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], dtype=mstype.float32),
                    Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], dtype=mstype.float32)))


# The page's text. MindSpore's CPU matmul kernel sums the three products of each row of d(x) as
# (p0 + p2) + p1 (a 4-lane SIMD dot product), NumPy's BLAS as (p0 + p1) + p2: two float32 elements
# differ in their last bit (1.60000002e+00 / 6.59999943e+00 on the page). SEED_000 is checked exactly
# with those two elements replaced, and they are checked to be the neighbouring float32 values.
SEED_000 = (
    "(Tensor(shape=[2, 3], dtype=Float32, value=\n"
    "[[ 1.41000009e+00,  {a},  {b}],\n"
    " [ 1.41000009e+00,  {a},  {b}]]), Tensor(shape=[3, 3], dtype=Float32, value=\n"
    "[[ 1.70000005e+00,  1.70000005e+00,  1.70000005e+00],\n"
    " [ 1.89999998e+00,  1.89999998e+00,  1.89999998e+00],\n"
    " [ 1.50000000e+00,  1.50000000e+00,  1.50000000e+00]]))")


def _check_seed_000(text, output):
    dx = output[0].asnumpy()
    assert text == SEED_000.format(a=f"{dx[0, 1]:.8e}", b=f"{dx[0, 2]:.8e}")
    assert abs(np.float32(1.60000002) - dx[0, 1]) <= np.spacing(np.float32(1.6))
    assert abs(np.float32(6.59999943) - dx[0, 2]) <= np.spacing(np.float32(6.6))


def test_seed_000_mutable_tuple_gradient(capsys):
    output = GradNetWrtX(MatMulNet())(_mutable_input())
    _check_seed_000(printed(capsys, output), output)


def test_seed_000_in_graph_mode(capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        output = GradNetWrtX(MatMulNet())(_mutable_input())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    _check_seed_000(printed(capsys, output), output)
