"""Import hooks: module paths resolved through the alias table of :mod:`npspore.module_aliases`.

Two uses of one finder:

- ``import npspore`` installs a finder for the aliased ``npspore.*`` paths, so ``import
  npspore.dataset.vision.c_transforms as CV`` works as MindSpore's path does. It answers only for
  paths in the table, which no file provides (a test keeps it so), and it comes first on
  ``sys.meta_path``: below an aliased package (``npspore.nn.layer`` is ``npspore.nn``) the path
  finder would load ``nn/conv.py`` a second time as ``npspore.nn.layer.conv``.
- :func:`mindspore_imports` (what ``npspore run`` uses, and only it) puts a finder first on
  ``sys.meta_path`` for the duration of a block: every ``mindspore`` and ``mindspore.x.y`` import
  then yields npspore's module, even where MindSpore itself is installed. Outside the block
  ``import mindspore`` imports whatever it imported before.

The module an import yields is npspore's own module object (``sys.modules['mindspore.nn'] is
npspore.nn``), so classes, ``isinstance`` checks and module attributes are one and the same.
"""
from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType

from .core.lazy import module as _import_if_exists
from .module_aliases import npspore_path

__all__ = ["AliasFinder", "install_npspore_aliases", "mindspore_imports"]


class _ImportedModule(importlib.abc.Loader):
    """Loads an import path as a module that is already imported."""

    def __init__(self, module: ModuleType):
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        # The import system gave the module the alias's spec; its own keeps relative imports exact.
        module.__spec__ = self.spec


class AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``PACKAGE.path`` as the npspore module :func:`~npspore.module_aliases.npspore_path` names.

    Args:
        package (str): the top-level name this finder answers for (``'npspore'`` or ``'mindspore'``).
        every_path (bool): answer for every path below ``package`` and raise ``ModuleNotFoundError``
            naming the path when npspore has no such module (``mindspore``); otherwise answer only
            for aliased paths, leaving the rest to the other finders (``npspore``).
    """

    def __init__(self, package: str, every_path: bool):
        self.package = package
        self.every_path = every_path

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The spec of ``fullname`` as an npspore module, or None when this finder does not answer."""
        if fullname != self.package and not fullname.startswith(self.package + "."):
            return None
        relative = fullname[len(self.package) + 1:]
        npspore_name = "npspore" + ("." + npspore_path(relative) if relative else "")
        if not self.every_path and npspore_name == fullname:
            return None
        module = _import_if_exists(npspore_name)
        if module is None:
            if not self.every_path:
                return None
            raise ModuleNotFoundError(f"MindSpore's module {fullname!r} is not implemented in npspore "
                                      f"(npspore has no module {npspore_name!r})", name=fullname)
        return importlib.machinery.ModuleSpec(fullname, _ImportedModule(module),
                                              is_package=hasattr(module, "__path__"))


def install_npspore_aliases() -> None:
    """Put the finder of aliased ``npspore.*`` paths first on ``sys.meta_path`` (once per process)."""
    if not any(isinstance(finder, AliasFinder) and finder.package == "npspore" for finder in sys.meta_path):
        sys.meta_path.insert(0, AliasFinder("npspore", every_path=False))


def _is_mindspore(name: str) -> bool:
    return name == "mindspore" or name.startswith("mindspore.")


@contextlib.contextmanager
def mindspore_imports() -> Iterator[None]:
    """Within the block, ``import mindspore`` and ``import mindspore.x.y`` import npspore's modules.

    The finder goes first on ``sys.meta_path``, ahead of an installed MindSpore; MindSpore modules
    already imported are set aside and restored on exit, and the ``mindspore`` names imported in
    the block are forgotten. A MindSpore module npspore does not have raises
    ``ModuleNotFoundError`` naming it.
    """
    finder = AliasFinder("mindspore", every_path=True)
    set_aside = {name: sys.modules.pop(name) for name in list(sys.modules) if _is_mindspore(name)}
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [name for name in sys.modules if _is_mindspore(name)]:
            del sys.modules[name]
        sys.modules.update(set_aside)
