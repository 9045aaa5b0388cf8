"""``mindspore.train.loss_scale_manager``: the loss scale managers of :mod:`npspore.amp` under their older path."""
from ..amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
