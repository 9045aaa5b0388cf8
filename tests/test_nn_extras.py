"""The parts of the new layers that MindSpore 2.10 CPU cannot show us or that are not numbers: instance
normalization (MindSpore has no CPU kernel for it) against NumPy, Dropout2d's channel masks, parameter
names and reprs as MindSpore prints them, and the errors bad arguments get."""
import re

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops


def r(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_instance_norm2d_normalizes_each_channel_of_each_sample_eagerly_and_compiled():
    x = r((2, 3, 4, 5), 0)
    layer = nn.InstanceNorm2d(3, gamma_init=Tensor(r((3,), 1)), beta_init=Tensor(r((3,), 2)))
    mean = x.mean(axis=(2, 3), keepdims=True)
    var = x.var(axis=(2, 3), keepdims=True)
    expected = (x - mean) / np.sqrt(var + 1e-5) * r((3,), 1).reshape(1, 3, 1, 1) + r((3,), 2).reshape(1, 3, 1, 1)
    np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(ms.jit(layer)(Tensor(x)).asnumpy(), layer(Tensor(x)).asnumpy())
    assert [(p.name, p.requires_grad) for p in layer.get_parameters()] == [
        ("mean", False), ("variance", False), ("gamma", True), ("beta", True)]


def test_dropout2d_drops_whole_channels_in_training_only():
    ms.set_seed(3)
    layer = nn.Dropout2d(p=0.5)
    x = Tensor(np.ones((4, 8, 3, 3), np.float32))
    assert layer(x) is x
    layer.set_train()
    out = layer(x).asnumpy()
    per_channel = out.reshape(4, 8, 9)
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert np.all(per_channel.min(axis=2) == per_channel.max(axis=2))  # a channel is kept or dropped whole
    assert 0 < (per_channel[:, :, 0] == 0).sum() < 32
    with pytest.raises(ValueError, match=r"'p' must be a number in range \[0, 1\]"):
        nn.Dropout2d(1.5)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.ln = nn.LayerNorm((3,))
        self.prelu = nn.PReLU()


def test_parameter_names_are_mindspores():
    # observed on MindSpore 2.10 CPU
    assert [(p.name, p.shape, p.requires_grad) for p in Net().get_parameters()] == [
        ("conv1.weight", (2, 1, 3, 3), True), ("conv1.bias", (2,), True), ("bn.moving_mean", (2,), False),
        ("bn.moving_variance", (2,), False), ("bn.gamma", (2,), True), ("bn.beta", (2,), True),
        ("ln.gamma", (3,), True), ("ln.beta", (3,), True), ("prelu.w", (1,), True)]
    assert nn.Conv1d(4, 6, 3).weight.shape == (6, 4, 1, 3)
    assert nn.Conv2dTranspose(4, 6, 3).weight.shape == (4, 6, 3, 3)


def test_reprs_are_mindspores():
    # observed on MindSpore 2.10 CPU (object addresses aside)
    text = re.sub(r" at 0x[0-9a-f]+", "", repr(nn.Conv2d(4, 6, 3)))
    assert text == ("Conv2d(input_channels=4, output_channels=6, kernel_size=(3, 3), stride=(1, 1), pad_mode=same, "
                    "padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=<npspore.common.initializer."
                    "HeUniform object>, bias_init=None, format=NCHW)")
    assert repr(nn.MaxPool2d()) == "MaxPool2d(kernel_size=1, stride=1, pad_mode=VALID)"
    assert repr(nn.AvgPool2d()) == "AvgPool2d(kernel_size=1, stride=1, pad_mode=VALID)"
    assert repr(nn.MaxPool1d()) == "MaxPool1d(kernel_size=(1, 1), stride=(1, 1), pad_mode=VALID)"
    assert repr(nn.GroupNorm(2, 4)) == "GroupNorm(num_groups=2, num_channels=4)"
    assert repr(nn.BatchNorm2d(4)).startswith("BatchNorm2d(num_features=4, eps=1e-05, momentum=0.9, gamma=Parameter "
                                              "(name=gamma, shape=(4,), dtype=Float32, requires_grad=True)")
    assert repr(ops.Conv2D(4, 3)) == ("Prim[Conv2D]<out_channel=4, kernel_size=3, mode=1, pad_mode=valid, pad=(0, 0, "
                                      "0, 0), stride=(1, 1, 1, 1), dilation=(1, 1, 1, 1), group=1, data_format=NCHW, "
                                      "groups=1>")
    assert repr(ops.MaxPool(2, 2)) == "Prim[MaxPool]<kernel_size=(1, 1, 2, 2), strides=(1, 1, 2, 2), pad_mode=VALID, " \
                                      "data_format=NCHW>"
    assert repr(ops.BatchNorm()) == "Prim[BatchNorm]<is_training=False, epsilon=1e-05, momentum=0.1, data_format=NCHW>"
    assert repr(ops.Depend()) == "Prim[Depend]<side_effect_propagate=1>"


@pytest.mark.parametrize("make, error, message", [
    (lambda: nn.Conv2d(3, 4, 3, pad_mode="full"), ValueError, "'pad_mode' must be one of"),
    (lambda: nn.Conv2d(3, 4, 3, padding=1), ValueError, "'padding' must be zero when 'pad_mode' is not 'pad'"),
    (lambda: nn.Conv2d(3, 4, 3, group=2), ValueError, "must be divisible by 'group'"),
    (lambda: nn.Conv2d(3, 4, 0), ValueError, "'kernel_size' must be a positive int"),
    (lambda: nn.MaxPool2d(2, pad_mode="full"), ValueError, "'pad_mode' must be one of"),
    (lambda: nn.AvgPool2d(2, data_format="NHWC"), ValueError, "only data_format 'NCHW'"),
    (lambda: nn.BatchNorm2d(3, momentum=1.5), ValueError, r"'momentum' must be a number in range \[0, 1\]"),
    (lambda: nn.GroupNorm(3, 4), ValueError, "'num_channels' must be divided by 'num_groups'"),
    (lambda: nn.LayerNorm(4), TypeError, "'normalized_shape' must be tuple"),
    (lambda: nn.CrossEntropyLoss(reduction="avg"), ValueError, "'reduction' must be in"),
    (lambda: nn.ELU(0.5), ValueError, "'alpha' must be 1.0"),
])
def test_bad_arguments_are_named(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="must have one of"):
        nn.BatchNorm2d(3)(Tensor(r((2, 3), 0)))
    with pytest.raises(ValueError, match="input channels 2 must equal the weight's in-channels 3"):
        nn.Conv2d(3, 4, 3)(Tensor(r((1, 2, 5, 5), 0)))
    with pytest.raises(ValueError, match=r"'label_smoothing' must be in \[0, 1\]"):
        ops.cross_entropy(Tensor(r((2, 3), 0)), Tensor(np.array([0, 1]), ms.int32), label_smoothing=2.0)
    with pytest.raises(ValueError, match="'k' must be an int in"):
        ops.topk(Tensor(r((2, 3), 0)), 4)


class SquaredPooling(nn.Cell):
    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def construct(self, x):
        return (self.layer(x) ** 2).sum()


def test_kernels_of_lambdas_over_different_layers_are_not_shared_through_the_disk_cache():
    # one lambda (one source line) per layer: the second must not load the first's cached kernel
    x = Tensor(r((2, 2, 5, 6), 10))
    for layer in (nn.AvgPool2d(2, 2), nn.AvgPool2d(3, 2, pad_mode="same")):
        np.testing.assert_array_equal(ms.grad(lambda x: (layer(x) ** 2).sum())(x).asnumpy(),
                                      ms.grad(SquaredPooling(layer))(x).asnumpy())


class SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 3 * 3, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.bn(self.conv1(x))))))


def test_a_quick_start_style_compiled_step_learns():
    ms.set_seed(0)
    model = SmallCNN()
    model.set_train()
    loss_fn = nn.CrossEntropyLoss()
    params = model.trainable_params()

    def forward_fn(data, label):
        logits = model(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, params, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        return ops.depend(loss, grads), grads

    data = Tensor(r((6, 1, 8, 8), 0))
    label = Tensor(np.array([0, 1, 2, 0, 1, 2]), ms.int32)
    losses = []
    for _ in range(20):
        loss, grads = train_step(data, label)
        losses.append(float(loss))
        for p, g in zip(params, grads):
            p.set_data(p - 0.2 * g)
    assert [g.shape for g in grads] == [p.shape for p in params]
    assert losses[-1] < 0.5 * losses[0]
    assert float(ops.sum(ops.abs(model.bn.moving_mean))) > 0  # updated by every compiled step


@pytest.mark.parametrize("run", ["eager", "jit", "grad"])
@pytest.mark.parametrize("loss_fn", [nn.CrossEntropyLoss(), nn.NLLLoss()], ids=["CrossEntropyLoss", "NLLLoss"])
def test_a_class_index_out_of_range_is_an_error_not_a_dropped_sample(run, loss_fn):
    call = {"eager": loss_fn, "jit": ms.jit(loss_fn), "grad": ms.grad(loss_fn)}[run]
    logits = Tensor(r((3, 4), 0))
    call(logits, Tensor(np.array([0, 3, -100], np.int32)))        # ignore_index is no class and no error
    for labels, wrong in (([0, 4, 1], 4), ([0, -1, 1], -1), ([7, 9, 9], 7)):
        message = f"For 'nll_loss', the 'target' must hold class indices in [0, 4) or the ignore_index -100, but got {wrong}."
        with pytest.raises(ValueError, match=re.escape(message)):
            call(logits, Tensor(np.array(labels, np.int32)))


@pytest.mark.parametrize("run", ["eager", "jit"])
def test_cross_entropy_names_float_labels_of_the_wrong_shape(run):
    loss_fn = nn.CrossEntropyLoss()
    call = ms.jit(loss_fn) if run == "jit" else loss_fn
    with pytest.raises(ValueError, match=re.escape(
            "For 'cross_entropy', the 'target' must be class indices (an int tensor of shape (3,)) or class "
            "probabilities of the input's shape (3, 4), but got Float32 of shape (3,).")):
        call(Tensor(r((3, 4), 0)), Tensor(np.array([0.0, 1.0, 2.0], np.float32)))


class _CrossEntropyOf(nn.Cell):
    def __init__(self, loss):
        super().__init__()
        self.loss = loss

    def construct(self, logits, target):
        return self.loss(logits, target)


def test_cross_entropy_with_class_indices_reads_each_target_without_a_one_hot():
    rng = np.random.default_rng(12)
    logits = rng.standard_normal((4, 5, 3)).astype(np.float32)
    target = np.array([[0, 4, 2], [1, -100, 3], [4, 4, 0], [2, 1, -100]], np.int32)
    weight = np.array([0.5, 1.0, 2.0, 1.5, 0.25], np.float32)
    loss = _CrossEntropyOf(nn.CrossEntropyLoss(weight=Tensor(weight), ignore_index=-100))
    grad = ms.grad(loss)
    source = grad.kernel_source(Tensor(logits), Tensor(target))
    assert "np.arange(" not in source and source.count("rt.log_softmax_probs(") == 1, source
    assert "np.log(" not in source and "np.exp(" not in source, source      # one log-softmax, exponentiated once
    # by hand: d log_probs is -w / W at each counted target; log_softmax's gradient over dim 1
    shifted = logits - logits.max(axis=1, keepdims=True)
    probabilities = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    counted = target != -100
    safe = np.where(counted, target, 0)
    w = weight[safe] * counted
    d_log_probs = np.zeros_like(logits)
    np.put_along_axis(d_log_probs, safe[:, None, :], (-w / w.sum())[:, None, :], axis=1)
    expected = d_log_probs - probabilities * d_log_probs.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(grad(Tensor(logits), Tensor(target)).asnumpy(), expected, rtol=1e-5, atol=1e-7)
    log_probs = np.log(probabilities)
    picked = np.take_along_axis(log_probs, safe[:, None, :], axis=1)[:, 0, :]
    np.testing.assert_allclose(float(loss(Tensor(logits), Tensor(target))), -(picked * w).sum() / w.sum(), rtol=1e-5)
