"""MindSpore's gradient primitives (``ops.operations._grad_ops``, the ``*Grad`` classes of
``ops.auto_generate.gen_ops_prim``): MindSpore 2.10's values (recorded by
``tools/observe_mindspore_grad_primitives.py`` from the real MindSpore, CPU, in a separate virtualenv), eagerly
and compiled; each one against central differences of its forward op in float64 (which ties it to the
forward's derivative); its own gradient against finite differences; and the paths that reach it."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops
from npspore.ops.operations import _grad_ops as G
from npspore.testing import check_grads
from recorded_values import check_eager_and_compiled

Y = np.array([[0.25, 0.5, 0.75], [0.1, 0.6, 0.9]], np.float32)
X = np.array([[-1.5, -0.25, 0.0], [0.5, 2.0, 7.0]], np.float32)
DY = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]], np.float32)
ONES = np.ones((2, 3), np.float32)
KINKS = np.array([[-1.0, 0.0, 3.0], [6.0, 7.0, 6.5]], np.float32)   # ReLU6's

# case -> (primitive, constructor keywords, input arrays), as tools/observe_mindspore_grad_primitives.py calls it
CASES = {
    "SigmoidGrad": ("SigmoidGrad", {}, (Y, DY)),
    "TanhGrad": ("TanhGrad", {}, (Y, DY)),
    "SqrtGrad": ("SqrtGrad", {}, (Y, DY)),
    "RsqrtGrad": ("RsqrtGrad", {}, (Y, DY)),
    "ReciprocalGrad": ("ReciprocalGrad", {}, (Y, DY)),
    "InvGrad": ("InvGrad", {}, (Y, DY)),
    "ReluGrad": ("ReluGrad", {}, (DY, X)),
    "AcoshGrad": ("AcoshGrad", {}, (Y, DY)),
    "AsinhGrad": ("AsinhGrad", {}, (Y, DY)),
    "EluGrad": ("EluGrad", {}, (DY, X)),
    "SeluGrad": ("SeluGrad", {}, (DY, X)),
    "AbsGrad": ("AbsGrad", {}, (X, DY)),
    "ACosGrad": ("ACosGrad", {}, (Y, DY)),
    "AsinGrad": ("AsinGrad", {}, (Y, DY)),
    "AtanGrad": ("AtanGrad", {}, (X, DY)),
    "ReLU6Grad": ("ReLU6Grad", {}, (DY, X)),
    "ReLU6Grad_kinks": ("ReLU6Grad", {}, (ONES, KINKS)),
    "SoftplusGrad": ("SoftplusGrad", {}, (DY, X)),
    "FastGeLUGrad": ("FastGeLUGrad", {}, (DY, X)),
    "HSigmoidGrad": ("HSigmoidGrad", {}, (DY, X)),
    "HSwishGrad": ("HSwishGrad", {}, (DY, X)),
    "SiLUGrad": ("SiLUGrad", {}, (DY, X)),
    "HShrinkGrad": ("HShrinkGrad", {}, (DY, X)),
    "HShrinkGrad_lambd": ("HShrinkGrad", {"lambd": 1.8}, (DY, X)),
    "SoftShrinkGrad": ("SoftShrinkGrad", {}, (DY, X)),
    "SoftShrinkGrad_lambd": ("SoftShrinkGrad", {"lambd": 1.8}, (DY, X)),
    "LogitGrad": ("LogitGrad", {}, (DY, Y)),
    "LogitGrad_eps": ("LogitGrad", {"eps": 0.2}, (DY, Y)),
}

# printed by tools/observe_mindspore_grad_primitives.py (MindSpore 2.10.0 CPU); every result is Float32, and a
# string is the error MindSpore 2.10 CPU raises (no kernel: that primitive is checked by its derivative only)
MINDSPORE_VALUES = {
    'SigmoidGrad': [[0.1875, -0.5, 0.09375], [0.26999998092651367, 0.05999999865889549, -0.13500002026557922]],
    'TanhGrad': [[0.9375, -1.5, 0.21875], [2.9700000286102295, 0.1599999964237213, -0.2850000560283661]],
    'SqrtGrad': [[2.0, -2.0, 0.3333333432674408], [15.0, 0.2083333283662796, -0.8333333730697632]],
    'RsqrtGrad': [[-0.0078125, 0.125, -0.10546875], [-0.001500000013038516, -0.027000002562999725, 0.5467499494552612]],
    'ReciprocalGrad': [[-0.0625, 0.5, -0.28125], [-0.030000001192092896, -0.09000000357627869, 1.2149999141693115]],
    'InvGrad': [[-0.0625, 0.5, -0.28125], [-0.030000001192092896, -0.09000000357627869, 1.2149999141693115]],
    'ReluGrad': [[0.0, 0.0, 0.0], [3.0, 0.25, -1.5]],
    'AcoshGrad': [[3.958635091781616, -3.8380696773529053, 0.6080382466316223], [29.950057983398438, 0.3926781713962555, -1.4612524509429932]],
    'AsinhGrad': [[0.9695436358451843, -1.7736377716064453, 0.3861948251724243], [2.98506236076355, 0.21088767051696777, -1.0466920137405396]],
    'EluGrad': [[-0.5, -1.5, 0.5], [3.0, 0.25, -1.5]],
    'SeluGrad': 'RuntimeError: The kernel SeluGrad unregistered.',
    'AbsGrad': [[-1.0, 2.0, 0.0], [3.0, 0.25, -1.5]],
    'ACosGrad': [[-1.0327955484390259, 2.309401035308838, -0.7559289932250977], [-3.015113353729248, -0.3125, 3.4412355422973633]],
    'AsinGrad': [[1.0327955484390259, -2.309401035308838, 0.7559289932250977], [3.015113353729248, 0.3125, -3.4412355422973633]],
    'AtanGrad': [[0.3076923191547394, -1.8823529481887817, 0.5], [2.4000000953674316, 0.05000000074505806, -0.029999999329447746]],
    'ReLU6Grad': [[0.0, 0.0, 0.0], [3.0, 0.25, 0.0]],
    'ReLU6Grad_kinks': [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
    'SoftplusGrad': [[0.18242548406124115, -0.8756470680236816, 0.25], [1.8673782348632812, 0.22019928693771362, -1.4986335039138794]],
    'FastGeLUGrad': [[-0.09884806722402573, -0.5869991183280945, 0.25], [2.6376657485961914, 0.26845383644104004, -1.5001096725463867]],
    'HSigmoidGrad': [[0.1666666716337204, -0.3333333432674408, 0.0833333358168602], [0.5, 0.0416666679084301, 0.0]],
    'HSwishGrad': [[0.0, -0.8333333134651184, 0.25], [2.0, 0.2916666567325592, -1.5]],
    'SiLUGrad': [[-0.04129414260387421, -0.7525800466537476, 0.25], [2.219883680343628, 0.27269604802131653, -1.5081902742385864]],
    'HShrinkGrad': [[1.0, 0.0, 0.0], [0.0, 0.25, -1.5]],
    'HShrinkGrad_lambd': [[0.0, 0.0, 0.0], [0.0, 0.25, -1.5]],
    'SoftShrinkGrad': [[1.0, 0.0, 0.0], [0.0, 0.25, -1.5]],
    'SoftShrinkGrad_lambd': [[0.0, 0.0, 0.0], [0.0, 0.25, -1.5]],
    'LogitGrad': [[5.333333492279053, -8.0, 2.6666667461395264], [33.333335876464844, 1.0416667461395264, -16.666664123535156]],
    'LogitGrad_eps': [[5.333333492279053, -8.0, 2.6666667461395264], [0.0, 1.0416667461395264, 0.0]],
}


@pytest.mark.parametrize("case", [case for case in CASES if not isinstance(MINDSPORE_VALUES[case], str)])
def test_mindspore_values(case):
    name, keywords, inputs = CASES[case]
    primitive = getattr(G, name)(**keywords)
    check_eager_and_compiled(lambda *tensors: primitive(*tensors), inputs, (MINDSPORE_VALUES[case], "Float32"))


def test_relu6_gradient_at_its_kinks():
    # MindSpore differentiates ReLU6 by ReLU6Grad: 0 at x = 0 (npspore's clip passed 1 there), 1 at x = 6
    gradient = ms.grad(ops.relu6)(Tensor(KINKS))
    np.testing.assert_array_equal(gradient.asnumpy(), MINDSPORE_VALUES["ReLU6Grad_kinks"])


def _ones_between(low, high):
    """A float64 point of 2x3 values spread over ``[low, high]``, none at a kink of the ops below."""
    return np.linspace(low, high, 6).reshape(2, 3) + 0.013


# primitive -> (forward op, constructor keywords, the primitive's inputs: x the forward's input, y its output,
# d the output's gradient, the point x)
DERIVATIVES = {
    "SigmoidGrad": (ops.sigmoid, {}, "yd", _ones_between(-3, 3)),
    "TanhGrad": (ops.tanh, {}, "yd", _ones_between(-2, 2)),
    "SqrtGrad": (ops.sqrt, {}, "yd", _ones_between(0.2, 4)),
    "RsqrtGrad": (ops.rsqrt, {}, "yd", _ones_between(0.2, 4)),
    "ReciprocalGrad": (ops.reciprocal, {}, "yd", _ones_between(0.2, 4)),
    "InvGrad": (ops.inv, {}, "yd", _ones_between(-4, -0.2)),
    "ReluGrad": (ops.relu, {}, "dx", _ones_between(-2, 2)),
    "AcoshGrad": (ops.acosh, {}, "yd", _ones_between(1.2, 4)),
    "AsinhGrad": (ops.asinh, {}, "yd", _ones_between(-3, 3)),
    "EluGrad": (ops.elu, {}, "dy", _ones_between(-3, 3)),
    "SeluGrad": (ops.selu, {}, "dy", _ones_between(-3, 3)),
    "AbsGrad": (ops.abs, {}, "xd", _ones_between(-3, 3)),
    "ACosGrad": (ops.acos, {}, "xd", _ones_between(-0.9, 0.9)),
    "AsinGrad": (ops.asin, {}, "xd", _ones_between(-0.9, 0.9)),
    "AtanGrad": (ops.atan, {}, "xd", _ones_between(-3, 3)),
    "ReLU6Grad": (ops.relu6, {}, "dx", _ones_between(-2, 8)),
    "SoftplusGrad": (ops.softplus, {}, "dx", _ones_between(-3, 3)),
    "FastGeLUGrad": (ops.fast_gelu, {}, "dx", _ones_between(-3, 3)),
    "HSigmoidGrad": (ops.hardsigmoid, {}, "dx", _ones_between(-4, 4)),
    "HSwishGrad": (ops.hardswish, {}, "dx", _ones_between(-4, 4)),
    "SiLUGrad": (ops.silu, {}, "dx", _ones_between(-3, 3)),
    "HShrinkGrad": (lambda x: ops.hardshrink(x, 1.2), {"lambd": 1.2}, "dx", _ones_between(-3, 3)),
    "SoftShrinkGrad": (lambda x: ops.softshrink(x, 1.2), {"lambd": 1.2}, "dx", _ones_between(-3, 3)),
    "LogitGrad": (lambda x: ops.logit(x, 0.2), {"eps": 0.2}, "dx", _ones_between(0.05, 0.95)),
}


def _vjp_by_differences(forward, x, dout, step=1e-6):
    """``dout``'s vector-Jacobian product with ``forward`` at ``x``, by central differences in float64."""
    gradient = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        shift = np.zeros_like(x)
        shift[index] = step
        ahead = forward(Tensor(x + shift)).asnumpy()
        behind = forward(Tensor(x - shift)).asnumpy()
        gradient[index] = np.sum(dout * (ahead - behind)) / (2 * step)
    return gradient


def _inputs(forward, order, x, dout):
    values = {"x": x, "y": forward(Tensor(x)).asnumpy(), "d": dout}
    return [Tensor(values[kind]) for kind in order]


@pytest.mark.parametrize("name", sorted(DERIVATIVES))
def test_is_the_forward_ops_derivative(name):
    forward, keywords, order, x = DERIVATIVES[name]
    dout = np.linspace(-1.5, 2.0, x.size).reshape(x.shape)
    out = getattr(G, name)(**keywords)(*_inputs(forward, order, x, dout))
    assert out.dtype == ms.float64
    np.testing.assert_allclose(out.asnumpy(), _vjp_by_differences(forward, x, dout), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", sorted(DERIVATIVES))
def test_own_gradient(name):
    forward, keywords, order, x = DERIVATIVES[name]
    primitive = getattr(G, name)(**keywords)
    dout = np.linspace(-1.5, 2.0, x.size).reshape(x.shape)
    check_grads(lambda *inputs: primitive(*inputs), _inputs(forward, order, x, dout), order=1)


def test_paths_and_names():
    from npspore.ops.auto_generate import gen_ops_prim
    import npspore.ops.operations as P
    assert gen_ops_prim.SigmoidGrad is G.SigmoidGrad and gen_ops_prim.MatMul is P.MatMul
    assert repr(G.HShrinkGrad(lambd=1.0)) == "Prim[HShrinkGrad]<lambd=1.0>"
    with pytest.raises(AttributeError, match="'mindspore.ops.operations.ReluGrad' is not implemented"):
        P.ReluGrad  # noqa: B018 (MindSpore keeps the gradient primitives out of ops.operations)
    with pytest.raises(AttributeError, match="InvGrad"):
        gen_ops_prim.InvGrad  # noqa: B018 (only _grad_ops has InvGrad in MindSpore 2.10)
    with pytest.raises(TypeError, match="lambd"):
        G.SoftShrinkGrad(lambd=1)
