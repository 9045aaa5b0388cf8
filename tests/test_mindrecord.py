"""MindRecord (``npspore.mindrecord``, ``dataset.MindDataset``) against MindSpore 2.10's own files.

``tests/fixtures/mindrecord`` was written by the real MindSpore 2.10.0 with
``tools/make_mindrecord_fixtures.py``: ``single.mindrecord`` (one shard, one call), which npspore's writer
must reproduce byte for byte (file and ``.db`` index), and ``images.mindrecord0``/``1`` (two shards, two
calls, blob data over several pages) with ``mindspore_read.txt``, what MindSpore's ``MindDataset`` read
from them. Errors are MindSpore's (the ``mindspore.mindrecord.FileWriter`` page of 2.10) where it has
one; damaged files give a ``ValueError`` naming the file.
"""
import importlib.util
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

import npspore.dataset as ds
from npspore.mindrecord import (FileReader, FileWriter, MRMInvalidSchemaError, MRMOpenError, MRMValidateDataError,
                                ParamValueError)

FIXTURES = Path(__file__).parent / "fixtures" / "mindrecord"
_spec = importlib.util.spec_from_file_location(
    "make_mindrecord_fixtures", Path(__file__).parent.parent / "tools" / "make_mindrecord_fixtures.py")
fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fixtures)


def write_single(folder: Path) -> Path:
    path = folder / "single.mindrecord"
    writer = FileWriter(str(path), overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(fixtures.SCHEMA, "fixture of tests/test_mindrecord.py")
    writer.write_raw_data(fixtures.rows())
    writer.commit()
    return path


def index_rows(path: Path) -> list:
    with sqlite3.connect(path) as db:
        tables = db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
        rows = db.execute("SELECT * FROM INDEXES").fetchall() + db.execute("SELECT * FROM SHARD_NAME").fetchall()
    db.close()
    return tables + rows


def test_the_writer_gives_mindspores_bytes_and_index(tmp_path):
    path = write_single(tmp_path)
    assert path.read_bytes() == (FIXTURES / "single.mindrecord").read_bytes()
    assert index_rows(Path(f"{path}.db")) == index_rows(FIXTURES / "single.mindrecord.db")


def test_mindspores_two_shards_read_as_mindspore_reads_them():
    dataset = ds.MindDataset(str(FIXTURES / "images.mindrecord0"), shuffle=False)
    assert dataset.get_col_names() == ["box", "file_name", "id", "image", "label", "weight"]
    read = "".join(f"{fixtures.summary(row)}\n" for row in dataset.create_dict_iterator(output_numpy=True))
    assert read == (FIXTURES / "mindspore_read.txt").read_text()


def test_rows_written_come_back_through_file_reader_and_mind_dataset(tmp_path):
    path = write_single(tmp_path)
    expected = fixtures.rows()
    for got, row in zip(FileReader(str(path)).get_next(), expected, strict=True):
        assert got.keys() == row.keys()
        for name, value in row.items():
            np.testing.assert_array_equal(got[name], value)
    labels = [int(r["label"]) for r in ds.MindDataset(str(path), columns_list=["label"], shuffle=False)
              .create_dict_iterator(output_numpy=True)]
    assert labels == [r["label"] for r in expected]


def test_shards_columns_and_tensors(tmp_path):
    path = write_single(tmp_path)
    shard = ds.MindDataset(str(path), columns_list=["id", "box"], shuffle=False, num_shards=2, shard_id=1)
    assert shard.get_col_names() == ["id", "box"]
    ids = [int(i) - 10 ** 12 for i, _ in shard.create_tuple_iterator(output_numpy=True)]
    assert ids == [1, 3, 5, 0]   # MindSpore's interleaved shards, the last one filled from the start
    row = next(ds.MindDataset(str(path), shuffle=False).create_dict_iterator())
    assert str(row["label"].dtype) == "Int32" and str(row["box"].dtype) == "Float32"
    assert isinstance(row["image"], np.ndarray)   # bytes stay NumPy, as MindSpore 2.10 gives them


def test_file_writer_docstring_example_and_a_list_of_shards(tmp_path):
    writer = FileWriter(file_name=str(tmp_path / "test.mindrecord"), shard_num=2, overwrite=True)
    schema_id = writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
                                   "data": {"type": "bytes"}}, "test_schema")
    writer.add_index(["file_name", "label"])
    writer.write_raw_data([{"file_name": f"{i}.jpg", "label": i, "data": b"\x10\x11" * i} for i in range(5)])
    writer.commit()
    assert schema_id == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["test.mindrecord0", "test.mindrecord0.db",
                                                          "test.mindrecord1", "test.mindrecord1.db"]
    every = ds.MindDataset(str(tmp_path / "test.mindrecord0"), shuffle=False)
    assert [int(r["label"]) for r in every.create_dict_iterator(output_numpy=True)] == [0, 1, 2, 3, 4]
    second = ds.MindDataset([str(tmp_path / "test.mindrecord1")], shuffle=False)
    assert [int(r["label"]) for r in second.create_dict_iterator(output_numpy=True)] == [3, 4]


@pytest.mark.parametrize("schema, message", [
    ({"a": {"type": "int8"}}, "Field 'a' contain illegal attribute 'int8'."),
    ({"a": {"type": "float64", "shape": [-1, 2]}, "s": {"type": "string", "shape": [2]}},
     "Field 's' contain illegal attribute 'string'."),
    ({"a": {"type": "bytes", "shape": [2]}}, "Field 'a' contain illegal attribute 'bytes'."),
    ({"a b": {"type": "bytes"}}, "Field 'a b' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."),
    ([1], "Schema content should be dict."),
])
def test_schema_errors_as_mindspore(tmp_path, schema, message):
    with pytest.raises(MRMInvalidSchemaError) as error:
        FileWriter(str(tmp_path / "s.mindrecord")).add_schema(schema)
    assert str(error.value) == f"[MRMInvalidSchemaError]: Schema format is error. Detail: {message}"


def test_writer_argument_and_row_errors(tmp_path):
    with pytest.raises(ParamValueError, match="Parameter shard_num's value: 0 should between 1 and 1000."):
        FileWriter(str(tmp_path / "e.mindrecord"), shard_num=0)
    writer = FileWriter(str(tmp_path / "e.mindrecord"))
    writer.add_schema({"label": {"type": "int32"}, "y": {"type": "float32"}})
    with pytest.raises(MRMValidateDataError, match="row 1, field 'label': expected int32, got str"):
        writer.write_raw_data([{"label": 1, "y": 0.5}, {"label": "x", "y": 0.5}])
    with pytest.raises(MRMValidateDataError, match="row 0 has no field 'y'"):
        writer.write_raw_data([{"label": 1}])
    writer.write_raw_data([{"label": 1, "y": 0.5}])
    writer.commit()
    with pytest.raises(MRMOpenError, match="already exists"):
        FileWriter(str(tmp_path / "e.mindrecord"))
    with pytest.raises(ValueError, match="The file .*nothere.mindrecord does not exist or permission denied!"):
        ds.MindDataset(str(tmp_path / "nothere.mindrecord"))


def damaged_copy(tmp_path, change) -> str:
    path = tmp_path / "single.mindrecord"
    shutil.copy(FIXTURES / "single.mindrecord", path)
    data = bytearray(path.read_bytes())
    path.write_bytes(change(data))
    return str(path)


@pytest.mark.parametrize("change, message", [
    (lambda d: d[:20000], "page 0 ends at byte .* past the end of the file"),
    (lambda d: b"\x10" + d[1:], "header is not JSON|header length"),
    (lambda d: d[:8] + d[8:100].replace(b'"header_size":16384', b'"header_size":"big"') + d[100:],
     "header is not JSON|no valid 'header_size'"),
    (lambda d: d[:16384] + b"\xff" * 8 + d[16392:], "record of .* bytes runs past"),
    (lambda d: d[:-420] + b"\x05" + d[-419:], "raw record|runs past|not msgpack"),
])
def test_a_damaged_file_is_a_value_error_naming_it(tmp_path, change, message):
    path = damaged_copy(tmp_path, change)
    with pytest.raises(ValueError, match=message) as error:
        list(ds.MindDataset(path, shuffle=False).create_dict_iterator(output_numpy=True))
    assert path in str(error.value)
