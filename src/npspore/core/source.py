"""The source of a function, found from its code object instead of by tokenizing its file.

``inspect.getsourcelines`` tokenizes from the function's first line to the end of its block; the
compiler asks for the source of every function it compiles and of every op template it inlines,
and those tokenizer passes were a fifth of a first compile. A code object knows the line span of
its instructions (``co_positions``, Python 3.11+): from its first line (the first decorator) to
the last line any of its expressions reaches. That span is taken when it parses as one
definition; anything else (a lambda, a span ending inside brackets, Python 3.10) is found by
``inspect``. A lambda inside brackets opened on an earlier line (a table of cases) is found in its
whole file's tree; that tree is walked once per file text, not once per lambda and call.
"""
from __future__ import annotations

import ast
import copy
import inspect
import linecache
import textwrap


def source_lines(fn) -> tuple:
    """``(lines, first_line)`` of plain function ``fn``, as ``inspect.getsourcelines`` gives them
    (comment lines after the last statement may be left out). Raises OSError or TypeError as
    ``inspect`` does when the source is not available."""
    return parse_source(fn)[1:]


_AVAILABLE: dict = {}   # code object -> whether its source is found


def source_available(fn) -> bool:
    """Whether the source of plain function ``fn`` is found (not in the REPL, ``python -c``
    or ``exec``): without it, the compiler traces the function instead (``compiler.tracing``)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return False
    found = _AVAILABLE.get(code)
    if found is None:
        try:
            source_lines(fn)
            found = True
        except (OSError, TypeError):
            found = False
        _AVAILABLE[code] = found
    return found


def parse_source(fn) -> tuple:
    """``(module, lines, first_line)``: :func:`source_lines` and the ``ast.Module`` of their
    dedented text (whose first statement is the definition of ``fn``)."""
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    found = _span(code) if code is not None and code.co_name != "<lambda>" else None
    if found is not None:
        return found
    lines, first = inspect.getsourcelines(fn)
    try:
        return ast.parse(textwrap.dedent("".join(lines))), lines, first
    except SyntaxError:   # a lambda inside a bracket opened on an earlier line ("key": (lambda x: ..., ...),)
        found = _lambdas_of_line(code) if code is not None and code.co_name == "<lambda>" else None
        if found is None:
            raise
        return found


def _lambdas_of_line(code):
    """``(module, lines, first_line)`` holding the lambdas that start on ``code``'s first line, found by parsing
    its whole file; their positions as if the lines were parsed alone (dedented), or None."""
    file_lines = linecache.getlines(code.co_filename)
    first = code.co_firstlineno
    index = _lambdas_by_line(code.co_filename, "".join(file_lines))
    found = [copy.deepcopy(node) for node in (index or {}).get(first, ())]   # fresh nodes: moved below
    if not found:
        return None
    lines = file_lines[first - 1:max(node.end_lineno for node in found)]
    indent = len(lines[0]) - len(lines[0].lstrip())
    for lam in found:
        for node in ast.walk(lam):
            if hasattr(node, "lineno"):
                node.lineno -= first - 1
                node.end_lineno -= first - 1
                node.col_offset -= indent
                node.end_col_offset -= indent
    return ast.Module(body=[ast.Expr(value=lam) for lam in found], type_ignores=[]), lines, first


_LAMBDAS: dict = {}   # file name -> (the text parsed, {first line: [ast.Lambda, ...]} or None)


def _lambdas_by_line(filename: str, text: str):
    """The lambdas of the file ``text`` by their first line, or None when it does not parse; kept per file
    name while its text stays the same (a table of lambda cases would otherwise parse its file each call)."""
    kept = _LAMBDAS.get(filename)
    if kept is not None and kept[0] == text:
        return kept[1]
    try:
        tree = ast.parse(text)
    except SyntaxError:
        _LAMBDAS[filename] = (text, None)
        return None
    index: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            index.setdefault(node.lineno, []).append(node)
    _LAMBDAS[filename] = (text, index)
    return index


def _span(code):
    """``(module, lines, first_line)`` from ``code``'s line span, or None (see the module docstring)."""
    if not hasattr(code, "co_positions"):
        return None
    first, last = code.co_firstlineno, _last_line(code)
    file_lines = linecache.getlines(code.co_filename)
    if last < first or last > len(file_lines):
        return None
    lines = file_lines[first - 1:last]
    if not lines[0].lstrip().startswith(("def ", "async def ", "@")):
        return None
    try:
        module = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None
    if len(module.body) != 1 or not isinstance(module.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    return module, lines, first


def _last_line(code) -> int:
    """The last source line of any instruction of ``code`` or of code nested in it."""
    last = max((end for _, end, _, _ in code.co_positions() if end is not None), default=code.co_firstlineno)
    for const in code.co_consts:
        if hasattr(const, "co_positions"):
            last = max(last, _last_line(const))
    return last
