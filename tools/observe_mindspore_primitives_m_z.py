"""Print MindSpore 2.10's outputs for the ``ops.operations`` primitives M-Z of tests/test_primitives_m_z.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_primitives_m_z.py``. The cases are the data of ``tests/primitive_cases_m_z.py``
(docstring examples and one more case each); each printed line ``'name': (dtype, values),`` is pasted into
``tests/test_primitives_m_z.py``'s ``RECORDED``.
"""
import os
import sys

import mindspore as ms
import mindspore.ops.operations  # noqa: F401  (build_primitive reads ms.ops.operations)
from mindspore_cases import print_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests"))
from primitive_cases_m_z import CASES, build_input, build_primitive  # noqa: E402


def _call(case):
    return lambda: build_primitive(case, ms)(*[build_input(value, ms, str(id(value))) for value in case[3]])


if __name__ == "__main__":
    print_cases([(name, _call(case)) for name, case in CASES.items()])
