"""A kernel from the disk cache, verified, without the compiler's stages.

``compiler.compile`` asks here first: :func:`disk_key` names the kernel of a request (None when no
other process could name it), :func:`load` returns the stored kernel once its source files, guards
and the cells it calls check out. Only the cache, its keys and the kernel classes are imported, so
a process that finds every kernel on disk never loads the stages (``compiler.pipeline``).
"""
from __future__ import annotations


from ..core.source import source_available
from . import cache
from .cachekey import ObjectPaths, kernel_disk_key, reachable_cells, resolve_path, sources_unchanged
from .guards import check_portable, loaded_guards
from .kernel import CompiledKernel, HookVersions, explain_disk_miss
from .library import LIBRARY
from .request import CompileRequest
from .targets import plain_function, unbind


def disk_key(request: CompileRequest) -> str | None:
    """The disk-cache key, or None when the kernel cannot be named in another process (a gradient
    of a gradient, a vmap of a model ensemble, a weight that is no attribute path from fn, state only
    this process can name)."""
    if len(request.grads) > 1 or any(b.ensemble for b in request.batches) or not callable(request.target):
        return None
    fn, self_obj = unbind(request.target)
    if not source_available(fn) or any(not _has_source(cell) for cell in reachable_cells(self_obj, fn)):
        return None  # traced (it is, or it calls, code without source): nothing on disk names it
    options: tuple = ("forward", request.options, request.syntax_level)
    if request.grads:
        grad = request.grads[0]
        object_paths = ObjectPaths(self_obj)
        paths = tuple(object_paths.addressable_path(fn, w) for w in grad.weights)
        if any(p is None for p in paths):
            return None
        options = ("gradient", repr(grad.spec), paths, grad.single_weight)
    if request.batches:   # vmap levels, outermost first: the axes of the inputs and outputs, the batch size
        options += (("vmap",) + tuple((b.in_axes, repr(b.out_axes), b.size) for b in request.batches),)
    try:
        return kernel_disk_key(fn, self_obj, request.key, options)
    except (AttributeError, TypeError, OSError):
        return None


def load(key: str, request: CompileRequest):
    """A verified kernel from the disk cache, or None (a file that does not load is discarded)."""
    found = cache.load(key)
    if found is None:
        return None
    source, path = found
    fn, self_obj = unbind(request.target)
    try:
        namespace = cache.execute(source, path)
        layout = namespace["layout"]
        if not sources_unchanged(layout):
            cache.discard(key)
            return None
        failed = check_portable(layout["guards"])
        if failed is not None:
            explain_disk_miss(fn.__qualname__, failed)
            return None
        captured = [resolve_path(p, self_obj, fn) for p in layout["captured"]]
        cells = reachable_cells(self_obj, fn)  # which of them the kernel calls is not recorded: guard all
        if any(has_hooks(cell) for cell in cells):
            return None  # stored without hooks: compile with them
        hooks = [HookVersions.guard(cell) for cell in cells]
        guards = loaded_guards(layout["guards"], [resolve_path(p, self_obj, fn) for p in layout["training"]])
        state = [(resolve_path(p, self_obj, fn), attr) for p, attr in layout.get("state", ())]
        return CompiledKernel(namespace["kernel"], captured, layout["output"], source, path, hooks, guards,
                              state=state)
    except Exception:  # noqa: BLE001 - a cached file that does not load is regenerated, never trusted
        cache.discard(key)
        return None


def _has_source(cell) -> bool:
    construct = LIBRARY.cell_parts(cell).construct
    return construct is None or source_available(plain_function(construct))


def has_hooks(cell) -> bool:
    """Whether ``cell`` has forward or backward hooks (a kernel stored on disk was compiled without)."""
    parts = LIBRARY.cell_parts(cell)
    return bool(parts.pre_hooks or parts.hooks or parts.backward_pre_hook or parts.backward_hook)
