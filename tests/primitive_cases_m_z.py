"""The cases of tests/test_primitives_m_z.py, as data both MindSpore 2.10 (``tools/observe_mindspore_primitives_m_z.py``)
and npspore run: ``name: (primitive class under ops.operations, constructor args, constructor kwargs, inputs)``.
An input is a NumPy array (a Tensor), a :class:`Param` (a Parameter, updated in place) or a Python value.
Each primitive has its MindSpore docstring example (``_doc``) and at least one more case."""
import numpy as np


class Param:
    """An input given as a Parameter named ``name`` holding ``value``."""

    def __init__(self, value, name="x"):
        self.value, self.name = value, name


def f32(values):
    return np.array(values, np.float32)


def i32(values):
    return np.array(values, np.int32)


X23 = f32([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]])
IDX00 = i32([[0, 0], [0, 0]])
ROWS = f32([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])
ROWS2 = f32([[[1.0, 1.0, 1.0], [3.0, 3.0, 3.0]], [[7.0, 7.0, 7.0], [9.0, 9.0, 9.0]]])
VEC8 = f32([1, 2, 3, 4, 5, 6, 7, 8])
IDX4 = i32([[2], [4], [1], [7]])
UPD4 = f32([6, 7, 8, 9])
IDX_MIXED = i32([[0, 1], [1, 2], [0, 1], [1, 0]])
UPD_MIXED = f32([2.0, -4.0, 0.5, 3.0])

CASES = {
    # scatter updates that combine (scatter_reduce.py)
    "TensorScatterMul_doc": ("TensorScatterMul", (), {}, [X23, IDX00, f32([1.0, 2.2])]),
    "TensorScatterMul_mixed": ("TensorScatterMul", (), {}, [X23, IDX_MIXED, UPD_MIXED]),
    "TensorScatterDiv_doc": ("TensorScatterDiv", (), {}, [X23, IDX00, f32([1.0, 2.0])]),
    "TensorScatterDiv_mixed": ("TensorScatterDiv", (), {}, [X23, IDX_MIXED, UPD_MIXED]),
    "TensorScatterMax_doc": ("TensorScatterMax", (), {}, [X23, IDX00, f32([1.0, 2.2])]),
    "TensorScatterMax_mixed": ("TensorScatterMax", (), {}, [X23, IDX_MIXED, UPD_MIXED]),
    "TensorScatterMin_doc": ("TensorScatterMin", (), {}, [X23, IDX00, f32([1.0, 2.2])]),
    "TensorScatterMin_mixed": ("TensorScatterMin", (), {}, [X23, IDX_MIXED, UPD_MIXED]),
    "TensorScatterMax_rows": ("TensorScatterMax", (), {}, [X23, i32([[1], [0], [1]]),
                                                           f32([[0, 0, 0], [1, 1, 1], [-5, 9, -1]])]),
    "ScatterMul_doc": ("ScatterMul", (), {}, [Param(ROWS), i32([0, 1]), f32([[2.0] * 3, [2.0] * 3])]),
    "ScatterMul_doc_repeated": ("ScatterMul", (), {}, [Param(ROWS), i32([[0, 1], [1, 1]]), ROWS2]),
    "ScatterDiv_doc": ("ScatterDiv", (), {}, [Param(f32([[6.0] * 3, [2.0] * 3])), i32([0, 1]),
                                              f32([[2.0] * 3, [2.0] * 3])]),
    "ScatterDiv_repeated": ("ScatterDiv", (), {}, [Param(f32([[105.0] * 3, [315.0] * 3])), i32([[0, 1], [1, 1]]),
                                                   f32([[[1.0] * 3, [3.0] * 3], [[5.0] * 3, [7.0] * 3]])]),
    "ScatterMax_doc": ("ScatterMax", (), {}, [Param(f32([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])), i32([[0, 0], [1, 1]]),
                                              f32(np.ones((2, 2, 3)) * 88)]),
    "ScatterMax_mixed": ("ScatterMax", (), {}, [Param(X23), i32([1, 0, 1]), f32([[0, 0, 0], [1, 1, 1], [-5, 9, -1]])]),
    "ScatterMin_doc": ("ScatterMin", (), {}, [Param(f32([[0.0, 1.0, 2.0], [0.0, 0.0, 0.0]])), i32([[0, 0], [1, 1]]),
                                              f32(np.ones((2, 2, 3)))]),
    "ScatterMin_mixed": ("ScatterMin", (), {}, [Param(X23), i32([1, 0, 1]), f32([[0, 0, 0], [1, 1, 1], [-5, 9, -1]])]),
    "ScatterSub_doc": ("ScatterSub", (), {}, [Param(f32([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])), i32([[0, 1]]),
                                              f32([[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]])]),
    "ScatterSub_repeated": ("ScatterSub", (), {}, [Param(X23), i32([1, 1, 0]), f32([[1, 2, 3], [4, 5, 6], [7, 8, 9]])]),
    "ScatterNdMul_doc": ("ScatterNdMul", (), {}, [Param(VEC8), IDX4, UPD4]),
    "ScatterNdMul_repeated": ("ScatterNdMul", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
    "ScatterNdDiv_doc": ("ScatterNdDiv", (), {}, [Param(VEC8), IDX4, UPD4]),
    "ScatterNdDiv_repeated": ("ScatterNdDiv", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
    "ScatterNdMax_doc": ("ScatterNdMax", (), {}, [Param(VEC8), IDX4, UPD4]),
    "ScatterNdMax_repeated": ("ScatterNdMax", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
    "ScatterNdMin_doc": ("ScatterNdMin", (), {}, [Param(f32(np.ones(8) * 10)), IDX4, UPD4]),
    "ScatterNdMin_repeated": ("ScatterNdMin", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
    "ScatterNdSub_doc": ("ScatterNdSub", (), {}, [Param(VEC8), IDX4, UPD4]),
    "ScatterNdSub_repeated": ("ScatterNdSub", (), {}, [Param(X23), IDX_MIXED, UPD_MIXED]),
}
