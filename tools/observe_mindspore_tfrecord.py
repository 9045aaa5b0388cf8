"""Print MindSpore 2.10's readings of the TFRecord fixtures (``tools/make_tfrecord_fixtures.py``) and its
``Schema`` JSON, for the literals of tests/test_tfrecord.py (with one parallel worker: with more, MindSpore
interleaves the rows of the files).

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_tfrecord.py``.
"""
import json
from pathlib import Path

import numpy as np

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "tfrecord"


def show(title, make):
    print(f"== {title}")
    try:
        dataset = make()
        print("columns", dataset.get_col_names(), "size", dataset.get_dataset_size())
        for row in dataset.create_dict_iterator(output_numpy=True, num_epochs=1):
            print({name: (value.dtype.str, value.shape, value.tolist()) for name, value in row.items()})
    except Exception as error:  # recorded: the test names what MindSpore refused
        lines = [line for line in str(error).splitlines() if line.strip()]
        print("error", type(error).__name__, [line for line in lines if "ERROR" in line][:1] or lines[:1])


def main():
    import mindspore.dataset as ds
    from mindspore import dtype as mstype

    files = sorted(str(path) for path in FIXTURES.glob("*.tfrecord"))
    one = {"shuffle": False, "num_parallel_workers": 1}
    show("no schema", lambda: ds.TFRecordDataset(files, **one))
    show("glob string", lambda: ds.TFRecordDataset(str(FIXTURES / "*.tfrecord"), **one))
    show("columns_list", lambda: ds.TFRecordDataset(files, columns_list=["label", "image"], **one))
    schema = ds.Schema()
    schema.add_column("image", de_type=mstype.uint8)
    schema.add_column("label", de_type=mstype.int32, shape=[1])
    schema.add_column("coords", de_type=mstype.float32, shape=[2, 2])
    schema.add_column("name", de_type=mstype.string)
    show("schema", lambda: ds.TFRecordDataset(files, schema=schema, **one))
    scalar = ds.Schema()
    scalar.add_column("label", de_type=mstype.int64, shape=[])
    show("scalar shape", lambda: ds.TFRecordDataset(files, schema=scalar, **one))
    show("num_samples", lambda: ds.TFRecordDataset(files, num_samples=4, **one))
    show("shard 1 of 2", lambda: ds.TFRecordDataset(files, num_shards=2, shard_id=1, **one))
    show("shard 1 of 2 equal rows", lambda: ds.TFRecordDataset(files, num_shards=2, shard_id=1, **one,
                                                                shard_equal_rows=True))
    path = Path("/tmp/tfrecord_schema.json")
    path.write_text(json.dumps({"datasetType": "TF", "numRows": 2,
                                "columns": {"label": {"type": "int64", "rank": 1, "shape": [1]}}}))
    show("schema file with numRows", lambda: ds.TFRecordDataset(files, schema=str(path), **one))
    bad = ds.Schema()
    bad.add_column("coords", de_type=mstype.float32, shape=[3])
    show("shape mismatch", lambda: ds.TFRecordDataset(files, schema=bad, **one))
    missing = ds.Schema()
    missing.add_column("nothere", de_type=mstype.float32)
    show("missing feature", lambda: ds.TFRecordDataset(files, schema=missing, **one))
    wrong = ds.Schema()
    wrong.add_column("label", de_type=mstype.float32)
    show("int64 as float32", lambda: ds.TFRecordDataset(files, schema=wrong, **one))
    show("unknown column", lambda: ds.TFRecordDataset(files, columns_list=["nothere"], **one))
    show("no file", lambda: ds.TFRecordDataset(["/nonexistent.tfrecord"]))
    show("glob matching nothing", lambda: ds.TFRecordDataset("/tmp/none*.tfrecord"))
    path.write_text(json.dumps({"datasetType": "TF", "columns": {"label": {"type": "int64", "rank": 1}}}))
    show("schema file without shape", lambda: ds.TFRecordDataset(files, schema=str(path), shuffle=False,
                                                                  num_parallel_workers=1))
    print("== Schema examples")
    example = ds.Schema()
    example.add_column(name="col1", de_type=mstype.int64, shape=[2])
    print(json.dumps(example.to_json()))
    print(json.dumps(str(example)))


if __name__ == "__main__":
    np.set_printoptions(precision=8)
    main()
