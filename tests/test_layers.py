"""Built-in layers and losses: eager forward against NumPy, reprs and argument errors (semantics §10)."""
import math

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn
from npspore.common.initializer import Normal

RNG = np.random.default_rng(0)


def f32(array):
    return Tensor(np.asarray(array, np.float32))


def dense_reference(x, w, b):
    return x @ w.T + b


# ---------------------------------------------------------------- Dense


@pytest.mark.parametrize("shape", [(4, 3), (3,), (2, 5, 3)])
def test_dense_forward_matches_numpy_on_the_last_axis(shape):
    w = RNG.standard_normal((2, 3)).astype(np.float32)
    b = RNG.standard_normal(2).astype(np.float32)
    x = RNG.standard_normal(shape).astype(np.float32)
    net = nn.Dense(3, 2, weight_init=Tensor(w), bias_init=Tensor(b))
    out = net(Tensor(x))
    assert out.shape == shape[:-1] + (2,) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), dense_reference(x, w, b), rtol=1e-6, atol=1e-6)


def test_dense_parameters_and_attributes():
    net = nn.Dense(3, 2)
    assert [(q.name, q.shape, q.dtype) for q in net.get_parameters()] == \
        [("weight", (2, 3), ms.float32), ("bias", (2,), ms.float32)]
    assert (net.in_channels, net.out_channels, net.has_bias) == (3, 2, True)


def test_dense_default_init_is_he_uniform_and_uniform_bias():
    net = nn.Dense(25, 40)
    bound = 1 / math.sqrt(25)  # HeUniform(sqrt(5)) and Uniform(1/sqrt(in)) share this bound
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.8 * bound and w.std() > 0.4 * bound  # spread over the interval, not constant
    assert not np.array_equal(w, nn.Dense(25, 40).weight.asnumpy())


def test_dense_init_from_string_number_and_initializer():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    np.testing.assert_array_equal(net.weight.asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(net.bias.asnumpy(), np.zeros(2))
    np.testing.assert_array_equal(nn.Dense(3, 2, weight_init=0.5, bias_init=2).bias.asnumpy(), [2.0, 2.0])
    assert nn.Dense(3, 2, weight_init=Normal(0.01)).weight.shape == (2, 3)
    np.testing.assert_array_equal(nn.Dense(2, 2, weight_init="ones", bias_init="zeros")(f32([1.0, 2.0])).asnumpy(),
                                  [3.0, 3.0])


def test_dense_dtype_argument():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros", dtype=ms.float64)
    assert net.weight.dtype == ms.float64 and net.bias.dtype == ms.float64


def test_dense_without_bias():
    net = nn.Dense(3, 2, weight_init="ones", has_bias=False)
    assert net.bias is None and [q.name for q in net.get_parameters()] == ["weight"]
    assert repr(net) == "Dense(input_channels=3, output_channels=2)"
    np.testing.assert_array_equal(net(f32([[1.0, 2.0, 3.0]])).asnumpy(), [[6.0, 6.0]])


def test_dense_repr():
    assert repr(nn.Dense(3, 2)) == "Dense(input_channels=3, output_channels=2, has_bias=True)"
    assert repr(nn.Dense(3, 2, activation=nn.ReLU())) == (
        "Dense(\n  input_channels=3, output_channels=2, has_bias=True, activation=ReLU()\n"
        "  (activation): ReLU()\n)")


@pytest.mark.parametrize("name, reference", [
    ("relu", lambda v: np.maximum(v, 0)),
    ("tanh", np.tanh),
    ("sigmoid", lambda v: 1 / (1 + np.exp(-v))),
    ("softmax", lambda v: np.exp(v) / np.exp(v).sum(-1, keepdims=True)),
])
def test_dense_activation_by_name(name, reference):
    w = RNG.standard_normal((3, 4)).astype(np.float32)
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    net = nn.Dense(4, 3, weight_init=Tensor(w), bias_init="zeros", activation=name)
    assert list(net.name_cells()) == ["activation"]
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), reference(x @ w.T), rtol=1e-5, atol=1e-6)


def test_dense_argument_errors():
    with pytest.raises(ValueError, match=r"^For 'Dense', weight init shape error\. "):
        nn.Dense(3, 2, weight_init=Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(ValueError, match=r"^For 'Dense', bias init shape error\. "):
        nn.Dense(3, 2, bias_init=Tensor(np.ones(3, np.float32)))
    with pytest.raises(TypeError, match="'in_channels' must be int"):
        nn.Dense(3.0, 2)
    with pytest.raises(ValueError, match="'out_channels' must be a positive int, but got 0"):
        nn.Dense(3, 0)
    with pytest.raises(TypeError, match="'has_bias' must be bool"):
        nn.Dense(3, 2, has_bias=1)
    with pytest.raises(KeyError, match="but got nope"):
        nn.Dense(3, 2, activation="nope")
    with pytest.raises(TypeError,
                       match=r"^For 'Dense', the 'activation' must be str or Cell or Primitive, but got int"):
        nn.Dense(3, 2, activation=3)


def test_dense_wrong_input_width():
    with pytest.raises(ValueError, match=r"For 'MatMul' the input dimensions must be equal, but got 'x1_col': 2 "
                                         r"and 'x2_row': 3\."):
        nn.Dense(3, 2)(f32([[1.0, 2.0]]))


# ---------------------------------------------------------------- activations and simple layers


X = RNG.standard_normal((2, 5)).astype(np.float32)


@pytest.mark.parametrize("cell, reference", [
    (nn.ReLU(), lambda v: np.maximum(v, 0)),
    (nn.Sigmoid(), lambda v: 1 / (1 + np.exp(-v))),
    (nn.Tanh(), np.tanh),
    (nn.GELU(), lambda v: 0.5 * v * (1 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v ** 3)))),
    (nn.GELU(approximate=False), lambda v: 0.5 * v * (1 + np.vectorize(math.erf)(v / np.sqrt(2)))),
    (nn.Softmax(), lambda v: np.exp(v) / np.exp(v).sum(-1, keepdims=True)),
    (nn.Softmax(axis=0), lambda v: np.exp(v) / np.exp(v).sum(0, keepdims=True)),
    (nn.LogSoftmax(), lambda v: v - np.log(np.exp(v).sum(-1, keepdims=True))),
    (nn.Identity(), lambda v: v),
])
def test_activation_values(cell, reference):
    out = cell(Tensor(X))
    assert out.dtype == ms.float32 and out.shape == X.shape
    np.testing.assert_allclose(out.asnumpy(), reference(X), rtol=1e-5, atol=1e-6)


def test_simple_reprs():
    assert [repr(c) for c in (nn.ReLU(), nn.Softmax(), nn.Flatten(), nn.Identity())] == \
        ["ReLU()", "Softmax()", "Flatten()", "Identity()"]
    assert repr(nn.Dropout(p=0.2)) == "Dropout(p=0.2)"
    assert repr(nn.Dropout(keep_prob=0.9)) == "Dropout(keep_prob=0.9)"


def test_flatten():
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    assert nn.Flatten()(x).shape == (2, 12)
    assert nn.Flatten(0, 1)(x).shape == (6, 4)
    np.testing.assert_array_equal(nn.Flatten()(x).asnumpy(), np.arange(24).reshape(2, 12))
    with pytest.raises(TypeError):
        nn.Flatten(1.0)


def test_matmul_cell():
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    b = RNG.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(nn.MatMul()(Tensor(a), Tensor(b)).asnumpy(), a @ b, rtol=1e-6)
    np.testing.assert_allclose(nn.MatMul(transpose_x1=True)(Tensor(a.T), Tensor(b)).asnumpy(), a @ b, rtol=1e-6)
    np.testing.assert_allclose(nn.MatMul(transpose_x2=True)(Tensor(a), Tensor(b.T)).asnumpy(), a @ b, rtol=1e-6)
    vector_product = nn.MatMul()(f32([2.0]), f32([1.0]))
    assert vector_product.shape == () and float(vector_product) == 2.0


# ---------------------------------------------------------------- Dropout


def test_dropout_is_identity_in_inference_mode():
    x = Tensor(X)
    assert nn.Dropout(p=0.5)(x) is x


def test_dropout_in_training_keeps_and_rescales_with_the_seeded_generator():
    """MindSpore's masks (tests/test_random_kernels.py): a cell made after set_seed(7) draws them again; the same
    cell called again continues its primitive's engine."""
    x = Tensor(np.ones((200, 50), np.float32))
    ms.set_seed(7)
    net = nn.Dropout(p=0.2).set_train()
    first = net(x).asnumpy()
    assert set(np.unique(first)) == {0.0, np.float32(1 / 0.8)}
    assert abs((first == 0).mean() - 0.2) < 0.02
    assert not np.array_equal(net(x).asnumpy(), first)
    ms.set_seed(7)
    np.testing.assert_array_equal(nn.Dropout(p=0.2).set_train()(x).asnumpy(), first)
    assert net(x).dtype == ms.float32
    assert nn.Dropout(keep_prob=1.0).set_train()(x) is x


def test_dropout_arguments():
    assert nn.Dropout().keep_prob == 0.5
    assert nn.Dropout(p=0.3).keep_prob == pytest.approx(0.7)
    with pytest.raises(ValueError, match=r"'p' must be a number in range \[0, 1\), but got 1"):
        nn.Dropout(p=1)
    with pytest.raises(ValueError, match=r"'keep_prob' must be a number in range \(0, 1\], but got 0.0"):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(TypeError):
        nn.Dropout(keep_prob=1)


# ---------------------------------------------------------------- losses


LOGITS = RNG.standard_normal((3, 4)).astype(np.float32)
TARGET = RNG.standard_normal((3, 4)).astype(np.float32)


@pytest.mark.parametrize("reduction, reduce", [("mean", np.mean), ("sum", np.sum), ("none", lambda v: v)])
def test_mse_and_l1_losses(reduction, reduce):
    mse = nn.MSELoss(reduction)(Tensor(LOGITS), Tensor(TARGET))
    l1 = nn.L1Loss(reduction)(Tensor(LOGITS), Tensor(TARGET))
    assert mse.dtype == ms.float32 and mse.shape == np.shape(reduce(LOGITS))
    np.testing.assert_allclose(mse.asnumpy(), reduce((LOGITS - TARGET) ** 2), rtol=1e-5)
    np.testing.assert_allclose(l1.asnumpy(), reduce(np.abs(LOGITS - TARGET)), rtol=1e-5)


def test_loss_repr_and_bad_reduction():
    assert repr(nn.MSELoss()) == "MSELoss()"
    with pytest.raises(ValueError) as info:
        nn.MSELoss(reduction="avg")
    assert str(info.value) == "For 'MSELoss', the 'reduction' must be in ['mean', 'sum', 'none'], but got avg."


def test_get_loss_with_weights_keeps_input_dtype():
    loss = nn.L1Loss()
    x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float64))
    weights = Tensor(np.array([1.0, 0.0], np.float32))
    out = loss.get_loss(x, weights)
    assert out.dtype == ms.float64 and float(out) == pytest.approx(1.0)
    assert float(loss.get_loss(x, 2.0)) == pytest.approx(5.0)


def log_softmax(v):
    return v - np.log(np.exp(v).sum(-1, keepdims=True))


def test_softmax_cross_entropy_dense_labels():
    labels = np.eye(4, dtype=np.float32)[[0, 3, 1]]
    out = nn.SoftmaxCrossEntropyWithLogits()(Tensor(LOGITS), Tensor(labels))
    assert out.shape == (3,)
    np.testing.assert_allclose(out.asnumpy(), -(labels * log_softmax(LOGITS)).sum(-1), rtol=1e-5)


@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_softmax_cross_entropy_sparse_labels(label_dtype):
    labels = np.array([0, 3, 1], label_dtype)
    expected = -log_softmax(LOGITS)[np.arange(3), labels]
    net = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    out = net(Tensor(LOGITS), Tensor(labels))
    assert out.shape == () and out.dtype == ms.float32
    np.testing.assert_allclose(float(out), expected.mean(), rtol=1e-5)
    none = nn.SoftmaxCrossEntropyWithLogits(sparse=True)(Tensor(LOGITS), Tensor(labels))
    np.testing.assert_allclose(none.asnumpy(), expected, rtol=1e-5)
    with pytest.raises(TypeError):
        nn.SoftmaxCrossEntropyWithLogits(sparse=1)


def test_sparse_softmax_cross_entropy_gradient_reads_the_forward_log_probabilities():
    net = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    labels = np.array([0, 3, 1], np.int32)
    grad = ms.grad(net)
    source = grad.kernel_source(Tensor(LOGITS), Tensor(labels))
    # log-softmax once, its probabilities with it, no dense one-hot: the gradient is the probabilities minus the
    # labels scattered
    assert source.count("rt.log_softmax_probs(") == 1 and "np.log(" not in source and "np.exp(" not in source, source
    assert "np.arange(" not in source, source
    probabilities = np.exp(log_softmax(LOGITS))
    probabilities[np.arange(3), labels] -= 1
    np.testing.assert_allclose(grad(Tensor(LOGITS), Tensor(labels)).asnumpy(), probabilities / 3, rtol=1e-5,
                               atol=1e-7)


@pytest.mark.parametrize("label", [4, -1])
def test_a_sparse_label_outside_the_classes_is_a_clear_error(label):
    net = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    with pytest.raises(ValueError, match=rf"SoftmaxCrossEntropyWithLogits.*'labels'.*\[0, 4\).*got {label}"):
        net(Tensor(LOGITS), Tensor(np.array([0, label, 1], np.int32)))
    with pytest.raises(ValueError, match=rf"'labels'.*got {label}"):
        ms.jit(net)(Tensor(LOGITS), Tensor(np.array([0, label, 1], np.int32)))


# ---------------------------------------------------------------- Dense + MSELoss end to end


def test_dense_then_mse_matches_hand_computation():
    w = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], np.float32)
    b = np.array([0.1, -0.2], np.float32)
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], np.float32)
    y = np.array([[4.0, 0.0], [0.0, -2.0]], np.float32)
    dense = nn.Dense(3, 2, weight_init=Tensor(w), bias_init=Tensor(b))
    out = dense(Tensor(x))
    # by hand: rows [0.5-2+6+0.1, 1.5+0-1.5-0.2] = [4.6, -0.2], [-0.5-0.5+0+0.1, -1.5+0+0-0.2] = [-0.9, -1.7]
    np.testing.assert_allclose(out.asnumpy(), [[4.6, -0.2], [-0.9, -1.7]], rtol=1e-6)
    loss = nn.MSELoss()(out, Tensor(y))
    expected = ((0.6 ** 2) + (0.2 ** 2) + (0.9 ** 2) + (0.3 ** 2)) / 4
    assert float(loss) == pytest.approx(expected, rel=1e-6)


def test_dropout_in_training_mode_compiles_and_differentiates():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
            self.drop = nn.Dropout(p=0.5)

        def construct(self, x):
            return self.drop(self.dense(x)).sum()

    ms.set_seed(3)
    net = Net()
    net.set_train(True)
    x = Tensor(np.ones((2, 4), np.float32))
    out = float(ms.jit(net)(x))
    assert out in {0.0, 8.0, 16.0, 24.0, 32.0, 40.0, 48.0}      # each kept unit is 4 / 0.5 = 8
    d_weight, d_bias = ms.grad(net, None, net.trainable_params())(x)
    kept = d_bias.asnumpy()                                     # per unit: (#rows kept) * 2
    assert set(np.unique(kept)) <= {0.0, 2.0, 4.0}
    np.testing.assert_allclose(d_weight.asnumpy(), np.repeat(kept[:, None], 4, axis=1))
    net.set_train(False)
    assert float(ms.jit(net)(x)) == float(net(x)) == 24.0      # identity when not training
