"""Record layer outputs with the real MindSpore 2.10 for tests/test_conv3d.py and tests/test_zoo_primitives.py.

Run with a virtualenv holding MindSpore (never the project's): ``/work/msvenv/bin/python tools/make_layer_fixtures.py``.
Writes ``tests/fixtures/conv3d/conv3d.npz``: the input ``x`` (2, 4, 5, 6, 7), weight ``w`` (6, 2, 3, 2, 3) and bias
``b`` (``default_rng(0)``), and MindSpore's nn.Conv3d output for each configuration of ``CASES`` (group 2); and
``tests/fixtures/conv3d/conv2d_bn_act.npz``: nn.Conv2dBnAct's outputs (with BatchNorm and ReLU, training and
inference; with LeakyReLU(0.1)) for ``x`` (2, 2, 4, 4) and ``w`` (3, 2, 2, 2) of ``default_rng(0)``.
"""
from pathlib import Path

import numpy as np

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "conv3d"
CASES = {"same": dict(pad_mode="same"), "valid": dict(pad_mode="valid", stride=(2, 1, 2)),
         "pad": dict(pad_mode="pad", padding=(1, 0, 2, 1, 0, 1), dilation=(1, 2, 1)),
         "group_bias": dict(pad_mode="valid", has_bias=True)}


def main():
    from mindspore import Tensor, nn

    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4, 5, 6, 7)).astype(np.float32)
    w = rng.standard_normal((6, 2, 3, 2, 3)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    outputs = {}
    for name, kwargs in CASES.items():
        extra = {"bias_init": Tensor(b)} if kwargs.get("has_bias") else {}
        net = nn.Conv3d(4, 6, (3, 2, 3), group=2, weight_init=Tensor(w), **kwargs, **extra)
        outputs[name] = net(Tensor(x)).asnumpy()
    np.savez(FIXTURES / "conv3d.npz", x=x, w=w, b=b, **outputs)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 2, 4, 4)).astype(np.float32)
    w = rng.standard_normal((3, 2, 2, 2)).astype(np.float32)
    net = nn.Conv2dBnAct(2, 3, 2, has_bn=True, activation="relu", weight_init=Tensor(w))
    net.set_train()
    train = net(Tensor(x)).asnumpy()
    moving_mean = net.batchnorm.moving_mean.asnumpy()
    net.set_train(False)
    leaky = nn.Conv2dBnAct(2, 3, 2, activation="leakyrelu", alpha=0.1, weight_init=Tensor(w))(Tensor(x)).asnumpy()
    np.savez(FIXTURES / "conv2d_bn_act.npz", x=x, w=w, train=train, moving_mean=moving_mean,
             eval=net(Tensor(x)).asnumpy(), leaky=leaky)


if __name__ == "__main__":
    main()
