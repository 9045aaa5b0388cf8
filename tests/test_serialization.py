"""Checkpoints: files written by the real MindSpore 2.10 load in npspore, and npspore writes the same bytes.

The fixtures in tests/fixtures/ were written by tools/make_ckpt_fixtures.py running MindSpore 2.10 CPU;
the same script's ``fixture_values`` gives the values they hold.
"""
import importlib.util
import os
import sys

import numpy as np
import pytest

import npspore as ms
from npspore import nn
from npspore.train import checkpoint_proto

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
MS_CKPT = os.path.join(FIXTURES, "ms_params.ckpt")
MS_SAFETENSORS = os.path.join(FIXTURES, "ms_params.safetensors")
APPENDED = {"epoch_num": 3, "lr": 0.5, "tag": "fixture"}


def _fixture_values():
    path = os.path.join(os.path.dirname(__file__), "..", "tools", "make_ckpt_fixtures.py")
    spec = importlib.util.spec_from_file_location("make_ckpt_fixtures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fixture_values()


VALUES = _fixture_values()


class Fixture(nn.Cell):
    """The Cell tools/make_ckpt_fixtures.py saves, with zeros or the fixture values."""

    def __init__(self, filled=True):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        for name, value in VALUES.items():
            value = value if filled else np.zeros_like(value)
            if name.startswith("dense."):
                getattr(self.dense, name[len("dense."):]).set_data(ms.Tensor(value))
            else:
                setattr(self, name, ms.Parameter(ms.Tensor(value), name=name))

    def construct(self, x):
        return self.dense(x)


def _read(path):
    with open(path, "rb") as file:
        return file.read()


def _assert_fixture_values(loaded):
    for name, expected in VALUES.items():
        got = loaded[name].asnumpy()
        assert got.dtype == expected.dtype and got.shape == expected.shape, name
        np.testing.assert_array_equal(got, expected)


def test_loads_mindspore_ckpt_with_every_dtype_and_appended_entries():
    loaded = ms.load_checkpoint(MS_CKPT)
    assert list(loaded) == ["half", "double", "count32", "count64", "mask", "scale",
                            "dense.weight", "dense.bias", "epoch_num", "lr", "tag"]
    _assert_fixture_values(loaded)
    assert isinstance(loaded["half"], ms.Parameter) and loaded["half"].name == "half"
    assert loaded["epoch_num"].dtype == ms.int64 and loaded["epoch_num"].asnumpy() == 3
    assert loaded["lr"].dtype == ms.float32 and loaded["lr"].asnumpy() == 0.5
    assert loaded["tag"] == "fixture"


def test_loads_mindspore_safetensors():
    loaded = ms.load_checkpoint(MS_SAFETENSORS, format="safetensors")
    assert list(loaded) == sorted(VALUES)
    _assert_fixture_values(loaded)


def test_npspore_writes_mindspores_bytes(tmp_path):
    # MindSpore's output is deterministic: the same Parameters give the same bytes in both formats.
    net = Fixture()
    ms.save_checkpoint(net, str(tmp_path / "net.ckpt"), append_dict=dict(APPENDED))
    assert _read(tmp_path / "net.ckpt") == _read(MS_CKPT)
    ms.save_checkpoint(net, str(tmp_path / "net"), format="safetensors")
    assert _read(tmp_path / "net.safetensors") == _read(MS_SAFETENSORS)
    ms.save_checkpoint(ms.load_checkpoint(MS_CKPT), str(tmp_path / "again.ckpt"))
    assert _read(tmp_path / "again.ckpt") == _read(MS_CKPT)


def test_written_file_parses_with_mindspores_proto(tmp_path):
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(np.ones((2, 1), np.float64))}], str(tmp_path / "w.ckpt"))
    message = checkpoint_proto.checkpoint_message()()
    message.ParseFromString(_read(tmp_path / "w.ckpt"))
    (value,) = message.value
    assert (value.tag, list(value.tensor.dims), value.tensor.tensor_type) == ("w", [2, 1], "Float64")
    assert value.tensor.tensor_content == np.ones(2).tobytes()


def test_load_param_into_net_and_load_checkpoint_with_net():
    net = Fixture(filled=False)
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, ms.load_checkpoint(MS_CKPT))
    assert (param_not_load, ckpt_not_load) == ([], ["epoch_num", "lr", "tag"])
    _assert_fixture_values(dict(net.parameters_and_names()))

    other = Fixture(filled=False)
    ms.load_checkpoint(MS_SAFETENSORS, net=other, format="safetensors")
    _assert_fixture_values(dict(other.parameters_and_names()))


def test_prefix_filters_and_choice_func():
    assert list(ms.load_checkpoint(MS_CKPT, specify_prefix="dense")) == ["dense.weight", "dense.bias"]
    kept = ms.load_checkpoint(MS_CKPT, filter_prefix=["dense", "count"], specify_prefix=("d", "h"))
    assert list(kept) == ["half", "double"]
    assert list(ms.load_checkpoint(MS_CKPT, choice_func=lambda name: name.endswith("64"))) == ["count64"]
    with pytest.raises(ValueError, match="empty after filter"):
        ms.load_checkpoint(MS_CKPT, specify_prefix="nothing")
    with pytest.raises(ValueError, match="can't include ''"):
        ms.load_checkpoint(MS_CKPT, filter_prefix=[""])


def test_not_loaded_names_prefixed_names_and_dtype_conversion():
    net = Fixture(filled=False)
    loaded = {"backbone." + name: ms.Parameter(ms.Tensor(value.astype(np.float64) if value.dtype == np.float32
                                                          else value), name="backbone." + name)
              for name, value in VALUES.items() if name != "mask"}
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, loaded)
    assert param_not_load == ["mask"]
    assert sorted(ckpt_not_load) == sorted(loaded)
    assert net.dense.weight.dtype == ms.float32
    np.testing.assert_array_equal(net.dense.weight.asnumpy(), VALUES["dense.weight"])
    wider = {"dense.weight": ms.Parameter(ms.Tensor(VALUES["dense.weight"].astype(np.float64)))}
    with pytest.raises(RuntimeError, match="dense.weight.*Float32.*Float64"):
        ms.load_param_into_net(Fixture(filled=False), wider, strict_load=True)
    as_ints = {"dense.weight": ms.Parameter(ms.Tensor(np.zeros((2, 3), np.int32)))}
    with pytest.raises(RuntimeError, match="same type"):
        ms.load_param_into_net(Fixture(filled=False), as_ints)


def test_shape_mismatch_names_parameter_and_both_shapes():
    wrong = {"dense.weight": ms.Parameter(ms.Tensor(np.zeros((3, 2), np.float32)), name="dense.weight")}
    with pytest.raises(RuntimeError, match=r"dense\.weight.*\(2, 3\).*\(3, 2\)"):
        ms.load_param_into_net(Fixture(filled=False), wrong)
    # trailing dimensions of size 1 are dropped, as in MindSpore
    bias = {"dense.bias": ms.Parameter(ms.Tensor(np.ones((2, 1, 1), np.float32)), name="dense.bias")}
    net = Fixture(filled=False)
    ms.load_param_into_net(net, bias)
    np.testing.assert_array_equal(net.dense.bias.asnumpy(), [1.0, 1.0])


@pytest.mark.parametrize("content", [b"not a checkpoint at all\n", None, b"", b"\x08\x01"])
def test_damaged_ckpt_raises_value_error_naming_the_file(tmp_path, content):
    path = tmp_path / "bad.ckpt"
    path.write_bytes(_read(MS_CKPT)[:150] if content is None else content)
    with pytest.raises(ValueError, match="bad.ckpt") as info:
        ms.load_checkpoint(str(path))
    error = info.value  # no protobuf traceback is chained to it
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)


def test_damaged_safetensors_and_missing_or_misnamed_files(tmp_path):
    path = tmp_path / "bad.safetensors"
    path.write_bytes(_read(MS_SAFETENSORS)[:100])
    with pytest.raises(ValueError, match="bad.safetensors"):
        ms.load_checkpoint(str(path), format="safetensors")
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="must same with 'format'"):
        ms.load_checkpoint(MS_CKPT, format="safetensors")
    with pytest.raises(TypeError, match="ckpt_file_name"):
        ms.load_checkpoint(3)


def test_save_arguments_are_checked(tmp_path):
    with pytest.raises(TypeError, match="save_obj"):
        ms.save_checkpoint(3, str(tmp_path / "x.ckpt"))
    with pytest.raises(ValueError, match="format"):
        ms.save_checkpoint([], str(tmp_path / "x.ckpt"), format="pt")
    with pytest.raises(IsADirectoryError):
        ms.save_checkpoint([], str(tmp_path))
    with pytest.raises(TypeError, match="append_info"):
        ms.save_checkpoint([], str(tmp_path / "x.ckpt"), append_dict={"a": [1]})
    with pytest.raises(TypeError, match="list of dict items"):
        ms.save_checkpoint([{"name": "a", "data": 1.0}], str(tmp_path / "x.ckpt"))


def test_crc_check_round_trip_and_damage(tmp_path):
    path = tmp_path / "crc.ckpt"
    ms.save_checkpoint(Fixture(), str(path), crc_check=True)
    assert _read(path)[-17:-10] == b"crc_num"
    _assert_fixture_values(ms.load_checkpoint(str(path), crc_check=True))
    damaged = bytearray(_read(path))
    damaged[-30] ^= 1
    path.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="crc check"):
        ms.load_checkpoint(str(path), crc_check=True)


def test_missing_protobuf_gives_install_hint(monkeypatch):
    checkpoint_proto.message_class.cache_clear()
    monkeypatch.setitem(sys.modules, "google.protobuf", None)
    try:
        with pytest.raises(ImportError, match="pip install protobuf"):
            ms.load_checkpoint(MS_CKPT)
    finally:
        checkpoint_proto.message_class.cache_clear()


def test_train_namespace_exports():
    assert ms.train.save_checkpoint is ms.save_checkpoint
    assert ms.train.load_checkpoint is ms.load_checkpoint
    assert ms.train.load_param_into_net is ms.load_param_into_net


def test_two_prefixes_are_removed_one_after_the_other():
    net = Fixture(filled=False)
    loaded = {"left.dense.weight": ms.Parameter(ms.Tensor(VALUES["dense.weight"])),
              "right.dense.bias": ms.Parameter(ms.Tensor(VALUES["dense.bias"])), "right.note": "text"}
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, loaded)
    assert "dense.weight" not in param_not_load and "dense.bias" not in param_not_load
    assert ckpt_not_load == list(loaded)  # as in MindSpore, names loaded through a prefix stay listed here
    np.testing.assert_array_equal(net.dense.weight.asnumpy(), VALUES["dense.weight"])
    np.testing.assert_array_equal(net.dense.bias.asnumpy(), VALUES["dense.bias"])
