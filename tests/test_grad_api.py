"""npspore.grad / value_and_grad / get_grad / ops.GradOperation: validation, return structures and
MindSpore's gradient conventions (semantics doc §1-§5, with its "Decisions" section)."""
import numpy as np
import pytest

import catalogue
import npspore as ms
from gradcheck import check_grads
from npspore import Parameter, ParameterTuple, Tensor, mutable, nn, ops
from npspore.compiler import ir
from npspore.compiler.signature import OutputTree
from npspore.compiler.gradrequest import gradient_tree
from npspore.compiler.gradspec import GradSpec


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


def _tree(positions=None, position_form="auto", by_weights=False, position_grads=(), weight_grads=(),
          single_weight=False, **flags):
    spec = GradSpec(positions=positions, position_form=position_form, by_weights=by_weights, **flags)
    return gradient_tree(spec, list(position_grads), list(weight_grads), single_weight,
                         value_node=("tuple", (leaf(9),)), aux_node=("tuple", (leaf(8),)))


RESULTS = [np.array([float(i)], np.float32) for i in range(10)]


@pytest.mark.parametrize("kwargs, expected", [
    (dict(positions=(1,), position_grads=[(1, leaf(1))]), [1.0]),
    (dict(positions=(2, 0), position_grads=[(2, leaf(2)), (0, leaf(0))]), ([2.0], [0.0])),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0))]), [0.0]),  # position 1 was a Python scalar
    (dict(positions=(1,), position_grads=[]), ()),
    (dict(positions=(), position_form="all", position_grads=[(0, leaf(0))]), ([0.0],)),
    (dict(by_weights=True, weight_grads=[("w", leaf(3))], single_weight=True), [3.0]),
    (dict(by_weights=True, weight_grads=[("w", leaf(3))]), ([3.0],)),
    (dict(by_weights=True), ()),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], by_weights=True,
          weight_grads=[("w", leaf(3))], single_weight=True), ([0.0], [3.0])),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], by_weights=True,
          weight_grads=[("w", leaf(3)), ("b", leaf(4))]), ([0.0], ([3.0], [4.0]))),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], by_weights=True), ([0.0], ())),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0)), (1, leaf(1))], by_weights=True,
          weight_grads=[("w", leaf(3))], single_weight=True), (([0.0], [1.0]), [3.0])),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0)), (1, leaf(1))], has_aux=True),
     (([0.0], [1.0]), ([8.0],))),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], with_value=True), (([9.0],), [0.0])),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], with_value=True, has_aux=True), (([9.0],), [0.0])),
])
def test_gradient_structures(kwargs, expected):
    assert values(build(_tree(**kwargs), RESULTS)) == expected


@pytest.mark.parametrize("kwargs, expected", [
    (dict(positions=(0,), position_grads=[(0, leaf(0))]), (0, [0.0])),
    (dict(positions=(1,), position_grads=[(1, leaf(1))]), (1, [1.0])),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0)), (1, leaf(1))]), ((0, [0.0]), (1, [1.0]))),
    (dict(by_weights=True, weight_grads=[("w", leaf(3))], single_weight=True), ("w", [3.0])),
    (dict(by_weights=True, weight_grads=[("w", leaf(3)), ("b", leaf(4))]), (("w", [3.0]), ("b", [4.0]))),
    (dict(by_weights=True, weight_grads=[("b", leaf(4))]), (("b", [4.0]),)),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], by_weights=True,
          weight_grads=[("w", leaf(3)), ("b", leaf(4))]), ((0, [0.0]), (("w", [3.0]), ("b", [4.0])))),
    (dict(positions=(0, 1), position_grads=[(0, leaf(0)), (1, leaf(1))], by_weights=True,
          weight_grads=[("w", leaf(3)), ("b", leaf(4))]),
     (((0, [0.0]), (1, [1.0])), (("w", [3.0]), ("b", [4.0])))),
    (dict(positions=(0,), position_grads=[(0, leaf(0))], by_weights=True,
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


# ------------------------------------------------------------------------------------ compiled gradients


def t32(*values):
    return Tensor(np.array(values, np.float32))


def mul2(x, y):
    return x * y


def square_matrix(x):
    return x @ x.T


def square_sum(x):
    return (x @ x.T).sum()


def pair(x, y):
    return x * y, 2 * x


def one_tuple(x, y):
    return (x * y,)


def affine(x, y):
    return x * y + 3.0


def scaled(x, y, scale):
    return x * y * scale


def unused_second(x, y):
    return x * 2.0


def constant_output(x):
    return 3.0


def with_stop(x, y):
    return ops.stop_gradient(x * y) + x * y


def cube(x):
    return x * x * x


def mixed(x, y):
    return x * x * y


def sin_fn(x):
    return ops.sin(x)


def first_of(z):
    return z[0] * z[1]


def keys_of(d):
    return d["a"] * d["b"]


def relu_abs(x):
    return ops.relu(x) + ops.abs(x)


def tensor_max(x):
    return x.max()


def pairwise_max(x, y):
    return ops.maximum(x, y)


def max_along(x):
    values, _ = ops.max(x, 1)
    return values


def broadcast_add(a, b):
    return a + b


def int_cast(a):
    return (a * 2).astype(ms.int32)


def index_and_concat(x):
    return ops.concat((x[0], x[1:].reshape(-1) * 2.0)).transpose()


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(t32(2.0, 3.0), name="w")
        self.b = Parameter(t32(1.0, 1.0), name="b")
        self.frozen = Parameter(t32(5.0, 5.0), name="frozen", requires_grad=False)

    def construct(self, x):
        return x * self.w * self.frozen + self.b


def test_non_scalar_output_gets_an_implicit_ones_sensitivity():
    x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    np.testing.assert_allclose(ms.grad(square_matrix)(x).asnumpy(), ms.grad(square_sum)(x).asnumpy())


def test_tuple_output_contributions_are_summed():
    x, y = t32(1.0, 2.0), t32(-2.0, 3.0)
    assert values(ms.grad(pair)(x, y)) == [0.0, 5.0]


def test_value_and_grad_returns_the_whole_output():
    x, y = t32(1.0, 2.0), t32(-2.0, 3.0)
    value, gradient = ms.value_and_grad(mul2)(x, y)
    assert values(value) == [-2.0, 6.0] and values(gradient) == [-2.0, 3.0]
    value, gradient = ms.value_and_grad(pair, (0, 1))(x, y)
    assert values(value) == ([-2.0, 6.0], [2.0, 4.0]) and values(gradient) == ([0.0, 5.0], [1.0, 2.0])
    # has_aux: the value is fn's whole output tuple and the gradients come from out[0] only, with no
    # aux inside them (mindspore-semantics.md §2; MindSpore's quick start unpacks (loss, _), grads)
    value, gradient = ms.value_and_grad(pair, 0, has_aux=True)(x, y)
    assert values(value) == ([-2.0, 6.0], [2.0, 4.0]) and values(gradient) == [-2.0, 3.0]
    value, gradient = ms.value_and_grad(pair, 0, return_ids=True)(x, y)
    assert values(gradient) == (0, [0.0, 5.0])


def test_sens_param_takes_the_sensitivity_last():
    x, y = t32(1.0, 2.0), t32(-2.0, 3.0)
    gradient = ops.GradOperation(sens_param=True)(mul2)
    assert values(gradient(x, y, t32(10.0, 100.0))) == [-20.0, 300.0]
    gradient = ops.GradOperation(get_all=True, sens_param=True)(pair)
    assert values(gradient(x, y, (t32(1.0, 1.0), t32(0.5, 0.5)))) == ([-1.0, 4.0], [1.0, 2.0])
    assert values(ms.grad(mul2, 1, sens_param=True)(x, y, sens=t32(2.0, 2.0))) == [2.0, 4.0]


def test_python_scalars_are_constants_and_drop_out():
    x = t32(1.0, 2.0)
    assert values(ms.grad(affine, (0, 1))(x, 3.0)) == [3.0, 3.0]
    assert ms.grad(affine, 1)(x, 3.0) == ()


def test_unused_input_and_constant_output_give_zeros():
    x, y = t32(1.0, 2.0), Tensor(np.ones((2, 3), np.float32))
    dx, dy = ms.grad(unused_second, (0, 1))(x, y)
    assert values(dx) == [2.0, 2.0] and dy.shape == (2, 3) and not dy.asnumpy().any()
    assert values(ms.grad(constant_output)(x)) == [0.0, 0.0]


def test_integer_inputs_get_gradients_of_their_dtype():
    i, x = Tensor(np.array([1, 2], np.int32)), t32(1.0, 2.0)
    di, dx = ms.grad(mul2, (0, 1))(i, x)
    assert (di.dtype, dx.dtype) == (ms.int32, ms.float32)
    assert values(di) == [1, 2] and values(dx) == [1.0, 2.0]


def test_mutable_containers_get_gradients_of_the_same_type():
    x, y = t32(1.0, 2.0), t32(3.0, 4.0)
    assert values(ms.grad(first_of)(mutable((x, y)))) == ([3.0, 4.0], [1.0, 2.0])
    assert values(ms.grad(first_of)(mutable([x, y]))) == [[3.0, 4.0], [1.0, 2.0]]
    assert values(ms.grad(keys_of)(mutable({"a": x, "b": y}))) == {"a": [3.0, 4.0], "b": [1.0, 2.0]}
    assert values(ops.GradOperation(get_all=True)(first_of)(mutable((x, y)))) == (([3.0, 4.0], [1.0, 2.0]),)
    assert ms.grad(first_of)((x, y)) == ()


def test_keyword_arguments_follow_the_positionals():
    x, y = t32(1.0, 2.0), t32(3.0, 4.0)
    dx, dscale = ms.grad(scaled, (0, 2))(x, y, scale=Tensor(np.float32(2.0)))
    assert values(dx) == [6.0, 8.0] and values(dscale) == 11.0
    assert values(ms.grad(scaled, 0)(x=x, y=y, scale=2.0)) == [6.0, 8.0]


def test_same_tensor_at_two_positions_gets_independent_gradients():
    one = t32(1.0)
    assert values(ms.grad(mul2, (0, 1))(one, one)) == ([1.0], [1.0])


def test_weights_single_list_frozen_and_unused():
    net = Scale()
    x = t32(1.0, 2.0)
    assert values(ms.grad(net, None, net.w)(x)) == [5.0, 10.0]
    assert values(ms.grad(net, None, [net.w, net.b])(x)) == ([5.0, 10.0], [1.0, 1.0])
    assert values(ms.grad(net, None, net.trainable_params())(x)) == ([5.0, 10.0], [1.0, 1.0])
    assert values(ms.grad(net, None, ParameterTuple([net.b]))(x)) == ([1.0, 1.0],)
    assert values(ms.grad(net, None, [net.frozen])(x)) == ([2.0, 6.0],)
    unused = Parameter(t32(0.0, 0.0, 0.0), name="unused")
    assert values(ms.grad(net, 0, [unused])(x)) == ([10.0, 15.0], ([0.0, 0.0, 0.0],))
    assert values(ms.grad(net, None, Tensor(np.ones(2, np.float32)))(x)) == [0.0, 0.0]
    assert values(ms.grad(net, 0, net.w, return_ids=True)(x)) == ((0, [10.0, 15.0]), ("w", [5.0, 10.0]))


def test_grad_operation_forms():
    net = Scale()
    x = t32(1.0, 2.0)
    assert values(ops.GradOperation()(net)(x)) == [10.0, 15.0]
    assert values(ops.GradOperation(get_all=True)(net)(x)) == ([10.0, 15.0],)
    assert values(ops.GradOperation(get_by_list=True)(net, net.w)(x)) == [5.0, 10.0]
    assert values(ops.GradOperation(get_by_list=True)(net, [net.b])(x)) == ([1.0, 1.0],)
    assert ops.GradOperation(get_by_list=True)(net)(x) == ()
    assert values(ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(x)) == (
        ([10.0, 15.0],), ([5.0, 10.0], [1.0, 1.0]))


def test_has_aux_needs_a_tuple_output():
    x, y = t32(1.0, 2.0), t32(3.0, 4.0)
    with pytest.raises(ValueError, match="^When has_aux is True, origin fn requires more than one outputs.$"):
        ms.grad(mul2, has_aux=True)(x, y)
    assert values(ms.grad(pair, has_aux=True)(x, y)) == ([3.0, 4.0], ([2.0, 4.0],))
    assert values(ms.grad(one_tuple, has_aux=True)(x, y)) == ([3.0, 4.0], ())  # GRAPH accepts a 1-tuple


def test_gradient_conventions_of_common_ops():
    assert values(ms.grad(relu_abs)(t32(0.0, 2.0, -3.0))) == [0.0, 2.0, -1.0]
    assert values(ms.grad(tensor_max)(t32(1.0, 3.0, 3.0))) == [0.0, 0.5, 0.5]
    assert values(ms.grad(pairwise_max, (0, 1))(t32(1.0, 2.0), t32(1.0, 1.0))) == ([0.5, 1.0], [0.5, 0.0])
    x = Tensor(np.array([[1.0, 3.0, 2.0], [5.0, 4.0, 6.0]], np.float32))
    assert values(ms.grad(max_along)(x)) == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    a, b = Tensor(np.zeros((2, 1), np.float32)), t32(0.0, 0.0, 0.0)
    da, db = ms.grad(broadcast_add, (0, 1))(a, b)
    assert values(da) == [[3.0], [3.0]] and values(db) == [2.0, 2.0, 2.0]
    assert values(ms.grad(int_cast)(t32(1.5, 2.5))) == [2.0, 2.0]
    x = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    assert values(ms.grad(index_and_concat)(x)) == [[1.0, 1.0], [2.0, 2.0], [2.0, 2.0]]


def test_stop_gradient_blocks():
    x, y = t32(1.0, 2.0), t32(3.0, 4.0)
    assert values(ms.grad(with_stop)(x, y)) == [3.0, 4.0]


def test_higher_order_gradients():
    x = t32(1.0, 2.0)
    assert values(ms.grad(ms.grad(cube))(x)) == [6.0, 12.0]
    assert values(ms.grad(ms.grad(ms.grad(cube)))(x)) == [6.0, 6.0]
    np.testing.assert_allclose(ms.grad(ms.grad(sin_fn))(x).asnumpy(), -np.sin(x.asnumpy()), rtol=1e-6)
    value, second = ms.value_and_grad(ms.grad(cube))(x)
    assert values(value) == [3.0, 12.0] and values(second) == [6.0, 12.0]
    y = t32(3.0, 4.0)
    assert values(ms.grad(ms.grad(mixed, 0), 1)(x, y)) == [2.0, 4.0]  # d/dy d/dx x*x*y = 2x


def _builds(gradient):
    info = gradient.cache_info()
    return info["compiles"] + info["disk_loads"]


class CubeNet(nn.Cell):
    def construct(self, x):
        return x * x * x


class GradNet(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation()

    def construct(self, x):
        return self.grad_op(self.net)(x)


@ms.jit
def jit_second_derivative(x):
    return ms.grad(ms.grad(cube))(x)


def test_gradients_inside_compiled_code_and_of_grad_cells():
    x = t32(1.0, 2.0)
    assert values(jit_second_derivative(x)) == [6.0, 12.0]
    assert values(ops.GradOperation()(GradNet(CubeNet()))(x)) == [6.0, 12.0]
    assert values(GradNet(GradNet(GradNet(CubeNet())))(x)) == [6.0, 6.0]
    value, second = ms.value_and_grad(GradNet(CubeNet()))(x)
    assert values(value) == [3.0, 12.0] and values(second) == [6.0, 12.0]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert values(GradNet(GradNet(CubeNet()))(x)) == [6.0, 12.0]
        assert values(GradNet(GradNet(GradNet(CubeNet())))(x)) == [6.0, 6.0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_identical_sub_cells_share_one_backward_function():
    net = catalogue.Stack12()
    source = ms.grad(net, 0, net.trainable_params()).kernel_source(catalogue._rand(2, 4))
    functions = [line.split("(")[0] for line in source.splitlines() if line.startswith("def ")]
    assert functions == ["def Dense_construct", "def Dense_construct_bwd", "def Stack12_construct_grad"]
    assert source.count("= Dense_construct_bwd(") == 12


def test_gradient_functions_compile_once_per_signature():
    gradient = ms.grad(mul2)
    gradient(t32(1.0, 2.0), t32(3.0, 4.0))
    gradient(t32(5.0, 6.0), t32(7.0, 8.0))
    assert _builds(gradient) == 1 and gradient.cache_info()["hits"] == 1
    gradient(t32(1.0), t32(2.0))
    assert _builds(gradient) == 2
    assert _builds(ms.grad(mul2)) == 2  # a new grad of the same function shares the kernels


def test_gradient_kernels_are_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path))
    net = Scale()
    first = ms.grad(net, 0, [net.w, net.b])
    expected = values(first(t32(1.0, 2.0)))
    assert first.cache_info()["compiles"] == 1 and len(list(tmp_path.glob("*.py"))) == 1
    again = Scale()  # a new instance: a new in-process cache, the same file on disk
    second = ms.grad(again, 0, [again.w, again.b])
    assert values(second(t32(1.0, 2.0))) == expected == ([10.0, 15.0], ([5.0, 10.0], [1.0, 1.0]))
    assert second.cache_info()["disk_loads"] == 1 and second.cache_info()["compiles"] == 0


def test_parameter_updates_are_seen_without_recompiling():
    net = Scale()
    gradient = ms.grad(net)
    x = t32(1.0, 2.0)
    assert values(gradient(x)) == [10.0, 15.0]
    net.w.set_data(t32(1.0, 1.0))
    assert values(gradient(x)) == [5.0, 5.0]
    assert _builds(gradient) == 1


def test_generated_gradient_code_is_what_one_would_write():
    source = ms.grad(mul2, 1).kernel_source(t32(1.0, 2.0), t32(3.0, 4.0))
    body = source.split("def mul2_grad(x, y):")[1].split("kernel =")[0]
    # the seed's shape is static, so the forward product is never computed: d(x*y)/dy with ones is x
    assert [line.strip() for line in body.strip().splitlines()[1:]] == ["return x"]


# ------------------------------------------------------------------------------------ the shared catalogue

TENSOR_PROGRAMS = [(name, make, inputs) for name, make, inputs in catalogue.PROGRAMS
                   if all(isinstance(a, Tensor) for a in inputs())]


def _arrays(value):
    """The Tensor leaves of a (nested) output, as arrays, in flattening order."""
    if isinstance(value, Tensor):
        return [value.asnumpy()]
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in _arrays(v)]
    if isinstance(value, dict):
        return [a for v in value.values() for a in _arrays(v)]
    return []


def _like(value, leaves):
    """``value``'s structure with its Tensor leaves replaced by ``leaves`` (as Tensors)."""
    if isinstance(value, Tensor):
        return Tensor(next(leaves))
    if isinstance(value, (tuple, list)):
        return type(value)(_like(v, leaves) for v in value)
    if isinstance(value, dict):
        return {k: _like(v, leaves) for k, v in value.items()}
    return value


def _eager(program):
    def fn(*arrays):
        outputs = _arrays(program(*(Tensor(a) for a in arrays)))
        return tuple(outputs) if len(outputs) > 1 else outputs[0]
    return fn


def _compiled_vjp(program):
    def vjp(fn):
        def apply(args, dout):
            tensors = [Tensor(a) for a in args]
            douts = iter(dout if isinstance(dout, tuple) else (dout,))
            sens = _like(program(*tensors), douts)
            grads = ops.GradOperation(get_all=True, sens_param=True)(program)(*tensors, sens)
            return tuple(g.asnumpy() for g in grads) if len(grads) > 1 else grads[0].asnumpy()
        return apply
    return vjp


@pytest.mark.parametrize("name, make, inputs", TENSOR_PROGRAMS, ids=[p[0] for p in TENSOR_PROGRAMS])
def test_catalogue_gradients_match_finite_differences(name, make, inputs):
    program = make()
    args = tuple(a.asnumpy() for a in inputs())
    check_grads(_eager(program), args, _compiled_vjp(program), eps=1e-3, rtol=2e-3, atol=2e-4)


@pytest.mark.parametrize("name", ["elementwise", "broadcast_mix", "tensor_if", "early_return", "range_loop",
                                  "while_loop", "calls_helper", "GatedCell", "E"])
def test_catalogue_second_derivatives_match_finite_differences(name):
    make, inputs = next((m, i) for n, m, i in TENSOR_PROGRAMS if n == name)
    args = inputs()
    positions = tuple(range(len(args)))
    first = ms.grad(make(), positions)
    second = ms.grad(first, positions)

    def total(values):
        return sum(float(np.sum(a, dtype=np.float64)) for a in _arrays(first(*values)))

    analytic = _arrays(second(*args))
    for position, arg in enumerate(args):
        base = arg.asnumpy().astype(np.float64)
        direction = np.random.default_rng(position).standard_normal(base.shape)
        step = [Tensor(a.asnumpy().astype(np.float64)) for a in args]
        step[position] = Tensor(base + 1e-3 * direction)
        ahead = total(step)
        step[position] = Tensor(base - 1e-3 * direction)
        behind = total(step)
        numeric = (ahead - behind) / 2e-3
        assert np.isclose(float(np.sum(analytic[position] * direction)), numeric, rtol=2e-3, atol=2e-4), name


# ------------------------------------------------------------------------------------ backward hooks


class Product(nn.Cell):
    def construct(self, x, y):
        return x * y * 3.0


def test_backward_hooks_of_the_differentiated_cell():
    net = Product()
    seen = []
    handle = net.register_backward_hook(
        lambda cell, grad_input, grad_output: seen.append((values(grad_input), values(grad_output))) or
        (grad_input[0] * 10, grad_input[1]))
    x, y = t32(1.0, 2.0), t32(4.0, 5.0)
    gradient = ms.grad(net, (0, 1))
    assert values(gradient(x, y)) == ([120.0, 150.0], [3.0, 6.0])
    assert seen == [(([12.0, 15.0], [3.0, 6.0]), ([1.0, 1.0],))]
    handle.remove()
    assert values(gradient(x, y)) == ([12.0, 15.0], [3.0, 6.0])  # removal takes effect at the next call


def test_backward_pre_hook_replaces_the_output_gradient():
    net = Product()
    net.register_backward_pre_hook(lambda cell, grad_output: (grad_output[0] * 2,))
    x, y = t32(1.0, 2.0), t32(4.0, 5.0)
    value, gradient = ms.value_and_grad(net, 1, return_ids=True)(x, y)
    assert values(value) == [12.0, 30.0] and values(gradient) == (1, [6.0, 12.0])


@pytest.mark.parametrize("name, make, inputs", TENSOR_PROGRAMS, ids=[p[0] for p in TENSOR_PROGRAMS])
def test_catalogue_gradients_are_unchanged_by_optimize(name, make, inputs):
    """The optimized kernel's gradients equal the differentiated program's before optimize
    (run by the reference interpreter) to float32 rounding."""
    grad_fn = ops.GradOperation(get_all=True)(make())
    args = inputs()
    program = grad_fn.program(args)
    leaves = [a.asnumpy() for a in args] + [obj._array for obj in program.captured]
    expected = [np.asarray(v) for v in ir.evaluate(program.module, *leaves)]
    got = _arrays(grad_fn(*args))
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _sum_of_squares(x):
    return (x * x).sum()


def test_jit_of_a_gradient_function_runs_it():
    # MindSpore 2.10 (observed): ms.jit(ms.grad(f)) gives [2. 4.]; ms.jit(value_and_grad) (5, [2, 4])
    x = Tensor(np.array([1.0, 2.0], np.float32))
    assert ms.jit(ms.grad(_sum_of_squares))(x).asnumpy().tolist() == [2.0, 4.0]
    value, grads = ms.jit(ms.value_and_grad(_sum_of_squares))(x)
    assert (float(value), grads.asnumpy().tolist()) == (5.0, [2.0, 4.0])
