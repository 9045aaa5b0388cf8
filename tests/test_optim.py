"""Optimizers (``nn.optim``): three updates of a Dense(3, 2) from fixed gradients, eager and compiled,
against the values observed on MindSpore 2.10 CPU; state names, ``get_lr``, return values, errors."""
import numpy as np
import pytest
from optim_cases import B0, GRADS, W0, optimizers

import npspore as ms
from npspore import Parameter, Tensor, nn

OPTIMIZERS = optimizers(nn, Tensor)

# (weight, bias) after the three updates, observed on MindSpore 2.10 CPU.
OBSERVED = {
    "sgd": ([[-0.0300000086, -0.200000003, 0.305000007], [0.210000008, 0.400000006, -0.75]],
           [-0.0500000007, -0.0100000007]),
    "sgd_mom": ([[-0.0835849196, -0.0830139667, 0.249648869], [-0.182993844, 0.400568366, -0.929970562]],
               [-0.0820667744, 0.0651335567]),
    "sgd_nesterov": ([[-0.199650019, -0.110900015, 0.262924999], [-0.317400008, 0.28975004, -1.04295003]],
                    [-0.133970007, 0.058940012]),
    "momentum": ([[-0.0885000005, -0.101000011, 0.253250003], [-0.186000019, 0.377499998, -0.925500035]],
                [-0.0833000094, 0.0566000082]),
    "momentum_loss_scale": ([[0.00526946038, -0.149528906, 0.274995923], [0.105167843, 0.43591243, -0.759146988]],
                           [-0.0366590694, 0.0183181409]),
    "momentum_lr_list": ([[0.03015, -0.09610001, 0.259825021], [0.0653999969, 0.502749979, -0.785549998]],
                        [-0.0291300006, 0.0472600013]),
    "momentum_lr_tensor": ([[-0.0767500028, 0.00449999515, 0.222874999], [-0.313000023, 0.476250023, -1.01025009]],
                          [-0.0851500034, 0.115300007]),
    "momentum_lr_schedule": ([[0.0116249993, -0.0977500081, 0.261437535], [0.043499995, 0.488124996, -0.805124998]],
                            [-0.0375750028, 0.0476500019]),
    "momentum_groups": ([[0.0055096224, -0.150014237, 0.275810122], [0.106083445, 0.437330604, -0.760947764]],
                       [-0.0833000094, 0.0566000082]),
    "adam": ([[0.0817470029, -0.189961329, 0.282438934], [0.377204448, 0.50103569, -0.616155565]],
            [-0.00728116091, -0.00832647365]),
    "adam_nesterov_wd": ([[0.0713779256, -0.185974926, 0.2749286], [0.368894964, 0.501450062, -0.622349441]],
                        [-0.0165818501, -0.00445499364]),
    "adam_amsgrad": ([[0.0821212679, -0.191087365, 0.283378184], [0.378024578, 0.500337303, -0.615559399]],
                    [-0.0068717245, -0.00946858712]),
    "adam_weight_decay": ([[0.0286387522, -0.168060064, 0.236453533], [0.309932679, 0.488710701, -0.65888238]],
                         [-0.0566096716, 0.018883476]),
    "rmsprop": ([[0.0863345489, -0.200290263, 0.300883144], [0.383567542, 0.489871413, -0.614255965]],
               [0.00334219262, -0.0192525722]),
    "rmsprop_centered": ([[0.0839557573, -0.196776897, 0.298357934], [0.367056042, 0.487641156, -0.62086904]],
                        [0.00207065186, -0.0167397484]),
    "adagrad": ([[-0.0249236077, -0.180292219, 0.283274263], [0.30427888, 0.472943485, -0.692389965]],
               [-0.0892906338, 0.00506630074]),
    "momentum_group_schedule": ([[-0.031000003218650818, -0.20600001513957977, 0.2944999933242798],
                                 [0.1339999884366989, 0.36500000953674316, -0.753000020980835]],
                                [-0.03669463098049164, 0.01838931255042553]),
    "adam_weight_decay_schedule": ([[0.08154860138893127, -0.189658984541893, 0.28179407119750977],
                                    [0.3770904839038849, 0.5003185272216797, -0.6156082153320312]],
                                   [-0.007300059776753187, -0.00828595831990242]),
    "adam_weight_decay_groups": ([[-0.042579326778650284, -0.13625255227088928, 0.17311149835586548],
                                  [0.22006675601005554, 0.47733452916145325, -0.7176256775856018]],
                                 [-0.05664904788136482, 0.018892889842391014]),
}


def dense():
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(W0))
    net.bias.set_data(Tensor(B0))
    return net


def run_steps(optimizer, compiled, steps=3):
    call = ms.jit(optimizer) if compiled else optimizer
    results = [call(tuple(Tensor(g) for g in grads)) for grads in GRADS[:steps]]
    return results


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_three_updates_match_mindspore(name, compiled):
    net = dense()
    optimizer = OPTIMIZERS[name](net)
    results = run_steps(optimizer, compiled)
    weight, bias = OBSERVED[name]
    np.testing.assert_allclose(net.weight.asnumpy(), weight, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(net.bias.asnumpy(), bias, rtol=1e-6, atol=1e-8)
    assert results[-1] == (True, True)
    assert optimizer.global_step.asnumpy().tolist() == [3]


def state_names(optimizer):
    return [name for name, _ in optimizer.parameters_and_names()]


def test_state_parameter_names_follow_mindspore():
    # Observed on MindSpore 2.10 CPU (parameters_and_names of each optimizer over a Dense(3, 2)).
    net = dense()
    assert state_names(OPTIMIZERS["sgd"](net)) == [
        "global_step", "learning_rate", "weight", "bias", "momentum", "accum.weight", "accum.bias", "stat.weight",
        "stat.bias"]
    assert state_names(OPTIMIZERS["momentum"](net)) == [
        "global_step", "learning_rate", "weight", "bias", "momentum", "moments.weight", "moments.bias"]
    assert state_names(OPTIMIZERS["adam_amsgrad"](net)) == [
        "global_step", "learning_rate", "weight", "bias", "beta1_power", "beta2_power", "moment1.weight",
        "moment1.bias", "moment2.weight", "moment2.bias", "vhat.weight", "vhat.bias"]
    assert state_names(OPTIMIZERS["adam_weight_decay"](net)) == [
        "global_step", "learning_rate", "weight", "bias", "adam_m.weight", "adam_m.bias", "adam_v.weight",
        "adam_v.bias"]
    assert state_names(OPTIMIZERS["rmsprop_centered"](net)) == [
        "global_step", "learning_rate", "weight", "bias", "mean_grad.weight", "mean_grad.bias", "mean_square.weight",
        "mean_square.bias", "moment.weight", "moment.bias"]
    assert state_names(OPTIMIZERS["momentum_lr_list"](net)) == [
        "global_step", "weight", "bias", "momentum", "moments.weight", "moments.bias", "learning_rate.learning_rate"]
    assert state_names(OPTIMIZERS["momentum_group_schedule"](net)) == [
        "global_step", "weight", "bias", "momentum", "moments.weight", "moments.bias", "learning_rate.1.learning_rate"]
    assert state_names(OPTIMIZERS["momentum_groups"](net)) == [
        "global_step", "learning_rate_group_0", "learning_rate", "weight", "bias", "momentum", "moments.weight",
        "moments.bias"]


def test_nested_parameter_names_prefix_the_state():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)

    optimizer = nn.Adam(Net().trainable_params())
    assert [p.name for p in optimizer.moment1] == ["moment1.fc.weight", "moment1.fc.bias"]


def test_adam_state_after_three_updates():
    net = dense()
    optimizer = OPTIMIZERS["adam"](net)
    run_steps(optimizer, compiled=False)
    # Observed on MindSpore 2.10 CPU.
    np.testing.assert_allclose(optimizer.beta1_power.asnumpy(), 0.7289999127388, rtol=1e-7)
    np.testing.assert_allclose(optimizer.beta2_power.asnumpy(), 0.9970030784606934, rtol=1e-7)
    np.testing.assert_allclose(optimizer.moment1[1].asnumpy(), [0.05630001425743103, -0.0025999988429248333],
                               rtol=1e-6)
    np.testing.assert_allclose(optimizer.moment2[1].asnumpy(), [0.0003797752142418176, 0.0005291135748848319],
                               rtol=1e-6)


def test_get_lr_per_kind_of_learning_rate():
    net = dense()
    fixed = OPTIMIZERS["momentum"](net)
    assert repr(fixed.get_lr()) == "Parameter (name=learning_rate, shape=(), dtype=Float32, requires_grad=True)"
    listed = OPTIMIZERS["momentum_lr_list"](net)
    seen = []
    for grads in GRADS:
        seen.append(repr(listed.get_lr()))
        listed(tuple(Tensor(g) for g in grads))
    # Observed on MindSpore 2.10 CPU.
    assert seen == ["Tensor(shape=[], dtype=Float32, value= 0.1)", "Tensor(shape=[], dtype=Float32, value= 0.05)",
                    "Tensor(shape=[], dtype=Float32, value= 0.01)"]
    grouped = OPTIMIZERS["momentum_groups"](net)
    assert [p.name for p in grouped.get_lr()] == ["learning_rate_group_0", "learning_rate"]
    assert grouped.get_lr_parameter(net.weight).name == "learning_rate_group_0"
    assert [p.name for p in grouped.get_lr_parameter([net.bias])] == ["learning_rate"]


def momentum_reference(use_nesterov):
    weight, velocity = W0.astype(np.float64), np.zeros((2, 3))
    for grad, _ in GRADS:
        grad = grad + 0.01 * weight
        velocity = 0.9 * velocity + grad
        weight = weight - (grad * 0.1 + velocity * 0.9 * 0.1 if use_nesterov else 0.1 * velocity)
    return weight


def test_momentum_nesterov_follows_the_documented_formula():
    # MindSpore documents var -= grad * lr + accum * momentum * lr for use_nesterov; its 2.10 CPU kernel
    # ignores use_nesterov (observed), which npspore does not reproduce.
    net = dense()
    run_steps(nn.Momentum(net.trainable_params(), 0.1, 0.9, weight_decay=0.01, use_nesterov=True), compiled=True)
    np.testing.assert_allclose(net.weight.asnumpy(), momentum_reference(True), rtol=1e-5)
    assert not np.allclose(momentum_reference(True), momentum_reference(False))


def test_adagrad_without_update_slots_keeps_the_accumulator():
    # Documented: update_slots=False leaves accum unchanged; MindSpore 2.10's CPU kernel updates it anyway.
    net = dense()
    optimizer = nn.Adagrad(net.trainable_params(), accum=0.25, learning_rate=0.1, update_slots=False)
    run_steps(optimizer, compiled=False)
    expected = W0 - 0.1 * sum(g for g, _ in GRADS) / 0.5
    np.testing.assert_allclose(net.weight.asnumpy(), expected, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(optimizer.accum[0].asnumpy(), np.full((2, 3), 0.25, np.float32))


def test_weight_decay_skips_beta_and_gamma_parameters():
    beta = ms.Parameter(Tensor(np.ones(2, np.float32)), name="ln.beta")
    gamma = ms.Parameter(Tensor(np.ones(2, np.float32)), name="ln.gamma")
    weight = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")
    optimizer = nn.SGD([beta, gamma, weight], learning_rate=1.0, weight_decay=0.5)
    optimizer(tuple(Tensor(np.zeros(2, np.float32)) for _ in range(3)))
    assert beta.asnumpy().tolist() == gamma.asnumpy().tolist() == [1.0, 1.0]
    assert weight.asnumpy().tolist() == [0.5, 0.5]


def test_group_order_params_reorders_the_parameters():
    net = dense()
    optimizer = nn.SGD([{"params": [net.bias], "lr": 0.5}, {"params": [net.weight]},
                        {"order_params": net.trainable_params()}], learning_rate=0.1)
    assert [p.name for p in optimizer.parameters] == ["weight", "bias"]
    assert [p.name for p in optimizer.get_lr()] == ["learning_rate", "learning_rate_group_0"]


def test_grad_centralization_subtracts_the_mean_over_inner_axes():
    weight = ms.Parameter(Tensor(np.zeros((2, 16), np.float32)), name="conv.weight")
    optimizer = nn.SGD([{"params": [weight], "grad_centralization": True}], learning_rate=1.0)
    grad = np.arange(32, dtype=np.float32).reshape(2, 16)
    optimizer((Tensor(grad),))
    np.testing.assert_allclose(weight.asnumpy(), -(grad - grad.mean(axis=1, keepdims=True)))


@pytest.mark.parametrize("make, error, message", [
    (lambda p: nn.SGD(p, learning_rate="0.1"), TypeError, "'learning_rate' must be int, float, Tensor"),
    (lambda p: nn.SGD(p, learning_rate=-0.1), ValueError, "learning rate"),  # MindSpore 2.10 words it so
    (lambda p: nn.SGD(p, learning_rate=Tensor(np.ones((2, 2), np.float32))), ValueError, "dimension"),
    (lambda p: nn.SGD(p, weight_decay=-1.0), ValueError, "weight_decay"),
    (lambda p: nn.SGD(p, loss_scale=0.0), ValueError, "loss_scale"),
    (lambda p: nn.SGD(p, nesterov=True), ValueError, "nesterov"),
    (lambda p: nn.SGD([{"params": p, "momentum": 0.9}]), KeyError, "group params"),
    (lambda p: nn.SGD([]), ValueError, "must not be empty"),
    (lambda p: nn.SGD([1, 2]), TypeError, "'Parameter' or 'dict'"),
    (lambda p: nn.Momentum(p, 0.1, momentum=1), TypeError, "momentum"),
    (lambda p: nn.Adam(p, beta1=1.0), ValueError, "beta1"),
    (lambda p: nn.Adam(p, use_amsgrad=1), TypeError, "use_amsgrad"),
    (lambda p: nn.RMSProp(p, epsilon=0.0), ValueError, "epsilon"),
])
def test_bad_arguments_are_named(make, error, message):
    with pytest.raises(error, match=message):
        make(dense().trainable_params())


def test_mindspore_import_paths():
    from npspore.nn.dynamic_lr import cosine_decay_lr
    from npspore.nn.learning_rate_schedule import LearningRateSchedule
    from npspore.nn.optim import Momentum
    from npspore.nn.optim.optimizer import Optimizer
    from npspore.nn.wrap.cell_wrapper import TrainOneStepCell
    from npspore.nn.wrap.loss_scale import DynamicLossScaleUpdateCell

    assert (Momentum, Optimizer, LearningRateSchedule, TrainOneStepCell, DynamicLossScaleUpdateCell,
            cosine_decay_lr) == (nn.Momentum, nn.Optimizer, nn.LearningRateSchedule, nn.TrainOneStepCell,
                                 nn.DynamicLossScaleUpdateCell, nn.cosine_decay_lr)
    assert issubclass(nn.Momentum, nn.Cell) and issubclass(nn.WarmUpLR, nn.LearningRateSchedule)


class MyMomentum(nn.Optimizer):
    """The custom optimizer of MindSpore's ``nn.Optimizer`` documentation."""

    def __init__(self, params, learning_rate, momentum=0.9):
        super().__init__(learning_rate, params)
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.momentum = momentum
        self.opt = ms.ops.ApplyMomentum()

    def construct(self, gradients):
        params = self.parameters
        lr = self.get_lr()
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        success = None
        for param, mom, grad in zip(params, self.moments, gradients):
            success = self.opt(param, mom, lr, grad, self.momentum)
        return success


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
def test_custom_optimizer_with_the_apply_momentum_primitive(compiled):
    net = dense()
    optimizer = MyMomentum(net.trainable_params(), 0.1)
    result = run_steps(optimizer, compiled)[-1]
    weight, bias = OBSERVED["momentum"]
    np.testing.assert_allclose(net.weight.asnumpy(), weight, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(net.bias.asnumpy(), bias, rtol=1e-6, atol=1e-8)
    np.testing.assert_array_equal(result.asnumpy(), net.bias.asnumpy())  # ApplyMomentum returns the variable
    # Observed on MindSpore 2.10 CPU.
    assert repr(ms.ops.ApplyMomentum(use_nesterov=True)) == \
        "Prim[ApplyMomentum]<use_nesterov=True, use_locking=False, gradient_scale=1.0, side_effect_mem=True>"
    assert repr(ms.ops.SGD()) == "Prim[SGD]<dampening=0.0, weight_decay=0.0, nesterov=False, side_effect_mem=True>"


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", ["momentum", "sgd", "adam", "adam_weight_decay", "rmsprop", "adagrad"])
def test_wrong_gradients_are_reported(name, compiled):
    optimizer = OPTIMIZERS[name](dense())
    call = ms.jit(optimizer) if compiled else optimizer
    with pytest.raises(RuntimeError, match="one Tensor per parameter \\(2\\), but got 1"):
        call((Tensor(GRADS[0][0]),))
    with pytest.raises(ValueError, match="gradient shape must be equal to the variable shape \\[2, 3\\], but got"):
        call((Tensor(np.ones((3, 3), np.float32)), Tensor(GRADS[0][1])))


@pytest.mark.parametrize("make", [
    lambda p: nn.Adagrad(p), lambda p: nn.AdaFactor(p), lambda p: nn.Adam(p),
    lambda p: nn.AdamWeightDecay(p), lambda p: nn.FTRL(p), lambda p: nn.Lamb(p, learning_rate=0.1),
    lambda p: nn.Momentum(p, 0.1, 0.9), lambda p: nn.RMSProp(p), lambda p: nn.SGD(p)],
    ids=["Adagrad", "AdaFactor", "Adam", "AdamWeightDecay", "FTRL", "Lamb", "Momentum", "RMSProp", "SGD"])
def test_optimizers_run_compiled_in_pynative_mode_as_mindspores(make):
    # MindSpore 2.10 decorates these optimizers' construct with @jit: an eager call runs one compiled update
    weight = Parameter(Tensor(np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)), name="weight")
    optimizer = make([weight])
    gradient = (Tensor(np.array([[0.5, -1.0], [0.25, 2.0]], np.float32)),)
    eager = make([Parameter(Tensor(weight.asnumpy()), name="weight")])
    for _ in range(2):
        optimizer(gradient)
        type(eager).construct.__npspore_function__(eager, gradient)   # the same update, op by op
    assert optimizer.construct.cache_info()["compiles"] == 1
    np.testing.assert_allclose(weight.asnumpy(), eager.parameters[0].asnumpy(), rtol=1e-6, atol=1e-7)


class HalvedSGD(nn.SGD):
    """A user's optimizer over one whose construct is @jit: halves the gradients, then calls the base update."""

    def construct(self, gradients):
        gradients = tuple(g * 0.5 for g in gradients)
        return super().construct(gradients)


@pytest.mark.parametrize("compiled", [False, True])
def test_a_subclass_calls_its_bases_compiled_construct_once(compiled):
    weight = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="weight")
    optimizer = HalvedSGD([weight], learning_rate=1.0)
    (ms.jit(optimizer) if compiled else optimizer)((Tensor(np.array([1.0, 1.0], np.float32)),))
    np.testing.assert_array_equal(weight.asnumpy(), [0.5, 1.5])   # w - 1.0 * (0.5 * g), the gradient halved once
