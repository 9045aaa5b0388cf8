"""``mindspore.common.api``: where MindSpore defines ``jit`` and ``jit_class``, and the private executor objects
(:mod:`.executors`) programs reach for; and where MindSpore 1.x-2.3 defined the older names ``ms_function`` and
``ms_class``, which scripts written for those versions import (``from mindspore import ms_function``). MindSpore
2.0 deprecated both names; calling either logs its warning and does what ``jit`` or ``jit_class`` does.
"""
from __future__ import annotations

from typing import Any, Callable

from ..core.logs import mindspore_log
from ..grad import _no_grad
from ..jit import JitFunction, _checked_input_signature, jit, jit_class, mark_jit_class
from .executors import _cell_graph_executor, _pynative_executor, cells_compile_cache  # noqa: F401

__all__ = ["jit", "jit_class", "ms_function", "ms_class", "_no_grad"]


def ms_function(fn: Callable | None = None, input_signature: Any = None, hash_args: Any = None,
                jit_config: Any = None) -> Any:
    """Compile a Python function into a kernel: MindSpore 1.x's name of :func:`npspore.jit`, with its signature.

    Logs MindSpore's warning ``'mindspore.ms_function' will be deprecated and removed in a future version. Please
    use 'mindspore.jit' instead.`` on every call.

    Args:
        fn (Function): the function to compile. Default: ``None`` (returns a decorator).
        input_signature (Union[Tensor, tuple[Tensor]]): the shapes and dtypes calls must have, as
            ``jit(input_signature=...)``; a dim of ``None`` is dynamic. Default: ``None``.
        hash_args (Union[Object, list, tuple]): free variables whose change recompiles ``fn``. npspore recompiles
            on a change of any global, closure value or attribute the function read, so these are covered
            without being named. Default: ``None``.
        jit_config (JitConfig): its ``jit_syntax_level`` sets the syntax level the compiles use (else the
            context's, as MindSpore 2.0's ``jit`` did). Default: ``None``.

    Returns:
        The compiled function, or a decorator when ``fn`` is None.

    Raises:
        TypeError: if ``input_signature`` is not a Tensor or a tuple of Tensors.
    """
    mindspore_log().warning("'mindspore.ms_function' will be deprecated and removed in a future version. "
                            "Please use 'mindspore.jit' instead.")
    signature = _checked_input_signature(input_signature)
    level = jit_config.jit_config_dict.get("jit_syntax_level", "") if jit_config is not None else ""

    def compile_function(function: Callable) -> Any:
        if not callable(function) or isinstance(function, JitFunction):
            return function
        if signature is None and not level:
            return jit(function)
        return JitFunction(function, syntax=level, shapes=signature)

    return compile_function if fn is None else compile_function(fn)


def ms_class(cls: type) -> type:
    """Mark a user-defined class whose instances compiled code reads: MindSpore 1.x's name of
    :func:`npspore.jit_class`. Logs MindSpore's warning ``'mindspore.ms_class' will be deprecated and removed in
    a future version. Please use 'mindspore.jit_class' instead.``

    Args:
        cls (type): the class.

    Returns:
        The class, with ``__ms_class__ = True``.

    Raises:
        TypeError: If ``cls`` is not a class, or is an ``nn.Cell``.
    """
    mindspore_log().warning("'mindspore.ms_class' will be deprecated and removed in a future version. "
                            "Please use 'mindspore.jit_class' instead.")
    return mark_jit_class(cls, "ms_class")
