"""Building typed normal form: fresh SSA names and op applications checked by the op table's rules.

Both the specializer (staging the user's code) and the differentiator (staging adjoint rules) emit
statements through a :class:`BlockBuilder`, so every ``Apply`` in a module has passed its op's
shape/dtype rule and every name is unique within its function.
"""
from __future__ import annotations

import builtins
import keyword
import re

from ..opdef import Aval, op_table
from .ir import Apply, Block, Const, Loc, Var, aval_or_value

_NOT_IDENT = re.compile(r"[^0-9A-Za-z_]")
_UNDERSCORES = re.compile(r"__+")


def identifier(hint: str) -> str:
    """A valid, non-keyword Python identifier derived from a user-controlled string.

    It never contains ``__``: names with a double underscore are the compiler's own (codegen's
    temporaries of inlined op templates, ``t__e``), so no user name can capture them."""
    name = _NOT_IDENT.sub("_", str(hint))
    name = _UNDERSCORES.sub("_", name).strip("_") or "v"
    if name[0].isdigit():
        name = "v_" + name
    if keyword.iskeyword(name):
        name += "_"
    return name


_RESERVED = frozenset(dir(builtins)) | {"np", "rt", "kernel", "layout"}


class NameSupply:
    """Hands out unique names within one function: ``h``, ``h_1``, ``h_2`` ...

    Builtin names (``sum``, ``max`` ...) are never handed out bare, so generated code shadows nothing.
    """

    def __init__(self, taken=()):
        self._counts: dict[str, int] = {}
        self._taken: set[str] = set(taken) | _RESERVED

    def fresh(self, hint: str) -> str:
        base = identifier(hint)
        name = base
        while name in self._taken:
            count = self._counts.get(base, 0) + 1
            self._counts[base] = count
            name = f"{base}_{count}"
        self._taken.add(name)
        return name

    def var(self, hint: str, aval: Aval) -> Var:
        return Var(self.fresh(hint), aval)


class BlockBuilder:
    """Appends statements to a block; ``apply`` infers result avals through the op table."""

    def __init__(self, names: NameSupply, block: Block | None = None):
        self.names = names
        self.block = block if block is not None else Block()

    def append(self, stmt) -> None:
        self.block.stmts.append(stmt)

    def apply(self, op: str, args, static=None, *, loc: Loc, hint: str = "t"):
        """Emit ``op(*args, **static)``; returns the result Var, or a tuple for multi-output ops.

        Raises the op rule's ``OpShapeError``/``OpTypeError``; callers attach the source location.
        """
        definition = op_table()[op]
        static = dict(static or {})
        args = tuple(a if isinstance(a, (Var, Const)) else Const(a) for a in args)
        if definition.canonical is not None:
            static = definition.canonical(*(aval_or_value(a) for a in args), **static)
        inferred = definition.infer(*(aval_or_value(a) for a in args), **static)
        multi = isinstance(inferred, tuple)
        avals = inferred if multi else (inferred,)
        targets = tuple(self.names.var(hint, aval) for aval in avals)
        self.append(Apply(targets, definition.name, args, static, loc))
        return targets if multi else targets[0]
