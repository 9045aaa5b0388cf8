"""The fast path of a gradient function (``compiler.kernel.fast_path``): a repeated call skips the
input key, but every change that the full path would see still reaches it -- shapes, dtypes,
globals read at compile time, a Cell's training flag, hooks, the context mode, Parameter updates."""
import numpy as np

import npspore as ms
from npspore import Parameter, Tensor, nn, ops

SCALE = 2.0


def _scaled_square(x):
    return ops.sum(x * x * SCALE)


def _t(values, dtype=np.float32):
    return Tensor(np.asarray(values, dtype))


def test_repeated_calls_hit_and_a_new_signature_compiles_once():
    grad = ms.grad(_scaled_square)
    for _ in range(3):
        assert grad(_t([1.0, 2.0])).asnumpy().tolist() == [4.0, 8.0]
    assert grad(_t([1.0, 2.0, 3.0])).asnumpy().tolist() == [4.0, 8.0, 12.0]
    in_float64 = grad(_t([1.0, 2.0], np.float64))
    assert in_float64.dtype == ms.float64 and in_float64.asnumpy().tolist() == [4.0, 8.0]
    assert grad(_t([3.0, 1.0])).asnumpy().tolist() == [12.0, 4.0]
    assert grad(Parameter(_t([1.0, 1.0]), name="p")).asnumpy().tolist() == [4.0, 4.0]
    info = grad.cache_info()
    assert info["compiles"] + info["disk_loads"] == 3 and info["hits"] == 4


def _weighted_square(x, w=None):
    return ops.sum(x * x) if w is None else ops.sum(x * x * w)


def test_a_call_with_another_argument_count_takes_the_full_path():
    grad = ms.grad(_weighted_square)
    x, w = _t([1.0, 2.0]), _t([3.0, 0.5])
    assert grad(x).asnumpy().tolist() == [2.0, 4.0]
    assert grad(x, w).asnumpy().tolist() == [6.0, 2.0]
    assert grad(x).asnumpy().tolist() == [2.0, 4.0]
    assert grad.cache_info()["compiles"] + grad.cache_info()["disk_loads"] == 2


def test_a_changed_global_is_seen_by_the_next_call():
    global SCALE
    grad = ms.value_and_grad(_scaled_square)
    x = _t([1.0, 3.0])
    assert grad(x)[1].asnumpy().tolist() == [4.0, 12.0]
    SCALE = 0.5
    try:
        value, gradient = grad(x)
        assert value.asnumpy().tolist() == 5.0 and gradient.asnumpy().tolist() == [1.0, 3.0]
    finally:
        SCALE = 2.0
    assert grad(x)[1].asnumpy().tolist() == [4.0, 12.0]


class _Halves(nn.Cell):
    """Doubles its input while training, halves it otherwise; a weight scales the result."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(_t([1.0, 1.0]), name="w")

    def construct(self, x):
        if self.training:
            return ops.sum(x * 2.0 * self.w)
        return ops.sum(x * 0.5 * self.w)


def test_training_flag_hooks_and_mode_are_checked_on_every_call():
    net = _Halves()
    grad = ms.grad(net)
    x = _t([1.0, 1.0])
    net.set_train(True)
    assert grad(x).asnumpy().tolist() == [2.0, 2.0]
    assert grad(x).asnumpy().tolist() == [2.0, 2.0]
    net.set_train(False)
    assert grad(x).asnumpy().tolist() == [0.5, 0.5]
    seen = []
    handle = net.register_backward_hook(lambda cell, grad_input, grad_output: seen.append(len(grad_input)))
    assert grad(x).asnumpy().tolist() == [0.5, 0.5] and seen == [1]
    handle.remove()
    assert grad(x).asnumpy().tolist() == [0.5, 0.5] and seen == [1]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert grad(x).asnumpy().tolist() == [0.5, 0.5]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert grad(x).asnumpy().tolist() == [0.5, 0.5]


class _Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = _Halves()

    def construct(self, x):
        return self.inner(x)


def test_a_forward_hook_added_to_a_compiled_sub_cell_is_seen():
    net = _Outer()
    net.set_train(False)
    grad = ms.grad(net)
    x = _t([1.0, 1.0])
    assert grad(x).asnumpy().tolist() == [0.5, 0.5]
    assert grad(x).asnumpy().tolist() == [0.5, 0.5]
    forward = net.inner.register_forward_hook(lambda cell, inputs, output: output * 3.0)
    assert grad(x).asnumpy().tolist() == [1.5, 1.5]
    forward.remove()
    assert grad(x).asnumpy().tolist() == [0.5, 0.5]


def test_weights_are_read_at_each_call():
    net = _Halves()
    net.set_train(True)
    grad = ms.grad(net, grad_position=None, weights=net.trainable_params())
    x = _t([1.0, 3.0])
    assert grad(x)[0].asnumpy().tolist() == [2.0, 6.0]
    net.w.set_data(_t([5.0, 5.0]))
    assert ms.grad(net)(x).asnumpy().tolist() == [10.0, 10.0]
    assert grad(_t([2.0, 1.0]))[0].asnumpy().tolist() == [4.0, 2.0]
