"""npspore: MindSpore's programming model on NumPy, compiled source-to-source.

``import npspore as ms`` in place of ``import mindspore as ms``: ``Tensor``, ``Parameter``,
``nn.Cell``, ``grad``/``value_and_grad``, ``ops.GradOperation``, ``jit`` and ``mutable`` behave
as MindSpore documents them; compiled and differentiated code is plain Python/NumPy that
``npspore show`` prints.
"""
from .core.version import __version__  # noqa: F401
from .core.numpy_warnings import ignore_numpy_float_warnings as _ignore_numpy_float_warnings

_ignore_numpy_float_warnings()   # NumPy's divide-by-zero and overflow warnings from npspore's own frames

from .common.dtype import *  # noqa: F401,F403
from .common.tensor import *  # noqa: F401,F403
from .common.parameter import *  # noqa: F401,F403
from .common.mutable import *  # noqa: F401,F403
from .common.seed import *  # noqa: F401,F403
from .common.generator import *  # noqa: F401,F403
from .common.sparse_tensor import *  # noqa: F401,F403
from .context import *  # noqa: F401,F403
from .jit import *  # noqa: F401,F403
from .jit_config import *  # noqa: F401,F403
from .common.api import ms_class, ms_function  # noqa: F401  (MindSpore 1.x's names of jit_class, jit)
from .grad import *  # noqa: F401,F403
from .grad import _no_grad  # noqa: F401
from .vectorize import *  # noqa: F401,F403
from .derivatives import jacfwd, jacrev, jvp, vjp  # noqa: F401  (as mindspore has them; linearize, derivative: ops)
from . import common, nn, ops  # noqa: F401,E402
from .common import dtype  # noqa: F401,E402
from . import amp, train  # noqa: F401,E402
from .run_check import run_check  # noqa: F401,E402
from .parallel.algo_parameters import get_algo_parameters, reset_algo_parameters, set_algo_parameters  # noqa: F401,E402
from .train import *  # noqa: F401,F403,E402
from .profiler import Profiler  # noqa: F401,E402
from .nn.hook_backward import HookBackward as _HookBackward, InsertGradientOf as _InsertGradientOf  # noqa: E402
from .nn.hook_backward import register_hook as _register_hook  # noqa: E402
from .missing_names import module_getattr as _module_getattr  # noqa: E402
# top-level names of mindspore.parallel
from .parallel import (Layout, merge_pipeline_strategys, sync_pipeline_shared_parameters,  # noqa: F401,E402
                       transform_checkpoints)
from .common.symbol import Symbol  # noqa: F401,E402
from .autograd_function import _Function  # noqa: F401,E402  (custom autograd functions, PyTorch's form)
from .parallel._offload_context import get_offload_context, set_offload_context  # noqa: F401,E402  (MindSpore 2.0-2.3)
from .import_hook import install_npspore_aliases as _install_npspore_aliases  # noqa: E402

# MindSpore has these under ops, but here they are Cells (nn imports ops): attached once nn has loaded.
ops.HookBackward, ops.InsertGradientOf = _HookBackward, _InsertGradientOf
from .nn.custom_op import Custom as _Custom  # noqa: E402
ops.Custom = _Custom   # ops.Custom is a cell too (its bprop is a cell's bprop)
# These Tensor methods use npspore.mint, which imports ops: attached once both have loaded.
from .ops import tensor_inplace as _tensor_inplace, tensor_methods as _tensor_methods  # noqa: E402
from .ops import tensor_methods_math as _tensor_methods_math, tensor_methods_tail as _tensor_methods_tail  # noqa: E402
_tensor_methods.attach({**_tensor_methods_tail.METHODS, **_tensor_methods_math.METHODS, **_tensor_inplace.METHODS,
                        "register_hook": _register_hook})

_install_npspore_aliases()
# The op table, its rules and the name and import machinery load with the package but are no attributes
# of it (nor in dir(npspore)): import them by their full names (`from npspore.opdef import op_table`).
_INTERNAL_MODULES = ("opdef", "shape_rules", "rules_nn", "missing_names", "import_hook", "module_aliases")
for _name in _INTERNAL_MODULES:
    del globals()[_name]
del _name
# A submodule not loaded yet (npspore.dataset, npspore.experimental) loads on first use, so `import
# npspore` does not pay for it; any other missing name is one MindSpore has and npspore does not.
__getattr__ = _module_getattr("mindspore", globals(), internal=_INTERNAL_MODULES,
                              elsewhere={"float": "npspore.common.dtype.float32"})   # ms.float is ms.float32
