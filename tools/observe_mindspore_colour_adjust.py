"""Record MindSpore 2.10's RandomColorAdjust outputs for tests/fixtures/mindspore_colour_adjust.npz.

Run with a MindSpore virtualenv's interpreter (the project never imports MindSpore):
    /path/to/mindspore-venv/bin/python tools/observe_mindspore_colour_adjust.py tests/fixtures/mindspore_colour_adjust.npz
Each adjustment has one fixed factor (a (v, v) range), so its output does not depend on MindSpore's random order.
"""
import sys

import numpy as np

CASES = {"b15": {"brightness": (1.5, 1.5)}, "b07": {"brightness": (0.7, 0.7)}, "c05": {"contrast": (0.5, 0.5)},
         "c19": {"contrast": (1.9, 1.9)}, "s05": {"saturation": (0.5, 0.5)}, "s20": {"saturation": (2.0, 2.0)},
         "h02": {"hue": (0.2, 0.2)}, "hm03": {"hue": (-0.3, -0.3)}}


def main(path: str) -> None:
    import mindspore.dataset.vision as vision
    image = np.random.default_rng(0).integers(0, 256, (16, 20, 3), dtype=np.uint8)
    np.savez(path, img=image, **{name: vision.RandomColorAdjust(**kwargs)(image) for name, kwargs in CASES.items()})


if __name__ == "__main__":
    main(sys.argv[1])
