"""``mindspore.common.api``'s public name, for scripts that import ``jit`` from there."""
from ..jit import jit

__all__ = ["jit"]
