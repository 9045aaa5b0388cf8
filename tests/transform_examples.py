"""The docstring examples of MindSpore 2.10's forward-mode and vector-Jacobian transforms, as programs.

Each entry is the example's code as the docstring in MindSpore 2.10's wheel has it
(``mindspore/ops/function/grad/grad_func.py``: ``jvp``, ``vjp``, ``jacfwd``, ``jacrev``,
``linearize``, ``derivative``; ``mindspore/nn/grad/cell_grad.py``: ``nn.Jvp``, ``nn.Vjp``, which
have none in 2.10, so their MindSpore 1.6 page's example is used), joined into one script that
prints. ``ERRORS`` are calls MindSpore refuses, each printing ``type: message``.
``tools/observe_mindspore_transforms.py`` runs them on the real MindSpore and records what they
print in ``tests/golden/mindspore_transforms.json``; ``tests/test_forward_mode_api.py`` runs them on
npspore (``import mindspore`` resolved to npspore) and compares.
"""

_NET = """
import numpy as np
import mindspore
import mindspore.nn as nn
from mindspore import Tensor
class Net(nn.Cell):
    def construct(self, x, y):
        return x**3 + y
x = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
y = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
v = Tensor(np.array([[1, 1], [1, 1]]).astype(np.float32))
"""

_MIMO = """
import numpy as np
import mindspore.nn as nn
from mindspore import Tensor
class MultipleInputsMultipleOutputsNet(nn.Cell):
    def construct(self, x, y, z):
        return x ** 2 + y ** 2 + z ** 2, x * y * z
x = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
y = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
z = Tensor(np.array([[1, 1], [1, 1]]).astype(np.float32))
net = MultipleInputsMultipleOutputsNet()
"""

# MindSpore's tutorial "Computing Jacobian and Hessian Matrices Using Functional Transformations"
# (tutorials/experts/source_en/func_programming/Jacobians_Hessians.md, MindSpore 2.x docs): its code
# with the data drawn by NumPy's seeded generator instead of ops.randn (whose draws npspore does not
# reproduce), weights scaled by 0.25 (where tanh saturates, MindSpore's float32 derivative of tanh is
# 4% off float64's, npspore's is not), values printed rounded, the timing and vmap sections left out.
_JACOBIANS_HESSIANS_TUTORIAL = """
import numpy as np
import mindspore
from mindspore import ops, Tensor
from mindspore import jacrev, jacfwd, vjp, jvp, grad

rng = np.random.default_rng(1)


def forecast(weight, bias, x):
    return ops.dense(x, weight, bias).tanh()


D = 16
weight = Tensor((rng.standard_normal((D, D)) * 0.25).astype(np.float32))
bias = Tensor(rng.standard_normal(D).astype(np.float32))
x = Tensor(rng.standard_normal(D).astype(np.float32))


def partial_forecast(x):
    return ops.dense(x, weight, bias).tanh()


_, vjp_fn = vjp(partial_forecast, x)


def compute_jac_matrix(unit_vectors):
    jacobian_rows = [vjp_fn(vec)[0] for vec in unit_vectors]
    return ops.stack(jacobian_rows)


unit_vectors = ops.eye(D)
jacobian = compute_jac_matrix(unit_vectors)
print(jacobian.shape)
print(np.round(jacobian[0].asnumpy(), 5).tolist())
jacrev_jacobian = jacrev(forecast, grad_position=2)(weight, bias, x)
print(np.allclose(jacrev_jacobian.asnumpy(), jacobian.asnumpy()))
jacrev_weight, jacrev_bias = jacrev(forecast, grad_position=(0, 1))(weight, bias, x)
print(jacrev_weight.shape)
print(jacrev_bias.shape)
print(np.round(jacrev_bias[0].asnumpy(), 5).tolist())

Din = 32
Dout = 16
weight = Tensor((rng.standard_normal((Dout, Din)) * 0.25).astype(np.float32))
bias = Tensor(rng.standard_normal(Dout).astype(np.float32))
x = Tensor(rng.standard_normal(Din).astype(np.float32))
hess1 = jacfwd(jacfwd(forecast, grad_position=2), grad_position=2)(weight, bias, x)
hess2 = jacfwd(jacrev(forecast, grad_position=2), grad_position=2)(weight, bias, x)
hess3 = jacrev(jacfwd(forecast, grad_position=2), grad_position=2)(weight, bias, x)
hess4 = jacrev(jacrev(forecast, grad_position=2), grad_position=2)(weight, bias, x)
print(hess1.shape)
print(np.allclose(hess1.asnumpy(), hess2.asnumpy(), atol=1e-6))
print(np.allclose(hess2.asnumpy(), hess3.asnumpy(), atol=1e-6))
print(np.allclose(hess3.asnumpy(), hess4.asnumpy(), atol=1e-6))
print(np.round(hess1[0, 0, :4].asnumpy(), 4).tolist())


def hvp_revfwd(f, inputs, vector):
    return jvp(grad(f), inputs, vector)[1]


def f(x):
    return x.sin().sum()


inputs = Tensor(rng.standard_normal(128).astype(np.float32))
vector = Tensor(rng.standard_normal(128).astype(np.float32))
result_hvp_revfwd = hvp_revfwd(f, inputs, vector)
print(result_hvp_revfwd.shape)


def hvp_revrev(f, inputs, vector):
    _, vjp_fn = vjp(grad(f), *inputs)
    return vjp_fn(*vector)


result_hvp_revrev = hvp_revrev(f, (inputs,), (vector,))
print(result_hvp_revrev[0].shape)
print(np.allclose(result_hvp_revfwd.asnumpy(), result_hvp_revrev[0].asnumpy()))
print(np.round(result_hvp_revfwd[:4].asnumpy(), 5).tolist())
"""

EXAMPLES = {
    "jvp": _NET + """
from mindspore import jvp
output = jvp(Net(), (x, y), (v, v))
print(output[0])
print(output[1])
def fn(x, y):
    return x ** 3 + y, y
output, jvp_out, aux = jvp(fn, (x, y), (v, v), has_aux=True)
print(output)
print(jvp_out)
print(aux)
""",
    "vjp": _NET + """
from mindspore import vjp
outputs, vjp_fn = vjp(Net(), x, y)
print(outputs)
gradient = vjp_fn(v)
print(gradient)
def fn(x, y):
    return 2 * x + y, y ** 3
outputs, vjp_fn, aux = vjp(fn, x, y, has_aux=True)
gradient = vjp_fn(v)
print(outputs)
print(aux)
print(gradient)
""",
    "jacfwd": _MIMO + """
from mindspore import jacfwd
jac, aux = jacfwd(net, grad_position=0, has_aux=True)(x, y, z)
print(jac)
print(aux)
""",
    "jacrev": _MIMO + """
from mindspore import jacrev
jac, aux = jacrev(net, grad_position=0, has_aux=True)(x, y, z)
print(jac)
print(aux)
""",
    "linearize": """
import numpy as np
from mindspore import Tensor, Parameter, ops
from mindspore import nn
from mindspore.ops.functional import linearize
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.matmul = ops.MatMul()
    def construct(self, x, y):
        out = self.matmul(x, y)
        return out
x = Tensor(np.array([[1, 2, 3], [3, 4, 5]]).astype(np.float32))
y = Tensor(np.array([[1, 2], [3, 4], [5, 6]]).astype(np.float32))
v = (Tensor(np.array([[1, 1, 1], [1, 1, 1]]).astype(np.float32)),
     Tensor(np.array([[1, 1], [1, 1], [0, 0]]).astype(np.float32)))
output, jvp_fn = linearize(Net(), (x, y))
print(output)
jvp = jvp_fn(v)
print(jvp)
""",
    "derivative": """
import mindspore
from mindspore import nn
mindspore.set_context(mode=mindspore.GRAPH_MODE)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sin = mindspore.ops.Sin()
        self.exp = mindspore.ops.Exp()
    def construct(self, x):
        out1 = self.sin(x)
        out2 = self.exp(out1)
        return out2
primals = mindspore.tensor([[1, 2], [3, 4]], mindspore.float32)
order = 3
net = Net()
out_primals, out_series = mindspore.ops.derivative(net, primals, order)
print(out_primals, out_series)
mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
""",
    "tutorial: Jacobians and Hessians": _JACOBIANS_HESSIANS_TUTORIAL,
    "nn.Jvp": _NET + """
from mindspore.nn import Jvp
output = Jvp(Net())(x, y, (v, v))
print(output[0])
print(output[1])
""",
    "nn.Vjp": _NET + """
from mindspore.nn import Vjp
output = Vjp(Net())(x, y, v)
print(output[0])
print(output[1])
""",
}

_ERROR_SETUP = _NET + """
def report(call):
    try:
        call()
    except Exception as error:
        print(f"{type(error).__name__}: {str(error).strip().splitlines()[0]}")
    else:
        print("no error")
def single(x, y):
    return x * y
"""

ERRORS = {
    "jvp: v of another shape": "report(lambda: mindspore.ops.jvp(single, (x, y), (v, v[0])))",
    "jvp: v of a shape that does not broadcast": "report(lambda: mindspore.ops.jvp(single, (x, y), (v, mindspore.ops.ones((3, 3), mindspore.float32))))",
    "jvp: v of a shape that broadcasts": "print(mindspore.ops.jvp(single, (x, y), (v, v[0] * 2))[1].asnumpy().tolist())",
    "jvp: v of an int dtype": "report(lambda: mindspore.ops.jvp(single, (x, y), (v, v.astype(mindspore.int32))))",
    "jvp: v of another dtype": "report(lambda: mindspore.ops.jvp(single, (x, y), (v, v.astype(mindspore.float64))))",
    "jvp: v of another length": "report(lambda: mindspore.ops.jvp(single, (x, y), (v,)))",
    "jvp: inputs not tensors": "report(lambda: mindspore.ops.jvp(single, 1.0, v))",
    "jvp: has_aux with a single output": "report(lambda: mindspore.ops.jvp(single, (x, y), (v, v), has_aux=True))",
    "jvp: has_aux not a bool": "report(lambda: mindspore.ops.jvp(single, (x, y), (v, v), has_aux=1))",
    "vjp: has_aux with a single output": "report(lambda: mindspore.ops.vjp(single, x, y, has_aux=True))",
    "vjp: inputs not tensors": "report(lambda: mindspore.ops.vjp(single, x, 2.0))",
    "vjp_fn: v not a tensor": "report(lambda: mindspore.ops.vjp(single, x, y)[1](1.0))",
    "jacfwd: grad_position out of range": "report(lambda: mindspore.ops.jacfwd(single, grad_position=2)(x, y))",
    "jacfwd: has_aux with a single output": "report(lambda: mindspore.ops.jacfwd(single, has_aux=True)(x, y))",
    "jacfwd: grad_position a float": "report(lambda: mindspore.ops.jacfwd(single, grad_position=1.0)(x, y))",
    "jacrev: has_aux with a single output": "report(lambda: mindspore.ops.jacrev(single, has_aux=True)(x, y))",
    "jacrev: grad_position negative": "report(lambda: mindspore.ops.jacrev(single, grad_position=-1)(x, y))",
    "linearize: inputs not tensors": "report(lambda: mindspore.ops.linearize(single, 1.0))",
    "derivative: order 0": "report(lambda: mindspore.ops.derivative(single, (x, y), 0))",
    "derivative: order a float": "report(lambda: mindspore.ops.derivative(single, (x, y), 1.5))",
}


def error_script() -> str:
    """One script printing each refused call's error, in the order of ``ERRORS``."""
    return _ERROR_SETUP + "\n".join(ERRORS.values()) + "\n"
