"""The compiler: frontend, normalize, specialize, differentiate, optimize, codegen, cache.

``import npspore`` loads only the light modules the library needs at import time (``library``,
``kernel``, ``signature``). The front doors reach the rest as attributes of this package
(``compiler.pipeline.compile(...)``): a submodule not loaded yet is imported on that first use,
here in one place, so eager-only programs never pay for the compiler.
"""
import importlib


def __getattr__(name: str):
    """Import the submodule ``name`` on first use (``compiler.pipeline``, ``compiler.gradrequest``)."""
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
