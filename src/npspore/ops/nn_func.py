"""MindSpore's ``ops.function.nn_func`` (``npspore.module_aliases`` maps the path here): the neural-network
functions of :mod:`.nn_functional`, ``multi_head_attention_forward`` and the private ``_innner_log_softmax`` scripts
import from it."""
from __future__ import annotations

from ..missing_names import module_getattr
from .attention import multi_head_attention_forward  # noqa: F401
from .functional import log_softmax
from .nn_functional import *  # noqa: F401,F403
from .nn_functional import __all__ as _nn_functional_names

__all__ = [*_nn_functional_names, "multi_head_attention_forward"]


def _innner_log_softmax(inputs, axis):
    """MindSpore's ``_innner_log_softmax`` (its spelling): ``inputs - logsumexp(inputs, axis)``, the log-softmax."""
    return log_softmax(inputs, axis)


__getattr__ = module_getattr("mindspore.ops.function.nn_func", globals(),   # MindSpore's nn_func imports it
                             elsewhere={"_get_cache_prim": "npspore.ops._primitive_cache._get_cache_prim"})
