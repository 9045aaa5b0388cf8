"""Print MindSpore 2.10's outputs for the linear-algebra APIs of tests/test_linalg2.py (the linalg2 family).

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_linalg2.py``. The cases are the data of ``tests/linalg2_cases.py``; each printed line
``'name': (dtype, values),`` is pasted into ``tests/test_linalg2.py``'s ``RECORDED``.
"""
import os
import sys

import mindspore as ms
import mindspore.ops.operations  # noqa: F401  (build_call reads ms.ops.operations)
from mindspore_cases import print_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests"))
from linalg2_cases import CASES, build_call, tensor_of  # noqa: E402


def _call(case):
    return lambda: build_call(case, ms)(*[tensor_of(value, ms) for value in case[4]])


if __name__ == "__main__":
    print_cases([(name, _call(case)) for name, case in CASES.items()])
