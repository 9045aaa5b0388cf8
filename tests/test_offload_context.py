"""npspore.set_offload_context / get_offload_context (MindSpore 2.0-2.3): checked with MindSpore's types, ranges and
messages, recorded and read back (npspore has no device memory to offload from)."""
import shutil

import pytest

import npspore as ms
from npspore.parallel import _offload_context


@pytest.fixture(autouse=True)
def fresh_config(monkeypatch):
    monkeypatch.setattr(_offload_context, "_config", dict(_offload_context._config))


def test_defaults_are_mindspore_s():
    config = ms.get_offload_context()
    assert {key: value for key, value in config.items() if key not in ("offload_cpu_size", "offload_disk_size")} == {
        "offload_param": "", "offload_path": "./offload/", "offload_checkpoint": "", "enable_aio": True,
        "aio_block_size": 1 << 20, "aio_queue_depth": 1024, "enable_pinned_mem": True, "auto_offload": True,
        "host_mem_block_size": 1 << 30, "cpu_ratio": 1.0, "hbm_ratio": 1.0}
    # unset sizes: 80 % of the available host memory, and the free space of the disk
    assert 0 < config["offload_cpu_size"] and 0 < config["offload_disk_size"] <= shutil.disk_usage(".").total


def test_settings_are_read_back_in_mindspore_s_units(tmp_path):
    ms.set_offload_context({"offload_param": "CPU", "offload_path": str(tmp_path), "offload_cpu_size": "2.5GB",
                            "offload_disk_size": "10GB", "aio_queue_depth": 8, "cpu_ratio": 0.3,
                            "enable_pinned_mem": False})
    config = ms.get_offload_context()
    assert config["offload_param"] == "cpu" and config["offload_path"] == str(tmp_path)
    assert config["offload_cpu_size"] == int(2.5 * (1 << 30)) - int(2.5 * (1 << 30) * 0.2)
    assert config["offload_disk_size"] == 10 << 30 and config["aio_queue_depth"] == 8
    assert config["cpu_ratio"] == 0.30000001192092896 and config["enable_pinned_mem"] is False  # a float32 ratio


@pytest.mark.parametrize("config, error, message", [
    ({"x": 1}, ValueError, "Unknown config: ['x']"),
    ({"offload_param": "gpu"}, ValueError,
     "For 'set_offload_param', the 'offload_param' must be str and must be in '['cpu', 'disk']', but got 'gpu'."),
    ({"offload_param": 1}, TypeError,
     "For 'set_offload_param', the argument 'offload_param' must be str, but got the type : <class 'int'>."),
    ({"offload_cpu_size": "5"}, ValueError,
     "The argument 'offload_cpu_size' should be in correct  format! It must be a string ending with 'GB', in addition"
     " to that, it must contain only numbers or decimal points, such as \"5GB\" or \"3.5GB\", but got 5."),
    ({"cpu_ratio": 0}, TypeError, "The 'cpu_ratio' must be 'float',  but got 'int'."),
    ({"cpu_ratio": 0.0}, ValueError, "The 'cpu_ratio' must be in range of (0, 1], but got 0.0 with type 'float'."),
    ({"enable_aio": 1}, TypeError, "For 'set_enable_aio', the 'enable_aio' must be a bool, but got int."),
    ([("offload_param", "cpu")], TypeError,
     "The parameter 'offload_config' must be <class 'dict'>, but got <class 'list'>"),
])
def test_bad_settings_raise_mindspore_s_errors(config, error, message):
    with pytest.raises(error) as info:
        ms.set_offload_context(config)
    assert str(info.value) == message


def test_keys_before_a_bad_one_are_set():
    with pytest.raises(ValueError):
        ms.set_offload_context({"offload_param": "disk", "x": 1})
    assert ms.get_offload_context()["offload_param"] == "disk"
