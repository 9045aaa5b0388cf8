"""Workspaces (compiler/workspace.py, core/workspace.py): a kernel's temporaries live in buffers made once and
reused by every call, never in what the caller or a later call can see, never shared by two calls at once."""
import gc
import re
import threading
import weakref

import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.core.workspace import Workspace

RNG = np.random.default_rng(7)
W1 = (RNG.standard_normal((48, 40)) / 7).astype(np.float32)
W2 = (RNG.standard_normal((10, 48)) / 7).astype(np.float32)


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(40, 48, weight_init=Tensor(W1), bias_init="zeros")
        self.fc2 = nn.Dense(48, 10, weight_init=Tensor(W2), bias_init="zeros")
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def _batch(seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((64, 40)).astype(np.float32), rng.integers(0, 10, 64).astype(np.int32)


def _workspaces(function_or_cell, *args):
    """The Workspace objects the kernel module of this call declares."""
    source = function_or_cell.kernel_source(*args)
    cache = function_or_cell.cache_info()
    assert cache["entries"] == 1
    kernel = _kernel(function_or_cell)
    return source, [v for k, v in kernel.__globals__.items() if k == "_workspace"]


def _kernel(compiled):
    cache = compiled._cache if hasattr(compiled, "_cache") else compiled.cell.__dict__["_npspore_kernels"]
    return next(iter(cache.entries.values())).kernel


def _by_hand(x, labels):
    """Loss and gradients of (fc1.weight, fc2.weight) of MLP with zero biases, in float64."""
    x = x.astype(np.float64)
    z = x @ W1.T.astype(np.float64)
    h = np.maximum(z, 0)
    logits = h @ W2.T.astype(np.float64)
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    loss = -np.log(p[np.arange(64), labels]).mean()
    d = p.copy()
    d[np.arange(64), labels] -= 1
    d /= 64
    d_h = (d @ W2.astype(np.float64)) * (z > 0)
    return loss, d_h.T @ x, d.T @ h


def _grad_fn():
    net = nn.WithLossCell(MLP(), nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    weights = [p for p in net.trainable_params() if p.name.endswith("weight")]
    return ms.value_and_grad(net, None, weights)


def test_the_temporaries_of_a_gradient_kernel_live_in_its_workspace_across_calls():
    grad_fn = _grad_fn()
    x, labels = _batch(0)
    grad_fn(Tensor(x), Tensor(labels))
    source, workspaces = _workspaces(grad_fn, Tensor(x), Tensor(labels))
    assert workspaces and "out=" in source
    sets = [w.free[-1] for w in workspaces]
    grad_fn(Tensor(x), Tensor(labels))
    for workspace, buffers in zip(workspaces, sets):   # the same arrays again, given back after the call
        assert len(workspace.free) == 1 and all(a is b for a, b in zip(workspace.free[0], buffers))


def test_results_of_one_call_are_not_overwritten_by_the_next_and_gradients_are_exact():
    grad_fn = _grad_fn()
    first, second = _batch(1), _batch(2)
    loss_1, grads_1 = grad_fn(Tensor(first[0]), Tensor(first[1]))
    kept = [g.asnumpy().copy() for g in grads_1]
    loss_2, grads_2 = grad_fn(Tensor(second[0]), Tensor(second[1]))
    for got, expected in zip(grads_1, kept):
        np.testing.assert_array_equal(got.asnumpy(), expected)
    for (loss, grads), batch in (((loss_1, grads_1), first), ((loss_2, grads_2), second)):
        want_loss, *want = _by_hand(*batch)
        np.testing.assert_allclose(float(loss), want_loss, rtol=1e-5)
        for got, expected in zip(grads, want):
            np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-4, atol=1e-6)


class ReturnsItsTemporary(nn.Cell):
    """A sub-cell whose result is its own temporary (the caller keeps a view of it)."""

    def construct(self, x):
        return ops.exp(x) * 2.0


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = ReturnsItsTemporary()

    def construct(self, x):
        scaled = x * 3.0                       # a temporary read by the sub-cell: stays private
        t = self.inner(scaled)                 # the sub-cell's result flows out as a view
        return t.T, ops.sum(scaled * scaled)


def test_values_that_reach_the_caller_through_views_and_calls_never_use_the_workspace():
    x1 = Tensor(RNG.standard_normal((40, 36)).astype(np.float32) / 4)
    x2 = Tensor(RNG.standard_normal((40, 36)).astype(np.float32) / 4)
    step = ms.jit(Outer())
    first, total = step(x1)
    kept = first.asnumpy().copy()
    step(x2)
    np.testing.assert_array_equal(first.asnumpy(), kept)
    np.testing.assert_allclose(kept, (np.exp(x1.asnumpy() * 3) * 2).T, rtol=1e-6)
    source = step.kernel_source(x1)
    assert "rt.Workspace(" in source   # the private temporary (scaled * scaled) does use it


def test_a_loop_carried_value_is_not_a_workspace_buffer():
    @ms.jit
    def accumulate(x, n):
        y = x * 2.0
        i = n * 0
        while i < n:                        # a loop the kernel runs (the count is a tensor)
            y = y + x
            i = i + 1
        return y

    x = Tensor(np.ones((64, 32), np.float32))
    n = Tensor(np.array(3, np.int32))
    first = accumulate(x, n)
    kept = first.asnumpy().copy()
    accumulate(x * 5.0, n)
    np.testing.assert_array_equal(first.asnumpy(), kept)
    np.testing.assert_array_equal(kept, np.full((64, 32), 5.0, np.float32))


def test_calls_from_several_threads_never_share_a_workspace():
    grad_fn = _grad_fn()
    batches = [_batch(10 + i) for i in range(4)]
    expected = [[g.asnumpy().copy() for g in grad_fn(Tensor(x), Tensor(y))[1]] for x, y in batches]
    failures = []
    start = threading.Barrier(4)

    def worker(index):
        x, y = Tensor(batches[index][0]), Tensor(batches[index][1])
        start.wait()
        for _ in range(30):
            grads = grad_fn(x, y)[1]
            for got, want in zip(grads, expected[index]):
                if not np.array_equal(got.asnumpy(), want):
                    failures.append(index)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


def test_a_set_of_buffers_is_held_by_one_call_at_a_time():
    workspace = Workspace((((3, 4), np.float32), ((5,), np.bool_)))
    outer = workspace.take()
    inner = workspace.take()                 # a re-entrant call while the outer one holds its set
    assert all(a is not b for a, b in zip(outer, inner))
    assert [(a.shape, a.dtype) for a in outer] == [((3, 4), np.float32), ((5,), np.bool_)]
    workspace.give(inner)
    workspace.give(outer)
    assert workspace.take() is outer and workspace.take() is inner


@pytest.mark.parametrize("optimizer", ["momentum", "adam"])
def test_a_training_step_trains_as_before_with_its_workspace(optimizer):
    net = MLP()
    weights = net.trainable_params()
    opt = nn.Momentum(weights, 0.1, 0.9) if optimizer == "momentum" else nn.Adam(weights, 0.01)
    step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), opt))
    eager = MLP()
    eager_opt = nn.Momentum(eager.trainable_params(), 0.1, 0.9) if optimizer == "momentum" \
        else nn.Adam(eager.trainable_params(), 0.01)
    eager_step = nn.TrainOneStepCell(nn.WithLossCell(eager, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), eager_opt)
    for seed in range(4):
        x, y = _batch(20 + seed)
        np.testing.assert_allclose(float(step(Tensor(x), Tensor(y))), float(eager_step(Tensor(x), Tensor(y))),
                                   rtol=1e-5)
    assert "rt.Workspace(" in step.kernel_source(Tensor(x), Tensor(y))
    for a, b in zip(weights, eager.trainable_params()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-4, atol=1e-6)


def test_the_workspace_is_released_with_its_kernel():
    def buffer_of_a_kernel():
        grad_fn = _grad_fn()
        x, labels = _batch(3)
        grad_fn(Tensor(x), Tensor(labels))
        _, workspaces = _workspaces(grad_fn, Tensor(x), Tensor(labels))
        return weakref.ref(workspaces[0].free[0][0])

    buffer = buffer_of_a_kernel()
    for _ in range(3):   # the kernel cache goes when the weak reference to its Cell is cleared
        gc.collect()
    assert buffer() is None


class TwoNorms(nn.Cell):
    """Two identical LayerNorms: their forward and backward functions are shared, called twice per kernel call."""

    def __init__(self):
        super().__init__()
        self.norm1 = nn.LayerNorm((48,))
        self.norm2 = nn.LayerNorm((48,))

    def construct(self, x, w):
        return ops.sum(self.norm2(self.norm1(x) * w) * w)


def test_a_kernel_call_takes_one_set_of_buffers_its_functions_share():
    x = RNG.standard_normal((64, 48))
    w = RNG.standard_normal((64, 48))
    grad_fn = ms.grad(TwoNorms(), grad_position=0)
    got = grad_fn(Tensor(x.astype(np.float32)), Tensor(w.astype(np.float32))).asnumpy()
    source = grad_fn.kernel_source(Tensor(x.astype(np.float32)), Tensor(w.astype(np.float32)))
    assert source.count(".take()") == 1 and source.count(".give(") == 1
    assert "workspace__[" in source

    def loss(x):   # float64 by hand: two layer norms (gamma 1, beta 0, eps 1e-7 as MindSpore's LayerNorm)
        def norm(v):
            centered = v - v.mean(axis=1, keepdims=True)
            return centered / np.sqrt((centered ** 2).mean(axis=1, keepdims=True) + 1e-7)
        return np.sum(norm(norm(x) * w) * w)

    for index in [(0, 0), (5, 17), (63, 47)]:
        step = np.zeros_like(x)
        step[index] = 1e-6
        expected = (loss(x + step) - loss(x - step)) / 2e-6
        np.testing.assert_allclose(got[index], expected, rtol=1e-3, atol=1e-4)


def test_temporaries_whose_lifetimes_do_not_overlap_share_a_buffer():
    net = MLP()
    step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.Adam(net.trainable_params(), 0.01)))
    x, y = _batch(5)
    step(Tensor(x), Tensor(y))
    source, workspaces = _workspaces(step, Tensor(x), Tensor(y))
    # Adam's update of fc1.weight (48, 40): (g - m) * (1 - beta1), then g * g - v, then lr * m / (sqrt(v) + eps):
    # one buffer of its own for (g - m) and sqrt(v) in turn, the gradient it is handed (read there for the last
    # time) for g * g - v and lr * m (compiler/donation.py), not four buffers
    adam = source[source.index("def Adam_construct"):]
    start, stop = map(int, re.search(r"= workspace__\[(\d+):(\d+)\]", adam).groups())
    assert [shape for shape, dtype in workspaces[0].layout[start:stop]].count((48, 40)) == 1
    assert "gradients_0 *= gradients_0" in adam and "np.multiply(lr_t, moment1_fc1_weight, out=gradients_0)" in adam


def test_a_relu_backward_keeps_only_the_relu_output():
    # ReLU's adjoint reads its output (out > 0 exactly where x > 0), so a training step keeps one array per
    # ReLU layer for the backward, not the pre-activation too
    from npspore.opdef import op_table

    x = np.array([-2.0, -0.0, 0.0, 0.5, np.nan, 3.0])
    out = np.maximum(x, 0)
    dout = np.arange(1.0, 7.0)
    np.testing.assert_array_equal(op_table()["relu"].adjoint(None, out, dout), [0, 0, 0, 4, 0, 6])
    grad_fn = _grad_fn()
    x, labels = _batch(4)
    source = grad_fn.kernel_source(Tensor(x), Tensor(labels))
    forward = source[source.index("def MLP_construct_fwd"):]
    forward = forward[:forward.index("\n\n\n")]
    assert forward.count("return (") == 1 and forward.split("return (")[1].count(",") == 1   # (logits, relu)


class Energy(nn.Cell):
    def construct(self, x):
        e = ops.exp(x)          # a private temporary: a workspace buffer of x's shape
        return ops.sum(e * e)


class TwoEnergies(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Energy()
        self.b = Energy()

    def construct(self, x, y):
        return self.a(x) + self.b(y)


def test_functions_alike_but_for_their_buffers_shapes_stay_apart():
    x = RNG.standard_normal((64, 40)).astype(np.float32) / 4
    y = RNG.standard_normal((64, 48)).astype(np.float32) / 4
    got = ms.jit(TwoEnergies())(Tensor(x), Tensor(y))
    expected = np.sum(np.exp(x.astype(np.float64)) ** 2) + np.sum(np.exp(y.astype(np.float64)) ** 2)
    np.testing.assert_allclose(float(got), expected, rtol=1e-5)


def test_the_values_a_forward_hands_its_backward_live_in_the_kernel_calls_workspace():
    # fc1's output and its ReLU are computed by functions a training step runs once: their buffers are the
    # kernel call's, kept until it returns, so the backward reads them and the next step writes them again
    net = MLP()
    step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.Momentum(net.trainable_params(), 0.1, 0.9)))
    x, y = _batch(6)
    source = step.kernel_source(Tensor(x), Tensor(y))
    assert "np.matmul(x, weight.T, out=" in source and "np.maximum(fc1, 0, out=" in source
    eager = MLP()
    eager_step = nn.TrainOneStepCell(nn.WithLossCell(eager, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.Momentum(eager.trainable_params(), 0.1, 0.9))
    for seed in range(3):
        x, y = _batch(30 + seed)
        np.testing.assert_allclose(float(step(Tensor(x), Tensor(y))), float(eager_step(Tensor(x), Tensor(y))),
                                   rtol=1e-5)
    for a, b in zip(net.trainable_params(), eager.trainable_params()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-4, atol=1e-6)


class SameLayerTwice(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(48, 48, weight_init=Tensor((RNG.standard_normal((48, 48)) / 7).astype(np.float32)))

    def construct(self, x):
        a = self.fc(x)
        b = self.fc(a)          # a second call of the same function: its result may not share a's buffer
        return ops.sum(a * b)


def test_a_function_called_twice_per_kernel_call_keeps_no_result_in_the_workspace():
    net = SameLayerTwice()
    x = RNG.standard_normal((64, 48)).astype(np.float32)
    w, bias = net.fc.weight.asnumpy().astype(np.float64), net.fc.bias.asnumpy().astype(np.float64)
    a = x @ w.T + bias
    b = a @ w.T + bias
    np.testing.assert_allclose(float(ms.jit(net)(Tensor(x))), np.sum(a * b), rtol=1e-5)
    loss, grad_x = ms.value_and_grad(net, grad_position=0)(Tensor(x))
    np.testing.assert_allclose(float(loss), np.sum(a * b), rtol=1e-5)
    np.testing.assert_allclose(grad_x.asnumpy(), (b + (a @ w)) @ w, rtol=1e-4, atol=1e-4)


CONV_W = (RNG.standard_normal((4, 2, 3, 3)) / 4).astype(np.float32)
FC_W = (RNG.standard_normal((10, 196)) / 14).astype(np.float32)


class SmallConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="valid", weight_init=Tensor(CONV_W))
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 7 * 7, 10, weight_init=Tensor(FC_W), bias_init="zeros")

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.conv(x)))))


@pytest.mark.parametrize("pool", [dict(kernel_size=(2, 2), stride=(2, 2)),            # windows tile x: no zeros
                                  dict(kernel_size=(3, 3), stride=(2, 2)),            # overlapping, x not covered
                                  dict(kernel_size=(2, 2), stride=(2, 2), padding=(1, 0, 1, 0))])
def test_max_pool_gradient_written_into_a_used_buffer_equals_a_fresh_one(pool):
    from npspore.core import kernels_np

    x = RNG.standard_normal((2, 3, 9, 8)).astype(np.float32)
    x[0, 0, :2, :2] = 1.0                                     # a window whose maximum is not unique
    pooled = kernels_np.max_pool2d(x, **pool)
    g = RNG.standard_normal(pooled.shape).astype(np.float32)
    buffer = np.full(x.shape, np.nan, np.float32)             # what a workspace buffer held before
    assert kernels_np.max_pool2d_grad(x, pooled, g, out=buffer, **pool) is buffer
    np.testing.assert_array_equal(buffer, kernels_np.max_pool2d_grad(x, pooled, g, **pool))


@pytest.mark.parametrize("padding", [(0, 0, 0, 0), (1, 1, 0, 2)])
def test_convolution_columns_added_back_into_a_used_buffer_equal_a_fresh_array(padding):
    from npspore.core import kernels_np

    cols = RNG.standard_normal((1, 2 * 3 * 3, 3 * 7 * 6)).astype(np.float32)
    shape = (3, 2, 9 - padding[0] - padding[1], 8 - padding[2] - padding[3])
    buffer = np.full(shape, np.nan, np.float32)               # what a workspace buffer held before
    fresh = kernels_np.col2im(cols, shape, (4, 2, 3, 3), padding=padding)
    assert kernels_np.col2im(cols, shape, (4, 2, 3, 3), padding=padding, out=buffer) is buffer
    np.testing.assert_array_equal(buffer, fresh)


def test_convolution_columns_live_in_the_kernel_calls_workspace():
    from npspore.core import kernels_np

    x = RNG.standard_normal((3, 2, 9, 8)).astype(np.float32)
    cols = np.empty((1, 2 * 3 * 3, 3 * 7 * 6), np.float32)
    assert kernels_np.im2col(x, (4, 2, 3, 3), out=cols) is cols
    np.testing.assert_array_equal(cols, kernels_np.im2col(x, (4, 2, 3, 3)))
    pooled = np.empty((3, 2, 4, 4), np.float32)
    np.testing.assert_array_equal(kernels_np.max_pool2d(x, (2, 2), (2, 2), out=pooled),
                                  kernels_np.max_pool2d(x, (2, 2), (2, 2)))

    def train_step(net):
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        return nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))

    compiled_net, eager_net = SmallConvNet(), SmallConvNet()
    step, eager_step = ms.jit(train_step(compiled_net)), train_step(eager_net)
    rng = np.random.default_rng(8)
    for _ in range(3):
        x = Tensor(rng.standard_normal((32, 2, 16, 16)).astype(np.float32))
        y = Tensor(rng.integers(0, 10, 32).astype(np.int32))
        np.testing.assert_allclose(float(step(x, y)), float(eager_step(x, y)), rtol=1e-5)
    assert re.search(r"rt\.im2col\(x, .*out=", step.kernel_source(x, y))
    assert re.search(r"rt\.max_pool2d_grad\(.*out=", step.kernel_source(x, y))
    for a, b in zip(compiled_net.trainable_params(), eager_net.trainable_params()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-4, atol=1e-6)


@ms.jit
def _transposed_product(a, s):
    t = ops.transpose(a, (1, 0)) * s
    u = a * s
    return ops.matmul(t, u).sum()


def test_an_elementwise_result_of_a_transposed_view_keeps_numpys_layout():
    # NumPy writes ``a.T * s`` in a.T's (column-major) order, so a product reading it takes OpenBLAS's fast
    # path; a C-order workspace buffer would hand it the transposed-operand path (a jacfwd of a tanh MLP took
    # x1.65 of the hand-written Jacobian instead of x1.36: tools/bench_forward_mode.py)
    a = Tensor(np.arange(64 * 64, dtype=np.float32).reshape(64, 64) / 4096)
    s = Tensor(RNG.standard_normal((64, 64)).astype(np.float32))
    expected = ((a.asnumpy().T * s.asnumpy()).astype(np.float64) @ (a.asnumpy() * s.asnumpy())).sum()
    np.testing.assert_allclose(float(_transposed_product(a, s)), expected, rtol=1e-4)
    source = _transposed_product.kernel_source(a, s)
    assert re.search(r"^    t = a\.transpose\(\(1, 0\)\) \* s  #", source, re.M), source
    assert "np.multiply(a, s, out=u)" in source   # the product of C-order operands still uses the workspace


def test_a_buffer_can_be_laid_out_as_a_transposed_view():
    workspace = Workspace((((2, 3, 4, 5), np.float32, (1, 0, 2, 3)), ((3, 4, 5), np.float32, (2, 0, 1))))
    first, second = workspace.take()
    assert first.shape == (2, 3, 4, 5) and first.transpose(1, 0, 2, 3).flags.c_contiguous
    assert second.shape == (3, 4, 5) and second.transpose(1, 2, 0).flags.c_contiguous
    assert workspace.layout == (((2, 3, 4, 5), np.float32), ((3, 4, 5), np.float32))


class ConvReluPool(nn.Cell):
    def __init__(self, weight):
        super().__init__()
        self.conv = nn.Conv2d(2, 8, 3, pad_mode="valid", weight_init=Tensor(weight))
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

    def construct(self, x, r):
        return (self.pool(self.relu(self.conv(x))) * r).sum()


def test_elementwise_buffers_of_a_convolution_output_are_laid_out_as_it_is():
    # the convolution's output is a transposed view of its channel-major product: the ReLU, its mask and the
    # max-pool and ReLU adjoints are written into buffers laid out the same way (as NumPy lays out an
    # elementwise result of a transposed view), so no layer copies between the two layouts
    rng = np.random.default_rng(11)
    x, r = rng.standard_normal((16, 2, 18, 18), np.float32), rng.standard_normal((16, 8, 8, 8), np.float32)
    weight = (rng.standard_normal((8, 2, 3, 3)) / 4).astype(np.float32)
    net = ConvReluPool(weight)
    grad_fn = ms.value_and_grad(net, None, net.trainable_params())
    loss, (d_w,) = grad_fn(Tensor(x), Tensor(r))
    loss, (d_w,) = grad_fn(Tensor(x), Tensor(r))          # again, in the buffers of the first call
    _, workspaces = _workspaces(grad_fn, Tensor(x), Tensor(r))
    channel_major = [(shape, order) for (shape, _), order in zip(workspaces[0].layout, workspaces[0].orders) if order]
    assert channel_major and all(o == (1, 0, 2, 3) and s == (16, 8, 16, 16) for s, o in channel_major)
    windows = np.lib.stride_tricks.sliding_window_view(x.astype(np.float64), (3, 3), axis=(2, 3))
    y = np.einsum("ncyxij,ocij->noyx", windows, weight.astype(np.float64))
    a = np.maximum(y, 0)
    tiles = a.reshape(16, 8, 8, 2, 8, 2)
    pooled = tiles.max(axis=(3, 5))
    np.testing.assert_allclose(float(loss), (pooled * r).sum(), rtol=1e-5)
    first = (tiles == pooled[:, :, :, None, :, None]).reshape(16, 8, 8, 2, 8, 2).transpose(0, 1, 2, 4, 3, 5)
    first = first.reshape(16, 8, 8, 8, 4)
    first &= np.cumsum(first, axis=-1) == 1                     # each window's first maximum
    d_a = (first * r[..., None]).reshape(16, 8, 8, 8, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(a.shape)
    d_y = d_a * (y > 0)
    np.testing.assert_allclose(d_w.asnumpy(), np.einsum("ncyxij,noyx->ocij", windows, d_y), rtol=1e-4, atol=1e-4)


def test_the_relu_adjoint_multiplies_the_max_pool_adjoint_in_place():
    # the max-pool adjoint makes a new array (core.kernels_np.max_pool2d_grad), which dies at the ReLU adjoint:
    # its mask is applied in place, as a careful person writes ``d *= x > 0``, not into a third buffer
    rng = np.random.default_rng(12)
    x, r = rng.standard_normal((16, 2, 18, 18), np.float32), rng.standard_normal((16, 8, 8, 8), np.float32)
    net = ConvReluPool((rng.standard_normal((8, 2, 3, 3)) / 4).astype(np.float32))
    grad_fn = ms.grad(net, None, net.trainable_params())
    grad_fn(Tensor(x), Tensor(r))
    source = grad_fn.kernel_source(Tensor(x), Tensor(r))
    assert re.search(r"rt\.max_pool2d_grad\(.*out=(\w+)\).*\n.*np\.greater\(.*\n\s+\1 \*= \w+  #", source), source
