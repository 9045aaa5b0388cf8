"""Learning-rate schedules (Cells of ``global_step``) and learning-rate lists, against the values
observed on MindSpore 2.10 CPU (steps 0..6 for the Cells)."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn

SCHEDULES = {
    "exp": (lambda: nn.ExponentialDecayLR(0.1, 0.9, 4),
             [0.100000001, 0.0974003747, 0.0948683247, 0.092402108, 0.0899999961, 0.087660335, 0.0853815004]),
    "exp_stair": (lambda: nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True),
             [0.100000001, 0.100000001, 0.100000001, 0.100000001, 0.0899999961, 0.0899999961, 0.0899999961]),
    "cos": (lambda: nn.CosineDecayLR(0.01, 0.1, 4),
             [0.100000001, 0.0868198052, 0.0549999997, 0.0231801905, 0.00999999978, 0.00999999978, 0.00999999978]),
    "poly": (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5),
             [0.100000001, 0.0879422873, 0.0736396089, 0.0549999997, 0.00999999978, 0.00999999978, 0.00999999978]),
    "poly_update": (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 2.0, update_decay_steps=True),
             [0.100000001, 0.0606250018, 0.0324999988, 0.015625, 0.00999999978, 0.0226562507, 0.015625]),
    "warmup": (lambda: nn.WarmUpLR(0.1, 3),
             [0, 0.0333333351, 0.0666666701, 0.100000001, 0.100000001, 0.100000001, 0.100000001]),
}


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedule_values_match_mindspore(name, compiled):
    make, expected = SCHEDULES[name]
    schedule = make()
    call = ms.jit(schedule) if compiled else schedule
    values = [call(Tensor(step, ms.int32)) for step in range(7)]
    assert all(v.dtype == ms.float32 and v.shape == () for v in values)
    np.testing.assert_allclose([float(v) for v in values], expected, rtol=1e-6)


def test_schedule_repr_of_a_value():
    # Observed on MindSpore 2.10 CPU.
    assert repr(nn.CosineDecayLR(0.01, 0.1, 4)(Tensor(2, ms.int32))) == "Tensor(shape=[], dtype=Float32, value= 0.055)"


@pytest.mark.parametrize("make, error, message", [
    (lambda: nn.ExponentialDecayLR(1, 0.9, 4), TypeError, "learning_rate"),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 0), ValueError, "decay_steps"),
    (lambda: nn.CosineDecayLR(0.2, 0.1, 4), ValueError, "'max_lr' must be greater than the 'min_lr'"),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5, update_decay_steps=1), TypeError, "update_decay_steps"),
    (lambda: nn.WarmUpLR(0.1, 2.5), TypeError, "warmup_steps"),
])
def test_schedule_bad_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_learning_rate_lists_match_mindspore():
    # Observed on MindSpore 2.10 CPU.
    assert nn.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01]) == \
        [0.1, 0.1, 0.05, 0.05, 0.05, 0.01]
    assert nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2) == \
        [0.1, 0.1, 0.05500000000000001, 0.05500000000000001, 0.01, 0.01]
    assert nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1) == \
        [0.1, 0.1, 0.09000000000000001, 0.09000000000000001, 0.08100000000000002, 0.08100000000000002]
    assert nn.exponential_decay_lr(0.1, 0.9, 6, 2, 2, True) == \
        [0.1, 0.1, 0.1, 0.1, 0.09000000000000001, 0.09000000000000001]
    assert nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5) == \
        [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01]
    assert nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 0.5, True) == \
        [0.1, 0.07363961030678928, 0.01, 0.05500000000000001, 0.01, 0.04674234614174767]
    assert nn.warmup_lr(0.1, 6, 2, 2) == \
        [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]


def test_other_decay_lists_follow_their_formulas():
    assert nn.natural_exp_decay_lr(0.1, 0.5, 4, 1, 2) == [0.1 * np.e ** (-0.5 * e) for e in range(4)]
    assert nn.natural_exp_decay_lr(0.1, 0.5, 4, 1, 2, True) == [0.1 * np.e ** (-0.5 * e) for e in (0, 0, 2, 2)]
    assert nn.inverse_decay_lr(0.1, 0.5, 4, 1, 2) == [0.1 / (1 + 0.5 * e / 2) for e in range(4)]
    assert nn.inverse_decay_lr(0.1, 0.5, 4, 1, 2, True) == [0.1 / (1 + 0.5 * e) for e in (0, 0, 1, 1)]


@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.piecewise_constant_lr([2, 1], [0.1, 0.05]), ValueError, "milestone\\[1\\] must be greater"),
    (lambda: nn.piecewise_constant_lr([2], [0.1, 0.05]), ValueError, "size of 'milestone'"),
    (lambda: nn.piecewise_constant_lr(2, [0.1]), TypeError, "milestone"),
    (lambda: nn.cosine_decay_lr(0.1, 0.01, 6, 2, 2), ValueError, "max_lr"),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 2, 1), ValueError, "total_step"),
    (lambda: nn.warmup_lr(1, 6, 2, 2), TypeError, "learning_rate"),
])
def test_learning_rate_list_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()
