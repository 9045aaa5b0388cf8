"""Record MindSpore 2.10's ``vision.Resize`` with ``Inter.BICUBIC`` and ``Inter.AREA`` for tests/test_resize_modes.py.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/make_resize_fixtures.py``.
The inputs are made again by the test from :func:`cases` (seeded), so only the outputs are stored, in
``tests/fixtures/images/resize_cubic_area_mindspore.npz`` under ``'<index>'``.
"""
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "images" / "resize_cubic_area_mindspore.npz"
SHAPES = ((7, 9, 3), (12, 10, 1), (5, 6, 3), (16, 16, 3), (9, 31, 2), (8, 8, 2), (6, 18, 1), (8, 12, 4))
SIZES = ((11, 13), (4, 5), (3, 3), (14, 7), (2, 17))


def cases():
    """``[(image, (height, width), mode name)]``: uint8 and float32 images of 1-4 channels, grown and shrunk by
    fractional and integer factors (every factor of 2 x 2 blocks, of 2 x 3 and 4 x 4 blocks)."""
    rng = np.random.default_rng(0)
    out = []
    for h, w, c in SHAPES:
        shape = (h, w, c) if c > 1 else (h, w)
        images = (rng.integers(0, 256, shape, dtype=np.uint8), (rng.standard_normal(shape) * 100).astype(np.float32))
        sizes = SIZES + ((h // 2, w // 2),) + (((h // 2, w // 3),) if w % 3 == 0 else ()) + \
            (((h // 4, w // 4),) if h % 4 == 0 and w % 4 == 0 else ())
        for image in images:
            for size in sizes:
                for mode in ("BICUBIC", "AREA"):
                    out.append((image, size, mode))
    return out


def main():
    import mindspore.dataset.vision as vision

    outputs = {str(i): vision.Resize(size, vision.Inter[mode])(image) for i, (image, size, mode) in enumerate(cases())}
    np.savez_compressed(OUT, **outputs)
    print(f"wrote {len(outputs)} outputs to {OUT}")


if __name__ == "__main__":
    main()
