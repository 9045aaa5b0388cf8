"""Print the shapes, dtypes and errors of MindSpore 2.10's random primitives that tests/test_random2.py checks.

Run with MindSpore's interpreter: ``/work/msvenv/bin/python tools/observe_mindspore_random2.py``. Each line is
``label: result`` where a result is ``(shape, dtype)``, ``ExceptionType: message`` or ``no CPU kernel``.
"""
import numpy as np
import mindspore as ms
from mindspore.ops import operations as P
from mindspore.ops.auto_generate import gen_ops_prim as G

ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
SEED, OFFSET = ms.Tensor(1, ms.int64), ms.Tensor(0, ms.int64)
F32 = np.float32


def show(label, thunk):
    try:
        out = thunk()
        outs = out if isinstance(out, tuple) else (out,)
        print(f"{label}: " + ", ".join(f"({o.shape}, {o.dtype})" for o in outs))
    except Exception as error:  # noqa: BLE001 - recording what MindSpore raises
        message = str(error).split("\n")[0][:160]
        print(f"{label}: {type(error).__name__}: {message}")


CASES = {
    "RandExt": lambda: G.RandExt()((2, 3), SEED, OFFSET),
    "RandExt f64": lambda: G.RandExt()((2, 3), SEED, OFFSET, ms.float64),
    "Randn": lambda: G.Randn()((2, 3), SEED, OFFSET),
    "RandInt": lambda: G.RandInt()(0, 10, (4,), SEED, OFFSET),
    "RandIntLike": lambda: G.RandIntLike()(ms.Tensor(np.zeros(3, F32)), 0, 5, SEED, OFFSET),
    "RandLikeExt": lambda: G.RandLikeExt()(ms.Tensor(np.zeros((2, 2), np.float16)), SEED, OFFSET),
    "RandnLike": lambda: G.RandnLike()(ms.Tensor(np.zeros((2, 2), F32)), SEED, OFFSET),
    "RandpermExt": lambda: G.RandpermExt()(5, SEED, OFFSET),
    "NormalFloatFloat": lambda: G.NormalFloatFloat()(0.0, 1.0, (3,), SEED, OFFSET),
    "NormalTensorTensor": lambda: G.NormalTensorTensor()(ms.Tensor(np.zeros((2, 1), F32)),
                                                         ms.Tensor(np.ones(3, F32)), SEED, OFFSET),
    "UniformExt": lambda: G.UniformExt()(ms.Tensor(np.zeros(3, F32)), 0.0, 1.0, SEED, OFFSET),
    "BernoulliExt": lambda: G.BernoulliExt()(ms.Tensor(np.full(3, 0.5, F32)), SEED, OFFSET),
    "MultinomialExt": lambda: G.MultinomialExt()(ms.Tensor(np.ones((2, 3), F32)), 2, True, SEED, OFFSET),
    "InplaceExponential": lambda: G.InplaceExponential()(ms.Tensor(np.zeros(3, F32)), 1.0, SEED, OFFSET),
    "RandomGamma": lambda: P.RandomGamma(1, 2)(ms.Tensor([3, 2], ms.int32), ms.Tensor(np.array([1.0, 2.0], F32))),
    "Gamma": lambda: P.Gamma(1, 2)((3, 2), ms.Tensor(np.array([1.0, 2.0], F32)), ms.Tensor(np.array([1.0], F32))),
    "Poisson": lambda: P.Poisson(1, 2)((4, 2), ms.Tensor(np.array([1.0, 5.0], F32))),
    "RandomPoisson": lambda: P.RandomPoisson(1, 2)(ms.Tensor([2, 3], ms.int32), ms.Tensor(np.array([1.0], F32))),
    "RandomPoisson f32": lambda: P.RandomPoisson(1, 2, ms.float32)(ms.Tensor([2], ms.int32),
                                                                   ms.Tensor(np.array([1.0, 2.0], F32))),
    "RandomPoisson bad dtype": lambda: P.RandomPoisson(dtype=ms.int8),
    "Cauchy": lambda: P.Cauchy([2, 3])(),
    "Cauchy tuple": lambda: P.Cauchy((2, 3)),
    "Cauchy zero": lambda: P.Cauchy([0]),
    "NonDeterministicInts": lambda: P.NonDeterministicInts()(ms.Tensor([2, 2], ms.int32)),
    "NonDeterministicInts bad dtype": lambda: P.NonDeterministicInts(ms.float32),
    "MultinomialWithReplacement": lambda: P.MultinomialWithReplacement(3, True)(
        ms.Tensor(np.array([[1.0, 2.0, 3.0]], F32)), SEED, OFFSET),
    "RandomGamma negative seed": lambda: P.RandomGamma(-1),
    "ParameterizedTruncatedNormal": lambda: P.ParameterizedTruncatedNormal(1, 2)(
        ms.Tensor([2, 3], ms.int64), ms.Tensor(np.array([0.0, 1.0], F32)), ms.Tensor(np.array([1.0, 2.0], F32)),
        ms.Tensor(np.array([-1.0, 0.0], F32)), ms.Tensor(np.array([1.0, 5.0], F32))),
    "ParameterizedTruncatedNormal f64 scalars": lambda: P.ParameterizedTruncatedNormal()(
        ms.Tensor([2, 3], ms.int32), *(ms.Tensor(v, ms.float64) for v in (0.0, 1.0, -2.0, 2.0))),
    "DropoutExt": lambda: G.dropout_ext_op(ms.Tensor(np.ones((3, 5), F32)), 0.5, SEED, OFFSET),
}

for case_label, case in CASES.items():
    show(case_label, case)
