"""Text processing, as ``mindspore.dataset.text``: so far the :class:`Vocab` of tokens and ids, and ``Lookup``."""
from ...missing_names import module_getattr as _module_getattr
from .transforms import Lookup
from .vocab import Vocab

__all__ = ["Vocab", "Lookup"]
__getattr__ = _module_getattr("mindspore.dataset.text", globals())
