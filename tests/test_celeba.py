"""``dataset.CelebADataset`` on a small CelebA folder written here, against MindSpore 2.10 CPU (which read the same
folder: rows in the attribute file's order, ``attr`` uint32 0/1 from -1/1, images as the files' bytes or decoded
RGB, ``usage`` from the partition file, and its messages)."""
import os

import numpy as np
import pytest

import npspore.dataset as ds

Image = pytest.importorskip("PIL.Image")
ATTRS = [[-1, 1, 1], [1, -1, -1], [1, 1, -1], [-1, -1, 1]]


@pytest.fixture
def celeba_dir(tmp_path):
    rng = np.random.default_rng(0)
    for i in range(1, 5):
        Image.fromarray((rng.random((4, 3, 3)) * 255).astype(np.uint8)).save(tmp_path / f"{i:06d}.jpg")
    lines = ["4", "5_o_Clock_Shadow Arched_Eyebrows Attractive"]
    lines += [f"{i:06d}.jpg " + " ".join(f"{v:2d}" for v in row) for i, row in enumerate(ATTRS, 1)]
    (tmp_path / "list_attr_celeba.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "list_eval_partition.txt").write_text(
        "\n".join(f"{i:06d}.jpg {p}" for i, p in zip(range(1, 5), [0, 1, 2, 0])) + "\n")
    return tmp_path


def _rows(dataset):
    return list(dataset.create_dict_iterator(output_numpy=True, num_epochs=1))


def test_rows_are_mindspores(celeba_dir):
    dataset = ds.CelebADataset(str(celeba_dir), shuffle=False)
    assert dataset.get_col_names() == ["image", "attr"] and dataset.get_dataset_size() == 4
    rows = _rows(dataset)
    # MindSpore 2.10
    assert [row["attr"].tolist() for row in rows] == [[0, 1, 1], [1, 0, 0], [1, 1, 0], [0, 0, 1]]
    assert all(row["attr"].dtype == np.uint32 and row["image"].dtype == np.uint8 for row in rows)
    assert rows[2]["image"].tobytes() == (celeba_dir / "000003.jpg").read_bytes()
    decoded = _rows(ds.CelebADataset(str(celeba_dir), shuffle=False, decode=True))
    assert decoded[0]["image"].shape == (4, 3, 3)
    np.testing.assert_array_equal(decoded[0]["image"], np.asarray(Image.open(celeba_dir / "000001.jpg")))
    assert [[r["attr"].tolist() for r in _rows(ds.CelebADataset(str(celeba_dir), shuffle=False, usage=usage))]
            for usage in ("train", "valid", "test")] == [[[0, 1, 1], [0, 0, 1]], [[1, 0, 0]], [[1, 1, 0]]]


def test_errors_are_mindspores(celeba_dir, tmp_path):
    with pytest.raises(ValueError, match="does not exist or is not a directory or permission denied!"):
        ds.CelebADataset(str(tmp_path / "nonexist"))
    with pytest.raises(ValueError, match="usage should be 'all', 'train', 'valid' or 'test'."):
        ds.CelebADataset(str(celeba_dir), usage="foo")
    os.remove(celeba_dir / "list_eval_partition.txt")
    assert ds.CelebADataset(str(celeba_dir), usage="all").get_dataset_size() == 4
    with pytest.raises(RuntimeError, match="Partition file can not be found when usage is not 'all'."):
        ds.CelebADataset(str(celeba_dir), usage="train")
