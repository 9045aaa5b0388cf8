"""Print MindSpore 2.10's ``vision.read_image`` arrays for the PNG files of tests/test_vision_tail.py (an RGB, a
gray and an RGBA image written with Pillow) in each ``ImageReadMode``, ``vision.RandomErasing``'s errors for the
bad arguments of that test, and the outputs of its deterministic transform cases (the literals there).

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_vision_tail.py``.
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from vision_tail_cases import ERASING_ARGUMENTS, IMG, TRANSFORM_CASES, write_images  # noqa: E402


def _summary(out):
    if isinstance(out, (tuple, list)):
        return "[" + ", ".join(_summary(v) for v in out) + "]"
    return repr((out.dtype.name, out.shape, out.ravel().tolist()))


def main():
    import mindspore.dataset.vision as vision
    import mindspore.dataset.vision.py_transforms_util as util
    import numpy as np
    from PIL import Image

    with tempfile.TemporaryDirectory() as root:
        for name in write_images(Path(root)):
            for mode in vision.ImageReadMode:
                out = vision.read_image(str(Path(root) / name), mode)
                print(f"({name!r}, {mode.value}): ({out.shape!r}, {out.ravel().tolist()!r}),")
    for arguments in ERASING_ARGUMENTS:
        try:
            vision.RandomErasing(**arguments)
            print(f"{arguments!r}: None,")
        except (TypeError, ValueError) as error:
            print(f"{arguments!r}: ({type(error).__name__!r}, {str(error).splitlines()[0]!r}),")

    names = {"vision": vision, "util": util, "Image": Image, "np": np, "IMG": IMG}
    for key, expression in TRANSFORM_CASES:
        try:
            print(f"{key!r}: {_summary(eval(expression, names))},")
        except Exception as error:  # recorded: the test names what MindSpore refused
            print(f"{key!r}: ({type(error).__name__!r}, {str(error).splitlines()[0]!r}),")


if __name__ == "__main__":
    main()
