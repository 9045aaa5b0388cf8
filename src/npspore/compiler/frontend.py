"""Frontend: from a Python callable to its parsed source, with exact positions.

``parse_function(fn)`` finds the source (``core.source``), parses it with ``ast`` (positions shifted
to the real file's lines and columns, so every later error points at the user's file), rejects the
Python constructs npspore does not compile, and records what later stages need to resolve names:
the function's globals and closure. Results are cached per code object.
"""
from __future__ import annotations

import ast
import hashlib
import os
from dataclasses import dataclass, field

from ..core.source import parse_source
from .errors import PACKAGE_DIRECTORY, NotSupportedError, SourceUnavailableError, located, not_supported
from .ir import Loc

_UNSUPPORTED = {
    ast.Try: "'try' statement",
    ast.AsyncWith: "'async with' statement",
    ast.Yield: "'yield'",
    ast.YieldFrom: "'yield from'",
    ast.Await: "'await'",
    ast.Global: "'global' statement",
    ast.Nonlocal: "'nonlocal' statement",
    ast.ClassDef: "class definition",
    ast.AsyncFunctionDef: "async function",
    ast.Import: "'import' statement",
    ast.ImportFrom: "'import' statement",
    ast.Delete: "'del' statement",
    ast.AsyncFor: "'async for'",
}
if hasattr(ast, "TryStar"):
    _UNSUPPORTED[ast.TryStar] = "'try' statement"
if hasattr(ast, "Match"):
    _UNSUPPORTED[ast.Match] = "'match' statement"


@dataclass
class SourceFunction:
    """A parsed function: its ``ast.FunctionDef`` (real-file positions) and its name environment."""

    tree: ast.FunctionDef
    filename: str
    qualname: str
    globals: dict
    closure: dict
    source: str
    is_library: bool            # npspore's own code: its frames are transparent in error locations
    cells: dict = field(default_factory=dict)   # closure name -> its cell (guards read it again)

    def loc(self, node: ast.AST) -> Loc:
        """The source location of a node of this function."""
        return Loc(self.filename, getattr(node, "lineno", self.tree.lineno),
                   getattr(node, "col_offset", 0), getattr(node, "end_col_offset", None))

    @property
    def source_digest(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()


_CACHE: dict = {}


def parse_function(fn) -> SourceFunction:
    """Parse a plain function (not a bound method: pass ``method.__func__``).

    Raises:
        NotSupportedError: the source is unavailable (REPL, ``exec``, ``python -c``), or the
            function uses a construct npspore does not compile; located at the user's line.
    """
    code = getattr(fn, "__code__", None)
    if code is None:
        raise TypeError(f"npspore can only compile Python functions and Cells, but got {type(fn).__name__}")
    cached = _CACHE.get(code)
    if cached is not None and cached.globals is fn.__globals__:
        return _with_closure(cached, fn)
    filename = code.co_filename
    try:
        module, lines, first_line = parse_source(fn)
    except (OSError, TypeError):
        raise located(SourceUnavailableError(
            f"cannot compile {fn.__qualname__!r} from {filename!r}: its source code is not available. "
            "npspore compiles Python source, so the code must live in a real .py file "
            "(not the REPL, python -c or exec); write it to a file and import it"),
            Loc(filename, code.co_firstlineno)) from None
    raw = "".join(lines)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    tree = _find_function(module, code.co_name, fn, filename, first_line)
    ast.increment_lineno(tree, first_line - 1)
    if indent:
        for node in ast.walk(tree):
            if hasattr(node, "col_offset"):
                node.col_offset += indent
                if getattr(node, "end_col_offset", None) is not None:
                    node.end_col_offset += indent  # type: ignore[attr-defined]  # any positioned node
    source = SourceFunction(
        tree=tree, filename=filename, qualname=fn.__qualname__, globals=fn.__globals__, closure={},
        source=raw, is_library=os.path.abspath(filename).startswith(PACKAGE_DIRECTORY),
    )
    _check_supported(source)
    _CACHE[code] = source
    return _with_closure(source, fn)


def _with_closure(source: SourceFunction, fn) -> SourceFunction:
    if not fn.__closure__:
        return source
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__))
    closure = {name: cell.cell_contents for name, cell in cells.items() if _cell_filled(cell)}
    return SourceFunction(source.tree, source.filename, source.qualname, source.globals, closure,
                          source.source, source.is_library, cells)


def _cell_filled(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _find_function(module: ast.Module, name: str, fn, filename: str, first_line: int) -> ast.FunctionDef:
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    if name == "<lambda>":
        lambdas = _lambdas_of(module, fn.__code__, first_line)
        if len(lambdas) == 1:
            lam = lambdas[0]
            body = ast.Return(value=lam.body, lineno=lam.body.lineno, col_offset=lam.body.col_offset,
                              end_lineno=lam.body.end_lineno, end_col_offset=lam.body.end_col_offset)
            return ast.FunctionDef(name="lambda", args=lam.args, body=[body], decorator_list=[],
                                   returns=None, type_comment=None, lineno=lam.lineno,
                                   col_offset=lam.col_offset, end_lineno=lam.end_lineno,
                                   end_col_offset=lam.end_col_offset,
                                   type_params=[])  # type: ignore[call-arg]  # a field since Python 3.12
        raise not_supported(
            "a lambda that shares its line with other lambdas (define it on a separate line)",
            Loc(filename, first_line))
    raise not_supported(f"finding the source of {fn.__qualname__!r}", Loc(filename, first_line))


def _lambdas_of(module: ast.Module, code, first_line: int) -> list:
    """The lambdas of ``module`` (parsed from the lines from ``first_line``) that may be the one of ``code``:
    those starting on its line; of several there (``{"f": lambda x: x, "g": lambda x: -x}``), those whose
    bytecode is ``code``'s (lambdas with the same bytecode compute the same, so the first of them serves)."""
    line = code.co_firstlineno - first_line + 1
    lambdas = [n for n in ast.walk(module) if isinstance(n, ast.Lambda) and n.lineno == line]
    if len(lambdas) > 1:
        same = [lam for lam in lambdas if _fingerprint(_compiled_lambda(lam, code.co_freevars)) == _fingerprint(code)]
        lambdas = same[:1] or lambdas
    return lambdas


def _compiled_lambda(lam: ast.Lambda, freevars: tuple):
    """The code object of ``lam`` compiled inside a function whose locals are ``freevars`` (so it reads them
    from its closure, as the lambda in the user's function does)."""
    cells = "".join(f"    {name} = None\n" for name in freevars)
    outer = compile(f"def _outer():\n{cells}    return ({ast.unparse(lam)})\n", "<lambda>", "exec")
    outer_code = next(c for c in outer.co_consts if hasattr(c, "co_code"))
    return next(c for c in outer_code.co_consts if hasattr(c, "co_code"))


def _fingerprint(code) -> tuple:
    """What a code object computes: its bytecode, names and constants (nested code by their fingerprints)."""
    consts = tuple(_fingerprint(c) if hasattr(c, "co_code") else (type(c), c) for c in code.co_consts)
    return code.co_code, code.co_names, code.co_varnames, code.co_freevars, consts


def _check_supported(source: SourceFunction) -> None:
    tree = source.tree
    for node in ast.walk(tree):
        what = _UNSUPPORTED.get(type(node))
        if what is None and isinstance(node, ast.Starred) and isinstance(getattr(node, "ctx", None), ast.Store):
            what = "starred assignment"
        if what is not None:
            raise not_supported(what, source.loc(node))
