"""Print MindSpore 2.10's outputs for the ``ops.operations`` primitives M-Z of tests/test_primitives_m_z.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_primitives_m_z.py``. The cases are the data of ``tests/primitive_cases_m_z.py``
(docstring examples and one more case each); each printed line ``'name': (dtype, values),`` is pasted into
``tests/test_primitives_m_z.py``'s ``RECORDED``.
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor
from mindspore.ops import operations as P
from mindspore_cases import print_cases

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests"))
from primitive_cases_m_z import CASES, Const, Param  # noqa: E402


def _input(value):
    if isinstance(value, Param):
        return Parameter(Tensor(value.value), name=f"{value.name}{id(value)}")
    if isinstance(value, Const):
        return Tensor(value.value)
    if isinstance(value, tuple):
        return tuple(_input(part) for part in value)
    return Tensor(value) if isinstance(value, np.ndarray) else value


def _argument(value):
    """A dtype named by a string in the case data as MindSpore's."""
    return getattr(ms, value) if isinstance(value, str) and value.startswith(("int", "float")) else value


def _call(case):
    primitive, args, kwargs, inputs = case
    args = [_argument(value) for value in args]
    kwargs = {key: _argument(value) for key, value in kwargs.items()}
    return lambda: getattr(P, primitive)(*args, **kwargs)(*[_input(value) for value in inputs])


if __name__ == "__main__":
    print_cases([(name, _call(case)) for name, case in CASES.items()])
