"""Print the rows MindSpore 2.10 reads from the speech corpora of tests/speech_fixtures.py (the literals of
tests/test_audio_datasets.py): per dataset the column names and every row (dtype, shape, values), in order.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_audio_datasets.py``.
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from speech_fixtures import write_speech  # noqa: E402


def main():
    import mindspore.dataset as ds

    with tempfile.TemporaryDirectory() as root:
        write_speech(Path(root))
        for name in ("YesNoDataset", "LJSpeechDataset"):
            dataset = getattr(ds, name)(str(Path(root) / name), shuffle=False)
            rows = [tuple((c.dtype.name if c.dtype.kind != "U" else "str", c.shape, c.ravel().tolist()) for c in row)
                    for row in dataset.create_tuple_iterator(output_numpy=True)]
            print(f"{name!r}: ({dataset.get_col_names()!r}, {rows!r}),")


if __name__ == "__main__":
    main()
