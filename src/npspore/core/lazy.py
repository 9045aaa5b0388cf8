"""Submodules loaded on first use: the one place npspore imports a module by computed name.

A package's module ``__getattr__`` calls :func:`submodule`, so ``package.name`` (and ``from
package import name``) imports ``package.name`` the first time it is asked for. ``import npspore``
thus loads neither the compiler's stages nor ``npspore.dataset``.
"""
from __future__ import annotations

import importlib


def submodule(package: str, name: str):
    """The submodule ``package.name``, imported now if it was not; None when there is none (an
    import error inside that submodule is raised)."""
    if name.startswith("_"):
        return None
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.{name}":
            raise
        return None
