"""What one compile is asked for: :class:`CompileRequest`, which the API's front doors build and
``compiler.compile`` takes (the disk cache first, then the stages of ``compiler.pipeline``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..context import LAX


@dataclass
class CompileRequest:
    """One compile: the callable, a concrete call of it, and how the kernel is keyed and named.

    ``key`` is the input signature (``compiler.signature.input_key``) that names the kernel on disk
    with ``options``; ``signature`` is its readable form for the kernel's header. ``dynamic`` maps
    argument positions to shapes with ``None`` dims (``Cell.set_inputs``, ``jit(dynamic=1)``,
    ``input_signature``). ``syntax_level`` is ``context.STRICT``, ``COMPATIBLE`` or ``LAX``: below LAX,
    reading a tensor's values in the compiled code is refused (``compiler.fallback``).
    """

    target: object
    args: tuple
    kwargs: dict = field(default_factory=dict)
    key: object = None
    signature: str = ""
    dynamic: dict | None = None
    options: tuple = ()
    grads: tuple = ()             # GradRequests, outermost first
    batches: tuple = ()           # batching.BatchRequests (vmap), outermost first; applied after the grads
    pynative: bool = False        # a gradient called in PYNATIVE mode: backward hooks run, PYNATIVE meanings
    syntax_level: int = LAX

    def calls(self) -> list:
        """``(args, kwargs)`` seen by each level: the outermost call first, the target's call last."""
        args, kwargs = tuple(self.args), dict(self.kwargs)
        levels = [(args, kwargs)]
        for grad in self.grads:
            args, kwargs, _ = grad.split_sens(args, dict(kwargs))
            grad.check_positions(args, kwargs)
            levels.append((args, kwargs))
        return levels

