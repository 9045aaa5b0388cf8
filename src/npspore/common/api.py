"""``mindspore.common.api``'s public name, for scripts that import ``jit`` from there, and the private
executor objects (:mod:`.executors`) programs reach for."""
from ..jit import jit
from .executors import _cell_graph_executor, _pynative_executor, cells_compile_cache  # noqa: F401

__all__ = ["jit"]
