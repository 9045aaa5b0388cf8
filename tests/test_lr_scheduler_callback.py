"""``train.callback.LearningRateScheduler`` against MindSpore 2.10 CPU: a rate halved every second step over two
epochs of ``Model.train`` (the ``mindspore.train.LearningRateScheduler`` docstring's pattern), the rates the
function sees, the final rate and the trained weights recorded from MindSpore 2.10."""
import numpy as np

import npspore as ms
import npspore.dataset as ds
from npspore import nn
from npspore.train import LearningRateScheduler, Model


def test_rates_and_weights_are_mindspores():
    seen = []

    def halve_on_even_steps(lr, step):
        seen.append((step, lr))
        return lr * 0.5 if step % 2 == 0 else lr

    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, loss_fn=nn.MSELoss(), optimizer=optimizer)
    data = {"x": np.arange(24, dtype=np.float32).reshape(8, 3) / 10, "y": np.ones((8, 2), np.float32)}
    model.train(2, ds.NumpySlicesDataset(data=data, shuffle=False).batch(2),
                callbacks=[LearningRateScheduler(halve_on_even_steps)], dataset_sink_mode=False)
    # MindSpore 2.10
    assert seen == [(1, 0.1), (2, 0.1), (3, 0.05), (4, 0.05), (5, 0.025), (6, 0.025), (7, 0.0125), (8, 0.0125)]
    assert optimizer.learning_rate.asnumpy().tolist() == 0.0062500000931322575
    # float32 after 8 steps: BLAS builds round a float32 matmul differently in its last bit (NumPy 1.26's OpenBLAS
    # gives 1e-6 relative here), which the momentum carries on
    np.testing.assert_allclose(net.weight.asnumpy(), [[-0.10873839259147644, -0.1738230288028717,
                                                       -0.23890766501426697]] * 2, rtol=1e-5)
    assert ms.train.callback.LearningRateScheduler is LearningRateScheduler
