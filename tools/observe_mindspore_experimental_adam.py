"""Print MindSpore 2.10's three training steps under ``experimental.optim.Adam`` for tests/test_experimental_adam.py
(its RECORDED literals) and its argument errors.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_experimental_adam.py``.
"""
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor
from mindspore.experimental import optim
import inspect
print(inspect.signature(optim.Adam))
for wd, ams, maxi in ((0.0, False, False), (0.1, True, False), (0.05, False, True)):
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    opt = optim.Adam(net.trainable_params(), lr=0.1, betas=(0.8, 0.95), eps=1e-6, weight_decay=wd, amsgrad=ams,
                     maximize=maxi)
    loss_fn = nn.MSELoss()
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    y = Tensor(np.ones((4, 2), np.float32))
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    losses = []
    for _ in range(3):
        loss, grads = grad_fn(x, y)
        opt(grads)
        losses.append(float(loss.asnumpy()))
    print((wd, ams, maxi), losses, net.weight.asnumpy()[0].tolist(), float(net.bias.asnumpy()[0]))
for bad in ["optim.Adam(nn.Dense(2,2).trainable_params(), lr=-1.0)",
            "optim.Adam(nn.Dense(2,2).trainable_params(), betas=(1.0, 0.9))",
            "optim.Adam(nn.Dense(2,2).trainable_params(), weight_decay=-1.0)"]:
    try: eval(bad)
    except Exception as e: print(type(e).__name__, e)
