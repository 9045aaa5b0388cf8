"""The compiler: frontend, normalize, specialize, differentiate, optimize, codegen, cache.

``import npspore`` loads only the light modules the library needs at import time (``library``,
``kernel``, ``signature``). The front doors reach the rest as attributes of this package
(``compiler.request.CompileRequest(...)``): a submodule not loaded yet is imported on that first
use (``core.lazy``), so eager-only programs never pay for the compiler, and :func:`compile` loads the
stages only when the disk cache has no kernel for a request.
"""
import importlib

from ..core.lazy import submodule


def compile(request) -> tuple:
    """``(CompiledKernel, from_disk)`` for ``request`` (a ``compiler.request.CompileRequest``): the
    disk cache's kernel when one is stored and verified (``compiler.diskload``), else one built by
    the stages (``compiler.pipeline.build``), which are imported only then."""
    diskload = importlib.import_module(f"{__name__}.diskload")
    disk_key = diskload.disk_key(request)
    if disk_key is not None:
        loaded = diskload.load(disk_key, request)
        if loaded is not None:
            return loaded, True
    return importlib.import_module(f"{__name__}.pipeline").build(request, disk_key), False


def __getattr__(name: str):
    """Import the submodule ``name`` on first use (``compiler.pipeline``, ``compiler.gradrequest``)."""
    module = submodule(__name__, name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return module
