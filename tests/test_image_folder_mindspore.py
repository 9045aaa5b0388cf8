"""``dataset.ImageFolderDataset`` against MindSpore 2.10: on the same folder (three class folders, one
empty; files of several endings) the real MindSpore 2.10.0 gave the class indexing, the rows (in order,
with shuffle=False), their dtypes and shapes, and the errors recorded here."""
import shutil
from pathlib import Path

import numpy as np
import pytest

import npspore.dataset as ds

IMAGES = Path(__file__).parent / "fixtures" / "images"


@pytest.fixture
def folder(tmp_path):
    for name in ("b_empty", "cats", "dogs"):
        (tmp_path / name).mkdir()
    shutil.copy(IMAGES / "noise.jpg", tmp_path / "cats" / "z.jpg")
    shutil.copy(IMAGES / "noise.png", tmp_path / "cats" / "a.PNG")
    shutil.copy(IMAGES / "noise.jpg", tmp_path / "dogs" / "m.jpeg")
    shutil.copy(IMAGES / "noise.jpg", tmp_path / "dogs" / "n.txt")
    (tmp_path / "dogs" / "readme.md").write_text("x\n")
    return str(tmp_path)


def rows(dataset):
    return [(r["image"].dtype.str, r["image"].shape, r["label"].dtype.str, int(r["label"]),
             int(r["image"].astype(int).sum())) for r in dataset.create_dict_iterator(output_numpy=True)]


def test_rows_and_classes_as_mindspore(folder):
    dataset = ds.ImageFolderDataset(folder, shuffle=False)
    assert dataset.get_col_names() == ["image", "label"]
    assert dataset.get_class_indexing() == {"b_empty": 0, "cats": 1, "dogs": 2}
    assert rows(dataset) == [("|u1", (218,), "<i4", 1, 23190), ("|u1", (721,), "<i4", 1, 62717),
                             ("|u1", (721,), "<i4", 2, 62717), ("|u1", (721,), "<i4", 2, 62717),
                             ("|u1", (2,), "<i4", 2, 130)]


def test_extensions_class_indexing_and_decode_as_mindspore(folder):
    chosen = ds.ImageFolderDataset(folder, shuffle=False, class_indexing={"dogs": 7, "cats": 3}, extensions=[".jpg"])
    assert [(label, shape) for _, shape, _, label, _ in rows(chosen)] == [(3, (721,))]
    decoded = ds.ImageFolderDataset(folder, shuffle=False, decode=True, extensions=[".jpg", ".PNG", ".jpeg"])
    assert [(label, shape) for _, shape, _, label, _ in rows(decoded)] == [(1, (6, 8, 3))] * 2 + [(2, (6, 8, 3))]
    first = next(decoded.create_dict_iterator(output_numpy=True))["image"]
    np.testing.assert_array_equal(first, (np.random.default_rng(0).random((6, 8, 3)) * 255).astype(np.uint8))
    assert ds.ImageFolderDataset(folder, shuffle=False, extensions=[".JPG"]).get_dataset_size() == 0


def test_errors_as_mindspore(folder, tmp_path):
    with pytest.raises(ValueError, match="The folder /nope does not exist or is not a directory or permission denied!"):
        ds.ImageFolderDataset("/nope")
    with pytest.raises(TypeError, match="Argument extensions with value jpg is not of type \\[<class 'list'>\\]"):
        ds.ImageFolderDataset(folder, extensions="jpg")
    (Path(folder) / "dogs" / "sub").mkdir()
    with pytest.raises(ValueError, match="Invalid file found: .*sub, should be file, but got directory."):
        ds.ImageFolderDataset(folder)
