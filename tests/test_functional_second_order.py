"""Second-order property tests of the layers and functional ops built from the op table.

The ops of the table are checked one by one in ``test_op_second_order``; this file checks what is
composed of them (padding modes, ``ceil_mode``, normalization statistics, loss reductions and
weights, the recurrent cells, attention): Hypothesis draws small float64 operands and static
arguments, and ``compiled_vjp.check_second_order`` compares the compiled first derivatives, and the
compiled derivatives of those, with central finite differences. Inputs of max-like ops have
distinct values; the inputs of piecewise functions stay away from their kinks.
"""
import numpy as np
import pytest
from hypothesis import Phase, assume, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import npspore as ms
from compiled_vjp import Program, check_second_order
from npspore import nn, ops


def floats(shape, low=-2.0, high=2.0):
    return hnp.arrays(np.float64, shape, elements=st.floats(low, high, allow_subnormal=False))


def distinct(shape):
    """Values 0.1 apart in a random order (extrema stay put under finite differences)."""
    size = int(np.prod(shape))
    return st.permutations(range(size)).map(lambda p: np.asarray(p, np.float64).reshape(shape) / 10 - size / 20)


def away_from(shape, kinks, low=-2.0, high=2.0):
    """Floats at least 0.01 from each of ``kinks``."""
    return floats(shape, low, high).filter(lambda x: all(np.all(np.abs(x - k) > 1e-2) for k in kinks))


def labels(shape, classes):
    return hnp.arrays(np.int32, shape, elements=st.integers(0, classes - 1))


def program(fn, *operands, **static):
    """A strategy of ``(Program(fn, static), operands)`` from strategies of the operands and statics."""
    return st.tuples(st.tuples(*operands), st.fixed_dictionaries(static)).map(
        lambda drawn: (Program(fn, drawn[1]), drawn[0]))


def layer(make, *operands):
    """A strategy of ``(make(), operands)``: a float64 layer with fixed seeded weights."""
    def build(drawn):
        ms.set_seed(0)
        return make(), drawn
    return st.tuples(*operands).map(build)


# ---------------------------------------------------------------- convolution


@st.composite
def conv1d_case(draw):
    groups, stride, dilation = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
    kernel, pad_mode = draw(st.integers(1, 3)), draw(st.sampled_from(["valid", "same", "pad"]))
    padding = draw(st.integers(0, 2)) if pad_mode == "pad" else 0
    length = draw(st.integers(max(1, dilation * (kernel - 1) + 1 - 2 * padding), 5))
    x = draw(floats((1, groups * draw(st.integers(1, 2)), length)))
    w = draw(floats((groups * draw(st.integers(1, 2)), x.shape[1] // groups, kernel)))
    bias = draw(st.one_of(st.none(), floats((w.shape[0],))))
    static = {"stride": stride, "pad_mode": pad_mode, "padding": padding, "dilation": dilation, "groups": groups}
    return Program(ops.conv1d, static), (x, w, bias)


@st.composite
def conv2d_padding_modes_case(draw):
    groups, pad_mode = draw(st.integers(1, 2)), draw(st.sampled_from(["valid", "same"]))
    stride = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    h, w_ = (draw(st.integers(dilation[i] * (kernel[i] - 1) + 1, 5)) for i in range(2))
    x = draw(floats((1, groups, h, w_)))
    w = draw(floats((groups * draw(st.integers(1, 2)), 1, *kernel)))
    static = {"stride": stride, "pad_mode": pad_mode, "dilation": dilation, "groups": groups}
    return Program(ops.conv2d, static), (x, w, draw(floats((w.shape[0],))))


@st.composite
def conv_transpose2d_case(draw):
    groups, kernel = draw(st.integers(1, 2)), (draw(st.integers(1, 3)), draw(st.integers(1, 2)))
    stride = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    padding = tuple(draw(st.integers(0, 1)) for _ in range(4))
    h, w_ = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    assume((h - 1) * stride[0] + dilation[0] * (kernel[0] - 1) + 1 - padding[0] - padding[1] >= 1)
    assume((w_ - 1) * stride[1] + dilation[1] * (kernel[1] - 1) + 1 - padding[2] - padding[3] >= 1)
    x = draw(floats((1, groups, h, w_)))
    w = draw(floats((groups, draw(st.integers(1, 2)), *kernel)))
    static = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}
    return Program(ops.conv_transpose2d, static), (x, w, draw(floats((w.shape[1] * groups,))))


# ---------------------------------------------------------------- pooling


@st.composite
def avg_pool2d_case(draw):
    kernel = draw(st.integers(1, 3))
    static = {"kernel_size": kernel, "stride": draw(st.integers(1, 2)), "padding": draw(st.integers(0, kernel // 2)),
              "ceil_mode": draw(st.booleans()), "count_include_pad": draw(st.booleans()),
              "divisor_override": draw(st.sampled_from([0, 2]))}
    x = draw(floats((1, 2, draw(st.integers(kernel, 4)), draw(st.integers(kernel, 4)))))
    return Program(ops.avg_pool2d, static), (x,)


@st.composite
def avg_pool1d_case(draw):
    kernel = draw(st.integers(1, 3))
    static = {"kernel_size": kernel, "stride": draw(st.integers(1, 2)), "padding": draw(st.integers(0, kernel // 2)),
              "ceil_mode": draw(st.booleans()), "count_include_pad": draw(st.booleans())}
    return Program(ops.avg_pool1d, static), (draw(floats((2, 1, draw(st.integers(kernel, 5))))),)


@st.composite
def max_pool2d_case(draw):
    kernel, dilation = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    static = {"kernel_size": kernel, "stride": draw(st.integers(1, 2)), "padding": draw(st.integers(0, kernel // 2)),
              "dilation": dilation, "ceil_mode": draw(st.booleans())}
    side = dilation * (kernel - 1) + 1
    return Program(ops.max_pool2d, static), (draw(distinct((1, 2, draw(st.integers(side, 4)), side + 1))),)


@st.composite
def max_pool1d_case(draw):
    kernel, pad_mode = draw(st.integers(1, 3)), draw(st.sampled_from(["valid", "same"]))
    cell = nn.MaxPool1d(kernel, draw(st.integers(1, 2)), pad_mode=pad_mode)
    return Program(cell), (draw(distinct((1, 2, draw(st.integers(kernel, 5))))),)


@st.composite
def adaptive_pool_case(draw, fn, **static):
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    size = (draw(st.integers(1, h)), draw(st.integers(1, w)))
    return Program(fn, {"output_size": size, **static}), (draw(distinct((1, 2, h, w))),)


@st.composite
def unfold_case(draw):
    ksize, stride = [1, draw(st.integers(1, 2)), draw(st.integers(1, 3)), 1], [1, draw(st.integers(1, 2)), 2, 1]
    layer = nn.Unfold(ksize, stride, [1, draw(st.integers(1, 2)), 1, 1], draw(st.sampled_from(["same", "valid"])))
    return Program(layer), (draw(floats((1, 2, 4, 3))),)


# ---------------------------------------------------------------- normalization


@st.composite
def batch_norm_case(draw):
    shape = draw(st.sampled_from([(3, 2), (2, 2, 2, 2)]))
    training = draw(st.booleans())
    x, c = draw(floats(shape)), shape[1]
    if training:  # the statistics are the batch's; the moving ones are Parameters the call updates
        mean = ms.Parameter(ms.Tensor(np.zeros(c)), name="mean")
        var = ms.Parameter(ms.Tensor(np.ones(c)), name="var")
        return Program(norm_in_training, {"running_mean": mean, "running_var": var}), \
            (x, draw(floats((c,))), draw(floats((c,))))
    return Program(norm_with_statistics), (x, draw(floats((c,))), draw(floats((c,), 0.5, 2.0)), draw(floats((c,))),
                                           draw(floats((c,))))


def norm_with_statistics(x, mean, var, weight, bias):
    return ops.batch_norm(x, mean, var, weight, bias)


def norm_in_training(x, weight, bias, running_mean, running_var):
    return ops.batch_norm(x, running_mean, running_var, weight, bias, training=True)


def layer_norm(x, weight, bias, normalized_shape):
    return ops.layer_norm(x, normalized_shape, weight, bias)


@st.composite
def layer_norm_case(draw):
    x = draw(floats((2, 2, 3)))
    normalized = x.shape[draw(st.integers(1, 2)):]
    return Program(layer_norm, {"normalized_shape": normalized}), \
        (x, draw(floats(normalized)), draw(floats(normalized)))


def group_norm(x, weight, bias, num_groups):
    return ops.group_norm(x, num_groups, weight, bias)


@st.composite
def group_norm_case(draw):
    x = draw(floats((2, 4, draw(st.integers(2, 3)))))
    return Program(group_norm, {"num_groups": draw(st.sampled_from([1, 2, 4]))}), \
        (x, draw(floats((4,))), draw(floats((4,))))


@st.composite
def instance_norm_case(draw):
    x = draw(floats(draw(st.sampled_from([(2, 2, 3), (1, 2, 2, 2)]))))
    return Program(ops.instance_norm), (x, draw(floats((2,))), draw(floats((2,))))


# ---------------------------------------------------------------- selection, embedding, softmax


def clip_global(x, y):
    return tuple(ops.clip_by_global_norm((x, y), 1.0))


def one_hot(indices, on, off):
    return ops.one_hot(indices, 4, on, off)


def max_values(x):
    return ops.max(x, 1)[0]


@st.composite
def clip_by_value_case(draw):
    x = draw(away_from((2, 3), [-0.5, 0.5]))
    return Program(ops.clip_by_value, {"clip_value_min": -0.5, "clip_value_max": 0.5}), (x,)


@st.composite
def maximum_case(draw):
    x, y = draw(floats((2, 3))), draw(floats((3,)))
    assume(np.all(np.abs(x - y) > 1e-2))
    return Program(ops.maximum), (x, y)


@st.composite
def embedding_case(draw):
    table = draw(floats((4, 3)))
    return Program(ops.gather, {"axis": 0}), (table, draw(labels((2, 3), 4)))


@st.composite
def softmax_case(draw, fn):
    x = draw(floats((2, 3)))
    return Program(fn, {"axis": draw(st.sampled_from([0, 1, -1]))}), (x,)


# ---------------------------------------------------------------- losses


@st.composite
def cross_entropy_case(draw):
    logits = draw(floats((3, 4)))
    probabilities = draw(st.booleans())
    target = draw(floats((3, 4), 0.0, 1.0)) if probabilities else draw(labels((3,), 4))
    static = {"reduction": draw(st.sampled_from(["mean", "sum", "none"])),
              "label_smoothing": draw(st.sampled_from([0.0, 0.2]))}
    if not probabilities:
        static["ignore_index"] = draw(st.sampled_from([-100, 1]))
    weight = draw(st.one_of(st.none(), floats((4,), 0.5, 2.0)))
    return Program(ops.cross_entropy, static), (logits, target, weight)


@st.composite
def nll_loss_case(draw):
    static = {"reduction": draw(st.sampled_from(["mean", "sum", "none"])), "ignore_index": draw(st.sampled_from([-100, 0]))}
    return Program(ops.nll_loss, static), (draw(floats((3, 4))), draw(labels((3,), 4)),
                                           draw(st.one_of(st.none(), floats((4,), 0.5, 2.0))))


@st.composite
def binary_cross_entropy_case(draw):
    return Program(ops.binary_cross_entropy, {"reduction": draw(st.sampled_from(["mean", "sum", "none"]))}), \
        (draw(floats((2, 3), 0.1, 0.9)), draw(floats((2, 3), 0.0, 1.0)), draw(floats((2, 3), 0.5, 2.0)))


@st.composite
def bce_with_logits_case(draw):
    return Program(ops.binary_cross_entropy_with_logits, {"reduction": draw(st.sampled_from(["mean", "sum"]))}), \
        (draw(floats((2, 3))), draw(floats((2, 3), 0.0, 1.0)), draw(floats((3,), 0.5, 2.0)),
         draw(floats((3,), 0.5, 2.0)))


@st.composite
def smooth_l1_case(draw, fn, name):
    edge = draw(st.sampled_from([0.5, 1.0]))
    x, y = draw(floats((2, 3))), draw(floats((2, 3)))
    assume(np.all(np.abs(np.abs(x - y) - edge) > 1e-2))
    return Program(fn, {name: edge, "reduction": draw(st.sampled_from(["mean", "sum", "none"]))}), (x, y)


@st.composite
def kl_div_case(draw):
    """As in MindSpore, no gradient reaches the labels: they are held fixed."""
    labels = ms.Tensor(draw(floats((2, 3), 0.0, 1.0)))
    return Program(ops.kl_div, {"labels": labels, "reduction": draw(st.sampled_from(["mean", "sum", "batchmean", "none"]))}), \
        (draw(floats((2, 3))),)


@st.composite
def cosine_embedding_case(draw):
    x, y = draw(floats((3, 4), 0.2, 2.0)), draw(floats((3, 4), -2.0, 2.0))
    margin = draw(st.sampled_from([0.0, 0.2]))
    with np.errstate(all="ignore"):  # y may be 0: then nan, and the example is dropped
        cosine = np.sum(x * y, 1) / np.sqrt(np.sum(x * x, 1) * np.sum(y * y, 1))
    assume(np.all(np.abs(cosine - margin) > 1e-2))
    target = draw(hnp.arrays(np.int32, (3,), elements=st.sampled_from([-1, 1])))
    return Program(ops.cosine_embedding_loss, {"margin": margin, "reduction": draw(st.sampled_from(["mean", "none"]))}), \
        (x, y, target)


# ---------------------------------------------------------------- activations


def activation(fn, kinks=(), **static):
    return program(fn, away_from((2, 3), kinks, -4.0, 4.0), **{k: st.just(v) for k, v in static.items()})


# ---------------------------------------------------------------- recurrent cells and attention


def cell_inputs(batch=2, features=3, hidden=2, steps=None):
    x = floats((batch, features) if steps is None else (batch, steps, features))
    return x, floats((batch, hidden) if steps is None else (1, batch, hidden))


def float64_layer(cls, *args, **kwargs):
    return lambda: cls(*args, dtype=ms.float64, **kwargs)


class LSTMCellOutputs(nn.Cell):
    """``nn.LSTMCell`` with its two states as separate inputs (a flat tuple in, a flat tuple out)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(3, 2, dtype=ms.float64)

    def construct(self, x, h, c):
        return self.cell(x, (h, c))


CASES = {
    "conv1d": conv1d_case(), "conv2d padding modes": conv2d_padding_modes_case(),
    "conv_transpose2d": conv_transpose2d_case(),
    "avg_pool1d": avg_pool1d_case(), "avg_pool2d": avg_pool2d_case(), "max_pool1d": max_pool1d_case(),
    "max_pool2d": max_pool2d_case(), "adaptive_avg_pool2d": adaptive_pool_case(ops.adaptive_avg_pool2d),
    "adaptive_max_pool2d": adaptive_pool_case(ops.adaptive_max_pool2d),
    "adaptive_max_pool2d with indices": adaptive_pool_case(ops.adaptive_max_pool2d, return_indices=True),
    "max_pool2d with indices": program(ops.max_pool2d, distinct((1, 2, 4, 5)), kernel_size=st.integers(2, 3),
                                       stride=st.integers(1, 2), padding=st.integers(0, 1), return_indices=st.just(True)),
    "Unfold": unfold_case(),
    "batch_norm": batch_norm_case(), "layer_norm": layer_norm_case(), "group_norm": group_norm_case(),
    "instance_norm": instance_norm_case(),
    "embedding": embedding_case(), "select": program(ops.select, hnp.arrays(np.bool_, (2, 3)), floats((2, 3)),
                                                     floats((2, 3))),
    "clip_by_value": clip_by_value_case(), "clip_by_global_norm": program(clip_global, floats((2, 3), 0.5, 2.0), floats((2,))),
    "maximum": maximum_case(), "max along an axis": program(max_values, distinct((2, 3))),
    "topk": program(ops.topk, distinct((2, 4)), k=st.integers(1, 3), dim=st.sampled_from([None, 0]),
                    largest=st.booleans()),
    "softmax": softmax_case(ops.softmax), "log_softmax": softmax_case(ops.log_softmax),
    "one_hot": program(one_hot, labels((3,), 4), floats(()), floats(())),
    "cross_entropy": cross_entropy_case(), "nll_loss": nll_loss_case(),
    "binary_cross_entropy": binary_cross_entropy_case(), "binary_cross_entropy_with_logits": bce_with_logits_case(),
    "smooth_l1_loss": smooth_l1_case(ops.smooth_l1_loss, "beta"), "huber_loss": smooth_l1_case(ops.huber_loss, "delta"),
    "kl_div": kl_div_case(), "cosine_embedding_loss": cosine_embedding_case(),
    "leaky_relu": activation(ops.leaky_relu, (0,), alpha=0.3), "elu": activation(ops.elu, (0,)),
    "prelu": program(ops.prelu, away_from((2, 3, 2), (0,)), floats((3,))), "mish": activation(ops.mish),
    "silu": activation(ops.silu), "hardswish": activation(ops.hardswish, (-3, 3)),
    "hardsigmoid": activation(ops.hardsigmoid, (-3, 3)), "logsigmoid": activation(ops.logsigmoid),
    "softsign": activation(ops.softsign, (0,)), "threshold": activation(ops.threshold, (0.2,), thr=0.2, value=-1.0),
    "RNNCell": layer(float64_layer(nn.RNNCell, 3, 2), *cell_inputs()),
    "GRUCell": layer(float64_layer(nn.GRUCell, 3, 2), *cell_inputs()),
    "LSTMCell": layer(LSTMCellOutputs, floats((2, 3)), floats((2, 2)), floats((2, 2))),
    "GRU": layer(float64_layer(nn.GRU, 3, 2, batch_first=True, bidirectional=True),
                 floats((2, 2, 3)), floats((2, 2, 2))),
    "MultiheadAttention": layer(float64_layer(nn.MultiheadAttention, 4, 2), floats((2, 1, 4)), floats((3, 1, 4)),
                                floats((3, 1, 4))),
}


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=2, deadline=None, derandomize=True, phases=[Phase.generate])
@given(data=st.data())
def test_second_derivatives_match_finite_differences(name, data):
    cell, operands = data.draw(CASES[name], label="cell and operands")
    check_second_order(cell, operands)
