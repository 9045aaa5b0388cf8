"""Print MindSpore 2.10's outputs for the gradient primitives of tests/test_grad_primitives.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_grad_primitives.py``. Each case calls one primitive of
``mindspore.ops.operations._grad_ops`` (which also holds the ``*Grad`` classes of
``mindspore.ops.auto_generate.gen_ops_prim``) on the inputs below, on the CPU; the printed ``repr`` of each
result (or of the error it raises) is pasted into ``tests/test_grad_primitives.py``'s ``MINDSPORE_VALUES``. The
inputs are ``tests/grad_primitive_cases.py``'s, which the tests read too.
"""
import ast
import os
import subprocess
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor
from mindspore.ops.auto_generate import gen_ops_prim
from mindspore.ops import operations as P
from mindspore.ops.operations import _grad_ops as G

ms.set_context(device_target="CPU")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from grad_primitive_cases import CASES, DELTA, OPTIMIZER_CASES, VAR  # noqa: E402 (after the path it lives on)


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


def _observe_optimizer(case):
    """The primitive's output and its Parameter after the update."""
    name, scalars = OPTIMIZER_CASES[case]
    var = ms.Parameter(Tensor(VAR), name="var")
    out = getattr(P, name)()(var, *[Tensor(value, ms.float32) for value in scalars], Tensor(DELTA))
    return _show(out), _show(var)


def main():
    """Print every case's result; a case that raised runs again alone in a new process, since MindSpore's
    eager kernels report a failed launch again at the next calls."""
    if len(sys.argv) > 1:
        print(repr(_observe(sys.argv[1])))
        return
    for case in CASES:
        result = _observe(case)
        if isinstance(result, str):
            alone = subprocess.run([sys.executable, __file__, case], capture_output=True, text=True, check=True)
            result = ast.literal_eval(alone.stdout.strip().splitlines()[-1])
        print(f"    {case!r}: {result!r},")
    for case in OPTIMIZER_CASES:
        print(f"    {case!r}: {_observe_optimizer(case)!r},")


if __name__ == "__main__":
    main()
