"""nn.optim.AdaFactor: Parameters and states after three steps, observed on MindSpore 2.10 CPU (its FusedAdaFactor
kernel) with the setup below; the compiled step equals the eager one; MindSpore's argument errors."""
import numpy as np
import pytest

import npspore as ms
from npspore import nn

W = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
B = np.array([0.5, -0.25, 0.1], np.float32)
GRADS = (np.cos(np.arange(12, dtype=np.float32)).reshape(3, 4), np.array([0.3, -0.2, 0.05], np.float32))

# options -> (weight, bias) after three steps with gradients GRADS * 1, * 2, * 3
OBSERVED = {
    "relative step": (
        [[-1.0045776, -0.8208961, -0.6346544, -0.45016262], [-0.2694173, -0.092485555, 0.08654645, 0.26903495],
         [0.45538053, 0.64210266, 0.82250273, 0.99997544]], [0.498162, -0.248162, 0.098162]),
    "fixed rate, no first moment": (
        [[-1.389893, -1.0493767, -0.49078208, -0.08123264], [0.009204552, -0.2251857, -0.2806821, -0.041767575],
         [0.5256743, 1.1251945, 1.1862221, 0.9979075]], [0.20000002, 0.04999999, -0.19999999]),
    "weight decay": (
        [[-1.0775057, -0.8620109, -0.5978761, -0.36698416], [-0.2072667, -0.11999841, 0.007170193, 0.20000389],
         [0.46611196, 0.73937476, 0.8925327, 0.99007773]], [0.46356338, -0.21475847, 0.06547552]),
    "warmup": (
        [[-1.0000008, -0.8181823, -0.6363633, -0.4545447], [-0.2727267, -0.09090936, 0.090908356, 0.27272668],
         [0.4545456, 0.63636464, 0.8181825, 1.0]], [0.4999997, -0.2499997, 0.09999969]),
}
OPTIONS = {
    "relative step": {},
    "fixed rate, no first moment": dict(learning_rate=0.1, relative_step=False, scale_parameter=False, beta1=0.0),
    "weight decay": dict(learning_rate=0.05, relative_step=False, weight_decay=0.1, beta1=0.5),
    "warmup": dict(warmup_init=True),
}


def _three_steps(**options):
    weight, bias = ms.Parameter(ms.Tensor(W.copy()), name="w"), ms.Parameter(ms.Tensor(B.copy()), name="b")
    optimizer = nn.optim.AdaFactor([weight, bias], **options)
    for step in (1, 2, 3):
        assert optimizer(tuple(ms.Tensor(g * step) for g in GRADS)) == (True, True)
    return weight, bias, optimizer


@pytest.mark.parametrize("case", sorted(OBSERVED))
def test_three_steps_match_mindspore(case):
    weight, bias, optimizer = _three_steps(**OPTIONS[case])
    np.testing.assert_allclose(weight.asnumpy(), OBSERVED[case][0], rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(bias.asnumpy(), OBSERVED[case][1], rtol=2e-6, atol=1e-7)
    # the factored second moment of the weight, the whole one of the bias (the same in every case)
    np.testing.assert_allclose(optimizer.exp_avg_sq_row[0].asnumpy(), [3.257917, 2.6621044, 2.0723665], rtol=1e-6)
    np.testing.assert_allclose(optimizer.exp_avg_sq_col[0].asnumpy(), [2.5731244, 2.1363335, 3.19619, 2.7508688],
                               rtol=1e-6)
    np.testing.assert_allclose(optimizer.exp_avg_sq[1].asnumpy(), [0.47965613, 0.21318048, 0.01332378], rtol=1e-6)
    assert [p.shape for p in optimizer.exp_avg_sq] == [(1,), (3,)] and optimizer.step.asnumpy().tolist() == [3.0]


def test_compiled_training_step_equals_eager():
    x = ms.Tensor(np.cos(np.arange(8, dtype=np.float32)).reshape(2, 4))
    y = ms.Tensor(np.ones((2, 3), np.float32))
    nets = []
    for compiled in (False, True):
        net = nn.Dense(4, 3, weight_init=ms.Tensor(W), bias_init="zeros")
        optimizer = nn.optim.AdaFactor(net.trainable_params(), learning_rate=0.05, relative_step=False,
                                       weight_decay=0.1)
        grad_fn = ms.value_and_grad(lambda a, b, net=net: nn.MSELoss()(net(a), b), None, optimizer.parameters)

        def step(a, b, grad_fn=grad_fn, optimizer=optimizer):
            loss, grads = grad_fn(a, b)
            optimizer(grads)
            return loss
        step = ms.jit(step) if compiled else step
        for _ in range(3):
            step(x, y)
        nets.append(net)
    np.testing.assert_array_equal(nets[0].weight.asnumpy(), nets[1].weight.asnumpy())
    assert not np.array_equal(nets[0].weight.asnumpy(), W)


@pytest.mark.parametrize("options, error, message", [
    (dict(learning_rate=0.1), ValueError, "('Cannot combine manual lr and relative_step options', 0.1)"),
    (dict(warmup_init=True, relative_step=False, learning_rate=0.1), ValueError,
     "warmup_init requires relative_step=True"),
    (dict(relative_step=False), ValueError, "Cannot learning_rate is None and relative_step=False"),
    (dict(eps=(1e-30,)), ValueError, "eps must have 2 value: (eps1, eps2)."),
    (dict(decay_rate=1.0), ValueError,
     "For 'AdaFactor', the 'decay_rate' must be in range of (0, 1), but got 1.0 with type 'float'."),
    (dict(clip_threshold=1), TypeError,
     "For 'AdaFactor', the type of 'clip_threshold' should be 'float', but got type 'int'."),
])
def test_bad_arguments_raise_mindspore_s_errors(options, error, message):
    with pytest.raises(error) as info:
        nn.optim.AdaFactor([ms.Parameter(ms.Tensor(W), name="w")], **options)
    assert str(info.value) == message


def _fused_step(shape, **flags):
    rng = np.random.default_rng(0)
    grad = rng.standard_normal(shape).astype(np.float32)
    param = ms.Parameter(ms.Tensor(rng.standard_normal(shape).astype(np.float32)), name="p")
    states = [ms.Parameter(ms.Tensor(np.zeros(s, np.float32)), name=n) for n, s in (
        ("ea", shape), ("r", shape[:-1] if len(shape) > 1 else (1,)),
        ("c", shape[:-2] + shape[-1:] if len(shape) > 1 else (1,)), ("s", (1,) if len(shape) > 1 else shape))]
    out = ms.ops.operations.FusedAdaFactor(**flags)(
        ms.Tensor(np.float32([1e-30, 1e-3])), ms.Tensor(1.0, ms.float32), ms.Tensor(0.9, ms.float32),
        ms.Tensor(0.2, ms.float32), ms.Tensor(0.1, ms.float32), ms.Tensor(0.05, ms.float32), ms.Tensor(grad), param,
        *states)
    assert len(out) == 1 and not out[0].asnumpy().any()   # MindSpore's CPU kernel returns zeros
    return param.asnumpy(), [s.asnumpy() for s in states]


def test_fused_ada_factor_primitive_matches_mindspore(monkeypatch):
    # observed on MindSpore 2.10 CPU with the same inputs; the deprecation warnings are collected, not written
    # (MindSpore's logger keeps the stream it first writes to, which would be this test's captured one)
    from npspore import log
    warnings = []
    monkeypatch.setattr(log, "warning", lambda message, *args: warnings.append(message))
    param, (_, row, _, _) = _fused_step((2, 3))
    np.testing.assert_allclose(param, [[1.2501935, 0.96385986, -0.7647553], [-1.3110772, -0.5540812, 0.006286986]],
                               rtol=1e-6)
    np.testing.assert_allclose(row, [0.11824025, 0.11431912], rtol=1e-6)
    param, (first, _, _, _) = _fused_step((2, 3), enable_scale_parameter=True, enable_first_moment=True,
                                          enable_weight_decay=True)
    np.testing.assert_allclose(param, [[1.2930453, 0.9442665, -0.7061132], [-1.2638, -0.61403644, 0.03791038]],
                               rtol=1e-6)
    np.testing.assert_allclose(first, [[0.0049529797, -0.0015445205, 0.005616992],
                                       [0.0042026774, -0.006369347, 0.0032253943]], rtol=1e-6)
    param, (first, _, _, whole) = _fused_step((4,), enable_first_moment=True)
    np.testing.assert_allclose(param, [-0.5406694, 0.36659506, 1.299, 0.942081], rtol=1e-6)
    np.testing.assert_allclose(whole, [0.012646469, 0.013961355, 0.32811293, 0.008803228], rtol=1e-6)
    with pytest.raises(TypeError, match="For 'FusedAdaFactor', the type of 'enable_first_moment' should be 'bool'"):
        ms.ops.FusedAdaFactor(enable_first_moment=1)
    assert warnings[0] == ("'FusedAdaFactor' is deprecated from version 2.8.0 and will be removed in a future version, "
                           "use 'ops.AdaFactor' instead.") and len(warnings) == 4
