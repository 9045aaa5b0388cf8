"""Gradient utilities as the MindSpore model zoo writes them, run unchanged by MindSpore 2.10 and ``npspore run``.

``MultitypeFuncGraph`` functions registered by type names, applied with ``HyperMap`` and ``partial``
over the tuple of gradients inside a training cell's ``construct``: division by the loss scale
(``grad_scale``), weight decay on the non-bias weights (``apply_decay``), clipping by value
(``clip_grad``), and gradient accumulation into Parameters (``AssignAdd`` in ``grad_sum_op``).
``python zoo_gradient_utilities.py graph|pynative`` prints the losses of three steps, the
accumulated gradients and the trained weights; ``tests/test_multitype.py`` holds MindSpore's output.
"""
import sys

import numpy as np
import mindspore as ms
from mindspore import nn, Tensor
from mindspore.ops import composite as C, functional as F, operations as P

ms.set_context(mode=ms.GRAPH_MODE if sys.argv[1] == "graph" else ms.PYNATIVE_MODE)

clip_grad = C.MultitypeFuncGraph("clip_grad")

@clip_grad.register("Number", "Number", "Tensor")
def _clip_grad(clip_type, clip_value, grad):
    if clip_type not in (0, 1):
        return grad
    dt = F.dtype(grad)
    new_grad = C.clip_by_value(grad, F.cast(F.tuple_to_array((-clip_value,)), dt),
                               F.cast(F.tuple_to_array((clip_value,)), dt))
    return new_grad

grad_scale = C.MultitypeFuncGraph("grad_scale")
reciprocal = P.Reciprocal()

@grad_scale.register("Tensor", "Tensor")
def tensor_grad_scale(scale, grad):
    return grad * reciprocal(scale)

apply_decay = C.MultitypeFuncGraph("apply_decay")

@apply_decay.register("Number", "Bool", "Tensor", "Tensor")
def _tensor_apply_decay(weight_decay, if_apply, weight, gradient):
    if if_apply:
        return gradient + weight * weight_decay
    return gradient

_sum_op = C.MultitypeFuncGraph("grad_sum_op")

@_sum_op.register("Tensor", "Tensor")
def _cumulative_grad(grad_sum, grad):
    add = P.AssignAdd()
    return add(grad_sum, grad)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4, weight_init=Tensor(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)),
                            bias_init=Tensor(np.array([0.1, -0.2, 0.3, 0.0], np.float32)))
        self.fc2 = nn.Dense(4, 2, weight_init=Tensor(np.linspace(0.5, -0.5, 8).reshape(2, 4).astype(np.float32)),
                            bias_init="zeros")
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class TrainStep(nn.Cell):
    def __init__(self, network, optimizer, sens=8.0):
        super().__init__(auto_prefix=False)
        self.network = network
        self.weights = optimizer.parameters
        self.optimizer = optimizer
        self.grad = C.GradOperation(get_by_list=True, sens_param=True)
        self.hyper_map = C.HyperMap()
        self.sens = sens
        self.scale = Tensor(sens, ms.float32)
        self.decay_flags = tuple("bias" not in p.name for p in self.weights)
        self.grad_sum = self.weights.clone(prefix="grad_sum", init="zeros")

    def construct(self, x, y):
        loss = self.network(x, y)
        sens = F.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(x, y, sens)
        grads = self.hyper_map(F.partial(grad_scale, self.scale), grads)
        grads = self.hyper_map(F.partial(apply_decay, 0.1), self.decay_flags, self.weights, grads)
        grads = self.hyper_map(F.partial(clip_grad, 0, 0.05), grads)
        self.hyper_map(_sum_op, self.grad_sum, grads)
        loss = F.depend(loss, self.optimizer(grads))
        return loss


net = Net()
loss_net = nn.WithLossCell(net, nn.MSELoss())
opt = nn.SGD(net.trainable_params(), learning_rate=0.5)
step = TrainStep(loss_net, opt)
x = Tensor(np.array([[1.0, -2.0, 0.5], [0.3, 0.8, -1.2]], np.float32))
y = Tensor(np.array([[0.5, -0.5], [1.0, 0.0]], np.float32))
for i in range(3):
    print("loss", "%.6f" % step(x, y).asnumpy())
for p in step.grad_sum:
    print(p.name, np.array2string(p.asnumpy(), precision=6, separator=", "))
for p in net.trainable_params():
    print(p.name, np.array2string(p.asnumpy(), precision=6, separator=", "))
