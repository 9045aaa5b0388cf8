"""``dataset.TFRecordDataset`` and ``dataset.Schema`` against MindSpore 2.10 CPU: the rows of the fixture files
(``tests/fixtures/tfrecord``, written by ``tools/make_tfrecord_fixtures.py``) as MindSpore 2.10 reads them with one
parallel worker, recorded by ``tools/observe_mindspore_tfrecord.py``; its errors; a damaged file; the
``Schema`` JSON of the ``mindspore.dataset.Schema`` page's example."""
import json
from pathlib import Path

import numpy as np
import pytest

import npspore.dataset as ds
from npspore import dtype as mstype

pytestmark = pytest.mark.usefixtures("isolated_seeds")

FIXTURES = Path(__file__).parent / "fixtures" / "tfrecord"
FILES = sorted(str(path) for path in FIXTURES.glob("*.tfrecord"))
# MindSpore 2.10, TFRecordDataset(FILES, shuffle=False, num_parallel_workers=1): label, image, coords, name per row
LABELS = [-3, 4, 11, 18, 25]
IMAGES = [list(range(10 * i, 10 * i + 6)) for i in range(5)]
COORDS = [[0.5, 0.0, 0.0, 0.0], [1.5, -1.0, 0.25, 0.0010000000474974513], [2.5, -2.0, 0.5, 0.0020000000949949026],
          [3.5, -3.0, 0.75, 0.003000000026077032], [4.5, -4.0, 1.0, 0.004000000189989805]]


def _rows(dataset):
    return list(dataset.create_dict_iterator(output_numpy=True, num_epochs=1))


def _labels(dataset):
    return [row["label"].tolist() for row in _rows(dataset)]


def test_without_a_schema_every_feature_is_a_column_by_name():
    dataset = ds.TFRecordDataset(FILES, shuffle=False)
    assert dataset.get_col_names() == ["coords", "image", "label", "name"]
    assert dataset.get_dataset_size() == 5
    rows = _rows(dataset)
    for row, label, image, coords, index in zip(rows, LABELS, IMAGES, COORDS, range(5)):
        assert (row["coords"].dtype, row["image"].dtype, row["label"].dtype, row["name"].dtype) == (
            np.float32, np.uint8, np.int64, np.uint8)
        assert row["coords"].tolist() == coords
        assert row["image"].tolist() == image
        assert row["label"].tolist() == [label]
        assert row["name"].tolist() == list(f"row{index}".encode())
    assert _labels(ds.TFRecordDataset(str(FIXTURES / "*.tfrecord"), shuffle=False)) == [[v] for v in LABELS]
    ordered = _rows(ds.TFRecordDataset(FILES, columns_list=["label", "image"], shuffle=False))
    assert list(ordered[1]) == ["label", "image"] and ordered[1]["image"].tolist() == IMAGES[1]


def test_a_schema_gives_types_shapes_and_strings():
    schema = ds.Schema()
    schema.add_column("image", de_type=mstype.uint8)
    schema.add_column("label", de_type=mstype.int32, shape=[1])
    schema.add_column("coords", de_type=mstype.float32, shape=[2, 2])
    schema.add_column("name", de_type=mstype.string)
    rows = _rows(ds.TFRecordDataset(FILES, schema=schema, shuffle=False))
    assert list(rows[0]) == ["image", "label", "coords", "name"]
    assert rows[3]["label"].dtype == np.int32 and rows[3]["label"].tolist() == [18]
    assert rows[3]["coords"].tolist() == [[3.5, -3.0], [0.75, 0.003000000026077032]]
    assert rows[3]["name"].dtype == np.dtype("<U4") and rows[3]["name"].tolist() == ["row3"]
    scalar = ds.Schema()
    scalar.add_column("label", de_type=mstype.int64, shape=[])
    assert [row["label"].shape for row in _rows(ds.TFRecordDataset(FILES, schema=scalar, shuffle=False))] == [()] * 5
    as_float = ds.Schema()
    as_float.add_column("label", de_type=mstype.float32)
    floats = _rows(ds.TFRecordDataset(FILES, schema=as_float, shuffle=False))
    assert [(row["label"].dtype, row["label"].tolist()) for row in floats][:2] == [(np.float32, [-3.0]),
                                                                                   (np.float32, [4.0])]


def test_schema_files_num_rows_and_a_column_without_shape(tmp_path):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"datasetType": "TF", "numRows": 2,
                                "columns": {"label": {"type": "int64", "rank": 1, "shape": [1]}}}))
    assert _labels(ds.TFRecordDataset(FILES, schema=str(path), shuffle=False)) == [[-3], [4]]
    path.write_text(json.dumps({"datasetType": "TF", "columns": {"label": {"type": "int64", "rank": 1}}}))
    assert _labels(ds.TFRecordDataset(FILES, schema=str(path), shuffle=False)) == [[v] for v in LABELS]


def test_num_samples_and_shards():
    assert _labels(ds.TFRecordDataset(FILES, num_samples=4, shuffle=False)) == [[-3], [4], [11], [18]]
    assert _labels(ds.TFRecordDataset(FILES, num_shards=2, shard_id=1, shuffle=False)) == [[18], [25]]
    assert _labels(ds.TFRecordDataset(FILES, num_shards=2, shard_id=1, shuffle=False,
                                      shard_equal_rows=True)) == [[18], [25], [-3]]
    with pytest.raises(ValueError, match="numbers of tfrecord file should not less than num_shards when shard_equal_"
                                         "rows is false, but got numbers of tfrecord file: 2, num_shards: 3"):
        ds.TFRecordDataset(FILES, num_shards=3, shard_id=0)


@pytest.mark.parametrize("shuffle", [True, ds.Shuffle.GLOBAL, ds.Shuffle.FILES, ds.Shuffle.INFILE])
def test_shuffles_keep_every_row_and_follow_the_seed(shuffle):
    ds.config.set_seed(3)
    first = _labels(ds.TFRecordDataset(FILES, shuffle=shuffle))
    ds.config.set_seed(3)
    assert _labels(ds.TFRecordDataset(FILES, shuffle=shuffle)) == first
    assert sorted(first) == [[v] for v in LABELS]
    if shuffle is ds.Shuffle.INFILE:  # the files keep their order, their rows shuffled within
        assert sorted(first[:3]) == [[-3], [4], [11]]
    if shuffle is ds.Shuffle.FILES:  # whole files in some order, each in order
        assert first in ([[-3], [4], [11], [18], [25]], [[18], [25], [-3], [4], [11]])


def test_mindspores_errors():
    bad = ds.Schema()
    bad.add_column("coords", de_type=mstype.float32, shape=[3])
    with pytest.raises(RuntimeError, match=r"The corresponding data file is: .*part-0.tfrecord. Column shape of "
                                           r"coords defined in schema does not match the shape actually load."):
        _rows(ds.TFRecordDataset(FILES, schema=bad, shuffle=False))
    missing = ds.Schema()
    missing.add_column("nothere", de_type=mstype.float32)
    with pytest.raises(RuntimeError, match="Feature name: nothere is required in schema but could not be found in "
                                           "tfrecord file."):
        _rows(ds.TFRecordDataset(FILES, schema=missing, shuffle=False))
    with pytest.raises(RuntimeError, match="Invalid columns_list, tfrecord file failed to find column name: nothere"):
        ds.TFRecordDataset(FILES, columns_list=["nothere"], shuffle=False)
    with pytest.raises(ValueError, match=r"The following patterns did not match any files: "
                                         r"\['/nonexistent.tfrecord'\]"):
        ds.TFRecordDataset(["/nonexistent.tfrecord"])


def test_a_damaged_file_is_an_error_naming_it(tmp_path):
    damaged = tmp_path / "damaged.tfrecord"
    content = bytearray(Path(FILES[0]).read_bytes())
    content[40] ^= 0xFF  # inside the first record's data
    damaged.write_bytes(bytes(content))
    with pytest.raises(ValueError, match=f"Invalid TFRecord file {damaged}: the checksum of the record at byte 0"):
        ds.TFRecordDataset([str(damaged)], shuffle=False)  # the first record gives the columns
    cut = tmp_path / "cut.tfrecord"
    cut.write_bytes(Path(FILES[0]).read_bytes()[:-3])
    with pytest.raises(ValueError, match=f"Invalid TFRecord file {cut}: a record of .* bytes at byte .* is cut"):
        ds.TFRecordDataset([str(cut)], shuffle=False)


def test_cached_and_mapped_rows():
    cache = ds.DatasetCache(session_id=1)
    dataset = ds.TFRecordDataset(FILES, columns_list=["label"], shuffle=False, cache=cache)
    assert _labels(dataset) == _labels(dataset) == [[v] for v in LABELS]
    assert cache.get_stat().num_mem_cached == 5


def test_schema_json_is_mindspores():
    schema = ds.Schema()
    schema.add_column(name="col1", de_type=mstype.int64, shape=[2])
    # MindSpore 2.10, the mindspore.dataset.Schema docstring example's to_json() and str()
    expected = ('{\n  "columns": [\n    {\n      "name": "col1",\n      "rank": 1,\n      "shape": [\n        2\n'
                '      ],\n      "type": "int64"\n    }\n  ]\n}')
    assert schema.to_json() == str(schema) == expected
    schema.add_column("image", de_type="uint8")
    assert json.loads(schema.to_json())["columns"][1] == {"name": "image", "rank": 1, "type": "uint8"}
    parsed = ds.Schema()
    parsed.parse_columns({"image": {"shape": [3, 3], "type": "int8"}, "label": {"shape": [1], "type": "int8"}})
    listed = ds.Schema()
    listed.parse_columns([{"name": "image", "type": "int8", "shape": [3, 3]},
                          {"name": "label", "type": "int8", "shape": [1]}])
    assert parsed.to_json() == listed.to_json()
    assert json.loads(parsed.to_json())["columns"][0] == {"name": "image", "rank": 2, "shape": [3, 3], "type": "int8"}
    loaded = ds.Schema()
    loaded.from_json({"datasetType": "TF", "numRows": 7, "columns": {"a": {"type": "float32", "shape": [2]}}})
    assert ds.Schema.get_num_rows(loaded) == 7 and ds.Schema.get_num_rows(ds.Schema()) == 0
    assert json.loads(loaded.to_json())["datasetType"] == "TF"


@pytest.mark.parametrize("call, error, message", [
    # MindSpore 2.10 CPU
    (lambda s: s.add_column("x", de_type="foo"), TypeError, "Unknown column type."),
    (lambda s: s.add_column(3, de_type="int8"), TypeError, "Argument name with value 3 is not of type [<class 'str'>]"),
    (lambda s: s.add_column("x", de_type="int8", shape=3), TypeError,
     "Argument shape with value 3 is not of type [<class 'list'>]"),
    (lambda s: s.add_column("x", de_type="int8", shape=[2, "a"]), TypeError,
     "Argument shape[1] with value a is not of type [<class 'int'>]"),
    (lambda s: ds.Schema("/nonexist.json"), ValueError, "The file /nonexist.json does not exist or permission denied!"),
    (lambda s: ds.Schema(5), TypeError, "path: 5 is not string"),
    (lambda s: s.parse_columns([{"type": "int8"}]), RuntimeError, "Column's name is missing"),
    (lambda s: s.parse_columns([{"name": "a"}]), RuntimeError, "Column's type is missing"),
    (lambda s: s.from_json({"columns": {}}), RuntimeError, "Columns are missing."),
    (lambda s: s.from_json({"datasetType": "TF"}), RuntimeError, '"columns" node is required in the schema json JSON.'),
    (lambda s: s.from_json({"datasetType": "TF", "columns": {"a": {"type": "int8"}}, "foo": 1}), RuntimeError,
     "Unknown field foo"),
])
def test_schema_errors_are_mindspores(call, error, message):
    with pytest.raises(error) as raised:
        call(ds.Schema())
    assert message in str(raised.value)


def test_a_file_that_is_no_example_is_an_error(tmp_path):
    from npspore.core.record_framing import frame
    path = tmp_path / "junk.tfrecord"
    path.write_bytes(frame(b"\xff\xff\xff"))
    with pytest.raises(ValueError, match="is not a tf.train.Example"):
        ds.TFRecordDataset([str(path)], shuffle=False)
