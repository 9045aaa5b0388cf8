"""Print the rows MindSpore 2.10 reads from the corpus fixtures of tests/text_corpus_fixtures.py (the
literals of tests/test_text_corpus_datasets.py): per dataset and usage, the column names and every row (in file
order: ``shuffle=False`` and one worker, as npspore reads), or the error.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_text_corpora.py``.
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from text_corpus_fixtures import CSV_CORPORA, write_all  # noqa: E402

CASES = [(name, usage) for name in [*CSV_CORPORA, "WikiTextDataset", "PennTreebankDataset", "SQuADDataset"]
         for usage in ("train", "test", "all", None)] + [("WikiTextDataset", "valid"), ("SQuADDataset", "dev"),
                                                         ("AGNewsDataset", "valid")] + [
    ("IMDBDataset", usage) for usage in ("train", "test", "all", None, "valid")] + [
    ("CoNLL2000Dataset", usage) for usage in ("train", "test", "all", "valid")] + [
    ("UDPOSDataset", usage) for usage in ("train", "valid", "test", "all", None)]


def main():
    import mindspore.dataset as ds

    with tempfile.TemporaryDirectory() as root:
        write_all(Path(root))
        for name, usage in CASES:
            try:
                dataset = getattr(ds, name)(str(Path(root) / name), usage=usage, shuffle=False,
                                                   num_parallel_workers=1)
                rows = [tuple(column.tolist() for column in row) for row in dataset.create_tuple_iterator(
                    output_numpy=True)]
                print(f"({name!r}, {usage!r}): ({dataset.get_col_names()!r}, {rows!r}),")
            except Exception as error:  # recorded: the test names what MindSpore refused
                print(f"({name!r}, {usage!r}): ({type(error).__name__!r}, "
                      f"{str(error).strip().splitlines()[0][:160]!r}),")


if __name__ == "__main__":
    main()
