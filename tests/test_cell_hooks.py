"""Cell hooks in eager calls: forward pre-hooks, forward hooks, handles, and the backward-hook conventions.

Expected values come from the nn.Cell seed page (register_forward_(pre_)hook examples) and
mindspore-semantics.md §9.6.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn
from npspore.nn.cell import HookHandle


def ones():
    return Tensor(np.ones([1]).astype(np.float32))


class MatMulNet(nn.Cell):
    """The seed's example network: x + x, then an nn.MatMul whose hooks print."""

    def __init__(self, register):
        super().__init__()
        self.mul = nn.MatMul()
        self.handle = register(self.mul)

    def construct(self, x, y):
        x = x + x
        return self.mul(x, y)


def test_forward_pre_hook_seed_example(capsys):
    def forward_pre_hook_fn(cell, inputs):
        print("forward inputs: ", inputs)

    net = MatMulNet(lambda mul: mul.register_forward_pre_hook(forward_pre_hook_fn))
    out = net(ones(), ones())
    assert capsys.readouterr().out == (
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))\n")
    assert float(out) == 2.0


def test_forward_hook_seed_example(capsys):
    def forward_hook_fn(cell, inputs, output):
        print("forward inputs: ", inputs)
        print("forward output: ", output)

    net = MatMulNet(lambda mul: mul.register_forward_hook(forward_hook_fn))
    net(ones(), ones())
    assert capsys.readouterr().out == (
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))\n"
        "forward output:  2.0\n")


def test_hook_returns_replace_inputs_and_output():
    relu = nn.ReLU()
    log = []
    relu.register_forward_pre_hook(lambda cell, args: (args[0] * 2,))
    relu.register_forward_pre_hook(lambda cell, args: args[0] + 1)  # a non-tuple is wrapped
    relu.register_forward_hook(lambda cell, args, out: log.append((float(args[0]), float(out))))
    relu.register_forward_hook(lambda cell, args, out: out * 10)
    out = relu(Tensor(np.array(1.0, np.float32)))
    assert log == [(3.0, 3.0)]
    assert float(out) == 30.0


def test_handle_remove_takes_effect_at_next_call():
    relu = nn.ReLU()
    calls = []
    handle = relu.register_forward_hook(lambda cell, args, out: calls.append(cell))
    assert isinstance(handle, HookHandle)
    relu(Tensor([1.0]))
    handle.remove()
    handle.remove()
    relu(Tensor([1.0]))
    assert calls == [relu]
    assert not relu._forward_hooks


def test_handle_as_context_manager():
    relu = nn.ReLU()
    with relu.register_forward_pre_hook(lambda cell, args: None):
        assert len(relu._forward_pre_hooks) == 1
    assert not relu._forward_pre_hooks


def test_hooks_are_stored_by_handle_id_in_registration_order():
    cell = nn.ReLU()
    first = cell.register_backward_hook(lambda c, gi, go: None)
    second = cell.register_backward_hook(lambda c, gi, go: None)
    assert list(cell._backward_hooks) == [first.handle_id, second.handle_id]
    pre = cell.register_backward_pre_hook(lambda c, go: None)
    assert list(cell._backward_pre_hooks) == [pre.handle_id]


@pytest.mark.parametrize("method", ["register_forward_pre_hook", "register_forward_hook",
                                    "register_backward_hook", "register_backward_pre_hook"])
def test_non_callable_hook_raises(method):
    with pytest.raises(TypeError) as info:
        getattr(nn.ReLU(), method)(3)
    assert str(info.value) == "Expected a callable hook function, but got int."


def test_backward_hook_calling_convention():
    cell = nn.ReLU()
    seen = []
    cell.register_backward_hook(lambda c, grad_input, grad_output: seen.append((c, grad_input, grad_output)))
    cell.register_backward_hook(lambda c, grad_input, grad_output: grad_input[0] * 3)
    g_in, g_out = (Tensor([2.0]),), (Tensor([5.0]),)
    result = cell._run_backward_hooks(g_in, g_out)
    assert seen == [(cell, g_in, g_out)]
    assert isinstance(result, tuple) and float(result[0]) == 6.0


def test_backward_pre_hook_calling_convention():
    cell = nn.ReLU()
    cell.register_backward_pre_hook(lambda c, grad_output: None)
    g_out = (Tensor([5.0]),)
    assert cell._run_backward_pre_hooks(g_out) is g_out
    cell.register_backward_pre_hook(lambda c, grad_output: (grad_output[0] + 1,))
    assert float(cell._run_backward_pre_hooks(g_out)[0]) == 6.0


def test_hooks_of_sub_cells_run_in_the_parent_call():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu = nn.ReLU()

        def construct(self, x):
            return self.relu(x) + 1

    net = Net()
    net.relu.register_forward_hook(lambda cell, args, out: out * 0)
    assert float(net(Tensor(np.array(4.0, np.float32)))) == 1.0


class ScaledByW(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([3.0], np.float32)), name="w")

    def construct(self, a):
        return a * self.w


def test_forward_hooks_of_the_differentiated_cell_count_in_its_gradient():
    # observed on MindSpore 2.10 CPU, PYNATIVE and GRAPH alike: 36, 72, (72, (24,)) and (36, 72)
    net = ScaledByW()
    net.register_forward_pre_hook(lambda cell, args: (args[0] * 2,))
    handle = net.register_forward_hook(lambda cell, args, out: out * out)
    one = Tensor(np.array([1.0], np.float32))
    grad = ms.grad(net)
    assert net(one).asnumpy().tolist() == [36.0]
    assert grad(one).asnumpy().tolist() == [72.0]
    d_x, (d_w,) = ms.grad(net, 0, net.trainable_params())(one)
    assert (d_x.asnumpy().tolist(), d_w.asnumpy().tolist()) == ([72.0], [24.0])
    value, d_x = ms.value_and_grad(net)(one)
    assert (value.asnumpy().tolist(), d_x.asnumpy().tolist()) == ([36.0], [72.0])
    handle.remove()
    assert grad(one).asnumpy().tolist() == [6.0]  # the kernel with the hook is stale: compiled again
