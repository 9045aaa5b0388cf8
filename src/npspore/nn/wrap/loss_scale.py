"""Loss scaling for training, as ``mindspore.nn.wrap.loss_scale``.

``TrainOneStepWithLossScaleCell`` multiplies the loss's sensitivity by the loss scale, divides the
gradients by it, and skips the optimizer's update when a gradient is not finite (an overflow). A
``DynamicLossScaleUpdateCell`` halves (divides by ``scale_factor``) the scale at an overflow and
multiplies it after ``scale_window`` steps without one; a ``FixedLossScaleUpdateCell`` keeps it.

MindSpore 2.10's CPU build cannot run ``TrainOneStepWithLossScaleCell`` (it reaches for an Ascend
status register); npspore detects overflow as MindSpore's GPU path does, from the gradients' finiteness.
"""
from __future__ import annotations

from npspore import ops
from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.wrap.cell_wrapper import TrainOneStepCell

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]


class DynamicLossScaleUpdateCell(Cell):
    """Update the loss scale from the overflow flag of each step.

    At an overflow the scale becomes ``max(scale / scale_factor, 1)``; after `scale_window` steps
    since the last overflow it is multiplied by `scale_factor`. The counters are the Parameters
    ``current_iterator_step`` and ``last_overflow_iterator_step``.

    Args:
        loss_scale_value (float): the initial loss scale.
        scale_factor (int): the factor of increase and decrease.
        scale_window (int): the number of steps without overflow before an increase.

    Inputs:
        - **loss_scale** (Parameter) - the loss scale, updated in place.
        - **overflow** (Tensor) - bool, whether this step overflowed.

    Outputs:
        Tensor, `overflow`.
    """

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = Tensor(scale_window, mstype.int32)
        self.scale_factor = Tensor(scale_factor, mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, mstype.int32), name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, mstype.float32)

    def get_loss_scale(self):
        """The initial loss scale value."""
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        loss_scale_on_overflow = ops.where(
            overflow, ops.maximum(loss_scale * (1.0 / self.scale_factor), self.minimum_loss_scale), loss_scale)
        should_inc = ops.less_equal(self.scale_window, self.cur_iter - self.last_overflow_iter)
        last_iter_cond = ops.logical_or(overflow, should_inc)
        ops.assign(self.last_overflow_iter, ops.where(last_iter_cond, self.cur_iter, self.last_overflow_iter))
        update_scale_cond = ops.logical_and(should_inc, ops.logical_not(overflow))
        scaled = ops.where(update_scale_cond, loss_scale_on_overflow * self.scale_factor, loss_scale_on_overflow)
        ops.assign(loss_scale, scaled)
        ops.assign(self.cur_iter, self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A loss scale that never changes.

    Args:
        loss_scale_value (float): the loss scale.

    Inputs:
        - **loss_scale** (Parameter) - the loss scale (unused).
        - **overflow** (Tensor) - bool, whether this step overflowed.

    Outputs:
        Tensor, `overflow`.
    """

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        """The loss scale value."""
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One training step with loss scaling; the update is skipped when a gradient overflows.

    Args:
        network (Cell): the network with its loss.
        optimizer (Cell): the optimizer.
        scale_sense (Union[Tensor, Cell]): a loss-scale update cell (``DynamicLossScaleUpdateCell``,
            ``FixedLossScaleUpdateCell``), or a Tensor of shape ``()`` or ``(1,)`` holding the scale.
            The scale is kept in the Parameter ``scale_sense``.

    Inputs:
        - **\\*inputs** (tuple[Tensor]) - the inputs of `network`.

    Outputs:
        ``(loss, overflow, loss_scale)``: the loss, a bool Tensor telling whether the gradients
        overflowed (then the Parameters were not updated), and the ``scale_sense`` Parameter, which
        the manager has already updated for the next step.

    Raises:
        TypeError: If `scale_sense` is neither a Cell nor a Tensor.
        ValueError: If a Tensor `scale_sense` has another shape than ``()`` or ``(1,)``.
    """

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), mstype.float32), name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((1,), ()):
                raise ValueError(f"For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or "
                                 f"(), but got {scale_sense.shape}.")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but "
                            f"got 'scale_sense' type: {type(scale_sense)}.")

    def construct(self, *inputs):
        loss = self.network(*inputs)
        scaling_sens = self.scale_sense
        scaling_sens_filled = ops.ones_like(loss) * ops.cast(scaling_sens, loss.dtype)
        grads = self.grad(self.network, self.weights)(*inputs, scaling_sens_filled)
        unscaled = ()
        for grad in grads:
            unscaled += (grad * ops.cast(1.0 / scaling_sens, grad.dtype),)
        grads = self.grad_reducer(unscaled)
        cond = self.get_overflow_status(grads)
        overflow = self.process_loss_scale(cond)
        if not overflow:
            loss = ops.depend(loss, self.optimizer(grads))
        return loss, cond, scaling_sens

    def set_sense_scale(self, sens):
        """Set the loss scale to the Tensor `sens`.

        Raises:
            TypeError: If `sens` is not a Tensor.
        """
        if not isinstance(sens, Tensor):
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be Tensor, but got "
                            f"{type(sens)}")
        self.scale_sense.set_data(sens)

    def get_overflow_status(self, gradients):
        """Whether a gradient has an infinite or NaN element (a bool Tensor)."""
        finite = True
        for gradient in gradients:
            finite = ops.logical_and(finite, ops.all(gradient - gradient == 0))
        return ops.logical_not(finite)

    def process_loss_scale(self, overflow):
        """Let the loss-scale manager update the scale; returns the overflow flag."""
        if self.loss_scaling_manager is not None:
            # construct is called as a method so that compiled code inlines it: the manager assigns
            # to the Parameter it receives, which must stay this cell's `scale_sense`.
            return self.loss_scaling_manager.construct(self.scale_sense, overflow)
        return overflow
