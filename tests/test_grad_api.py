"""npspore.grad / value_and_grad / get_grad / ops.GradOperation: validation, return structures and
MindSpore's gradient conventions (semantics doc §1-§5, with its "Decisions" section)."""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, ParameterTuple, Tensor, mutable, nn, ops
from npspore.compiler.signature import OutputTree
from npspore.grad import GradSpec, gradient_tree


def arrays(*values):
    return [np.asarray(v, dtype=np.float32) for v in values]


def build(node, results):
    return OutputTree(node).build(results)


def leaf(i):
    return ("leaf", i)


def values(tensor_tree):
    """A nested structure of Tensors as nested lists of floats (for comparisons)."""
    if isinstance(tensor_tree, Tensor):
        return tensor_tree.asnumpy().tolist()
    if isinstance(tensor_tree, dict):
        return {k: values(v) for k, v in tensor_tree.items()}
    if isinstance(tensor_tree, (tuple, list)):
        return type(tensor_tree)(values(v) for v in tensor_tree)
    return tensor_tree


# ------------------------------------------------------------------------------------ argument checks


def f_mul(x, y, z):
    return x * y * z


@pytest.mark.parametrize("api", [ms.grad, ms.value_and_grad])
def test_positions_and_weights_both_none(api):
    with pytest.raises(ValueError, match=r"^`grad_position` and `weight` can not be None at the same time\.$"):
        api(f_mul, grad_position=None, weights=None)


@pytest.mark.parametrize("position, error, message", [
    (-1, ValueError, "grad_position must be >= 0."),
    ((0, -1), ValueError, "The element in grad_position must be >= 0."),
    ((1, 1), ValueError, "There are duplicate positions in `grad_position`, please check it"),
    (1.0, TypeError, "For 'F.grad', the 'grad_position' must be int or tuple."),
    ([0, 1], TypeError, "For 'F.grad', the 'grad_position' must be int or tuple."),
    ((0, "a"), TypeError, "For 'F.grad', the element in 'grad_position' must be int."),
])
def test_bad_positions_fail_when_grad_is_called(position, error, message):
    with pytest.raises(error) as info:
        ms.grad(f_mul, grad_position=position)
    assert str(info.value) == message


@pytest.mark.parametrize("flag", ["has_aux", "return_ids"])
def test_non_bool_flags_fail_when_grad_is_called(flag):
    with pytest.raises(TypeError) as info:
        ms.grad(f_mul, **{flag: 1})
    assert str(info.value) == f"For '_Grad', the '{flag}' should be bool, but got int"


def test_out_of_range_position_fails_when_called():
    gradient = ms.grad(f_mul, grad_position=3)
    x = Tensor([1.0], ms.float32)
    with pytest.raises(IndexError) as info:
        gradient(x, x, x)
    assert str(info.value) == "Position index 3 is exceed input size."


def test_bad_weights_fail_when_called():
    gradient = ms.grad(f_mul, grad_position=None, weights=3)
    x = Tensor([1.0], ms.float32)
    with pytest.raises(TypeError) as info:
        gradient(x, x, x)
    assert str(info.value) == "The weights you provided is expected to be a tensor, or a list or tuple. but got 3"


def test_non_callable_fails_when_called():
    gradient = ms.grad(3)
    with pytest.raises(TypeError) as info:
        gradient(Tensor([1.0], ms.float32))
    assert str(info.value) == "The fn should be callable, but got int"


@pytest.mark.parametrize("flag, value, type_name", [
    ("get_all", 1, "int"), ("get_by_list", None, "NoneType"), ("sens_param", "yes", "str")])
def test_grad_operation_flags_must_be_bool(flag, value, type_name):
    with pytest.raises(TypeError) as info:
        ops.GradOperation(**{flag: value})
    assert str(info.value) == f"For 'GradOperation', the '{flag}' should be bool, but got {type_name}"


def test_grad_operation_flags_are_readable():
    operation = ops.GradOperation(get_all=True, sens_param=True)
    assert (operation.get_all, operation.get_by_list, operation.sens_param) == (True, False, True)


def test_aliases():
    from npspore.ops.composite import GradOperation

    assert ops.grad is ms.grad
    assert ops.value_and_grad is ms.value_and_grad
    assert GradOperation is ops.GradOperation
    assert ms.get_grad is ops.get_grad


# ------------------------------------------------------------------------------------ return structures


def _tree(positions=None, position_form="auto", weights_form=None, position_grads=(), weight_grads=(),
          single_weight=False, **flags):
    spec = GradSpec(positions=positions, position_form=position_form, weights_form=weights_form, **flags)
    return gradient_tree(spec, list(position_grads), list(weight_grads), single_weight,
                         value_node=("tuple", (leaf(9),)), aux_node=("tuple", (leaf(8),)))


RESULTS = [np.array([float(i)], np.float32) for i in range(10)]


@pytest.mark.parametrize("kwargs, expected", [
    (dict(positions=(1,), position_grads=[(1, leaf(1))]), [1.0]),
    (dict(positions=(2, 0), position_grads=[(2, leaf(2)), (0, leaf(0))]), ([2.0], [0.0])),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0))]), [0.0]),  # position 1 was a Python scalar
    (dict(positions=(1,), position_grads=[]), ()),
    (dict(positions=(), position_form="all", position_grads=[(0, leaf(0))]), ([0.0],)),
    (dict(weights_form="auto", weight_grads=[("w", leaf(3))], single_weight=True), [3.0]),
    (dict(weights_form="auto", weight_grads=[("w", leaf(3))]), ([3.0],)),
    (dict(weights_form="auto"), ()),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], weights_form="auto",
          weight_grads=[("w", leaf(3))], single_weight=True), ([0.0], [3.0])),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], weights_form="auto",
          weight_grads=[("w", leaf(3)), ("b", leaf(4))]), ([0.0], ([3.0], [4.0]))),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], weights_form="auto"), ([0.0], ())),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0)), (1, leaf(1))], weights_form="auto",
          weight_grads=[("w", leaf(3))], single_weight=True), (([0.0], [1.0]), [3.0])),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0)), (1, leaf(1))], has_aux=True),
     (([0.0], [1.0]), ([8.0],))),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], with_value=True), (([9.0],), [0.0])),
])
def test_gradient_structures(kwargs, expected):
    assert values(build(_tree(**kwargs), RESULTS)) == expected


@pytest.mark.parametrize("kwargs, expected", [
    (dict(positions=(0,), position_grads=[(0, leaf(0))]), (0, [0.0])),
    (dict(positions=(1,), position_grads=[(1, leaf(1))]), (1, [1.0])),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0)), (1, leaf(1))]), ((0, [0.0]), (1, [1.0]))),
    (dict(weights_form="auto", weight_grads=[("w", leaf(3))], single_weight=True), ("w", [3.0])),
    (dict(weights_form="auto", weight_grads=[("w", leaf(3)), ("b", leaf(4))]), (("w", [3.0]), ("b", [4.0]))),
    (dict(weights_form="auto", weight_grads=[("b", leaf(4))]), (("b", [4.0]),)),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], weights_form="auto",
          weight_grads=[("w", leaf(3)), ("b", leaf(4))]), ((0, [0.0]), (("w", [3.0]), ("b", [4.0])))),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0)), (1, leaf(1))], weights_form="auto",
          weight_grads=[("w", leaf(3)), ("b", leaf(4))]),
     (((0, [0.0]), (1, [1.0])), (("w", [3.0]), ("b", [4.0])))),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], weights_form="auto",
          weight_grads=[("w", leaf(3))], single_weight=True), ((0, [0.0]), ("w", [3.0]))),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], has_aux=True), ((0, [0.0]), ([8.0],))),
])
def test_return_ids_structures(kwargs, expected):
    assert values(build(_tree(return_ids=True, **kwargs), RESULTS)) == expected


def test_get_grad_by_position_and_by_parameter():
    w = Parameter(Tensor([1.0], ms.float32), name="inner.w")
    g0, g1, gw = Tensor([0.0]), Tensor([1.0]), Tensor([3.0])
    result = (((0, g0), (1, g1)), (("inner.w", gw),))
    assert ms.get_grad(result, 1) is g1
    assert ms.get_grad(result, 0) is g0
    assert ms.get_grad(result, w) is gw
    assert ms.get_grad((1, g1), 1) is g1


def test_get_grad_errors():
    result = ((0, Tensor([0.0])), (1, Tensor([1.0])))
    with pytest.raises(RuntimeError, match="Can not find the gradient for position or Parameter 2"):
        ms.get_grad(result, 2)
    with pytest.raises(TypeError, match="the `x` should be an integer or a Parameter, but got w"):
        ms.get_grad(result, "w")
