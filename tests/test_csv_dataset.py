"""``dataset.CSVDataset`` on small CSV files written here, against MindSpore 2.10 CPU reading the same files with
one parallel worker: 0-d str columns by default, int32/float32 ones from ``column_defaults`` (``"2.5"`` as an int
is 2; an empty numeric field is its error), headers, ``column_names``, quoted fields, shards and samples."""
import numpy as np
import pytest

import npspore.dataset as ds


@pytest.fixture
def files(tmp_path):
    (tmp_path / "f1.csv").write_text("a,b,c\n1,2.5,x\n3,4.5,y\n5,,z\n")
    (tmp_path / "f2.csv").write_text('a,b,c\n7,8.5,"q,r"\n')
    (tmp_path / "g.csv").write_text("a,b,c\n1,2.5,x\n3,4.5,\n")
    return tmp_path


def _rows(dataset):
    return [{name: (value.tolist(), value.dtype.str) for name, value in row.items()}
            for row in dataset.create_dict_iterator(output_numpy=True, num_epochs=1)]


def test_rows_are_mindspores(files):
    both = [str(files / "f1.csv"), str(files / "f2.csv")]
    dataset = ds.CSVDataset(both, shuffle=False)
    assert dataset.get_col_names() == ["a", "b", "c"] and dataset.get_dataset_size() == 4
    # MindSpore 2.10
    assert _rows(dataset) == [{"a": ("1", "<U1"), "b": ("2.5", "<U3"), "c": ("x", "<U1")},
                              {"a": ("3", "<U1"), "b": ("4.5", "<U3"), "c": ("y", "<U1")},
                              {"a": ("5", "<U1"), "b": ("", "<U1"), "c": ("z", "<U1")},
                              {"a": ("7", "<U1"), "b": ("8.5", "<U3"), "c": ("q,r", "<U3")}]
    named = _rows(ds.CSVDataset(both[:1], column_names=["x", "y", "z"], shuffle=False))
    assert named[0] == {"x": ("a", "<U1"), "y": ("b", "<U1"), "z": ("c", "<U1")} and len(named) == 4
    assert [row["a"][0] for row in _rows(ds.CSVDataset(both, num_shards=2, shard_id=1, shuffle=False))] == ["5", "7"]
    assert [row["a"][0] for row in _rows(ds.CSVDataset(both, num_samples=2, shuffle=False))] == ["1", "3"]


def test_column_defaults_give_types_as_mindspore(files):
    g = [str(files / "g.csv")]
    assert _rows(ds.CSVDataset(g, column_defaults=[0, 0.0, "dflt"], shuffle=False)) == [
        {"a": (1, "<i4"), "b": (2.5, "<f4"), "c": ("x", "<U1")}, {"a": (3, "<i4"), "b": (4.5, "<f4"), "c": ("", "<U1")}]
    assert _rows(ds.CSVDataset(g, column_defaults=[0.0, 1, "dflt"], shuffle=False))[0] == {
        "a": (1.0, "<f4"), "b": (2, "<i4"), "c": ("x", "<U1")}
    assert _rows(ds.CSVDataset(g, column_defaults=[0], shuffle=False))[1] == {
        "a": (3, "<i4"), "b": ("4.5", "<U3"), "c": ("", "<U1")}
    assert _rows(ds.CSVDataset(g, field_delim=";", shuffle=False)) == [{"a,b,c": ("1,2.5,x", "<U7")},
                                                                       {"a,b,c": ("3,4.5,", "<U6")}]
    with pytest.raises(RuntimeError, match=r"Invalid csv, csv file: .*f1.csv parse failed at line 3, type does not "
                                           r"match."):
        _rows(ds.CSVDataset([str(files / "f1.csv")], column_defaults=[0, 0.0, ""], shuffle=False))
    with pytest.raises(TypeError, match="column type in column_defaults is invalid."):
        ds.CSVDataset(g, column_defaults=[[1], 0.0, ""])


def test_shuffles_keep_every_row(files):
    ds.config.set_seed(1)
    rows = _rows(ds.CSVDataset(str(files / "*.csv"), column_names=["a", "b", "c"]))
    assert sorted(row["a"][0] for row in rows) == sorted(["a"] * 3 + ["1", "3", "5", "7", "1", "3"])


def test_text_file_rows_are_mindspores(tmp_path):
    (tmp_path / "t1.txt").write_text("hello world\n\nsecond line\n")
    (tmp_path / "t2.txt").write_bytes(b"third\r\nfourth")
    files = [str(tmp_path / "t1.txt"), str(tmp_path / "t2.txt")]
    dataset = ds.TextFileDataset(files, shuffle=False)
    # MindSpore 2.10: empty lines skipped, a \r before the newline kept, 0-d str
    assert dataset.get_col_names() == ["text"] and dataset.get_dataset_size() == 4
    assert _rows(dataset) == [{"text": ("hello world", "<U11")}, {"text": ("second line", "<U11")},
                              {"text": ("third\r", "<U6")}, {"text": ("fourth", "<U6")}]
    assert [row["text"][0] for row in _rows(ds.TextFileDataset(files, shuffle=False, num_shards=2, shard_id=1))] == [
        "third\r", "fourth"]
