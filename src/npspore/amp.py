"""Mixed precision, as in ``mindspore.amp``: float16 compute with float32 master weights, and loss scaling.

``auto_mixed_precision(network, amp_level)`` marks Cells with ``to_float(float16)``: their floating
inputs and Parameters are cast to float16 where they are used, while the Parameters themselves (the
master weights the optimizer updates) stay float32. The levels are MindSpore's:

- ``'O0'``: nothing changes.
- ``'O1'``: only the white-list Cells (``Dense``, ``Conv*``, recurrent cells) compute in float16; their
  outputs are cast back to float32.
- ``'O2'``: everything in float16 except the black-list Cells (``BatchNorm*``, ``LayerNorm``), which
  stay float32; the network's output is cast to float32.
- ``'O3'``: everything in float16; the output is cast to float32.

``build_train_network`` adds the loss and the training step; at ``'O2'`` it also scales the loss
dynamically (``DynamicLossScaleManager``), skipping steps whose gradients overflow. Unlike MindSpore
on CPU, npspore supports loss-scaling training cells on every device.

The loss scalers (``StaticLossScaler``, ``DynamicLossScaler``) and ``all_finite`` serve functional
training loops written with ``value_and_grad``.
"""

from .common import dtype as mstype
from .common.parameter import Parameter
from .common.tensor import Tensor
from . import nn
from .nn.cell import Cell
from .nn.container import SequentialCell
from .nn.validation import check_positive_int
from . import ops
from .ops import functional as F

__all__ = ["auto_mixed_precision", "build_train_network", "get_white_list", "get_black_list", "all_finite",
           "LossScaler", "StaticLossScaler", "DynamicLossScaler", "LossScaleManager", "FixedLossScaleManager",
           "DynamicLossScaleManager"]

_LEVELS = ("O0", "O1", "O2", "O3", "auto")
_WHITE_LIST_NAMES = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
                     "Dense", "LSTMCell", "RNNCell", "GRUCell")
_BLACK_LIST_NAMES = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")


def _nn_classes(names):

    return [getattr(nn, name) for name in names if hasattr(nn, name)]


def get_white_list():
    """The Cell classes that compute in float16 at ``'O1'`` (a new list)."""
    return _nn_classes(_WHITE_LIST_NAMES)


def get_black_list():
    """The Cell classes that stay float32 at ``'O2'`` (a new list)."""
    return _nn_classes(_BLACK_LIST_NAMES)


def _cast_floating(value, dtype):
    """``value`` with its floating Tensors (also inside tuples) cast to ``dtype``; runs in compiled code."""
    if isinstance(value, Tensor) and value.dtype in mstype.float_type:
        return F.cast(value, dtype)
    if isinstance(value, tuple):
        cast_items = []
        for item in value:
            cast_items.append(_cast_floating(item, dtype))
        return tuple(cast_items)
    return value


class _OutputCast(Cell):
    """Runs ``backbone`` and casts its floating outputs to ``dtype`` (parameter names are unchanged)."""

    def __init__(self, backbone, dtype):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._dtype = dtype

    def construct(self, *inputs):
        return _cast_floating(self._backbone(*inputs), self._dtype)


def _wrap_children(network, classes, wrap):
    """Replace every sub-cell of one of ``classes`` (searched recursively) by ``wrap(sub_cell)``."""

    changed = False
    for name, child in list(network._cells.items()):
        if child is None:
            continue
        if isinstance(child, tuple(classes)):
            network._cells[name] = wrap(child)
            changed = True
        else:
            _wrap_children(child, classes, wrap)
    if changed and isinstance(network, SequentialCell):
        network.cell_list = list(network._cells.values())


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """Return ``network`` set up for mixed precision at ``amp_level`` (see the module docstring).

    Args:
        network (Cell): the network; it is changed in place (and wrapped at O2/O3).
        amp_level (str): ``'O0'``, ``'O1'``, ``'O2'``, ``'O3'`` (``'auto'`` is treated as ``'O1'``).
        dtype (mindspore.dtype): ``float16`` or ``bfloat16``.

    Returns:
        Cell: the network to use.

    Raises:
        TypeError: if ``network`` is not a Cell.
        ValueError: if ``amp_level`` or ``dtype`` is not supported.
    """
    if not isinstance(network, Cell):
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")
    if amp_level not in _LEVELS:
        raise ValueError(f"The amp level {amp_level} is not supported")
    if amp_level == "O0":
        return network
    if amp_level in ("O1", "auto"):
        _wrap_children(network, get_white_list(), lambda cell: _OutputCast(cell.to_float(dtype), mstype.float32))
    else:
        network.to_float(dtype)
        if amp_level == "O2":
            _wrap_children(network, get_black_list(), lambda cell: _OutputCast(cell.to_float(mstype.float32), dtype))
        network = _OutputCast(network, mstype.float32)
    network._amp_level = amp_level
    return network


class _WithFloat32Loss(Cell):
    """``loss_fn(float32(backbone(data)), float32(label))``: the loss of a float16 network in float32."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = _cast_floating(self._backbone(data), mstype.float32)
        return self._loss_fn(out, _cast_floating(label, mstype.float32))


_LEVEL_CONFIG = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16, "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
    "auto": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
}


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0", **kwargs):
    """The mixed-precision training network: precision setup, loss and a one-step training Cell.

    Args:
        network (Cell): the network (data -> predictions, or -> loss when ``loss_fn`` is None).
        optimizer (Cell): the optimizer.
        loss_fn (Cell): the loss function, or None.
        level (str): ``'O0'``, ``'O1'``, ``'O2'``, ``'O3'`` or ``'auto'``.
        boost_level (str): ``'O0'``, ``'O1'`` or ``'O2'``; boosting changes nothing in npspore.
        **kwargs: ``cast_model_type`` (float16/float32), ``keep_batchnorm_fp32`` (bool) and
            ``loss_scale_manager`` override what ``level`` sets.

    Returns:
        Cell: ``TrainOneStepCell`` (with the fixed loss scale as ``sens``), or
        ``TrainOneStepWithLossScaleCell`` when the loss scale manager has an update cell.

    Raises:
        TypeError: if ``level`` is not a str or a keyword has the wrong type.
        ValueError: if ``level``/``boost_level`` is unknown or a keyword is not supported.
    """

    if not isinstance(level, str):
        raise TypeError("The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'],"
                        f"but got type {type(level)}.")
    if level not in _LEVELS:
        raise ValueError(f"The argument `level` must be in ['O0', 'O1', 'O2', 'O3', 'auto'], but got {level}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The argument `boost_level` must be in ['O0', 'O1', 'O2'], but got {boost_level}.")
    for key in kwargs:
        if key not in _LEVEL_CONFIG["O0"]:
            raise ValueError(f"Unsupported arg '{key}'")
    config = dict(_LEVEL_CONFIG[level], **kwargs)
    if config["cast_model_type"] not in (mstype.float16, mstype.float32):
        raise TypeError(f"The 'cast_model_type' must be float16 or float32, but got {config['cast_model_type']}.")
    if not isinstance(config["keep_batchnorm_fp32"], bool):
        raise TypeError(f"The 'keep_batchnorm_fp32' must be bool, but got {type(config['keep_batchnorm_fp32'])}.")
    manager = config["loss_scale_manager"]
    if manager == "dynamic":
        manager = DynamicLossScaleManager()
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"The 'loss_scale_manager' must be a LossScaleManager, but got {type(manager)}.")

    half = config["cast_model_type"] == mstype.float16
    if half:
        network.to_float(mstype.float16)
        if config["keep_batchnorm_fp32"]:
            _wrap_children(network, get_black_list(),
                           lambda cell: _OutputCast(cell.to_float(mstype.float32), mstype.float16))
    elif level in ("O1", "auto"):
        network = auto_mixed_precision(network, level)
    if loss_fn is not None:
        network = _WithFloat32Loss(network, loss_fn) if half else nn.WithLossCell(network, loss_fn)
    if manager is not None:
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
        return nn.TrainOneStepCell(network, optimizer, manager.get_loss_scale()).set_train()
    return nn.TrainOneStepCell(network, optimizer).set_train()


# ------------------------------------------------------------------------------------ loss scaling

def _tensors(inputs):
    # One level of tuple/list, as gradients come (compiled code does not recurse).
    return list(inputs) if isinstance(inputs, (tuple, list)) else [inputs]


def _times(inputs, factor):
    """``inputs`` (a Tensor, or a tuple/list of them) times the 0-d ``factor``, each in its own dtype."""
    if isinstance(inputs, tuple):
        return tuple(tensor * factor.astype(tensor.dtype) for tensor in inputs)
    if isinstance(inputs, list):
        return [tensor * factor.astype(tensor.dtype) for tensor in inputs]
    return inputs * factor.astype(inputs.dtype)


def all_finite(inputs):
    """Whether every element of the Tensor(s) ``inputs`` is finite: a bool scalar Tensor.

    Written with ``ops``, so it runs eagerly and inside ``@jit`` functions and ``construct`` alike.

    Args:
        inputs (Union[Tensor, tuple[Tensor], list[Tensor]]): typically the gradients.
    """
    finite = None
    for tensor in _tensors(inputs):
        leaf = ops.isfinite(tensor).all()
        finite = leaf if finite is None else ops.logical_and(finite, leaf)
    return Tensor(True) if finite is None else finite


def _check_scale_value(scale_value):
    if not isinstance(scale_value, (int, float)) or isinstance(scale_value, bool):
        raise TypeError(f"The argument 'scale_value' must be float or int, but got {type(scale_value)}.")
    if scale_value < 1.0:
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")
    return Parameter(Tensor(scale_value, mstype.float32), name="scale_value")


class LossScaler:
    """Base class of loss scalers: ``scale``, ``unscale`` and ``adjust(grads_finite)``.

    Their methods are written with ``ops`` and ``ops.assign``, as MindSpore's, so a training step that
    calls them compiles (``@jit``, GRAPH mode) as well as it runs eagerly.
    """

    scale_value = None

    def scale(self, inputs):
        """``inputs`` (Tensor or tuple of Tensors) multiplied by the scale, each in its own dtype."""
        return _times(inputs, self.scale_value)

    def unscale(self, inputs):
        """``inputs`` multiplied by the reciprocal of the scale, each in its own dtype."""
        return _times(inputs, ops.reciprocal(self.scale_value))

    def adjust(self, grads_finite):
        """Update the scale after a step; returns whether the scaler adjusts at all."""
        raise NotImplementedError


class StaticLossScaler(LossScaler):
    """A constant loss scale.

    Raises:
        ValueError: if ``scale_value < 1``.
    """

    def __init__(self, scale_value):
        self.scale_value = _check_scale_value(scale_value)

    def adjust(self, grads_finite):
        """Nothing to adjust: returns False."""
        return False


class DynamicLossScaler(LossScaler):
    """A loss scale that grows by ``scale_factor`` after ``scale_window`` finite steps and shrinks on overflow.

    Raises:
        ValueError: if ``scale_value < 1`` or ``scale_factor``/``scale_window`` is not positive.
        TypeError: if ``scale_factor`` or ``scale_window`` is not an int.
    """

    def __init__(self, scale_value, scale_factor, scale_window):
        self.scale_value = _check_scale_value(scale_value)
        self.scale_window = check_positive_int(scale_window, "scale_window", "DynamicLossScaler")
        self.scale_factor = check_positive_int(scale_factor, "scale_factor", "DynamicLossScaler")
        self.counter = Parameter(Tensor(0, mstype.int32), name="counter")

    def adjust(self, grads_finite):
        """Grow the scale after ``scale_window`` finite steps in a row (if the result is finite); on an
        overflow divide it by ``scale_factor`` (not below 1) and restart the count. Returns True."""
        grown = self.scale_value * self.scale_factor
        finite_step = ops.select(self.counter == (self.scale_window - 1),
                                 ops.select(ops.isfinite(grown), grown, self.scale_value), self.scale_value)
        shrunk = ops.maximum(ops.ones((), self.scale_value.dtype), self.scale_value / self.scale_factor)
        ops.assign(self.scale_value, ops.select(grads_finite, finite_step, shrunk))
        ops.assign(self.counter, ((self.counter + 1) % self.scale_window) * grads_finite)
        return True


class LossScaleManager:
    """Base class of the loss scale managers ``Model`` and ``build_train_network`` take."""

    def get_loss_scale(self):
        """The current loss scale."""
        raise NotImplementedError

    def update_loss_scale(self, overflow):
        """Update the scale after a step that did (or did not) overflow."""
        raise NotImplementedError

    def get_update_cell(self):
        """The Cell the training step uses to update the scale, or None."""
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A fixed loss scale.

    Args:
        loss_scale (float): the scale (> 1).
        drop_overflow_update (bool): skip the update of steps whose gradients overflow (this needs
            ``TrainOneStepWithLossScaleCell``); when False, the scale is ``TrainOneStepCell``'s ``sens``.
    """

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if not isinstance(loss_scale, (int, float)) or loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be > 1, but got {loss_scale}")
        if not isinstance(drop_overflow_update, bool):
            raise TypeError(f"The argument 'drop_overflow_update' must be bool, but got {type(drop_overflow_update)}.")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        """The fixed scale."""
        return self._loss_scale

    def get_drop_overflow_update(self):
        """Whether overflowing steps are skipped."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """The scale is fixed: nothing to do."""

    def get_update_cell(self):
        """``nn.FixedLossScaleUpdateCell(loss_scale)`` when overflowing steps are dropped, else None."""
        if not self._drop_overflow_update:
            return None

        return nn.FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale that shrinks on overflow and grows by ``scale_factor`` every ``scale_window`` good steps.

    Raises:
        ValueError: if ``init_loss_scale < 1``, ``scale_factor <= 0`` or ``scale_window`` is not a positive int.
    """

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got {init_loss_scale}")
        check_positive_int(scale_window, "scale_window", "DynamicLossScaleManager")
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.loss_scale = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        """The current scale."""
        return self.loss_scale

    def update_loss_scale(self, overflow):
        """Halve (by ``scale_factor``) on overflow, grow every ``scale_window`` steps since the last one.

        Raises:
            RuntimeError: after more than 1000 overflowing steps in a row.
        """
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale Continuous overflow {self.bad_step} times, has exceeded "
                               "maximum threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        """Overflowing steps are always skipped: True."""
        return True

    def get_update_cell(self):
        """``nn.DynamicLossScaleUpdateCell(loss_scale, scale_factor, scale_window)``."""

        return nn.DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
