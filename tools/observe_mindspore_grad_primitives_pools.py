"""Print MindSpore 2.10's outputs for the pooling, padding and resizing gradient primitives of
tests/test_grad_primitives_pools.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_grad_primitives_pools.py``. Each case of ``tests/grad_primitive_pool_cases.py`` calls one
primitive of ``mindspore.ops.operations._grad_ops`` (or of ``mindspore.ops.auto_generate.gen_ops_prim``) on the
CPU, in its own process (MindSpore's eager kernels report a failed launch again at the next calls); the printed
``repr`` of each result (or of the error it raises) is pasted into the test's ``MINDSPORE_VALUES``.
"""
import ast
import subprocess
import sys

import observe_mindspore_grad_primitives as observer   # its observing of one case, on this file's cases
from grad_primitive_pool_cases import CASES  # noqa: E402 (on the tests path the observer puts first)


def main(cases=CASES, script=__file__):
    """Print every case of ``cases`` (run by ``script``), each case run in its own process."""
    if len(sys.argv) > 1:
        observer.CASES = cases
        print(repr(observer._observe(sys.argv[1])))
        return
    for case in cases:
        alone = subprocess.run([sys.executable, script, case], capture_output=True, text=True, check=True)
        print(f"    {case!r}: {ast.literal_eval(alone.stdout.strip().splitlines()[-1])!r},")


if __name__ == "__main__":
    main()
