"""Print MindSpore 2.10's outputs and errors for the nn layers and losses of tests/test_nn_breadth_data_nn.py
(the literals there): each case is an expression over ``ms``, ``nn``, ``np`` and ``Tensor``, evaluated in
PyNative mode; the docstring examples of their 2.10 pages first, then further cases.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_nn_breadth.py``.
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from nn_breadth_cases import CASES  # noqa: E402


def main():
    import mindspore as ms
    from mindspore import Tensor, nn

    ms.set_context(mode=ms.PYNATIVE_MODE)
    names = {"ms": ms, "nn": nn, "np": np, "Tensor": Tensor}
    for key, expression in CASES:
        try:
            out = eval(expression, names)
            if isinstance(out, tuple):  # a shape
                print(f"{key!r}: {out!r},")
            else:
                print(f"{key!r}: ({out.asnumpy().tolist()!r}, {str(out.dtype)!r}),")
        except Exception as error:  # recorded: the test names what MindSpore refused
            print(f"{key!r}: ({type(error).__name__!r}, {str(error).strip().splitlines()[0]!r}),")


if __name__ == "__main__":
    np.set_printoptions(precision=8)
    main()
