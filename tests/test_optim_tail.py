"""Optimizers of the 2.10 usage list's tail (issue 26, data-nn-fn): ``nn.FTRL``.

``OBSERVED`` are MindSpore 2.10 CPU's Dense(3, 2) weight and bias after three updates from the fixed gradients of
``tests/optim_cases.py`` (``tail_optimizers``), printed by ``tools/observe_mindspore_optim.py``. With ``l1 > 0``
MindSpore 2.10's CPU ``ApplyFtrl`` gives values its documented formula does not (some elements divide by another
accumulator); npspore follows the formula, checked against a float64 NumPy reference.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn
from optim_cases import B0, GRADS, W0, tail_optimizers

OBSERVED = {
    'ftrl': ([[0.04529852047562599, -0.13950064778327942, 0.06449338048696518],
              [0.3365733027458191, 0.23246821761131287, -0.47715336084365845]],
        [0.0017523315036669374, -0.010424288921058178]),
    'ftrl_l2': ([[-0.08223096281290054, -0.07014799118041992, 0.01703738234937191],
              [0.1738079935312271, 0.04649693891406059, -0.42487865686416626]],
        [-0.06490065902471542, 0.010184227488934994]),
    'ftrl_power_wd': ([[-0.02962379716336727, -0.05140146613121033, 0.01411247719079256],
              [0.13519905507564545, 0.011883419938385487, -0.24865633249282837]],
        [-0.02264610305428505, 0.00166107970289886]),
}
OPTIMIZERS = tail_optimizers(nn)


def _dense():
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(W0))
    net.bias.set_data(Tensor(B0))
    return net


def _three_steps(optimizer, compiled):
    call = ms.jit(optimizer) if compiled else optimizer
    return [call(tuple(Tensor(g) for g in grads)) for grads in GRADS]


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(OBSERVED))
def test_three_updates_match_mindspore(name, compiled):
    net = _dense()
    results = _three_steps(OPTIMIZERS[name](net), compiled)
    weight, bias = OBSERVED[name]
    np.testing.assert_allclose(net.weight.asnumpy(), weight, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(net.bias.asnumpy(), bias, rtol=1e-6, atol=1e-8)
    assert results[-1] == (True, True)


def _ftrl_reference(start, grads, lr, l1, l2, power, accum):
    weight, moment, linear = start.astype(np.float64), np.full(start.shape, accum), np.zeros(start.shape)
    for grad in grads:
        grad = grad.astype(np.float64)
        new_moment = moment + grad * grad
        linear = linear + grad - (new_moment ** -power - moment ** -power) / lr * weight
        quadratic = new_moment ** -power / lr + 2 * l2
        weight = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quadratic, 0.0)
        moment = new_moment
    return weight


def test_ftrl_with_l1_follows_its_formula():
    net = _dense()
    _three_steps(OPTIMIZERS["ftrl_l1"](net), compiled=False)
    want = _ftrl_reference(W0, [g[0] for g in GRADS], lr=0.1, l1=0.05, l2=0.0, power=-0.5, accum=0.1)
    np.testing.assert_allclose(net.weight.asnumpy(), want, rtol=1e-5, atol=1e-7)


def test_ftrl_state_and_errors_are_mindspores():
    optimizer = nn.FTRL(_dense().trainable_params())
    assert [name for name, _ in optimizer.parameters_and_names()] == [   # MindSpore 2.10
        "global_step", "learning_rate", "weight", "bias", "moments.weight", "moments.bias", "linear.weight",
        "linear.bias"]
    with pytest.raises(ValueError, match="dynamic learning rate and group learning rate are currently not supported"):
        nn.FTRL(_dense().trainable_params(), learning_rate=[0.1, 0.01])
    with pytest.raises(TypeError, match="For 'FTRL', the type of 'l1' should be 'float', but got type 'int'."):
        nn.FTRL(_dense().trainable_params(), l1=1)
    with pytest.raises(ValueError, match="For 'FTRL', the argument 'lr_power' must <= 0.0, but got 0.5."):
        nn.FTRL(_dense().trainable_params(), lr_power=0.5)
