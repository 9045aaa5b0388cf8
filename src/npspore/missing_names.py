"""Clear errors for MindSpore names npspore does not have.

A ported script that reaches for ``P.SomeOp`` or ``nn.SomeLayer`` npspore lacks should learn that the
name is MindSpore's but not implemented here, and which existing name is closest, instead of a bare
``module has no attribute``. Modules install :func:`module_getattr` as their ``__getattr__``
(PEP 562), which Python calls only for names the module does not define; a submodule not imported
yet (``npspore.dataset``, or an aliased path such as ``dataset.vision.c_transforms``) is imported
then instead.
"""
from __future__ import annotations

from typing import Callable

from .core.lazy import attribute, module, submodule


def module_getattr(module_name: str, namespace: dict, internal: tuple[str, ...] = (), elsewhere: dict | None = None,
                   fallback: str | None = None) -> Callable[[str], object]:
    """A module ``__getattr__`` returning a submodule not imported yet, a name npspore keeps in another module
    (``elsewhere``, ``fallback``), or raising ``AttributeError`` for any other name the module lacks.

    Args:
        module_name (str): the MindSpore spelling of the module, e.g. ``'mindspore.ops.operations'``.
        namespace (dict): the module's ``globals()``: its ``__name__`` is the package whose submodules
            are looked up; its public names (read at lookup time, so names added later count) are
            searched for the closest match.
        internal (tuple[str, ...]): submodules that are no attributes of the package (imported by
            their full name only, as ``from npspore.opdef import op_table``).
        elsewhere (dict): names MindSpore also has in this module (the same objects as elsewhere in MindSpore:
            ``mindspore.ops.functional.pows`` is ``mindspore.ops.pows``) -> the full path of npspore's object
            (``"npspore.ops.pows"``), imported at first use, so that modules importing each other can share names.
        fallback (str): the full name of a module whose public names (its ``__all__``) this module also answers
            (``mindspore.dataset.vision.transforms`` defines the transforms ``mindspore.dataset.vision`` exports).

    Returns:
        The function to assign to the module's ``__getattr__``.
    """

    def __getattr__(name: str):
        if name.startswith("__"):  # protocol lookups (__path__, __wrapped__ ...) stay plain misses
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        if name in internal:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r} "
                                 f"({namespace['__name__']}.{name} is internal: import it by its full name)")
        found = submodule(namespace["__name__"], name)
        if found is not None:
            return found
        shared = None
        if elsewhere and name in elsewhere:
            shared = elsewhere[name]
        elif fallback is not None and name in module(fallback).__all__:
            shared = f"{fallback}.{name}"
        if shared is not None:
            namespace[name] = value = attribute(shared)   # later lookups find it without this function
            return value
        message = f"'{module_name}.{name}' is not implemented in npspore"
        public = sorted(key for key in namespace if not key.startswith("_"))
        close = closest_name(name, public)
        if close:
            message += f"; the closest name it has is '{close}'"
        raise AttributeError(message)

    return __getattr__


# A suggestion must be a likely misspelling: at 0.6 (difflib's default) 'hessian' suggested 'assign'.
_SIMILARITY = 0.75


def closest_name(name: str, names: list[str]) -> str | None:
    """The name of ``names`` most like ``name``, ignoring case (``Matmul`` -> ``MatMul``), or None when
    none is close enough to be a misspelling of it."""
    import difflib   # loads only when a missing name is looked up
    by_lower = {candidate.lower(): candidate for candidate in reversed(names)}
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=_SIMILARITY)
    return by_lower[close[0]] if close else None
