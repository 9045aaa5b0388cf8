"""``experimental.optim.Adam`` against MindSpore 2.10 CPU: three steps of a Dense layer under MSE for plain Adam,
L2 weight decay with ``amsgrad`` (which MindSpore 2.10 accepts and ignores), and ``maximize`` (losses, first weight
row and bias recorded from MindSpore 2.10, float32 agreement to an ulp or two), and its argument errors."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn
from npspore.experimental import optim

# MindSpore 2.10: (weight_decay, amsgrad, maximize) -> losses, weight row, bias
RECORDED = {
    (0.0, False, False): ([1.434999942779541, 0.9683526158332825, 0.6684871315956116],
                          [0.7088120579719543, 0.7098587155342102, 0.7107875347137451], -0.27515798807144165),
    (0.1, True, False): ([1.434999942779541, 0.968352198600769, 0.667999804019928],
                         [0.7075983881950378, 0.7085264325141907, 0.7093705534934998], -0.2730441689491272),
    (0.05, False, True): ([1.434999942779541, 2.062345266342163, 2.852468729019165],
                          [1.3012545108795166, 1.3012149333953857, 1.3011764287948608], 0.3006100654602051),
}


@pytest.mark.parametrize("settings", sorted(RECORDED))
def test_three_steps_are_mindspores(settings):
    weight_decay, amsgrad, maximize = settings
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    optimizer = optim.Adam(net.trainable_params(), lr=0.1, betas=(0.8, 0.95), eps=1e-6, weight_decay=weight_decay,
                           amsgrad=amsgrad, maximize=maximize)
    loss_fn = nn.MSELoss()
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    y = Tensor(np.ones((4, 2), np.float32))
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)
    losses = []
    for _ in range(3):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        losses.append(float(loss.asnumpy()))
    want_losses, want_row, want_bias = RECORDED[settings]
    np.testing.assert_allclose(losses, want_losses, rtol=1e-6)
    np.testing.assert_allclose(net.weight.asnumpy()[0], want_row, rtol=1e-6)
    np.testing.assert_allclose(float(net.bias.asnumpy()[0]), want_bias, rtol=1e-6)


def test_compiled_step_matches_eager():
    def run(compiled):
        net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        optimizer = optim.Adam(net.trainable_params(), lr=0.1, weight_decay=0.01)
        step = ms.jit(optimizer) if compiled else optimizer
        grads = (Tensor(np.full((2, 3), 0.5, np.float32)), Tensor(np.ones(2, np.float32)))
        for _ in range(2):
            step(grads)
        return net.weight.asnumpy()

    np.testing.assert_array_equal(run(True), run(False))


@pytest.mark.parametrize("kwargs, message", [(dict(lr=-1.0), "Invalid learning rate: -1.0"),
                                             (dict(betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
                                             (dict(weight_decay=-1.0), "Invalid weight_decay value: -1.0")])
def test_errors_are_mindspores(kwargs, message):
    with pytest.raises(ValueError, match=message):
        optim.Adam(nn.Dense(2, 2).trainable_params(), **kwargs)
