"""Print what MindSpore 2.10's ``VOCDataset`` reads from the tree of tests/voc_fixtures.py (the literals of
tests/test_voc_dataset.py): per case the column names, class indexing and rows (dtype, shape, values; an encoded
image as its length), or the error.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_voc.py``.
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from voc_fixtures import CASES, column_summary as _column, write_voc  # noqa: E402

def main():
    import mindspore.dataset as ds

    with tempfile.TemporaryDirectory() as root:
        voc = str(write_voc(Path(root)))
        for key, arguments in CASES:
            try:
                dataset = ds.VOCDataset(voc, shuffle=False, **arguments)
                rows = [tuple(_column(c) for c in row) for row in dataset.create_tuple_iterator(output_numpy=True)]
                indexing = dataset.get_class_indexing() if arguments["task"] == "Detection" else None
                print(f"{key!r}: ({dataset.get_col_names()!r}, {indexing!r}, {rows!r}),")
            except Exception as error:  # recorded: the test names what MindSpore refused
                print(f"{key!r}: ({type(error).__name__!r}, {str(error).strip().splitlines()[0][:200]!r}),")


if __name__ == "__main__":
    main()
