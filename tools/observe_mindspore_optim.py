"""Print MindSpore's results for the optimizer cases of ``tests/optim_cases.py``.

    /path/to/mindspore-venv/bin/python tools/observe_mindspore_optim.py

Runs only where the real ``mindspore`` is installed (npspore itself never imports it). For each case
it prints the Dense(3, 2)'s weight and bias after three updates from the fixed gradients: the
``OBSERVED`` tables of ``tests/test_optim.py`` and ``tests/test_optim_tail.py``.
"""
import json
import os
import sys

import mindspore as ms
from mindspore import Tensor, nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from optim_cases import B0, GRADS, W0, optimizers, tail_optimizers  # noqa: E402


def observe(factory):
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(W0))
    net.bias.set_data(Tensor(B0))
    optimizer = factory(net)
    for weight_grad, bias_grad in GRADS:
        optimizer((Tensor(weight_grad), Tensor(bias_grad)))
    return net.weight.asnumpy().tolist(), net.bias.asnumpy().tolist()


def main():
    print(f"# MindSpore {ms.__version__}")
    print(json.dumps({name: observe(factory) for name, factory in optimizers(nn, Tensor).items()}, indent=1))
    print("# tail_optimizers (tests/test_optim_tail.py)")
    print(json.dumps({name: observe(factory) for name, factory in tail_optimizers(nn).items()}, indent=1))


if __name__ == "__main__":
    main()
