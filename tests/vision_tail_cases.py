"""The inputs of tests/test_vision_tail.py, shared with ``tools/observe_mindspore_vision_tail.py``: small PNG files
and ``RandomErasing`` arguments MindSpore 2.10 refuses."""
from pathlib import Path

import numpy as np

ERASING_ARGUMENTS = [{"prob": 1.5}, {"prob": "a"}, {"scale": (0.5, 0.1)}, {"scale": (0.1,)}, {"ratio": (2.0, 1.0)},
                     {"value": 300}, {"value": (1, 2)}, {"value": "x"}, {"max_attempts": 0}, {"inplace": 1}]


def write_images(folder: Path) -> list:
    """Write an RGB, a gray and an RGBA PNG (2 x 4 pixels) into ``folder``; their names."""
    from PIL import Image
    Image.fromarray(np.arange(24, dtype=np.uint8).reshape(2, 4, 3)).save(folder / "rgb.png")
    Image.fromarray(np.arange(8, dtype=np.uint8).reshape(2, 4) * 30).save(folder / "gray.png")
    Image.fromarray(np.arange(32, dtype=np.uint8).reshape(2, 4, 4) * 7, "RGBA").save(folder / "rgba.png")
    return ["rgb.png", "gray.png", "rgba.png"]
