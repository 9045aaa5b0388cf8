"""``Vocab``, as ``mindspore.dataset.text.Vocab``: a table of tokens and their ids, built from a list, a dict,
a file of one token per line or the string columns of a dataset, with MindSpore 2.10's orders, look-ups and
errors."""
from __future__ import annotations

import os
from collections import Counter
from typing import Any

import numpy as np

__all__ = ["Vocab"]

_MAX_ID = 2147483647


def _check_words(words: Any, name: str) -> list[str]:
    """``words`` if it is a list of distinct strings, with MindSpore's messages."""
    if not isinstance(words, list):
        raise TypeError(f"Argument {name} with value {words} is not of type [{list}], but got {type(words)}.")
    for word in words:
        if not isinstance(word, str):
            raise TypeError(f"Argument {name} with value {word} is not of type [{str}], but got {type(word)}.")
    repeated = [word for word, count in Counter(words).items() if count > 1]
    if repeated:
        raise ValueError(f"{name} contains duplicate word: {repeated[0]}.")
    return words


def _with_specials(words: list[str], special_tokens: list[str] | None, special_first: bool) -> dict[str, int]:
    specials = _check_words([] if special_tokens is None else special_tokens, "special_tokens")
    clash = set(specials) & set(words)
    if clash:
        raise ValueError(f"special_tokens and word_list contain duplicate word :{clash}.")
    ordered = specials + words if special_first else words + specials
    return {word: i for i, word in enumerate(ordered)}


class Vocab:
    """A table mapping tokens to ids; build it with :meth:`from_list`, :meth:`from_dict`, :meth:`from_file`
    or :meth:`from_dataset`."""

    def __init__(self) -> None:
        self._ids: dict[str, int] | None = None

    @classmethod
    def _built(cls, ids: dict[str, int]) -> Vocab:
        vocab = cls()
        vocab._ids = ids
        return vocab

    @classmethod
    def from_list(cls, word_list: list[str], special_tokens: list[str] | None = None,
                  special_first: bool = True) -> Vocab:
        """The words of ``word_list`` numbered in order, with ``special_tokens`` before them (``special_first``)
        or after.

        Raises:
            TypeError: if ``word_list`` is not a list of strings.
            ValueError: for a repeated word, or a special token that is also a word.
        """
        return cls._built(_with_specials(_check_words(word_list, "word_list"), special_tokens, special_first))

    @classmethod
    def from_dict(cls, word_dict: dict[str, int]) -> Vocab:
        """The words and ids of ``word_dict`` as they are.

        Raises:
            TypeError: if ``word_dict`` is not a dict of strings to ints.
            ValueError: for an id outside ``[0, 2147483647]``.
        """
        if not isinstance(word_dict, dict):
            raise TypeError(f"Argument word_dict with value {word_dict} is not of type [{dict}], but got "
                            f"{type(word_dict)}.")
        for word, word_id in word_dict.items():
            if not isinstance(word, str) or not isinstance(word_id, int) or isinstance(word_id, bool):
                raise TypeError(f"word_dict must map strings to ints, but got {word!r}: {word_id!r}.")
            if not 0 <= word_id <= _MAX_ID:
                raise ValueError(f"Input word_id is not within the required interval of [0, {_MAX_ID}].")
        return cls._built(dict(word_dict))

    @classmethod
    def from_file(cls, file_path: str, delimiter: str = "", vocab_size: int | None = None,
                  special_tokens: list[str] | None = None, special_first: bool = True) -> Vocab:
        """The words of the text file ``file_path``, one per line (the text before ``delimiter`` when it is not
        empty), the first ``vocab_size`` lines (all when None), numbered in order with ``special_tokens``.

        Raises:
            ValueError: if the file does not exist or a word repeats.
        """
        if not os.path.isfile(file_path):
            raise ValueError(f"The file {file_path} does not exist or permission denied!")
        with open(file_path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        if vocab_size is not None:
            lines = lines[:vocab_size]
        words = [line.split(delimiter, 1)[0] if delimiter else line for line in lines]
        return cls._built(_with_specials(_check_words(words, "word_list"), special_tokens, special_first))

    @classmethod
    def from_dataset(cls, dataset: Any, columns: str | list[str] | None = None,
                     freq_range: tuple[int | None, int | None] | None = None, top_k: int | None = None,
                     special_tokens: list[str] | None = None, special_first: bool = True) -> Vocab:
        """The words of the string ``columns`` (all when None) of ``dataset``, by descending count (ties in
        alphabetical order), those counted ``freq_range`` times (inclusive, None unbounded), at most
        ``top_k``, numbered with ``special_tokens``.

        Raises:
            TypeError: if a column is not of strings.
        """
        columns = [columns] if isinstance(columns, str) else columns
        low, high = freq_range if freq_range is not None else (None, None)
        counts: Counter = Counter()
        for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
            for name in columns if columns is not None else list(row):
                values = np.asarray(row[name])
                if values.dtype.kind not in "US":
                    raise TypeError(f"Invalid datatype, 'build_vocab' only supports string type of input, but got "
                                    f"numeric type: {values.dtype}")
                counts.update(str(value) for value in values.ravel())
        ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        words = [word for word, count in ordered
                 if (low is None or count >= low) and (high is None or count <= high)]
        return cls._built(_with_specials(words[:top_k] if top_k is not None else words, special_tokens,
                                         special_first))

    def _table(self) -> dict[str, int]:
        if self._ids is None:
            raise RuntimeError("The Vocab has not built yet, got type <class 'NoneType'>. Use Vocab.from_dataset(), "
                               "Vocab.from_list(), Vocab.from_file() or Vocab.from_dict() to build a Vocab.")
        return self._ids

    def vocab(self) -> dict[str, int]:
        """The token-to-id dict."""
        return dict(self._table())

    def tokens_to_ids(self, tokens: str | list[str] | np.ndarray) -> int | list[int]:
        """The id of a token (-1 when absent), or a list of ids for a list or array of tokens.

        Raises:
            TypeError: for another type of ``tokens``.
        """
        table = self._table()
        if isinstance(tokens, str):
            return table.get(tokens, -1)
        if not isinstance(tokens, (list, np.ndarray)):
            raise TypeError(f"Argument tokens with value {tokens} is not of type [{str}, {list}, {np.ndarray}], but "
                            f"got {type(tokens)}.")
        return [table.get(str(token), -1) for token in tokens]

    def ids_to_tokens(self, ids: int | list[int] | np.ndarray) -> str | list[str]:
        """The token of an id (``''`` when absent), or a list of tokens for a list or array of ids.

        Raises:
            TypeError: for another type of ``ids``.
            ValueError: for a negative id.
        """
        by_id = {word_id: word for word, word_id in self._table().items()}
        single = isinstance(ids, (int, np.integer)) and not isinstance(ids, bool)
        if not single and not isinstance(ids, (list, np.ndarray)):
            raise TypeError(f"Argument ids with value {ids} is not of type [{int}, {list}, {np.ndarray}], but got "
                            f"{type(ids)}.")
        values = [int(ids)] if single else [int(i) for i in np.asarray(ids).ravel()]
        if any(i < 0 or i > _MAX_ID for i in values):
            raise ValueError(f"Input ids is not within the required interval of [0, {_MAX_ID}].")
        tokens = [by_id.get(i, "") for i in values]
        return tokens[0] if single else tokens
