"""Print MindSpore's results for the AdamW cases of ``tests/optim_cases.py``.

    /path/to/mindspore-venv/bin/python tools/observe_mindspore_adamw.py

MindSpore 2.10 has no ``nn.AdamW``; its AdamW is ``mindspore.experimental.optim.AdamW`` (the same
class as ``mindspore.mint.optim.AdamW``), which ``npspore.nn.AdamW`` follows. For each case the
tool prints the Dense(3, 2)'s weight and bias after three updates from the fixed gradients of
``tests/optim_cases.py``, the optimizer's result and the names of its state Parameters, then the
messages of the argument errors.
"""
import json
import os
import sys

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.experimental import optim

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from optim_cases import B0, GRADS, W0, adamw_optimizers  # noqa: E402

CASES = adamw_optimizers(optim.AdamW)
ERRORS = {"lr": {"lr": -1.0}, "eps": {"eps": -1.0}, "beta0": {"betas": (1.0, 0.9)}, "beta1": {"betas": (0.9, -0.1)},
          "weight_decay": {"weight_decay": -0.5}}


def observe(factory):
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(W0))
    net.bias.set_data(Tensor(B0))
    optimizer = factory(net)
    results = [optimizer((Tensor(weight_grad), Tensor(bias_grad))) for weight_grad, bias_grad in GRADS]
    states = sorted(p.name for p in optimizer.get_parameters() if p.name not in ("weight", "bias"))
    return {"weight": net.weight.asnumpy().tolist(), "bias": net.bias.asnumpy().tolist(),
            "result": repr(results[-1]), "states": states}


def error(kwargs):
    try:
        optim.AdamW(nn.Dense(3, 2).trainable_params(), **kwargs)
    except Exception as exc:  # noqa: BLE001 - the message is what we observe
        return f"{type(exc).__name__}: {exc}"
    return "no error"


def main():
    print(f"# MindSpore {ms.__version__}")
    print(json.dumps({name: observe(factory) for name, factory in CASES.items()}, indent=1))
    print(json.dumps({name: error(kwargs) for name, kwargs in ERRORS.items()}, indent=1))


if __name__ == "__main__":
    main()
