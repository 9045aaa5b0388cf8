"""``ops.CustomRegOp``, ``ops.DataType`` and ``ops.custom_info_register`` (issue 26, data-nn-fn): the registration
dicts and errors are MindSpore 2.10's (printed by its ``get_op_info()`` for the same calls)."""
import numpy as np
import pytest

from npspore import Tensor, ops
from npspore.ops import CustomRegOp, DataType, custom_info_register

# MindSpore 2.10
ADD_N_INFO = {'op_name': 'add_n', 'inputs': [{'index': 0, 'name': 'x', 'paramType': 'dynamic'}],
              'outputs': [{'index': 0, 'name': 'y', 'paramType': 'required'}],
              'attr': [{'name': 'axis', 'paramType': 'required', 'type': 'int', 'defaultValue': '1'}],
              'fusion_type': '', 'dtype_format': [(('float32', 'DefaultFormat'), ('float32', 'DefaultFormat'))],
              'target': 'CPU'}
EMPTY_INFO = {'op_name': 'Custom', 'inputs': [], 'outputs': [], 'attr': [], 'fusion_type': '', 'dtype_format': [],
              'target': 'UnKnown'}


def _add_n_info():
    return (CustomRegOp("add_n").input(0, "x", "dynamic").output(0, "y")
            .dtype_format(DataType.F32_Default, DataType.F32_Default).attr("axis", "required", "int", "1")
            .target("CPU").get_op_info())


def test_registration_dicts_are_mindspores():
    assert _add_n_info() == ADD_N_INFO
    assert CustomRegOp().get_op_info() == EMPTY_INFO


def test_data_type_pairs():
    assert DataType.F32_Default == ("float32", "DefaultFormat") and DataType.None_None == ("", "")
    assert DataType.I8_5HD == ("int8", "NC1HWC0") and DataType.F16_FracZNLSTM == ("float16", "FRACTAL_ZN_LSTM")
    assert DataType.BOOL_Default_List == ("bool", "DefaultFormat", "list")
    assert DataType.C128_Default_Tuple == ("complex128", "DefaultFormat", "tuple")
    # MindSpore 2.10 names 204 pairs
    assert len([name for name in vars(DataType) if not name.startswith("_")]) == 204


@pytest.mark.parametrize("build, error, message", [
    (lambda: CustomRegOp(""), ValueError, "op name is empty"),
    (lambda: CustomRegOp().input("0"), TypeError, "0 value must be int"),
    (lambda: CustomRegOp().input(0, "x").dtype_format(DataType.F32_Default, DataType.F32_Default), ValueError,
     "The size of 'args' must be equal to the sum of input tensors and output tensors, but got 2 vs 1"),
    (lambda: CustomRegOp().input(0, "x").dtype_format(("float32",)), ValueError,
     "dtype and format value must be tuple of two or three elements"),
])
def test_errors_are_mindspores(build, error, message):
    with pytest.raises(error) as raised:
        build()
    assert str(raised.value) == message


def test_registered_kernel_runs_as_a_custom_op():
    info = _add_n_info()

    @custom_info_register(info)
    def double(x):
        return x * 2

    assert double.reg_info == (info,)
    op = ops.Custom(double, out_shape=lambda x: x, out_dtype=lambda x: x, func_type="pyfunc", reg_info=info)
    np.testing.assert_array_equal(op(Tensor(np.array([1.0, 2.5], np.float32))).asnumpy(), [2.0, 5.0])
