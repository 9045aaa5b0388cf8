"""Print MindSpore 2.10's outputs and errors for the ops functional, mint and nn cases of
tests/test_data_nn_fn_breadth.py (the literals there): each case of ``tests/data_nn_fn_cases.py`` is an
expression over ``ms``, ``ops``, ``nn``, ``mint``, ``F``, ``nn_func``, ``pyboost``, ``np`` and ``Tensor``, evaluated in PyNative mode; the
docstring examples of their 2.10 pages first, then further cases.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_data_nn_fn.py``.
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from data_nn_fn_cases import CASES  # noqa: E402


def _printable(out):
    if isinstance(out, tuple) and all(isinstance(v, int) for v in out):  # a shape
        return repr(out)
    if isinstance(out, (tuple, list)):
        return "[" + ", ".join(_printable(v) for v in out) + "]"
    return f"({out.asnumpy().tolist()!r}, {str(out.dtype)!r})"


def main():
    import mindspore as ms
    from mindspore import Tensor, mint, nn, ops
    from mindspore.ops import functional as F
    from mindspore.ops.auto_generate import pyboost_inner_prim as pyboost
    from mindspore.ops.function import nn_func

    ms.set_context(mode=ms.PYNATIVE_MODE)
    names = {"ms": ms, "nn": nn, "np": np, "Tensor": Tensor, "ops": ops, "mint": mint, "F": F,
             "nn_func": nn_func, "pyboost": pyboost}
    for key, expression in CASES:
        try:
            print(f"{key!r}: {_printable(eval(expression, names))},")
        except Exception as error:  # recorded: the test names what MindSpore refused
            print(f"{key!r}: ({type(error).__name__!r}, {str(error).strip().splitlines()[0]!r}),")


if __name__ == "__main__":
    main()
