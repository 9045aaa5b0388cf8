"""Modules loaded on first use: the one place npspore imports a module by computed name.

A package's module ``__getattr__`` calls :func:`submodule`, so ``package.name`` (and ``from
package import name``) imports ``package.name`` the first time it is asked for. ``import npspore``
thus loads neither the compiler's stages nor ``npspore.dataset``. The import hooks
(``npspore.import_hook``) load the module an aliased path names through :func:`module`.
"""
from __future__ import annotations

import importlib
from types import ModuleType


def module(name: str) -> ModuleType | None:
    """The module ``name``, imported now if it was not; None when neither it nor a package above it
    exists (an import error inside an existing module is raised)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is None or not (name == error.name or name.startswith(error.name + ".")):
            raise
        return None


def submodule(package: str, name: str) -> ModuleType | None:
    """The submodule ``package.name``, imported now if it was not; None when there is none (an
    import error inside that submodule is raised)."""
    return None if name.startswith("_") else module(f"{package}.{name}")


def attribute(path: str) -> object:
    """The object at the full dotted ``path`` (``"npspore.ops.pows"``: attribute ``pows`` of ``npspore.ops``, whose
    module is imported now if it was not)."""
    module_name, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module_name), name)
