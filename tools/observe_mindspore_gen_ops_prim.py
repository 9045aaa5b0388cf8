"""Print MindSpore 2.10's outputs for the ``ops.auto_generate.gen_ops_prim`` primitives of tests/test_gen_ops_prim.py
(the cases of ``tests/gen_ops_prim_cases.py``), as the ``RECORDED`` literals there.

A case whose primitive MindSpore 2.10's CPU has no kernel for prints the value of its ``reference`` (the ``mint``
function or Tensor method MindSpore documents it as, which CPU MindSpore runs), marked ``# reference``.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_gen_ops_prim.py [case ...]``.
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import gen_ops_prim_cases  # noqa: E402
from gen_ops_prim_cases import CASES, arrays  # noqa: E402


# MindSpore 2.10 CPU's LayerNormExt ends the process (segmentation fault) over two normalized dimensions
CRASHES_MINDSPORE = {"LayerNormExt_two_dims"}


def _function(parameters, body, names):
    """``lambda parameters: body`` over ``names`` (in a named module: MindSpore's ``grad`` reads ``__module__``)."""
    return eval(f"lambda {parameters}: {body}", {"__name__": "gen_ops_prim_cases", **names})


def main(selected):
    import mindspore as ms
    from mindspore import Tensor, mint
    from mindspore.ops.auto_generate import gen_ops_prim as G
    from mindspore_cases import describe

    ms.set_context(pynative_synchronize=True)
    names = {**{name: value for name, value in vars(gen_ops_prim_cases).items() if isinstance(value, np.ndarray)},
             "G": G, "mint": mint, "ms": ms, "np": np}
    for key, call, inputs, reference in CASES:
        if selected and key not in selected:
            continue
        parameters = ", ".join("abcdefgh"[:len(inputs)])
        marker = ""
        try:
            if key in CRASHES_MINDSPORE:
                raise RuntimeError(f"{key}: the primitive crashes MindSpore 2.10 CPU")
            out = describe(_function(parameters, call, names)(*[Tensor(a) for a in arrays(inputs)]))
        except Exception as error:  # noqa: BLE001  (no CPU kernel: the documented equivalent's value)
            if reference is None:
                out = f"ERROR {type(error).__name__}: {str(error).splitlines()[0][:160]}"
            else:
                marker = "  # reference"
                try:
                    out = describe(_function(parameters, reference, names)(*[Tensor(a) for a in arrays(inputs)]))
                except Exception as second:  # noqa: BLE001
                    out = f"ERROR {type(second).__name__}: {str(second).splitlines()[0][:160]}"
        print(f"    {key!r}: {out},{marker}", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main(set(sys.argv[1:]))
