"""``mindspore.multiprocessing``: Python's ``multiprocessing`` (MindSpore wraps ``Process`` to make forked
children safe for its C++ runtime threads; npspore's runtime is NumPy in the calling thread, so Python's own
``Process``, ``get_context`` and ``set_start_method`` are what it offers)."""
from multiprocessing import Process, get_context, set_start_method  # noqa: F401

__all__ = ["Process", "get_context", "set_start_method"]
