"""Print MindSpore 2.10's outputs for ``ops.full_like``, ``ops.size`` and ``ops.StopGradient``
(tests/test_fill_size.py).

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_fill_size.py``. Each case is a MindSpore docstring example or one more case; the
printed ``repr`` of each result (or the error's type and message) is pasted into the test's values.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops

def _stop_gradient_doc(x, y):
    out1 = ops.MatMul()(x, y)
    out2 = ops.StopGradient()(ops.MatMul()(x, y))
    return out1, out2


def _stop_gradient_product(x):
    return (ops.StopGradient()(x * x) * x).sum()


CASES = {
    "full_like_doc": lambda: ops.full_like(ops.arange(4), 1.2),
    "full_like_doc_dtype": lambda: ops.full_like(ops.arange(4), 1.2, dtype=ms.float32),
    "full_like_float_int": lambda: ops.full_like(Tensor(np.ones((2, 3), np.float32)), 7),
    "full_like_bool": lambda: ops.full_like(Tensor(np.ones((2,), np.float64)), True, dtype=ms.bool_),
    "full_like_negative_int32": lambda: ops.full_like(Tensor(np.ones((1, 2), np.int32)), -2.7),
    "full_like_not_tensor": lambda: ops.full_like([1, 2], 1.0),
    "size_doc": lambda: ops.size(Tensor(np.array([[2, 2], [2, 2]], np.float32))),
    "size_scalar_tensor": lambda: ops.size(Tensor(3.0)),
    "size_empty": lambda: ops.size(Tensor(np.ones((2, 0, 3), np.float32))),
    "size_not_tensor": lambda: ops.size([1, 2]),
    "stop_gradient_doc": lambda: ops.grad(_stop_gradient_doc)(
        Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], ms.float32),
        Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], ms.float32)),
    "stop_gradient_product": lambda: ops.grad(_stop_gradient_product)(Tensor(np.array([1.0, 2.0]))),
    "stop_gradient_value": lambda: ops.StopGradient()(Tensor(np.array([1.5, -2.0], np.float32))),
}


def main() -> None:
    """Print each case's repr (type and value for Python numbers) or its error."""
    for name, case in CASES.items():
        try:
            value = case()
            print(f"{name}: {type(value).__name__} {value!r}")
        except Exception as error:  # noqa: BLE001 - the error is the observation
            print(f"{name}: {type(error).__name__}: {str(error).splitlines()[0]}")


if __name__ == "__main__":
    main()
