"""Hypothesis strategies for the collective ops (merged into ``test_adjoints.CASES``).

In one process (no ``init``) every collective is over a group of one, so the finite differences
check each rule's local algebra; ``test_data_parallel.py`` checks the rules across 2 MPI ranks.
"""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

WORLD = {"group": "hccl_world_group", "size": 1}


def operands(min_dims=0):
    """A float64 array with elements away from zero (``prod``'s rule divides by the operand)."""
    magnitudes = hnp.arrays(np.float64, hnp.array_shapes(min_dims=min_dims, max_dims=3, max_side=3),
                            elements=st.floats(0.5, 2.0))
    return st.tuples(magnitudes, st.sampled_from([-1.0, 1.0])).map(lambda c: np.asarray(c[0] * c[1]))


def reduce_op():
    return st.sampled_from(["sum", "max", "min", "prod"])


CASES = {
    "all_reduce": st.tuples(operands(), reduce_op()).map(lambda c: ((c[0],), {**WORLD, "op": c[1]})),
    "all_gather": operands(1).map(lambda x: ((x,), dict(WORLD))),
    "reduce_scatter": st.tuples(operands(1), reduce_op()).map(lambda c: ((c[0],), {**WORLD, "op": c[1]})),
    "broadcast": operands().map(lambda x: ((x,), {**WORLD, "root": 0})),
    "reduce": st.tuples(operands(), reduce_op()).map(lambda c: ((c[0],), {**WORLD, "op": c[1], "root": 0})),
}
