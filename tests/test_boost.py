"""npspore.boost.GradientAccumulation: weights, accumulator and count after each of seven calls, as MindSpore 2.10
prints them for the same calls; a compiled training step through it equals the eager one."""
import numpy as np

import npspore as ms
from npspore import boost, nn

# (weights, accumulator, count) after each call: SGD(lr=0.5), 3 calls per update, gradients [1, -2] * (call + 1)
OBSERVED = [([1, 2], [0.33333334, -0.6666667], 1), ([1, 2], [1, -2], 2), ([0, 4], [0, 0], 0),
            ([0, 4], [1.3333334, -2.6666667], 1), ([0, 4], [3, -6], 2), ([-2.5, 9], [0, 0], 0),
            ([-2.5, 9], [2.3333333, -4.6666665], 1)]


def test_updates_on_the_mean_of_every_third_call():
    weight = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    accumulation = boost.GradientAccumulation(3, nn.SGD([weight], learning_rate=0.5))
    for call, (weights, accumulated, count) in enumerate(OBSERVED):
        loss = accumulation(ms.Tensor(np.float32(call)), (ms.Tensor(np.float32([1.0, -2.0]) * (call + 1)),))
        assert loss.asnumpy().item() == call
        np.testing.assert_allclose(weight.asnumpy(), weights, rtol=1e-6)
        np.testing.assert_allclose(accumulation._grad_accumulation[0].asnumpy(), accumulated, rtol=1e-6)
        assert accumulation._accumulation_step.asnumpy().item() == count


def test_compiled_step_equals_eager():
    x = ms.Tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2))
    y = ms.Tensor(np.ones((4, 1), np.float32))
    weights = []
    for compiled in (False, True):
        net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        accumulation = boost.GradientAccumulation(2, nn.Momentum(net.trainable_params(), 0.1, 0.9))
        grad_fn = ms.value_and_grad(lambda a, b, net=net: nn.MSELoss()(net(a), b), None, net.trainable_params())

        def step(a, b, grad_fn=grad_fn, accumulation=accumulation):
            loss, grads = grad_fn(a, b)
            return accumulation(loss, grads)
        step = ms.jit(step) if compiled else step
        for _ in range(5):
            step(x, y)
        weights.append(net.weight.asnumpy())
    np.testing.assert_allclose(weights[1], weights[0], rtol=1e-6)
    assert not np.array_equal(weights[0], np.ones((1, 2), np.float32))
