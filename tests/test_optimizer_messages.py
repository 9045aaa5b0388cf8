"""Out-of-range optimizer and learning-rate schedule arguments raise MindSpore's messages, as
observed on MindSpore 2.10 CPU."""
import pytest

from npspore import nn


def params():
    return nn.Dense(3, 2).trainable_params()


@pytest.mark.parametrize("make, message", [
    (lambda: nn.SGD(params(), learning_rate=-0.1),
     "For 'SGD', the 'learning rate' must be float and must >= 0, but got '-0.1' with type 'float'."),
    (lambda: nn.Momentum(params(), -1, 0.9),
     "For 'Momentum', the 'learning rate' must be float and must >= 0, but got '-1.0' with type 'float'."),
    (lambda: nn.SGD(params(), weight_decay=-0.1),
     "For 'SGD', the 'weight_decay' must be float and must >= 0, but got '-0.1' with type 'float'."),
    (lambda: nn.SGD(params(), dampening=-0.1),
     "For 'SGD', the argument 'dampening' must be at least 0.0, but got 'dampening' -0.1"),
    (lambda: nn.Momentum(params(), 0.1, -0.5), "For 'Momentum', the argument 'momentum' must be at least 0.0, but got -0.5"),
    (lambda: nn.Adam(params(), loss_scale=0.0),
     "For 'Adam', the 'loss_scale' must be float and must > 0, but got '0.0' with type 'float'."),
    (lambda: nn.Lamb(params(), -0.1),
     "For 'Lamb', the 'learning rate' must be float and must >= 0, but got '-0.1' with type 'float'."),
    (lambda: nn.Lamb(params(), 0.1, weight_decay=-0.1),
     "For 'Lamb', the 'weight_decay' must be float and must >= 0, but got '-0.1' with type 'float'."),
    (lambda: nn.RMSProp(params(), decay=-0.1),
     "For 'RMSProp', the 'decay' must be float and must >= 0, but got '-0.1' with type 'float'."),
    (lambda: nn.RMSProp(params(), epsilon=0.0),
     "For 'RMSProp', the 'epsilon' must be float and must > 0, but got '0.0' with type 'float'."),
    (lambda: nn.Adagrad(params(), accum=-0.1),
     "For 'Adagrad', the 'accum' must be float and must >= 0, but got '-0.1' with type 'float'."),
    (lambda: nn.ExponentialDecayLR(0.0, 0.9, 1),
     "For 'ExponentialDecayLR', the 'learning_rate' must be float and must > 0, but got '0.0' with type 'float'."),
    (lambda: nn.CosineDecayLR(-0.1, 0.1, 2),
     "For 'CosineDecayLR', the 'min_lr' must be float and must >= 0, but got '-0.1' with type 'float'."),
    (lambda: nn.PolynomialDecayLR(0.1, -0.01, 2, 1.0),
     "For 'PolynomialDecayLR', the 'end_learning_rate' must be float and must >= 0, but got '-0.01' with type "
     "'float'."),
])
def test_out_of_range_arguments_get_mindspores_message(make, message):
    with pytest.raises(ValueError) as caught:
        make()
    assert str(caught.value) == message
