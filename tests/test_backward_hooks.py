"""Backward hooks and custom ``bprop`` in compiled gradients.

Expected outputs are the nn.Cell seed page's (register_backward_hook / register_backward_pre_hook
examples, seeds/001) and values observed on MindSpore 2.10 CPU (r4_custom_bprop_ignored.py).
"""
import warnings

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops


def backward_hook_fn(cell, grad_input, grad_output):
    print("backward input: ", grad_output)
    print("backward output: ", grad_input)


def backward_pre_hook_fn(cell, grad_output):
    print("backward input: ", grad_output)


class SeedNet(nn.Cell):
    """The seed's network: x + x, then a ReLU whose backward hook prints."""

    def __init__(self, register):
        super().__init__()
        self.relu = nn.ReLU()
        self.handle = register(self.relu)

    def construct(self, x):
        x = x + x
        x = self.relu(x)
        return x


ONE = "(Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)"
TWO = "(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)"


def test_register_backward_hook_seed_example(capsys):
    net = SeedNet(lambda relu: relu.register_backward_hook(backward_hook_fn))
    output = ops.GradOperation(get_all=True)(net)(Tensor(np.ones([1]).astype(np.float32)))
    print(output)
    assert capsys.readouterr().out == f"backward input:  {ONE}\nbackward output:  {ONE}\n{TWO}\n"


def test_register_backward_pre_hook_seed_example(capsys):
    net = SeedNet(lambda relu: relu.register_backward_pre_hook(backward_pre_hook_fn))
    output = ops.GradOperation(get_all=True)(net)(Tensor(np.ones([1]).astype(np.float32)))
    print(output)
    assert capsys.readouterr().out == f"backward input:  {ONE}\n{TWO}\n"


def test_the_gradient_kernel_calls_the_hook_out_of_the_kernel():
    net = SeedNet(lambda relu: relu.register_backward_hook(backward_hook_fn))
    source = ms.grad(net).kernel_source(Tensor(np.ones([1]).astype(np.float32)))
    assert "rt.host_call('host" in source


def test_a_hook_returning_a_value_replaces_the_gradient_and_removing_it_recompiles():
    net = SeedNet(lambda relu: relu.register_backward_hook(lambda cell, gi, go: (gi[0] * 10,)))
    x = Tensor(np.ones([2]).astype(np.float32))
    np.testing.assert_array_equal(ms.grad(net)(x).asnumpy(), [20.0, 20.0])
    net.handle.remove()
    np.testing.assert_array_equal(ms.grad(net)(x).asnumpy(), [2.0, 2.0])


def test_a_pre_hook_returning_a_value_replaces_the_output_gradient():
    net = SeedNet(lambda relu: relu.register_backward_pre_hook(lambda cell, go: (go[0] * 3,)))
    x = Tensor(np.ones([2]).astype(np.float32))
    np.testing.assert_array_equal(ms.grad(net)(x).asnumpy(), [6.0, 6.0])


def test_backward_hooks_take_no_effect_in_graph_mode_with_one_warning(capsys):
    net = SeedNet(lambda relu: relu.register_backward_hook(backward_hook_fn))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.warns(UserWarning, match="take no effect in GRAPH mode or under @jit"):
            grads = ms.grad(net)(Tensor(np.ones([1]).astype(np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert capsys.readouterr().out == ""
    np.testing.assert_array_equal(grads.asnumpy(), [2.0])


def test_backward_hooks_take_no_effect_under_jit(capsys):
    net = SeedNet(lambda relu: relu.register_backward_hook(backward_hook_fn))

    @ms.jit
    def step(x):
        return ms.grad(net)(x)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grads = step(Tensor(np.ones([1]).astype(np.float32)))
    assert capsys.readouterr().out == ""
    assert any("were skipped" in str(w.message) for w in caught)
    np.testing.assert_array_equal(grads.asnumpy(), [2.0])


class OneInputBprop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ops.ReLU()

    def construct(self, x):
        return self.op(x)

    def bprop(self, x, out, dout):
        return (5 * x,)


class TimesThree(nn.Cell):
    def construct(self, x):
        return x * 3

    def bprop(self, x, out, dout):
        return (dout * 100,)


class Doubled(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def construct(self, x):
        return self.inner(x) * 2


def test_bprop_of_a_sub_cell_and_of_the_differentiated_cell_replaces_its_derivative():
    # observed on MindSpore 2.10 CPU: [100, 100], [200, 200], and [0, 0] at second order
    x = Tensor(np.array([2, 2]).astype(np.float32))
    np.testing.assert_array_equal(ms.grad(TimesThree())(x).asnumpy(), [100.0, 100.0])
    np.testing.assert_array_equal(ms.grad(ms.grad(Doubled(TimesThree())))(x).asnumpy(), [0.0, 0.0])
    np.testing.assert_array_equal(ms.grad(Doubled(TimesThree()))(x).asnumpy(), [200.0, 200.0])


def test_bprop_first_and_second_order_as_mindspore():
    # observed on MindSpore 2.10 CPU: first order [10, 10], second order [5, 5]
    x = Tensor(np.array([2, 2]).astype(np.float32))
    # (the bprop ignores dout, so the outer factor 2 does not show)
    np.testing.assert_array_equal(ms.grad(Doubled(OneInputBprop()))(x).asnumpy(), [10.0, 10.0])
    np.testing.assert_array_equal(ms.grad(ms.grad(Doubled(OneInputBprop())))(x).asnumpy(), [5.0, 5.0])


def test_a_forward_hook_printing_its_tuple_arguments_inside_a_compiled_gradient(capsys):
    def forward_hook_fn(cell, inputs, outputs):
        print("forward inputs: ", inputs)
        print("forward outputs: ", outputs)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mul = nn.MatMul()
            self.handle = self.mul.register_forward_hook(forward_hook_fn)

        def construct(self, x, y):
            x = x + x
            return self.mul(x, y)

    one = Tensor(np.ones([1]).astype(np.float32))
    ops.GradOperation(get_all=True)(Net())(one, one)
    two = "Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00])"
    ones = "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00])"
    assert capsys.readouterr().out == f"forward inputs:  ({two}, {ones})\nforward outputs:  2.0\n"


class DenseRelu(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3, weight_init="ones", bias_init="zeros")
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.dense(x) - 1.5)


def test_recompute_gives_the_same_gradients_and_the_backward_runs_the_forward_again():
    x = Tensor(np.array([[1.0, 0.0, 2.0], [0.5, 0.25, 0.0]], np.float32))
    plain = nn.SequentialCell([DenseRelu(), DenseRelu()])
    checkpointed = nn.SequentialCell([DenseRelu(), DenseRelu()])
    for cell in checkpointed:
        cell.recompute()
    expected = ms.grad(plain, grad_position=0, weights=plain.trainable_params())(x)
    got_grad = ms.grad(checkpointed, grad_position=0, weights=checkpointed.trainable_params())
    got = got_grad(x)
    for a, b in zip([expected[0], *expected[1]], [got[0], *got[1]]):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy())
    source = got_grad.kernel_source(x)
    backward = source[source.index("def DenseRelu_construct_bwd"):]
    backward = backward[:backward.index("return")]
    assert "Dense_construct(" in backward  # the forward of the block, run again in its backward
    plain_source = ms.grad(plain, grad_position=0, weights=plain.trainable_params()).kernel_source(x)
    plain_backward = plain_source[plain_source.index("def DenseRelu_construct_bwd"):]
    assert "Dense_construct(" not in plain_backward[:plain_backward.index("return")]  # it reads the forward's values


def test_hook_backward_docstring_example(capsys):
    # MindSpore's ops.HookBackward docstring example (PYNATIVE) and its printed output
    def hook_fn(grad):
        print(grad)

    hook = ops.HookBackward(hook_fn)

    def hook_test(x, y):
        z = x * y
        z = hook(z)
        z = z * y
        return z

    output = ops.GradOperation(get_all=True)(hook_test)(Tensor(1, ms.float32), Tensor(2, ms.float32))
    print(output)
    assert capsys.readouterr().out == (
        "(Tensor(shape=[], dtype=Float32, value= 2),)\n"
        "(Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], dtype=Float32, value= 4))\n")
    with pytest.raises(TypeError, match="Expected a callable hook function"):
        ops.HookBackward(3)


CLIP_LOW = Tensor(np.array([0.2]).astype(np.float32))
CLIP_HIGH = Tensor(np.array([1.0]).astype(np.float32))


def clip_gradient(dx):
    ret = dx
    if ret > CLIP_HIGH:
        ret = CLIP_HIGH
    if ret < CLIP_LOW:
        ret = CLIP_LOW
    return ret


def test_insert_gradient_of_docstring_example():
    # MindSpore's ops.InsertGradientOf docstring: forward [0.11000001]; gradients [0.2] and [1.0]
    clip = ops.InsertGradientOf(clip_gradient)

    def clip_test(x, y):
        x = clip(x)
        y = clip(y)
        return x * y

    x, y = Tensor(np.array([1.1]).astype(np.float32)), Tensor(np.array([0.1]).astype(np.float32))
    assert str(ms.jit(clip_test)(x, y)) == "[0.11000001]"
    dx, dy = ops.GradOperation(get_all=True)(clip_test)(x, y)
    assert repr(dx) == "Tensor(shape=[1], dtype=Float32, value= [ 2.00000003e-01])"
    assert repr(dy) == "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00])"


def test_backward_hooks_of_a_forward_hooked_cell_see_the_hooked_outputs_cotangent():
    # The hook tutorial's pattern; values printed by MindSpore 2.10 PYNATIVE for this program.
    seen = []

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu = nn.ReLU()
            self.relu.register_forward_hook(lambda cell, inputs, outputs: outputs * 3)
            self.relu.register_backward_pre_hook(lambda cell, grad_output: seen.append(("pre", grad_output)))
            self.relu.register_backward_hook(lambda cell, grad_input, grad_output:
                                             seen.append(("post", grad_input, grad_output)))

        def construct(self, x, y):
            return self.relu(x * y) * 2

    dx, dy = ms.grad(Net(), grad_position=(0, 1))(Tensor(np.array([1.0, -1.0], np.float32)),
                                                 Tensor(np.array([2.0, 2.0], np.float32)))
    np.testing.assert_array_equal(dx.asnumpy(), [12.0, 0.0])
    np.testing.assert_array_equal(dy.asnumpy(), [6.0, 0.0])
    (pre, pre_out), (post, post_in, post_out) = seen
    np.testing.assert_array_equal(pre_out[0].asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(post_out[0].asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(post_in[0].asnumpy(), [6.0, 0.0])
