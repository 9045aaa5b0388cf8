"""``mindspore.train.train_thor``: turning a ``Model`` whose optimizer is THOR (MindSpore's second-order
optimizer, ``nn.thor``) into its THOR model. npspore has no THOR optimizer (``nn.thor`` raises "not
implemented"), so no optimizer it can be given is one: :meth:`ConvertModelUtils.convert_to_thor_model` returns
the model it is given, as MindSpore does for every other optimizer."""
from __future__ import annotations

from ...missing_names import module_getattr

__all__ = ["ConvertModelUtils"]

class ConvertModelUtils:
    """Convert a ``Model`` for THOR training."""

    @staticmethod
    def convert_to_thor_model(model, network, loss_fn=None, optimizer=None, metrics=None, amp_level="O0",
                              loss_scale_manager=None, keep_batchnorm_fp32=False):
        """``model`` itself when ``optimizer`` is not a THOR optimizer (always in npspore: it has none).

        Args:
            model (Model): the model to convert.
            network, loss_fn, optimizer, metrics, amp_level, loss_scale_manager, keep_batchnorm_fp32: what the
                THOR model would be built from.

        Returns:
            Model, ``model``.
        """
        return model


__getattr__ = module_getattr("mindspore.train.train_thor", globals())
