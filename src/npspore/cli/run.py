"""``npspore run SCRIPT [ARGS...]``: run an unchanged MindSpore program on npspore.

The script runs as ``__main__`` with ``sys.argv = [SCRIPT, *ARGS]`` and its directory first on
``sys.path``, as ``python SCRIPT ARGS`` would run it, while every ``mindspore`` and ``mindspore.x.y``
import yields npspore's module (:func:`npspore.import_hook.mindspore_imports`). Its exit status is
the script's: 0, the code it passes to ``sys.exit``, or 1 after an uncaught exception, whose
traceback is printed from the script's first frame on.
"""
from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback
from types import TracebackType

from ..import_hook import mindspore_imports
from .target import InputError

__all__ = ["run"]


def run(options: argparse.Namespace) -> int:
    """Run ``options.script`` with ``options.args`` under the ``mindspore`` import mapping; its exit status."""
    script = options.script
    if not os.path.isfile(script):
        raise InputError(f"cannot run {script!r}: no such file")
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [script, *options.args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        with mindspore_imports():
            runpy.run_path(script, run_name="__main__")
    except SystemExit as exit_request:
        return _exit_status(exit_request.code)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - reported as Python reports an uncaught exception
        traceback.print_exception(type(error), error, _from_script(error.__traceback__, script))
        return 1
    finally:
        sys.argv[:], sys.path[:] = saved_argv, saved_path
    return 0


def _exit_status(code: object) -> int:
    """The process exit status of ``sys.exit(code)``, as the interpreter derives it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _from_script(tb: TracebackType | None, script: str) -> TracebackType | None:
    """The traceback from the script's first frame on (without this module's and runpy's frames)."""
    path = os.path.abspath(script)
    frame = tb
    while frame is not None and os.path.abspath(frame.tb_frame.f_code.co_filename) != path:
        frame = frame.tb_next
    return frame if frame is not None else tb
