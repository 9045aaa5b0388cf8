"""The compiler: frontend, normalize, specialize, differentiate, optimize, codegen, cache.

``import npspore`` loads only the light modules the library needs at import time (``library``,
``kernel``, ``signature``). The front doors reach the rest as attributes of this package
(``compiler.pipeline.compile(...)``): a submodule not loaded yet is imported on that first use
(``core.lazy``), so eager-only programs never pay for the compiler.
"""
from ..core.lazy import submodule


def __getattr__(name: str):
    """Import the submodule ``name`` on first use (``compiler.pipeline``, ``compiler.gradrequest``)."""
    module = submodule(__name__, name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return module
