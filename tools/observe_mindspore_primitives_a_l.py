"""Print MindSpore 2.10's outputs for the ``ops.operations`` primitives A-L of tests/test_primitives_a_l.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_primitives_a_l.py``. Each case is a MindSpore docstring example or one more case; the
printed ``repr`` of each result is pasted into ``tests/test_primitives_a_l.py``'s ``MINDSPORE_VALUES``. An
optimizer case prints its Parameters after the update (the primitive writes them in place).
"""
import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor
from mindspore.ops import operations as P

VAR = np.array([[0.6, 0.4], [0.1, 0.5]], np.float32)
ACCUM = np.array([[0.6, 0.5], [0.2, 0.6]], np.float32)
GRAD = np.array([[0.3, -0.7], [-0.1, 0.8]], np.float32)


def _updated(prim, n_params, *others, params=(VAR, ACCUM, ACCUM * 0.5, ACCUM * 0.25)):
    """Call ``prim`` on ``n_params`` Parameters (the first of ``params``) and ``others``; the Parameters after."""
    parameters = [Parameter(Tensor(p.copy()), name=f"p{i}") for i, p in enumerate(params[:n_params])]
    prim(*parameters, *others)
    return [p.asnumpy().tolist() for p in parameters]


def _t(value, dtype=np.float32):
    return Tensor(np.array(value, dtype))


OPTIMIZER_CASES = {
    "apply_ada_max": lambda: _updated(P.ApplyAdaMax(), 3, _t(0.9), _t(0.001), _t(0.9), _t(0.99), _t(1e-10),
                                      Tensor(GRAD)),
    "apply_ada_max_numbers": lambda: _updated(P.ApplyAdaMax(), 3, 0.5, 0.1, 0.8, 0.9, 1e-7, Tensor(GRAD)),
    "apply_adagrad_v2": lambda: _updated(P.ApplyAdagradV2(epsilon=1e-6), 2, _t(0.001), Tensor(GRAD)),
    "apply_adagrad_v2_no_slots": lambda: _updated(P.ApplyAdagradV2(epsilon=0.1, update_slots=False), 2, 0.5,
                                                  Tensor(GRAD)),
    "apply_adam_with_amsgrad": lambda: _updated(P.ApplyAdamWithAmsgrad(), 4, _t(0.3), _t(0.3), _t(0.001),
                                                Tensor(GRAD)),
    "apply_adam_with_amsgrad_betas": lambda: _updated(P.ApplyAdamWithAmsgrad(beta1=0.5, beta2=0.6, epsilon=0.1), 4,
                                                      _t(0.5), _t(0.6), _t(0.2), Tensor(GRAD)),
    "apply_add_sign": lambda: _updated(P.ApplyAddSign(), 2, _t(0.001), _t(1.0), _t(0.99), _t(0.9), Tensor(GRAD)),
    "apply_add_sign_numbers": lambda: _updated(P.ApplyAddSign(), 2, 0.5, 2.0, 0.5, 0.3, Tensor(GRAD)),
    "apply_power_sign": lambda: _updated(P.ApplyPowerSign(), 2, _t(0.001), _t(np.e), _t(0.99), _t(0.9),
                                         Tensor(GRAD)),
    "apply_power_sign_numbers": lambda: _updated(P.ApplyPowerSign(), 2, 0.5, 2.0, 0.5, 0.3, Tensor(GRAD)),
    "apply_keras_momentum": lambda: _updated(P.ApplyKerasMomentum(), 2, _t(0.001), Tensor(GRAD), _t(0.99)),
    "apply_keras_momentum_nesterov": lambda: _updated(P.ApplyKerasMomentum(use_nesterov=True), 2, _t(0.1),
                                                      Tensor(GRAD), _t(0.9)),
    "apply_proximal_adagrad": lambda: _updated(P.ApplyProximalAdagrad(), 2, 0.01, 0.0, 0.0, Tensor(GRAD)),
    "apply_proximal_adagrad_l1_l2": lambda: _updated(P.ApplyProximalAdagrad(), 2, _t(0.5), _t(0.3), _t(0.2),
                                                     Tensor(GRAD)),
    "apply_ftrl": lambda: _updated(P.ApplyFtrl(), 3, Tensor(GRAD), 0.001, 0.0, 0.0, -0.5),
    "apply_ftrl_l1_l2": lambda: _updated(P.ApplyFtrl(), 3, Tensor(abs(GRAD)), _t(0.5), _t(0.05), _t(0.1), _t(-0.5)),
    "apply_adagrad_da": lambda: _updated(P.ApplyAdagradDA(), 3, Tensor(abs(GRAD)), _t(0.001), _t(0.001), _t(0.001),
                                         _t(2, np.int32)),
    "apply_adagrad_da_l1": lambda: _updated(P.ApplyAdagradDA(), 3, Tensor(abs(GRAD)), _t(0.5), _t(0.1), _t(0.0),
                                            _t(3, np.int32)),
    "adam_no_update_param": lambda: [v.asnumpy().tolist() for v in [P.AdamNoUpdateParam()(
        *[Parameter(Tensor(p.copy()), name=f"q{i}") for i, p in enumerate((ACCUM, ACCUM * 0.5))],
        _t(0.9), _t(0.999), _t(0.001), _t(0.9), _t(0.999), _t(1e-8), Tensor(GRAD))]],
    "adam_no_update_param_nesterov": lambda: [v.asnumpy().tolist() for v in [P.AdamNoUpdateParam(use_nesterov=True)(
        *[Parameter(Tensor(p.copy()), name=f"r{i}") for i, p in enumerate((ACCUM, ACCUM * 0.5))],
        _t(0.5), _t(0.6), _t(0.1), _t(0.5), _t(0.6), _t(1e-3), Tensor(GRAD))]],
    "fused_cast_adam_weight_decay_doc": lambda: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.001, 0.9, 0.999, 1e-8, 0.0, Tensor(np.ones([2, 2]), ms.float16), 1.0,
        params=(np.ones([2, 2], np.float16), np.ones([2, 2], np.float32), np.ones([2, 2], np.float32))),
    "fused_cast_adam_weight_decay_f16": lambda: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.1, 0.5, 0.6, 1e-3, 0.2, Tensor(GRAD.astype(np.float16)), 2.0,
        params=(VAR.astype(np.float16), ACCUM, ACCUM * 0.5)),
    "fused_cast_adam_weight_decay_f32": lambda: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.1, 0.5, 0.6, 1e-3, 0.2, Tensor(GRAD.astype(np.float16)), 0.5),
}

if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    for name, case in OPTIMIZER_CASES.items():
        try:
            value = case()
        except Exception as error:  # noqa: BLE001 - a case MindSpore's CPU build rejects is printed as such
            value = f"{type(error).__name__}: {str(error).splitlines()[0]}"
        print(f"    {name!r}: {value!r},")
