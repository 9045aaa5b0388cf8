"""``JitConfig`` and ``lazy_inline``: compile settings MindSpore programs pass, accepted and validated.

npspore has one way to compile, so these change nothing in the generated kernels but one: a Cell's
``JitConfig(jit_syntax_level=...)`` (``Cell.set_jit_config``) sets the syntax level its compiles use
(``context.syntax_level``: below ``"LAX"``, reading a tensor's values is a compile error). They keep
MindSpore programs running unchanged (``@lazy_inline`` on a Cell's ``__init__``).
"""
from __future__ import annotations

import functools
import inspect

__all__ = ["JitConfig", "lazy_inline"]

_CHOICES = {"jit_level": ("", "O0", "O1", "O2"), "exc_mode": ("auto", "sink", "no_sink"),
            "jit_syntax_level": ("", "STRICT", "COMPATIBLE", "LAX"), "debug_level": ("RELEASE", "DEBUG"),
            "infer_boost": ("", "on", "off")}


class JitConfig:
    """Compile settings (``mindspore.JitConfig``), kept in ``jit_config_dict``.

    Args:
        jit_level (str): ``""``, ``"O0"``, ``"O1"`` or ``"O2"``. Default: ``""``.
        exc_mode (str): ``"auto"``, ``"sink"`` or ``"no_sink"``. Default: ``"auto"``.
        jit_syntax_level (str): ``""`` (the context's level), ``"STRICT"``, ``"COMPATIBLE"`` or ``"LAX"``.
            Default: ``""``.
        debug_level (str): ``"RELEASE"`` or ``"DEBUG"``. Default: ``"RELEASE"``.
        infer_boost (str): ``"on"`` or ``"off"``. Default: ``"off"``.
        kwargs (dict): further entries of ``jit_config_dict``.

    Raises:
        ValueError: If an argument is not one of its choices.
    """

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE",
                 infer_boost="off", **kwargs):
        given = dict(jit_level=jit_level, exc_mode=exc_mode, jit_syntax_level=jit_syntax_level,
                     debug_level=debug_level, infer_boost=infer_boost)
        for name, value in given.items():
            if value not in _CHOICES[name]:
                choices = [c for c in _CHOICES[name] if c]
                raise ValueError(f"For '{name}' must be one of {choices}.")
        self.jit_config_dict = {**kwargs, **given}


def lazy_inline(fn=None, attrs=None, policy=None):
    """Decorator of a Cell's ``__init__`` (``mindspore.lazy_inline``): MindSpore compiles such a cell
    once as a reusable sub-graph, as npspore does for every cell. The arguments named in `attrs`
    become attributes of the cell.

    Args:
        fn (function): the ``__init__`` to decorate. Default: ``None`` (returns a decorator).
        attrs (Union[list[str], str]): names of ``__init__`` arguments to set as attributes. Default: ``None``.
        policy (Union[None, str]): ``None`` or ``"front"``. Default: ``None``.

    Returns:
        The decorated ``__init__``, or a decorator when `fn` is None.

    Raises:
        ValueError: If `policy` is not None or ``"front"``.
    """
    if policy not in (None, "front"):
        raise ValueError(f"For 'lazy_inline', the policy must be None or 'front', but got {policy!r}.")
    names = [attrs] if isinstance(attrs, str) else list(attrs or ())

    def decorate(init):
        @functools.wraps(init)
        def wrapper(self, *args, **kwargs):
            init(self, *args, **kwargs)
            bound = inspect.signature(init).bind(self, *args, **kwargs)
            bound.apply_defaults()
            for name in names:
                setattr(self, name, bound.arguments[name])
        return wrapper

    return decorate if fn is None else decorate(fn)
