"""Text transforms, as ``mindspore.dataset.text``: ``Lookup``, tokens to their ids in a ``Vocab``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common import dtype as mstype
from ..arguments import numpy_dtype
from .vocab import Vocab

__all__ = ["Lookup"]


class Lookup:
    """Each token of a string array (or a str) replaced by its id in `vocab`, as an array of `data_type`.

    Args:
        vocab (Vocab): the table.
        unknown_token (str, optional): the token whose id replaces tokens absent from `vocab` (it must be in it);
            ``None``: an absent token is an error. Default: ``None``.
        data_type (mindspore.dtype): a numeric type. Default: ``mstype.int32``.

    Raises:
        TypeError: If `vocab` is not a Vocab or `unknown_token` not a str.
        RuntimeError: (on call) If the input is not text, a token is absent with no `unknown_token`, or
            `unknown_token` is not in `vocab`.

    Examples:
        >>> vocab = text.Vocab.from_list(["home", "behind", "the", "world", "<unk>"])
        >>> text.Lookup(vocab, "<unk>")(np.array(["home", "world", "nope"]))
        array([0, 3, 4], dtype=int32)
    """

    def __init__(self, vocab: Vocab, unknown_token: str | None = None, data_type: Any = mstype.int32) -> None:
        if not isinstance(vocab, Vocab):
            raise TypeError(f"Argument vocab is not an instance of text.Vocab. with value {vocab} is not of type "
                            f"[<class 'mindspore.dataset.text.utils.Vocab'>], but got {type(vocab)}.")
        if unknown_token is not None and not isinstance(unknown_token, str):
            raise TypeError(f"Argument unknown_token with value {unknown_token} is not of type [<class 'str'>], but "
                            f"got {type(unknown_token)}.")
        self.vocab, self.unknown_token = vocab, unknown_token
        self.data_type = numpy_dtype(data_type, "data_type")

    def __call__(self, tokens):
        array = np.asarray(tokens)
        if array.dtype.kind not in "US":
            raise RuntimeError("Lookup: input is not string datatype.")
        table = self.vocab.vocab()
        unknown = None
        if self.unknown_token is not None:
            if self.unknown_token not in table:
                raise RuntimeError(f'Lookup: "{self.unknown_token}" doesn\'t exist in vocab.')
            unknown = table[self.unknown_token]
        ids = []
        for token in array.astype(str).ravel():
            word_id = table.get(token, unknown)
            if word_id is None:
                raise RuntimeError(f'Lookup: invalid data, token: "{token}" doesn\'t exist in vocab and no unknown '
                                   f'token is specified.')
            ids.append(word_id)
        return np.array(ids, self.data_type).reshape(array.shape)



# MindSpore keeps its string transforms in dataset.text.transforms too
from .tokenizers import (Ngram, RegexReplace, ToNumber, TruncateSequencePair, UnicodeCharTokenizer,  # noqa: E402,F401
                         WhitespaceTokenizer)
