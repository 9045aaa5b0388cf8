"""Printing the cases of a ``tools/observe_mindspore_*.py`` script: each result as ``'name': (dtype, values),``
(a list of them for a tuple result), or the error MindSpore raised. Run under the real MindSpore only."""
import mindspore as ms
from mindspore import Tensor


def print_cases(cases) -> None:
    """Run each case of the ``name -> call`` pairs ``cases`` and print its result, synchronously (so a kernel
    CPU MindSpore lacks fails its own case, not a later one)."""
    ms.set_context(pynative_synchronize=True)
    for name, case in cases:
        try:
            text = describe(case())
        except Exception as error:  # noqa: BLE001  (the error is the observation)
            text = f"ERROR {type(error).__name__}: {str(error).splitlines()[0][:160]}"
        print(f"{name!r}: {text},")


def describe(out) -> str:
    """``out`` as the tests' literals spell it: ``(dtype, values)``, a list of them, or its ``repr``."""
    if isinstance(out, (tuple, list)):
        return "[" + ", ".join(describe(o) for o in out) + "]"
    if isinstance(out, Tensor):
        return f"({str(out.dtype)!r}, {out.asnumpy().tolist()!r})"
    return repr(out)
