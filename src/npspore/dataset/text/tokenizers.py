"""String transforms of ``mindspore.dataset.text``: ``WhitespaceTokenizer``, ``UnicodeCharTokenizer``,
``RegexReplace``, ``Ngram``, ``ToNumber``, ``TruncateSequencePair`` and the helpers ``to_str``/``to_bytes``, as
MindSpore 2.10's (values recorded by ``tools/observe_mindspore_data_transforms.py``). Offsets are UTF-8 byte
positions, uint32, as MindSpore's."""
from __future__ import annotations

import re

import numpy as np

from ..arguments import numpy_dtype

__all__ = ["WhitespaceTokenizer", "UnicodeCharTokenizer", "RegexReplace", "Ngram", "ToNumber", "TruncateSequencePair",
           "to_str", "to_bytes"]


def _text(data, who: str) -> np.ndarray:
    array = np.asarray(data)
    if array.dtype.kind == "S":
        array = np.char.decode(array, "utf-8")
    if array.dtype.kind != "U":
        raise RuntimeError(f"{who}: the input should be string, but got {array.dtype}.")
    return array


def _check_bool(value, name: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'bool'>], but got {type(value)}.")


class _Tokenizer:
    """Cut a 0-d string into tokens (``_spans``: their character ranges); with ``with_offsets`` also their byte
    starts and ends."""

    def __init__(self, with_offsets: bool = False) -> None:
        _check_bool(with_offsets, "with_offsets")
        self.with_offsets = with_offsets

    def _spans(self, text: str) -> list[tuple[int, int]]:
        raise NotImplementedError

    def __call__(self, data):
        array = _text(data, type(self).__name__)
        if array.ndim != 0:
            raise RuntimeError(f"{type(self).__name__}: the input should be scalar string tensor, but got "
                               f"{array.ndim}-D.")
        line = str(array)
        spans = self._spans(line)
        tokens = np.array([line[a:b] for a, b in spans] or [""])
        if not self.with_offsets:
            return tokens
        width = [len(line[:i].encode("utf-8")) for i in range(len(line) + 1)]
        return (tokens, np.array([width[a] for a, _ in spans], np.uint32),
                np.array([width[b] for _, b in spans], np.uint32))


class WhitespaceTokenizer(_Tokenizer):
    """Split a string at runs of (Unicode) whitespace."""

    def _spans(self, text):
        return [m.span() for m in re.finditer(r"\S+", text)]


class UnicodeCharTokenizer(_Tokenizer):
    """Split a string into its characters."""

    def _spans(self, text):
        return [(i, i + 1) for i in range(len(text))]


class RegexReplace:
    """Each string with the matches of ``pattern`` replaced by ``replace`` (only the first with
    ``replace_all=False``)."""

    def __init__(self, pattern: str, replace: str, replace_all: bool = True) -> None:
        for name, value in (("pattern", pattern), ("replace", replace)):
            if not isinstance(value, str):
                raise TypeError(f"Argument {name} with value {value} is not of type [<class 'str'>], but got "
                                f"{type(value)}.")
        _check_bool(replace_all, "replace_all")
        self.pattern, self.replace, self.replace_all = re.compile(pattern), replace, replace_all

    def __call__(self, data):
        array = _text(data, "RegexReplace")
        replaced = [self.pattern.sub(self.replace, s, count=0 if self.replace_all else 1) for s in array.ravel()]
        return np.array(replaced).reshape(array.shape)


class Ngram:
    """The n-grams of a 1-D string array for each n of ``n``, joined by ``separator``: ``left_pad``/``right_pad``
    ``(token, width)`` pad each n's sequence by at most ``n - 1`` tokens; an input with no n-gram gives ``['']``."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator: str = " ") -> None:
        sizes = [n] if isinstance(n, int) and not isinstance(n, bool) else n
        if not isinstance(sizes, list) or not sizes or not all(isinstance(i, int) and i > 0 for i in sizes):
            raise ValueError(f"Input n is not within the required interval of [1, 2147483647], but got {n}.")
        for name, pad in (("left_pad", left_pad), ("right_pad", right_pad)):
            if not (isinstance(pad, tuple) and len(pad) == 2 and isinstance(pad[0], str) and isinstance(pad[1], int)
                    and pad[1] >= 0):
                raise ValueError(f"{name} should be a tuple of (str, int) with a non-negative width, but got {pad}.")
        if not isinstance(separator, str):
            raise TypeError(f"Argument separator with value {separator} is not of type [<class 'str'>], but got "
                            f"{type(separator)}.")
        self.n, self.left_pad, self.right_pad, self.separator = sizes, left_pad, right_pad, separator

    def __call__(self, data):
        array = _text(data, "Ngram")
        if array.ndim != 1:
            raise RuntimeError(f"Ngram: the input should be 1-D, but got {array.ndim}-D.")
        tokens, grams = list(array), []
        for size in self.n:
            padded = ([self.left_pad[0]] * min(self.left_pad[1], size - 1) + tokens
                      + [self.right_pad[0]] * min(self.right_pad[1], size - 1))
            grams += [self.separator.join(padded[i:i + size]) for i in range(len(padded) - size + 1)]
        return np.array(grams or [""])


class ToNumber:
    """Strings parsed as numbers of ``data_type``.

    Raises:
        RuntimeError: (on call) If a string is not a number of that type or is out of its range.
    """

    def __init__(self, data_type) -> None:
        self.data_type = numpy_dtype(data_type, "data_type")
        if self.data_type.kind not in "iuf":
            raise TypeError(f"data_type: {data_type} is not numeric data type.")

    def __call__(self, data):
        array = _text(data, "ToNumber")
        values = []
        for text in array.ravel():
            try:
                value = int(text.strip()) if self.data_type.kind in "iu" else float(text)
            except ValueError:
                raise RuntimeError(f"ToNumber: string input {text} is not a valid {self.data_type}.") from None
            if self.data_type.kind in "iu" and not (np.iinfo(self.data_type).min <= value <=
                                                     np.iinfo(self.data_type).max):
                raise RuntimeError(f"ToNumber: string input {text} will be out of bounds if cast to "
                                   f"{self.data_type}.")
            values.append(value)
        return np.array(values, self.data_type).reshape(array.shape)


class TruncateSequencePair:
    """Two 1-D arrays cut at their ends until their lengths add up to at most ``max_length``: the longer one
    first (the second on a tie)."""

    def __init__(self, max_length: int) -> None:
        if not isinstance(max_length, int) or isinstance(max_length, bool) or max_length < 0:
            raise ValueError(f"Input max_length is not within the required interval of [0, 2147483647], but got "
                             f"{max_length}.")
        self.max_length = max_length

    def __call__(self, first, second):
        first, second = np.asarray(first), np.asarray(second)
        a, b = len(first), len(second)
        while a + b > self.max_length:
            if a > b:
                a -= 1
            else:
                b -= 1
        return first[:a], second[:b]


def to_str(array, encoding: str = "utf8") -> np.ndarray:
    """A bytes array decoded into a str array."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"input should be a NumPy array, but got {type(array)}.")
    return np.char.decode(array, encoding)


def to_bytes(array, encoding: str = "utf8") -> np.ndarray:
    """A str array encoded into a bytes array."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"input should be a NumPy array, but got {type(array)}.")
    return np.char.encode(array, encoding)
