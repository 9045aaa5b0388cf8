"""Python builtins in @jit functions and GRAPH_MODE construct: the snippets of MindSpore's page "Python
built-in functions in static graph mode" and the cases around them.

Every expected value (and repr) was printed by MindSpore 2.10 CPU running the same function in a .py file.
"""
import numpy as np
import pytest

import npspore as ms
from npspore import nn


def test_int_float_bool_str_of_constants_and_tensors():
    @ms.jit
    def ints(x):
        return int(3), int(3.6), int('12', 16), int('0xa', 16), int('10', 8), int(x)

    @ms.jit
    def floats(x):
        return float(1), float(112), float(-123.6), float('123'), float(x.asnumpy())

    @ms.jit
    def bools():
        return bool(), bool(0), bool("abc"), bool([1, 2, 3, 4]), bool(ms.tensor([10]).asnumpy())

    @ms.jit
    def strs():
        return str(), str(0), str([1, 2, 3, 4]), str(ms.tensor([10])), str(np.array([1, 2, 3, 4]))

    assert ints(ms.tensor([-1.0], ms.float32)) == (3, 3, 18, 10, 8, -1)
    assert repr(floats(ms.tensor([-1], ms.int32))) == "(1.0, 112.0, -123.5999984741211, 123.0, -1.0)"
    assert bools() == (False, False, True, True, True)
    assert strs() == ("", "0", "[1, 2, 3, 4]", "[10]", "[1 2 3 4]")


def test_tuple_and_list_of_a_tensor_are_its_items_as_tensors_of_an_array_python_numbers():
    @ms.jit
    def tuples():
        return (tuple((1, 2, 3)), tuple(np.array([1, 2, 3])), tuple({'a': 1, 'b': 2, 'c': 3}),
                tuple(ms.tensor([1, 2, 3])))

    @ms.jit
    def lists():
        return list((1, 2, 3)), list(np.array([1, 2, 3])), list({'a': 1, 'b': 2, 'c': 3}), list(ms.tensor([1, 2, 3]))

    items = ("Tensor(shape=[], dtype=Int64, value= 1), Tensor(shape=[], dtype=Int64, value= 2), "
             "Tensor(shape=[], dtype=Int64, value= 3)")
    a, b, c, d = tuples()
    assert (repr(a), repr(b), repr(c), repr(d)) == ("(1, 2, 3)", "(1, 2, 3)", "('a', 'b', 'c')", f"({items})")
    a, b, c, d = lists()
    assert (repr(a), repr(b), repr(c), repr(d)) == ("[1, 2, 3]", "[1, 2, 3]", "['a', 'b', 'c']", f"[{items}]")
    assert [type(v) for v in b] == [int, int, int]


def test_max_min_and_sum_of_tensors():
    @ms.jit
    def extremes():
        return (max([0, 1, 2, 3]), max({1: 10, 2: 20, 3: 3}), ms.tensor(max(np.array([1, 2, 3, 4]))),
                max(('a', 'b', 'c')), max((1, 2, 3), (1, 4)), max(ms.tensor([1, 2, 3])), min(ms.tensor([1, 2, 3])),
                max(ms.tensor(1), ms.tensor(4)), min([ms.tensor(1), ms.tensor(4)]), max(ms.tensor([1]), ms.tensor([4])))

    @ms.jit
    def sums():
        t = ms.tensor([[1, 2], [3, 4]])
        return (sum([0, 1, 2]), sum((0, 1, 2), 10), ms.tensor(sum(np.array([1, 2, 3]))),
                sum(ms.tensor([1, 2, 3]), 10), sum(t), sum([1, t, t], ms.tensor([[1, 1], [1, 1]])))

    a, c, d, e, f, g, h, i, j, k = extremes()
    assert (a, c, str(d), e, f) == (3, 3, "4", "c", (1, 4))
    assert repr(g) == "Tensor(shape=[], dtype=Int64, value= 3)" and repr(h) == "Tensor(shape=[], dtype=Int64, value= 1)"
    assert (repr(i), repr(j), repr(k)) == ("Tensor(shape=[], dtype=Int64, value= 4)",
                                           "Tensor(shape=[], dtype=Int64, value= 1)",
                                           "Tensor(shape=[1], dtype=Int64, value= [4])")
    a, b, c, d, e, f = sums()
    assert (a, b, str(c)) == (3, 13, "6")
    assert repr(d) == "Tensor(shape=[], dtype=Int64, value= 16)"
    assert str(e) == "[4 6]" and str(f) == "[[ 4  6]\n [ 8 10]]"


def test_max_of_a_0d_or_2d_tensor_or_of_longer_tensors_raises_mindspores_error_at_the_users_line():
    @ms.jit
    def of_scalar(x):
        return max(x)

    @ms.jit
    def of_matrix(x):
        return min(x)

    @ms.jit
    def of_two(x):
        return max(x, x + 1)

    with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor") as info:
        of_scalar(ms.tensor(3.0))
    assert "return max(x)" in str(info.value)
    with pytest.raises(ValueError, match="more than one element is ambiguous"):
        of_matrix(ms.tensor([[1.0, 2.0]]))
    with pytest.raises(ValueError, match="more than one element is ambiguous"):
        of_two(ms.tensor([1.0, 2.0]))


def test_python_float_arithmetic_in_graph_mode_gives_float32_scalars():
    @ms.jit
    def arithmetic(x, s):
        return (0.1 + 0.2, -0.1, 0.5 * 0.3, max(0.1, 0.2), s * 2, s, -s, float(s), int(2.5) * 0.1, 1e40 * 1.0,
                float('0.1'), 0.1 ** 2, sum((0.1, 0.2)), abs(-45), abs(-0.1), x)

    *values, x = arithmetic(ms.tensor([1.0]), 0.1)
    assert repr(tuple(values)) == (
        "(0.30000001192092896, -0.10000000149011612, 0.15000000596046448, 0.2, 0.20000000298023224, 0.1, "
        "-0.10000000149011612, 0.1, 0.20000000298023224, inf, 0.1, 0.010000000707805157, 0.30000001192092896, "
        "45, 0.10000000149011612)")


def test_a_float_computed_in_graph_code_reaches_tensor_ops_as_eager_code_computes_it():
    """Only the returned float is MindSpore's float32 scalar: a tensor op takes the Python value in compiled
    code as in eager code (MindSpore 2.10 takes a Python float as float32 in both modes, ``x * -0.15`` of a
    Float64 ``x`` is ``-1.50000006e-01`` there; npspore keeps float64 in both, so they agree)."""
    def scale(x):
        return x * -0.15, -0.15

    x = ms.tensor([1.0], ms.float64)
    product, factor = ms.jit(scale)(x)
    assert product.asnumpy().tolist() == scale(x)[0].asnumpy().tolist() == [-0.15]
    assert factor == -0.15000000596046448 and scale(x)[1] == -0.15


def test_a_returned_tuple_holding_a_python_object_gives_its_floats_as_float32_scalars():
    @ms.jit
    def with_objects(x, s):
        return s, max(0.1, 0.2), -0.1, [-0.1], {'a': -0.1, 'b': 0.1}, 1e40, None

    @ms.jit
    def with_array(x):
        return 0.1, x.asnumpy()

    assert repr(with_objects(ms.tensor([1.0]), 0.1)) == (
        "(0.10000000149011612, 0.20000000298023224, -0.10000000149011612, [-0.10000000149011612], "
        "{'a': -0.10000000149011612, 'b': 0.1}, inf, None)")
    assert repr(with_array(ms.tensor([1.0]))) == "(0.10000000149011612, array([1.], dtype=float32))"


def test_map_of_lists_is_a_list_of_tuples_a_tuple_and_filter_a_list():
    def add(x, y):
        return x + y

    def is_odd(x):
        return bool(x % 2)

    @ms.jit
    def maps():
        return map(add, (1, 2, 3), (4, 5, 6)), map(add, [0, 1, 2], [6, 7, 8])

    @ms.jit
    def filters():
        return filter(is_odd, (1, 2, 3, 4, 5)), filter(is_odd, [6, 7, 8, 9, 10])

    assert maps() == ((5, 7, 9), [6, 8, 10])
    assert filters() == ([1, 3, 5], [7, 9])


def test_type_hasattr_getattr_len_isinstance_of_tensors_and_arrays():
    z = ms.tensor(np.ones((6, 4, 5)))

    @ms.jit
    def facts(w):
        return (type(1), type(np.array([1, 2, 3])), type(ms.tensor([1, 2, 3])), type(w), hasattr(w, "shape"),
                hasattr(w, "no_such_thing"), hasattr(w.asnumpy(), "__len__"), getattr(w.asnumpy(), "shape", 0),
                len(z), len(w.asnumpy()), isinstance(z, ms.Tensor), isinstance(w.asnumpy(), np.ndarray))

    assert facts(ms.tensor([1, 2, 3, 4])) == (int, np.ndarray, ms.Tensor, ms.Tensor, True, False, True, (4,),
                                               6, 4, True, True)


class Builtins(nn.Cell):
    def __init__(self):
        super().__init__()
        self.s = 2

    def construct(self, x):
        return (float(-123.6), str(ms.tensor([10])), tuple(ms.tensor([1, 2])), max(ms.tensor([1, 2, 3])),
                map(lambda a: a * self.s, [1]), len(x), isinstance(x, ms.Tensor), sum(x, 1))


def test_the_builtins_in_a_cells_construct_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = Builtins()(ms.tensor([1.0, 2.0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert repr(out[:3]) == ("(-123.5999984741211, '[10]', (Tensor(shape=[], dtype=Int64, value= 1), "
                             "Tensor(shape=[], dtype=Int64, value= 2)))")
    assert repr(out[3]) == "Tensor(shape=[], dtype=Int64, value= 3)"
    assert out[4:7] == ([2], 2, True) and out[7].asnumpy().tolist() == 4.0


def test_the_pages_other_builtins_on_constants():
    y = ms.tensor(np.array([[1, 2], [3, 4], [5, 6]]))

    @ms.jit
    def others():
        x = ms.tensor(np.array([0, 1, 2, 3]))
        return (dict(), dict(a='a', t='t'), dict(zip(['one', 'two'], [1, 2])), dict([('one', 1), ('two', 2)]),
                all(['a', '', 'd']), all((0, 1)), all([]), all(x.asnumpy()), any(['a', '', 'd']), any((0, '', False)),
                any(()), any(x.asnumpy()), round(10), round(10.567), round(10, 0), zip((1, 2, 3), (4, 5, 6)),
                range(0, 6, 2), range(3), enumerate((100, 200), 3))

    @ms.jit
    def rounded():
        return round(10.72, -1), round(17.12, -1), round(10.17, 1), round(10.12, 1)

    @ms.jit
    def rows():
        return enumerate(y)

    assert others() == ({}, {'a': 'a', 't': 't'}, {'one': 1, 'two': 2}, {'one': 1, 'two': 2}, False, False, True,
                        False, True, False, False, True, 10, 11, 10, ((1, 4), (2, 5), (3, 6)), (0, 2, 4), (0, 1, 2),
                        ((3, 100), (4, 200)))
    assert ["{:.2f}".format(v) for v in rounded()] == ["10.00", "20.00", "10.20", "10.10"]
    assert repr(rows()) == ("((0, Tensor(shape=[2], dtype=Int64, value= [1, 2])), (1, Tensor(shape=[2], dtype=Int64, "
                            "value= [3, 4])), (2, Tensor(shape=[2], dtype=Int64, value= [5, 6])))")
