"""Print MindSpore 2.10's outputs (dtype, shape, values) or errors for the audio cases of tests/audio_cases.py (the
literals of tests/test_audio_transforms.py).

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_audio.py``.
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from audio_cases import CASES, S, X  # noqa: E402


def main():
    import mindspore.dataset.audio as audio
    from mindspore.dataset.audio import utils

    names = {"audio": audio, "utils": utils, "np": np, "X": X, "S": S}
    for key, expression in CASES:
        try:
            out = np.asarray(eval(expression, names))
            print(f"{key!r}: ({out.dtype.name!r}, {out.shape!r}, {out.ravel().tolist()!r}),")
        except Exception as error:  # recorded: the test names what MindSpore refused
            print(f"{key!r}: ({type(error).__name__!r}, {str(error).strip().splitlines()[0]!r}),")


if __name__ == "__main__":
    main()
