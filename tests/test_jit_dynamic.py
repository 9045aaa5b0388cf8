"""``jit(dynamic=1)`` and ``jit(input_signature=...)``: one shape-polymorphic kernel, through the dynamic dims
``Cell.set_inputs`` uses.

MindSpore 2.10's ``jit(dynamic=1)`` "enables dynamic shape compilation and automatically detects shape
changes" (its ``jit`` docs); npspore makes every Tensor argument dim dynamic from the first call, so one
kernel serves every length. ``input_signature`` was ``jit``'s parameter until 2.x: "The shape and dtype of
actual inputs should keep the same as input_signature" (placeholders with ``None`` dims are dynamic);
MindSpore 2.10 warns that it is deprecated (``_check_options`` in ``graph/api.py``) and drops it. npspore
gives the same warning and keeps the signature, with MindSpore's checks of a call against it
(``_generate_compile_args_by_input_signature``: ``check_argument_consistency`` for dynamic signatures,
``"The input args is incompatible with the args in `input_signature`!"`` for static ones).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.compiler.errors import NotSupportedError
from npspore.testing import check_grads


def built(compiled):
    """The kernels ``compiled`` built: compiled, or loaded from the disk cache (another test's)."""
    info = compiled.cache_info()
    return info["compiles"] + info["disk_loads"]


def weighted(x, y):
    return (x * y).sum() + x[0], ops.concat((x, y)) * 2


def test_dynamic_compiles_one_kernel_for_eleven_lengths():
    compiled = ms.jit(weighted, dynamic=1)
    for n in range(1, 12):
        x = Tensor(np.linspace(-1.0, 2.0, n).astype(np.float32))
        y = Tensor(np.arange(n, dtype=np.float32) + 0.5)
        total, joined = compiled(x, y)
        eager_total, eager_joined = weighted(x, y)
        np.testing.assert_allclose(total.asnumpy(), eager_total.asnumpy(), rtol=1e-6)
        np.testing.assert_array_equal(joined.asnumpy(), eager_joined.asnumpy())
        assert joined.shape == (2 * n,)
    assert built(compiled) == 1


def test_dynamic_keeps_rank_and_dtype_apart():
    compiled = ms.jit(lambda x: x * 2, dynamic=1)
    compiled(Tensor(np.ones(3, np.float32)))
    compiled(Tensor(np.ones(5, np.float32)))
    compiled(Tensor(np.ones((2, 2), np.float32)))
    compiled(Tensor(np.ones(4, np.float64)))
    assert built(compiled) == 3


def test_without_dynamic_each_length_compiles():
    compiled = ms.jit(weighted)
    for n in (2, 3):
        compiled(Tensor(np.ones(n, np.float32)), Tensor(np.ones(n, np.float32)))
    assert built(compiled) == 2


def row_sums(x):
    return x.sum(axis=1) + 1


SIGNATURE = (Tensor(shape=[None, 3], dtype=ms.float32),)
DEPRECATED = ("For 'jit', the parameter 'input_signature' has been deprecated. Please use the parameter 'dynamic' "
              "instead.")


def signed():
    with pytest.warns(FutureWarning, match=DEPRECATED):
        return ms.jit(row_sums, input_signature=SIGNATURE)


def test_input_signature_with_a_dynamic_dim_compiles_once():
    compiled = signed()
    for rows in (1, 2, 7):
        x = Tensor(np.arange(rows * 3, dtype=np.float32).reshape(rows, 3))
        np.testing.assert_array_equal(compiled(x).asnumpy(), row_sums(x).asnumpy())
    assert built(compiled) == 1


@pytest.mark.parametrize("array, error, message", [
    (np.ones((2, 4), np.float32), ValueError,
     "For input_signature and tuple(list) in input_signature, the shape of 1th input must be the same as expected, "
     "but got expected: [-1, 3], and input: [2, 4]!"),
    (np.ones((2, 3), np.float64), TypeError,
     "For input_signature or tuple(list) in input_signature, the 1th type should be Tensor[Float32], "
     "but got Tensor[Float64]!"),
    (np.ones(3, np.float32), ValueError,
     "For input_signature and tuple(list) in input_signature, the dims of 1th input must be the same as expected, "
     "but got expected: 2, and input: 1!"),
])
def test_a_call_that_does_not_match_the_signature_raises(array, error, message):
    compiled = signed()
    with pytest.raises(error) as caught:
        compiled(Tensor(array))
    assert str(caught.value) == message
    assert built(compiled) == 0


def test_a_static_signature_fixes_shape_dtype_and_count():
    with pytest.warns(FutureWarning):
        compiled = ms.jit(row_sums, input_signature=Tensor(np.zeros((2, 3), np.float32)))
    np.testing.assert_array_equal(compiled(Tensor(np.ones((2, 3), np.float32))).asnumpy(), [4.0, 4.0])
    incompatible = "The input args is incompatible with the args in `input_signature`!"
    for args in ((Tensor(np.ones((3, 3), np.float32)),), (Tensor(np.ones((2, 3), np.float32)), 1), (2.0,)):
        with pytest.raises(ValueError) as caught:
            compiled(*args)
        assert str(caught.value) == incompatible


def test_input_signature_must_hold_tensors():
    with pytest.warns(FutureWarning), pytest.raises(TypeError, match="'input_signature' should be a Tensor or a "
                                                                     "tuple of Tensors, but got"):
        ms.jit(row_sums, input_signature=(3,))


def test_set_inputs_checks_a_fixed_dim(monkeypatch):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return x * 2

    monkeypatch.setattr(ms.context, "_context", {**ms.context._context, "mode": ms.GRAPH_MODE})
    net = Net()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    assert net(Tensor(np.ones((4, 3), np.float32))).shape == (4, 3)
    with pytest.raises(ValueError, match=r"For set_inputs and tuple\(list\) in set_inputs, the shape of 1th input "
                                         r"must be the same as expected, but got expected: \[-1, 3\], and input: "
                                         r"\[4, 2\]!"):
        net(Tensor(np.ones((4, 2), np.float32)))


def test_dynamic_with_a_keyword_tensor():
    def shifted(x, *, shift):
        return x + shift.sum()
    compiled = ms.jit(shifted, dynamic=1)
    for n in (2, 3, 4):
        x = Tensor(np.arange(n, dtype=np.float32))
        shift = Tensor(np.ones(n, np.float32))
        np.testing.assert_array_equal(compiled(x, shift=shift).asnumpy(), shifted(x, shift=shift).asnumpy())


class _LoopOverDynamicDim(nn.Cell):
    def construct(self, x):
        h = x[0] * 0 + 1
        for t in range(x.shape[0]):
            h = h * 0.5 + x[t]
        for t in range(1, len(x)):
            h = h + x[t] * x[t - 1]
        for t in range(x.shape[0] - 1, -1, -1):
            h = h * 0.9 + x[t]
        return h * x.shape[0]


def _loop_reference(x):
    h = np.ones(x.shape[1])
    for t in range(len(x)):
        h = h * 0.5 + x[t]
    for t in range(1, len(x)):
        h = h + x[t] * x[t - 1]
    for t in range(len(x) - 1, -1, -1):
        h = h * 0.9 + x[t]
    return h * len(x)


def test_a_loop_over_a_dynamic_dim_runs_as_often_as_the_dim_is_long():
    # it compiled to an empty loop (x.shape[0] was -1 at compile time): silently wrong results
    net = _LoopOverDynamicDim()
    net.set_inputs(Tensor(shape=[None, 4], dtype=ms.float64))
    compiled = ms.jit(net)
    for n in (1, 3, 6):
        x = np.random.default_rng(n).standard_normal((n, 4))
        np.testing.assert_allclose(compiled(Tensor(x)).asnumpy(), _loop_reference(x), rtol=1e-12)
        np.testing.assert_allclose(net(Tensor(x)).asnumpy(), _loop_reference(x), rtol=1e-12)
    assert compiled.cache_info()["compiles"] == 1
    check_grads(lambda v: net(v).sum(), (np.random.default_rng(0).standard_normal((3, 4)),))


def test_a_dynamic_dim_in_a_shape_argument_is_the_inferred_dim():
    # Dense on 3-D input restores the leading dims with x.shape[:-1]: the dynamic one becomes -1 there
    dense = nn.Dense(4, 3)
    x = Tensor(np.random.default_rng(1).standard_normal((2, 5, 4)).astype(np.float32))
    expected = dense(x).asnumpy()
    dense.set_inputs(Tensor(shape=[None, 5, 4], dtype=ms.float32))
    np.testing.assert_allclose(ms.jit(dense)(x).asnumpy(), expected, rtol=1e-6)


def _training(dynamic: bool):
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    if dynamic:
        step.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32), Tensor(shape=[None], dtype=ms.int32))
    return net, step


def test_a_training_step_with_a_dynamic_batch_trains_as_eager():
    # the adjoint of the loss's squeeze reshaped to (None, 1): the generated step raised a TypeError in NumPy
    compiled_net, compiled_step = _training(dynamic=True)
    compiled = ms.jit(compiled_step)
    eager_net, eager_step = _training(dynamic=False)
    rng = np.random.default_rng(0)
    for batch in (5, 7, 3, 5):
        x = Tensor(rng.standard_normal((batch, 3)).astype(np.float32))
        labels = Tensor(rng.integers(0, 2, batch).astype(np.int32))
        np.testing.assert_allclose(compiled(x, labels).asnumpy(), eager_step(x, labels).asnumpy(), rtol=1e-6)
    for mine, theirs in zip(compiled_net.trainable_params(), eager_net.trainable_params()):
        np.testing.assert_allclose(mine.asnumpy(), theirs.asnumpy(), rtol=1e-5, atol=1e-7)
    assert compiled.cache_info()["compiles"] <= 1


class _SumOfSquares(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x):
        return (self.net(x) ** 2).sum()


class _GradOf(nn.Cell):
    """The gradient of ``net``'s output's sum of squares with respect to its input, as a Cell that takes
    ``set_inputs`` (so the gradient kernel is compiled for the dynamic dims)."""

    def __init__(self, net):
        super().__init__()
        self.loss = _SumOfSquares(net)

    def construct(self, x):
        return ms.grad(self.loss)(x)


class _Regrouped(nn.Cell):
    def construct(self, x):
        wide = ops.expand_dims(x, -1) * ops.expand_dims(ops.sin(x), -1)
        return ops.squeeze(wide, -1) * 0.5


class _Rolled(nn.Cell):
    def construct(self, x):
        return ops.roll(x, 2, 0) * ops.sin(x)


class _Indexed(nn.Cell):
    def construct(self, x):
        return x[-1] * x[1:].sum(0) + x[::-1][0] * 2.0


class _Flattened(nn.Cell):
    def construct(self, x):
        return ops.sin(x.reshape(x.shape[0], -1)).sum(-1) + (x.view(x.shape[0], x.shape[1], -1) ** 2).sum((1, 2))


class _First(nn.Cell):
    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def construct(self, x):
        return self.layer(x)[0]


class _Joined(nn.Cell):
    def __init__(self):
        super().__init__()
        self.rows = ms.Parameter(Tensor(np.linspace(-1.0, 1.0, 6).reshape(2, 3)))

    def construct(self, x):
        return ops.sin(ops.concat((self.rows, x, self.rows * 2.0), 0))


class _Pooled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.kernel = ms.Parameter(Tensor(np.linspace(-0.5, 0.5, 36).reshape(2, 2, 3, 3)))

    def construct(self, x):
        return ops.avg_pool2d(ops.conv2d(x, self.kernel, pad_mode="same"), 2, 2)


class _Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.attention = nn.MultiheadAttention(4, 2)
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(self.attention(x, x, x)[0])


class _Running(nn.Cell):
    """Running sums, products and maxima along the dynamic dim and along a static one."""

    def construct(self, x):
        along = ops.cumsum(x, 0) + ops.cumprod(x, 0) * 0.5 + ops.cummax(x, 0)[0] + ops.CumSum(True, True)(x, 0)
        return along * (ops.cumsum(x, 1) + ops.cummin(x, 1)[0])


class _Sorted(nn.Cell):
    def construct(self, x):
        largest = ops.max(x, 0)[0] * ops.min(x, 0)[0] + ops.argmax(x, 0).astype(x.dtype)
        return ops.sort(x, 0)[0] * largest + ops.sort(x, 1, descending=True)[0] + ops.topk(x, 2, dim=0)[0].sum(0)


class _Broadcast(nn.Cell):
    def __init__(self):
        super().__init__()
        self.row = Tensor(np.array([[0.5, -1.0, 2.0]]))

    def construct(self, x):
        spread = self.row.expand_as(x).sum(0) * x   # expand_as gave (1, 3): a -1 read as 'keep the 1', silently
        return ops.broadcast_to(x[:, None, :], (-1, 2, 3)) * x[:, :1].expand((-1, 2))[:, :, None] + spread[:, None]


class _Contracted(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.linspace(-1.0, 1.0, 12).reshape(3, 4)))

    def construct(self, x):
        return ops.einsum("bij,bkj->bik", x, ops.sin(x)).sum(-1) + ops.einsum("bij,jk->bk", x, self.w)[:, :2]


@pytest.mark.parametrize("make, shape, dynamic", [
    (_Running, (5, 3), (0,)),    # along the dynamic dim: a loop over range(-1) refused
    (_Sorted, (5, 3), (0,)),     # topk of k=-1; the gradients of max and topk along it: depth and size None
    (_Broadcast, (4, 3), (0,)),  # broadcast_to (-1, 2, 3): the shape rule refused the -1 it gave itself
    (_Contracted, (4, 2, 3), (0,)),   # einsum broadcast the batch to size max(1, -1)
    (_Flattened, (3, 2, 4), (0,)),       # x.reshape(x.shape[0], -1): two -1 after the batch's size was read as -1
    (_Flattened, (3, 2, 4), (0, 1)),
    (_Attention, (5, 3, 4), (0, 1)),     # a dynamic sequence and batch: heads split and joined, Dense on 3-D
    (lambda: nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0), (5, 3, 4), (0, 1)),
    (lambda: _First(nn.LSTM(3, 2, 2, bidirectional=True)), (4, 2, 3), (0, 1)),   # refused, then a kernel that
    (lambda: _First(nn.GRU(3, 2, batch_first=True)), (2, 4, 3), (0,)),           # deleted a name it returned
    (_Pooled, (3, 2, 4, 4), (0,)),  # refused for a while: a check of every static shape holding None, too wide
    (_Joined, (4, 3), (0,)),     # concatenated along the dynamic dim: the adjoint's cuts summed None
    (_Rolled, (5, 3), (0,)),     # rolled along the dynamic dim: 'shift % -1' rolled by 0, a silently wrong result
    (_Indexed, (4, 3), (0,)),    # indexing's adjoint wrote into zeros((None, 3)): a TypeError in the kernel
    (_Regrouped, (2, 3, 4), (0, 1)),                  # two dims known only at run time: reshape to x's shape
    (_Regrouped, (3, 2, 4), (0,)),
    (lambda: nn.LayerNorm((4,)), (5, 3, 4), (0,)),    # the normalized axis static, the batch not
    (lambda: nn.GroupNorm(2, 4), (3, 4, 2, 2), (0,)),
    (lambda: nn.InstanceNorm2d(4), (3, 4, 2, 2), (0,)),
    (lambda: nn.BatchNorm2d(4), (3, 4, 2, 2), (0,)),  # a broadcast parameter's gradient summed to its shape
])
def test_values_and_gradients_with_dims_known_only_at_run_time(make, shape, dynamic):
    _assert_values_and_gradients_as_eager(make, shape, dynamic)


def _assert_values_and_gradients_as_eager(make, shape, dynamic):
    """``make()``'s compiled values and the gradient of its output's sum of squares (float64, ``shape`` with the
    axes ``dynamic`` declared dynamic) against eager values and central differences."""
    ms.set_seed(0)
    net = make()
    net.set_train(False)
    x = np.random.default_rng(1).standard_normal(shape)
    gradient = _GradOf(net)
    gradient.set_inputs(Tensor(shape=[None if axis in dynamic else d for axis, d in enumerate(shape)],
                               dtype=ms.float64))
    for p in net.get_parameters():
        p.set_data(p.astype(ms.float64))
    forward = ms.jit(net)
    net.set_inputs(Tensor(shape=[None if axis in dynamic else d for axis, d in enumerate(shape)], dtype=ms.float64))
    np.testing.assert_allclose(forward(Tensor(x)).asnumpy(), net(Tensor(x)).asnumpy(), rtol=1e-12)
    compiled = ms.jit(gradient)(Tensor(x)).asnumpy()
    step, numeric = 1e-6, np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += step
        down[index] -= step
        numeric[index] = ((net(Tensor(up)) ** 2).sum() - (net(Tensor(down)) ** 2).sum()).asnumpy() / (2 * step)
    np.testing.assert_allclose(compiled, numeric, rtol=1e-5, atol=1e-7)


class _Padded(nn.Cell):
    def construct(self, x):
        return ops.pad(x, (1, 1)) * 2.0


def test_a_layers_arithmetic_on_a_dynamic_dim_is_refused_at_the_users_line():
    # a layer reads such a dim as -1; arithmetic on it gave a roll by 'shift % -1' (silently wrong) or NumPy's
    # 'negative dimensions are not allowed' from deep inside npspore
    net = _Padded()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    with pytest.raises(NotSupportedError, match="arithmetic on the size of a dim known only when the kernel runs") \
            as caught:
        ms.jit(net)(Tensor(np.ones((2, 3), np.float32)))
    assert "return ops.pad(x, (1, 1)) * 2.0" in str(caught.value)


class _Ones(nn.Cell):
    def construct(self, x):
        return ops.ones(x.shape, ms.float32) * x


class _Selected(nn.Cell):
    def construct(self, x):
        return ops.masked_select(x, x > 0) ** 2


def test_what_a_dynamic_dim_cannot_do_yet_is_refused_at_the_users_line():
    # 'ones' got shape (-1, 3) (NumPy: 'negative dimensions are not allowed'); a masked selection's gradient
    # rendered np.zeros((None, 3)) in the kernel, a TypeError when it ran (gather's did too: _Picked compiles it)
    ones = _Ones()
    ones.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    with pytest.raises(NotSupportedError, match="'ones' of a shape with a dim known only when the kernel runs") \
            as caught:
        ms.jit(ones)(Tensor(np.ones((2, 3), np.float32)))
    assert "return ops.ones(x.shape, ms.float32) * x" in str(caught.value)
    gradient = _GradOf(_Selected())
    gradient.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    with pytest.raises(NotSupportedError, match="'masked_select_grad' of a value with a dim known only when the") \
            as caught:
        ms.jit(gradient)(Tensor(np.ones((2, 3), np.float32)))
    assert "return ops.masked_select(x, x > 0) ** 2" in str(caught.value)


def rows_reshaped(x):
    n = x.shape[0]
    return ops.reshape(x, (n, 3)) * 2 + x.view(n, 3)


def test_a_dynamic_dims_size_in_a_shape_tuple_is_taken_by_the_op():
    """A dynamic dim's size inside a shape tuple is no value a loop would need unrolled (fuzz7: the rule
    that unrolls a loop whose index is in an op's shape briefly refused it too)."""
    compiled = ms.jit(rows_reshaped, dynamic=1)
    for n in (2, 5):
        x = Tensor(np.arange(3 * n, dtype=np.float32).reshape(n, 3))
        np.testing.assert_array_equal(compiled(x).asnumpy(), rows_reshaped(x).asnumpy())
    assert built(compiled) == 1


class _ColumnSweep(nn.Cell):
    """Reads column ``t`` of ``x`` at a loop's index over a dynamic dim: a gather along axis 1 whose gradient was a
    ``gather_grad`` into zeros of a shape holding None."""

    def construct(self, x):
        total = x[:, 0] * 0.0
        for t in range(x.shape[1]):
            total = total * 0.5 + ops.sin(ops.gather(x, t, 1)) * x[:, 0]
        return total


class _Gathered(nn.Cell):
    def construct(self, x):
        index = ops.zeros_like(x[:, :, :2]).astype(ms.int32) + Tensor(np.array([0, 2, 0, 3], np.int32)[:2])
        return ops.gather_elements(x, 2, ops.concat((index, index), 2)) * x[:, :, :4]


@pytest.mark.parametrize("make, shape, dynamic", [
    (_ColumnSweep, (3, 4), (0, 1)),
    (_Gathered, (2, 3, 4), (0, 1)),   # repeated indices along the last axis: the scatter kept one of the repeats
    (lambda: _Picked(), (4, 3), (0,)),
])
def test_reads_at_indices_along_dynamic_dims(make, shape, dynamic):
    _assert_values_and_gradients_as_eager(make, shape, dynamic)


def _ctc_inputs(steps, batch):
    rng = np.random.default_rng(steps * 10 + batch)
    log_probs = rng.standard_normal((steps, batch, 4))
    targets = rng.integers(1, 4, (batch, 2)).astype(np.int32)
    input_lengths = np.array([steps - b % 2 for b in range(batch)], np.int32)
    target_lengths = np.array([2 - (b % 3 == 2) for b in range(batch)], np.int32)
    return log_probs, targets, input_lengths, target_lengths


class _CTCGradient(nn.Cell):
    def __init__(self, loss):
        super().__init__()
        self.loss = loss

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        return ms.grad(self.loss)(log_probs, targets, input_lengths, target_lengths)


@pytest.mark.parametrize("dynamic_time", [False, True])
def test_ctc_loss_with_a_dynamic_batch_and_time(dynamic_time):
    """nn.CTCLoss with a dynamic batch (its blanks were ops.full of the batch's size) and time (a loop over the
    steps, and their positions, were Python ranges): values and gradients of one kernel for two sizes."""
    loss = nn.CTCLoss(reduction="sum")
    specs = (Tensor(shape=[None if dynamic_time else 5, None, 4], dtype=ms.float64),
             Tensor(shape=[None, 2], dtype=ms.int32), Tensor(shape=[None], dtype=ms.int32),
             Tensor(shape=[None], dtype=ms.int32))
    gradient = _CTCGradient(loss)
    loss.set_inputs(*specs)
    gradient.set_inputs(*specs)
    forward, backward = ms.jit(loss), ms.jit(gradient)
    for steps, batch in ((5, 3), (5 + 2 * dynamic_time, 2)):
        log_probs, *rest = _ctc_inputs(steps, batch)
        labels = [Tensor(r) for r in rest]
        eager = loss(Tensor(log_probs), *labels).asnumpy()
        np.testing.assert_allclose(forward(Tensor(log_probs), *labels).asnumpy(), eager, rtol=1e-12)
        numeric, step = np.zeros_like(log_probs), 1e-6
        for index in np.ndindex(log_probs.shape):
            up, down = log_probs.copy(), log_probs.copy()
            up[index] += step
            down[index] -= step
            numeric[index] = (loss(Tensor(up), *labels) - loss(Tensor(down), *labels)).asnumpy() / (2 * step)
        np.testing.assert_allclose(backward(Tensor(log_probs), *labels).asnumpy(), numeric, rtol=1e-5, atol=1e-7)
    assert forward.cache_info()["compiles"] + forward.cache_info()["disk_loads"] == 1


class _LambdaGradient(nn.Cell):
    """``ms.grad`` of lambdas made in construct: one of its input alone, one reading tensors of construct (held
    fixed by that gradient) and a sub-cell."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)

    def construct(self, x):
        scale = ops.sin(x)
        inner = ms.grad(lambda y: (self.dense(y * scale) ** 2).sum() + (y * y * x).sum())(x)
        return inner * x + ms.grad(lambda y: (y ** 3).sum())(x)


class _NestedDefGradient(nn.Cell):
    """``ms.grad`` of a nested def that calls another, which reads a tensor of construct, loops and returns under a
    tensor condition; the other also called directly."""

    def construct(self, x):
        scale = ops.sin(x)

        def step(h):
            for _ in range(2):
                h = ops.tanh(h * scale + 0.5)
            if h.sum() > 0:
                return h * 2.0
            return h - 1.0

        def loss(y):
            return (step(y) ** 2).sum() + (y * x).sum()
        return ms.grad(loss)(x) + step(x)


@pytest.mark.parametrize("make", [_LambdaGradient, _NestedDefGradient])
@pytest.mark.parametrize("dynamic", [False, True])
def test_grad_of_a_function_made_in_construct(make, dynamic):
    # a lambda: 'The fn should be callable, but got Closure'; a nested def: refused by the frontend; with or
    # without dynamic dims
    ms.set_seed(0)
    net = make()
    for p in net.get_parameters():
        p.set_data(p.astype(ms.float64))
    x = np.random.default_rng(2).standard_normal((4, 3))
    if dynamic:
        net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float64))
    compiled = ms.jit(net)
    np.testing.assert_allclose(compiled(Tensor(x)).asnumpy(), net(Tensor(x)).asnumpy(), rtol=1e-12)
    gradient = _GradOf(net)     # differentiated again: through the tensors the lambdas read from construct
    if dynamic:
        gradient.set_inputs(Tensor(shape=[None, 3], dtype=ms.float64))
    step, numeric = 1e-6, np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += step
        down[index] -= step
        numeric[index] = ((net(Tensor(up)) ** 2).sum() - (net(Tensor(down)) ** 2).sum()).asnumpy() / (2 * step)
    np.testing.assert_allclose(ms.jit(gradient)(Tensor(x)).asnumpy(), numeric, rtol=1e-5, atol=1e-7)


class _ConvGradients(nn.Cell):
    """The gradients of a convolution's sum of squares with respect to its input and its weight."""

    def __init__(self, conv):
        super().__init__()
        self.loss = _SumOfSquares(conv)
        self.weights = conv.trainable_params()

    def construct(self, x):
        return ms.grad(self.loss, grad_position=0, weights=self.weights)(x)


@pytest.mark.parametrize("make, shape, dynamic", [
    (lambda: nn.Conv2d(2, 3, 3, dtype=ms.float64), (2, 2, 5, 6), (2, 3)),   # col2im read None + 1: the columns
    (lambda: nn.Conv2d(4, 6, 3, pad_mode="pad", padding=(1, 2, 0, 1), dilation=2, group=2, has_bias=True,  # hold
                       dtype=ms.float64), (2, 4, 6, 7), (0, 2, 3)),                                       # no height
    (lambda: nn.Conv1d(2, 3, 3, pad_mode="same", dtype=ms.float64), (2, 2, 7), (2,)),
])
def test_convolution_gradients_with_a_dynamic_height_and_width(make, shape, dynamic):
    ms.set_seed(0)
    conv = make()
    spec = Tensor(shape=[None if axis in dynamic else d for axis, d in enumerate(shape)], dtype=ms.float64)
    gradients = _ConvGradients(conv)
    conv.set_inputs(spec)
    gradients.set_inputs(spec)
    x = np.random.default_rng(3).standard_normal(shape)
    np.testing.assert_allclose(ms.jit(conv)(Tensor(x)).asnumpy(), conv(Tensor(x)).asnumpy(), rtol=1e-12)
    dx, dweights = ms.jit(gradients)(Tensor(x))
    loss = _SumOfSquares(conv)
    for value, got in [(x, dx)] + list(zip(conv.trainable_params(), dweights)):
        array = value if isinstance(value, np.ndarray) else value.asnumpy().copy()
        numeric, step = np.zeros_like(array), 1e-6
        for index in np.ndindex(array.shape):
            sides = []
            for sign in (1, -1):
                moved = array.copy()
                moved[index] += sign * step
                if isinstance(value, np.ndarray):
                    sides.append(loss(Tensor(moved)).asnumpy())
                else:
                    value.set_data(Tensor(moved))
                    sides.append(loss(Tensor(x)).asnumpy())
            if not isinstance(value, np.ndarray):
                value.set_data(Tensor(array))
            numeric[index] = (sides[0] - sides[1]) / (2 * step)
        np.testing.assert_allclose(got.asnumpy(), numeric, rtol=1e-5, atol=1e-7)


def test_a_strided_convolutions_gradient_with_a_dynamic_height_is_refused_at_the_users_line():
    # its input's height is not read off the gradient's columns nor off dout (the stride drops rows)
    gradient = _GradOf(nn.Conv2d(2, 3, 3, stride=2, pad_mode="pad", padding=1))
    gradient.set_inputs(Tensor(shape=[2, 2, None, 5], dtype=ms.float32))
    with pytest.raises(NotSupportedError, match="'conv2d_input_grad' of a value with a dim known only when") \
            as caught:
        ms.jit(gradient)(Tensor(np.ones((2, 2, 6, 5), np.float32)))
    assert "return F.conv2d(x, self.weight" in str(caught.value)   # nn.Conv2d's construct, where it is called


class _Recursive(nn.Cell):
    def construct(self, x):
        def again(y):
            return again(y * 2)
        return again(x)


def test_a_recursive_nested_def_is_refused_at_its_line():
    with pytest.raises(NotSupportedError, match="recursive call of the nested function 'again'") as caught:
        ms.jit(_Recursive())(Tensor(np.ones(3, np.float32)))
    assert "def again(y):" in str(caught.value)


class _Picked(nn.Cell):
    """Index vectors and joins along dims known only when the kernel runs: the gradients wrote into zeros of a
    static shape holding None (gather_grad), or cut at a size holding None (split)."""

    def construct(self, x):
        columns = ops.gather(x, Tensor(np.array([0, 2, 2], np.int32)), 1)
        rows = ops.gather(x, Tensor(np.array([1, 0, 1], np.int32)), 0)
        joined = ops.concat((x, ops.sin(x), x * 2.0), 0)
        return (columns * 2.0).sum(1) + rows.sum() + joined.sum(1)[:2].sum() + ops.repeat_interleave(x, 2, 1).sum(1)
