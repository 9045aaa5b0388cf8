"""Top-level and runtime names added for the API breadth (issue 26), against MindSpore 2.10 CPU (values and
messages recorded from it): ``Generator``/``manual_seed``/``initial_seed``/``get_rng_state``/``set_rng_state``,
``set_recursion_limit``, ``set_deterministic``, ``from_numpy``, ``run_check``, ``runtime.set_memory``,
``runtime.launch_blocking``, ``runtime.synchronize``, ``hal.synchronize``/``hal.empty_cache``."""
import numpy as np
import pytest

import npspore as ms
from npspore import device_knobs, runtime


@pytest.fixture
def fresh_generator(monkeypatch):
    monkeypatch.setattr(ms.common.generator, "default_generator", ms.Generator())


def test_generator_state_is_mindspores(fresh_generator):
    # MindSpore 2.10: a fresh default generator has seed 0 and offset 0; manual_seed returns the generator
    assert ms.initial_seed() == 0 and ms.get_rng_state().asnumpy().tolist() == [0] * 16
    generator = ms.manual_seed(13)
    assert isinstance(generator, ms.Generator) and ms.initial_seed() == 13
    g = ms.Generator()
    g.manual_seed(5)
    state = g.get_state()
    assert (str(state.dtype), state.asnumpy().tolist()) == ("UInt8", [5] + [0] * 15)
    assert [int(v.asnumpy()) for v in g._step(ms.Tensor(3, ms.int64))] == [5, 0]
    assert [int(v.asnumpy()) for v in g._step(3)] == [5, 3]
    assert g.get_state().asnumpy().tolist() == [5, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
    g.set_state(state)
    assert [int(v.asnumpy()) for v in g._step(1)] == [5, 0]
    ms.set_rng_state(state)
    assert ms.initial_seed() == 5
    fresh = g.seed()
    assert isinstance(fresh, int) and g.initial_seed() == fresh and ms.seed() == ms.initial_seed()
    assert ms.manual_seed(True).initial_seed() == 1 and ms.manual_seed(-3).initial_seed() == -3
    with pytest.raises(TypeError, match="Seed must be an integer."):
        ms.manual_seed(1.5)
    with pytest.raises(RuntimeError, match="State data size must be 16, but got 3"):
        ms.set_rng_state(ms.Tensor([1, 2, 3], ms.uint8))


def test_set_recursion_limit_checks_as_mindspore():
    ms.set_recursion_limit(10000)
    assert ms.get_context("max_call_depth") == 1000  # MindSpore's context keeps its own value too
    for value, error, message in [(0, ValueError, "The input value must be int and must > 0, but got '0' with type "
                                                  "'int'."),
                                  (1.5, TypeError, "The input value must be int, but got 'float'"),
                                  (True, TypeError, "The input value must be int and must > 0, but got 'True' with "
                                                    "type 'bool'.")]:
        with pytest.raises(error) as raised:
            ms.set_recursion_limit(value)
        assert str(raised.value) == message


def test_set_deterministic(monkeypatch):
    monkeypatch.setitem(ms.context._context, "deterministic", "OFF")
    assert ms.get_context("deterministic") == "OFF"
    ms.set_deterministic(True)
    assert ms.get_context("deterministic") == "ON"
    with pytest.raises(TypeError, match="The parameter 'deterministic' must be <class 'bool'>, but got <class 'int'>"):
        ms.set_deterministic(1)


def test_from_numpy_shares_memory():
    array = np.arange(4, dtype=np.float32)
    tensor = ms.from_numpy(array)
    array[0] = 9
    assert tensor.asnumpy().tolist() == [9.0, 1.0, 2.0, 3.0] and str(tensor.dtype) == "Float32"
    assert ms.from_numpy(np.arange(4)[::2]).asnumpy().tolist() == [0, 2]
    with pytest.raises(TypeError, match="Expected a NumPy array."):
        ms.from_numpy([1, 2])


def test_run_check_prints_mindspores_lines(capsys):
    ms.run_check()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("npspore version: ")
    assert lines[1] == ("The result of multiplication calculation is correct, npspore has been installed on "
                        "platform [CPU] successfully!")


def test_run_check_reports_a_wrong_product(capsys, monkeypatch):
    monkeypatch.setattr(ms.ops, "Mul", lambda: lambda x, y: x + y)
    ms.run_check()
    assert "npspore running check failed." in capsys.readouterr().out


def test_runtime_knobs(monkeypatch):
    monkeypatch.setattr(device_knobs, "_memory_configured", False)
    runtime.set_memory("10GB", "2GB", "60GB", "O1", "0GB")  # the mindspore.runtime.set_memory docstring's call
    with pytest.raises(RuntimeError, match="The 'set_memory' can not be set repeatedly."):
        runtime.set_memory()
    monkeypatch.setattr(device_knobs, "_memory_configured", False)
    with pytest.raises(ValueError, match=r"The '2G' is illegal, it must be match regular"):
        runtime.set_memory("2G")
    with pytest.raises(ValueError, match="The optimize_level must be one of \\['O0', 'O1'\\], but got O3."):
        runtime.set_memory(optimize_level="O3")
    with pytest.raises(ValueError, match='The memory value should not be "0GB".'):
        runtime.set_memory(max_size="0.0GB")
    assert runtime.launch_blocking() is None and runtime.synchronize() is None
    assert ms.hal.synchronize() is None and ms.hal.empty_cache() is None
