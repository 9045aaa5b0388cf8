"""Primitive classes of ``mindspore.ops.operations`` named A-L (and the NPU float-status trio), with MindSpore
2.10's values: recorded by ``tools/observe_mindspore_primitives_a_l.py`` from MindSpore 2.10 CPU, or taken from
MindSpore 2.10's docstrings where its CPU build has no kernel (said at each case)."""
import sys
import warnings

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.ops import composite as C, functional as F, operations as P
from npspore.testing import check_grads
from recorded_values import check_eager_and_compiled, check_value


# --- NPUAllocFloatStatus / NPUClearFloatStatus / NPUGetFloatStatus: no CPU kernel in MindSpore 2.10 (its
# "Unsupported op [NPUAllocFloatStatus] on CPU"); values from the docstrings of mindspore.ops.NPUGetFloatStatus.

class _StatusNet(nn.Cell):
    """The docstring's network of ``ops.NPUGetFloatStatus``, also returning the flag after the read."""

    def __init__(self):
        super().__init__()
        self.alloc_status = ops.NPUAllocFloatStatus()
        self.get_status = ops.NPUGetFloatStatus()
        self.clear_status = ops.NPUClearFloatStatus()
        self.sub = ops.Sub()
        self.neg = ops.Neg()

    def construct(self, x):
        init = self.alloc_status()
        clear_status = self.clear_status(init)
        x = ops.depend(x, clear_status)
        res = self.sub(x, self.neg(x))
        init = ops.depend(init, res)
        get_status = self.get_status(init)
        res = ops.depend(res, get_status)
        return res, init


class _LossScaleStep(nn.Cell):
    """The models zoo's Ascend loss-scale step: clear before the scaled backward pass, read after it."""

    def __init__(self, net):
        super().__init__()
        self.net = net
        self.weights = net.trainable_params()
        self.optimizer = nn.SGD(self.weights, learning_rate=0.1)
        self.grad = C.GradOperation(get_by_list=True, sens_param=True)
        self.alloc_status = P.NPUAllocFloatStatus()
        self.get_status = P.NPUGetFloatStatus()
        self.clear_status = P.NPUClearFloatStatus()
        self.reduce_sum = P.ReduceSum(keep_dims=False)
        self.base = Tensor(1, ms.float32)
        self.less_equal = P.LessEqual()

    def construct(self, x, sens):
        loss = self.net(x)
        init = self.alloc_status()
        init = F.depend(init, loss)
        clear_status = self.clear_status(init)
        sens = F.depend(sens, clear_status)
        grads = self.grad(self.net, self.weights)(x, sens)
        init = F.depend(init, grads)
        get_status = self.get_status(init)
        init = F.depend(init, get_status)
        flag_sum = self.reduce_sum(init, (0,))
        overflow = self.less_equal(self.base, flag_sum)
        if not overflow:
            self.optimizer(grads)
        return overflow


def test_npu_alloc_float_status_is_the_docstrings_zeros():
    flag = ops.NPUAllocFloatStatus()()
    assert flag.shape == (8,) and str(flag.dtype) == "Float32"
    assert flag.asnumpy().tolist() == [0.0] * 8


@pytest.mark.parametrize("compiled", [False, True])
def test_npu_float_status_docstring_network_has_no_overflow(compiled):
    net = _StatusNet()
    run = ms.jit(net.construct) if compiled else net
    res, flag = run(Tensor(np.full((2, 3), 5, np.float16), ms.float16))
    assert str(res.dtype) == "Float16" and res.asnumpy().tolist() == [[10.0] * 3] * 2  # the docstring's output
    assert flag.asnumpy().tolist() == [0.0] * 8


@pytest.mark.parametrize("compiled", [False, True])
def test_npu_float_status_reports_an_overflow_in_place(compiled):
    net = _StatusNet()
    run = ms.jit(net.construct) if compiled else net
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res, flag = run(Tensor(np.full((2, 3), 4e4, np.float16), ms.float16))
    assert np.isinf(res.asnumpy()).all()
    assert flag.asnumpy().tolist() == [1.0] * 8
    res, flag = run(Tensor(np.full((2, 3), 5, np.float16), ms.float16))   # cleared again: no overflow now
    assert flag.asnumpy().tolist() == [0.0] * 8


@pytest.mark.parametrize("compiled", [False, True])
def test_npu_float_status_sees_an_overflow_of_the_scaled_gradients(compiled):
    net = nn.Dense(3, 1, weight_init="zeros")
    step = _LossScaleStep(net)
    run = ms.jit(step.construct) if compiled else step
    x = Tensor(np.ones((2, 3), np.float32))
    assert not run(x, Tensor(np.full((2, 1), 1.0, np.float32)))
    np.testing.assert_allclose(net.weight.asnumpy(), [[-0.2, -0.2, -0.2]], rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert run(x, Tensor(np.full((2, 1), 3e38, np.float32)))   # the weight gradient is 6e38: inf in float32
    np.testing.assert_allclose(net.weight.asnumpy(), [[-0.2, -0.2, -0.2]], rtol=1e-6)   # the step was skipped
    assert not run(x, Tensor(np.full((2, 1), 1.0, np.float32)))
    np.testing.assert_allclose(net.weight.asnumpy(), [[-0.4, -0.4, -0.4]], rtol=1e-6)


def test_npu_float_status_restores_numpys_error_state_and_passes_reports_on():
    before = np.geterr()
    flag = ops.NPUAllocFloatStatus()()
    ops.NPUClearFloatStatus()(flag)
    with pytest.warns(RuntimeWarning, match="overflow"):
        Tensor(np.array([3e38], np.float32)) * 2
    assert ops.NPUGetFloatStatus()(flag).asnumpy().tolist() == [1.0] * 8
    assert np.geterr() == before and flag.asnumpy().tolist() == [1.0] * 8


def test_npu_float_status_rejects_a_non_float_flag():
    with pytest.raises(TypeError,
                       match="For 'NPUGetFloatStatus', the type of 'x' must be Tensor\\[Float16, Float32\\]"):
        ops.NPUGetFloatStatus()(Tensor(np.zeros(8, np.int32)))
    with pytest.raises(TypeError, match="For 'NPUClearFloatStatus', the 'x' must be a Tensor"):
        ops.NPUClearFloatStatus()([0.0] * 8)


# --- optimizer primitives (Apply*, AdamNoUpdateParam, FusedCastAdamWeightDecay, FusedWeightScaleApplyMomentum):
# each case prints the Parameters after the update; recorded from MindSpore 2.10 CPU by
# tools/observe_mindspore_primitives_a_l.py (same case names).

VAR = np.array([[0.6, 0.4], [0.1, 0.5]], np.float32)
ACCUM = np.array([[0.6, 0.5], [0.2, 0.6]], np.float32)
GRAD = np.array([[0.3, -0.7], [-0.1, 0.8]], np.float32)


class _Updating(nn.Cell):
    """Calls ``prim`` on the first ``at`` inputs, its Parameters, then the other inputs."""

    def __init__(self, prim, params, at=0):
        super().__init__()
        self.prim, self.at = prim, at
        self.params = ms.ParameterTuple([ms.Parameter(Tensor(p.copy()), name=f"p{i}") for i, p in enumerate(params)])

    def construct(self, *others):
        return self.prim(*others[:self.at], *self.params, *others[self.at:])


def _updated(prim, n_params, *others, params=(VAR, ACCUM, ACCUM * 0.5, ACCUM * 0.25), compiled=False, at=0):
    cell = _Updating(prim, params[:n_params], at)
    (ms.jit(cell.construct) if compiled else cell)(*others)
    return [p.asnumpy().tolist() for p in cell.params]


def _returned(prim, n_params, *others, params=(ACCUM, ACCUM * 0.5), compiled=False):
    cell = _Updating(prim, params[:n_params])
    return [(ms.jit(cell.construct) if compiled else cell)(*others).asnumpy().tolist()]


def _t(value, dtype=np.float32):
    return Tensor(np.array(value, dtype))


SPARSE_VAR = np.array([[0.6, 0.4], [0.1, 0.5], [0.3, -0.2]], np.float32)
SPARSE_GRAD = np.array([[0.3, -0.7], [0.5, 0.1], [0.2, 0.2]], np.float32)


def _sparse_adam(use_nesterov, compiled, prim=P.FusedSparseAdam):
    return _updated(prim(use_nesterov=use_nesterov), 3, _t(0.9), _t(0.999), _t(0.1), _t(0.9), _t(0.999),
                    _t(1e-8), Tensor(SPARSE_GRAD), _t([0, 2, 0], np.int32),
                    params=(SPARSE_VAR, np.full((3, 2), 0.2, np.float32), np.full((3, 2), 0.3, np.float32)),
                    compiled=compiled)


OPTIMIZER_CASES = {
    "fused_sparse_adam": lambda c: _sparse_adam(False, c),
    "fused_sparse_adam_nesterov": lambda c: _sparse_adam(True, c),
    "fused_sparse_lazy_adam": lambda c: _sparse_adam(False, c, P.FusedSparseLazyAdam),
    "fused_sparse_lazy_adam_nesterov": lambda c: _sparse_adam(True, c, P.FusedSparseLazyAdam),
    "apply_ada_max": lambda c: _updated(P.ApplyAdaMax(), 3, _t(0.9), _t(0.001), _t(0.9), _t(0.99), _t(1e-10),
                                        Tensor(GRAD), compiled=c),
    "apply_ada_max_numbers": lambda c: _updated(P.ApplyAdaMax(), 3, 0.5, 0.1, 0.8, 0.9, 1e-7, Tensor(GRAD), compiled=c),
    "apply_adagrad_v2": lambda c: _updated(P.ApplyAdagradV2(epsilon=1e-6), 2, _t(0.001), Tensor(GRAD), compiled=c),
    "apply_adagrad_v2_no_slots": lambda c: _updated(P.ApplyAdagradV2(epsilon=0.1, update_slots=False), 2, 0.5,
                                                    Tensor(GRAD), compiled=c),
    "apply_adam_with_amsgrad": lambda c: _updated(P.ApplyAdamWithAmsgrad(), 4, _t(0.3), _t(0.3), _t(0.001),
                                                  Tensor(GRAD), compiled=c),
    "apply_adam_with_amsgrad_betas": lambda c: _updated(P.ApplyAdamWithAmsgrad(beta1=0.5, beta2=0.6, epsilon=0.1), 4,
                                                        _t(0.5), _t(0.6), _t(0.2), Tensor(GRAD), compiled=c),
    "apply_add_sign": lambda c: _updated(P.ApplyAddSign(), 2, _t(0.001), _t(1.0), _t(0.99), _t(0.9), Tensor(GRAD),
                                         compiled=c),
    "apply_add_sign_numbers": lambda c: _updated(P.ApplyAddSign(), 2, 0.5, 2.0, 0.5, 0.3, Tensor(GRAD), compiled=c),
    "apply_power_sign": lambda c: _updated(P.ApplyPowerSign(), 2, _t(0.001), _t(np.e), _t(0.99), _t(0.9),
                                           Tensor(GRAD), compiled=c),
    "apply_power_sign_numbers": lambda c: _updated(P.ApplyPowerSign(), 2, 0.5, 2.0, 0.5, 0.3, Tensor(GRAD),
                                                   compiled=c),
    "apply_proximal_adagrad": lambda c: _updated(P.ApplyProximalAdagrad(), 2, 0.01, 0.0, 0.0, Tensor(GRAD),
                                                 compiled=c),
    "apply_proximal_adagrad_l1_l2": lambda c: _updated(P.ApplyProximalAdagrad(), 2, _t(0.5), _t(0.3), _t(0.2),
                                                       Tensor(GRAD), compiled=c),
    "apply_ftrl": lambda c: _updated(P.ApplyFtrl(), 3, Tensor(GRAD), 0.001, 0.0, 0.0, -0.5, compiled=c),
    "apply_ftrl_l1_l2": lambda c: _updated(P.ApplyFtrl(), 3, Tensor(abs(GRAD)), _t(0.5), _t(0.05), _t(0.1), _t(-0.5),
                                           compiled=c),
    "apply_adagrad_da": lambda c: _updated(P.ApplyAdagradDA(), 3, Tensor(abs(GRAD)), _t(0.001), _t(0.001), _t(0.001),
                                           _t(2, np.int32), compiled=c),
    "apply_adagrad_da_l1": lambda c: _updated(P.ApplyAdagradDA(), 3, Tensor(abs(GRAD)), _t(0.5), _t(0.1), _t(0.0),
                                              _t(3, np.int32), compiled=c),
    "adam_no_update_param": lambda c: _returned(P.AdamNoUpdateParam(), 2, _t(0.9), _t(0.999), _t(0.001), _t(0.9),
                                                _t(0.999), _t(1e-8), Tensor(GRAD), compiled=c),
    "adam_no_update_param_nesterov": lambda c: _returned(P.AdamNoUpdateParam(use_nesterov=True), 2, _t(0.5), _t(0.6),
                                                         _t(0.1), _t(0.5), _t(0.6), _t(1e-3), Tensor(GRAD),
                                                         compiled=c),
    "fused_cast_adam_weight_decay_doc": lambda c: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.001, 0.9, 0.999, 1e-8, 0.0, Tensor(np.ones([2, 2]), ms.float16), 1.0,
        params=(np.ones([2, 2], np.float16), np.ones([2, 2], np.float32), np.ones([2, 2], np.float32)), compiled=c),
    "fused_cast_adam_weight_decay_f16": lambda c: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.1, 0.5, 0.6, 1e-3, 0.2, Tensor(GRAD.astype(np.float16)), 2.0,
        params=(VAR.astype(np.float16), ACCUM, ACCUM * 0.5), compiled=c),
    "fused_cast_adam_weight_decay_f32": lambda c: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.1, 0.5, 0.6, 1e-3, 0.2, Tensor(GRAD.astype(np.float16)), 0.5, compiled=c),
    # (ApplyAdagradDA with grad_accum >= l1 * global_step, ApplyFtrl with linear >= 0 after the update where l1 > 0:
    # see the notes of npspore's ApplyAdagradDA and ApplyFtrl)
    # no CPU kernel in MindSpore 2.10: the docstring example of ops.ApplyKerasMomentum and its formula's value
    "apply_keras_momentum_doc": lambda c: _updated(
        P.ApplyKerasMomentum(), 2, _t(0.001), _t([[0.3, 0.2], [0.4, 0.1]]), _t(0.99),
        params=(np.array([[0.2, 0.3], [0.1, 0.4]], np.float32),) * 2, compiled=c),
    "apply_keras_momentum_nesterov": lambda c: _updated(P.ApplyKerasMomentum(use_nesterov=True), 2, _t(0.1),
                                                        Tensor(GRAD), _t(0.9), compiled=c),
    # GPU only in MindSpore 2.10: its GPU kernel's formula, evaluated in float64 and rounded to float32
    "fused_weight_scale_apply_momentum": lambda c: _updated(P.FusedWeightScaleApplyMomentum(), 2, _t(0.01), _t(0.5),
                                                            _t(0.1), Tensor(GRAD), _t(0.9), compiled=c, at=2),
}
OPTIMIZER_VALUES = {
    'fused_sparse_lazy_adam': [[[0.5867199301719666, 0.39249387383461], [0.10000000149011612, 0.5], [0.28671994805336,
        -0.21097488701343536]], [[0.23000000417232513, 0.12999998033046722], [0.20000000298023224,
        0.20000000298023224], [0.23000000417232513, 0.1899999976158142]], [[0.2999500036239624, 0.2999500036239624],
        [0.30000001192092896, 0.30000001192092896], [0.2999500036239624, 0.2997100353240967]]],
    'fused_sparse_lazy_adam_nesterov': [[[0.5851609706878662, 0.3961314558982849], [0.10000000149011612, 0.5],
        [0.28516095876693726, -0.2104550302028656]], [[0.23000000417232513, 0.12999998033046722], [0.20000000298023224,
        0.20000000298023224], [0.23000000417232513, 0.1899999976158142]], [[0.2999500036239624, 0.2999500036239624],
        [0.30000001192092896, 0.30000001192092896], [0.2999500036239624, 0.2997100353240967]]],
    'fused_sparse_adam': [[[0.5867199301719666, 0.39249387383461], [0.08960256725549698, 0.48960256576538086],
        [0.28671994805336, -0.21097488701343536]], [[0.23000000417232513, 0.12999998033046722], [0.17999999225139618,
        0.17999999225139618], [0.23000000417232513, 0.1899999976158142]], [[0.2999500036239624, 0.2999500036239624],
        [0.2997000217437744, 0.2997000217437744], [0.2999500036239624, 0.2997100353240967]]],
    'fused_sparse_adam_nesterov': [[[0.5851609706878662, 0.3961314558982849], [0.10000000149011612, 0.5],
        [0.28516095876693726, -0.2104550302028656]], [[0.23000000417232513, 0.12999998033046722], [0.17999999225139618,
        0.17999999225139618], [0.23000000417232513, 0.1899999976158142]], [[0.2999500036239624, 0.2999500036239624],
        [0.2997000217437744, 0.2997000217437744], [0.2999500036239624, 0.2997100353240967]]],
    'apply_ada_max': [[[0.581000030040741, 0.3945714235305786], [0.08300000429153442, 0.492249995470047]],
        [[0.5700000524520874, 0.37999996542930603], [0.16999998688697815, 0.6200000643730164]], [[0.30000001192092896,
        0.699999988079071], [0.10000000149011612, 0.800000011920929]]],
    'apply_ada_max_numbers': [[[0.24000012874603271, 0.3257142901420593], [-0.17999976873397827, 0.3400000333786011]],
        [[0.5400000214576721, 0.2600000202655792], [0.14000001549720764, 0.6399999856948853]], [[0.30000001192092896,
        0.699999988079071], [0.10000000149011612, 0.800000011920929]]],
    'apply_adagrad_v2': [[[0.5996388792991638, 0.4007035195827484], [0.10021822154521942, 0.4992815852165222]],
        [[0.690000057220459, 0.9900000095367432], [0.21000000834465027, 1.2400000095367432]]],
    'apply_adagrad_v2_no_slots': [[[0.42849239706993103, 0.8336477279663086], [0.19137200713157654,
        0.04264634847640991]], [[0.6000000238418579, 0.5], [0.20000000298023224, 0.6000000238418579]]],
    'apply_adam_with_amsgrad': [[[0.5987557172775269, 0.39909207820892334], [0.09935717284679413, 0.4986478090286255]],
        [[0.5699999928474426, 0.37999996542930603], [0.16999998688697815, 0.6200000047683716]], [[0.29979002475738525,
        0.2502399981021881], [0.09991000592708588, 0.3003399968147278]], [[0.29979002475738525, 0.2502399981021881],
        [0.09991000592708588, 0.3003399968147278]]],
    'apply_adam_with_amsgrad_betas': [[[0.3984234035015106, 0.4367590546607971], [0.06416502594947815,
        0.26708289980888367]], [[0.45000001788139343, -0.10000002384185791], [0.04999999701976776,
        0.7000000476837158]], [[0.2160000205039978, 0.34599998593330383], [0.06400000303983688, 0.4360000193119049]],
        [[0.2160000205039978, 0.34599998593330383], [0.06400000303983688, 0.4360000193119049]]],
    'apply_add_sign': [[[0.5994030237197876, 0.4000070095062256], [0.10000099986791611, 0.4984079897403717]],
        [[0.5700000524520874, 0.37999996542930603], [0.16999998688697815, 0.6200000643730164]]],
    'apply_add_sign_numbers': [[[0.2250000238418579, 1.274999976158142], [0.22499999403953552, -0.5]],
        [[0.39000001549720764, -0.3399999737739563], [-0.009999997913837433, 0.7400000095367432]]],
    'apply_power_sign': [[[0.5955756902694702, 0.4000474810600281], [0.10000678151845932, 0.48820170760154724]],
        [[0.5700000524520874, 0.37999996542930603], [0.16999998688697815, 0.6200000643730164]]],
    'apply_power_sign_numbers': [[[0.19225773215293884, 1.3513985872268677], [0.23591408133506775,
        -0.5873126983642578]], [[0.39000001549720764, -0.3399999737739563], [-0.009999997913837433,
        0.7400000095367432]]],
    'apply_proximal_adagrad': [[[0.5963884592056274, 0.4070352613925934], [0.10218217968940735, 0.4928157925605774]],
        [[0.690000057220459, 0.9900000095367432], [0.21000000834465027, 1.2400000095367432]]],
    'apply_proximal_adagrad_l1_l2': [[[0.21317875385284424, 0.5461203455924988], [0.0, 0.005583974067121744]],
        [[0.690000057220459, 0.9900000095367432], [0.21000000834465027, 1.2400000095367432]]],
    'apply_ftrl': [[[0.0397748164832592, 0.11618464440107346], [0.002409997396171093, 0.15120799839496613]],
        [[0.690000057220459, 0.9900000095367432], [0.21000000834465027, 1.2400000095367432]], [[-33.03944396972656,
        -115.60225677490234], [-1.104399561882019, -168.3780975341797]]],
    'apply_ftrl_l1_l2': [[[-0.259342759847641, -0.30580052733421326], [-0.1323682963848114, -0.2929595112800598]],
        [[0.690000057220459, 0.9900000095367432], [0.21000000834465027, 1.2400000095367432]], [[0.5327211618423462,
        0.7196954488754272], [0.1977912038564682, 0.7610437870025635]]],
    'apply_adagrad_da': [[[-0.0014379463391378522, -0.0013926435494795442], [-0.0008984985179267824,
        -0.001441924017854035]], [[0.9000000357627869, 1.2000000476837158], [0.30000001192092896, 1.4000000953674316]],
        [[0.39000001549720764, 0.7400000095367432], [0.10999999940395355, 0.940000057220459]]],
    'apply_adagrad_da_l1': [[[-0.4803844690322876, -0.5231143832206726], [-0.0, -0.5672817230224609]],
        [[0.9000000357627869, 1.2000000476837158], [0.30000001192092896, 1.4000000953674316]], [[0.39000001549720764,
        0.7400000095367432], [0.10999999940395355, 0.940000057220459]]],
    'adam_no_update_param': [[[-0.0003292027104180306, -0.00024021620629355311], [-0.00017007540736813098,
        -0.000357752142008394]]],
    'adam_no_update_param_nesterov': [[[-0.10184293985366821, 0.08587054908275604], [0.01245078444480896,
        -0.14345668256282806]]],
    'fused_cast_adam_weight_decay_doc': [[[0.9990234375, 0.9990234375], [0.9990234375, 0.9990234375]], [[1.0, 1.0],
        [1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0]]],
    'fused_cast_adam_weight_decay_f16': [[[0.501953125, 0.375244140625], [0.0677490234375, 0.388916015625]],
        [[0.37501221895217896, 0.074951171875], [0.07500610500574112, 0.49995118379592896]], [[0.18900293111801147,
        0.19902735948562622], [0.060999516397714615, 0.24396875500679016]]],
    'fused_cast_adam_weight_decay_f32': [[[0.48277467489242554, 0.4385239779949188], [0.09799117594957352,
        0.38983944058418274]], [[0.600048840045929, -0.4501953125], [2.442300319671631e-05, 1.0998046398162842]],
        [[0.32404688000679016, 0.9344375133514404], [0.07599218934774399, 1.2035000324249268]]],
    'apply_keras_momentum_doc': [[[0.3977000117301941, 0.5968000292778015], [0.19860000908374786, 0.7958999872207642]],
                                 [[0.19770000874996185, 0.29680001735687256],
                                  [0.09860000014305115, 0.39590001106262207]]],
    'apply_keras_momentum_nesterov': [[[1.0290000438690186, 0.937999963760376], [0.2809999883174896,
        0.8339999914169312]],
                                      [[0.5099999904632568, 0.5199999809265137],
                                       [0.1899999976158142, 0.46000000834465027]]],
    'fused_weight_scale_apply_momentum': [[[0.5307000279426575, 0.3898000121116638], [0.08695000410079956,
        0.40575000643730164]],
                                          [[0.6930000185966492, 0.10199999064207077],
                                           [0.13050000369548798, 0.9424999952316284]]],
}


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("name", sorted(OPTIMIZER_CASES))
def test_optimizer_primitives_update_their_parameters_as_mindspore(name, compiled):
    np.testing.assert_allclose(np.array(OPTIMIZER_CASES[name](compiled), np.float64),
                               np.array(OPTIMIZER_VALUES[name], np.float64), rtol=2e-6, atol=1e-7)


def test_optimizer_primitives_check_their_arguments():
    with pytest.raises(TypeError, match="epsilon"):
        P.ApplyAdagradV2(epsilon=1)
    with pytest.raises(TypeError, match="use_locking"):
        P.ApplyFtrl(use_locking=1)
    with pytest.raises(ValueError, match="the gradient shape must be equal to the variable shape"):
        _updated(P.ApplyAddSign(), 2, 0.5, 2.0, 0.5, 0.3, Tensor(np.ones(3, np.float32)))


# --- primitives from the primitive table and Conv2DBackpropInput/Conv2DTranspose: (value, dtype) recorded from
# MindSpore 2.10 CPU by tools/observe_mindspore_primitives_a_l.py, eagerly and compiled.

X23 = np.array([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]], np.float32)
DOUT = np.arange(18).reshape(1, 2, 3, 3).astype(np.float32) / 10
WEIGHT = np.arange(8).reshape(2, 1, 2, 2).astype(np.float32) - 3
NANS = (np.array([np.nan, 5.0, np.nan], np.float32), np.array([4.0, np.nan, np.nan], np.float32))
DOC_PAIR = (np.array([1.0, 5.0, 3.0], np.float32), np.array([4.0, 2.0, 6.0], np.float32))



def _lstm_inputs(input_size, hidden, layers, directions, seq_len=3, batch=2):
    """Deterministic x, h, c, w for ``P.LSTM`` (as the recording tool makes them)."""
    size = 0
    for layer in range(layers):
        size += (4 * hidden * ((input_size if layer == 0 else hidden * directions) + hidden) + 8 * hidden) * directions
    wave = lambda n, k: np.sin(np.arange(n) * k).astype(np.float32)  # noqa: E731
    return (wave(seq_len * batch * input_size, 0.7).reshape(seq_len, batch, input_size),
            wave(layers * directions * batch * hidden, 1.3).reshape(layers * directions, batch, hidden) * 0.5,
            wave(layers * directions * batch * hidden, 2.1).reshape(layers * directions, batch, hidden) * 0.5,
            wave(size, 0.37).reshape(size, 1, 1) * 0.6)


LSTM_SETTINGS = {"lstm_one_layer": (3, 2, 1, False), "lstm_two_layers": (2, 2, 2, False),
                 "lstm_bidirectional": (3, 2, 1, True)}


def _lstm_case(setting):
    input_size, hidden, layers, bidirectional = LSTM_SETTINGS[setting]
    lstm = P.LSTM(input_size, hidden, layers, True, bidirectional, 0.0)

    def outputs(x, h, c, w):
        out = lstm(x, h, c, w)
        return ops.concat([out[0].reshape(-1), out[1].reshape(-1), out[2].reshape(-1)])
    return outputs, _lstm_inputs(input_size, hidden, layers, 2 if bidirectional else 1)


CTC_DOC = (np.array([[[0.3, 0.6, 0.6]], [[0.9, 0.4, 0.2]]], np.float32), np.array([[0, 1]], np.int32),
           np.array([2], np.int32), np.array([1], np.int32))
_LOGITS = np.sin(np.arange(40) * 0.9).reshape(5, 2, 4).astype(np.float32)
CTC_MORE = (_LOGITS - np.log(np.exp(_LOGITS).sum(-1, keepdims=True)), np.array([[1, 2, 2], [3, 1, 0]], np.int32),
            np.array([5, 4], np.int32), np.array([3, 2], np.int32))
CTC_IMPOSSIBLE = (CTC_MORE[0][:2], np.array([[1, 1], [2, 0]], np.int32), np.array([2, 2], np.int32),
                  np.array([2, 0], np.int32))


def _ctc(output, **options):
    """``P.CTCLossV2(**options)``'s output ``output`` (0: the losses, 1: log_alpha) as a function of the inputs."""
    loss = P.CTCLossV2(**options)

    def losses(log_probs, targets, input_lengths, target_lengths):
        return loss(log_probs, targets, input_lengths, target_lengths)[0]

    def log_alpha(log_probs, targets, input_lengths, target_lengths):
        return loss(log_probs, targets, input_lengths, target_lengths)[1]
    return (losses, log_alpha)[output]


Z22 = np.array([[1 + 2j, -3.5 - 1j], [0.5j, 2]], np.complex64)
SPD = np.array([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]], np.float32)
CHOLESKY_FACTOR = np.array([[2, 0, 0], [4, 1, 0], [-1, 1, 2]], np.float32)

GLU_DOC = np.array([0.3220, 0.9545, 0.7879, 0.0975, 0.3698, 0.5135, 0.5740, 0.3435, 0.1895, 0.8764, 0.4980, 0.9673,
                    0.9879, 0.6988, 0.9022, 0.9304, 0.1558, 0.0153, 0.1559, 0.9852], np.float32).reshape([2, 2, 5])
ROWS = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
N1, N4 = np.array([1.0, 2.0, 3.0], np.float32), np.array([4.0, 5.0, 6.0], np.float32)

FFT_IN = np.array([2, 1, 2], np.complex64)
RFFT_IN = np.array([[2, 1, 2], [3, 1, 6]], np.float32)
RFFT_OUT = np.fft.rfft2(RFFT_IN).astype(np.complex64)

IMAGE = np.arange(24).reshape(1, 2, 3, 4).astype(np.float32)

CASES = {
    **{name: _lstm_case(name) for name in LSTM_SETTINGS},
    "histogram_doc": (lambda x: P.Histogram(bins=4, min=0.0, max=3.0)(x), (np.array([1.0, 2, 1], np.float32),)),
    "histogram_own_range": (lambda x: P.Histogram(bins=3)(x), (np.array([-1.0, 0.5, 2.0, 2.0, 5.0], np.float32),)),
    "histogram_outside": (lambda x: P.Histogram(bins=2, min=0.0, max=1.0)(x),
                          (np.array([-1.0, 0.5, 1.0, 2.0], np.float32),)),
    "bincount_doc": (lambda a, w: P.Bincount()(a, Tensor(5, ms.int32), w),
                     (np.array([1, 2, 2, 3, 3, 3, 4, 4, 4, 4], np.int32), np.ones(10, np.float32))),
    "bincount_weights": (lambda a, w: P.Bincount()(a, Tensor(4, ms.int32), w),
                         (np.array([0, 3, 1, 3, 7], np.int32), np.array([0.5, 1.0, 2.0, 0.25, 9.0], np.float32))),
    "bernoulli_doc_p1": (lambda x, p: P.Bernoulli()(x, p), (np.array([0.1, 0.2, 0.3], np.float32),
                                                            np.array([1.0], np.float32))),
    "bernoulli_doc_p01": (lambda x, p: P.Bernoulli()(x, p), (np.array([0.1, 0.2, 0.3], np.float32),
                                                             np.array([0.0, 1.0, 1.0], np.float32))),
    "im2col_small": (lambda x: P.Im2Col(ksizes=2)(x), (IMAGE,)),
    "im2col_options": (lambda x: P.Im2Col(ksizes=(2, 3), strides=(2, 1), dilations=(1, 2), pads=(1, 0))(x),
                       (np.arange(20).reshape(1, 1, 4, 5).astype(np.float32),)),
    "fft_doc": (lambda x: P.FFTWithSize(signal_ndim=1, inverse=False, real=False)(x), (FFT_IN,)),
    "ifft_doc": (lambda x: P.FFTWithSize(signal_ndim=1, inverse=True, real=False)(x),
                 (np.fft.fft(FFT_IN).astype(np.complex64),)),
    "rfft2_doc": (lambda x: P.FFTWithSize(signal_ndim=2, inverse=False, real=True)(x), (RFFT_IN,)),
    "irfft2_doc": (lambda x: P.FFTWithSize(signal_ndim=2, inverse=True, real=True)(x), (RFFT_OUT,)),
    "irfft2_sizes": (lambda x: P.FFTWithSize(signal_ndim=2, inverse=True, real=True, signal_sizes=(2, 3))(x),
                     (RFFT_OUT,)),
    "fft_ortho_batch": (lambda x: P.FFTWithSize(1, False, False, norm="ortho")(x), (RFFT_IN.astype(np.complex64),)),
    "rfft_two_sided_forward": (lambda x: P.FFTWithSize(1, False, True, norm="forward", onesided=False)(x), (RFFT_IN,)),
    "bartlett_window_doc": (lambda n: P.BartlettWindow(periodic=True, dtype=ms.float32)(n), (np.array(5, np.int32),)),
    "bartlett_window_symmetric_f64": (lambda n: P.BartlettWindow(periodic=False, dtype=ms.float64)(n),
                                      (np.array(6, np.int64),)),
    "blackman_window_doc": (lambda n: P.BlackmanWindow(periodic=True, dtype=ms.float32)(n), (np.array(10, np.int32),)),
    "blackman_window_symmetric": (lambda n: P.BlackmanWindow(periodic=False)(n), (np.array(5, np.int32),)),
    "hamming_window_doc_periodic": (lambda n: P.HammingWindow(periodic=True)(n), (np.array([6], np.int32),)),
    "hamming_window_doc_symmetric": (lambda n: P.HammingWindow(periodic=False)(n), (np.array([7], np.int32),)),
    "hamming_window_alpha_beta": (lambda n: P.HammingWindow(alpha=0.5, beta=0.5, dtype=ms.float64)(n),
                                  (np.array([4], np.int64),)),
    "accumulate_n_v2_doc": (lambda x, y: P.AccumulateNV2()((x, y, x, y)), (N1, N4)),
    "accumulate_n_v2_int": (lambda x: P.AccumulateNV2()([x, x, x]), (np.array([[1, 2]], np.int32),)),
    "glu_doc": (lambda x: P.GLU(axis=0)(x), (GLU_DOC,)),
    "glu_last": (lambda x: P.GLU()(x), (GLU_DOC[:, :, :4],)),
    "log_space_doc": (lambda a, b: P.LogSpace(steps=10, base=10, dtype=ms.float32)(a, b),
                      (np.array(1, np.float32), np.array(10, np.float32))),
    "log_space_base2": (lambda a, b: P.LogSpace(steps=5, base=2, dtype=ms.float64)(a, b),
                        (np.array(-1.0, np.float32), np.array(3.0, np.float32))),
    "data_format_dim_map_doc": (lambda x: P.DataFormatDimMap()(x), (np.array([0, 1, 2, 3], np.int32),)),
    "data_format_dim_map_negative": (lambda x: P.DataFormatDimMap("NCHW", "NHWC")(x),
                                     (np.array([-1, -4, 2], np.int32),)),
    "data_format_vec_permute_doc": (lambda x: P.DataFormatVecPermute()(x), (np.array([1, 2, 3, 4], np.int32),)),
    "data_format_vec_permute_pairs": (lambda x: P.DataFormatVecPermute("NCHW", "NHWC")(x),
                                      (np.arange(8).reshape(4, 2).astype(np.int32),)),
    "check_numerics_doc": (lambda x: P.CheckNumerics()(x), (np.array([[1, 3], [2, 4]], np.float32),)),
    "inplace_update_v2_doc": (lambda x, v: P.InplaceUpdateV2()(x, (0, 1), v),
                              (ROWS, np.array([[0.5, 1.0], [1.0, 1.5]], np.float32))),
    "inplace_update_v2_int": (lambda x, v: P.InplaceUpdateV2()(x, 2, v), (ROWS, np.array([[7.0, 8.0]], np.float32))),
    "index_fill_doc": (lambda x, i, v: P.IndexFill()(x, 1, i, v),
                       (np.arange(1, 10).reshape(3, 3).astype(np.float32), np.array([0, 2], np.int32),
                        np.array(-2.0, np.float32))),
    "index_fill_dim0_int": (lambda x, i, v: P.IndexFill()(x, 0, i, v),
                            (np.arange(6).reshape(3, 2).astype(np.int32), np.array([1], np.int32),
                             np.array(9, np.int32))),
    "lower_bound_doc": (lambda s, v: P.LowerBound(out_type=ms.int32)(s, v),
                        (np.arange(12).reshape(3, 4).astype(np.int8), np.array([[3], [4], [8]], np.int8))),
    "lower_bound_int64": (lambda s, v: P.LowerBound(out_type=ms.int64)(s, v),
                          (np.array([[1.0, 2.0, 2.0, 5.0]], np.float32), np.array([[2.0, 0.0, 6.0]], np.float32))),
    "cholesky_doc": (lambda x: P.Cholesky()(x), (np.array([[1.0, 1.0], [1.0, 2.0]], np.float32),)),
    "cholesky_upper_batch": (lambda x: P.Cholesky(upper=True)(x),
                             (np.stack([SPD, SPD * 2 + np.eye(3, dtype=np.float32)]),)),
    "cholesky_solve_doc": (lambda b, u: P.CholeskySolve()(b, u), (np.eye(3, dtype=np.float32), CHOLESKY_FACTOR)),
    "cholesky_solve_upper": (lambda b, u: P.CholeskySolve(upper=True)(b, u), (SPD[:, :2], CHOLESKY_FACTOR.T.copy())),
    "cholesky_inverse_doc": (lambda x: P.CholeskyInverse()(x), (np.array([[1, 1], [1, 2]], np.float32),)),
    "cholesky_inverse_upper": (lambda x: P.CholeskyInverse(upper=True)(x), (CHOLESKY_FACTOR.T.copy(),)),
    "complex_doc": (lambda r, i: P.Complex()(r, i), (np.array([1], np.float32), np.array([2], np.float32))),
    "complex_f64": (lambda r, i: P.Complex()(r, i), (np.array([1.5, -2.0]), np.array([0.25, 3.0]))),
    "imag_doc": (lambda z: P.Imag()(z), (np.array(1.3 + 0.4j, np.complex64),)),
    "imag_matrix": (lambda z: P.Imag()(z), (Z22,)),
    "imag_float": (lambda z: P.Imag()(z), (np.array([1.5], np.float32),)),
    "angle_matrix": (lambda z: P.Angle()(z), (Z22,)),
    "angle_f64": (lambda z: P.Angle()(z), (np.array([-1 + 0j, 1j], np.complex128),)),
    "conj_matrix": (lambda z: P.Conj()(z), (Z22,)),
    "conj_float": (lambda z: P.Conj()(z), (np.array([1.5], np.float32),)),
    "complex_abs_doc": (lambda z: P.ComplexAbs()(z), (np.array(3 + 4j, np.complex64),)),
    "complex_abs_matrix": (lambda z: P.ComplexAbs()(z), (Z22,)),
    "conjugate_transpose_doc": (lambda z: P.ConjugateTranspose()(z, (1, 0)),
                                (np.array([[1 + 1j, 2 + 2j], [3 + 3j, 4 + 4j]], np.complex64),)),
    "conjugate_transpose_3d": (lambda z: P.ConjugateTranspose()(z, (2, 0, 1)), (Z22.reshape(1, 2, 2),)),
    "ctc_loss_v2_doc_loss": (_ctc(0), CTC_DOC),
    "ctc_loss_v2_doc_alpha": (_ctc(1), CTC_DOC),
    "ctc_loss_v2_loss": (_ctc(0), CTC_MORE),
    "ctc_loss_v2_alpha": (_ctc(1), CTC_MORE),
    "ctc_loss_v2_impossible_and_empty": (_ctc(0), CTC_IMPOSSIBLE),
    "ctc_loss_v2_zero_infinity": (_ctc(0, zero_infinity=True), CTC_IMPOSSIBLE),
    "ctc_loss_v2_blank_last": (_ctc(0, blank=3), CTC_MORE[:1] + (CTC_MORE[1] % 3,) + CTC_MORE[2:]),
    "equal_count_doc": (lambda x, y: P.EqualCount()(x, y),
                        (np.array([1, 2, 3], np.int32), np.array([1, 2, 4], np.int32))),
    "equal_count_float": (lambda x, y: P.EqualCount()(x, y), (X23, np.where(X23 > 0, X23, 0))),
    "approximate_equal_doc": (lambda x, y: P.ApproximateEqual(2.)(x, y), (np.array([1, 2, 3], np.float32),
                                                                         np.array([2, 3, 6], np.float32))),
    "approximate_equal_default": (lambda x, y: P.ApproximateEqual()(x, y), (X23, X23 + 1e-6)),
    "fmax_doc": (lambda x, y: P.Fmax()(x, y), DOC_PAIR),
    "fmax_nan": (lambda x, y: P.Fmax()(x, y), NANS),
    "invert_doc": (lambda x: P.Invert()(x), (np.array([25, 4, 13, 9], np.int16),)),
    "invert_uint8": (lambda x: P.Invert()(x), (np.array([0, 1, 254], np.uint8),)),
    "identity_n_doc": (lambda x, y: P.IdentityN()([x, y])[1], (np.array([1, 2, 3, 4], np.int64),
                                                               np.array([4, 3, 1, 1], np.int64))),
    "conv2d_backprop_input_valid": (lambda d, w: P.Conv2DBackpropInput(1, 2)(d, w, (1, 1, 4, 4)), (DOUT, WEIGHT)),
    "conv2d_backprop_input_same_stride": (
        lambda d, w: P.Conv2DBackpropInput(1, 2, pad_mode="same", stride=2)(d, w, (1, 1, 6, 6)), (DOUT, WEIGHT)),
    "conv2d_backprop_input_pad": (
        lambda d, w: P.Conv2DBackpropInput(1, 2, pad_mode="pad", pad=(1, 0, 0, 1), dilation=2)(d, w, (1, 1, 4, 4)),
        (DOUT, WEIGHT)),
    "conv2d_transpose_same": (lambda d, w: P.Conv2DTranspose(1, 2, pad_mode="same")(d, w, (1, 1, 3, 3)),
                              (DOUT, WEIGHT)),
    "conv2d_transpose_doc_corner": (
        lambda d, w: P.Conv2DTranspose(out_channel=32, kernel_size=3)(d, w, (10, 32, 32, 32))[9, 31, :4, :4],
        (np.ones([10, 32, 30, 30], np.float32), np.ones([32, 32, 3, 3], np.float32))),
    # no CPU kernel in MindSpore 2.10: the docstrings' examples, and one more case by the documented definition
    "log_softmax_ext_doc": (lambda x: P.LogSoftmaxExt()(x, -1), (np.array([1, 2, 3, 4, 5], np.float32),)),
    "log_softmax_ext_dim0_dtype": (lambda x: P.LogSoftmaxExt()(x, 0, ms.float64), (X23,)),
    "euclidean_norm_doc": (lambda x: P.EuclideanNorm(keep_dims=True)(x, Tensor([0])),
                           (np.array([[3, 5], [4, 12]], np.int32),)),
    "euclidean_norm_float": (lambda x: P.EuclideanNorm()(x, (1,)), (X23,)),
    "fmin_doc": (lambda x, y: P.Fmin()(x, y), DOC_PAIR),
    "fmin_nan": (lambda x, y: P.Fmin()(x, y), NANS),
    "fills_doc": (lambda x: P.Fills()(x, float(1)), (np.arange(4).reshape((2, 2)).astype(np.float32),)),
    "fills_int": (lambda x: P.Fills()(x, Tensor(2.7, ms.float32)), (np.arange(3).astype(np.int32),)),
}
MINDSPORE_VALUES = {
    'histogram_doc': ([0.0, 2.0, 1.0, 0.0], 'Float32'),
    'histogram_own_range': ([2.0, 2.0, 1.0], 'Float32'),
    'histogram_outside': ([0.0, 2.0], 'Float32'),
    'bincount_doc': ([0.0, 1.0, 2.0, 3.0, 4.0], 'Float32'),
    'bincount_weights': ([0.5, 2.0, 0.0, 1.25], 'Float32'),
    'bernoulli_doc_p1': ([1.0, 1.0, 1.0], 'Float32'),
    'bernoulli_doc_p01': ([0.0, 1.0, 1.0], 'Float32'),
    'im2col_small': ([[[[0.0, 1.0, 2.0, 4.0, 5.0, 6.0], [1.0, 2.0, 3.0, 5.0, 6.0, 7.0], [4.0, 5.0, 6.0, 8.0, 9.0,
        10.0], [5.0, 6.0, 7.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 16.0, 17.0, 18.0], [13.0, 14.0, 15.0, 17.0, 18.0,
        19.0], [16.0, 17.0, 18.0, 20.0, 21.0, 22.0], [17.0, 18.0, 19.0, 21.0, 22.0, 23.0]]]], 'Float32'),
    'im2col_options': ([[[[0.0, 5.0, 15.0], [0.0, 7.0, 17.0], [0.0, 9.0, 19.0], [0.0, 10.0, 0.0], [2.0, 12.0, 0.0],
        [4.0, 14.0, 0.0]]]], 'Float32'),
    'fft_doc': ([(5+0j), (0.5+0.866025447845459j), (0.5000000596046448-0.8660255074501038j)], 'Complex64'),
    'ifft_doc': ([(2-4.967053968130131e-08j), (0.9999999403953552+0j), (1.9999998807907104+7.947286206899662e-08j)],
        'Complex64'),
    'rfft2_doc': ([[(15+1.1920928955078125e-07j), (-2.384185791015625e-07+5.196152210235596j)],
        [(-5-2.9802322387695312e-08j), (0.9999998807907104-3.464101552963257j)]], 'Complex64'),
    'irfft2_doc': ([[2.75, 2.25], [4.75, 5.25]], 'Float32'),
    'irfft2_sizes': ([[2.0, 0.9999999403953552, 1.9999998807907104], [3.0, 0.9999999403953552, 5.999999523162842]],
        'Float32'),
    'fft_ortho_batch': ([[(2.886751174926758+0j), (0.28867512941360474+0.5j),
        (0.2886751592159271-0.5000000596046448j)], [(5.773502349853516+9.46350837693899e-08j),
        (-0.28867512941360474+2.499999761581421j), (-0.28867486119270325-2.5j)]], 'Complex64'),
    'rfft_two_sided_forward': ([[(1.6666667461395264+0j), (0.1666666716337204+0.2886751592159271j),
        (0.1666666865348816-0.2886751890182495j)], [(3.3333334922790527+5.4637592228345966e-08j),
        (-0.1666666716337204+1.443375587463379j), (-0.16666650772094727-1.443375825881958j)]], 'Complex64'),
    'bartlett_window_doc': ([0.0, 0.4000000059604645, 0.800000011920929, 0.800000011920929, 0.4000000059604645],
        'Float32'),
    'bartlett_window_symmetric_f64': ([0.0, 0.4, 0.8, 0.8, 0.3999999999999999, 0.0], 'Float64'),
    'blackman_window_doc': ([0.0, 0.04021286219358444, 0.20077013969421387, 0.5097871422767639, 0.8492298722267151,
        1.0, 0.8492298722267151, 0.5097871422767639, 0.20077013969421387, 0.04021286219358444], 'Float32'),
    'blackman_window_symmetric': ([0.0, 0.3400000035762787, 1.0, 0.3400000035762787, 0.0], 'Float32'),
    'hamming_window_doc_periodic': ([0.08000001311302185, 0.3100000023841858, 0.7700000405311584, 1.0,
        0.7700000405311584, 0.3100000023841858], 'Float32'),
    'hamming_window_doc_symmetric': ([0.08000001311302185, 0.3100000023841858, 0.7700000405311584, 1.0,
        0.7700000405311584, 0.3100000023841858, 0.08000001311302185], 'Float32'),
    'hamming_window_alpha_beta': ([0.0, 0.49999999999999994, 1.0, 0.5000000000000001], 'Float64'),
    'glu_doc': ([[[0.20028051733970642, 0.6916126608848572, 0.574121356010437, 0.06512235850095749,
        0.2630762457847595], [0.3682597875595093, 0.30931219458580017, 0.17306385934352875, 0.10212084650993347,
        0.638140857219696]]], 'Float32'),
    'glu_last': ([[[0.22133642435073853, 0.5004975199699402], [0.30041825771331787, 0.3141121566295624]],
        [[0.36287909746170044, 0.6460806131362915], [0.4687587320804596, 0.08396003395318985]]], 'Float32'),
    'log_space_doc': ([10.0, 100.0, 1000.0, 10000.0, 100000.0, 1000000.0, 10000000.0, 100000000.0, 1000000000.0,
        10000000000.0], 'Float32'),
    'log_space_base2': ([0.5, 1.0, 2.0, 4.0, 8.0], 'Float64'),
    'data_format_dim_map_doc': ([0, 3, 1, 2], 'Int32'),
    'data_format_dim_map_negative': ([1, 0, 3], 'Int32'),
    'data_format_vec_permute_doc': ([1, 4, 2, 3], 'Int32'),
    'data_format_vec_permute_pairs': ([[0, 1], [4, 5], [6, 7], [2, 3]], 'Int32'),
    'check_numerics_doc': ([[1.0, 3.0], [2.0, 4.0]], 'Float32'),
    'inplace_update_v2_doc': ([[0.5, 1.0], [1.0, 1.5], [5.0, 6.0]], 'Float32'),
    'inplace_update_v2_int': ([[1.0, 2.0], [3.0, 4.0], [7.0, 8.0]], 'Float32'),
    'index_fill_doc': ([[-2.0, 2.0, -2.0], [-2.0, 5.0, -2.0], [-2.0, 8.0, -2.0]], 'Float32'),
    'index_fill_dim0_int': ([[0, 1], [9, 9], [4, 5]], 'Int32'),
    'lower_bound_doc': ([[3], [0], [0]], 'Int32'),
    'lower_bound_int64': ([[1, 0, 4]], 'Int64'),
    # AccumulateNV2 has no CPU kernel in MindSpore 2.10: its docstring, and the sum by definition
    'accumulate_n_v2_doc': ([10.0, 14.0, 18.0], 'Float32'),
    'accumulate_n_v2_int': ([[3, 6]], 'Int32'),
    'cholesky_doc': ([[1.0, 0.0], [1.0, 1.0]], 'Float32'),
    'cholesky_upper_batch': ([[[2.0, 1.0, 0.30000001192092896], [0.0, 2.0, 0.3499999940395355], [0.0, 0.0,
        1.6695806980133057]], [[3.0, 1.3333333730697632, 0.4000000059604645], [0.0, 3.036811113357544,
        0.4829627573490143], [0.0, 0.0, 2.570359230041504]]], 'Float32'),
    'cholesky_solve_doc': ([[5.8125, -2.625, 0.625], [-2.625, 1.25, -0.25], [0.625, -0.25, 0.25]], 'Float32'),
    'cholesky_solve_upper': ([[18.375, -0.875], [-8.149999618530273, 0.75], [2.1500000953674316, 0.25]], 'Float32'),
    'cholesky_inverse_doc': ([[4.999997615814209, -2.9999985694885254], [-2.9999985694885254, 1.9999990463256836]],
        'Float32'),
    'cholesky_inverse_upper': ([[5.812499523162842, -2.624999761581421, 0.6249998211860657], [-2.624999761581421,
        1.2499998807907104, -0.24999991059303284], [0.6249999403953552, -0.2499999850988388, 0.2499999850988388]],
        'Float32'),
    'complex_doc': ([(1+2j)], 'Complex64'),
    'complex_f64': ([(1.5+0.25j), (-2+3j)], 'Complex128'),
    'imag_doc': (0.4000000059604645, 'Float32'),
    'imag_matrix': ([[2.0, -1.0], [0.5, 0.0]], 'Float32'),
    'imag_float': ([0.0], 'Float32'),
    'angle_matrix': ([[1.1071487665176392, -2.863292932510376], [1.5707963705062866, 0.0]], 'Float32'),
    'angle_f64': ([3.141592653589793, 1.5707963267948966], 'Float64'),
    'conj_matrix': ([[(1-2j), (-3.5+1j)], [-0.5j, (2-0j)]], 'Complex64'),
    'conj_float': ([1.5], 'Float32'),
    'complex_abs_doc': (5.0, 'Float32'),
    'complex_abs_matrix': ([[2.2360680103302, 3.640054941177368], [0.5, 2.0]], 'Float32'),
    'conjugate_transpose_doc': ([[(1-1j), (3-3j)], [(2-2j), (4-4j)]], 'Complex64'),
    'conjugate_transpose_3d': ([[[(1-2j), -0.5j]], [[(-3.5+1j), (2-0j)]]], 'Complex64'),
    'ctc_loss_v2_doc_loss': ([-2.298612356185913], 'Float32'),
    'ctc_loss_v2_doc_alpha': ([[[0.30000001192092896, 0.30000001192092896, -float("inf"), -float("inf"),
        -float("inf")], [1.2000000476837158, 1.8931472301483154, 1.2000000476837158, -float("inf"), -float("inf")]]],
        'Float32'),
    'ctc_loss_v2_loss': ([4.752805709838867, 2.3952953815460205], 'Float32'),
    'ctc_loss_v2_alpha': ([[[-1.9974300861358643, -1.2141032218933105, -float("inf"), -float("inf"), -float("inf"),
        -float("inf"), -float("inf")], [-3.148529052734375, -1.812680721282959, -2.3652021884918213,
        -2.746751546859741, -float("inf"), -float("inf"), -float("inf")], [-3.8142201900482178, -2.8138506412506104,
        -2.02380108833313, -3.239206314086914, -3.412442684173584, -float("inf"), -float("inf")], [-4.507431983947754,
        -4.062325477600098, -2.3428168296813965, -3.525327682495117, -3.3221426010131836, -5.473820686340332,
        -float("inf")], [-5.944339275360107, -5.49177360534668, -3.614926815032959, -3.6104350090026855,
        -4.162343502044678, -4.875611782073975, -6.9107279777526855]], [[-1.3577487468719482, -0.8984144926071167,
        -float("inf"), -float("inf"), -float("inf"), -float("inf"), -float("inf")], [-3.752077341079712,
        -1.0183974504470825, -3.29274320602417, -3.0737905502319336, -float("inf"), -float("inf"), -float("inf")],
        [-6.358503818511963, -1.8497281074523926, -3.5269134044647217, -2.6156630516052246, -5.6802167892456055,
        -float("inf"), -float("inf")], [-8.29159927368164, -3.4734275341033936, -3.6114795207977295,
        -2.524834156036377, -4.503140449523926, -float("inf"), -float("inf")], [-float("inf"), -float("inf"),
        -float("inf"), -float("inf"), -float("inf"), -float("inf"), -float("inf")]]], 'Float32'),
    'ctc_loss_v2_impossible_and_empty': ([float("inf"), 3.752077341079712], 'Float32'),
    'ctc_loss_v2_zero_infinity': ([float("inf"), 3.752077341079712], 'Float32'),
    'ctc_loss_v2_blank_last': ([6.454554557800293, 2.937215566635132], 'Float32'),
    'lstm_one_layer': ([-0.35130494832992554, -0.1488051861524582, -0.22821959853172302, -0.22850987315177917,
        0.021963175386190414, -0.014899148605763912, -0.3918893337249756, -0.2899506390094757, -0.11611548066139221,
        -0.24548280239105225, -0.004724997095763683, -0.037860218435525894, -0.11611548066139221, -0.24548280239105225,
        -0.004724997095763683, -0.037860218435525894, -0.30916139483451843, -0.5615327954292297, -0.03402920812368393,
        -0.4812658131122589], 'Float32'),
    'lstm_two_layers': ([0.07948634773492813, -0.1610863357782364, 0.09562356770038605, 0.10070808976888657,
        0.07172177731990814, -0.12510815262794495, 0.10413956642150879, 0.04349696636199951, 0.06856105476617813,
        -0.11056143790483475, 0.10823947936296463, 0.012253151275217533, 0.011670195497572422, 0.1358838826417923,
        -0.017284274101257324, -0.0856524333357811, 0.06856105476617813, -0.11056143790483475, 0.10823947936296463,
        0.012253151275217533, 0.01743343286216259, 0.20022037625312805, -0.047943729907274246, -0.19462467730045319,
        0.17084316909313202, -0.30812910199165344, 0.260204017162323, 0.032670795917510986], 'Float32'),
    'lstm_bidirectional': ([-0.21366789937019348, 0.06999186426401138, 0.19185253977775574, -0.0329592190682888,
        -0.24046726524829865, -0.11025406420230865, 0.28813809156417847, 0.11807089298963547, 0.05286337062716484,
        0.0323440358042717, 0.0420253649353981, -0.38773155212402344, -0.4233851432800293, -0.1253720074892044,
        0.14924895763397217, 0.020158015191555023, -0.06319884955883026, -0.08284447342157364, 0.22980241477489471,
        0.011690669693052769, 0.03938686102628708, -0.008643174543976784, -0.11813556402921677, -0.1647176742553711,
        -0.06319884955883026, -0.08284447342157364, 0.03938686102628708, -0.008643174543976784, 0.19185253977775574,
        -0.0329592190682888, 0.28813809156417847, 0.11807089298963547, -0.10861479490995407, -0.1172209233045578,
        0.11139106005430222, -0.025790689513087273, 0.5503444671630859, -0.13481271266937256, 0.6405320167541504,
        0.4005650579929352], 'Float32'),
    'equal_count_doc': ([2], 'Int32'),
    'equal_count_float': ([4.0], 'Float32'),
    'approximate_equal_doc': ([True, True, False], 'Bool'),
    'approximate_equal_default': ([[True, True, True], [True, True, True]], 'Bool'),
    'fmax_doc': ([4.0, 5.0, 6.0], 'Float32'),
    'fmax_nan': ([4.0, 5.0, float("nan")], 'Float32'),
    'invert_doc': ([-26, -5, -14, -10], 'Int16'),
    'invert_uint8': ([255, 254, 1], 'UInt8'),
    'identity_n_doc': ([4, 3, 1, 1], 'Int64'),
    'conv2d_backprop_input_valid': ([[[[0.8999999761581421, 2.5, 2.299999952316284, 1.8000000715255737],
        [2.999999761581421, 8.399999618530273, 8.800000190734863, 6.199999809265137], [3.0, 9.600000381469727, 10.0,
        7.400000095367432], [3.9000000953674316, 10.100000381469727, 10.700000762939453, 6.800000190734863]]]],
        'Float32'),
    'conv2d_backprop_input_same_stride': ([[[[0.8999999761581421, 1.7999999523162842, 0.699999988079071,
        1.7999999523162842, 0.5, 1.8000000715255737], [2.6999998092651367, 3.5999999046325684, 2.9000000953674316, 4.0,
        3.1000001430511475, 4.400000095367432], [0.30000001192092896, 1.8000000715255737, 0.09999990463256836,
        1.7999999523162842, -0.10000002384185791, 1.7999999523162842], [3.3000001907348633, 4.800000190734863,
        3.499999761581421, 5.199999809265137, 3.6999998092651367, 5.599999904632568], [-0.30000007152557373,
        1.7999999523162842, -0.49999988079071045, 1.8000000715255737, -0.7000000476837158, 1.8000000715255737],
        [3.9000000953674316, 6.0, 4.100000381469727, 6.400000095367432, 4.300000190734863, 6.800000190734863]]]],
        'Float32'),
    'conv2d_backprop_input_pad': ([[[[0.30000001192092896, 0.09999990463256836, 1.7000001668930054,
        1.7999999523162842], [2.3999996185302734, 2.4000000953674316, 7.799999713897705, 5.800000190734863],
        [3.3000001907348633, 3.499999761581421, 8.5, 5.199999809265137], [3.9000000953674316, 4.100000381469727,
        10.300000190734863, 6.400000095367432]]]], 'Float32'),
    'conv2d_transpose_same': ([[[[0.8999999761581421, 2.5, 2.299999952316284], [2.999999761581421, 8.399999618530273,
        8.800000190734863], [3.0, 9.600000381469727, 10.0]]]], 'Float32'),
    'conv2d_transpose_doc_corner': ([[32.0, 64.0, 96.0, 96.0], [64.0, 128.0, 192.0, 192.0], [96.0, 192.0, 288.0,
        288.0], [96.0, 192.0, 288.0, 288.0]], 'Float32'),
    # the docstrings (no CPU kernel) and the definitions' values
    'log_softmax_ext_doc': ([-4.4519143, -3.4519143, -2.4519143, -1.4519144, -0.4519144], 'Float32'),
    'log_softmax_ext_dim0_dtype': ([[-2.5788897342925496, -1.5019290813453727, -0.07888973429254964],
                                    [-0.07888973429254964, -0.25192908134537284, -2.5788897342925496]], 'Float64'),
    'euclidean_norm_doc': ([[5, 13]], 'Int32'),
    'euclidean_norm_float': ([2.2912878, 3.0516388], 'Float32'),
    'fmin_doc': ([1.0, 2.0, 3.0], 'Float32'),
    'fmin_nan': ([4.0, 5.0, float("nan")], 'Float32'),
    'fills_doc': ([[1.0, 1.0], [1.0, 1.0]], 'Float32'),
    'fills_int': ([2, 2, 2], 'Int32'),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_are_mindspores_eagerly_and_compiled(name):
    fn, inputs = CASES[name]
    check_eager_and_compiled(fn, inputs, MINDSPORE_VALUES[name])


def test_invert_permutation_is_mindspores():
    assert P.InvertPermutation()((3, 4, 0, 2, 1)) == (2, 4, 3, 0, 1)   # MindSpore 2.10's docstring and CPU
    assert P.InvertPermutation()([1, 2, 0]) == (2, 0, 1)
    with pytest.raises(ValueError, match="permutation"):
        P.InvertPermutation()((0, 0, 1))


@pytest.mark.parametrize("prim, inputs", [
    (lambda x, y: P.Fmax()(x, y).sum(), DOC_PAIR),
    (lambda x: (P.Im2Col(ksizes=2, pads=1)(x) ** 2).sum(), (IMAGE.astype(np.float64) / 10,)),
    (lambda x, v: (P.GLU(axis=0)(x) * P.IndexFill()(x, 2, Tensor([1]), 0.5) ** 2).sum()
     + (P.InplaceUpdateV2()(x[0], 1, v) ** 2).sum(), (GLU_DOC.astype(np.float64), GLU_DOC[0, :1].astype(np.float64))),
    (lambda x, y: (P.EuclideanNorm()(x, (1,)).sum() * P.LogSoftmaxExt()(y, 0)).sum(),
     (X23.astype(np.float64), X23.astype(np.float64) * 2)),
    (lambda d, w: (P.Conv2DBackpropInput(1, 2, pad_mode="same", stride=2)(d, w, (1, 1, 6, 6)) ** 2).sum(),
     (DOUT.astype(np.float64), WEIGHT.astype(np.float64))),
    (lambda x: (P.Cholesky()(F.matmul(x, x.T) + 3 * ops.eye(3, 3, ms.float64)) ** 2).sum(),
     (SPD.astype(np.float64) - 1,)),
    (lambda b, u: (P.CholeskySolve(upper=True)(b, u) * b).sum() + P.CholeskyInverse()(u).sum(),
     (SPD[:, :2].astype(np.float64), CHOLESKY_FACTOR.T.astype(np.float64))),
    (lambda lp, targets, lengths, target_lengths: P.CTCLossV2()(lp, targets, lengths, target_lengths)[0].sum(),
     (CTC_MORE[0].astype(np.float64),) + CTC_MORE[1:]),
    (lambda x, h, c, w: (CASES["lstm_bidirectional"][0](x, h, c, w) ** 2).sum(),
     [a.astype(np.float64) for a in _lstm_inputs(3, 2, 1, 2, seq_len=2, batch=1)]),
])
def test_compositions_match_central_differences_first_and_second_order(prim, inputs):
    check_grads(prim, [Tensor(a) for a in inputs], order=2)


def test_table_primitives_reject_bad_inputs():
    with pytest.raises(TypeError, match="For 'Invert', the 'x' must be an int or uint Tensor"):
        P.Invert()(Tensor(X23))
    with pytest.raises(TypeError, match="tolerance"):
        P.ApproximateEqual(1)
    with pytest.raises(ValueError, match="For 'Conv2DBackpropInput', the 'pad' must be zero"):
        P.Conv2DBackpropInput(1, 2, pad=1)
    x, h, c, w = (Tensor(a) for a in _lstm_inputs(3, 2, 1, 1))
    with pytest.raises(ValueError, match="For 'LSTM', the 'w' must hold at least 48 weights"):
        P.LSTM(3, 2, 1, True, False, 0.0)(x, h, c, w[:10])
    with pytest.raises(ValueError, match="For 'LSTM', expected x"):
        P.LSTM(4, 2, 1, True, False, 0.0)(x, h, c, w)


def _imag_of_complex(real, imag):
    return (P.Imag()(P.Complex()(real, imag)) * 3).sum()


def test_complex_primitives_have_mindspores_gradients():
    real, imag = Tensor(np.array([1.0], np.float32)), Tensor(np.array([2.0], np.float32))
    assert float(ms.jit(_imag_of_complex)(real, imag).asnumpy()) == 6.0
    # MindSpore 2.10 prints [3.] and [0.]
    assert ms.grad(_imag_of_complex, grad_position=1)(real, imag).asnumpy().tolist() == [3.0]
    assert ms.grad(_imag_of_complex, grad_position=0)(real, imag).asnumpy().tolist() == [0.0]


def test_complex_primitives_check_their_inputs():
    with pytest.raises(TypeError, match=r"For primitive\[Complex\], the input type must be same"):
        P.Complex()(Tensor(np.ones(1, np.float32)), Tensor(np.ones(1, np.float64)))
    with pytest.raises(ValueError, match="For 'Complex', the shapes of 'real' and 'imag' must be the same"):
        P.Complex()(Tensor(np.ones(2, np.float32)), Tensor(np.ones(1, np.float32)))
    with pytest.raises(TypeError, match="For 'ComplexAbs', the 'x' must be a complex64 or complex128 Tensor"):
        P.ComplexAbs()(Tensor(np.ones(1, np.float32)))
    with pytest.raises(ValueError, match="For 'ConjugateTranspose', the 'perm' must be a tuple"):
        P.ConjugateTranspose()(Tensor(Z22), (0, 0))


def test_host_computed_primitives_refuse_to_be_traced():
    """A function without source is traced by running it once: a host-computed value would be frozen in."""
    namespace = {"P": P}
    exec("def status(x):\n    flag = P.NPUAllocFloatStatus()()\n    return x * 2, flag\n"   # noqa: S102
         "def imag(real, imag):\n    return P.Imag()(P.Complex()(real, imag)).sum()\n", namespace)
    one = Tensor(np.array([1.0], np.float32))
    with pytest.raises(ms.compiler.errors.NotSupportedError, match="'NPUAllocFloatStatus'.*cannot be recorded"):
        ms.jit(namespace["status"])(one)
    with pytest.raises(ms.compiler.errors.NotSupportedError, match="'Complex'.*cannot be recorded"):
        ms.grad(namespace["imag"], grad_position=1)(one, one)


# --- DropoutGenMask / DropoutDoMask: no CPU kernel and no docstring example in MindSpore 2.10; the shapes are its
# infer rule's (uint8, ceil(n / 128) * 16 bytes), the values dropout's definition.

def _two_step_dropout(x, keep_prob):
    mask = P.DropoutGenMask()(x.shape, keep_prob)
    return P.DropoutDoMask()(x, mask, keep_prob), mask


@pytest.mark.parametrize("compiled", [False, True])
def test_two_step_dropout_keeps_a_fraction_scaled(compiled):
    ms.set_seed(3)
    x = Tensor(np.arange(1, 601, dtype=np.float32).reshape(3, 200))
    out, mask = (ms.jit(_two_step_dropout) if compiled else _two_step_dropout)(x, Tensor(0.7, ms.float32))
    assert mask.shape == (80,) and str(mask.dtype) == "UInt8"   # ceil(600 / 128) * 16
    bits = np.unpackbits(mask.asnumpy(), bitorder="little")
    kept = bits[:600].reshape(3, 200) > 0
    assert bits[600:].sum() == 0 and 0.6 < kept.mean() < 0.8
    np.testing.assert_allclose(out.asnumpy(), np.where(kept, x.asnumpy() / np.float32(0.7), 0), rtol=1e-6)


def test_two_step_dropout_draws_from_the_seeded_generator_and_differentiates():
    x = Tensor(np.ones((4, 40), np.float32))
    ms.set_seed(5)
    first = P.DropoutGenMask()((4, 40), 0.5).asnumpy()
    ms.set_seed(5)
    assert np.array_equal(P.DropoutGenMask()((4, 40), 0.5).asnumpy(), first)
    mask = Tensor(first)
    gradient = ms.grad(lambda v: P.DropoutDoMask()(v, mask, 0.5).sum())(x).asnumpy()
    np.testing.assert_array_equal(gradient, np.unpackbits(first, bitorder="little")[:160].reshape(4, 40) * 2.0)
    with pytest.raises(ValueError, match=r"For 'DropoutDoMask', the 'mask' must be uint8 of shape \(32,\)"):
        P.DropoutDoMask()(x, Tensor(first[:16]), 0.5)


def test_check_numerics_raises_mindspores_error():
    with pytest.raises(RuntimeError, match="Tensor had NaN values"):   # MindSpore 2.10 CPU: ": Tensor had NaN values"
        P.CheckNumerics()(Tensor(np.array([1.0, np.nan], np.float32)))
    with pytest.raises(RuntimeError, match="Tensor had Inf values"):
        P.CheckNumerics()(Tensor(np.array([1.0, np.inf], np.float32)))


def test_index_fill_takes_its_dim_as_a_tensor_eagerly():
    out = P.IndexFill()(Tensor(np.arange(6).reshape(3, 2).astype(np.int32)), Tensor(0), Tensor([1], ms.int32),
                        Tensor(9, ms.int32))
    check_value(out, MINDSPORE_VALUES["index_fill_dim0_int"])   # MindSpore 2.10 CPU with dim Tensor(0)


def test_all_to_all_of_a_group_of_one_is_the_input_and_checks_the_split():
    x = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    np.testing.assert_array_equal(P.AlltoAll(1, 1, 0)(x).asnumpy(), x.asnumpy())
    with pytest.raises(ValueError, match="For 'AlltoAll', the 'split_count' must be the group size 1"):
        P.AlltoAll(2, 1, 0)(x)


def test_all_to_all_across_two_ranks():
    from test_data_parallel import PROGRAMS, launch
    result = launch(2, sys.executable, str(PROGRAMS / "all_to_all.py"))
    assert result.returncode == 0, result.stdout
    assert "rank 0 ok" in result.stdout and "rank 1 ok" in result.stdout


def test_im2col_docstring_shape():
    x = Tensor(np.random.default_rng(0).random((4, 4, 32, 32)), ms.float64)
    assert P.Im2Col(ksizes=3, strides=1, dilations=1)(x).shape == (4, 4, 9, 900)   # MindSpore 2.10's docstring
    with pytest.raises(ValueError, match="the calculated shape of the array of sliding blocks is non-positive"):
        P.Im2Col(ksizes=(2, 3), dilations=(1, 2))(Tensor(IMAGE))   # MindSpore 2.10 CPU raises the same ValueError


# --- FlashAttentionScore: no CPU kernel in MindSpore 2.10 (and no docstring example); checked against its
# documented definition, softmax(q k^T * scale, masked) v, computed in float64 by NumPy.

def _reference_attention(q, k, v, scale, discard):
    """(B, N, S1, D), (B, N2, S2, D) arrays: the attention, the rows' max and sum of exp, by definition."""
    group = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, group, axis=1), np.repeat(v, group, axis=1)
    scores = q @ np.swapaxes(k, -1, -2) * scale
    if discard is not None:
        scores = np.where(discard, np.finfo(np.float32).min, scores)
    top = scores.max(-1, keepdims=True)
    weights = np.exp(scores - top)
    return (weights / weights.sum(-1, keepdims=True)) @ v, top, weights.sum(-1, keepdims=True)


_RNG = np.random.default_rng(7)
Q4, K4, V4 = (_RNG.normal(size=shape).astype(np.float32) for shape in ((2, 4, 3, 2), (2, 2, 5, 2), (2, 2, 5, 2)))
MASK = (_RNG.random((2, 1, 3, 5)) > 0.7)
CAUSAL_LEFT, CAUSAL_RIGHT = np.arange(5)[None] > np.arange(3)[:, None], np.arange(5)[None] > np.arange(3)[:, None] + 2


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("layout, sparse_mode, mask, discard", [
    ("BNSD", 0, None, None), ("BNSD", 0, MASK, MASK), ("BSND", 1, MASK, MASK), ("BSH", 2, None, CAUSAL_LEFT),
    ("SBH", 3, None, CAUSAL_RIGHT)])
def test_flash_attention_score_is_its_definition(layout, sparse_mode, mask, discard, compiled):
    expected, top, total = _reference_attention(Q4.astype(np.float64), K4.astype(np.float64), V4.astype(np.float64),
                                                0.7, discard)
    convert = {"BNSD": lambda a: a, "BSND": lambda a: a.transpose(0, 2, 1, 3),
               "BSH": lambda a: a.transpose(0, 2, 1, 3).reshape(a.shape[0], a.shape[2], -1),
               "SBH": lambda a: a.transpose(2, 0, 1, 3).reshape(a.shape[2], a.shape[0], -1)}[layout]
    attention = P.FlashAttentionScore(head_num=4, scale_value=0.7, input_layout=layout, sparse_mode=sparse_mode)

    def run(q, k, v):
        return attention(q, k, v, None, None, None, None if mask is None else Tensor(mask.astype(np.uint8)))
    outputs = (ms.jit(run) if compiled else run)(*(Tensor(convert(a)) for a in (Q4, K4, V4)))
    np.testing.assert_allclose(outputs[3].asnumpy(), convert(expected), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outputs[0].asnumpy(), np.repeat(top, 8, -1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outputs[1].asnumpy(), np.repeat(total, 8, -1), rtol=1e-5, atol=1e-6)
    assert outputs[2].shape == () and outputs[3].dtype == ms.float32


def test_flash_attention_score_band_and_errors():
    band = P.FlashAttentionScore(head_num=4, input_layout="BNSD", sparse_mode=4, pre_tokens=1, next_tokens=0)
    rows, columns = np.arange(3)[:, None], np.arange(5)[None]
    expected, _, _ = _reference_attention(Q4.astype(np.float64), K4.astype(np.float64), V4.astype(np.float64), 1.0,
                                          (columns < rows - 1) | (columns > rows))
    out = band(Tensor(Q4), Tensor(K4), Tensor(V4))[3].asnumpy()
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(NotImplementedError, match="keep_prob 1.0"):
        P.FlashAttentionScore(head_num=4, keep_prob=0.9)
    with pytest.raises(NotImplementedError, match="real_shift"):
        band(Tensor(Q4), Tensor(K4), Tensor(V4), Tensor(np.zeros((2, 4, 3, 5), np.float32)))


def test_flash_attention_score_differentiates_as_central_differences():
    attention = P.FlashAttentionScore(head_num=4, scale_value=0.5, input_layout="BNSD", sparse_mode=2)
    check_grads(lambda q, k, v: (attention(q, k, v)[3] ** 2).sum(),
                [Tensor(a.astype(np.float64)) for a in (Q4[:1], K4[:1], V4[:1])], order=1)


def test_samplers_draw_mindspores_distributions_from_the_seeded_generator():
    ms.set_seed(11)
    x = Tensor(np.random.default_rng(0).standard_normal((3, 4)), ms.float64)
    out = P.LogNormalReverse(2.0, 1.0)(x)
    assert out.shape == (3, 4) and out.dtype == ms.float64    # MindSpore 2.10's docstring: (3, 4)
    logs = np.log(P.LogNormalReverse(2.0, 0.5)(Tensor(np.zeros((200, 50), np.float32))).asnumpy())
    assert abs(logs.mean() - 2.0) < 0.02 and abs(logs.std() - 0.5) < 0.02
    kept = P.Bernoulli()(Tensor(np.zeros(10000, np.float32)), 0.3).asnumpy()
    assert set(np.unique(kept)) == {0.0, 1.0} and abs(kept.mean() - 0.3) < 0.02
    ms.set_seed(11)
    assert np.array_equal(P.LogNormalReverse(2.0, 1.0)(x).asnumpy(), out.asnumpy())
