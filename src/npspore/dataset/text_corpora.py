"""Text corpora in their published layouts, read as MindSpore 2.10 reads them (values recorded from it by
``tools/observe_mindspore_text_corpora.py``):

- CSV corpora, every column a 0-d str, no header, quoted fields (``""`` a quote; ``\\n`` kept as the two
  characters): ``AGNewsDataset`` ``[index, title, description]``, ``AmazonReviewDataset`` ``[label, title,
  content]``, ``DBpediaDataset`` ``[class, title, content]``, ``SogouNewsDataset`` ``[index, title, content]``,
  ``YahooAnswersDataset`` ``[class, title, content, answer]``, ``YelpReviewDataset`` ``[label, text]``, from
  ``train.csv`` / ``test.csv``;
- line corpora, each non-empty line a 0-d str ``text`` (its spaces kept): ``WikiTextDataset``
  (``wiki.{train,test,valid}.tokens``), ``PennTreebankDataset`` (``ptb.{train,test,valid}.txt``);
- ``SQuADDataset``: a row per question of ``train-v*.json`` / ``dev-v*.json``: ``context``, ``question`` (0-d
  str), ``text`` (1-D str: the answers) and ``answer_start`` (1-D uint32); an unanswerable question has the one
  answer ``''`` at 4294967295.

- sentence corpora, a row per sentence (its lines up to a blank line; a last sentence with no blank line after it
  is left out, as MindSpore 2.10 reads them), each column a 1-D str array of one field per line:
  ``CoNLL2000Dataset`` ``[word, pos_tag, chunk_tag]`` (space-separated, ``{train,test}.txt``), ``UDPOSDataset``
  ``[word, universal, stanford]`` (tab-separated, ``en-ud-tag.v2.{train,dev,test}.txt``, usage ``'valid'`` the dev
  file);
- ``IMDBDataset``: a row per file of ``{train,test}/{pos,neg}/*.txt`` (each folder's files in name order, ``pos``
  first): ``text`` (0-d str: the file's last line, as MindSpore 2.10 reads it) and ``label`` (int32: 1 for ``pos``);
  a random-access source (``sampler``, shuffled by default).

``usage`` names a split, or ``'all'`` (``None``): its files in MindSpore's order. Rows come in file order
(MindSpore's with one parallel worker), shuffled and sharded as ``CSVDataset``'s.
"""
from __future__ import annotations

import glob
import json
import os
from typing import Any

import numpy as np

from .arguments import check_bool
from .image_files import _check_dataset_dir
from .sampling import check_shards, sampler_from_arguments
from .sources import RandomAccessSource
from .text_files import CSVDataset, TextFileDataset
from .tfrecord import Shuffle, _FileOrder

__all__ = ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "SogouNewsDataset", "YahooAnswersDataset",
           "YelpReviewDataset", "WikiTextDataset", "PennTreebankDataset", "SQuADDataset", "IMDBDataset",
           "CoNLL2000Dataset", "UDPOSDataset"]


def _split_files(dataset_dir, usage, files: dict[str, list[str]]) -> list[str]:
    """The files of ``usage`` (``None``: ``'all'``) in ``dataset_dir``, each a name or a glob pattern of one file.

    Raises:
        ValueError: if ``usage`` is not a split of ``files`` or a file is missing.
    """
    folder = _check_dataset_dir(dataset_dir)
    usage = "all" if usage is None else usage
    if usage not in files:
        valid = [split for split in ("train", "test", "valid", "dev", "all") if split in files]
        raise ValueError(f"Input usage is not within the valid set of {valid}.")
    paths = []
    for name in files[usage]:
        found = sorted(glob.glob(os.path.join(glob.escape(folder), name)))
        if not found:
            raise ValueError(f"Invalid file, {os.path.join(folder, name)} does not exist.")
        paths.append(found[0])
    return paths


def _splits(order: list[str], pattern: str) -> dict[str, list[str]]:
    """Per usage its file names (``pattern`` formatted with the split), ``'all'`` every split in ``order``."""
    return {**{split: [pattern.format(split)] for split in order}, "all": [pattern.format(s) for s in order]}


def _corpus(name: str, base: type, order: list[str], pattern: str, doc: str, **base_arguments) -> type:
    """A subclass of ``base`` (CSVDataset or TextFileDataset) reading the ``pattern`` files (formatted with each
    split of ``order``) of a corpus directory, in the splits' order."""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | Shuffle = Shuffle.GLOBAL,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        paths = _split_files(dataset_dir, usage, _splits(order, pattern))
        self.dataset_dir, self.usage = dataset_dir, usage
        base.__init__(self, paths, num_samples=num_samples, num_parallel_workers=num_parallel_workers,
                      shuffle=shuffle, num_shards=num_shards, shard_id=shard_id, cache=cache, **base_arguments)

    doc = (f"The {name[:-len('Dataset')]} corpus: {doc} (see :mod:`npspore.dataset.text_corpora`).\n\n    Args:\n"
           f"        dataset_dir (str): the corpus directory.\n        usage (str, optional): one of {order} or "
           f"``'all'`` (``None``).\n        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as "
           f"``{base.__name__}``'s.\n\n    Raises:\n        ValueError: If the directory, usage or a file is wrong.\n")
    return type(name, (base,), {"__init__": __init__, "__doc__": doc, "__module__": __name__,
                                "_files_to_read": lambda self, files: list(files)})


def _csv_corpus(name: str, columns: list[str], order: list[str]) -> type:
    return _corpus(name, CSVDataset, order, "{}.csv", f"rows ``{columns}`` of 0-d str", column_names=columns)


AGNewsDataset = _csv_corpus("AGNewsDataset", ["index", "title", "description"], ["test", "train"])
AmazonReviewDataset = _csv_corpus("AmazonReviewDataset", ["label", "title", "content"], ["test", "train"])
DBpediaDataset = _csv_corpus("DBpediaDataset", ["class", "title", "content"], ["test", "train"])
SogouNewsDataset = _csv_corpus("SogouNewsDataset", ["index", "title", "content"], ["train", "test"])
YahooAnswersDataset = _csv_corpus("YahooAnswersDataset", ["class", "title", "content", "answer"], ["test", "train"])
YelpReviewDataset = _csv_corpus("YelpReviewDataset", ["label", "text"], ["train", "test"])
WikiTextDataset = _corpus("WikiTextDataset", TextFileDataset, ["test", "train", "valid"], "wiki.{}.tokens",
                          "each non-empty line as the 0-d str column ``text``")
PennTreebankDataset = _corpus("PennTreebankDataset", TextFileDataset, ["test", "train", "valid"], "ptb.{}.txt",
                              "each non-empty line as the 0-d str column ``text``")

_NO_ANSWER = 4294967295   # MindSpore's answer_start of an unanswerable question: -1 as uint32


class _ParsedFiles(RandomAccessSource):
    """Rows parsed from whole files when the dataset is built (``_parse(path)``: a file's rows), in file order,
    shuffled and sharded as ``CSVDataset``'s."""

    def __init__(self, dataset_dir, usage, paths, columns, num_samples, num_parallel_workers, shuffle, num_shards,
                 shard_id, cache) -> None:
        if not isinstance(shuffle, Shuffle):
            check_bool(shuffle, "shuffle")
            shuffle = Shuffle.GLOBAL if shuffle else None
        check_shards(num_shards, shard_id)
        self.dataset_dir, self.usage = dataset_dir, usage
        per_file = [self._parse(path) for path in paths]
        self._rows_read = [row for rows in per_file for row in rows]
        sampler = _FileOrder([len(rows) for rows in per_file], shuffle, num_shards, shard_id, True, num_samples)
        super().__init__(columns, sampler, num_parallel_workers, cache)

    def _parse(self, path: str) -> list:
        raise NotImplementedError

    def _length(self):
        return len(self._rows_read)


class SQuADDataset(_ParsedFiles):
    """SQuAD 1.1 / 2.0: a row per question of ``train-v*.json`` / ``dev-v*.json`` (see the module doc).

    Args:
        dataset_dir (str): the directory of the JSON files.
        usage (str, optional): ``'train'``, ``'dev'`` or ``'all'`` (``None``).
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as ``CSVDataset``'s.

    Raises:
        ValueError: If the directory, usage or a file is wrong, or a file is not SQuAD JSON.
    """

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | Shuffle = Shuffle.GLOBAL,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        paths = _split_files(dataset_dir, usage, {"train": ["train-v*.json"], "dev": ["dev-v*.json"],
                                                  "all": ["train-v*.json", "dev-v*.json"]})
        super().__init__(dataset_dir, usage, paths, ["context", "question", "text", "answer_start"], num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _parse(self, path: str) -> list[tuple]:
        try:
            with open(path, encoding="utf-8") as file:
                articles = json.load(file)["data"]
            return [(paragraph["context"], qa["question"],
                     [a["text"] for a in qa["answers"]] or [""],
                     [a["answer_start"] for a in qa["answers"]] or [_NO_ANSWER])
                    for article in articles for paragraph in article["paragraphs"] for qa in paragraph["qas"]]
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"Invalid SQuAD file {path}: {type(error).__name__}: {error}") from None

    def _row(self, index):
        context, question, texts, starts = self._rows_read[index]
        return np.array(context), np.array(question), np.array(texts), np.array(starts, np.uint32)


class IMDBDataset(RandomAccessSource):
    """IMDb reviews: a row per review file (see the module doc).

    Args:
        dataset_dir (str): the directory holding ``train`` and ``test``.
        usage (str, optional): ``'train'``, ``'test'`` or ``'all'`` (``None``).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``ImageFolderDataset``'s.

    Raises:
        ValueError: If the directory or usage is wrong.
    """

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        folder = _check_dataset_dir(dataset_dir)
        usage = "all" if usage is None else usage
        if usage not in ("train", "test", "all"):
            raise ValueError("Input usage is not within the valid set of ['train', 'test', 'all'].")
        self.dataset_dir, self.usage = dataset_dir, usage
        self._files = [(os.path.join(folder, split, kind, name), label)
                       for split in (["train", "test"] if usage == "all" else [usage])
                       for kind, label in (("pos", 1), ("neg", 0)) if os.path.isdir(os.path.join(folder, split, kind))
                       for name in sorted(os.listdir(os.path.join(folder, split, kind))) if name.endswith(".txt")]
        super().__init__(["text", "label"], sampler_from_arguments(num_samples, shuffle, sampler, num_shards,
                                                                    shard_id), num_parallel_workers, cache)

    def _length(self):
        return len(self._files)

    def _row(self, index):
        path, label = self._files[index]
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
        if len(lines) > 1 and lines[-1] == "":
            lines.pop()
        return np.array(lines[-1]), np.array(label, np.int32)


def _sentences(path: str, separator: str, width: int) -> list[tuple]:
    """The sentences of ``path``: per blank-line-terminated run of lines, its ``width`` fields as columns."""
    sentences, lines = [], []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.rstrip("\r\n")
            if line.strip():
                fields = line.split(separator)
                if len(fields) != width:
                    raise RuntimeError(f"Invalid line {number} of {path}: {width} fields separated by "
                                       f"{separator!r} expected, but got {len(fields)}.")
                lines.append(fields)
            elif lines:
                sentences.append(tuple(np.array(column) for column in zip(*lines)))
                lines = []
    return sentences


class _SentenceCorpus(_ParsedFiles):
    """A sentence corpus (see the module doc): ``_COLUMNS``, ``_SEPARATOR``, ``_FILES`` per usage."""

    _COLUMNS: list = []
    _SEPARATOR = " "
    _FILES: dict = {}

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 shuffle: bool | Shuffle = Shuffle.GLOBAL, num_shards: int | None = None, shard_id: int | None = None,
                 num_parallel_workers: int | None = None, cache: Any = None) -> None:
        super().__init__(dataset_dir, usage, _split_files(dataset_dir, usage, self._FILES), self._COLUMNS,
                         num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _parse(self, path: str) -> list:
        return _sentences(path, self._SEPARATOR, len(self._COLUMNS))

    def _row(self, index):
        return self._rows_read[index]


class CoNLL2000Dataset(_SentenceCorpus):
    """CoNLL-2000 chunking: a row ``[word, pos_tag, chunk_tag]`` per sentence of ``{train,test}.txt`` (see the
    module doc; usage ``'train'``, ``'test'`` or ``'all'``/``None``, the test file first)."""

    _COLUMNS = ["word", "pos_tag", "chunk_tag"]
    _FILES = {**_splits(["test", "train"], "{}.txt")}


class UDPOSDataset(_SentenceCorpus):
    """UD English part-of-speech tags: a row ``[word, universal, stanford]`` per sentence (see the module doc; usage
    ``'train'``, ``'valid'``, ``'test'`` or ``'all'``/``None``: test, train, dev files in that order)."""

    _COLUMNS = ["word", "universal", "stanford"]
    _SEPARATOR = "\t"
    _FILES = {"train": ["en-ud-tag.v2.train.txt"], "valid": ["en-ud-tag.v2.dev.txt"],
              "test": ["en-ud-tag.v2.test.txt"],
              "all": ["en-ud-tag.v2.test.txt", "en-ud-tag.v2.train.txt", "en-ud-tag.v2.dev.txt"]}
