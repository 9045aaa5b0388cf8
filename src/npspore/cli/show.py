"""``npspore show``: the exact module that runs (forward or adjoint kernel), or an intermediate stage.

The forward kernel's text is the cached file's text (``JitFunction.kernel_source`` /
``cell_kernel_source``); ``--grad`` prints the adjoint kernel of ``npspore.grad`` with the same
options a script would pass, ``--jvp`` the forward-mode kernel of ``ops.jvp``; ``--dump-after STAGE`` prints
the program after one compiler stage. ``--transform vmap`` prints the kernel of ``vmap`` of the program (or of
its gradient) over axis 0 of every input. ``--graph FILE`` draws the program instead (:mod:`npspore.cli.graph`).
``--side-by-side`` puts each source line next to the generated lines that came from it, read from
the ``# file.py:LINE`` comment that ends every generated line.
"""
from __future__ import annotations

import linecache
import os
import re
import shutil
import sys

from ..compiler import pipeline
from ..compiler.errors import file_label
from ..jit import cell_kernel_source, forward_request
from ..vectorize import vmap
from .gradient import GradRequest, JvpOptions
from .graph import program_module, write_graph
from .highlight import highlight, highlight_line, use_color
from .target import InputError, Target

TRANSFORMS = {"vmap": lambda fn: vmap(fn, in_axes=0)}   # --transform NAME: callable -> transformed callable
_SOURCE_COMMENT = re.compile(r"\s+# (\S+\.py):(\d+)$")
_GUTTER = " | "


def run(target: Target, args, options) -> int:
    """Print what ``npspore show`` asks for; returns the exit status."""
    if options.train:
        target.set_train()
    if options.side_by_side and options.dump_after not in (None, "codegen"):
        raise InputError("--side-by-side needs generated code: use it without --dump-after or with "
                         "--dump-after codegen")
    request = (JvpOptions.from_options(options) if options.jvp else
               GradRequest.from_options(options) if options.grad else None)
    transform = getattr(options, "transform", None)
    if transform is not None:
        text = _transformed_text(target, args, options, request, TRANSFORMS[transform])
    elif options.graph:
        write_graph(program_module(_compile_request(target, args, request)), options.graph)
        return 0
    elif options.dump_after:
        text = _stage_text(target, args, options.dump_after, request)
    elif request is not None:
        gradient = request.function(target, args)
        text = gradient.kernel_source(*request.call_args(target, args))
    elif target.is_cell:
        text = cell_kernel_source(target.obj, *args)
    else:
        text = target.compiled().kernel_source(*args)
    color = use_color(sys.stdout, options.no_color)
    if options.side_by_side:
        text = side_by_side(text, _source_files(target), color=color)
    elif color:
        text = highlight(text)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _transformed_text(target, args, options, request, transform) -> str:
    """The kernel (or ``--dump-after`` stage) of ``transform`` applied to the program or its gradient."""
    if options.graph:
        raise InputError("--graph does not draw a --transform kernel yet")
    fn = request.function(target, args) if request is not None else target.obj
    call_args = tuple(request.call_args(target, args)) if request is not None else tuple(args)
    transformed = transform(fn)
    if options.dump_after:
        return pipeline.dump_stages(transformed.compile_request(call_args), stop_after=options.dump_after)
    return transformed.kernel_source(*call_args)


def _stage_text(target, args, stage, request) -> str:
    if request is None and stage == "differentiate":
        raise InputError("--dump-after differentiate needs --grad or --jvp (the forward program is not "
                         "differentiated)")
    return pipeline.dump_stages(_compile_request(target, args, request), stop_after=stage)


def _compile_request(target, args, request):
    """The pipeline's request for the forward program, or with a gradient request its gradient's."""
    if request is not None:
        return request.function(target, args).compile_request(request.call_args(target, args))
    return forward_request(target.obj, args)


def _source_files(target: Target) -> dict:
    """label -> path of the files generated lines may name (``compiler.errors.file_label``): the target's
    first, then loaded modules."""
    files = {}
    paths = [target.function.__code__.co_filename]
    paths += sorted(getattr(m, "__file__", None) or "" for m in list(sys.modules.values()))
    for path in paths:
        if path.endswith(".py"):
            files.setdefault(file_label(path), path)
    return files


def side_by_side(text: str, files: dict, *, color: bool = False) -> str:
    """The code of generated module ``text`` with, on the left, the source line each line came from.

    A source line (``file.py:LINE`` and its text, indented as in its function) is shown where a run
    of generated lines from it starts. The module's header comments and ``layout`` literal are left
    out, and so are the ``# file.py:LINE`` comments. ``files`` maps the file labels in those comments
    to paths.
    """
    lines = text.splitlines()
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        lines.pop(0)
    rows, previous = [], None
    for line in lines:
        if line.startswith("layout = "):
            continue
        match = _SOURCE_COMMENT.search(line)
        where = (match.group(1), int(match.group(2))) if match else None
        code = line[:match.start()] if match else line
        if where is None or where == previous:
            rows.append(("", "", code))
        else:
            path = files.get(where[0])
            rows.append((f"{where[0]}:{where[1]}", linecache.getline(path, where[1]).rstrip() if path else "", code))
        previous = where if where is not None else previous
    while rows and not rows[-1][2].strip():
        rows.pop()
    rows = _dedent_sources(rows)
    label_width = max(len(r[0]) for r in rows) if rows else 0
    columns = shutil.get_terminal_size((120, 24)).columns
    source_width = max(20, min(max((len(r[1]) for r in rows), default=0), columns // 2 - label_width - 4))
    out = []
    for label, source, code in rows:
        if len(source) > source_width:
            source = source[:source_width - 1] + "…"
        padding = " " * (source_width - len(source))
        if color:
            source, code = highlight_line(source), highlight_line(code)
        out.append(f"{label:<{label_width}}  {source}{padding}{_GUTTER}{code}".rstrip() + "\n")
    return "".join(out)


def _dedent_sources(rows) -> list:
    """Remove the indentation all shown lines of one file share (their function's body indentation)."""
    common = {}
    for label, source, _ in rows:
        if source.strip():
            file = label.rsplit(":", 1)[0]
            indent = len(source) - len(source.lstrip())
            common[file] = min(common.get(file, indent), indent)
    return [(label, source[common.get(label.rsplit(":", 1)[0], 0):], code) for label, source, code in rows]
