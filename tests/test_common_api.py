"""npspore.common.api: MindSpore 1.x's ms_function and ms_class, the names MindSpore 2.0 deprecated for jit and
jit_class (logged warnings as MindSpore 2.0-2.3 logs them; compiled results equal eager ones)."""
import numpy as np
import pytest

import npspore as ms
from npspore import log, nn, ops
from npspore.common import api


@pytest.fixture
def warnings_logged(monkeypatch):
    logged = []
    monkeypatch.setattr(log, "warning", lambda message, *args: logged.append(message % args if args else message))
    return logged


X = np.arange(6, dtype=np.float32).reshape(2, 3)
Y = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)


def _affine(x, y):
    return ops.exp(x * 0.1) * y + x


def test_ms_function_compiles_and_warns_each_time(warnings_logged):
    compiled = ms.ms_function(_affine)
    decorated = ms.ms_function()(_affine)
    expected = _affine(ms.Tensor(X), ms.Tensor(Y)).asnumpy()
    for function in (compiled, decorated):
        assert isinstance(function, ms.jit(_affine).__class__)
        np.testing.assert_array_equal(function(ms.Tensor(X), ms.Tensor(Y)).asnumpy(), expected)
    assert compiled.cache_info()["compiles"] + compiled.cache_info()["disk_loads"] == 1
    assert warnings_logged == ["'mindspore.ms_function' will be deprecated and removed in a future version. "
                               "Please use 'mindspore.jit' instead."] * 2
    assert ms.ms_function is api.ms_function and api.jit is ms.jit


def test_ms_function_input_signature_allows_its_dynamic_dims_only(warnings_logged):
    signature = (ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(shape=[None, 3], dtype=ms.float32))
    compiled = ms.ms_function(_affine, input_signature=signature)
    for rows in (2, 5):
        x, y = np.ones((rows, 3), np.float32), np.full((rows, 3), 2, np.float32)
        np.testing.assert_allclose(compiled(ms.Tensor(x), ms.Tensor(y)).asnumpy(),
                                   np.exp(np.float32(0.1)) * 2 + 1, rtol=1e-6)
    assert compiled.cache_info()["entries"] == 1   # one kernel for every row count
    with pytest.raises(ValueError, match=r"the shape of 1th input must be the same as expected, but got expected: "
                                         r"\[-1, 3\], and input: \[2, 4\]"):
        compiled(ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(TypeError, match="'input_signature' should be a Tensor or a tuple of Tensors"):
        ms.ms_function(_affine, input_signature=[1, 2])


def test_ms_function_jit_config_sets_the_syntax_level(warnings_logged):
    def reads_values(x):
        return x * float(x.sum())

    lax = ms.ms_function(reads_values)
    strict = ms.ms_function(reads_values, jit_config=ms.JitConfig(jit_syntax_level="STRICT"))
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(lax(x).asnumpy(), [3.0, 6.0])
    with pytest.raises(Exception, match="(?i)strict|syntax"):
        strict(x)


def test_ms_function_on_a_cell_method(warnings_logged):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

        @ms.ms_function
        def construct(self, x):
            return self.dense(x) * 2

    np.testing.assert_array_equal(Net()(ms.Tensor(X)).asnumpy(), (X @ np.ones((3, 2), np.float32)) * 2)


def test_ms_class_marks_and_checks_like_jit_class(warnings_logged):
    @ms.ms_class
    class Scale:
        def __init__(self):
            self.factor = 3.0

        def apply(self, x):
            return x * self.factor

    scale = Scale()

    @ms.jit
    def scaled(x):
        return scale.apply(x) + 1

    assert Scale.__ms_class__ is True
    np.testing.assert_array_equal(scaled(ms.Tensor(X)).asnumpy(), X * 3 + 1)
    with pytest.raises(TypeError, match="Decorator ms_class can only be used for class type, but got 3."):
        ms.ms_class(3)
    with pytest.raises(TypeError, match="Decorator ms_class is used for user-defined classes and cannot be used "
                                        "for nn.Cell"):
        ms.ms_class(nn.ReLU)
    assert warnings_logged == ["'mindspore.ms_class' will be deprecated and removed in a future version. "
                               "Please use 'mindspore.jit_class' instead."] * 3


def test_private_names_of_mindspore_common_api():
    assert api._no_grad is ms._no_grad
    with api._no_grad():
        pass
