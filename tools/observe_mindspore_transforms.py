"""Record what MindSpore prints for the examples of ``tests/transform_examples.py``.

    /path/to/mindspore-venv/bin/python tools/observe_mindspore_transforms.py

Runs only where the real ``mindspore`` is installed (npspore itself never imports it) and writes
``tests/golden/mindspore_transforms.json``: the standard output of each docstring example
(``jvp``, ``vjp``, ``jacfwd``, ``jacrev``, ``linearize``, ``derivative``, ``nn.Jvp``, ``nn.Vjp``),
and one line ``type: message`` per refused call of ``ERRORS``, with MindSpore's version.
"""
import contextlib
import io
import json
import os
import runpy
import sys
import tempfile

import mindspore

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from transform_examples import ERRORS, EXAMPLES, error_script  # noqa: E402


def printed(script: str) -> str:
    """What running ``script`` as a file prints (a file: compiled code reads its source)."""
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "example.py")
        with open(path, "w") as f:
            f.write(script)
        with contextlib.redirect_stdout(out):
            runpy.run_path(path, run_name="__example__")
    return out.getvalue()


def main():
    record = {"mindspore": mindspore.__version__,
              "examples": {name: printed(script) for name, script in EXAMPLES.items()}}
    lines = printed(error_script()).splitlines()
    record["errors"] = dict(zip(ERRORS, lines[-len(ERRORS):]))
    path = os.path.join(HERE, "..", "tests", "golden", "mindspore_transforms.json")
    with open(path, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
