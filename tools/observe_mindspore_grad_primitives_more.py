"""Print MindSpore 2.10's outputs for the gradient primitives of tests/test_grad_primitives_more.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_grad_primitives_more.py``. Each case of ``tests/grad_primitive_more_cases.py`` calls one
primitive of ``mindspore.ops.operations._grad_ops`` (or of ``mindspore.ops.auto_generate.gen_ops_prim``) on the CPU,
in its own process, as ``tools/observe_mindspore_grad_primitives_pools.py`` does; the printed ``repr`` of each result
(or of the error it raises) is pasted into the test's ``MINDSPORE_VALUES``.
"""
from observe_mindspore_grad_primitives_pools import main
from grad_primitive_more_cases import CASES  # noqa: E402 (on the tests path the observer puts first)

if __name__ == "__main__":
    main(CASES, __file__)
