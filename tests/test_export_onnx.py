"""``ms.export(..., file_format="ONNX")``: models run by onnxruntime give npspore's outputs, every op of the
op table has an ONNX form (checked op by op against its NumPy forward) or a stated reason why not, and
export's errors are MindSpore's."""
import inspect
import os
import stat
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.core.apply import apply_op
from npspore.export.graph import Constant, ExportError, ExportGraph, Node, Value, export_graph
from npspore.export.onnx_ops import NO_ONNX_FORM, ONNX_FORMS
from npspore.export.onnx_writer import onnx_model
from npspore.opdef import Aval, op_table
from quickstart_lenet import Network as LeNet5   # MindSpore's quick-start LeNet-5 (28x28 inputs)

RTOL, ATOL = 1e-5, 1e-6


def _export(net, *inputs, tmp_path, name="model"):
    """Export ``net`` to ONNX in ``tmp_path``; returns the loaded, fully checked model."""
    ms.export(net, *inputs, file_name=str(tmp_path / name), file_format="ONNX")
    model = onnx.load(str(tmp_path / f"{name}.onnx"))
    onnx.checker.check_model(model, full_check=True)
    return model


def _run(model, *arrays) -> list:
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {i.name: a for i, a in zip(session.get_inputs(), arrays)})


def _forward(net, *arrays) -> list:
    """npspore's forward in inference mode (an argument may be a tuple of arrays), leaves flattened."""
    training = net.training
    net.set_train(False)
    out = net(*(tuple(map(Tensor, a)) if isinstance(a, tuple) else Tensor(a) for a in arrays))
    net.set_train(training)
    leaves, stack = [], [out]
    while stack:
        item = stack.pop(0)
        if isinstance(item, (tuple, list)):
            stack[:0] = list(item)
        else:
            leaves.append(item.asnumpy())
    return leaves


def _op_types(graph) -> set:
    found = set()
    for node in graph.node:
        found.add(node.op_type)
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                found |= _op_types(attribute.g)
    return found


def _randomize(net, seed=0):
    """Parameters of a trained net's scale: weights ~ 1/sqrt(fan-in), positive moving variances."""
    rng = np.random.default_rng(seed)
    for param in net.get_parameters():
        if "variance" in param.name:
            value = rng.uniform(0.5, 1.5, param.shape)
        else:
            fan_in = int(np.prod(param.shape[1:])) if len(param.shape) > 1 else 10
            value = rng.standard_normal(param.shape) / np.sqrt(fan_in)
        param.set_data(Tensor(value.astype(np.float32)))


# ------------------------------------------------------------------------------------------ models


class ResidualBlock(nn.Cell):
    def __init__(self, channels=4):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, stride=1, pad_mode="pad", padding=1, has_bias=True)
        self.bn2 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.dropout = nn.Dropout(p=0.5)
        self.pool = nn.AvgPool2d(2, 2)

    def construct(self, x):
        h = self.relu(self.bn1(self.conv1(x)))
        h = self.dropout(self.bn2(self.conv2(h)))
        return self.pool(self.relu(h + x))


class LSTMClassifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True, bidirectional=True)
        self.fc = nn.Dense(32, 3)

    def construct(self, x):
        out, (h, c) = self.lstm(x)
        return ops.log_softmax(self.fc(out[:, -1, :]), -1), h


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Dense(16, 5)

    def construct(self, x):
        return ops.softmax(self.head(self.encoder(x).mean(1)), -1)


class ControlFlowMLP(nn.Cell):
    """A tensor ``if``, a tensor ``while`` and a ``for range`` loop carrying a tensor."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 6)
        self.fc2 = nn.Dense(6, 2)

    def construct(self, x):
        h = ops.tanh(self.fc1(x))
        if h.sum() > 0:
            h = h * 2.0
        else:
            h = h - 1.0
        while h.abs().max() < 10.0:
            h = h * 1.5 + 0.1
        for _ in range(3):
            h = self.fc1(h) * 0.5
        return self.fc2(h)


@pytest.mark.parametrize("make, shape, seed", [(LeNet5, (2, 1, 28, 28), 0), (ResidualBlock, (2, 4, 8, 8), 1),
                                               (LSTMClassifier, (2, 5, 8), 2), (Encoder, (2, 6, 16), 3)],
                         ids=["lenet5", "resnet_block", "lstm_classifier", "transformer_encoder"])
def test_onnxruntime_matches_the_forward(make, shape, seed, tmp_path):
    net = make()
    _randomize(net, seed)
    net.set_train(True)   # export runs it in inference mode and gives the flag back
    x = np.random.default_rng(seed + 10).standard_normal(shape).astype(np.float32)
    model = _export(net, Tensor(x), tmp_path=tmp_path)
    assert net.training
    got, want = _run(model, x), _forward(net, x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL)


def _normal(*shape):
    return np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)


LAYERS = {
    "gru": (lambda: nn.GRU(4, 5, num_layers=2, bidirectional=True), [_normal(6, 2, 4)]),
    "rnn": (lambda: nn.RNN(4, 5, batch_first=True), [_normal(2, 6, 4)]),
    "lstm_cell": (lambda: nn.LSTMCell(4, 5), [_normal(3, 4), (_normal(3, 5), _normal(5, 3).T.copy())]),
    "embedding": (lambda: nn.Embedding(10, 4), [np.array([[1, 9, 0], [3, 3, 7]], np.int32)]),
    "layer_norm": (lambda: nn.LayerNorm((4,)), [_normal(3, 4)]),
    "conv1d": (lambda: nn.Conv1d(3, 4, 3, pad_mode="same"), [_normal(2, 3, 9)]),
    "conv2d_transpose": (lambda: nn.Conv2dTranspose(3, 4, 3, stride=2), [_normal(2, 3, 5, 5)]),
    "adaptive_avg_pool": (lambda: nn.AdaptiveAvgPool2d((3, 2)), [_normal(2, 3, 7, 5)]),
    "adaptive_max_pool": (lambda: nn.AdaptiveMaxPool2d((3, 2)), [_normal(2, 3, 7, 5)]),
    "multihead_attention": (lambda: nn.MultiheadAttention(8, 2, batch_first=True),
                            [_normal(2, 3, 8), _normal(2, 4, 8), _normal(2, 4, 8)]),
    "group_norm": (lambda: nn.GroupNorm(2, 4), [_normal(2, 4, 3, 3)]),
    "unfold": (lambda: nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]), [_normal(1, 2, 4, 4)]),
    "activations": (lambda: nn.SequentialCell([nn.PReLU(), nn.ELU(), nn.HSwish(), nn.GELU(), nn.LeakyReLU(0.2)]),
                    [_normal(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_more_layers_match_the_forward(name, tmp_path):
    make, args = LAYERS[name]
    net = make()
    tensors = [tuple(map(Tensor, a)) if isinstance(a, tuple) else Tensor(a) for a in args]
    model = _export(net, *tensors, tmp_path=tmp_path)
    flat = [x for a in args for x in (a if isinstance(a, tuple) else (a,))]
    got, want = _run(model, *flat), _forward(net, *args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL)


def test_resnet_block_uses_the_moving_statistics_and_no_dropout(tmp_path):
    net = ResidualBlock()
    _randomize(net, 4)
    x = np.random.default_rng(5).standard_normal((2, 4, 8, 8)).astype(np.float32)
    model = _export(net, Tensor(x), tmp_path=tmp_path)
    names = {init.name for init in model.graph.initializer}
    assert {"bn1.moving_mean", "bn1.moving_variance", "bn1.gamma", "bn1.beta", "conv1.weight"} <= names
    assert [i.name for i in model.graph.input] == ["x"]
    moved = np.asarray(onnx.numpy_helper.to_array(next(i for i in model.graph.initializer
                                                           if i.name == "bn2.moving_mean")))
    np.testing.assert_array_equal(moved, net.bn2.moving_mean.asnumpy())
    assert "RandomUniform" not in _op_types(model.graph) and "Conv" in _op_types(model.graph)
    net.set_train(True)
    trained = net(Tensor(x)).asnumpy()   # batch statistics and dropout: not what the model computes
    assert not np.allclose(_run(model, x)[0], trained, rtol=RTOL, atol=ATOL)


def test_lstm_exports_as_loops(tmp_path):
    net = LSTMClassifier()
    x = np.random.default_rng(6).standard_normal((3, 5, 8)).astype(np.float32)
    model = _export(net, Tensor(x), tmp_path=tmp_path)
    assert sum(node.op_type == "Loop" for node in model.graph.node) == 4   # 2 layers x 2 directions


def test_tensor_if_while_and_for_range_export_as_if_and_loop(tmp_path):
    net = ControlFlowMLP()
    _randomize(net, 7)
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 6)).astype(np.float32)
    model = _export(net, Tensor(x), tmp_path=tmp_path)
    top = [node.op_type for node in model.graph.node]
    assert top.count("If") == 1 and top.count("Loop") == 2
    branches = set()
    for sample in (x, -x, x * 0.01, x * 100):   # one model, both branches of the if, 1 to 6 rounds of the while
        branches.add(bool(ops.tanh(net.fc1(Tensor(sample))).sum() > 0))
        np.testing.assert_allclose(_run(model, sample)[0], _forward(net, sample)[0], rtol=RTOL, atol=ATOL)
    assert branches == {True, False}


class MixedDtypes(nn.Cell):
    """MindSpore's implicit casts and Python scalars, made explicit in the exported graph."""

    def construct(self, x, i):
        small = i < 2.5                      # int32 against a float: compared as floats
        same = x == i                        # float32 against int32
        picked = ops.where(ops.logical_and(small, same), x, x * i + 1)
        return picked, i // 2, i % 3, ops.one_hot(i, 4, 1, 0), x[1, 1:3] + x[-1, 2:]


def test_implicit_casts_and_python_scalars(tmp_path):
    x = np.array([[0.0, 1.0, 2.0, 3.0], [5.0, -2.0, 2.0, 7.0]], np.float32)
    i = np.array([[0, 1, 3, 3], [5, -2, 2, -7]], np.int32)
    model = _export(MixedDtypes(), Tensor(x), Tensor(i), tmp_path=tmp_path)
    got, want = _run(model, x, i), _forward(MixedDtypes(), x, i)
    assert len(got) == len(want) == 5
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


class Saliency(nn.Cell):
    """The gradient of the top class score with respect to the image: gradient ops in the forward."""

    def __init__(self):
        super().__init__()
        self.net = LeNet5()
        self.pool = nn.AvgPool2d(2, 2)
        self.grad_fn = ms.grad(self.score)

    def score(self, x):
        return self.net(self.pool(x)).max()

    def construct(self, x):
        return self.grad_fn(x)


def test_a_gradient_computed_in_construct_exports(tmp_path):
    net = Saliency()
    _randomize(net, 9)
    x = np.random.default_rng(9).standard_normal((2, 1, 56, 56)).astype(np.float32)
    model = _export(net, Tensor(x), tmp_path=tmp_path)
    assert "ScatterElements" in _op_types(model.graph)   # the gradients of the pooling and the convolutions
    np.testing.assert_allclose(_run(model, x)[0], _forward(net, x)[0], rtol=RTOL, atol=ATOL)


def test_set_inputs_dynamic_dims_are_symbolic(tmp_path):
    net = nn.SequentialCell([nn.Dense(6, 5), nn.ReLU(), nn.Dense(5, 2)])
    net.set_inputs(Tensor(shape=[None, 6], dtype=ms.float32))
    model = _export(net, Tensor(np.ones((3, 6), np.float32)), tmp_path=tmp_path)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param and not dims[0].HasField("dim_value") and dims[1].dim_value == 6
    for batch in (1, 7):
        x = np.random.default_rng(batch).standard_normal((batch, 6)).astype(np.float32)
        np.testing.assert_allclose(_run(model, x)[0], _forward(net, x)[0], rtol=RTOL, atol=ATOL)


class _FlattenedFromBothDims(nn.Cell):
    """``x.reshape(x.shape[0], x.shape[1], -1)`` of a dynamic sequence and batch: both dims kept in place."""

    def construct(self, x):
        return ops.tanh(x.reshape(x.shape[0], x.shape[1], -1)) * 2.0


def test_a_reshape_keeping_two_dynamic_dims_exports_as_onnx_copied_dims(tmp_path):
    net = _FlattenedFromBothDims()
    net.set_inputs(Tensor(shape=[None, None, 2, 3], dtype=ms.float32))
    model = _export(net, Tensor(np.ones((4, 3, 2, 3), np.float32)), tmp_path=tmp_path)
    for shape in ((1, 2, 2, 3), (5, 3, 2, 3)):
        x = np.random.default_rng(shape[0]).standard_normal(shape).astype(np.float32)
        (result,) = _run(model, x)
        assert result.shape == shape[:2] + (6,)
        np.testing.assert_allclose(result, _forward(net, x)[0], rtol=RTOL, atol=ATOL)


def test_a_placeholder_inputs_none_dims_are_symbolic(tmp_path):
    net = nn.SequentialCell([nn.Dense(6, 5), nn.Tanh()])
    model = _export(net, Tensor(shape=[None, 6], dtype=ms.float32), tmp_path=tmp_path)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param and dims[1].dim_value == 6
    for batch in (1, 5):
        x = np.random.default_rng(batch).standard_normal((batch, 6)).astype(np.float32)
        np.testing.assert_allclose(_run(model, x)[0], _forward(net, x)[0], rtol=RTOL, atol=ATOL)


# ------------------------------------------------------------------------------------- the op table

_RNG = np.random.default_rng(2024)


def _f(*shape):
    return _RNG.standard_normal(shape).astype(np.float32)


def _positive(*shape):
    return _RNG.uniform(0.5, 2.0, shape).astype(np.float32)


def _ints(low, high, *shape, dtype=np.int32):
    return _RNG.integers(low, high, shape).astype(dtype)


def _bools(*shape):
    return _RNG.random(shape) < 0.5


_HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.3, -0.7], np.float32)
_SIGNED = np.array([[-7, 7, -6, 5], [0, -1, 3, -8]], np.int32)
_DIVISORS = np.array([[2, -2, 4, -3], [5, 3, -2, 3]], np.int32)
_WINDOWS = {"kernel_size": (2, 3), "stride": (2, 1), "padding": (1, 0, 1, 2), "dilation": (1, 2)}
_CONV = {"stride": (2, 1), "padding": (1, 0, 2, 1), "dilation": (1, 2), "groups": 2}
_BUF, _ROW = _f(5, 2, 3), _f(2, 3)
_IMAGE, _FILTER, _MASK = _f(2, 4, 7, 7), _f(6, 2, 3, 3), _bools(3, 4)
_CONV_OUT = op_table()["conv2d"].forward(_IMAGE, _FILTER, **_CONV)
_COLUMNS = op_table()["conv2d_columns"].forward(_IMAGE, filter_shape=_FILTER.shape, **_CONV)
_POOL_IN = _f(2, 3, 6, 7)
_POOL_OUT = op_table()["max_pool2d"].forward(_POOL_IN, **_WINDOWS)

# op -> list of (operands, static attributes): arrays are graph inputs, np.generic values constants
SAMPLES = {
    "add": [([_f(3, 4), _f(4)], {})], "sub": [([_f(3, 4), _f(3, 1)], {})], "mul": [([_f(3, 4), _f(3, 4)], {})],
    "div": [([_f(3, 4), _positive(3, 4)], {})],
    "floor_div": [([_f(3, 4) * 5, _positive(3, 4) * np.float32(-1)], {}), ([_SIGNED, _DIVISORS], {})],
    "mod": [([_f(3, 4) * 5, _f(3, 4)], {}), ([_SIGNED, _DIVISORS], {})],
    "remainder": [([_f(3, 4) * 5, _f(3, 4)], {}), ([_SIGNED, _DIVISORS], {})],
    "truncate_mod": [([_f(3, 4) * 5, _f(3, 4)], {}), ([_SIGNED, _DIVISORS], {})],
    "pow": [([_positive(3, 4), _f(3, 4)], {}), ([_ints(1, 4, 5), _ints(0, 3, 5)], {})],
    "maximum": [([_f(3, 4), _f(3, 4)], {})], "minimum": [([_f(3, 4), _f(4)], {})],
    "neg": [([_f(3, 4)], {})], "abs": [([_f(3, 4)], {})], "square": [([_f(3, 4)], {})], "sign": [([_f(3, 4)], {})],
    "round": [([_HALVES], {})], "exp": [([_f(3, 4)], {})], "log": [([_positive(3, 4)], {})],
    "log1p": [([_positive(3, 4)], {})], "sqrt": [([_positive(3, 4)], {})], "rsqrt": [([_positive(3, 4)], {})],
    "sin": [([_f(3, 4)], {})], "cos": [([_f(3, 4)], {})], "tan": [([_f(3, 4) * 0.5], {})],
    "tanh": [([_f(3, 4)], {})], "sigmoid": [([_f(3, 4)], {})], "relu": [([_f(3, 4)], {})],
    "softplus": [([np.array([-100.0, -3.0, 0.0, 2.0, 30.0, 100.0], np.float32)], {})], "erf": [([_f(3, 4)], {})],
    "gelu": [([_f(3, 4)], {"approximate": False}), ([_f(3, 4)], {"approximate": True})],
    "where": [([_bools(3, 4), _f(3, 4), _f(4)], {})],
    "clip": [([_f(3, 4), np.float32(-0.5), np.float32(0.5)], {}), ([_f(3, 4), None, _f(4)], {})],
    "cast": [([_f(3, 4) * 3], {"dtype": np.dtype(np.int32)}), ([_f(3, 4)], {"dtype": np.dtype(np.bool_)})],
    "stop_gradient": [([_f(3, 4)], {})],
    "equal": [([_ints(0, 3, 3, 4), _ints(0, 3, 3, 4)], {})], "not_equal": [([_ints(0, 3, 3, 4), _ints(0, 3, 4)], {})],
    "less": [([_f(3, 4), _f(3, 4)], {})], "less_equal": [([_ints(0, 3, 3, 4), _ints(0, 3, 3, 4)], {})],
    "greater": [([_f(3, 4), _f(4)], {})], "greater_equal": [([_ints(0, 3, 3, 4), _ints(0, 3, 3, 4)], {})],
    "logical_and": [([_bools(3, 4), _bools(3, 4)], {})], "logical_or": [([_bools(3, 4), _bools(4)], {})],
    "logical_not": [([_bools(3, 4)], {})],
    "sum": [([_f(3, 4, 2)], {"axis": 1}), ([_f(3, 4)], {"axis": None, "keepdims": True})],
    "mean": [([_f(3, 4, 2)], {"axis": (0, 2)}), ([_SIGNED], {"axis": 1}),
             ([_f(3, 40).astype(np.float16)], {"axis": 1})],
    "prod": [([_f(3, 4)], {"axis": 0, "keepdims": True})],
    "max": [([_f(3, 4)], {"axis": -1})], "min": [([_f(3, 4)], {"axis": None})],
    "max_with_indices": [([_f(3, 4)], {"axis": 1})], "min_with_indices": [([_f(3, 4)], {"axis": 0, "keepdims": True})],
    "argmax": [([_f(3, 4)], {"axis": 1}), ([_f(3, 4)], {"axis": None})], "argmin": [([_f(3, 4)], {"axis": 0})],
    "all": [([_bools(3, 4)], {"axis": 1})], "any": [([_bools(3, 4)], {"axis": None})],
    "reshape": [([_f(3, 4)], {"shape": (2, -1)})], "flatten": [([_f(2, 3, 4)], {"start_dim": 1})],
    "expand_dims": [([_f(3, 4)], {"axis": 1})],
    "squeeze": [([_f(3, 1, 4, 1)], {"axis": None}), ([_f(3, 1, 4)], {"axis": 1})],
    "transpose": [([_f(2, 3, 4)], {"axes": (2, 0, 1)}), ([_f(2, 3)], {"axes": None})],
    "broadcast_to": [([_f(3, 1)], {"shape": (2, 3, 4)})], "tile": [([_f(3, 4)], {"reps": (2, 1, 3)})],
    "concat": [([_f(2, 3), _f(4, 3)], {"axis": 0})], "stack": [([_f(2, 3), _f(2, 3)], {"axis": -1})],
    "split": [([_f(3, 6)], {"indices_or_sections": [1, 4], "axis": 1})],
    "getitem": [([_f(4, 5, 3)], {"index": (slice(None, None, -1), 1)}),
                ([_f(4, 5, 3)], {"index": (Ellipsis, None, slice(1, -1, 2))}), ([_f(4, 5)], {"index": -1}),
                ([_f(6, 5)], {"index": (slice(-2, 0, -2), slice(None), None)})],
    "setitem": [([_f(4, 5, 3), _f(5)], {"index": (slice(None, None, -1), Ellipsis, 1)}),
                ([_f(4, 5), np.float32(2.5)], {"index": (None, 1, slice(1, -1, 2))})],
    "gather": [([_f(5, 3), np.array([4, 0, -1, 2], np.int64)], {"axis": 0})],
    "masked_select": [([_f(3, 4), _bools(3, 4)], {})],
    "getitem_grad": [([_f(4, 3)], {"shape": (4, 5, 3), "index": (slice(None, None, -1), 1)}),
                     ([_f(2, 1, 3)], {"shape": (4, 3), "index": (slice(1, 3), None)})],
    "gather_grad": [([_f(4, 3), np.array([4, 0, -1, 4], np.int64)], {"shape": (5, 3), "axis": 0}),
                    ([_f(2, 2, 2, 3), np.array([[1, 1], [0, 4]], np.int32)], {"shape": (2, 5, 3), "axis": 1})],
    "masked_select_grad": [([_f(int(_MASK.sum())), _MASK], {"shape": (3, 4)})],
    "ones": [([], {"shape": (2, 3), "dtype": np.dtype(np.float32)})],
    "zeros": [([], {"shape": (4,), "dtype": np.dtype(np.int32)})],
    "ones_like": [([_f(3, 4)], {"dtype": None})], "zeros_like": [([_f(3, 4)], {"dtype": np.dtype(np.int64)})],
    "fill": [([np.float32(2.5)], {"shape": (2, 3), "dtype": np.dtype(np.float32)})],
    "matmul": [([_f(3, 4), _f(5, 4)], {"transpose_b": True}), ([_f(2, 4, 3), _f(4, 5)], {"transpose_a": True})],
    "batch_matmul": [([_f(2, 3, 4), _f(2, 4, 5)], {})], "dot": [([_f(3, 4), _f(4)], {})],
    "outer": [([_f(3), _f(4)], {})],
    "softmax": [([_f(3, 4)], {"axis": 0})], "log_softmax": [([_f(3, 4)], {"axis": -1})],
    "normalize": [([_f(2, 3, 4)], {"axis": (2,), "eps": 1e-5}), ([_f(2, 3, 4)], {"axis": (1, 2), "eps": 0.5})],
    "softmax_cross_entropy": [([_f(3, 4), np.full((3, 4), 0.25, np.float32)], {"axis": -1})],
    "one_hot": [([np.array([0, 2, 3, 5, -1], np.int64), np.float32(1.0), np.float32(0.0)], {"depth": 4, "axis": -1}),
                ([np.array([[0, 1], [3, 2]], np.int32), np.float32(2.0), np.float32(-1.0)], {"depth": 4, "axis": 0})],
    "conv2d": [([_f(2, 4, 7, 7), _f(6, 2, 3, 3)], _CONV)],
    "conv2d_columns": [([_f(2, 4, 7, 7)], {**_CONV, "filter_shape": (6, 2, 3, 3)})],
    "conv2d_input_grad": [([_f(*_CONV_OUT.shape), _FILTER], {**_CONV, "input_shape": _IMAGE.shape})],
    "conv2d_filter_grad": [([_IMAGE, _f(*_CONV_OUT.shape)], {**_CONV, "filter_shape": _FILTER.shape})],
    "conv2d_columns_grad": [([_f(*_COLUMNS.shape)], {**_CONV, "input_shape": _IMAGE.shape,
                                                     "filter_shape": _FILTER.shape})],
    "pool2d_windows": [([_f(2, 3, 6, 7)], {**_WINDOWS, "fill": -np.inf})],
    "max_pool2d": [([_f(2, 3, 6, 7)], {"kernel_size": (3, 2), "stride": (2, 2), "padding": (1, 1, 0, 1),
                                        "dilation": (1, 1)})],
    "max_pool2d_index": [([_f(2, 3, 6, 7)], _WINDOWS)],
    "max_pool2d_gather": [([_f(2, 3, 6, 7), _f(2, 3, 6, 7)], _WINDOWS)],
    "sum_pool2d": [([_f(2, 3, 6, 7)], _WINDOWS)],
    "max_pool2d_grad": [([_POOL_IN, _POOL_OUT, _f(*_POOL_OUT.shape)], _WINDOWS)],   # x, its max pooling, the cotangent
    "sum_pool2d_grad": [([_f(*_POOL_OUT.shape)], {**_WINDOWS, "input_shape": (2, 3, 6, 7)})],
    "adaptive_avg_weights": [([], {"in_size": 7, "out_size": 3, "dtype": np.dtype(np.float32)})],
    "adaptive_window_index": [([], {"in_size": 7, "out_size": 3})],
    "row": [([_BUF, np.int64(3)], {})], "row_add": [([_BUF, np.int64(1), _ROW], {})],
    "row_add_in_place": [([_BUF, np.int64(4), _ROW], {})], "row_set": [([_BUF, np.int64(0), _ROW], {})],
    "row_set_in_place": [([_BUF, np.int64(2), _ROW], {})],
    "setitem_in_place": [([_f(3, 4), _f(3)], {"index": (Ellipsis, -1)})],
    "topk": [([_f(3, 6)], {"k": 2, "largest": True}), ([_f(3, 6)], {"k": 3, "largest": False})],
    "dim_size": [([_f(3, 6)], {"axis": 1}), ([_f(3, 6)], {"axis": -2})],
    "dim_range": [([_f(3, 6)], {"axis": 1}), ([_f(3, 6)], {"axis": -2})],
    "reshape_keeping": [([_f(3, 2, 4)], {"shape": (None, None, 2, 2)}), ([_f(3, 8)], {"shape": (None, -1, 2)})],
    "reshape_like": [([_f(3, 6), _f(9, 2)], {}), ([_f(2, 9), _f(3, 2, 3)], {})],
    "gather_last": [([_f(3, 6), np.array([[5, 0], [1, 1], [2, 4]], np.int32)], {})],
    "scatter_last": [([_f(3, 2), np.array([[5, 0], [1, 3], [2, 4]], np.int32)], {"size": 6})],
    # codegen_templates/special.py (fixed points: the draws of _RNG above stay as they were)
    **{name: [([np.linspace(-0.9, 0.9, 12, dtype=np.float32).reshape(3, 4)], {})]
       for name in ("acos", "asin", "atan", "sinh", "cosh", "asinh", "atanh", "expm1", "erfc")},
    "acosh": [([np.linspace(1.0, 4.0, 12, dtype=np.float32).reshape(3, 4)], {})],
    "trunc": [([_HALVES * 3], {}), ([_SIGNED], {})],
    "matrix_determinant": [([np.array([[[2.0, -1.0, 0.5], [0.3, 1.5, -2.0], [1.0, 0.25, 3.0]]] * 2, np.float32)], {})],
    **{name: [([_SIGNED, _DIVISORS], {}), ([_MASK, ~_MASK], {})] for name in ("bitwise_and", "bitwise_or", "bitwise_xor")},
}
RANDOM_OPS = {"random_normal": {"shape": (200, 50), "dtype": np.dtype(np.float32)},
              "random_uniform": {"shape": (200, 50), "dtype": np.dtype(np.float32)},
              "dropout_mask": {"shape": (200, 50), "keep_prob": 0.75, "dtype": np.dtype(np.float32)}}


def _one_op_graph(op, operands, static):
    """An export graph of one node of ``op``: array operands are inputs, the others constants."""
    definition = op_table()[op]
    avals = [Aval.of(v) if isinstance(v, np.ndarray) else (v.item() if isinstance(v, np.generic) else v)
             for v in operands]
    inferred = definition.infer(*avals, **static)
    outs = tuple(Value(f"out{k}", a.shape, a.dtype) for k, a in enumerate(
        inferred if isinstance(inferred, tuple) else (inferred,)))
    inputs = tuple(Value(f"in{k}", v.shape, v.dtype) for k, v in enumerate(operands) if isinstance(v, np.ndarray))
    feed = iter(inputs)
    node_inputs = tuple(next(feed) if isinstance(v, np.ndarray) else Constant(np.asarray(v, dtype=object if v is None
                                                                                           else None))
                        for v in operands)
    attrs = {name: static.get(name, default) for name, default in definition.static.items()}
    loc = ms.compiler.ir.Loc(__file__, 1)
    graph = ExportGraph(op, inputs, (), [Node(op, node_inputs, attrs, outs, loc)], outs)
    return graph, [v for v in operands if isinstance(v, np.ndarray)], [a.dtype for a in outs]


def test_every_op_of_the_table_has_an_onnx_form_or_a_reason():
    names = {d.name for d in op_table().definitions()}
    assert set(ONNX_FORMS) & set(NO_ONNX_FORM) == set()
    assert set(ONNX_FORMS) | set(NO_ONNX_FORM) == names
    assert all(isinstance(reason, str) and len(reason) > 20 for reason in NO_ONNX_FORM.values())
    assert set(SAMPLES) | set(RANDOM_OPS) == set(ONNX_FORMS)   # every form is run below


@pytest.mark.parametrize("op, index", [(op, k) for op in SAMPLES for k in range(len(SAMPLES[op]))])
def test_onnx_form_computes_the_ops_forward(op, index):
    operands, static = SAMPLES[op][index]
    graph, arrays, dtypes = _one_op_graph(op, operands, static)
    model = onnx_model(graph)
    onnx.checker.check_model(model, full_check=True)
    assert_computes_the_forward(_run(model, *arrays), op, operands, static, dtypes)


def ops_forward(op, operands, static, dtypes) -> tuple:
    """The op's own forward on a sample's operands, as a tuple of arrays of the graph's output dtypes."""
    expected = apply_op(op_table()[op], [v.copy() if isinstance(v, np.ndarray) else
                                         (v.item() if isinstance(v, np.generic) else v) for v in operands],
                        static, tuple(dtypes) if len(dtypes) > 1 else dtypes[0])
    return expected if isinstance(expected, tuple) else (expected,)


def assert_computes_the_forward(got, op, operands, static, dtypes) -> None:
    """``got`` (a runtime's outputs of a one-op graph) are the op's forward: same dtypes, shapes, values."""
    expected = ops_forward(op, operands, static, dtypes)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("op", sorted(RANDOM_OPS))
def test_random_draws_have_the_ops_distribution(op):
    graph, _, dtypes = _one_op_graph(op, [], RANDOM_OPS[op])
    model = onnx_model(graph)
    onnx.checker.check_model(model, full_check=True)
    draw = _run(model)[0]
    assert draw.dtype == dtypes[0] and draw.shape == (200, 50)
    if op == "random_normal":
        assert abs(draw.mean()) < 0.05 and abs(draw.std() - 1) < 0.05
    elif op == "random_uniform":
        assert draw.min() >= 0 and draw.max() < 1 and abs(draw.mean() - 0.5) < 0.02
    else:
        assert set(np.unique(draw)) == {np.float32(0), np.float32(1 / 0.75)} and abs((draw > 0).mean() - 0.75) < 0.02


# ------------------------------------------------------------------------------------------- errors


class SparseLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)

    def construct(self, x, labels):
        return ops.cross_entropy(self.fc(x), labels)   # class_indices: no ONNX form


def test_an_op_without_onnx_form_names_the_op_and_the_users_line(tmp_path):
    x, labels = Tensor(np.ones((2, 4), np.float32)), Tensor(np.array([0, 2], np.int32))
    with pytest.raises(ExportError) as caught:
        ms.export(SparseLoss(), x, labels, file_name=str(tmp_path / "loss"), file_format="ONNX")
    message = str(caught.value)
    line = inspect.getsourcelines(SparseLoss.construct)[1] + 1
    assert "'class_indices'" in message and "ONNX" in message and "raising operator" in message
    assert f'File "{__file__}", line {line}' in message and "ops.cross_entropy(self.fc(x), labels)" in message
    assert isinstance(caught.value, ValueError)
    assert not (tmp_path / "loss.onnx").exists()


class Printing(nn.Cell):
    def construct(self, x):
        print(x)
        return x * 2


class ReadsAValue(nn.Cell):
    def construct(self, x):
        if float(x.sum()) > 0:
            return x * 2
        return x


class Assigns(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")

    def construct(self, x):
        ops.assign(self.w, x)
        return x * 2


@pytest.mark.parametrize("cell, kind", [(Printing, "'print', a print"),
                                        (ReadsAValue, "'host', Python run on a tensor's values"),
                                        (Assigns, "'assign', an assignment to a Parameter")])
def test_what_a_model_cannot_hold_is_refused_at_its_line(cell, kind, tmp_path):
    with pytest.raises(ExportError) as caught:
        ms.export(cell(), Tensor(np.ones(2, np.float32)), file_name=str(tmp_path / "p"), file_format="ONNX")
    assert str(caught.value).startswith(f"npspore cannot export {kind}")
    assert f'File "{__file__}", line {inspect.getsourcelines(cell.construct)[1] + 1}' in str(caught.value)
    assert os.listdir(tmp_path) == []


def test_formats_and_file_names_are_checked_as_mindspore_does(tmp_path):
    net, x = nn.Dense(3, 2), Tensor(np.ones((1, 3), np.float32))
    with pytest.raises(ValueError, match=r"^Only support export file in 'AIR' format with Ascend backend\.$"):
        ms.export(net, x, file_name=str(tmp_path / "n"), file_format="AIR")
    for bad in ("onnx", "XYZ", None):
        with pytest.raises(ValueError) as caught:
            ms.export(net, x, file_name=str(tmp_path / "n"), file_format=bad)
        formats = "['AIR', 'ONNX', 'MINDIR']"
        assert str(caught.value) == f"For 'export', 'file_format' must be one of {formats}, but got {bad}."
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'file_format'"):
        ms.export(net, x, file_name=str(tmp_path / "n"))
    with pytest.raises(TypeError, match=r"^The '123' must be string, but got <class 'int'>\.$"):
        ms.export(net, x, file_name=123, file_format="ONNX")
    with pytest.raises(ValueError, match="is illegal, it must be match regular"):
        ms.export(net, x, file_name=str(tmp_path / "a b"), file_format="ONNX")
    not_a_cell = r"^Export ONNX format model only support nn.Cell object, but got <class 'function'>\.$"
    with pytest.raises(ValueError, match=not_a_cell):
        ms.export(lambda v: v, x, file_name=str(tmp_path / "f"), file_format="ONNX")
    ms.export(net, x, file_name=str(tmp_path / "m"), file_format="MINDIR")
    assert sorted(os.listdir(tmp_path)) == ["m.mindir"]


def test_file_naming_directories_and_mode(tmp_path):
    net, x = nn.Dense(3, 2), Tensor(np.ones((1, 3), np.float32))
    ms.export(net, x, file_name=str(tmp_path / "deep" / "dir" / "net"), file_format="ONNX")
    ms.export(net, x, file_name=str(tmp_path / "named.onnx"), file_format="ONNX")
    ms.export(net, x, file_name=str(tmp_path / "upper.ONNX"), file_format="ONNX")
    ms.export(net, x, file_name=str(tmp_path / "named.onnx"), file_format="ONNX")   # a read-only file is replaced
    assert sorted(os.listdir(tmp_path)) == ["deep", "named.onnx", "upper.ONNX.onnx"]
    assert os.listdir(tmp_path / "deep" / "dir") == ["net.onnx"]
    assert stat.S_IMODE(os.stat(tmp_path / "named.onnx").st_mode) == stat.S_IRUSR
    assert stat.S_IMODE(os.stat(tmp_path / "deep" / "dir").st_mode) == 0o700   # the directory made for the file


def test_a_network_over_protobufs_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules["npspore.export"], "_PROTO_LIMIT_KB", 0.5)   # 2 GB, scaled down to 512 bytes
    with pytest.raises(RuntimeError, match=r"^Export onnx model failed. Network size is: .*G, it exceeded the "):
        ms.export(nn.Dense(20, 20), Tensor(np.ones((1, 20), np.float32)), file_name=str(tmp_path / "big"),
                  file_format="ONNX")
    assert os.listdir(tmp_path) == []


def test_without_the_onnx_package_the_error_says_how_to_install_it(tmp_path):
    script = ("import sys; sys.modules['onnx'] = None\n"
              "import numpy as np, npspore as ms\n"
              f"ms.export(ms.nn.Dense(3, 2), ms.Tensor(np.ones((1, 3), np.float32)), file_name={str(tmp_path / 'n')!r},"
              " file_format='ONNX')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "ImportError: For 'export', file_format 'ONNX' needs the onnx package: pip " \
        "install 'npspore[export]'" in done.stderr
    assert os.listdir(tmp_path) == []


def test_export_is_reachable_where_mindspore_has_it():
    from npspore.train.serialization import export as from_serialization
    assert ms.export is ms.train.export is from_serialization is ms.train.serialization.export
    assert list(inspect.signature(ms.export).parameters) == ["net", "inputs", "file_name", "file_format", "kwargs"]


def test_onnx_model_names(tmp_path):
    net = LeNet5()
    model = _export(net, Tensor(np.ones((1, 1, 28, 28), np.float32)), tmp_path=tmp_path)
    assert [i.name for i in model.graph.input] == ["x"]
    assert [o.name for o in model.graph.output] == ["0"]
    assert [i.name for i in model.graph.initializer] == [p.name for p in net.trainable_params()]
    assert model.opset_import[0].version >= 18 and model.producer_name == "npspore"


def cli_export_mlp(file_format, out):
    """``npspore export npspore.examples:MLP --input f32[3,4] --format FORMAT -o OUT``: the finished process."""
    return subprocess.run([sys.executable, "-m", "npspore", "export", "npspore.examples:MLP", "--input", "f32[3,4]",
                           "--format", file_format, "-o", str(out)], capture_output=True, text=True, check=False)


def test_cli_exports_a_model(tmp_path):
    done = cli_export_mlp("onnx", tmp_path / "mlp")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "mlp.onnx")
    model = onnx.load(str(tmp_path / "mlp.onnx"))
    onnx.checker.check_model(model, full_check=True)
    from npspore.examples import MLP
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(_run(model, x)[0], _forward(MLP(), x)[0], rtol=RTOL, atol=ATOL)


def test_cli_refuses_a_function_target(tmp_path):
    done = subprocess.run([sys.executable, "-m", "npspore", "export", "npspore.examples:elementwise", "--input",
                           "f32[3]", "f32[3]", "f32[3]", "--format", "onnx", "-o", str(tmp_path / "e")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "needs a Cell target" in done.stderr and not os.listdir(tmp_path)


# ------------------------------------------------------------------------------ mindspore.onnx.export


def _mlp():
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    _randomize(net, 11)
    return net


def test_onnx_export_names_and_dynamic_axes(tmp_path):
    net, x = _mlp(), np.ones((5, 3), np.float32)
    ms.onnx.export(net, Tensor(x), file_name=str(tmp_path / "named"), input_names=["inp"], output_names=["probs"],
                   dynamic_axes={"inp": {0: "batch"}, "absent": {0: "b"}})
    model = onnx.load(str(tmp_path / "named.onnx"))
    onnx.checker.check_model(model, full_check=True)
    assert [i.name for i in model.graph.input] == ["inp"] and [o.name for o in model.graph.output] == ["probs"]
    assert [d.dim_param or d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim] == ["batch", 3]
    for batch in (1, 9):
        sample = np.random.default_rng(batch).standard_normal((batch, 3)).astype(np.float32)
        np.testing.assert_allclose(_run(model, sample)[0], _forward(net, sample)[0], rtol=RTOL, atol=ATOL)


def test_onnx_export_parameters_as_inputs(tmp_path):
    net, x = _mlp(), np.random.default_rng(12).standard_normal((5, 3)).astype(np.float32)
    ms.onnx.export(net, Tensor(x), file_name=str(tmp_path / "bare"), export_params=False)
    ms.onnx.export(net, Tensor(x), file_name=str(tmp_path / "kept"), keep_initializers_as_inputs=True)
    names = ["input_data", "0.weight", "0.bias", "2.weight", "2.bias"]
    for file, stored in (("bare", []), ("kept", names[1:])):
        model = onnx.load(str(tmp_path / f"{file}.onnx"))
        onnx.checker.check_model(model, full_check=True)
        assert [i.name for i in model.graph.input] == names and [i.name for i in model.graph.initializer] == stored
    weights = [p.asnumpy() for p in net.get_parameters()]
    bare = onnx.load(str(tmp_path / "bare.onnx"))
    np.testing.assert_allclose(_run(bare, x, *weights)[0], _forward(net, x)[0], rtol=RTOL, atol=ATOL)


def test_onnx_export_checks_its_arguments_as_mindspore_does(tmp_path):
    net, x = _mlp(), Tensor(np.ones((5, 3), np.float32))
    with pytest.raises(ValueError, match=r"^The parameter 'input_names' must be isinstance of <class 'list'>, "
                                         r"but got a\.$"):
        ms.onnx.export(net, x, file_name=str(tmp_path / "a"), input_names="a")
    with pytest.raises(ValueError, match=r"^The parameter 'dynamic_axes' must be isinstance of <class 'dict'>, "
                                         r"but got \[1\]\.$"):
        ms.onnx.export(net, x, file_name=str(tmp_path / "a"), dynamic_axes=[1])
    with pytest.raises(ValueError, match="'dynamic_axes\\['input_data'\\]' must be ints in \\[-2, 2\\)"):
        ms.onnx.export(net, x, file_name=str(tmp_path / "a"), dynamic_axes={"input_data": {2: "w"}})
    with pytest.raises(ValueError, match="the name 'x' is given to two values"):
        ms.onnx.export(net, x, file_name=str(tmp_path / "a"), input_names=["x"], output_names=["x"])
    with pytest.raises(TypeError, match="must be string"):
        ms.onnx.export(net, x, file_name=None)
    assert os.listdir(tmp_path) == []
