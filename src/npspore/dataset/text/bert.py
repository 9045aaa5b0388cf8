"""BERT's tokenizers of ``mindspore.dataset.text``: ``BasicTokenizer`` (normalise, split at whitespace,
punctuation and CJK characters), ``WordpieceTokenizer`` (greedy longest-match sub-words of a vocabulary) and
``BertTokenizer`` (the two in turn), with MindSpore 2.10's arithmetic:

- ``lower_case``: ICU's NFKC case folding (Python's ``casefold`` between NFKC normalisations, default-ignorable
  characters such as the soft hyphen removed), then NFD and the nonspacing marks (accents) removed. With
  ``preserve_unused_token`` the folding skips ``[CLS]``, ``[SEP]``, ``[UNK]``, ``[PAD]`` and ``[MASK]`` as
  MindSpore's ``CaseFoldWithoutUnusedWords`` does, which folds the text from its start up to each preserved word
  (so the text before the first one is repeated once per preserved word: MindSpore's output, kept).
- otherwise the text is normalised with ``normalization_form``.
- control and format characters become spaces; ICU's regex tokenizer then splits at ``\\s+`` and at each ASCII
  symbol, Unicode punctuation character and CJK ideograph, which are kept as tokens (whitespace runs too with
  ``keep_whitespace``; ``[CLS]``-style and ``[unusedN]`` words whole with ``preserve_unused_token``).

Offsets are UTF-8 byte positions (uint32) in the normalised text, as MindSpore's.
"""
from __future__ import annotations

import re
import unicodedata
from enum import IntEnum
from functools import lru_cache

import numpy as np

from .vocab import Vocab

__all__ = ["NormalizeForm", "BasicTokenizer", "WordpieceTokenizer", "BertTokenizer"]


class NormalizeForm(IntEnum):
    """Unicode normalisation forms of ``BasicTokenizer``/``BertTokenizer`` (``NONE``: none)."""
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


_UNUSED_WORDS = ("[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]")
_UNUSED_PATTERN = r"\[CLS\]|\[SEP\]|\[UNK\]|\[PAD\]|\[MASK\]|\[unused\d+\]|"
_CJK = ("\u4E00-\u9FFF\u3400-\u4DBF\U00020000-\U0002A6DF\U0002A700-\U0002B73F\U0002B740-\U0002B81F"
        "\U0002B820-\U0002CEAF\uF900-\uFAFF\U0002F800-\U0002FA1F")
# Unicode's Default_Ignorable_Code_Point ranges, which NFKC case folding removes
_DEFAULT_IGNORABLE = re.compile("[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E"
                                "\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3"
                                "\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]")


_LAST_PUNCTUATION_PLANE = 0x1FFFF   # no code point above the first two planes is punctuation


@lru_cache(maxsize=None)
def _punctuation() -> str:
    """A regex character class body of every punctuation code point (ICU's ``\\p{P}``)."""
    ranges, start = [], None
    for code in range(_LAST_PUNCTUATION_PLANE + 2):
        inside = code <= _LAST_PUNCTUATION_PLANE and unicodedata.category(chr(code)).startswith("P")
        if inside and start is None:
            start = code
        elif not inside and start is not None:
            ranges.append(re.escape(chr(start)) + ("-" + re.escape(chr(code - 1)) if code - 1 > start else ""))
            start = None
    return "".join(ranges)


@lru_cache(maxsize=None)
def _regexes(keep_whitespace: bool, preserve_unused_token: bool) -> tuple[re.Pattern, re.Pattern]:
    """MindSpore's delimiter pattern and the pattern of the delimiters kept as tokens."""
    common = rf"[!-/]|[:-@]|[\[-`]|[{{-~]|[{_punctuation()}]|[{_CJK}]"
    delimiters = r"\s+|" + common
    kept = delimiters if keep_whitespace else common
    if preserve_unused_token:
        delimiters, kept = _UNUSED_PATTERN + delimiters, _UNUSED_PATTERN + kept
    return re.compile(delimiters), re.compile(kept)


def _nfkc_casefold(text: str) -> str:
    return unicodedata.normalize("NFKC", _DEFAULT_IGNORABLE.sub("", unicodedata.normalize("NFKC", text)).casefold())


def _fold_except_unused(text: str) -> str:
    """MindSpore's ``CaseFoldWithoutUnusedWords``, on the UTF-8 bytes as it works."""
    data = text.encode("utf-8")
    preserved, start, length = [], -1, 0
    for i, byte in enumerate(data):
        if byte == ord("["):
            start, length = i, length + 1
        elif byte == ord("]") and start >= 0:
            length += 1
            if data[start:start + length].decode("utf-8", "replace") in _UNUSED_WORDS:
                preserved.append((start, start + length - 1))
            start, length = -1, 0
        elif start >= 0:
            length += 1
    out, i = [], 0
    while i < len(data):   # the start of each folded piece stays 0: MindSpore never advances it
        if preserved:
            first, last = preserved.pop(0)
            piece, kept, i = data[:first], data[first:last + 1], last + 1
        else:
            piece, kept, i = data, b"", len(data)
        out.append(_nfkc_casefold(piece.decode("utf-8", "replace")) + kept.decode("utf-8", "replace"))
    return "".join(out)


def _scalar_text(data, who: str) -> str:
    array = np.asarray(data)
    if array.ndim != 0 or array.dtype.kind not in "US":
        raise RuntimeError(f"{who}: the input should be scalar with string datatype")
    return array.item().decode("utf-8") if array.dtype.kind == "S" else str(array)


def _check_bool(value, name: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"Wrong input type for {name}, should be boolean.")


def _check_str(value, name: str) -> None:
    if not isinstance(value, str):
        raise TypeError(f"Wrong input type for {name}, should be string.")


def _offsets(tokens, starts, ends, with_offsets):
    tokens = np.array(tokens or [""])
    if not with_offsets:
        return tokens
    return tokens, np.array(starts or [0], np.uint32), np.array(ends or [0], np.uint32)


class BasicTokenizer:
    """Split a scalar string into words and punctuation (see the module doc).

    Args:
        lower_case (bool): case-fold and strip accents; else normalise with ``normalization_form``. Default: ``False``.
        keep_whitespace (bool): keep whitespace runs as tokens. Default: ``False``.
        normalization_form (NormalizeForm): used when not ``lower_case``. Default: ``NormalizeForm.NONE``.
        preserve_unused_token (bool): keep ``[CLS]``, ``[SEP]``, ``[UNK]``, ``[PAD]``, ``[MASK]`` and ``[unusedN]``
            whole. Default: ``True``.
        with_offsets (bool): also return the tokens' byte starts and ends. Default: ``False``.

    Raises:
        TypeError: for an argument of the wrong type (MindSpore's messages). RuntimeError: (on a call) for an
            input that is not a scalar string.
    """

    def __init__(self, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False) -> None:
        for name, value in (("lower_case", lower_case), ("keep_whitespace", keep_whitespace),
                            ("preserve_unused_token", preserve_unused_token), ("with_offsets", with_offsets)):
            _check_bool(value, name)
        if not isinstance(normalization_form, NormalizeForm):
            raise TypeError("Wrong input type for normalization_form, should be enum of 'NormalizeForm'.")
        self.lower_case, self.keep_whitespace = lower_case, keep_whitespace
        self.normalization_form, self.preserve_unused_token = normalization_form, preserve_unused_token
        self.with_offsets = with_offsets

    def _normalized(self, text: str) -> str:
        if self.lower_case:
            text = _fold_except_unused(text) if self.preserve_unused_token else _nfkc_casefold(text)
            text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
        elif self.normalization_form is not NormalizeForm.NONE:
            text = unicodedata.normalize(self.normalization_form.name, text)
        return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)

    def _tokens(self, text: str) -> list[tuple[str, int, int]]:
        """``(token, byte start, byte end)`` of the normalised ``text``, as ICU's regex tokenizer cuts it."""
        delimiters, kept = _regexes(self.keep_whitespace, self.preserve_unused_token)
        tokens, position, byte = [], 0, 0
        for match in delimiters.finditer(text):
            if match.start() > position:
                token = text[position:match.start()]
                tokens.append((token, byte, byte + len(token.encode("utf-8"))))
                byte = tokens[-1][2]
            delimiter = match.group()
            size = len(delimiter.encode("utf-8"))
            if delimiter and kept.fullmatch(delimiter):
                tokens.append((delimiter, byte, byte + size))
            byte += size
            position = match.end()
        if position < len(text):
            token = text[position:]
            tokens.append((token, byte, byte + len(token.encode("utf-8"))))
        return tokens

    def __call__(self, data):
        tokens = self._tokens(self._normalized(_scalar_text(data, "BasicTokenizer")))
        return _offsets([t for t, _, _ in tokens], [s for _, s, _ in tokens], [e for _, _, e in tokens],
                        self.with_offsets)


class WordpieceTokenizer:
    """Split each token of a 1-D string array into the longest sub-words ``vocab`` has, from the left; a later
    piece is looked up with ``suffix_indicator`` in front. A token with no split, or longer than
    ``max_bytes_per_token`` UTF-8 bytes, becomes ``unknown_token`` (itself when that is ``''``).

    Args:
        vocab (Vocab): the sub-words.
        suffix_indicator (str): Default: ``'##'``.
        max_bytes_per_token (int): Default: ``100``.
        unknown_token (str): Default: ``'[UNK]'``.
        with_offsets (bool): also return each piece's byte start and end within its token's span. Default:
            ``False``.

    Raises:
        TypeError, ValueError: for an argument of the wrong type or out of range (MindSpore's messages).
    """

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 with_offsets=False) -> None:
        if not isinstance(vocab, Vocab):
            raise TypeError("Wrong input type for vocab, should be text.Vocab object.")
        _check_str(suffix_indicator, "suffix_indicator")
        if not isinstance(max_bytes_per_token, int) or isinstance(max_bytes_per_token, bool) or \
                not 0 <= max_bytes_per_token <= 4294967295:
            raise ValueError("Input is not within the required interval of [0, 4294967295].")
        _check_str(unknown_token, "unknown_token")
        _check_bool(with_offsets, "with_offsets")
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token
        self.with_offsets = with_offsets

    def _pieces(self, token: str, start: int, end: int) -> list[tuple[str, int, int]]:
        unknown = [(self.unknown_token or token, start, end)]
        data = token.encode("utf-8")
        if len(data) > self.max_bytes_per_token:
            return unknown
        words = self.vocab._table()
        pieces, begin = [], 0
        while begin < len(token):
            for stop in range(len(token), begin, -1):
                piece = token[begin:stop] if begin == 0 else self.suffix_indicator + token[begin:stop]
                if piece in words:
                    offset = len(token[:begin].encode("utf-8"))
                    pieces.append((piece, start + offset, start + offset + len(token[begin:stop].encode("utf-8"))))
                    begin = stop
                    break
            else:
                return unknown
        return pieces

    def _split(self, tokens: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
        return [piece for token in tokens for piece in self._pieces(*token)]

    def __call__(self, data):
        array = np.asarray(data)
        if array.dtype.kind == "S":
            array = np.char.decode(array, "utf-8")
        if array.ndim != 1 or array.dtype.kind != "U":
            raise RuntimeError("WordpieceTokenizer: the input should be 1-D string tensor.")
        tokens = [(str(t), 0, len(str(t).encode("utf-8"))) for t in array]
        pieces = self._split(tokens)
        return _offsets([p for p, _, _ in pieces], [s for _, s, _ in pieces], [e for _, _, e in pieces],
                        self.with_offsets)


class BertTokenizer:
    """:class:`BasicTokenizer` then :class:`WordpieceTokenizer` on a scalar string: BERT's input tokens.

    Args:
        vocab (Vocab): the sub-words.
        suffix_indicator (str): Default: ``'##'``.
        max_bytes_per_token (int): Default: ``100``.
        unknown_token (str): Default: ``'[UNK]'``.
        lower_case (bool): Default: ``False``.
        keep_whitespace (bool): Default: ``False``.
        normalization_form (NormalizeForm): Default: ``NormalizeForm.NONE``.
        preserve_unused_token (bool): Default: ``True``.
        with_offsets (bool): also return the pieces' byte starts and ends. Default: ``False``.

    Raises:
        TypeError, ValueError: for an argument of the wrong type or out of range (MindSpore's messages).
        RuntimeError: (on a call) for an input that is not a scalar string.
    """

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False) -> None:
        self.wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token, unknown_token, with_offsets)
        self.basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form, preserve_unused_token,
                                    with_offsets)
        self.with_offsets = with_offsets

    def __call__(self, data):
        text = self.basic._normalized(_scalar_text(data, "BasicTokenizer"))
        pieces = self.wordpiece._split(self.basic._tokens(text))
        return _offsets([p for p, _, _ in pieces], [s for _, s, _ in pieces], [e for _, _, e in pieces],
                        self.with_offsets)
