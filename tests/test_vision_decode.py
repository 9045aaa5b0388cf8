"""``vision.Decode`` and ``vision.ToPIL`` against MindSpore 2.10.

``tests/fixtures/images/noise_jpg_mindspore.npy`` holds the pixels the real MindSpore 2.10.0 decoded from
``noise.jpg`` (``tools/make_vision_fixtures.py``); ``noise.png`` is the lossless image it was encoded from.
The shapes, modes and errors are those MindSpore 2.10 gave for the same calls (its ``Decode`` docstring
example: an image decoded from ``np.fromfile`` is (H, W, 3) uint8).
"""
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import npspore.dataset as ds
import npspore.dataset.vision as vision
from npspore.mindrecord import FileWriter

IMAGES = Path(__file__).parent / "fixtures" / "images"
NOISE = (np.random.default_rng(0).random((6, 8, 3)) * 255).astype(np.uint8)


def test_decode_gives_mindspores_pixels():
    jpeg = vision.Decode()(np.fromfile(IMAGES / "noise.jpg", np.uint8))
    assert jpeg.dtype == np.uint8 and jpeg.shape == (6, 8, 3)
    np.testing.assert_array_equal(jpeg, np.load(IMAGES / "noise_jpg_mindspore.npy"))
    np.testing.assert_array_equal(vision.Decode()(np.fromfile(IMAGES / "noise.png", np.uint8)), NOISE)


def test_decode_of_gray_and_rgba_gives_rgb_and_to_pil_gives_images(tmp_path):
    for mode, array in (("L", NOISE[:, :, 0]), ("RGBA", np.dstack([NOISE, NOISE[:, :, :1]]))):
        path = tmp_path / f"{mode}.png"
        Image.fromarray(array).save(path)
        assert vision.Decode()(np.fromfile(path, np.uint8)).shape == (6, 8, 3)
    image = vision.Decode(to_pil=True)((IMAGES / "noise.png").read_bytes())
    assert (type(image).__name__, image.mode, image.size) == ("Image", "RGB", (8, 6))
    assert vision.ToPIL()(NOISE).mode == "RGB" and vision.ToPIL()(NOISE[:, :, 0]).mode == "L"
    np.testing.assert_array_equal(np.asarray(vision.ToPIL()(NOISE)), NOISE)


def test_decode_errors_as_mindspore():
    with pytest.raises(RuntimeError, match="Decode: image decode failed"):
        vision.Decode()(np.frombuffer(b"notanimage", np.uint8))
    with pytest.raises(TypeError, match="The number of array dimensions of the encoded image should be 1, but got 2."):
        vision.Decode()(np.ones((2, 2), np.uint8))
    with pytest.raises(TypeError, match="The input image type float32 is not supported"):
        vision.ToPIL()(NOISE.astype(np.float32))


def test_images_stored_in_mindrecord_decode_in_a_pipeline(tmp_path):
    writer = FileWriter(str(tmp_path / "images.mindrecord"))
    writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}})
    writer.write_raw_data([{"image": (IMAGES / name).read_bytes(), "label": i}
                           for i, name in enumerate(["noise.png", "noise.jpg"])])
    writer.commit()
    dataset = ds.MindDataset(str(tmp_path / "images.mindrecord"), shuffle=False)
    dataset = dataset.map([vision.Decode(), vision.ToPIL(), vision.ToTensor()], input_columns=["image"])
    images = [row["image"] for row in dataset.create_dict_iterator(output_numpy=True)]
    assert [i.shape for i in images] == [(3, 6, 8), (3, 6, 8)]
    np.testing.assert_allclose(images[0], NOISE.transpose(2, 0, 1) / 255, atol=1e-6)
