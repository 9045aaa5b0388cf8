"""Runs of elementwise statements split into row blocks across threads (compiler/splitregions.py,
npspore.core.split_rows): which runs become regions, and that their results have the same bits as on one
thread."""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.compiler import codegen, ir, pipeline
from npspore.core import split_rows, thread_pool, threads
from npspore.jit import forward_request
from npspore.opdef import Aval


@pytest.fixture
def one_helper():
    """One helper thread in a test (whatever the machine's cores); the policy's count afterwards."""
    threads.ensure_blas_threads()
    before = thread_pool.helper_count()
    thread_pool.set_helpers(1)
    yield
    thread_pool.set_helpers(before)


def _with_helpers(count: int, run):
    before = thread_pool.helper_count()
    thread_pool.set_helpers(count)
    try:
        return run()
    finally:
        thread_pool.set_helpers(before)


@ms.jit
def bias_scale_shift_relu(x, bias, scale, shift):
    y = x + bias
    y = y * scale
    y = y - shift
    y = ops.maximum(y, 0.0)
    return y * 3.0


@ms.jit
def symmetric_part(x):
    y = x * 2.0
    z = y + y.T         # written in place into y's buffer, which y.T views
    z = z * 3.0
    z = z - 1.0
    return ops.sqrt(ops.abs(z))


def _broadcast_inputs(rows: int, cols: int):
    rng = np.random.default_rng(0)
    return (rng.standard_normal((rows, cols)).astype(np.float32), rng.standard_normal(cols).astype(np.float32),
            rng.standard_normal((1, cols)).astype(np.float32), np.float32(0.25))


def test_broadcast_operands_are_passed_whole_and_rows_sliced(one_helper):
    x, bias, scale, shift = _broadcast_inputs(512, 1024)
    args = tuple(Tensor(a) for a in (x, bias, scale, shift))
    source = bias_scale_shift_relu.kernel_source(*args)
    assert "rt.split_rows(bias_scale_shift_relu_rows, (x, y), (bias, scale, shift))" in source
    assert "y = np.zeros((512, 1024), np.float32)" in source
    expected = np.maximum((x.astype(np.float64) + bias) * scale - 0.25, 0) * 3
    split = bias_scale_shift_relu(*args).asnumpy()
    np.testing.assert_allclose(split, expected, rtol=1e-6, atol=1e-6)
    whole = _with_helpers(0, lambda: bias_scale_shift_relu(*args).asnumpy())
    assert split.tobytes() == whole.tobytes()


def test_a_region_below_the_work_threshold_is_not_split(one_helper):
    x, bias, scale, shift = _broadcast_inputs(64, 64)      # 4096 elements x 5 statements
    args = tuple(Tensor(a) for a in (x, bias, scale, shift))
    assert not split_rows.worth_splitting((64, 64), 5) and split_rows.worth_splitting((512, 1024), 5)
    assert "split_rows" not in bias_scale_shift_relu.kernel_source(*args)
    np.testing.assert_allclose(bias_scale_shift_relu(*args).asnumpy(),
                               np.maximum((x.astype(np.float64) + bias) * scale - 0.25, 0) * 3, rtol=1e-6, atol=1e-6)


def test_an_operand_viewing_the_written_array_makes_no_region(one_helper):
    x = np.random.default_rng(1).standard_normal((512, 512)).astype(np.float32)
    source = symmetric_part.kernel_source(Tensor(x))
    assert "y += y.transpose((1, 0))" in source and "split_rows" not in source
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(symmetric_part(Tensor(x)).asnumpy(), np.sqrt(np.abs((2 * x64 + 2 * x64.T) * 3 - 1)),
                               rtol=1e-6, atol=1e-5)


def _add_in_place(a, b):
    a += b


@pytest.mark.parametrize("view", [np.transpose, lambda a: a[::-1]], ids=["transposed", "rows reversed"])
def test_arrays_sharing_memory_are_computed_whole(one_helper, view):
    a = np.arange(256 * 256, dtype=np.float32).reshape(256, 256) % 97
    expected = a + view(a)
    split_rows.split_rows(_add_in_place, (a, view(a)), ())
    np.testing.assert_array_equal(a, expected)


def test_row_blocks_write_the_full_arrays(one_helper):
    rng = np.random.default_rng(2)
    a, b = rng.random((300, 500), np.float32), rng.random((300, 500), np.float32)
    bias = rng.random(500, np.float32)
    expected = a + b * bias
    blocks = split_rows.blocks(a.shape)
    assert len(blocks) == 4 and blocks[0] == (0, 75) and blocks[-1] == (225, 300)

    def fma(a, b, bias):
        b *= bias
        a += b

    split_rows.split_rows(fma, (a, b), (bias,))
    np.testing.assert_array_equal(a, expected)


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(512, 512)
        self.fc2 = nn.Dense(512, 10)

    def construct(self, x):
        return self.fc2(ops.relu(self.fc1(x)))


def _train(compiled: bool, steps: int = 3):
    ms.set_seed(3)
    net = _MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Adam(net.trainable_params(), learning_rate=0.01))
    if compiled:
        step = ms.jit(step)
    rng = np.random.default_rng(4)
    # batches of 8: the products are below MIN_FLOPS, cut (if at all) into small-matrix blocks at every thread
    # count, so only the update's region depends on the helpers (a BLAS may sum a block of a large product's rows
    # in another order than the whole: OpenBLAS 0.3.31 on AMD EPYC)
    batches = [(Tensor(rng.standard_normal((8, 512)).astype(np.float32)),
                Tensor(rng.integers(0, 10, 8).astype(np.int32))) for _ in range(steps)]
    losses = [float(step(x, y).asnumpy()) for x, y in batches]
    source = step.kernel_source(*batches[0]) if compiled else None
    return losses, [p.asnumpy().copy() for p in net.trainable_params()], source


def test_a_train_steps_adam_update_of_a_large_weight_is_split_with_the_same_bits(one_helper):
    losses, weights, source = _train(compiled=True)
    assert "rt.split_rows(" in source and "def Adam_update_fc1_weight(" in source
    assert "Adam_update_fc2_weight" not in source          # 5,120 elements: one thread
    one_losses, one_weights, _ = _with_helpers(0, lambda: _train(compiled=True))
    assert losses == one_losses
    assert all(w.tobytes() == v.tobytes() for w, v in zip(weights, one_weights))
    eager_losses, eager_weights, _ = _train(compiled=False)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-6)
    for w, v in zip(weights, eager_weights):
        np.testing.assert_allclose(w, v, rtol=1e-5, atol=1e-6)
    assert not np.array_equal(weights[0], _MLP_initial_fc1())    # trained


def _MLP_initial_fc1():
    ms.set_seed(3)
    return _MLP().fc1.weight.asnumpy()


def test_a_grad_kernels_region_has_the_same_bits_on_one_thread(one_helper):
    def loss(x, w):
        return (ops.exp(x * w) * x + x * x).sum()

    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((512, 1024)).astype(np.float32) * 0.5, rng.standard_normal(1024).astype(np.float32)
    grad_fn = ms.grad(loss, grad_position=0)
    source = grad_fn.kernel_source(Tensor(x), Tensor(w))
    assert "rt.split_rows(" in source
    d_x = grad_fn(Tensor(x), Tensor(w)).asnumpy()
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    np.testing.assert_allclose(d_x, np.exp(x64 * w64) * (1 + x64 * w64) + 2 * x64, rtol=1e-5, atol=1e-5)
    one = _with_helpers(0, lambda: grad_fn(Tensor(x), Tensor(w)).asnumpy())
    assert d_x.tobytes() == one.tobytes()


def test_dump_after_optimize_shows_the_region_and_its_function():
    x, bias, scale, shift = _broadcast_inputs(512, 1024)
    request = forward_request(bias_scale_shift_relu, tuple(Tensor(a) for a in (x, bias, scale, shift)))
    text = pipeline.dump_stages(request, stop_after="optimize")
    assert "split_rows bias_scale_shift_relu_rows((x:float32[512, 1024], y:float32[512, 1024]), (bias:" in text
    assert "function bias_scale_shift_relu_rows(x:float32[?, 1024], y:float32[?, 1024]" in text


def test_codegen_refuses_a_row_function_that_would_rebind_its_array():
    loc = ir.Loc("model.py", 1)
    block, whole = Aval((None, 4), np.float32), Aval((8, 4), np.float32)
    a, b, total = ir.Var("a", block), ir.Var("b", Aval((None, 4), np.float64)), ir.Var("total", block)
    add = ir.Apply((total,), "add", (a, b), {}, loc, into=a, result_cast=np.dtype(np.float32))   # a = (a + b).astype
    outer_a, outer_b = ir.Var("a", whole), ir.Var("b", Aval((8, 4), np.float64))
    module = ir.Module({"f_rows": ir.Function("f_rows", (a, b), ir.Block([add], ())),
                        "f": ir.Function("f", (outer_a, outer_b), ir.Block(
                            [ir.Call((), "f_rows", (outer_a, outer_b), loc, split_rows=2)], (outer_a,)))}, "f")
    with pytest.raises(RuntimeError, match="a rebound in a function of row blocks"):
        codegen.render_module(module)
