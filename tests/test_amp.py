"""npspore.amp: precision levels, build_train_network through Model, loss scalers and managers.

Scaler and manager sequences were observed on MindSpore 2.10 CPU.
"""
import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
from npspore import amp, nn
from npspore.train import Model

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(12, 2)
Y = (X.sum(1) > 0).astype(np.int32)


def _mlp():
    return nn.SequentialCell([nn.Dense(2, 3, weight_init="ones", bias_init="zeros"), nn.ReLU(),
                              nn.Dense(3, 2, weight_init="ones", bias_init="zeros")])


def _data():
    return ds.NumpySlicesDataset((X, Y), column_names=["x", "y"], shuffle=False).batch(4)


def test_to_float_computes_in_float16_with_float32_master_weights():
    net = _mlp()
    net.to_float(ms.float16)
    out = net(ms.Tensor(X))
    assert out.dtype == ms.float16 and net[0].weight.dtype == ms.float32
    # MindSpore 2.10 gives Float16 for a to_float(float16) Dense too; the values are float16 arithmetic
    hidden = np.maximum(X.astype(np.float16) @ np.ones((2, 3), np.float16), 0)
    np.testing.assert_array_equal(out.asnumpy(), hidden @ np.ones((3, 2), np.float16))


@pytest.mark.parametrize("level, inner", [("O1", ms.float32), ("O2", ms.float16), ("O3", ms.float16)])
def test_levels_cast_outputs_back_to_float32(level, inner):
    net = _mlp()
    wrapped = amp.auto_mixed_precision(net, level)
    assert wrapped(ms.Tensor(X)).dtype == ms.float32
    assert wrapped._amp_level == level
    # O1 casts each white-listed Dense back to float32; O2/O3 run the whole network in float16
    assert net(ms.Tensor(X)).dtype == inner
    assert all(p.dtype == ms.float32 for p in net.trainable_params())
    assert [p.name for p in wrapped.trainable_params()] == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_o0_and_bad_levels():
    net = _mlp()
    assert amp.auto_mixed_precision(net, "O0") is net
    with pytest.raises(ValueError, match="not supported"):
        amp.auto_mixed_precision(net, "O4")
    with pytest.raises(TypeError, match="Cell"):
        amp.auto_mixed_precision(lambda x: x, "O2")
    with pytest.raises(ValueError, match="Unsupported arg"):
        amp.build_train_network(net, nn.SGD(net.trainable_params()), level="O2", cast_model=ms.float16)


@pytest.mark.parametrize("level, cell", [("O0", "TrainOneStepCell"), ("O2", "TrainOneStepWithLossScaleCell"),
                                         ("O3", "TrainOneStepCell")])
def test_model_trains_at_each_level(level, cell):
    net = nn.Dense(2, 2, weight_init="zeros", bias_init="zeros")
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    manager = amp.DynamicLossScaleManager(2 ** 10, 2, 50) if level == "O2" else None
    kwargs = {"loss_scale_manager": manager} if manager else {}
    model = Model(net, loss, nn.SGD(net.trainable_params(), learning_rate=0.5), metrics={"accuracy"},
                  amp_level=level, **kwargs)
    assert type(model.train_network).__name__ == cell
    model.train(2, _data())
    assert net.weight.dtype == ms.float32
    assert model.eval(_data()) == {"accuracy": 1.0}
    expected = ms.float32 if level == "O0" else ms.float16
    assert model.predict(ms.Tensor(X)).dtype == expected


def test_dynamic_loss_scaler_sequence_and_scaling():
    scaler = amp.DynamicLossScaler(1024, 2, 3)
    seen = []
    for finite in [True, True, True, False, True, True, True]:
        assert scaler.adjust(ms.Tensor(finite)) is True
        seen.append((float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy())))
    assert seen == [(1024.0, 1), (1024.0, 2), (2048.0, 0), (1024.0, 0), (1024.0, 1), (1024.0, 2), (2048.0, 0)]
    grads = (ms.Tensor(np.array([1.5, 2], np.float16)), ms.Tensor(np.array([3.0], np.float32)))
    scaled = scaler.scale(grads)
    assert [g.dtype for g in scaled] == [ms.float16, ms.float32]
    np.testing.assert_array_equal(scaled[0].asnumpy(), np.array([3072, 4096], np.float16))
    np.testing.assert_array_equal(scaler.unscale(grads)[1].asnumpy(), np.array([1.46484375e-03], np.float32))
    static = amp.StaticLossScaler(8)
    assert float(static.scale(ms.Tensor(np.float32(0.5))).asnumpy()) == 4.0 and static.adjust(True) is False
    with pytest.raises(ValueError, match="scale_value"):
        amp.StaticLossScaler(0.5)


def test_all_finite_and_managers():
    assert bool(amp.all_finite((ms.Tensor(np.ones(2, np.float16)), ms.Tensor(np.zeros(1))))) is True
    assert bool(amp.all_finite([ms.Tensor(np.array([np.inf], np.float32))])) is False
    manager = amp.DynamicLossScaleManager(16, 2, 2)
    scales = []
    for overflow in [False, False, True, False, False, False]:
        manager.update_loss_scale(overflow)
        scales.append(manager.get_loss_scale())
    assert scales == [16, 32, 16.0, 16.0, 32.0, 32.0]
    fixed = amp.FixedLossScaleManager(128.0, drop_overflow_update=False)
    assert fixed.get_update_cell() is None and fixed.get_loss_scale() == 128.0
    assert type(amp.FixedLossScaleManager().get_update_cell()).__name__ == "FixedLossScaleUpdateCell"
    assert [c.__name__ for c in amp.get_black_list()] == [
        name for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm") if hasattr(nn, name)]


def test_compiled_training_kernel_shows_the_float16_casts():
    from npspore.jit import cell_kernel_source

    net = _mlp()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.1, 0.9), loss, level="O3")
    x, y = ms.Tensor(X[:4]), ms.Tensor(Y[:4])
    train(x, y)
    source = cell_kernel_source(train, x, y)
    assert "weight_cast = np.asarray(weight, dtype=np.float16)" in source  # the float32 master weight, cast for use
    assert "data_cast = np.asarray(data, dtype=np.float16)" in source  # the input
    assert "out = np.asarray(backbone, dtype=np.float32)" in source  # the output, back for the loss
    assert net[0].weight.dtype == ms.float32


def test_dynamic_loss_scaler_page_example():
    # mindspore.amp.DynamicLossScaler's example; MindSpore 2.10 prints True, False and 512.0
    scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=1)
    grads = (ms.Tensor(np.array([np.nan, 1.0]), ms.float16), ms.Tensor(np.array([0.2]), ms.float16))
    unscaled = scaler.unscale(grads)
    finite = amp.all_finite(unscaled)
    assert scaler.adjust(finite) is True and bool(finite) is False
    assert float(scaler.scale_value.asnumpy()) == 512.0
    np.testing.assert_array_equal(unscaled[1].asnumpy(), np.array([1.9526e-04], np.float16))


def test_init_status_is_mindspore_s_cpu_status_and_all_finite_takes_it():
    status = amp.init_status()   # MindSpore 1.10-2.2: float32 zeros (8,) on CPU/GPU
    assert status.dtype == ms.float32 and status.asnumpy().tolist() == [0.0] * 8

    @ms.jit
    def step(x):
        status = amp.init_status()
        x = ms.ops.depend(x, status)
        return x * 2

    doubled = step(ms.Tensor(X))
    np.testing.assert_array_equal(doubled.asnumpy(), X * 2)
    assert amp.all_finite((doubled, ms.Tensor(X)), status).asnumpy().item() is True
    overflow = ms.Tensor(np.array([np.inf, 1.0], np.float32))
    assert amp.all_finite([overflow], amp.init_status()).asnumpy().item() is False


def _scaled_training_step(compiled):
    """MindSpore's mixed-precision tutorial step: a scaled loss, unscaled gradients applied only when finite."""
    ms.set_seed(0)
    net, loss_fn = nn.Dense(4, 3), nn.MSELoss()
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=2)

    def forward_fn(data, label):
        return scaler.scale(loss_fn(net(data), label))

    grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        loss = scaler.unscale(loss)
        is_finite = amp.all_finite(grads)
        if is_finite:
            grads = scaler.unscale(grads)
            optimizer(grads)
        scaler.adjust(is_finite)
        return loss

    return net, scaler, ms.jit(train_step) if compiled else train_step


@pytest.mark.parametrize("compiled", [False, True])
def test_loss_scaled_training_step_skips_an_overflow_as_mindspore(compiled):
    net, scaler, train_step = _scaled_training_step(compiled)
    x = ms.Tensor(np.random.rand(5, 4).astype(np.float32))
    labels = np.random.rand(5, 3).astype(np.float32)
    overflowing = labels.copy()
    overflowing[0, 0] = np.inf
    seen = []
    for label in (labels, labels, labels, overflowing, labels):
        loss = train_step(x, ms.Tensor(label)).asnumpy()
        seen.append((float(loss), float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy()),
                     float(net.weight.asnumpy().sum())))
    # MindSpore 2.10 CPU, the same script under @ms.jit: loss, scale, counter, the weight's sum after each step
    mindspore = [(0.285372, 1024.0, 1, 1.648386), (0.23191905, 2048.0, 0, 1.6862569),
                 (0.19489284, 2048.0, 1, 1.7158022), (np.inf, 1024.0, 0, 1.7158022),
                 (0.16913104, 1024.0, 1, 1.7384683)]
    for ours, theirs in zip(seen, mindspore):
        np.testing.assert_allclose(ours, theirs, rtol=2e-7)


@pytest.mark.parametrize("compiled", [False, True])
def test_loss_scaler_training_step_compiles_with_a_tensor_if(compiled):
    # The mixed-precision tutorial's step: scale, unscale, all_finite, a tensor `if` around the
    # optimizer and adjust, under @jit (the scalers read their scale with asnumpy() before: refused).
    # MindSpore 2.10 CPU prints these losses, scales, counters and weights, eager and @jit alike.
    w = np.array([[0.5, -0.25, 1.0], [0.75, 0.5, -1.5]], np.float32)
    net = nn.Dense(3, 2, weight_init=ms.Tensor(w), bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), 0.1)
    scaler = amp.DynamicLossScaler(2 ** 4, 2, 2)
    grad_fn = ms.value_and_grad(lambda x: scaler.scale((net(x) ** 2).mean()), None, net.trainable_params())

    def step(x):
        loss, grads = grad_fn(x)
        loss = scaler.unscale(loss)
        finite = amp.all_finite(grads)
        if finite:
            opt(scaler.unscale(grads))
        scaler.adjust(finite)
        return loss

    step = ms.jit(step) if compiled else step
    x = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]], np.float32)
    seen = []
    with np.errstate(invalid="ignore", over="ignore"):
        for i in range(5):
            loss = step(ms.Tensor(x * np.float32(1e38) if i == 2 else x))
            seen.append((float(loss.asnumpy()), float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy())))
    np.testing.assert_allclose([s[0] for s in seen], [6.3671875, 2.4802244, np.inf, 0.99901694, 0.42070267],
                               rtol=1e-6)
    assert [s[1:] for s in seen] == [(16.0, 1), (32.0, 0), (16.0, 0), (16.0, 1), (32.0, 0)]
    np.testing.assert_allclose(net.weight.asnumpy(), [[0.43419555, 0.06889428, 0.31496578],
                                                      [0.5740467, -0.35365894, -0.48779294]], rtol=1e-6)
