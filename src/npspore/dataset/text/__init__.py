"""Text processing, as ``mindspore.dataset.text``: so far the :class:`Vocab` of tokens and ids, and ``Lookup``."""
from ...missing_names import module_getattr as _module_getattr
from .transforms import Lookup
from .vocab import Vocab

__all__ = ["Vocab", "Lookup"]
# string transforms of the 2.10 usage list's tail
from .tokenizers import (Ngram, RegexReplace, ToNumber, TruncateSequencePair, UnicodeCharTokenizer,  # noqa: E402
                         WhitespaceTokenizer, to_bytes, to_str)
__all__ += ["Ngram", "RegexReplace", "ToNumber", "TruncateSequencePair", "UnicodeCharTokenizer",
            "WhitespaceTokenizer", "to_bytes", "to_str"]
from .bert import BasicTokenizer, BertTokenizer, NormalizeForm, WordpieceTokenizer  # noqa: E402
__all__ += ["BasicTokenizer", "BertTokenizer", "NormalizeForm", "WordpieceTokenizer"]
__getattr__ = _module_getattr("mindspore.dataset.text", globals())
