"""Print MindSpore 2.10's outputs for the pooling, padding and resizing gradient primitives of
tests/test_grad_primitives_pools.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_grad_primitives_pools.py``. Each case of ``tests/grad_primitive_pool_cases.py`` calls one
primitive of ``mindspore.ops.operations._grad_ops`` (or of ``mindspore.ops.auto_generate.gen_ops_prim``) on the
CPU, in its own process (MindSpore's eager kernels report a failed launch again at the next calls); the printed
``repr`` of each result (or of the error it raises) is pasted into the test's ``MINDSPORE_VALUES``.
"""
import ast
import os
import subprocess
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor
from mindspore.ops.auto_generate import gen_ops_prim
from mindspore.ops.operations import _grad_ops as G

ms.set_context(device_target="CPU")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from grad_primitive_pool_cases import CASES  # noqa: E402 (after the path it lives on)


def _t(value):
    return Tensor(value) if isinstance(value, np.ndarray) else value


def _show(value):
    if isinstance(value, (tuple, list)):
        return tuple(_show(item) for item in value)
    return value.asnumpy().tolist() if hasattr(value, "asnumpy") else value


def _observe(case):
    name, keywords, inputs = CASES[case]
    try:
        primitive = getattr(G, name) if hasattr(G, name) else getattr(gen_ops_prim, name)
        return _show(primitive(**keywords)(*[_t(item) for item in inputs]))
    except Exception as error:  # the error is the recorded behaviour
        return f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"


def main():
    """Print every case's result, each case run in its own process."""
    if len(sys.argv) > 1:
        print(repr(_observe(sys.argv[1])))
        return
    for case in CASES:
        alone = subprocess.run([sys.executable, __file__, case], capture_output=True, text=True, check=True)
        print(f"    {case!r}: {ast.literal_eval(alone.stdout.strip().splitlines()[-1])!r},")


if __name__ == "__main__":
    main()
