"""A small Pascal VOC tree for tests/test_voc_dataset.py, shared with ``tools/observe_mindspore_voc.py``: two
images with segmentation masks and XML annotations (one object difficult, one truncated, a float coordinate)."""
from pathlib import Path

import numpy as np

_OBJECT = ("<object><name>{name}</name><pose>Unspecified</pose><truncated>{truncated}</truncated>"
           "<difficult>{difficult}</difficult><bndbox><xmin>{box[0]}</xmin><ymin>{box[1]}</ymin>"
           "<xmax>{box[2]}</xmax><ymax>{box[3]}</ymax></bndbox></object>")
CASES = [
    ("segmentation", {"task": "Segmentation", "usage": "train"}),
    ("segmentation_decoded", {"task": "Segmentation", "usage": "val", "decode": True}),
    ("detection", {"task": "Detection", "usage": "train"}),
    ("detection_indexing", {"task": "Detection", "usage": "train", "class_indexing": {"cat": 0, "dog": 1,
                                                                                      "person": 2}}),
    ("detection_extra", {"task": "Detection", "usage": "val", "extra_metadata": True}),
    ("bad_task", {"task": "Classification"}),
    ("bad_usage", {"task": "Detection", "usage": "test"}),
    ("indexing_with_segmentation", {"task": "Segmentation", "class_indexing": {"cat": 0}}),
]


def column_summary(array):
    """A column as the tests compare it: an encoded image as its length, else dtype, shape, first values."""
    if array.dtype.kind == "u" and array.ndim == 1 and array.dtype.itemsize == 1:
        return ("encoded", int(array.size))
    return (array.dtype.name, array.shape, array.ravel().tolist()[:12])


ANNOTATIONS = {
    "2007_000001": [("dog", 0, 0, (1, 2, 5, 6)), ("person", 1, 0, (1, 1, 3.5, 4.75))],
    "2007_000002": [("cat", 0, 1, (2, 1, 7, 5))],
}


def write_voc(root: Path) -> Path:
    """Write the tree below ``root``; its path."""
    from PIL import Image
    voc = root / "VOC2012"
    for folder in ("JPEGImages", "SegmentationClass", "Annotations", "ImageSets/Segmentation", "ImageSets/Main"):
        (voc / folder).mkdir(parents=True, exist_ok=True)
    for number, (name, objects) in enumerate(ANNOTATIONS.items()):
        pixels = (np.arange(8 * 6 * 3).reshape(6, 8, 3) * (number + 3) % 256).astype(np.uint8)
        Image.fromarray(pixels).save(voc / "JPEGImages" / f"{name}.jpg", quality=95)
        Image.fromarray((np.arange(48).reshape(6, 8) % (number + 2)).astype(np.uint8)).save(
            voc / "SegmentationClass" / f"{name}.png")
        body = "".join(_OBJECT.format(name=o[0], difficult=o[1], truncated=o[2], box=o[3]) for o in objects)
        (voc / "Annotations" / f"{name}.xml").write_text(
            f"<annotation><filename>{name}.jpg</filename><size><width>8</width><height>6</height><depth>3</depth>"
            f"</size>{body}</annotation>", encoding="utf-8")
    for task in ("Segmentation", "Main"):
        (voc / "ImageSets" / task / "train.txt").write_text("2007_000001\n2007_000002\n", encoding="utf-8")
        (voc / "ImageSets" / task / "val.txt").write_text("2007_000002\n", encoding="utf-8")
    return voc
