"""``mindspore._no_grad``: what a ``with _no_grad():`` block (or an ``@_no_grad()`` function) computes carries
no gradient. Expected values printed by MindSpore 2.10 (CPU, PyNative) for the same programs."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, _no_grad, nn


class Teacher(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="tw")

    def construct(self, x):
        return x * self.w


teacher = Teacher()
x = Tensor(np.array([1.0, 2.0], np.float32))


def distill(x):
    with _no_grad():
        t = teacher(x)
        u = x * x
    return (t * x).sum() + (u * 0 + x).sum()


@_no_grad()
def squared(x):
    return x * x


def through_decorated(x):
    return squared(x).sum() + x.sum()


def test_values_bound_in_the_block_carry_no_gradient():
    np.testing.assert_array_equal(ms.grad(distill)(x).asnumpy(), [3.0, 7.0])        # MindSpore: [3. 7.]
    grads = ms.grad(distill, grad_position=None, weights=teacher.trainable_params())(x)
    np.testing.assert_array_equal(grads[0].asnumpy(), [0.0, 0.0])                    # MindSpore: [0. 0.]
    assert float(distill(x).asnumpy()) == 17.0                                       # MindSpore: 17.0


def test_a_decorated_function_returns_values_without_gradient():
    np.testing.assert_array_equal(ms.grad(through_decorated)(x).asnumpy(), [1.0, 1.0])  # MindSpore: [1. 1.]


def test_value_and_grad_and_a_jit_training_step_honour_it():
    value, grad = ms.value_and_grad(distill)(x)
    assert float(value.asnumpy()) == 17.0
    np.testing.assert_array_equal(grad.asnumpy(), [3.0, 7.0])

    class Student(nn.Cell):
        def __init__(self):
            super().__init__()
            self.teacher = Teacher()
            self.s = ms.Parameter(Tensor(np.array([1.0, 1.0], np.float32)), name="s")

        def construct(self, x):
            with _no_grad():
                target = self.teacher(x)
            return ((x * self.s - target) ** 2).sum()

    student = Student()
    step = ms.jit(nn.TrainOneStepCell(student, nn.SGD(student.trainable_params(), learning_rate=0.1)))
    step(x)
    # d/ds = 2 (x s - t) x = [2*(1-2)*1, 2*(2-6)*2] = [-2, -16]; the teacher's weight is not trained
    np.testing.assert_allclose(student.s.asnumpy(), [1.2, 2.6], rtol=1e-6)
    np.testing.assert_array_equal(student.teacher.w.asnumpy(), [2.0, 3.0])


def test_another_context_manager_in_compiled_code_is_refused_at_the_users_line():
    import contextlib

    def uses_a_lock(x):
        with contextlib.nullcontext():
            y = x * 2
        return y.sum()

    with pytest.raises(ms.compiler.errors.NotSupportedError, match="'with' statement") as info:
        ms.grad(uses_a_lock)(x)
    assert "test_no_grad.py" in str(info.value)
