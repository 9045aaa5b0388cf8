"""Operations, as ``mindspore.ops``: functional ops, primitive classes and gradient operations.

``ops.add(x, y)``, ``ops.sum(x, 1)`` (:mod:`npspore.ops.functional`); ``ops.MatMul(transpose_b=True)``,
``ops.ReduceSum(keep_dims=True)`` (:mod:`npspore.ops.primitives`); ``ops.GradOperation``,
``ops.grad``, ``ops.value_and_grad`` (:mod:`npspore.ops.composite`).
"""
import typing as _typing

from . import functional  # noqa: F401
from .composite import *  # noqa: F401,F403
from .functional import *  # noqa: F401,F403
from .primitives import *  # noqa: F401,F403
from .nn_functional import *  # noqa: F401,F403
from .losses import *  # noqa: F401,F403
from .optimizer_ops import *  # noqa: F401,F403
from .nn_primitives import *  # noqa: F401,F403
from .array_primitives import *  # noqa: F401,F403
from .resize import *  # noqa: F401,F403
from .ranges import range  # noqa: F401,A004  (ops.range; its own module: it hides the builtin)
from .boxes import *  # noqa: F401,F403
from .clipping import *  # noqa: F401,F403
from .debug_ops import *  # noqa: F401,F403
from .math_primitives import *  # noqa: F401,F403
from .numeric import *  # noqa: F401,F403
from .pooling3d import *  # noqa: F401,F403
from .roi_align import *  # noqa: F401,F403
from .scatter_nd_write import *  # noqa: F401,F403
from .loss_primitives import *  # noqa: F401,F403
from . import boxes as _boxes, clipping as _clipping, numeric as _numeric, pooling3d as _pooling3d
from . import roi_align as _roi_align, scatter_nd_write as _scatter_nd_write, loss_primitives as _loss_primitives

pows = Pow()   # ops.pows: a Pow primitive instance, as MindSpore's
from . import composite as _composite, functional as _functional, primitives as _primitives
from . import array_primitives as _array_primitives, debug_ops as _debug_ops, math_primitives as _math_primitives, resize as _resize
from . import losses as _losses, nn_functional as _nn_functional, nn_primitives as _nn_primitives
from .comm_ops import *  # noqa: F401,F403
from . import comm_ops as _comm_ops
from ..communication import comm_func  # noqa: F401  (ops.comm_func, as MindSpore's)
from . import optimizer_ops as _optimizer_ops
# ops-nn: neural-network, array and summary ops of the 2.10 usage list
from .summary_ops import *  # noqa: F401,F403
from . import summary_ops as _summary_ops
from .ctc import *  # noqa: F401,F403
from . import ctc as _ctc
from .rnn_primitives import *  # noqa: F401,F403
from . import rnn_primitives as _rnn_primitives
from .scatter_ops import *  # noqa: F401,F403
from .activation_ops import *  # noqa: F401,F403
from .array_extra import *  # noqa: F401,F403
from .primitive_table import *  # noqa: F401,F403
from . import scatter_ops as _scatter_ops, activation_ops as _activation_ops, array_extra as _array_extra
from . import primitive_table as _primitive_table
from .nn_array_primitives import *  # noqa: F401,F403
from . import nn_array_primitives as _nn_array_primitives
from .grid_sample import grid_sample  # noqa: F401
from .deformable_conv import deformable_conv2d  # noqa: F401
from .adafactor_ops import FusedAdaFactor  # noqa: F401
from ..missing_names import module_getattr

# mypy exports the star imports' names; it reads only a literal __all__, not one built from the submodules'
if not _typing.TYPE_CHECKING:
    __all__ = ["functional", *_functional.__all__, *_primitives.__all__, *_composite.__all__]
    __all__ += [*_nn_functional.__all__, *_losses.__all__, *_nn_primitives.__all__]
    __all__ += [*_comm_ops.__all__, "comm_func"]
    __all__ += _optimizer_ops.__all__
    __all__ += _array_primitives.__all__ + _resize.__all__ + ["range"] + _boxes.__all__ + _clipping.__all__ + ["pows"]
    __all__ += _debug_ops.__all__ + _math_primitives.__all__
    __all__ += _numeric.__all__ + _pooling3d.__all__ + _roi_align.__all__ + _scatter_nd_write.__all__
    __all__ += _loss_primitives.__all__
    __all__ += _summary_ops.__all__ + _ctc.__all__ + _rnn_primitives.__all__
    __all__ += _scatter_ops.__all__ + _activation_ops.__all__ + _array_extra.__all__ + _primitive_table.__all__
    __all__ += _nn_array_primitives.__all__ + ["grid_sample", "deformable_conv2d", "FusedAdaFactor"]
# elementwise math, statistics and their primitives (ops-math)
from .math_functional import *  # noqa: F401,F403,E402
from .math_primitive_classes import *  # noqa: F401,F403,E402
from .type_helpers import *  # noqa: F401,F403,E402
from .random_ops import *  # noqa: F401,F403,E402
from .linalg_functional import *  # noqa: F401,F403,E402
from . import linalg_functional as _linalg_functional  # noqa: E402
from . import math_functional as _math_functional, math_primitive_classes as _math_primitive_classes  # noqa: E402
from . import type_helpers as _type_helpers, random_ops as _random_ops  # noqa: E402
if not _typing.TYPE_CHECKING:
    __all__ += _math_functional.__all__ + _math_primitive_classes.__all__ + _type_helpers.__all__
    __all__ += _random_ops.__all__ + _linalg_functional.__all__
# ops.functional spells these too (F.acos, F.mixed_precision_cast, F.tensor_mul ...); their modules import the
# primitives, which import ops.functional, so the package hands them to it once all are loaded
for _module in (_math_functional, _type_helpers, _linalg_functional, _numeric):
    _spelled = [_name for _name in _module.__all__ if _name[0].islower() and _name not in _functional.__all__]
    vars(_functional).update({_name: getattr(_module, _name) for _name in _spelled})
    _functional.__all__ += _spelled
# MindSpore 2.10's ops.X that is the very object mint.X (tail)
from .mint_functions import cross, nan_to_num, ravel, roll, searchsorted  # noqa: E402,F401
if not _typing.TYPE_CHECKING:
    __all__ += ["cross", "nan_to_num", "ravel", "roll", "searchsorted"]
# channel dropout primitives and ops.scatter_nd_add (tail)
from .channel_dropout import Dropout2D, Dropout3D  # noqa: E402,F401
from .scatter_ops import scatter_nd_add  # noqa: E402,F401
if not _typing.TYPE_CHECKING:
    __all__ += ["Dropout2D", "Dropout3D", "scatter_nd_add"]
# ops.operations primitives A-L
from .float_status import *  # noqa: F401,F403,E402
from . import float_status as _float_status  # noqa: E402
from .apply_optimizers import *  # noqa: F401,F403,E402
from . import apply_optimizers as _apply_optimizers  # noqa: E402
from .conv_backprop_input import *  # noqa: F401,F403,E402
from . import conv_backprop_input as _conv_backprop_input  # noqa: E402
from .lstm_primitive import LSTM  # noqa: F401,E402
from .complex_ops import *  # noqa: F401,F403,E402
from . import complex_ops as _complex_ops  # noqa: E402
from .dropout_mask_ops import DropoutGenMask, DropoutDoMask  # noqa: F401,E402
from .all_to_all import AlltoAll  # noqa: F401,E402
from .flash_attention import FlashAttentionScore  # noqa: F401,E402
if not _typing.TYPE_CHECKING:
    __all__ += _float_status.__all__ + _apply_optimizers.__all__ + _conv_backprop_input.__all__ + ["LSTM"]
    __all__ += _complex_ops.__all__ + ["DropoutGenMask", "DropoutDoMask", "AlltoAll", "FlashAttentionScore"]
# functional ops of the 2.10 usage list's tail (ops.argsort, ops.hstack, F.hardtanh ...)
from .functional_tail import *  # noqa: E402,F401,F403
from . import functional_tail as _functional_tail  # noqa: E402
if not _typing.TYPE_CHECKING:
    __all__ += _functional_tail.__all__
_spelled = [_name for _name in _functional_tail.__all__ if _name not in _functional.__all__]
vars(_functional).update({_name: getattr(_functional_tail, _name) for _name in _spelled})
_functional.__all__ += _spelled
from .op_info import CustomRegOp, DataType, custom_info_register  # noqa: E402,F401
from .attention import flash_attention_score  # noqa: E402,F401
from . import nn_func  # noqa: E402,F401  (ops.function.nn_func: ops.function is ops)
if not _typing.TYPE_CHECKING:
    __all__ += ["CustomRegOp", "DataType", "custom_info_register", "flash_attention_score"]
# ops.operations primitives M-Z
from .scatter_reduce import *  # noqa: F401,F403,E402
from .sparse_optimizers import *  # noqa: F401,F403,E402
from . import scatter_reduce as _scatter_reduce, sparse_optimizers as _sparse_optimizers  # noqa: E402
if not _typing.TYPE_CHECKING:
    __all__ += _scatter_reduce.__all__ + _sparse_optimizers.__all__
# random samplers of ops.operations driven by seed/seed2 or a (seed, offset) state
from .generator_random_prims import *  # noqa: F401,F403,E402
from . import generator_random_prims as _generator_random_prims  # noqa: E402
if not _typing.TYPE_CHECKING:
    __all__ += _generator_random_prims.__all__
# linear algebra
from .linalg_extra import *  # noqa: F401,F403,E402
from . import linalg_extra as _linalg_extra  # noqa: E402
from .matrix_band import matrix_diag  # noqa: F401,E402
if not _typing.TYPE_CHECKING:
    __all__ += _linalg_extra.__all__ + ["matrix_diag"]
from .tensor_methods import attach as _attach_tensor_methods  # noqa: E402

_attach_tensor_methods()   # x.var(), x.cumsum(1), x.float(): the ops above as Tensor methods
__getattr__ = module_getattr("mindspore.ops", globals(),   # MindSpore's ops also hold Tensor and P (operations)
                             elsewhere={"Tensor": "npspore.Tensor", "P": "npspore.ops.operations"})
