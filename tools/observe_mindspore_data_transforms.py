"""Print MindSpore 2.10's outputs (dtype, shape, values) or errors for the cases of
tests/data_transform_tail_cases.py (the literals of tests/test_data_transform_tail.py).

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_data_transforms.py``.
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from data_transform_tail_cases import CASES  # noqa: E402


def _printable(out):
    if isinstance(out, (tuple, list)):
        return "[" + ", ".join(_printable(v) for v in out) + "]"
    out = np.asarray(out)
    return repr((out.dtype.kind if out.dtype.kind in "USO" else out.dtype.name, out.shape, out.ravel().tolist()))


def main():
    import mindspore as ms
    import mindspore.dataset.text as text
    import mindspore.dataset.transforms as T

    names = {"ms": ms, "T": T, "text": text, "np": np}
    for key, expression in CASES:
        try:
            print(f"{key!r}: {_printable(eval(expression, names))},")
        except Exception as error:  # recorded: the test names what MindSpore refused
            print(f"{key!r}: ({type(error).__name__!r}, {str(error).strip().splitlines()[0][:200]!r}),")


if __name__ == "__main__":
    main()
