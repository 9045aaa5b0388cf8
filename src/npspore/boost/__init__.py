"""``mindspore.boost``: so far ``GradientAccumulation`` (``boost.grad_accumulation``), the Cell that applies an
optimizer to the mean of the gradients of several steps. Other names of MindSpore's boost raise ``AttributeError``
saying npspore lacks them."""
from ..missing_names import module_getattr as _module_getattr
from .grad_accumulation import GradientAccumulation

__all__ = ["GradientAccumulation"]
__getattr__ = _module_getattr("mindspore.boost", globals())
