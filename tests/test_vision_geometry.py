"""``vision.RandomRotation`` and ``vision.RandomAffine`` against MindSpore 2.10: ``tests/fixtures/images/
geometry_mindspore.npz`` holds MindSpore 2.10's outputs (its C++ kernels) for the cases of
``tools/make_vision_geometry_fixtures.py``, with fixed draws; random draws follow the pipeline seed."""
import sys
from pathlib import Path

import numpy as np
import pytest

import npspore.dataset as ds
import npspore.dataset.vision as vision
from npspore.dataset.vision import Inter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from make_vision_geometry_fixtures import CASES  # noqa: E402

FIXTURE = np.load(Path(__file__).parent / "fixtures" / "images" / "geometry_mindspore.npz")
IMAGE = FIXTURE["image"]
INPUTS = {"image": IMAGE, "gray": np.ascontiguousarray(IMAGE[..., 0])}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pixels_are_mindspores(name):
    text, source = CASES[name]
    out = eval(f"vision.{text}", {"vision": vision, "Inter": Inter})(INPUTS[source])
    assert out.dtype == np.uint8 and out.shape == FIXTURE[name].shape
    np.testing.assert_array_equal(out, FIXTURE[name])


def test_random_angles_follow_the_seed():
    data = ds.NumpySlicesDataset({"image": np.stack([IMAGE] * 5)}, shuffle=False)

    def rotated():
        ds.config.set_seed(7)
        pipeline = data.map(vision.RandomRotation(40, resample=Inter.BILINEAR))
        return np.stack([row[0] for row in pipeline.create_tuple_iterator(output_numpy=True)])

    first = rotated()
    np.testing.assert_array_equal(first, rotated())
    assert len({image.tobytes() for image in first}) == 5
    identity = vision.RandomAffine(0)(IMAGE)
    np.testing.assert_array_equal(identity, IMAGE)


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="degrees should be in \\(min,max\\) format"):
        vision.RandomRotation((30, 10))
    with pytest.raises(ValueError, match="Input degrees is not within the required interval"):
        vision.RandomRotation(-5)
    with pytest.raises(ValueError, match="npspore rotates with Inter.NEAREST or Inter.BILINEAR"):
        vision.RandomRotation(5, resample=Inter.BICUBIC)
    with pytest.raises(ValueError, match="translate should be 2 or 4 fractions in \\[-1, 1\\]"):
        vision.RandomAffine(5, translate=(2, 0))
    with pytest.raises(RuntimeError, match="RandomRotation: npspore supports uint8 images only, but got float32"):
        vision.RandomRotation(5)(IMAGE.astype(np.float32))
