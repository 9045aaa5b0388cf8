"""The small corpus fixtures of tests/test_text_corpus_datasets.py: the files of each dataset's documented layout
(AG News, Amazon Review, DBpedia, Sogou News, Yahoo Answers, Yelp Review CSVs, WikiText and Penn Treebank token
files, SQuAD JSON, IMDB review folders, CoNLL-2000 and UD POS sentences), written by :func:`write_all`; ``tools/observe_mindspore_text_corpora.py`` reads them with
MindSpore 2.10.
"""
import json
from pathlib import Path

# rows of train.csv and test.csv: quoted fields, a doubled quote, an escaped newline, an empty field, a blank line
_ROWS = {
    "train.csv": [("3", "Great pick", 'Works well, ""really"" well.', "an answer"), ("1", "Bad", "Broke\\non day one",
                                                                                   "no"), None,
                  ("2", "Meh", "", "")],
    "test.csv": [("1", "Short", "ok", "yes"), ("2", "Two, parts", "a,b", "c")],
}
_TOKENS = {"train": " = Title = \n\n Some words here . \n @-@ more \n", "test": " test line \n", "valid": " valid \n"}
_SQUAD = {"version": "v2.0", "data": [{"title": "T", "paragraphs": [
    {"context": "The cat sat on the mat.", "qas": [
        {"id": "1", "question": "Where did the cat sit?", "answers": [{"text": "on the mat", "answer_start": 12}],
         "is_impossible": False},
        {"id": "2", "question": "Who sat?", "answers": [{"text": "The cat", "answer_start": 0},
                                                       {"text": "cat", "answer_start": 4}]},
        {"id": "3", "question": "Why?", "answers": [], "is_impossible": True}]}]}]}

# IMDB: split/kind/file -> text (a file of two lines: MindSpore 2.10 reads the last; files in name order)
_IMDB = {"train/pos/0_9.txt": "great movie", "train/pos/1_7.txt": "loved it\nreally", "train/neg/0_3.txt": "bad",
         "train/neg/10_1.txt": "x", "train/neg/2_1.txt": "y\n", "test/pos/0_10.txt": "ok <br /> fine",
         "test/neg/0_2.txt": "awful "}
# sentence corpora: file -> text (the last sentence of train has no blank line after it: MindSpore leaves it out)
_SENTENCES = {
    "CoNLL2000Dataset/train.txt": "Confidence NN B-NP\nin IN B-PP\n\nthe DT B-NP\npound NN I-NP\n",
    "CoNLL2000Dataset/test.txt": "Rockwell NNP B-NP\n\n",
    "UDPOSDataset/en-ud-tag.v2.train.txt": "Al\tPROPN\tNNP\n-\tPUNCT\tHYPH\n\nZaman\tPROPN\tNNP\n",
    "UDPOSDataset/en-ud-tag.v2.dev.txt": "x\tX\tXX\n",
    "UDPOSDataset/en-ud-tag.v2.test.txt": "y\tY\tYY\n\n",
}
CSV_CORPORA = {"AGNewsDataset": 3, "AmazonReviewDataset": 3, "DBpediaDataset": 3, "SogouNewsDataset": 3,
               "YahooAnswersDataset": 4, "YelpReviewDataset": 2}


def _csv_text(rows: list, columns: int) -> str:
    """The CSV lines of ``rows`` cut to ``columns`` fields (two: the label and the third field), each quoted."""
    lines = []
    for row in rows:
        fields = None if row is None else row[:columns] if columns != 2 else (row[0], row[2])
        lines.append("" if fields is None else ",".join(f'"{field}"' for field in fields))
    return "\n".join(lines) + "\n"


def write_all(root: Path) -> None:
    """Write every fixture below ``root`` (a directory per dataset)."""
    for name, columns in CSV_CORPORA.items():
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        for file, rows in _ROWS.items():
            (folder / file).write_text(_csv_text(rows, columns), encoding="utf-8")
    for name, pattern in (("WikiTextDataset", "wiki.{}.tokens"), ("PennTreebankDataset", "ptb.{}.txt")):
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        for usage, text in _TOKENS.items():
            (folder / pattern.format(usage)).write_text(text, encoding="utf-8")
    for name, text in {**_SENTENCES, **{f"IMDBDataset/{k}": v for k, v in _IMDB.items()}}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    folder = root / "SQuADDataset"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "train-v2.0.json").write_text(json.dumps(_SQUAD), encoding="utf-8")
    (folder / "dev-v2.0.json").write_text(json.dumps({"version": "v2.0", "data": [{"title": "D", "paragraphs": [
        {"context": "Dev text.", "qas": [{"id": "9", "question": "What?", "answers": [
            {"text": "Dev", "answer_start": 0}]}]}]}]}), encoding="utf-8")

