"""nn.optim.optimizer.opt_init_args_register: the arguments a decorated optimizer records, as MindSpore 2.10
recorded them for the same custom optimizer."""
import numpy as np
import pytest

from npspore import nn, Tensor
from npspore.nn.optim.optimizer import opt_init_args_register


class _MyOpt(nn.Optimizer):
    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, momentum=0.9, weight_decay=0.0, nesterov=False):
        super().__init__(learning_rate, params, weight_decay)
        self.momentum = momentum


class _Wrapper(nn.Optimizer):
    @opt_init_args_register
    def __init__(self, optimizer, scale=2.0):
        super().__init__(0.1, optimizer.init_params["params"])


def test_records_arguments_with_defaults_and_the_learning_rate_as_a_list():
    net = nn.Dense(2, 1)
    opt = _MyOpt(net.trainable_params(), learning_rate=Tensor(np.array([0.1, 0.05], np.float32)), momentum=0.8)
    # MindSpore 2.10 printed: {'momentum': 0.8, 'weight_decay': 0.0, 'nesterov': False}
    # [0.10000000149011612, 0.05000000074505806] ['weight', 'bias'] 0.8
    assert opt.init_args == {"momentum": 0.8, "weight_decay": 0.0, "nesterov": False}
    assert opt.init_learning_rate == [0.10000000149011612, 0.05000000074505806]
    assert [p.name for p in opt.init_params["params"]] == ["weight", "bias"]
    assert opt.momentum == 0.8


def test_a_schedule_learning_rate_is_recorded_as_none():
    opt = _MyOpt(nn.Dense(2, 1).trainable_params(), learning_rate=nn.ExponentialDecayLR(0.1, 0.9, 4))
    assert opt.init_args == {"momentum": 0.9, "weight_decay": 0.0, "nesterov": False}
    assert opt.init_learning_rate is None


def test_a_wrapping_optimizer_records_the_wrapped_ones_params():
    inner = _MyOpt(nn.Dense(2, 1).trainable_params())
    outer = _Wrapper(inner)
    assert outer.init_params["params"] is inner.init_params["params"]
    assert outer.init_args == {"scale": 2.0}


def test_arguments_the_signature_does_not_take_raise_type_error():
    with pytest.raises(TypeError, match="too many positional arguments"):   # MindSpore 2.10's message
        _MyOpt(nn.Dense(2, 1).trainable_params(), 0.1, 0.9, 0.0, False, 5)
