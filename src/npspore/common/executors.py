"""MindSpore's private executor objects of ``mindspore.common.api``, as programs call them:
``_pynative_executor`` (eager execution) and ``_cell_graph_executor`` (compiling Cells), and the
``cells_compile_cache`` dictionary.

npspore differentiates by compiling a function's source, not by recording a tape while ops run, and runs
each op when it is called; what these objects switch or wait for in MindSpore's C++ runtime is therefore
recorded (the grad flags) or already done (``sync``). Their docstrings say which.
"""
from __future__ import annotations

__all__ = ["_PyNativeExecutor", "_CellGraphExecutor", "_pynative_executor", "_cell_graph_executor",
           "cells_compile_cache"]


class _PyNativeExecutor:
    """The eager executor: flags of gradient recording, and ``sync``."""

    def __init__(self) -> None:
        self._grad_flag = False
        self._enable_grad = True

    def sync(self) -> None:
        """Wait for the ops launched so far: npspore runs each op when it is called, so it returns at once."""

    def grad_flag(self) -> bool:
        """The flag :meth:`set_grad_flag` set (``False`` at first, as in MindSpore)."""
        return self._grad_flag

    def set_grad_flag(self, flag: bool) -> None:
        """Record whether eager ops are recorded for a later gradient. Recorded only: npspore's gradients come
        from compiling the differentiated function, which needs no recording."""
        self._grad_flag = bool(flag)

    def enable_grad(self) -> bool:
        """Whether gradients are enabled (``True`` until :meth:`set_enable_grad` turns them off)."""
        return self._enable_grad

    def set_enable_grad(self, flag: bool) -> None:
        """Record whether gradients are enabled (read back by :meth:`enable_grad`)."""
        self._enable_grad = bool(flag)

    def requires_grad(self) -> bool:
        """Whether eager ops are being recorded for a gradient now: never in npspore (see the module doc)."""
        return False


class _CellGraphExecutor:
    """The executor that compiles Cells (``compile``) and tells whether a phase compiled."""

    def __init__(self) -> None:
        self._phases: set[str] = set()

    def compile(self, obj, *args, phase: str = "predict", **kwargs) -> tuple[str, bool]:
        """Compile the Cell ``obj`` for the inputs ``args`` (``obj.compile(*args)``) without running it.

        Returns:
            tuple[str, bool]: the compiled phase's name and ``True``, as MindSpore returns.

        Raises:
            The error compiling ``obj`` raises for these inputs.
        """
        obj.compile(*args, **kwargs)
        name = f"{'train' if getattr(obj, 'training', False) else phase}.{id(obj)}"
        self._phases.add(name)
        return name, True

    def has_compiled(self, phase: str) -> bool:
        """Whether :meth:`compile` compiled ``phase``."""
        return phase in self._phases


_pynative_executor = _PyNativeExecutor()
_cell_graph_executor = _CellGraphExecutor()
# MindSpore's Cells register their compile caches here by id(cell); npspore's caches live on the kernels.
cells_compile_cache: dict = {}
