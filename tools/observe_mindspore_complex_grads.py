"""Print MindSpore 2.10's gradients of complex-valued programs, for tests/test_complex_grads.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_complex_grads.py > tests/golden/mindspore_complex_grads.json``. Each case of
``tests/complex_grad_cases.py`` (``ms.grad`` of mul, matmul, div, exp, abs, real, angle, ``ops.Complex`` ...,
``value_and_grad``, ``GradOperation`` with a sens, a complex ``nn.Dense`` and its ``TrainOneStepCell``s) runs in
PYNATIVE and GRAPH mode, in complex64 and complex128, on the CPU; the JSON holds what each returned (complex
values as ``[real, imag]`` pairs) or the first line of the error it raised. What MindSpore 2.10 showed: its
gradients are ``dout * conj(f'(z))`` per op, so for a real loss ``L`` the gradient is ``dL/dRe + i dL/dIm``;
``Div`` conjugates its whole cotangent, ``conj(dout / w)``; ``Mul``, ``Pow``, ``Square`` and ``ReduceMean``
(``MeanExt``) refuse complex gradients with a TypeError; its SGD, Momentum and Adam refuse complex Parameters.
"""
import json
import os
import subprocess
import sys

import mindspore as ms

ms.set_context(device_target="CPU")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from complex_grad_cases import CASES, DTYPES, MODES, OTHER_CASES, observe  # noqa: E402 (after the path it lives on)


def main():
    """Print the JSON of every case; a case that raised runs again alone in a new process, since MindSpore's
    eager kernels report a failed launch again at the next calls."""
    if len(sys.argv) > 1:
        print(json.dumps(observe(*sys.argv[1:])))
        return
    results: dict = {"mindspore": ms.__version__, "cases": {}}
    for case in (*CASES, *OTHER_CASES):
        for mode in MODES:
            for dtype in DTYPES:
                result = observe(case, mode, dtype)
                if isinstance(result, str):
                    alone = subprocess.run([sys.executable, __file__, case, mode, dtype], capture_output=True,
                                           text=True, check=True)
                    result = json.loads(alone.stdout.strip().splitlines()[-1])
                results["cases"].setdefault(case, {}).setdefault(mode, {})[dtype] = result
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
