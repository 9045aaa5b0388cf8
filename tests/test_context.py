"""npspore.set_context / get_context (semantics §0)."""
import subprocess
import sys

import pytest

import npspore as ms
from npspore import context


@pytest.fixture(autouse=True)
def restore_context():
    saved = dict(context._context)
    yield
    context._context.clear()
    context._context.update(saved)


def test_mode_constants_and_exports():
    assert ms.GRAPH_MODE == 0 and ms.PYNATIVE_MODE == 1
    assert ms.set_context is context.set_context and ms.get_context is context.get_context


def test_pynative_is_the_start_up_mode():
    code = "import npspore as ms; print(ms.get_context('mode'), ms.get_context('device_target'), " \
           "ms.get_context('compile_cache'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "CPU", "True"]


def test_set_and_get_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ms.get_context("mode") == 0
    ms.set_context(mode=context.PYNATIVE_MODE)
    assert ms.get_context("mode") == 1


@pytest.mark.parametrize("mode", [5, -1, "0", None])
def test_invalid_mode(mode):
    with pytest.raises(ValueError) as info:
        ms.set_context(mode=mode)
    assert str(info.value) == ("For 'context.set_context', the argument 'mode' should be context.GRAPH_MODE (0) or "
                               f"context.PYNATIVE_MODE (1), but got {mode}.")
    assert ms.get_context("mode") == 1


def test_device_target_and_compile_cache():
    ms.set_context(device_target="GPU", compile_cache=False)
    assert ms.get_context("device_target") == "GPU" and ms.get_context("compile_cache") is False
    with pytest.raises(ValueError, match=r"'device_target' must be one of \['Ascend', 'GPU', 'CPU'\], but got TPU."):
        ms.set_context(device_target="TPU")
    with pytest.raises(TypeError, match="'compile_cache' must be bool, but got int."):
        ms.set_context(compile_cache=1)


def test_other_keys_are_stored():
    ms.set_context(save_graphs=True, jit_config={"jit_level": "O0"})
    assert ms.get_context("save_graphs") is True
    assert ms.get_context("jit_config") == {"jit_level": "O0"}


def test_invalid_call_changes_nothing():
    with pytest.raises(ValueError):
        ms.set_context(device_id=3, mode=7)
    assert ms.get_context("device_id") == 0


def test_unknown_key():
    with pytest.raises(ValueError, match="For 'context.get_context', the argument no_such_key is not recognized!"):
        ms.get_context("no_such_key")
