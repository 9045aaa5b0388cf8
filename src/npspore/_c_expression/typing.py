"""``mindspore._c_expression.typing``: the classes of MindSpore's dtypes (``type(mindspore.float32)`` is
``Float``), which programs use in ``isinstance`` checks. They are npspore's dtype classes."""
from ..common.dtype import BFloat, Bool, Complex, Float, Int, Number, String, TensorType, Type, UInt

__all__ = ["Type", "Number", "Bool", "Int", "UInt", "Float", "BFloat", "Complex", "String", "TensorType"]
