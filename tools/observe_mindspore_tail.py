"""Print the values MindSpore 2.10 gives for the APIs the ``tail`` branch fixed or added (run it with the
MindSpore interpreter, /work/msvenv/bin/python); tests/test_tail_apis.py keeps them as literals."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops


def softplus_and_threshold() -> None:
    """``ops.threshold`` compares a Float64 input with a Python float in Float32; ``ops.softplus``'s threshold."""
    x = Tensor(np.full((3,), -1.0) + 1.1, ms.float64)
    print("threshold f64 boundary", ops.threshold(x, 0.1, 20.0).asnumpy().tolist())
    print("threshold docstring", ops.threshold(Tensor([0.3, 0.1, 0.4, 0.5, 0.2], ms.float32), 0.3, 20.0))
    y = Tensor(np.array([3.0, 0.5, -1.0, 1.0, 2.0]), ms.float32)
    print("softplus(1, 1)", ops.softplus(y, 1, 1).asnumpy().tolist())
    print("softplus(2, 2)", ops.softplus(y, 2, 2).asnumpy().tolist())
    print("grad softplus(2, 2)", ops.grad(lambda t: ops.softplus(t, 2, 2).sum())(y).asnumpy().tolist())


if __name__ == "__main__":
    softplus_and_threshold()
