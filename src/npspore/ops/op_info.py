"""Operator registration data, as ``mindspore.ops``: ``CustomRegOp`` (the builder of a custom op's inputs,
outputs, attributes and dtype/format combinations), ``DataType`` (the named dtype/format pairs) and
``custom_info_register`` (attaches such data to a kernel function as ``reg_info``).

npspore runs every custom op through its Python or NumPy function, whatever the registration says; the data is
kept (``ops.Custom(reg_info=...)``, ``func.reg_info``) and its builder checks what MindSpore 2.10's checks.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

__all__ = ["RegOp", "CustomRegOp", "DataType", "custom_info_register"]


class RegOp:
    """The base of the registration builders: inputs, outputs, attributes, dtype/format rows.

    Raises:
        ValueError: If ``op_name`` is not a non-empty str.
    """

    def __init__(self, op_name: str = "") -> None:
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name = op_name
        self.inputs: list = []
        self.outputs: list = []
        self.attr_: list = []
        self.fusion_type_ = ""
        self.dtype_format_: list = []

    @staticmethod
    def _is_type(value, kind: type, name: str) -> bool:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TypeError(f"{value} value must be {name}")
        return True

    def _is_string(self, value) -> bool:
        return self._is_type(value, str, "str")

    def _is_int(self, value) -> bool:
        return self._is_type(value, int, "int")

    def _check_param(self, param_list: list, key_list: list, fn_list: list, kwargs: dict) -> dict:
        if len(param_list) != len(key_list) or (len(fn_list) != 1 and len(param_list) != len(fn_list)):
            raise ValueError(f"param_list size {len(param_list)}, key_list size {len(key_list)}, must be equal.And "
                             f"fn_list size {len(fn_list)}.")
        out = {}
        for index, element in enumerate(param_list):
            if element is not None:
                (fn_list[0] if len(fn_list) == 1 else fn_list[index])(element)
                out[key_list[index]] = element
        return {**out, **kwargs}

    def fusion_type(self, fusion_type: str) -> "RegOp":
        """Set the fusion type."""
        self._is_string(fusion_type)
        self.fusion_type_ = fusion_type
        return self

    def dtype_format(self, *args) -> "RegOp":
        """Add a row of ``(dtype, format)`` (or ``(dtype, format, object type)``) pairs, one per input and output.

        Raises:
            ValueError: If the row's length is not the number of inputs and outputs or a pair is malformed.
        """
        if len(self.inputs) + len(self.outputs) != len(args):
            raise ValueError("input size add output size must be equal to dtype format size")
        for arg in args:
            if not isinstance(arg, tuple) or len(arg) not in (2, 3):
                raise ValueError("dtype and format value must be tuple of two or three elements")
            for item in arg:
                self._is_string(item)
        self.dtype_format_.append(tuple(args))
        return self

    def get_op_info(self) -> dict:
        """The registration as a dict (the builder's fields, a trailing ``_`` dropped)."""
        return {key.rstrip("_"): value for key, value in self.__dict__.items()}


class CustomRegOp(RegOp):
    """The registration of an ``ops.Custom`` kernel: ``CustomRegOp().input(0, "x").output(0, "y")
    .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info()``."""

    def __init__(self, op_name: str = "Custom") -> None:
        super().__init__(op_name)
        self.target_ = "UnKnown"

    def input(self, index: int | None = None, name: str | None = None, param_type: str = "required",
              **kwargs) -> "CustomRegOp":
        """Add an input: its position, name and ``'required'``/``'dynamic'``/``'optional'``."""
        self.inputs.append(self._check_param([index, name, param_type], ["index", "name", "paramType"],
                                             [self._is_int, self._is_string, self._is_string], kwargs))
        return self

    def output(self, index: int | None = None, name: str | None = None, param_type: str = "required",
               **kwargs) -> "CustomRegOp":
        """Add an output: its position, name and kind."""
        self.outputs.append(self._check_param([index, name, param_type], ["index", "name", "paramType"],
                                              [self._is_int, self._is_string, self._is_string], kwargs))
        return self

    def dtype_format(self, *args) -> "CustomRegOp":
        """Add a dtype/format row (see :meth:`RegOp.dtype_format`).

        Raises:
            ValueError: If the row's length is not the number of inputs and outputs (MindSpore's message).
        """
        io_nums = len(self.inputs) + len(self.outputs)
        if len(args) != io_nums:
            raise ValueError(f"The size of 'args' must be equal to the sum of input tensors and output tensors, but "
                             f"got {len(args)} vs {io_nums}")
        return super().dtype_format(*args)

    def attr(self, name: str | None = None, param_type: str | None = None, value_type: str | None = None,
             default_value: Any = None, **kwargs) -> "CustomRegOp":
        """Add an attribute: its name, kind, value type and default (each a str)."""
        self.attr_.append(self._check_param([name, param_type, value_type, default_value],
                                            ["name", "paramType", "type", "defaultValue"], [self._is_string], kwargs))
        return self

    def target(self, target: str | None = None) -> "CustomRegOp":
        """Set the device the kernel is for (``'CPU'``, ``'GPU'``, ``'Ascend'``)."""
        if target is not None:
            self._is_string(target)
        self.target_ = target
        return self


# dtype prefix -> (dtype name, its format suffixes beyond _COMMON); MindSpore 2.10's DataType table
_COMMON = ["None", "Default", "5HD", "FracZ", "FracNZ", "C1HWNCoC0", "NCHW", "NHWC", "HWCN", "NDHWC", "ChannelLast",
           "Default_Tuple", "Default_List"]
_FLOAT_EXTRA = ["NCDHW", "DHWCN", "NDC1HWC0", "FRACTAL_Z_3D", "FracZNLSTM", "FracZNRNN", "ND_RNNBIAS"]
_DTYPES = {
    "BOOL": ("bool", []), "I8": ("int8", ["NCDHW", "NDC1HWC0", "NC1HWC0"]),
    "U8": ("uint8", ["NCDHW", "NDC1HWC0", "NC1HWC0"]), "I16": ("int16", []), "U16": ("uint16", []),
    "I32": ("int32", ["NDC1HWC0", "NCDHW"]), "U32": ("uint32", []), "I64": ("int64", []), "U64": ("uint64", []),
    "F16": ("float16", _FLOAT_EXTRA), "F32": ("float32", _FLOAT_EXTRA), "F64": ("float64", []),
    "BF16": ("bfloat16", _FLOAT_EXTRA),
}
_FORMATS = {"None": ("",), "Default": ("DefaultFormat",), "5HD": ("NC1HWC0",), "FracZ": ("FRACTAL_Z",),
            "FracNZ": ("FRACTAL_NZ",), "FracZNLSTM": ("FRACTAL_ZN_LSTM",), "FracZNRNN": ("FRACTAL_ZN_RNN",),
            "ND_RNNBIAS": ("ND_RNN_BIAS",), "Default_Tuple": ("DefaultFormat", "tuple"),
            "Default_List": ("DefaultFormat", "list")}


def _data_types() -> dict:
    table = {"None_None": ("", ""), "None_Default": ("", "DefaultFormat")}
    for prefix, (dtype, extra) in _DTYPES.items():
        for suffix in _COMMON + extra:
            table[f"{prefix}_{suffix}"] = (dtype,) + _FORMATS.get(suffix, (suffix,))
    for prefix, dtype in (("C64", "complex64"), ("C128", "complex128")):
        table[f"{prefix}_Default"] = (dtype, "DefaultFormat")
        table[f"{prefix}_Default_Tuple"] = (dtype, "DefaultFormat", "tuple")
    return table


DataType = type("DataType", (), {**_data_types(), "__doc__": "The named (dtype, format) pairs of an op's "
                                 "registration rows (``DataType.F32_Default`` is ``('float32', 'DefaultFormat')``), "
                                 "as MindSpore 2.10's.", "__module__": __name__})


def custom_info_register(*reg_info) -> Callable:
    """A decorator attaching the registrations ``reg_info`` to a kernel function as its ``reg_info``."""

    def decorator(func):
        setattr(func, "reg_info", reg_info)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapper
    return decorator
