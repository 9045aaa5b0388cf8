"""Compile errors that point at the user's source line.

Every error a user's program causes during compilation names the file, line and column, shows the
source line with a caret under the offending expression, and keeps the exception type MindSpore
would raise (``ValueError`` for shapes, ``TypeError`` for types), so ``except ValueError`` in user
code still works. Unsupported Python raises :class:`NotSupportedError`.

The front doors re-raise a compile error through :func:`without_internal_frames`, as JAX's
``api_boundary`` does: the traceback the user sees holds their own frames, the front door's one line
and the located message, not npspore's stack. A Cell's, a ``jit`` function's and a ``grad``
function's call do it in their own ``try`` (a wrapper's frame would cost every cached call ~0.1 us);
``Model``'s methods are wrapped in :func:`api_boundary`. Set ``NPSPORE_FULL_TRACEBACKS=1`` to keep
every frame.
"""
from __future__ import annotations

import functools
import linecache
import os
import types
from typing import TYPE_CHECKING, Callable, ParamSpec, TypeVar

if TYPE_CHECKING:   # at run time only its attributes are read: importing npspore loads no IR
    from .ir import Loc

E = TypeVar("E", bound=BaseException)
P = ParamSpec("P")
R = TypeVar("R")


class NotSupportedError(RuntimeError):
    """A Python construct that npspore cannot compile (``try``, ``with``, recursion, ...)."""


class SourceUnavailableError(NotSupportedError):
    """A callable reached by compiled code has no source (REPL, ``python -c``, ``exec``): the
    pipeline then traces the whole call instead (``compiler.tracing``)."""


class CompileError(Exception):
    """Marker base: every located compile error is also an instance of this class."""

    loc: Loc | None = None


_LOCATED_TYPES: dict[type, type] = {}


def source_excerpt(loc: Loc) -> str:
    """``  File "f.py", line 12, column 8`` plus the source line and a caret under the span."""
    text = linecache.getline(loc.file, loc.line).rstrip("\n")
    header = f'  File "{loc.file}", line {loc.line}, column {loc.col + 1}'
    if not text:
        return header
    stripped = text.lstrip()
    indent = len(text) - len(stripped)
    end = loc.end_col if loc.end_col and loc.end_col > loc.col else loc.col + 1
    caret = " " * (loc.col - indent) + "^" * max(1, end - loc.col)
    return f"{header}\n    {stripped}\n    {caret}"


def located(error: E, loc: Loc) -> E:
    """A copy of ``error`` whose message ends with the user's source location.

    The copy is an instance of a subclass of ``type(error)`` and of :class:`CompileError`, so it
    keeps the original type for ``except`` clauses; an error already located is returned as is.
    """
    if isinstance(error, CompileError):
        return error
    base = type(error)
    cls = _LOCATED_TYPES.get(base)
    if cls is None:
        try:
            cls = type(base.__name__, (base, CompileError), {"__module__": base.__module__})
        except TypeError:  # a final builtin type cannot be subclassed
            cls = type("RuntimeError", (RuntimeError, CompileError), {"__module__": "builtins"})
        _LOCATED_TYPES[base] = cls
    message = str(error.args[0]) if len(error.args) == 1 else str(error)
    try:
        new = cls(f"{message}\n{source_excerpt(loc)}")
    except TypeError:
        new = _LOCATED_TYPES.setdefault(
            RuntimeError, type("RuntimeError", (RuntimeError, CompileError), {"__module__": "builtins"})
        )(f"{message}\n{source_excerpt(loc)}")
    new.loc = loc
    return new


def not_supported(what: str, loc: Loc) -> NotSupportedError:
    """A located :class:`NotSupportedError` for construct ``what``."""
    return located(NotSupportedError(f"{what} is not supported in compiled code (construct or @jit)"), loc)


PACKAGE_DIRECTORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def file_label(file: str) -> str:
    """How generated code names a source file: npspore's own as ``npspore/nn/transformer.py``, the
    user's relative to the working directory (absolute when outside it), so a user's ``transformer.py``
    and npspore's are told apart."""
    path = os.path.abspath(file)
    if path.startswith(PACKAGE_DIRECTORY):
        return "npspore/" + os.path.relpath(path, PACKAGE_DIRECTORY).replace(os.sep, "/")
    relative = os.path.relpath(path)
    return path if relative.startswith(os.pardir) else relative


def without_internal_frames(error: BaseException) -> BaseException:
    """``error`` with npspore's own frames removed from its traceback (a located compile error
    only; every frame is kept when ``NPSPORE_FULL_TRACEBACKS=1``). Returns ``error`` to re-raise."""
    if not isinstance(error, CompileError) or os.environ.get("NPSPORE_FULL_TRACEBACKS") == "1":
        return error
    frames = []
    tb = error.__traceback__
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(PACKAGE_DIRECTORY):
            frames.append(tb)
        tb = tb.tb_next
    kept = None
    for tb in reversed(frames):
        kept = types.TracebackType(kept, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    return error.with_traceback(kept)


def api_boundary(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` (a public entry point) re-raising a located compile error without npspore's
    frames, so the traceback goes from the user's call straight to the error (pytest and IPython
    also hide this wrapper's own frame: ``__tracebackhide__``)."""

    @functools.wraps(function)
    def boundary(*args: P.args, **kwargs: P.kwargs) -> R:
        __tracebackhide__ = True
        try:
            return function(*args, **kwargs)
        except CompileError as error:
            raise without_internal_frames(error)  # npspore's frames: NPSPORE_FULL_TRACEBACKS=1 keeps them

    return boundary
