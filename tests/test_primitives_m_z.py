"""ops.operations primitives M-Z (TensorScatterMul ..., ScatterNdMin ...): MindSpore 2.10's values and dtypes for
the cases of ``tests/primitive_cases_m_z.py`` (recorded by ``tools/observe_mindspore_primitives_m_z.py``), eager
and compiled, MindSpore's errors, and gradients of the compositions against central differences in float64."""
import numpy as np
import pytest

import npspore as ms
from npspore import Parameter, Tensor, nn, ops
from npspore.ops import operations as P
from composition_checks import check_composition
from primitive_cases_m_z import CASES, Param

# name: MindSpore 2.10 CPU's (dtype, values) for the case of that name, a list of them for a tuple result
RECORDED = {
    'TensorScatterMul_doc': ('Float32', [[-0.2200000137090683, 0.30000001192092896, 3.5999999046325684], [0.4000000059604645, 0.5, -3.200000047683716]]),
    'TensorScatterMul_mixed': ('Float32', [[-0.10000000149011612, 0.30000001192092896, 3.5999999046325684], [1.2000000476837158, 0.5, 12.800000190734863]]),
    'TensorScatterDiv_doc': ('Float32', [[-0.05000000074505806, 0.30000001192092896, 3.5999999046325684], [0.4000000059604645, 0.5, -3.200000047683716]]),
    'TensorScatterDiv_mixed': ('Float32', [[-0.10000000149011612, 0.30000001192092896, 3.5999999046325684], [0.13333334028720856, 0.5, 0.800000011920929]]),
    'TensorScatterMax_doc': ('Float32', [[2.200000047683716, 0.30000001192092896, 3.5999999046325684], [0.4000000059604645, 0.5, -3.200000047683716]]),
    'TensorScatterMax_mixed': ('Float32', [[-0.10000000149011612, 2.0, 3.5999999046325684], [3.0, 0.5, -3.200000047683716]]),
    'TensorScatterMin_doc': ('Float32', [[-0.10000000149011612, 0.30000001192092896, 3.5999999046325684], [0.4000000059604645, 0.5, -3.200000047683716]]),
    'TensorScatterMin_mixed': ('Float32', [[-0.10000000149011612, 0.30000001192092896, 3.5999999046325684], [0.4000000059604645, 0.5, -4.0]]),
    'TensorScatterMax_rows': ('Float32', [[1.0, 1.0, 3.5999999046325684], [0.4000000059604645, 9.0, 0.0]]),
    'ScatterMul_doc': ('Float32', [[2.0, 2.0, 2.0], [4.0, 4.0, 4.0]]),
    'ScatterMul_doc_repeated': ('Float32', [[1.0, 1.0, 1.0], [378.0, 378.0, 378.0]]),
    'ScatterDiv_doc': ('Float32', [[3.0, 3.0, 3.0], [1.0, 1.0, 1.0]]),
    'ScatterDiv_repeated': ('Float32', [[105.0, 105.0, 105.0], [3.0, 3.0, 3.0]]),
    'ScatterMax_doc': ('Float32', [[88.0, 88.0, 88.0], [88.0, 88.0, 88.0]]),
    'ScatterMax_mixed': ('Float32', [[1.0, 1.0, 3.5999999046325684], [0.4000000059604645, 9.0, 0.0]]),
    'ScatterMin_doc': ('Float32', [[0.0, 1.0, 1.0], [0.0, 0.0, 0.0]]),
    'ScatterMin_mixed': ('Float32', [[-0.10000000149011612, 0.30000001192092896, 1.0], [-5.0, 0.0, -3.200000047683716]]),
    'ScatterSub_doc': ('Float32', [[-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0]]),
    'ScatterSub_repeated': ('Float32', [[-7.099999904632568, -7.699999809265137, -5.400000095367432], [-4.599999904632568, -6.5, -12.199999809265137]]),
    'ScatterNdMul_doc': ('Float32', [1.0, 16.0, 18.0, 4.0, 35.0, 6.0, 7.0, 72.0]),
    'ScatterNdMul_repeated': ('Float32', [[-0.10000000149011612, 0.30000001192092896, 3.5999999046325684], [1.2000000476837158, 0.5, 12.800000190734863]]),
    'ScatterNdDiv_doc': ('Float32', [1.0, 0.25, 0.5, 4.0, 0.7142857313156128, 6.0, 7.0, 0.8888888955116272]),
    'ScatterNdDiv_repeated': ('Float32', [[-0.10000000149011612, 0.30000001192092896, 3.5999999046325684], [0.13333334028720856, 0.5, 0.800000011920929]]),
    'ScatterNdMax_doc': ('Float32', [1.0, 8.0, 6.0, 4.0, 7.0, 6.0, 7.0, 9.0]),
    'ScatterNdMax_repeated': ('Float32', [[-0.10000000149011612, 2.0, 3.5999999046325684], [3.0, 0.5, -3.200000047683716]]),
    'ScatterNdMin_doc': ('Float32', [10.0, 8.0, 6.0, 10.0, 7.0, 10.0, 10.0, 9.0]),
    'ScatterNdMin_repeated': ('Float32', [[-0.10000000149011612, 0.30000001192092896, 3.5999999046325684], [0.4000000059604645, 0.5, -4.0]]),
    'ScatterNdSub_doc': ('Float32', [1.0, -6.0, -3.0, 4.0, -2.0, 6.0, 7.0, -1.0]),
    'ScatterNdSub_repeated': ('Float32', [[-0.10000000149011612, -2.200000047683716, 3.5999999046325684], [-2.5999999046325684, 0.5, 0.7999999523162842]]),
}


def _inputs(case):
    return [Parameter(Tensor(v.value), name=v.name) if isinstance(v, Param)
            else Tensor(v) if isinstance(v, np.ndarray) else v for v in case[3]]


def _check(out, expected):
    if isinstance(expected, list):
        assert len(out) == len(expected)
        for part, part_expected in zip(out, expected):
            _check(part, part_expected)
        return
    dtype, values = expected
    assert isinstance(out, Tensor) and str(out.dtype) == dtype
    values = np.asarray(values, np.float64)
    got = out.asnumpy().astype(np.float64)
    assert got.shape == values.shape
    np.testing.assert_allclose(got, values, rtol=1e-6, atol=1e-6, equal_nan=True)


class _Applied(nn.Cell):
    """The case's primitive applied to the Parameter it holds (an in-place case's first input) and the Tensor
    inputs it is given."""

    def __init__(self, case):
        super().__init__()
        primitive, args, kwargs, inputs = case
        self.primitive = getattr(P, primitive)(*args, **kwargs)
        self.in_place = isinstance(inputs[0], Param)
        if self.in_place:
            self.param = Parameter(Tensor(inputs[0].value), name=inputs[0].name)

    def construct(self, *tensors):
        if self.in_place:
            return self.primitive(self.param, *tensors)
        return self.primitive(*tensors)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_values_and_dtypes_match_mindspore(name):
    primitive, args, kwargs, _ = CASES[name]
    _check(getattr(P, primitive)(*args, **kwargs)(*_inputs(CASES[name])), RECORDED[name])


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_compiled_matches_mindspore(name):
    net = _Applied(CASES[name])
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = net(*[Tensor(v) for v in CASES[name][3] if isinstance(v, np.ndarray)])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    _check(out, RECORDED[name])


def _scatter_combined(a, b):
    indices = Tensor(np.array([[0, 1], [1, 2], [0, 1], [1, 0]], np.int32))
    updates = ops.reshape(b, (-1,))[:4]
    return (ops.tensor_scatter_mul(a, indices, updates) + ops.tensor_scatter_div(a, indices, updates)
            + ops.tensor_scatter_max(a, indices, updates) * ops.tensor_scatter_min(a, indices, updates))


def test_scatter_combined_gradients_against_central_differences():
    check_composition(_scatter_combined, orders=(1, 2))


def test_scatter_errors_name_the_argument():
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="indices"):
        P.TensorScatterMul()(x, Tensor(np.array([[0, 0]], np.float32)), Tensor(np.ones(1, np.float32)))
    with pytest.raises(ValueError, match="updates"):
        P.TensorScatterMax()(x, Tensor(np.array([[0, 0]], np.int32)), Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="use_locking"):
        P.ScatterNdMul(use_locking=1)
    with pytest.raises(ValueError, match="updates"):
        P.ScatterMin()(Parameter(x, name="x"), Tensor(np.array([0], np.int32)), Tensor(np.ones((1, 2), np.float32)))
