"""Write the MindRecord fixtures of tests/test_mindrecord.py with the real MindSpore 2.10.

Run with a virtualenv holding MindSpore (never the project's): ``/work/msvenv/bin/python
tools/make_mindrecord_fixtures.py``. It writes ``tests/fixtures/mindrecord/images.mindrecord0`` and ``...1``
(two shards, with their ``.db``) from :func:`rows` in two calls, and ``single.mindrecord`` (one shard, one
call: npspore's writer must give the same bytes), with a 16 KB header and 32 KB pages so that the
files are small and the blob data spans several pages, and writes what ``MindDataset`` reads back from
the two shards (one :func:`summary` a line) to ``mindspore_read.txt``.
"""
import os
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "mindrecord"
SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"}, "image": {"type": "bytes"},
          "box": {"type": "float32", "shape": [-1, 4]}, "weight": {"type": "float64"}, "id": {"type": "int64"}}


def rows():
    """Seven rows: images of 6,000 to 12,000 bytes (a few to a page), boxes of 1 to 3 rows."""
    return [{"file_name": f"img_{i}.jpg", "label": i % 3, "image": bytes((i * 7 + k) % 256 for k in range(6000 + 1000 * i)),
             "box": np.arange(4 * (1 + i % 3), dtype=np.float32).reshape(-1, 4) / (i + 1), "weight": 0.5 + i / 4,
             "id": 10 ** 12 + i} for i in range(7)]


def summary(row):
    """What the test compares of one row: dtypes, shapes and values (a digest of the image)."""
    return {k: (v.dtype.str, v.shape, int(np.frombuffer(v[0], np.uint8).sum()) if k == "image" else v.tolist())
            for k, v in row.items()}


def main():
    from mindspore.mindrecord import FileWriter
    import mindspore.dataset as ds

    FIXTURES.mkdir(parents=True, exist_ok=True)
    os.chdir(FIXTURES)
    writer = FileWriter("images.mindrecord", shard_num=2, overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(SCHEMA, "fixture of tests/test_mindrecord.py")
    writer.add_index(["file_name", "label"])
    writer.write_raw_data(rows()[:4])
    writer.write_raw_data(rows()[4:])
    writer.commit()
    single = FileWriter("single.mindrecord", overwrite=True)
    single.set_header_size(1 << 14)
    single.set_page_size(1 << 15)
    single.add_schema(SCHEMA, "fixture of tests/test_mindrecord.py")
    single.write_raw_data(rows())
    single.commit()
    read = ds.MindDataset("images.mindrecord0", shuffle=False).create_dict_iterator(output_numpy=True)
    Path("mindspore_read.txt").write_text("".join(f"{summary(row)}\n" for row in read))


if __name__ == "__main__":
    main()
