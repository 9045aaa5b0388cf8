"""``nn.AdamW`` against MindSpore 2.10's ``experimental.optim.AdamW`` (MindSpore 2.10 has no
``nn.AdamW``): a Dense(3, 2) after three updates from the fixed gradients of ``optim_cases``,
eager and compiled, and the argument errors. The values were observed on MindSpore 2.10 CPU with
``tools/observe_mindspore_adamw.py``."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn
from optim_cases import GRADS, adamw_optimizers
from test_optim import dense

CASES = adamw_optimizers(nn.AdamW)

# observed on MindSpore 2.10 CPU (mindspore.experimental.optim.AdamW): (weight, bias) after three steps
OBSERVED = {
    "default": ([[0.08171912282705307, -0.1899033784866333, 0.2823517918586731],
                 [0.37708723545074463, 0.5008840560913086, -0.6159734129905701]],
                [-0.00728208851069212, -0.008322609588503838]),
    "amsgrad": ([[0.08184286952018738, -0.1905079483985901, 0.28250783681869507],
                 [0.37685418128967285, 0.4988235533237457, -0.6137399077415466]],
                [-0.006880912929773331, -0.00942948367446661]),
    "maximize": ([[0.13650615513324738, -0.22007736563682556, 0.3351221978664398],
                  [0.4455913007259369, 0.4979287087917328, -0.5676888823509216]],
                 [0.04456246271729469, -0.04334706813097]),
    "groups": ([[0.0077887363731861115, -0.14733485877513885, 0.20844034850597382],
                [0.2807644009590149, 0.4973241686820984, -0.6712762713432312]],
               [-0.005490889307111502, -0.013328073546290398]),
}
STATES = ["exp_avg.bias", "exp_avg.weight", "exp_avg_sq.bias", "exp_avg_sq.weight", "max_exp_avg_sq.bias",
          "max_exp_avg_sq.weight", "state_step"]


class Step(nn.Cell):
    """One compiled update: the optimizer called inside a Cell's construct."""

    def __init__(self, optimizer):
        super().__init__()
        self.optimizer = optimizer

    def construct(self, weight_grad, bias_grad):
        return self.optimizer((weight_grad, bias_grad))


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_adamw_matches_mindspore(name, compiled):
    net = dense()
    optimizer = CASES[name](net)
    assert sorted(p.name for p in optimizer.get_parameters() if p.name not in ("weight", "bias")) == STATES
    step = ms.jit(Step(optimizer)) if compiled else (lambda w, b: optimizer((w, b)))
    for weight_grad, bias_grad in GRADS:
        result = step(Tensor(weight_grad), Tensor(bias_grad))
    assert result is True or bool(np.asarray(result)) is True
    weight, bias = OBSERVED[name]
    np.testing.assert_allclose(net.weight.asnumpy(), weight, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), bias, rtol=1e-5, atol=1e-6)
    assert int(optimizer.state_step.asnumpy()) == len(GRADS)


@pytest.mark.parametrize("kwargs, message", [
    # the messages observed on MindSpore 2.10 CPU
    ({"lr": -1.0}, "Invalid learning rate: -1.0"),
    ({"eps": -1.0}, "Invalid epsilon value: -1.0"),
    ({"betas": (1.0, 0.9)}, "Invalid beta parameter at index 0: 1.0"),
    ({"betas": (0.9, -0.1)}, "Invalid beta parameter at index 1: -0.1"),
    ({"weight_decay": -0.5}, "Invalid weight_decay value: -0.5"),
])
def test_adamw_rejects_bad_values_with_mindspores_messages(kwargs, message):
    with pytest.raises(ValueError, match=f"^{message}$".replace(".", r"\.")):
        nn.AdamW(dense().trainable_params(), **kwargs)


def test_adamw_rejects_bad_types_and_group_keys():
    params = dense().trainable_params()
    with pytest.raises(TypeError, match="'lr' must be a number"):
        nn.AdamW(params, lr="0.1")
    with pytest.raises(TypeError, match="'betas' must be a tuple of two floats"):
        nn.AdamW(params, betas=(0.9,))
    with pytest.raises(KeyError, match="'momentum'"):
        nn.AdamW([{"params": params, "momentum": 0.9}])
    with pytest.raises(ValueError, match="'params' must not be empty"):
        nn.AdamW([])


def test_adamw_is_also_where_mindspore_2_10_has_it():
    from npspore.experimental import optim
    assert optim.AdamW is nn.AdamW and ms.experimental.optim.AdamW is nn.AdamW
