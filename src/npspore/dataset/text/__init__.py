"""Text processing, as ``mindspore.dataset.text``: so far the :class:`Vocab` of tokens and ids."""
from ...missing_names import module_getattr as _module_getattr
from .vocab import Vocab

__all__ = ["Vocab"]
__getattr__ = _module_getattr("mindspore.dataset.text", globals())
