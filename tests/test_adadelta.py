"""``nn.Adadelta`` / ``ops.ApplyAdadelta`` against MindSpore 2.10 CPU: three ``TrainOneStepCell`` steps of a Dense
layer under MSE, without and with weight decay (losses, weights, bias and the ``accum`` state recorded from
MindSpore 2.10; float32 agreement to a few ulps), eagerly and compiled, and MindSpore's argument errors."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn

# MindSpore 2.10: (weight_decay, losses, weight row, bias, accum of the weight row)
RECORDED = [
    (0.0, [1.434999942779541, 1.3748797178268433, 1.3145816326141357],
     [0.9653494954109192, 0.9653783440589905, 0.9654027223587036], -0.03429178148508072,
     [0.18175071477890015, 0.22029176354408264, 0.2625369131565094]),
    (0.01, [1.434999942779541, 1.374879002571106, 1.3145759105682373],
     [0.9653440117835999, 0.9653730392456055, 0.9653975367546082], -0.034288328140974045,
     [0.18767637014389038, 0.22681055963039398, 0.26964884996414185]),
]


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("weight_decay, losses, weight, bias, accum", RECORDED)
def test_three_steps_are_mindspores(compiled, weight_decay, losses, weight, bias, accum):
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    optimizer = nn.Adadelta(net.trainable_params(), learning_rate=0.5, rho=0.8, epsilon=1e-4,
                            weight_decay=weight_decay)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer)
    step = ms.jit(train) if compiled else train
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    y = Tensor(np.ones((4, 2), np.float32))
    np.testing.assert_allclose([float(step(x, y).asnumpy()) for _ in range(3)], losses, rtol=2e-6)
    np.testing.assert_allclose(net.weight.asnumpy(), [weight] * 2, rtol=2e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), [bias] * 2, rtol=2e-6)
    np.testing.assert_allclose(optimizer.accum[0].asnumpy(), [accum] * 2, rtol=2e-6)
    assert [p.name for p in optimizer.accum] == ["accum.weight", "accum.bias"]
    assert [p.name for p in optimizer.accum_update] == ["accum_update.weight", "accum_update.bias"]


def test_arguments_are_checked_as_mindspore():
    params = nn.Dense(3, 2).trainable_params()
    with pytest.raises(ValueError, match=r"For 'Adadelta', the 'rho' must be in range of \[0.0, 1.0\], but got 1.5"):
        nn.Adadelta(params, rho=1.5)
    with pytest.raises(TypeError, match="For 'Adadelta', the type of 'epsilon' should be 'float', but got type 'int'."):
        nn.Adadelta(params, epsilon=1)
