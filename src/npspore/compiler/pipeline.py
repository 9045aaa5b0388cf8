"""The compiler pipeline: one explicit list of stages, run in order by :func:`compile`.

    frontend → normalize → specialize → differentiate → batch → optimize → naming → codegen   (then the disk cache)

A :class:`CompileRequest` says what to compile (a function, bound method or Cell), for which call
(concrete arguments), and which gradient transforms to apply (``grads``, outermost first; none for a
forward kernel). :func:`compile` returns a :class:`~npspore.compiler.kernel.CompiledKernel`: loaded
from the disk cache when a verified entry exists, else built by :data:`PIPELINE`. Each stage is a
function ``(request, previous output) -> output``:

==============  ==========================================  ======================================
stage           takes                                       returns
==============  ==========================================  ======================================
frontend        the request                                 ``SourceFunction`` (parsed entry source)
normalize       ``SourceFunction``                          the desugared ``ast.FunctionDef``
specialize      (the request)                               :class:`Program`: typed IR module + layout
differentiate   :class:`Program`                            :class:`Program` of the gradient kernel
batch           :class:`Program`                            :class:`Program` over a batch (``vmap``)
optimize        :class:`Program`                            :class:`Program` (optimized module)
naming          :class:`Program`                            :class:`Program` (values named, copies coalesced)
codegen         :class:`Program`                            the kernel module's source text
==============  ==========================================  ======================================

``dump_stages`` returns any stage's output as text (``npspore show --dump-after STAGE``).
:func:`export_program` is the stop point of an export backend (ONNX, MindIR): the optimized program
before the steps that only serve NumPy execution (in-place writes, release points, buffer plans).
"""
from __future__ import annotations

import ast
import copy
import dataclasses
import itertools
from typing import Any
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..context import LAX
from ..core.source import source_available
from ..core.version import __version__
from . import cache, ir
from .batching import batch_module, ensemble_captures
from .cachekey import ObjectPaths, file_digest
from .codegen import render_module
from .custombackward import entry_calling
from .diskload import has_hooks
from .errors import SourceUnavailableError, file_label
from .frontend import parse_function
from .gradrequest import differentiate_request, leaf_slices
from .gradspec import GradRequest
from .jvprequest import jvp_request, tangent_slices
from .jvpspec import JvpRequest
from .guards import GuardRecorder
from .kernel import CompiledKernel
from .library import LIBRARY, meanings
from .normalize import normalized
from .naming import name_values
from .optimize import optimize
from .paramsnapshots import snapshot_updated_reads
from .request import CompileRequest
from .signature import OutputTree, describe_key
from .specialize import ProgramBuilder, function_name
from .targets import unbind
from .tracing import TRACED_NOTE, TracedFunction, trace_entry, traced_function
from .unparse import unparse
from .values import abstract_inputs


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
    hook_guards: tuple = ()       # (weakref to cell, hook version) of every cell call compiled in
    traced: bool = False          # recorded from an eager run (no source): see compiler.tracing
    guards: GuardRecorder | None = None   # the Python values specialization read (compiler.guards)
    staged_gradient: bool = False  # a gradient function's call is compiled in (with Parameter writes: a training step)
    state: tuple = ()             # (object, attribute) per slot of the kernel's ``state`` effects (compiler.cellstate)


# ----------------------------------------------------------------------------------- the stages


def _frontend(request: CompileRequest, _):
    fn = unbind(request.target)[0]
    if not source_available(fn):
        return traced_function(fn)  # the REPL, python -c, exec: recorded by the specialize stage
    return parse_function(fn)


def _normalize(request: CompileRequest, source):
    if isinstance(source, TracedFunction):
        return source
    return normalized(source.tree)


def _specialize(request: CompileRequest, source) -> Program:
    args, kwargs = request.calls()[-1]
    with meanings(request.pynative):     # the Tensor methods MindSpore resolves by mode (library.MEANINGS)
        if isinstance(source, TracedFunction):
            return trace_call(request.target, args, kwargs, dynamic=request.dynamic,
                              syntax_level=request.syntax_level)
        try:
            return specialize_call(request.target, args, kwargs, dynamic=request.dynamic,
                                   backward_hooks=request.pynative, gradient=bool(request.grads),
                                   syntax_level=request.syntax_level)
        except SourceUnavailableError:  # it calls a Cell or function typed at the REPL: record the whole call
            return trace_call(request.target, args, kwargs, dynamic=request.dynamic,
                              syntax_level=request.syntax_level)


def _differentiate(request: CompileRequest, program: Program) -> Program:
    levels = request.calls()
    for depth in reversed(range(len(request.grads))):
        grad = request.grads[depth]
        if isinstance(grad, JvpRequest):
            program = jvp_program(program, grad, *levels[depth + 1])
            continue
        program = differentiate_program(program, grad, *levels[depth + 1], final=depth == 0)
        if grad.spec.sens_param:
            sens_slice = program.leaf_slices[-1]
            params = program.module.functions[program.module.entry].params[sens_slice]
            _, _, sens = grad.split_sens(levels[depth][0], dict(levels[depth][1]))
            grad.check_sens(sens, [p.aval for p in params])
    return program


def _batch(request: CompileRequest, program: Program) -> Program:
    for batch in reversed(request.batches):
        captured, axes = ensemble_captures(batch, program.captured, program.capture_paths)
        module = batch_module(program.module, program.output_tree.node, batch, axes)
        program = dataclasses.replace(program, module=module, captured=captured)
    return program


def _optimize(request: CompileRequest, program: Program) -> Program:
    return dataclasses.replace(program, module=optimize(program.module))


def _naming(request: CompileRequest, program: Program) -> Program:
    return dataclasses.replace(program, module=name_values(copy.deepcopy(program.module)))


def _codegen(request: CompileRequest, program: Program) -> str:
    program.module.header = header_for(request, program, disk_key=None)
    return render_module(program.module)


PIPELINE = (("frontend", _frontend), ("normalize", _normalize), ("specialize", _specialize),
            ("differentiate", _differentiate), ("batch", _batch), ("optimize", _optimize), ("naming", _naming),
            ("codegen", _codegen))
STAGES = tuple(name for name, _ in PIPELINE)


def specialize_call(target, args, kwargs=None, *, dynamic=None, backward_hooks=False, gradient=False,
                    syntax_level=LAX) -> Program:
    """The specialize stage for one call of ``target`` with concrete ``args`` (``backward_hooks``:
    whether the cells' backward hooks run in its gradients; ``syntax_level``: below ``LAX``, reading a
    tensor's values is refused). A Cell with a ``bprop``, or differentiated
    (``gradient``) with forward (pre-)hooks, is compiled as a call of the Cell, so that they apply
    as to a sub-cell (a forward call runs the Cell's own forward hooks in Python around the kernel)."""
    fn, self_obj = unbind(target)
    if LIBRARY.is_cell(self_obj):
        parts = LIBRARY.cell_parts(self_obj)
        if parts.bprop is not None or (gradient and (parts.pre_hooks or parts.hooks)):
            fn, self_obj = entry_calling(self_obj), None
    kwargs = kwargs or {}
    abstract_args = abstract_inputs(tuple(args), dynamic)
    abstract_kwargs = dict(zip(kwargs, abstract_inputs(tuple(kwargs.values()))))
    builder = ProgramBuilder(backward_hooks, syntax_level)
    builder.host_results = not gradient
    builder.gradients_final = not gradient
    function, captured = builder.specialize_entry(fn, self_obj, abstract_args, abstract_kwargs)
    module = ir.Module(functions=builder.functions, entry=function.name)
    object_paths = ObjectPaths(self_obj)
    paths = [object_paths.addressable_path(fn, obj) for obj in captured]
    return Program(module=module, captured=captured, capture_paths=paths, output_tree=function.output_tree,
                   leaf_slices=leaf_slices((*args, *kwargs.values())), sources=dict(builder.sources),
                   callable_name=fn.__qualname__, source_file=fn.__code__.co_filename,
                   hook_guards=tuple(builder.hook_guards.values()), guards=builder.guards,
                   staged_gradient=builder.staged_gradient, state=tuple(builder.state.targets))


def trace_call(target, args, kwargs=None, *, dynamic=None, syntax_level=LAX) -> Program:
    """The specialize stage for a callable without source: one eager run of ``target`` on ``args``,
    recorded (``compiler.tracing``)."""
    fn, self_obj = unbind(target)
    kwargs = kwargs or {}
    traced = trace_entry(fn, self_obj, tuple(args), kwargs, function_name(fn, self_obj), dynamic=dynamic,
                         syntax_level=syntax_level)
    function = traced.function
    return Program(module=ir.Module({**traced.functions, function.name: function}, function.name),
                   captured=traced.captured,
                   capture_paths=[None] * len(traced.captured), output_tree=function.output_tree,
                   leaf_slices=leaf_slices((*args, *kwargs.values())), callable_name=fn.__qualname__,
                   source_file=fn.__code__.co_filename, hook_guards=traced.hook_guards, traced=True,
                   guards=traced.guards)


def differentiate_program(program: Program, grad: GradRequest, args, kwargs, *, final=False) -> Program:
    """The differentiate stage for one gradient transform of ``program`` (whose call had ``args``);
    ``final`` for the outermost one, whose result is compiled as it is (see ``differentiate``)."""
    inputs = tuple(args) + tuple(kwargs.values())
    module = snapshot_updated_reads(program.module)
    done = differentiate_request(grad, module.functions, module.entry, inputs, program.leaf_slices,
                                 program.captured, program.output_tree.node, final=final)
    slices = list(program.leaf_slices)
    if grad.spec.sens_param:
        n_leaves = sum(s.stop - s.start for s in slices)
        slices.append(slice(n_leaves, n_leaves + done.n_sens))
    return dataclasses.replace(program, module=ir.Module({**module.functions, **done.functions}, done.name,
                                                         dict(module.header)),
                               captured=done.captured, output_tree=OutputTree(done.tree), leaf_slices=slices)


def jvp_program(program: Program, request: JvpRequest, args, kwargs) -> Program:
    """The differentiate stage for one forward-mode transform of ``program`` (whose call had ``args``)."""
    inputs = tuple(args) + tuple(kwargs.values())
    module = program.module
    done = jvp_request(request, module.functions, module.entry, inputs, program.leaf_slices, program.captured,
                       program.output_tree.node)
    slices = list(program.leaf_slices) + tangent_slices(request, inputs, program.leaf_slices)
    return dataclasses.replace(program, module=ir.Module({**module.functions, **done.functions}, done.name,
                                                         dict(module.header)),
                               captured=done.captured, output_tree=OutputTree(done.tree), leaf_slices=slices)


def run_stages(request: CompileRequest, stop_after: str = "codegen"):
    """The output of stage ``stop_after`` (one of :data:`STAGES`), running every stage before it."""
    if stop_after not in STAGES:
        raise ValueError(f"unknown stage {stop_after!r}; expected one of {', '.join(STAGES)}")
    output: Any = None
    for name, stage in PIPELINE:
        output = stage(request, output)
        if name == stop_after:
            return output
    raise AssertionError("unreachable")


def export_program(request: CompileRequest) -> Program:
    """The typed IR an export backend reads: every stage through ``differentiate``, then ``optimize``
    without its NumPy-only steps (``optimize(numpy_steps=False)``)."""
    with _deep_recursion():
        program = run_stages(request, "differentiate")
        return dataclasses.replace(program, module=optimize(program.module, numpy_steps=False))


# ----------------------------------------------------------------------------------- compile or load


def build(request: CompileRequest, disk_key: str | None) -> CompiledKernel:
    """The kernel for ``request`` built by every stage (``compiler.compile`` found none on disk),
    and stored under ``disk_key`` when it is not None and the kernel can be named in another process."""
    with _deep_recursion():
        program = run_stages(request, "naming")
        value_guards = program.guards.values if program.guards is not None else ()
        if _calls_host(program.module) or value_guards:
            disk_key = None  # host functions are registered per process; one file cannot hold a kernel per value
        layout = layout_literal(program, request) if disk_key is not None else None
        kernel, source, path = build_kernel(program.module, layout=layout, key=disk_key,
                                            header=header_for(request, program, disk_key if layout else None),
                                            optimized=True)
        guards = program.guards.guards.values() if program.guards is not None else ()
    return CompiledKernel(kernel, program.captured, program.output_tree.node, source, path,
                          program.hook_guards, guards, value_guards, program.state)


def _calls_host(module) -> bool:
    """Whether a kernel module calls Python out of itself (``host_call``: hooks, a bprop run in Python)."""
    return any(isinstance(stmt, ir.Effect) and (stmt.kind == "host_call" or stmt.kind == "host"
                                                and stmt.args[0].value.kind == "registered")
               for fn in module.functions.values() for stmt in ir.walk_stmts(fn.body))


@contextmanager
def _deep_recursion(limit: int = 20000):
    """Let the stages walk deeply nested source (a 400-term ``x + 1 + 1 ...`` is 400 nested nodes;
    the tree walkers recurse)."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


_KERNEL_NUMBERS = itertools.count(1)   # in-memory kernels get distinct linecache names


def build_kernel(module: ir.Module, *, layout: dict | None, key: str | None, header: dict, optimized=False):
    """optimize and naming (unless done) + codegen + cache: returns ``(kernel, source_text, path)``.

    ``layout`` (captured paths and output tree, literal data) is written into the module so a new
    process can use the cached file without compiling; None keeps the kernel out of the disk cache.
    """
    module = module if optimized else name_values(optimize(module))
    module.header = dict(header)
    source = render_module(module)
    if layout is not None:
        source += f"\nlayout = {layout!r}\n"
    path = cache.store(key, source) if (key is not None and layout is not None) else None
    filename = path or f"<npspore {header.get('callable', 'kernel')} {key or ''}#{next(_KERNEL_NUMBERS)}>"
    namespace = cache.execute(source, filename)
    return namespace["kernel"], source, filename


def layout_literal(program: Program, request: CompileRequest) -> dict | None:
    """The program's captured paths, output tree and called cells as literal data, or None if not
    expressible (or if the kernel compiled a cell's hooks, which only this process can run)."""
    if any(p is None for p in program.capture_paths):
        return None
    if any(ref() is None or has_hooks(ref()) for ref, _ in program.hook_guards):
        return None
    fn, self_obj = unbind(request.target)
    guards = program.guards.portable() if program.guards is not None else []
    object_paths = ObjectPaths(self_obj)
    training = [object_paths.addressable_path(fn, cell) for cell in
                (program.guards.training_cells.values() if program.guards is not None else ())]
    state = [(("self", ()) if obj is self_obj else object_paths.addressable_path(fn, obj), attr)
             for obj, attr in program.state]
    state_guarded = program.guards is not None and any(key[0] == "state" for key in program.guards.guards)
    if guards is None or any(p is None for p in training) or any(p is None for p, _ in state) or state_guarded:
        return None   # (a guard on an attribute a kernel sets: only this process checks it)
    layout = {"captured": list(program.capture_paths), "output": program.output_tree.node,
              "sources": sorted({f: file_digest(f) for f in _involved_files(program)}.items()),
              "guards": guards, "training": training}
    if state:
        layout["state"] = state
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


def header_for(request: CompileRequest, program: Program, disk_key: str | None) -> dict:
    """The comment lines at the top of a generated kernel module."""
    header = {
        "callable": program.callable_name,
        "source": os.path.basename(program.source_file),
        "kernel": ("vmap of " if request.batches else "") + _kernel_kind(request, program),
        "signature": request.signature or describe_key(request.key),
        "key": disk_key or "(not cached on disk)",
        "npspore": __version__,
    }
    if request.grads:
        header["grad"] = request.grads[0].spec.describe()
    if program.traced:
        header["frontend"] = TRACED_NOTE
    return header


def _kernel_kind(request: CompileRequest, program: Program) -> str:
    """``gradient`` (a gradient function's kernel), ``jvp`` (forward mode's), ``train step`` (a forward kernel
    that computes a gradient and writes Parameters: ``TrainOneStepCell``) or ``forward``."""
    if request.grads:
        return "jvp" if isinstance(request.grads[0], JvpRequest) else "gradient"
    if program.staged_gradient and any(isinstance(stmt, ir.Effect) and stmt.kind == "assign"
                                       for function in program.module.functions.values()
                                       for stmt in ir.walk_stmts(function.body)):
        return "train step"
    return "forward"


# ----------------------------------------------------------------------------------- dumps


def dump_stages(request: CompileRequest, *, stop_after: str) -> str:
    """The text of the program after ``stop_after`` (one of :data:`STAGES`)."""
    if stop_after == "differentiate" and not request.grads:
        raise ValueError("--dump-after differentiate needs a gradient (the forward program is not differentiated)")
    output = run_stages(request, stop_after)
    if isinstance(output, TracedFunction):
        return output.describe()
    if stop_after == "frontend":
        return unparse(output.tree)
    if stop_after == "normalize":
        return unparse(output)
    if stop_after == "codegen":
        return output
    return format_module(output.module)


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
        where = f"  @ {file_label(stmt.loc.file)}:{stmt.loc.line}"
        if isinstance(stmt, ir.Apply):
            static = "".join(f", {k}={v!r}" for k, v in stmt.static.items())
            args = ", ".join(repr(a) if isinstance(a, ir.Var) else repr(a.value) for a in stmt.args)
            notes = [f"operands as {stmt.operand_cast}"] if stmt.operand_cast is not None else []
            notes += [f"result as {stmt.result_cast}"] if stmt.result_cast is not None else []
            notes += [f"in place of {stmt.into.name}"] if stmt.into is not None else []
            notes_text = f"  ({'; '.join(notes)})" if notes else ""
            lines.append(f"{indent}{', '.join(map(repr, stmt.targets))} = {stmt.op}({args}{static}){where}{notes_text}")
        elif isinstance(stmt, ir.Call) and stmt.split_rows:
            lines.append(f"{indent}split_rows {stmt.callee}(({', '.join(map(repr, stmt.args[:stmt.split_rows]))}), "
                         f"({', '.join(map(repr, stmt.args[stmt.split_rows:]))})){where}")
        elif isinstance(stmt, ir.Call):
            lines.append(f"{indent}{', '.join(map(repr, stmt.targets))} = call {stmt.callee}"
                         f"({', '.join(map(repr, stmt.args))}){where}")
        elif isinstance(stmt, ir.Effect):
            targets = f"{', '.join(map(repr, stmt.targets))} = " if stmt.targets else ""
            lines.append(f"{indent}{targets}{stmt.kind}({', '.join(map(repr, stmt.args))}){where}")
        else:
            lines.append(f"{indent}{type(stmt).__name__} -> {', '.join(map(repr, ir.defined_vars(stmt)))}{where}")
            for inner in ir.nested_blocks(stmt):
                lines += _format_block(inner, indent + "  ")
                lines.append(f"{indent}  yield {', '.join(map(repr, inner.results))}")
    return lines
