"""The compiler pipeline: the named stages, run in order, each a function over data.

    frontend → normalize → specialize → [differentiate] → optimize → codegen → cache

``trace_program`` runs the first three for one call and returns a :class:`Program` (the typed
module plus what the caller needs to run it: captured objects, output structure, where each
argument's tensors sit among the kernel's inputs). ``build_kernel`` runs the rest: it optimizes a
module, renders it, writes it to the disk cache and loads it. ``dump_stages`` returns the
intermediate form after any stage, for ``npspore show --dump-after``.
"""
from __future__ import annotations

import ast
import hashlib
import inspect
import os
from dataclasses import dataclass, field

from .. import __version__
from . import cache, ir
from .codegen import render_module
from .frontend import parse_function
from .normalize import normalized
from .optimize import optimize
from .signature import OutputTree
from .specialize import ProgramBuilder, TensorValue, abstract_inputs, capture_path

STAGES = ("frontend", "normalize", "specialize", "differentiate", "optimize", "codegen")


@dataclass
class Program:
    """One specialized call: the typed module and how to feed and unpack its entry function."""

    module: ir.Module
    captured: list                # Parameter/Tensor objects passed after the input leaves
    capture_paths: list           # where each captured object lives (None if not addressable)
    output_tree: OutputTree
    leaf_slices: list             # per argument: slice of the entry params holding its tensor leaves
    sources: dict = field(default_factory=dict)   # qualname -> source of each involved callable
    callable_name: str = ""
    source_file: str = ""


def unbind(target):
    """``(function, self_or_None)`` for a Cell, a bound method, a jit wrapper or a plain function."""
    from ..nn.cell import Cell

    if isinstance(target, Cell):
        construct = inspect.getattr_static(type(target), "construct")
        return _plain(construct), target
    if inspect.ismethod(target):
        return _plain(target.__func__), target.__self__
    return _plain(target), None


def _plain(fn):
    while hasattr(fn, "__npspore_function__"):
        fn = fn.__npspore_function__
    return fn


def trace_program(target, args, kwargs=None, *, dynamic=None) -> Program:
    """frontend + normalize + specialize for one call of ``target`` with concrete ``args``."""
    fn, self_obj = unbind(target)
    kwargs = kwargs or {}
    abstract_args = abstract_inputs(tuple(args), dynamic)
    abstract_kwargs = dict(zip(kwargs, abstract_inputs(tuple(kwargs.values()))))
    builder = ProgramBuilder()
    function, captured = builder.specialize_entry(fn, self_obj, abstract_args, abstract_kwargs)
    module = ir.Module(functions=builder.functions, entry=function.name)
    root = self_obj
    paths = [addressable_path(root, fn, obj) for obj in captured]
    return Program(module=module, captured=captured, capture_paths=paths, output_tree=function.output_tree,
                   leaf_slices=leaf_slices((*args, *kwargs.values())), sources=dict(builder.sources), callable_name=fn.__qualname__,
                   source_file=fn.__code__.co_filename)


def leaf_slices(values) -> list:
    """For each call argument, the slice of the entry params that holds its tensor leaves."""
    slices, start = [], 0
    for value in values:
        count = count_tensors(value)
        slices.append(slice(start, start + count))
        start += count
    return slices


def count_tensors(value) -> int:
    """How many tensor leaves (Tensors, or tensor values while compiling) a call argument holds:
    the number of entry params it takes, in flattening order."""
    from ..common.tensor import Tensor

    if isinstance(value, (Tensor, TensorValue)):
        return 1
    if isinstance(value, (tuple, list)):
        return sum(count_tensors(v) for v in value)
    if isinstance(value, dict):
        return sum(count_tensors(v) for v in value.values())
    return 0


def addressable_path(root, fn, obj):
    """A path that finds ``obj`` again in a new process: through ``self`` or a module global."""
    if root is not None:
        path = capture_path(root, obj)
        if path[0] == "path":
            return ("self", path[1])
    for name in fn.__code__.co_names:
        value = fn.__globals__.get(name)
        if value is None or inspect.ismodule(value) or inspect.isroutine(value) or isinstance(value, type):
            continue
        if value is obj:
            return ("global", name, ())
        path = capture_path(value, obj)
        if path[0] == "path":
            return ("global", name, path[1])
    return None


def resolve_path(path, root, fn):
    """The object a capture path names (inverse of ``addressable_path``)."""
    if path[0] == "self":
        obj, keys = root, path[1]
    else:
        obj, keys = fn.__globals__[path[1]], path[2]
    for key in keys:
        obj = obj[key] if isinstance(obj, (list, tuple, dict)) else obj.__dict__[key]
    return obj


def file_digest(path: str, _cache={}) -> str:
    """sha256 of a source file's bytes (cached by path and modification time)."""
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        return "missing"
    cached = _cache.get(path)
    if cached is None or cached[0] != stamp:
        with open(path, "rb") as handle:
            cached = (stamp, hashlib.sha256(handle.read()).hexdigest())
        _cache[path] = cached
    return cached[1]


_OP_DIGEST = None


def package_digest() -> str:
    """A digest of npspore's own source files (path, size, modification time), computed once per
    process: editing the library (an ops function, a layer) invalidates cached kernels."""
    global _PACKAGE_DIGEST
    if _PACKAGE_DIGEST is None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        h = hashlib.sha256()
        for directory, subdirectories, files in sorted(os.walk(root)):
            subdirectories.sort()
            for name in sorted(files):
                if name.endswith((".py", ".tmpl")):
                    info = os.stat(os.path.join(directory, name))
                    h.update(f"{os.path.relpath(os.path.join(directory, name), root)}:{info.st_size}:"
                             f"{info.st_mtime_ns}\n".encode())
        _PACKAGE_DIGEST = h.hexdigest() + op_table_digest()
    return _PACKAGE_DIGEST


_PACKAGE_DIGEST = None


def op_table_digest() -> str:
    """sha256 over the op-definition files (read as bytes: a disk-cache hit never loads the op table)."""
    global _OP_DIGEST
    if _OP_DIGEST is None:
        from importlib import resources

        from ..opdef import TEMPLATE_FAMILIES

        h = hashlib.sha256()
        package = resources.files("npspore.codegen_templates")
        for name in (*(f"{family}.py" for family in TEMPLATE_FAMILIES), "module.py.tmpl"):
            h.update(package.joinpath(name).read_bytes())
        _OP_DIGEST = h.hexdigest()
    return _OP_DIGEST


def build_kernel(module: ir.Module, *, layout: dict | None, key: str | None, header: dict):
    """optimize + codegen + cache: returns ``(kernel, source_text, path)``.

    ``layout`` (captured paths and output tree, literal data) is written into the module so a new
    process can use the cached file without compiling; None keeps the kernel out of the disk cache.
    """
    optimized = optimize(module)
    optimized.header = dict(header)
    source = render_module(optimized)
    if layout is not None:
        source += f"\nlayout = {layout!r}\n"
    path = cache.store(key, source) if (key is not None and layout is not None) else None
    filename = path or f"<npspore {header.get('callable', 'kernel')} {key or ''}>"
    namespace = cache.execute(source, filename)
    return namespace["kernel"], source, filename


def layout_literal(program: Program) -> dict | None:
    """The program's captured paths and output tree as literal data, or None if not expressible."""
    if any(p is None for p in program.capture_paths):
        return None
    layout = {"captured": list(program.capture_paths), "output": program.output_tree.node,
              "sources": sorted({f: file_digest(f) for f in _involved_files(program)}.items())}
    try:
        if ast.literal_eval(repr(layout)) != layout:
            return None
    except (ValueError, SyntaxError):
        return None
    return layout


def _involved_files(program: Program) -> set:
    files = {program.source_file}
    for function in program.module.functions.values():
        if function.loc is not None:
            files.add(function.loc.file)
    return {f for f in files if os.path.exists(f)}


def sources_unchanged(layout: dict) -> bool:
    """Whether every source file a cached kernel was built from still has the same content."""
    return all(file_digest(path) == sha for path, sha in layout.get("sources", ()))


def header_for(program: Program, key_text: str, disk_key: str | None, kind: str = "forward") -> dict:
    return {
        "callable": program.callable_name,
        "source": os.path.basename(program.source_file),
        "kernel": kind,
        "signature": key_text,
        "key": disk_key or "(not cached on disk)",
        "npspore": __version__,
    }


def dump_stages(target, args, kwargs=None, *, stop_after: str, transform=None) -> str:
    """The text of the program after ``stop_after`` (one of :data:`STAGES`)."""
    if stop_after not in STAGES:
        raise ValueError(f"unknown stage {stop_after!r}; expected one of {', '.join(STAGES)}")
    fn, _ = unbind(target)
    if stop_after in ("frontend", "normalize"):
        tree = parse_function(fn).tree
        return ast.unparse(normalized(tree) if stop_after == "normalize" else tree)
    program = trace_program(target, args, kwargs)
    module = program.module
    if stop_after == "specialize":
        return format_module(module)
    if transform is not None:
        module = transform(program)
    if stop_after == "differentiate":
        return format_module(module)
    optimized = optimize(module)
    if stop_after == "optimize":
        return format_module(optimized)
    return render_module(optimized)


def format_module(module: ir.Module) -> str:
    """A readable listing of typed normal form (every value with its shape and dtype)."""
    lines = []
    for function in module.functions.values():
        params = ", ".join(repr(p) for p in function.params)
        lines.append(f"function {function.name}({params}):")
        lines += _format_block(function.body, "  ")
        lines.append(f"  return {', '.join(map(repr, function.body.results))}")
        lines.append("")
    return "\n".join(lines)


def _format_block(block: ir.Block, indent: str) -> list:
    lines = []
    for stmt in block.stmts:
        where = f"  @ {os.path.basename(stmt.loc.file)}:{stmt.loc.line}"
        if isinstance(stmt, ir.Apply):
            static = "".join(f", {k}={v!r}" for k, v in stmt.static.items())
            args = ", ".join(repr(a) if isinstance(a, ir.Var) else repr(a.value) for a in stmt.args)
            lines.append(f"{indent}{', '.join(map(repr, stmt.targets))} = {stmt.op}({args}{static}){where}")
        elif isinstance(stmt, ir.Call):
            lines.append(f"{indent}{', '.join(map(repr, stmt.targets))} = call {stmt.callee}"
                         f"({', '.join(map(repr, stmt.args))}){where}")
        elif isinstance(stmt, ir.Effect):
            lines.append(f"{indent}{stmt.kind}({', '.join(map(repr, stmt.args))}){where}")
        else:
            lines.append(f"{indent}{type(stmt).__name__} -> {', '.join(map(repr, ir.defined_vars(stmt)))}{where}")
            for inner in ir.nested_blocks(stmt):
                lines += _format_block(inner, indent + "  ")
                lines.append(f"{indent}  yield {', '.join(map(repr, inner.results))}")
    return lines

