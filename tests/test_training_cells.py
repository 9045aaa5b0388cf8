"""Training cells: ``WithLossCell``, ``WithEvalCell``, ``ForwardValueAndGrad``, ``TrainOneStepCell`` and
loss scaling, eager and compiled, against the losses observed on MindSpore 2.10 CPU; the compiled
training step is one kernel with the forward pass, the backward pass and the Parameter updates."""
import re

import numpy as np
import pytest
from test_cli import npspore
from training_programs import X, Y, TrainStep, TwoLayer

import npspore as ms
from npspore import Tensor, nn
from npspore.jit import cell_kernel_source

# Losses of four steps and fc2.weight after them, observed on MindSpore 2.10 CPU (PYNATIVE and GRAPH).
TRAINING = {
    "momentum": (lambda net: nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                                 nn.Momentum(net.trainable_params(), 0.1, 0.9)),
                 [0.5844510793685913, 0.507487416267395, 0.40189749002456665, 0.3162662386894226],
                 [[-0.11670377105474472, -0.23592859506607056, -0.0926462709903717, 0.08127661049365997],
                  [0.1775587499141693, 0.22725243866443634, 0.3082689940929413, 0.36156827211380005]]),
    "sgd_sens": (lambda net: nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                                 nn.SGD(net.trainable_params(), 0.1), sens=2.0),
                 [0.5844510793685913, 0.44288578629493713, 0.37007924914360046, 0.32821208238601685],
                 [[-0.19264063239097595, -0.24849875271320343, -0.11439439654350281, 0.039494797587394714],
                  [0.15680649876594543, 0.2247770130634308, 0.3142419457435608, 0.3769124746322632]]),
    "adam": (lambda net: nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                             nn.Adam(net.trainable_params(), 0.01)),
             [0.5844510793685913, 0.5560790300369263, 0.5298701524734497, 0.5052823424339294],
             [[-0.36022618412971497, -0.23655062913894653, -0.11056867241859436, 0.014773456379771233],
              [0.13974502682685852, 0.25173407793045044, 0.31045687198638916, 0.4353236258029938]]),
}


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def train(cell, steps=4, x=X):
    cell.set_train()
    return [cell(Tensor(x), Tensor(Y)) for _ in range(steps)]


@pytest.mark.parametrize("name", sorted(TRAINING))
@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_train_one_step_losses_match_mindspore(name, mode, request):
    if mode == "graph":
        request.getfixturevalue("graph_mode")
    make, losses, fc2_weight = TRAINING[name]
    net = TwoLayer()
    results = train(make(net))
    assert all(isinstance(loss, Tensor) and loss.shape == () for loss in results)
    np.testing.assert_allclose([float(loss) for loss in results], losses, rtol=1e-6)
    np.testing.assert_allclose(net.fc2.weight.asnumpy(), fc2_weight, rtol=1e-5, atol=1e-7)


def test_compiled_step_is_one_kernel_with_the_update_and_matches_eager():
    eager, compiled = TrainStep(), TrainStep()
    source = cell_kernel_source(compiled, Tensor(X), Tensor(Y))
    body = source[source.index("def TrainStep_construct("):]
    assert "= WithLossCell_construct_grad(" in body and "    Momentum_construct(" in body
    assert "WithLossCell_construct(" not in source  # the loss comes with the gradients: one forward pass
    for parameter in ("fc1_weight", "fc2_bias", "optimizer_moments_fc1_weight", "optimizer_global_step"):
        assert f"{parameter}," in body  # passed to the update
    # each Parameter updated in its own array, one fused sequence each: no temporary copied back
    update = source[source.index("def Momentum_construct("):source.index("def TrainStep_construct(")]
    for weight in ("fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"):
        assert re.search(rf"\n +moments_{weight} \*= momentum\b.*\n +moments_{weight} \+= gradients_\d\b.*\n"
                         rf" +{weight} -= learning_rate \* moments_{weight}\b", update), update
    assert "global_step += " in update and "np.copyto(" not in source
    train(eager, steps=3)
    with_jit = ms.jit(compiled)
    for _ in range(3):
        with_jit(Tensor(X), Tensor(Y))
    assert compiled.cache_info()["compiles"] == 1
    for (name, a), (_, b) in zip(eager.parameters_and_names(), compiled.parameters_and_names()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy(), err_msg=name)


def test_npspore_show_prints_the_training_step_kernel(tmp_path):
    result = npspore("show", "tests/training_programs.py:TrainStep", "--input", "f32[5,3]", "f32[5,2]",
                     cache_dir=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "def TrainStep_construct(" in result.stdout or "def TrainOneStepCell_construct(" in result.stdout
    assert "fc2_weight -= " in result.stdout and "Momentum_construct(" in result.stdout


def test_return_grad_gives_gradients_by_parameter_name():
    net = TwoLayer()
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                               return_grad=True)
    loss, grads = cell(Tensor(X), Tensor(Y))
    assert list(grads) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    # Observed on MindSpore 2.10 CPU (ForwardValueAndGrad of the same network).
    np.testing.assert_allclose(grads["fc2.bias"].asnumpy(), [-6.87928557e-01, -2.18642846e-01], rtol=1e-6)


def test_with_eval_cell_and_forward_value_and_grad():
    net = TwoLayer()
    loss, outputs, label = nn.WithEvalCell(net, nn.MSELoss())(Tensor(X), Tensor(Y))
    # Observed on MindSpore 2.10 CPU.
    np.testing.assert_allclose(float(loss), 0.5844510793685913, rtol=1e-6)
    np.testing.assert_allclose(outputs.asnumpy()[0], [-4.93928581e-01, 1.27499998e-01], rtol=1e-6)
    np.testing.assert_array_equal(label.asnumpy(), Y)
    forward = nn.ForwardValueAndGrad(nn.WithLossCell(net, nn.MSELoss()), weights=net.trainable_params(),
                                     get_by_list=True)
    value, grads = forward(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(float(value), 0.5844510793685913, rtol=1e-6)
    np.testing.assert_allclose(grads[1].asnumpy(), [1.57228574e-01, 5.89321479e-02, 3.20357271e-02,
                                                    -1.69821307e-02], rtol=1e-6)


def test_dynamic_loss_scale_update_sequence_matches_mindspore():
    manager = nn.DynamicLossScaleUpdateCell(2.0 ** 12, 2, 2)
    scale = ms.Parameter(Tensor(2.0 ** 12, ms.float32), name="scale_sense")
    seen = []
    for flag in [False, False, False, True, False, True, True, False, False]:
        overflow = manager(scale, Tensor(flag))
        seen.append((bool(overflow), float(scale), int(manager.cur_iter), int(manager.last_overflow_iter)))
    # Observed on MindSpore 2.10 CPU.
    assert seen == [(False, 4096.0, 2, 0), (False, 8192.0, 3, 2), (False, 8192.0, 4, 2), (True, 4096.0, 5, 4),
                    (False, 4096.0, 6, 4), (True, 2048.0, 7, 6), (True, 1024.0, 8, 7), (False, 1024.0, 9, 7),
                    (False, 2048.0, 10, 9)]
    assert [name for name, _ in manager.parameters_and_names()] == ["cur_iter", "last_overflow_iter"]


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_loss_scale_cell_trains_as_without_scaling_and_skips_overflowing_steps(mode, request):
    # MindSpore 2.10's CPU build cannot run TrainOneStepWithLossScaleCell; with power-of-two scales the
    # losses are those of TrainOneStepCell observed on MindSpore, and an overflow skips the update.
    if mode == "graph":
        request.getfixturevalue("graph_mode")
    net = TwoLayer()
    manager = nn.DynamicLossScaleUpdateCell(2.0 ** 12, 2, 2)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.Momentum(net.trainable_params(), 0.1, 0.9), scale_sense=manager)
    results = train(cell)
    np.testing.assert_allclose([float(loss) for loss, _, _ in results], TRAINING["momentum"][1], rtol=1e-6)
    assert [bool(overflow) for _, overflow, _ in results] == [False] * 4
    assert float(results[-1][2]) == 16384.0
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    bad = X.copy()
    bad[0, 0] = np.inf
    with np.errstate(invalid="ignore"):
        loss, overflow, scale = train(cell, steps=1, x=bad)[0]
    assert bool(overflow) and float(scale) == 8192.0
    for old, param in zip(before, net.trainable_params()):
        np.testing.assert_array_equal(old, param.asnumpy())


def test_fixed_and_tensor_loss_scales():
    net = TwoLayer()
    fixed = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                                             scale_sense=nn.FixedLossScaleUpdateCell(1024.0))
    loss, overflow, scale = fixed(Tensor(X), Tensor(Y))
    assert float(scale) == 1024.0 and not bool(overflow)
    tensor_scaled = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(TwoLayer(), nn.MSELoss()),
                                                     nn.SGD(net.trainable_params(), 0.1),
                                                     scale_sense=Tensor(np.full((1,), 8.0, np.float32)))
    tensor_scaled.set_sense_scale(Tensor(np.full((1,), 4.0, np.float32)))
    assert tensor_scaled.scale_sense.asnumpy().tolist() == [4.0]
    with pytest.raises(ValueError, match="shape of 'scale_sense'"):
        nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params()), Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="'scale_sense' must be Cell or Tensor"):
        nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params()), 2.0)
    with pytest.raises(ValueError, match="'sens' can not be 0"):
        nn.TrainOneStepCell(net, nn.SGD(net.trainable_params()), sens=0)


def test_jitted_train_step_function_with_depend_matches_mindspore():
    # MindSpore's quick-start pattern (value_and_grad over the optimizer's parameters, an optimizer call
    # tied to the loss with ops.depend, the step under @ms.jit), run on MindSpore 2.10 CPU with only
    # the import line different.
    from npspore import ops

    x = np.arange(24, dtype=np.float32).reshape(6, 4) / 11 - 1.0
    y = np.array([0, 2, 1, 1, 0, 2], np.int32)
    w1 = np.sin(np.arange(32, dtype=np.float32)).reshape(8, 4) * 0.5
    w2 = np.cos(np.arange(24, dtype=np.float32)).reshape(3, 8) * 0.5
    model = nn.SequentialCell(nn.Dense(4, 8, weight_init=Tensor(w1), bias_init="zeros"), nn.ReLU(),
                              nn.Dense(8, 3, weight_init=Tensor(w2), bias_init="zeros"))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Adam(model.trainable_params(), 1e-2)

    def forward_fn(data, label):
        logits = model(data)
        return loss_fn(logits, label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    @ms.jit
    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        loss = ops.depend(loss, optimizer(grads))
        return loss

    losses = [float(train_step(Tensor(x), Tensor(y))) for _ in range(4)]
    np.testing.assert_allclose(losses, [1.1119688749313354, 1.090101718902588, 1.0710927248001099,
                                        1.05558443069458], rtol=1e-6)
    np.testing.assert_allclose(model[2].bias.asnumpy(), [-0.03889882192015648, 0.04001365602016449,
                                                         0.03595197573304176], rtol=1e-6)
    assert train_step.cache_info()["compiles"] == 1


def test_with_grad_cell_gives_the_weight_gradients():
    net = TwoLayer()
    grads = nn.WithGradCell(net, nn.MSELoss())(Tensor(X), Tensor(Y))
    scaled = nn.WithGradCell(net, nn.MSELoss(), sens=Tensor(2.0, ms.float32))(Tensor(X), Tensor(Y))
    assert len(grads) == 4
    # Observed on MindSpore 2.10 CPU (ForwardValueAndGrad of the same network).
    np.testing.assert_allclose(grads[3].asnumpy(), [-6.87928557e-01, -2.18642846e-01], rtol=1e-6)
    np.testing.assert_allclose(scaled[3].asnumpy(), 2 * grads[3].asnumpy(), rtol=1e-6)


def test_lenet_train_one_step_cell_in_graph_mode_matches_mindspore(graph_mode):
    from quickstart_lenet import Network

    model = Network()
    rng = np.random.default_rng(7)
    for param in model.trainable_params():
        param.set_data(Tensor((rng.standard_normal(param.shape) * 0.2).astype(np.float32)))
    cell = nn.TrainOneStepCell(nn.WithLossCell(model, nn.CrossEntropyLoss()),
                               nn.Momentum(model.trainable_params(), 0.01, 0.9))
    cell.set_train()
    images = rng.random((3, 4, 1, 28, 28)).astype(np.float32)
    labels = rng.integers(0, 10, (3, 4)).astype(np.int32)
    losses = [float(cell(Tensor(data), Tensor(label))) for data, label in zip(images, labels)]
    # Observed on MindSpore 2.10 CPU in GRAPH_MODE with the same initial weights and data.
    np.testing.assert_allclose(losses, [3.358234405517578, 3.037529945373535, 3.348832845687866], rtol=1e-5)
    assert cell.cache_info()["compiles"] == 1


class ConvBatchNorm(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="same", has_bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 6 * 6, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.relu(self.bn(self.conv(x)))))


def test_batch_norm_statistics_and_adam_in_one_compiled_step(graph_mode):
    net = ConvBatchNorm()
    rng = np.random.default_rng(3)
    for param in net.trainable_params():
        param.set_data(Tensor((rng.standard_normal(param.shape) * 0.3).astype(np.float32)))
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.Adam(net.trainable_params(), 0.01))
    cell.set_train()
    x = rng.random((3, 5, 1, 6, 6)).astype(np.float32)
    y = rng.integers(0, 3, (3, 5)).astype(np.int32)
    losses = [float(cell(Tensor(a), Tensor(b))) for a, b in zip(x, y)]
    # Observed on MindSpore 2.10 CPU (GRAPH_MODE and PYNATIVE alike).
    np.testing.assert_allclose(losses, [2.0172481536865234, 2.1286356449127197, 1.4805200099945068], rtol=1e-6)
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), [-0.14850516617298126, 0.017765361815690994,
                                                              0.14107394218444824, 0.04133813455700874], rtol=1e-6)
    np.testing.assert_allclose(net.bn.moving_variance.asnumpy(), [0.7641950845718384, 0.7649116516113281,
                                                                  0.7487856149673462, 0.7417321801185608], rtol=1e-6)
    assert [name for name, _ in cell.parameters_and_names()][5:8] == [
        "network._backbone.bn.moving_mean", "network._backbone.bn.moving_variance", "optimizer.global_step"]
    assert cell.cache_info()["compiles"] == 1


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_grad_accumulation_cell_sums_the_micro_batch_losses(mode, request):
    if mode == "graph":
        request.getfixturevalue("graph_mode")
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    cell = nn.GradAccumulationCell(nn.WithLossCell(net, nn.MSELoss()), 2)
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    # Observed on MindSpore 2.10 CPU.
    assert float(cell(Tensor(x), Tensor(np.ones((4, 2), np.float32)))) == 683.0
    assert [name for name, _ in cell.parameters_and_names()] == ["network._backbone.weight", "network._backbone.bias"]
    with pytest.raises(ValueError, match="must be divided by micro size"):
        nn.GradAccumulationCell(nn.WithLossCell(net, nn.MSELoss()), 3)(Tensor(x), Tensor(np.ones((4, 2), np.float32)))
    with pytest.raises(ValueError, match="micro_size"):
        nn.GradAccumulationCell(net, 0)
