"""Composite gradient operations, as in ``mindspore.ops.composite``: ``GradOperation``, ``grad``,
``value_and_grad`` and ``get_grad`` (the same objects as ``npspore.grad`` & co.), ``ones_like``/``zeros_like``."""
from __future__ import annotations

from .. import compiler   # compiler.gradrequest loads on first use
from ..grad import GradFunction, _check_bool, get_grad, grad, value_and_grad
from ..vectorize import vmap  # noqa: F401  (ops.vmap)
from ..missing_names import module_getattr
from . import functional
from .functional import ones_like, partial, zeros_like  # noqa: F401  (C.ones_like ..., as in MindSpore's composite)
from .multitype import HyperMap, Map, MultitypeFuncGraph
from .nn_functional import clip_by_global_norm, clip_by_value

__all__ = ["GradOperation", "grad", "value_and_grad", "get_grad", "partial", "vmap", "ones_like", "zeros_like",
           "HyperMap", "Map", "MultitypeFuncGraph", "clip_by_value", "clip_by_global_norm"]
__all__ += ["add_flags"]


class GradOperation:
    """A higher-order function that builds the gradient function of a function or Cell.

    ``GradOperation(...)(fn, weights=None)`` returns the gradient function; call it with fn's
    arguments (and the sensitivity last, when ``sens_param=True``).

    Args:
        get_all (bool): gradients with respect to every input, always as a tuple. Default: ``False``
            (the bare gradient of the first input).
        get_by_list (bool): gradients with respect to ``weights`` (a Parameter gives a bare gradient,
            a list/tuple/ParameterTuple a tuple; no weights give ``()``). With ``get_all`` the
            result is ``(input_gradients, weight_gradients)``. Default: ``False``.
        sens_param (bool): the gradient function takes the output's sensitivity as its last
            positional argument (or the keyword ``sens``), with the output's structure.
            Default: ``False`` (an all-ones sensitivity; a tuple output's contributions are summed).

    Raises:
        TypeError: a flag is not a bool: ``For 'GradOperation', the 'get_all' should be bool, but got int``.

    Examples:
        >>> grad_net = ops.GradOperation(get_by_list=True)(net, net.z)
        >>> grad_net(x, y)
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        self.get_all = _check_bool("GradOperation", "get_all", get_all)
        self.get_by_list = _check_bool("GradOperation", "get_by_list", get_by_list)
        self.sens_param = _check_bool("GradOperation", "sens_param", sens_param)

    def _spec(self) -> compiler.gradspec.GradSpec:
        if self.get_all:
            positions, form = (), "all"
        elif self.get_by_list:
            positions, form = None, "auto"
        else:
            positions, form = (0,), "auto"
        return compiler.gradspec.GradSpec(positions=positions, position_form=form,
                                          by_weights=self.get_by_list, sens_param=self.sens_param)

    def __call__(self, fn, weights=None):
        """The gradient function of ``fn`` (with respect to ``weights`` when ``get_by_list``).

        Gradient functions of the same fn, weights and flags share their compiled kernels, so calling
        this at every step (as a Cell's ``construct`` does) compiles once per input signature.
        """
        return GradFunction(fn, self._spec(), weights if self.get_by_list else None)




def matmul(x1, x2, dtype=None):
    """MindSpore's ``ops.composite.matmul``: the matrix product under NumPy's rules (1-D operands as vectors,
    leading dims broadcast), cast to ``dtype`` when given."""
    product = functional.matmul(x1, x2)
    return product if dtype is None else functional.cast(product, dtype)


__all__ += ["matmul"]
# what mindspore.ops.composite holds of mindspore.ops besides the above (the same objects in MindSpore 2.10)
_SHARED_WITH_OPS = ("batch_dot", "count_nonzero", "cummin", "dot", "mm", "multinomial", "normal", "repeat_elements",
                    "repeat_interleave", "sequence_mask", "tensor_dot", "uniform")
__getattr__ = module_getattr("mindspore.ops.composite", globals(),
                             elsewhere={name: f"npspore.ops.{name}" for name in _SHARED_WITH_OPS})


def add_flags(fn=None, **flags):
    """Record ``flags`` in ``fn._func_graph_flags`` (a dict, created on first use) and return ``fn``; without
    ``fn``, a decorator doing so. The flags steer MindSpore's graph compiler only, so npspore's results are
    the same with and without them.

    Examples:
        >>> net = add_flags(net, predict=True)
        >>> net._func_graph_flags
        {'predict': True}
    """
    def deco(fn):
        recorded = getattr(fn, "_func_graph_flags", None)
        if recorded is None:
            fn._func_graph_flags = recorded = {}
        recorded.update(flags)
        return fn

    return deco if fn is None else deco(fn)
