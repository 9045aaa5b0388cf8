"""set_ps_context / get_ps_context / reset_ps_context: MindSpore 2.10's keys, defaults, read-backs and errors
(recorded only: npspore trains without parameter servers)."""
import pytest

import npspore as ms
from npspore import context
from npspore.core import ps_context


@pytest.fixture(autouse=True)
def _fresh_ps_context(monkeypatch):
    monkeypatch.setattr(ps_context, "_context", dict(ps_context._DEFAULTS))


def test_defaults_of_a_fresh_process():
    # MindSpore 2.10, a fresh process: these get_ps_context values
    expected = {"server_mode": "", "ms_role": "MS_NOT_PS", "enable_ps": False, "worker_num": 0, "server_num": 0,
                "scheduler_ip": "127.0.0.1", "scheduler_port": 6667, "enable_ssl": False, "config_file_path": ""}
    assert {key: context.get_ps_context(key) for key in expected} == expected


def test_set_values_read_back_and_reset_turns_off_only_enable_ps():
    assert ms.set_ps_context is context.set_ps_context and ms.get_ps_context is context.get_ps_context
    context.set_ps_context(enable_ps=True, enable_ssl=True, worker_num=2, config_file_path="/tmp/c.json",
                           client_password="a")
    read = ("enable_ps", "enable_ssl", "worker_num", "config_file_path")
    assert [context.get_ps_context(key) for key in read] == [True, True, 2, "/tmp/c.json"]
    ms.reset_ps_context()
    # MindSpore 2.10 after reset_ps_context: enable_ps False, the others kept
    assert [context.get_ps_context(key) for key in read] == [False, True, 2, "/tmp/c.json"]


def test_mindspore_errors():
    with pytest.raises(ValueError, match="Set PS context keyword foo is not recognized!"):
        context.set_ps_context(foo=1)
    with pytest.raises(ValueError, match="Get PS context keyword client_password is not recognized!"):
        context.get_ps_context("client_password")
    with pytest.raises(TypeError, match="The parameter 'enable_ps' must be <class 'bool'>, but got <class 'int'>"):
        context.set_ps_context(enable_ps=1)
    with pytest.raises(ValueError, match="x is invalid. Server mode must be PARAMETER_SERVER"):
        context.set_ps_context(server_mode="x")
    with pytest.raises(ValueError, match="ms_role foo is invalid."):
        context.set_ps_context(ms_role="foo")


def test_a_rejected_call_sets_nothing():
    with pytest.raises(TypeError):
        context.set_ps_context(enable_ssl=True, worker_num="2")
    assert context.get_ps_context("enable_ssl") is False


def test_ms_role_is_checked_but_the_role_comes_from_the_environment():
    context.set_ps_context(ms_role="MS_WORKER")
    assert context.get_ps_context("ms_role") == "MS_NOT_PS"   # as MindSpore 2.10 read it back without MS_ROLE
