"""Every documented way compiled execution differs from eager execution (README "Known
differences"), each pinned by one exact assertion, plus what the kernel caches promise about hooks."""
import numpy as np
import pytest

import npspore as ms
from npspore import nn, ops
from npspore.common.tensor import Tensor
from npspore.compiler.errors import NotSupportedError


def t32(*values):
    return Tensor(np.array(values, np.float32))


class ShapeOf(nn.Cell):
    def construct(self, x):
        return x.shape[1]


def test_a_dynamic_dim_reads_its_size_as_an_int64_tensor_in_compiled_code():
    net = ShapeOf()
    net.set_inputs(Tensor(shape=[2, None], dtype=ms.float32))
    x = Tensor(np.ones((2, 5), np.float32))
    assert net(x) == 5
    size = ms.jit(net)(x)      # MindSpore 2.10 returns the Python int 5
    assert isinstance(size, Tensor) and size.dtype == ms.int64 and int(size) == 5
    assert int(ms.jit(net)(Tensor(np.ones((2, 7), np.float32)))) == 7


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        return self.dense(x) * 2


def test_python_side_effects_of_a_sub_cell_hook_happen_once_at_compile_time():
    calls = []
    net = Scaled()
    net.dense.register_forward_hook(lambda cell, inputs, output: calls.append(1))
    x = t32([1.0, 2.0])
    net(x), net(x)
    assert len(calls) == 2
    compiled = ms.jit(net)
    compiled(x), compiled(x)
    assert len(calls) == 3


def test_backward_hooks_run_for_the_differentiated_cell_and_its_sub_cells():
    seen = []
    net = Scaled()
    net.register_backward_hook(lambda cell, grad_input, grad_output: seen.append("net"))
    net.dense.register_backward_hook(lambda cell, grad_input, grad_output: seen.append("dense"))
    ms.grad(net)(t32([1.0, 2.0]))
    assert seen == ["dense", "net"]  # the sub-cell's backward runs inside the cell's


def test_dropout_draws_the_same_mask_eager_and_compiled():  # compiling draws nothing (dtype probes skip it)
    # MindSpore 2.10 CPU's mask for these calls (its op seeds are fixed when the layer is made, so the seed is
    # set before): the same eager and under jit
    mindspore = "2002002200222200202200220000222002202200200020222222020000002020"
    x = Tensor(np.ones((64,), np.float32))
    masks = []
    for run in (lambda net: net(x), lambda net: ms.jit(net)(x)):
        ms.set_seed(3)
        net = nn.Dropout(p=0.5)
        net.set_train(True)
        masks.append("".join(str(int(v)) for v in run(net).asnumpy()))
    assert masks == [mindspore, mindspore]


# ---------------------------------------------------------------- hooks and kernel caches


def test_a_hook_on_an_unrelated_cell_recompiles_nothing():
    @ms.jit
    def double(x):
        return ops.mul(x, 2.0)

    x = t32(1.0, 2.0)
    double(x)
    nn.Dense(2, 2).register_forward_hook(lambda cell, inputs, output: None)
    double(x)
    assert double.cache_info()["compiles"] + double.cache_info()["disk_loads"] == 1


def test_a_hook_on_a_called_sub_cell_recompiles_the_kernel_that_calls_it():
    net = Scaled()
    compiled = ms.jit(net)
    x = t32([1.0, 2.0])
    before = compiled(x).asnumpy()
    handle = net.dense.register_forward_hook(lambda cell, inputs, output: output * 0)
    assert np.array_equal(compiled(x).asnumpy(), np.zeros_like(before))
    handle.remove()
    np.testing.assert_array_equal(compiled(x).asnumpy(), before)


def python_counter_in_tensor_while(x):
    n = 0
    while x.sum() < 10.0:
        x = x * 2.0
        n = n + 1
    return x * n


def list_in_tensor_while(x):
    out = []
    while x.sum() < 10.0:
        out.append(x)
        x = x * 2.0
    return x


def python_counter_read_in_tensor_while(x):
    n = 0
    while x.sum() < 10.0:
        x = x + n
        n = n + 1
        x = x * 2.0
    return x


def test_python_scalars_changed_in_a_tensor_while_are_carried_and_lists_refused():
    """A Python scalar the body of a loop that stays a loop changes is a 0-d tensor carried by the loop
    (MindSpore's scalar data flow): each iteration reads the previous one's value. (Each iteration
    read the value before the loop, silently, when only its use after the loop was refused.)"""
    x = t32(1.0, 2.0)
    assert python_counter_in_tensor_while(x).asnumpy().tolist() == [8.0, 16.0]
    assert ms.jit(python_counter_in_tensor_while)(x).asnumpy().tolist() == [8.0, 16.0]
    x = t32(0.1, 0.1)
    assert np.allclose(python_counter_read_in_tensor_while(x).asnumpy(), [8.8, 8.8])
    np.testing.assert_allclose(ms.jit(python_counter_read_in_tensor_while)(x).asnumpy(), [8.8, 8.8], rtol=1e-6)
    with pytest.raises(NotSupportedError, match="changing a Python list or dict inside a loop"):
        ms.jit(list_in_tensor_while)(x)


class KwargsConstruct(nn.Cell):
    def construct(self, x, **kwargs):
        return x


def test_kwargs_of_a_compiled_construct_are_refused():
    x = t32(1.0, 2.0)
    with pytest.raises(TypeError, match=r"\*\*kwargs"):
        ms.jit(KwargsConstruct())(x, y=x)


def returns_none(x):
    y = x * 2.0  # noqa: F841 - computed, never returned


def returns_text(x):
    return "done"


@pytest.mark.parametrize("fn", [returns_none, returns_text])
@pytest.mark.parametrize("transform", [lambda f: ms.grad(f), lambda f: ms.value_and_grad(f),
                                       lambda f: ops.GradOperation()(f)])
def test_grad_of_an_output_that_is_no_tensor_is_refused(fn, transform):
    # MindSpore 2.10 CPU returns zero gradients here ([0. 0.] observed for returns_none); npspore
    # refuses, naming the function, as issue 10 asks
    with pytest.raises(TypeError, match=rf"'{fn.__name__}': its output .* is not a Tensor"):
        transform(fn)(t32(1.0, 2.0))


def test_a_traced_function_is_traced_again_when_its_python_branch_changes():
    # No source (exec, the REPL, python -c): the function is traced, and `if` on a tensor value
    # follows the traced call's values; the branch is guarded, so an input taking the other branch
    # is traced again (it ran the first trace's branch, silently, before value guards).
    namespace = {}
    exec("def signed(x):\n"
         "    if x.sum() > 0:\n"
         "        return x * 2\n"
         "    return x * 3\n", namespace)
    signed = namespace["signed"]
    compiled = ms.jit(signed)
    assert compiled(t32(1.0, 2.0)).asnumpy().tolist() == [2.0, 4.0]
    assert compiled(t32(-1.0, -2.0)).asnumpy().tolist() == [-3.0, -6.0]
    assert compiled(t32(3.0, 1.0)).asnumpy().tolist() == [6.0, 2.0]      # the first trace, kept
    assert compiled.cache_info()["compiles"] == 2
    assert "# frontend: traced" in compiled.kernel_source(t32(1.0, 2.0))


class WithHook(nn.Cell):
    def __init__(self):
        super().__init__()
        self.hook = ops.HookBackward(lambda grad: None)

    def construct(self, x):
        return self.hook(x)


def test_hook_backward_is_a_cell():
    assert list(dict(WithHook().name_cells())) == ["hook"]  # MindSpore: a primitive, no sub-cell


def counted(x):
    n = 0
    while n < 2:
        n += 1
        if x.sum() > n:
            break
        x = x + n
    return x


def test_a_tensor_break_in_a_while_on_python_values_is_refused():
    with pytest.raises(NotSupportedError, match=r"'while' loop on Python values \(loop over range"):
        ms.jit(counted)(t32(0.0))


class ReluSqrt(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = ops.ReLU()
        self.sqrt = ops.Sqrt()

    def construct(self, x):
        return self.sqrt(self.relu(x))


def test_relu_backward_multiplies_an_infinite_cotangent_by_its_zero_mask():
    # MindSpore's ReluGrad selects, so the Primitive.recompute docstring example prints [0.  0.5];
    # npspore multiplies the cotangent by the mask (ten times faster than a select): inf * 0 is nan
    with np.errstate(divide="ignore", invalid="ignore"):
        grads = ms.grad(ReluSqrt())(t32(-1.0, 1.0))
    assert str(grads) == "[nan 0.5]"


class SquareDebugged(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bprop_debug = True

    def construct(self, x):
        return x * x * 3

    def bprop(self, x, out, dout):
        return (dout * x * 100,)


class PlusSquare(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def construct(self, x):
        return self.inner(x) + x


def test_a_gradient_through_a_bprop_run_in_python_is_not_differentiated_again():
    # MindSpore 2.10 (PYNATIVE) gives [100. 100.]; npspore refuses at the cell's call: a bprop run in
    # Python (bprop_debug=True) is opaque to the compiler (with bprop_debug=False: [100. 100.])
    net = PlusSquare(SquareDebugged())
    assert ms.grad(net)(t32(1.0, 2.0)).asnumpy().tolist() == [101.0, 201.0]
    with pytest.raises(NotSupportedError, match="bprop runs in Python"):
        ms.grad(ms.grad(net))(t32(1.0, 2.0))


class Cube(nn.Cell):
    def construct(self, x):
        return x * x * 3


def test_a_backward_hook_passes_gradients_through_at_second_order(capsys):
    # MindSpore 2.10 gives [6. 6.] and calls the hook twice (the second time with (None,));
    # npspore calls it once, in the first-order backward, and differentiates through it as identity
    net = PlusSquare(Cube())
    net.inner.register_backward_hook(lambda cell, grad_input, grad_output: print("hook"))
    assert ms.grad(ms.grad(net))(t32(1.0, 2.0)).asnumpy().tolist() == [6.0, 6.0]
    assert capsys.readouterr().out == "hook\n"


def test_an_nn_buffer_prints_with_commas_and_a_tensor_numpy_style():
    # seed 001's buffers/get_buffer/named_buffers examples print an nn.Buffer as "[4, 5, 6]" (MindSpore 2.10
    # has no nn.Buffer); a plain Tensor prints NumPy's form, as in MindSpore 2.10 and the register_buffer example
    assert f"buffer is {ms.nn.Buffer(ms.tensor([4, 5, 6]))}" == "buffer is [4, 5, 6]"
    assert f"buffer is {ms.tensor([4, 5, 6])}" == "buffer is [4 5 6]"


class Doubled(nn.Cell):
    def construct(self, x):
        return x * 2


def test_set_train_false_on_a_fresh_cell_reuses_its_kernel():
    # MindSpore keys a GRAPH cell's graphs by phase, 'train' on a fresh cell although training is False,
    # so set_train(False) compiles again; npspore keys them by the training flag and labels them by it
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Doubled()
        net(t32(1.0)), net.set_train(False), net(t32(1.0))
        assert net.compile_cache == {"predict.(float32[1])"}
        net.set_train(True), net(t32(1.0))
        assert len(net.compile_cache) == 2
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class WhileTensorReturn(nn.Cell):
    def construct(self, x):
        while x.sum() < 100:
            x = x * 1.5
            if x.sum() > 10:
                return x * 2
            break
        return x


def test_return_in_a_while_loop_on_a_tensor_condition_is_refused():
    # MindSpore 2.10 accepts it (GRAPH_MODE); loops on Python values and for-range loops compile
    with pytest.raises(NotSupportedError, match="whose body returns"):
        ms.jit(WhileTensorReturn())(t32(1.0))


class LateRecompute(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sigmoid = ops.Sigmoid()

    def construct(self, x):
        return self.sigmoid(x)


def test_primitive_recompute_set_after_the_first_gradient_keeps_the_compiled_kernel():
    net = LateRecompute()
    grad = ms.grad(net)
    grad(t32(1.0))
    net.sigmoid.recompute()
    assert "_bwd" not in grad.kernel_source(t32(1.0))  # the gradient is the same either way


class SumOfList(nn.Cell):
    def construct(self, items):
        out = items[0]
        for item in items:
            out = out + item
        return out


def test_a_dynamic_len_list_compiles_one_kernel_per_length():
    # MindSpore 2.10 compiles one graph for lengths 2, 3 and 4 (semantics doc §7.2)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = SumOfList()
        for length in (2, 3, 4):
            assert net(ms.mutable([t32(1.0)] * length, dynamic_len=True)).asnumpy().tolist() == [length + 1.0]
        assert net.cache_info()["compiles"] == 3
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
