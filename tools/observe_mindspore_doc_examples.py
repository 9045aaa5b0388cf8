"""Print MindSpore 2.10's results for the cases of tests/doc_example_cases.py (calls of MindSpore's API
documentation examples where npspore differed).

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_doc_examples.py``; each printed line ``'name': (dtype, values),`` is pasted into
``tests/test_doc_example_fixes.py``'s ``RECORDED``.
"""
import os
import sys

import mindspore as ms
import mindspore.numpy  # noqa: F401  (the cases read ms.numpy)
from mindspore_cases import print_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests"))
from doc_example_cases import CASES  # noqa: E402


if __name__ == "__main__":
    print_cases([(name, (lambda case=case: case(ms))) for name, case in CASES.items()])
