"""Second-order property tests of every differentiable op of the table, compiled.

Hypothesis draws operands and static attributes from the strategies of ``test_adjoints`` (one per
differentiable op, kept complete by its coverage test); ``compiled_vjp.check_second_order`` checks
the compiled first derivatives of the op and the compiled derivatives of those against central
finite differences in float64. ``test_every_differentiable_op_is_checked_at_second_order`` fails
when an op is added to the table without a case here. The ops of ``test_adjoints.CONVENTIONS`` follow
MindSpore's convention instead of the derivative (their second order: tests/test_fused_cross_entropy.py).
"""
import pytest
from hypothesis import Phase, given, settings, strategies as st

from compiled_vjp import Op, check_second_order
from test_adjoints import CASES, CONVENTIONS
from npspore.opdef import op_table


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=2, deadline=None, derandomize=True, phases=[Phase.generate])
@given(data=st.data())
def test_second_derivatives_match_finite_differences(name, data):
    operands, static = data.draw(CASES[name], label="operands and static")
    check_second_order(Op(name, static), operands)


def test_every_differentiable_op_is_checked_at_second_order():
    differentiable = {d.name for d in op_table().definitions() if d.differentiable}
    assert differentiable <= set(CASES) | set(CONVENTIONS), sorted(differentiable - set(CASES) - set(CONVENTIONS))
