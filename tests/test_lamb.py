"""``nn.Lamb`` against a plain NumPy transcription of the update equations of MindSpore's ``nn.Lamb``
documentation (MindSpore's CPU build cannot run its fused Lamb kernel), over three steps, eager and
compiled, with a fixed and a scheduled learning rate, weight decay and parameter groups; and the
argument errors, with the messages observed on MindSpore 2.10 CPU."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn
from optim_cases import B0, GRADS, W0
from test_adamw import Step
from test_optim import dense


def lamb_reference(params, grads_per_step, rates, beta1, beta2, eps, decays):
    """The documented LAMB update, float64: ``params`` and ``decays`` are lists (one per Parameter),
    ``rates[t]`` the learning rate of step ``t + 1``."""
    params = [np.asarray(p, np.float64).copy() for p in params]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for t, grads in enumerate(grads_per_step, start=1):
        for i, g in enumerate(grads):
            m[i] = beta1 * m[i] + (1 - beta1) * g
            v[i] = beta2 * v[i] + (1 - beta2) * g * g
            m_hat = m[i] / (1 - beta1 ** t)
            v_hat = v[i] / (1 - beta2 ** t)
            r = m_hat / (np.sqrt(v_hat) + eps) + decays[i] * params[i]
            w_norm, r_norm = np.linalg.norm(params[i]), np.linalg.norm(r)
            trust = w_norm / r_norm if w_norm > 0 and r_norm > 0 else 1.0
            params[i] = params[i] - rates[t - 1] * trust * r
    return params


CASES = {
    # name: (optimizer factory over a Dense, learning rate per step, beta1, beta2, eps, weight decay per Parameter)
    "plain": (lambda n: nn.Lamb(n.trainable_params(), 0.1), [0.1] * 3, 0.9, 0.999, 1e-6, [0.0, 0.0]),
    "decay": (lambda n: nn.Lamb(n.trainable_params(), 0.05, beta1=0.8, beta2=0.9, eps=1e-4, weight_decay=0.3),
              [0.05] * 3, 0.8, 0.9, 1e-4, [0.3, 0.3]),
    "schedule": (lambda n: nn.Lamb(n.trainable_params(), [0.1, 0.05, 0.01]), [0.1, 0.05, 0.01], 0.9, 0.999, 1e-6,
                 [0.0, 0.0]),
    "groups": (lambda n: nn.Lamb([{"params": [n.weight], "weight_decay": 0.5}, {"params": [n.bias], "lr": 0.02}],
                                 0.1), None, 0.9, 0.999, 1e-6, [0.5, 0.0]),
}


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_lamb_follows_the_documented_update(name, compiled):
    factory, rates, beta1, beta2, eps, decays = CASES[name]
    net = dense()
    optimizer = factory(net)
    step = ms.jit(Step(optimizer)) if compiled else (lambda w, b: optimizer((w, b)))
    for weight_grad, bias_grad in GRADS:
        result = step(Tensor(weight_grad), Tensor(bias_grad))
    assert tuple(bool(r) for r in result) == (True, True)
    if rates is None:  # the groups case: the weight at the default rate, the bias at its own
        weight = lamb_reference([W0], [[g] for g, _ in GRADS], [0.1] * 3, beta1, beta2, eps, decays[:1])[0]
        bias = lamb_reference([B0], [[g] for _, g in GRADS], [0.02] * 3, beta1, beta2, eps, decays[1:])[0]
    else:
        weight, bias = lamb_reference([W0, B0], GRADS, rates, beta1, beta2, eps, decays)
    np.testing.assert_allclose(net.weight.asnumpy(), weight, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), bias, rtol=1e-5, atol=1e-6)


def test_lamb_skips_weight_decay_of_beta_and_gamma_and_keeps_zero_parameters_finite():
    norm = nn.LayerNorm((3,))  # gamma (ones) and beta (zeros): no decay; beta's norm is 0, its trust ratio 1
    optimizer = nn.Lamb(norm.trainable_params(), 0.1, weight_decay=0.5)
    grads = (Tensor(np.array([0.5, -1.0, 0.25], np.float32)), Tensor(np.array([0.3, -0.6, 0.1], np.float32)))
    optimizer(grads)
    gamma, beta = lamb_reference([np.ones(3), np.zeros(3)], [[g.asnumpy() for g in grads]], [0.1], 0.9, 0.999, 1e-6,
                                 [0.0, 0.0])
    np.testing.assert_allclose(norm.gamma.asnumpy(), gamma, rtol=1e-5)
    np.testing.assert_allclose(norm.beta.asnumpy(), beta, rtol=1e-5)
    assert sorted(p.name for p in optimizer.get_parameters() if p.name.startswith("lamb_")) == [
        "lamb_m.beta", "lamb_m.gamma", "lamb_v.beta", "lamb_v.gamma"]


@pytest.mark.parametrize("kwargs, error, message", [
    # the messages observed on MindSpore 2.10 CPU
    ({"beta1": 1}, TypeError, "For 'Lamb', the type of 'beta1' should be 'float', but got type 'int'."),
    ({"beta1": 1.0}, ValueError, "For 'Lamb', the 'beta1' must be in range of (0.0, 1.0), but got 1.0 with type "
                                 "'float'."),
    ({"beta2": 0.0}, ValueError, "For 'Lamb', the 'beta2' must be in range of (0.0, 1.0), but got 0.0 with type "
                                 "'float'."),
    ({"eps": 1}, TypeError, "For 'Lamb', the type of 'eps' should be 'float', but got type 'int'."),
    ({"eps": 0.0}, ValueError, "For 'Lamb', the 'eps' must be float and must > 0, but got '0.0' with type 'float'."),
])
def test_lamb_rejects_bad_arguments_with_mindspores_messages(kwargs, error, message):
    with pytest.raises(error) as caught:
        nn.Lamb(nn.Dense(3, 2).trainable_params(), 0.1, **kwargs)
    assert str(caught.value) == message


def test_lamb_requires_a_learning_rate():
    with pytest.raises(TypeError, match="learning_rate"):
        nn.Lamb(nn.Dense(3, 2).trainable_params())
