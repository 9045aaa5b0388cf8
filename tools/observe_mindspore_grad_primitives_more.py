"""Print MindSpore 2.10's outputs for the gradient primitives of tests/test_grad_primitives_more.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_grad_primitives_more.py``. Each case of ``tests/grad_primitive_more_cases.py`` calls one
primitive of ``mindspore.ops.operations._grad_ops`` on the CPU, in its own process (MindSpore's eager kernels report
a failed launch again at the next calls); the printed ``repr`` of each result (or of the error it raises) is pasted
into the test's ``MINDSPORE_VALUES``.
"""
import ast
import subprocess
import sys

import observe_mindspore_grad_primitives as observer   # its observing of one case, on this file's cases
from grad_primitive_more_cases import CASES  # noqa: E402 (on the tests path the observer puts first)


def main():
    """Print every case's result, each case run in its own process."""
    if len(sys.argv) > 1:
        observer.CASES = CASES
        print(repr(observer._observe(sys.argv[1])))
        return
    for case in CASES:
        alone = subprocess.run([sys.executable, __file__, case], capture_output=True, text=True, check=True)
        print(f"    {case!r}: {ast.literal_eval(alone.stdout.strip().splitlines()[-1])!r},")


if __name__ == "__main__":
    main()
