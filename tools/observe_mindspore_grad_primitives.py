"""Print MindSpore 2.10's outputs for the gradient primitives of tests/test_grad_primitives.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_grad_primitives.py``. Each case calls one primitive of
``mindspore.ops.operations._grad_ops`` (which also holds the ``*Grad`` classes of
``mindspore.ops.auto_generate.gen_ops_prim``) on the inputs below, on the CPU; the printed ``repr`` of each
result (or of the error it raises) is pasted into ``tests/test_grad_primitives.py``'s ``MINDSPORE_VALUES``.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor
from mindspore.ops.operations import _grad_ops as G

ms.set_context(device_target="CPU")

# one array of forward outputs (inside every activation's range) and one of incoming gradients
Y = np.array([[0.25, 0.5, 0.75], [0.1, 0.6, 0.9]], np.float32)
X = np.array([[-1.5, -0.25, 0.0], [0.5, 2.0, 7.0]], np.float32)
DY = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]], np.float32)
ONES = np.ones((2, 3), np.float32)
KINKS = np.array([[-1.0, 0.0, 3.0], [6.0, 7.0, 6.5]], np.float32)   # ReLU6's


def _t(array):
    return Tensor(array)


# case -> (primitive class name, constructor keywords, inputs)
CASES = {
    "SigmoidGrad": ("SigmoidGrad", {}, (Y, DY)),
    "TanhGrad": ("TanhGrad", {}, (Y, DY)),
    "SqrtGrad": ("SqrtGrad", {}, (Y, DY)),
    "RsqrtGrad": ("RsqrtGrad", {}, (Y, DY)),
    "ReciprocalGrad": ("ReciprocalGrad", {}, (Y, DY)),
    "InvGrad": ("InvGrad", {}, (Y, DY)),
    "ReluGrad": ("ReluGrad", {}, (DY, X)),
    "AcoshGrad": ("AcoshGrad", {}, (Y, DY)),
    "AsinhGrad": ("AsinhGrad", {}, (Y, DY)),
    "EluGrad": ("EluGrad", {}, (DY, X)),
    "SeluGrad": ("SeluGrad", {}, (DY, X)),
    "AbsGrad": ("AbsGrad", {}, (X, DY)),
    "ACosGrad": ("ACosGrad", {}, (Y, DY)),
    "AsinGrad": ("AsinGrad", {}, (Y, DY)),
    "AtanGrad": ("AtanGrad", {}, (X, DY)),
    "ReLU6Grad": ("ReLU6Grad", {}, (DY, X)),
    "ReLU6Grad_kinks": ("ReLU6Grad", {}, (ONES, KINKS)),
    "SoftplusGrad": ("SoftplusGrad", {}, (DY, X)),
    "FastGeLUGrad": ("FastGeLUGrad", {}, (DY, X)),
    "HSigmoidGrad": ("HSigmoidGrad", {}, (DY, X)),
    "HSwishGrad": ("HSwishGrad", {}, (DY, X)),
    "SiLUGrad": ("SiLUGrad", {}, (DY, X)),
    "HShrinkGrad": ("HShrinkGrad", {}, (DY, X)),
    "HShrinkGrad_lambd": ("HShrinkGrad", {"lambd": 1.8}, (DY, X)),
    "SoftShrinkGrad": ("SoftShrinkGrad", {}, (DY, X)),
    "SoftShrinkGrad_lambd": ("SoftShrinkGrad", {"lambd": 1.8}, (DY, X)),
    "LogitGrad": ("LogitGrad", {}, (DY, Y)),
    "LogitGrad_eps": ("LogitGrad", {"eps": 0.2}, (DY, Y)),
}


def _show(value):
    if isinstance(value, (tuple, list)):
        return tuple(_show(item) for item in value)
    return value.asnumpy().tolist() if hasattr(value, "asnumpy") else value


def main():
    for case, (name, keywords, inputs) in CASES.items():
        try:
            result = _show(getattr(G, name)(**keywords)(*[_t(item) for item in inputs]))
        except Exception as error:  # the error is the recorded behaviour
            result = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
        print(f"    {case!r}: {result!r},")


if __name__ == "__main__":
    main()
