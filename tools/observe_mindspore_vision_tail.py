"""Print MindSpore 2.10's ``vision.read_image`` arrays for the PNG files of tests/test_vision_tail.py (an RGB, a
gray and an RGBA image written with Pillow) in each ``ImageReadMode``, and ``vision.RandomErasing``'s errors for the
bad arguments of that test (the literals there).

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_vision_tail.py``.
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from vision_tail_cases import ERASING_ARGUMENTS, write_images  # noqa: E402


def main():
    import mindspore.dataset.vision as vision

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


if __name__ == "__main__":
    main()
