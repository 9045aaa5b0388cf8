"""Checkpoints: files written by the real MindSpore 2.10 load in npspore, and npspore writes the same bytes.

The fixtures in tests/fixtures/ were written by tools/make_ckpt_fixtures.py running MindSpore 2.10 CPU;
the same script's ``fixture_values`` gives the values they hold.
"""
import importlib.util
import json
import os
import stat
import subprocess
import sys

import numpy as np
import pytest

import npspore as ms
from npspore import nn
from npspore.core.safefile import FileReadError
from npspore.train import checkpoint_proto
from limited_process import load_in_limited_process

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
    checkpoint_proto.checkpoint_message.cache_clear()
    monkeypatch.setitem(sys.modules, "google.protobuf", None)
    try:
        with pytest.raises(ImportError, match="pip install protobuf"):
            ms.load_checkpoint(MS_CKPT)
    finally:
        checkpoint_proto.checkpoint_message.cache_clear()


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


# ------------------------------------------------------------------ hardening: writes

def test_save_replaces_planted_symlinks_and_never_writes_through_them(tmp_path):
    # Another user's links in a shared directory: at the file's name and where a temporary file used to go.
    notes, victim = tmp_path / "notes.txt", tmp_path / "victim.ckpt"
    notes.write_bytes(b"my notes")
    victim.write_bytes(b"my model")
    (tmp_path / "x.ckpt").symlink_to(victim)
    (tmp_path / "x.ckpt.tmp").symlink_to(notes)
    ms.save_checkpoint(Fixture(), str(tmp_path / "x.ckpt"))
    assert notes.read_bytes() == b"my notes" and victim.read_bytes() == b"my model"
    assert not (tmp_path / "x.ckpt").is_symlink()
    _assert_fixture_values(ms.load_checkpoint(str(tmp_path / "x.ckpt")))


def test_save_fsyncs_the_file_before_the_rename_and_the_directory_after(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append("fsync dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(source, target):
        events.append("rename")
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    ms.save_checkpoint(Fixture(), str(tmp_path / "net.ckpt"))
    assert events == ["fsync file", "rename", "fsync dir"]
    assert os.listdir(tmp_path) == ["net.ckpt"]


def test_a_failed_save_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint(Fixture(), str(path))
    before = _read(path)

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        ms.save_checkpoint(Fixture(filled=False), str(path))
    assert _read(path) == before and os.listdir(tmp_path) == ["net.ckpt"]


# ------------------------------------------------------------------ hardening: reads

def _message(tag, type_name, dims, content):
    message = checkpoint_proto.checkpoint_message()()
    value = message.value.add()
    value.tag = tag
    value.tensor.dims.extend(dims)
    value.tensor.tensor_type = type_name
    value.tensor.tensor_content = content
    return message.SerializeToString()


def _safetensors_file(header, data):
    text = json.dumps(header).encode()
    return len(text).to_bytes(8, "little") + text + data


def _load_in_limited_process(*files):
    """Load each ``(path, format)`` in a fresh Python whose address space is limited; (returncode, output)."""
    formats = {str(path): format for path, format in files}
    return load_in_limited_process(f"ms.load_checkpoint(path, format={formats!r}[path])", list(formats))


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "x.ckpt"
    os.mkfifo(fifo)
    try:
        returncode, output = _load_in_limited_process((fifo, "ckpt"))
    except subprocess.TimeoutExpired:
        pytest.fail("load_checkpoint of a FIFO blocked")
    assert returncode == 0 and "refused:" in output and "x.ckpt" in output and "FIFO" in output


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_link_to_a_device_is_refused_within_a_memory_limit(tmp_path, device):
    link = tmp_path / "x.ckpt"
    link.symlink_to(device)
    returncode, output = _load_in_limited_process((link, "ckpt"))
    assert returncode == 0 and "refused:" in output and "character device" in output, output


def test_huge_declared_sizes_are_refused_within_a_memory_limit(tmp_path):
    path = tmp_path / "huge.ckpt"
    path.write_bytes(_message("w", "Float32", [2 ** 40, 2 ** 40], b"\0" * 4)
                     + _message("v", "Float64", [0, 2 ** 62], b""))
    big = tmp_path / "huge.safetensors"
    big.write_bytes(_safetensors_file({"w": {"dtype": "F32", "shape": [2 ** 31, 2 ** 31], "data_offsets": [0, 4]}},
                                      b"\0" * 4))
    returncode, output = _load_in_limited_process((path, "ckpt"), (big, "safetensors"))
    assert returncode == 0 and output.count("refused:") == 2, output
    assert "huge.ckpt" in output and "huge.safetensors" in output


def _deeply_nested_record(depth):
    """A valid entry whose Value also holds an unknown field of groups nested ``depth`` deep."""
    value = _message("w", "Float32", [1], b"\0" * 4)[2:] + b"\x2b" * depth + b"\x2c" * depth  # field 5, wire types 3/4
    size = len(value)  # < 2**21: a 3-byte varint, the length of the Checkpoint's field 1
    return b"\x0a" + bytes([size & 0x7F | 0x80, size >> 7 & 0x7F | 0x80, size >> 14]) + value


MALFORMED_CKPT = {
    "garbage": b"not a checkpoint at all\n" * 10,
    "truncated": _message("w", "Float32", [2], b"\0" * 8)[:-3],
    "huge dims": _message("w", "Float32", [2 ** 40, 2 ** 40], b"\0" * 4),
    "dims wrapping to 0": _message("w", "Float32", [2 ** 32, 2 ** 32], b""),
    "empty with huge dims": _message("w", "Float64", [0, 2 ** 62], b""),
    "too many dims": _message("w", "Float32", [1] * 40, b"\0" * 4),
    "negative dims": _message("w", "Float32", [-1, -4], b"\0" * 16),
    "ragged content": _message("w", "Float32", [1], b"\0" * 5),
    "unknown type": _message("w", "Float8", [1], b"\0"),
    "str not utf-32": _message("s", "str", [0], b"\xff\xff\xff\xff"),
    "str of 5 bytes": _message("s", "str", [0], b"abcde"),
    "mixed str": _message("s", "str", [0], b"a\0\0\0") + _message("s", "Float32", [1], b"\0" * 4),
    "slices of other shapes": _message("w", "Float32", [2], b"\0" * 4) + _message("w", "Float32", [3], b"\0" * 4),
    "name too long": _message("w" * 2000, "Float32", [1], b"\0" * 4),
    "deep nesting": _deeply_nested_record(100000),
}
MALFORMED_SAFETENSORS = {
    "wrong magic": b"\xff" * 8 + b"{}",
    "header length past the end": (10 ** 6).to_bytes(8, "little") + b"{}",
    "not json": _safetensors_file({}, b"")[:8] + b"{" * 2,
    "deep nesting": (lambda text: len(text).to_bytes(8, "little") + text)(b"[" * 100000 + b"]" * 100000),
    "data past the end": _safetensors_file({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, b"\0" * 4),
    "shape against data": _safetensors_file({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 4]}}, b"\0" * 4),
    "unknown dtype": _safetensors_file({"w": {"dtype": "F8_E4M3", "shape": [1], "data_offsets": [0, 1]}}, b"\0"),
    "too many dims": _safetensors_file({"w": {"dtype": "U8", "shape": [1] * 40, "data_offsets": [0, 1]}}, b"\0"),
    "truncated": _read(MS_SAFETENSORS)[:-5],
}


@pytest.mark.parametrize("case", sorted(MALFORMED_CKPT))
def test_malformed_ckpt_is_an_error_naming_the_file(tmp_path, case):
    path = tmp_path / "bad.ckpt"
    path.write_bytes(MALFORMED_CKPT[case])
    with pytest.raises(FileReadError, match="bad.ckpt") as info:
        ms.load_checkpoint(str(path))
    assert isinstance(info.value, ValueError) and info.value.path == str(path)


@pytest.mark.parametrize("case", sorted(MALFORMED_SAFETENSORS))
def test_malformed_safetensors_is_an_error_naming_the_file(tmp_path, case):
    path = tmp_path / "bad.safetensors"
    path.write_bytes(MALFORMED_SAFETENSORS[case])
    with pytest.raises(FileReadError, match="bad.safetensors"):
        ms.load_checkpoint(str(path), format="safetensors")


@pytest.mark.parametrize("source,format", [(MS_CKPT, "ckpt"), (MS_SAFETENSORS, "safetensors")])
def test_every_truncation_and_bit_flip_loads_or_is_an_error_naming_the_file(tmp_path, source, format):
    data = _read(source)
    path = tmp_path / f"flipped.{format}"
    variants = [data[:size] for size in range(len(data))]
    variants += [data[:i] + bytes([data[i] ^ (1 << bit)]) + data[i + 1:] for i in range(len(data)) for bit in range(8)]
    loaded = 0
    for variant in variants:
        path.write_bytes(variant)
        try:
            ms.load_checkpoint(str(path), format=format)
            loaded += 1
        except FileReadError as error:
            assert str(path) in str(error)
    assert 0 < loaded < len(variants)


def test_slices_of_one_name_are_decoded_each_by_its_own_type(tmp_path):
    path = tmp_path / "slices.ckpt"
    path.write_bytes(_message("w", "Float32", [2, 2], np.array([1.5, -2.0], np.float32).tobytes())
                     + _message("w", "Float16", [2, 2], np.array([3.0, 0.25], np.float16).tobytes())
                     + _message("n", "Int8", [3], np.array([1, -2], np.int8).tobytes())
                     + _message("n", "Int64", [3], np.array([2 ** 40], np.int64).tobytes()))
    loaded = ms.load_checkpoint(str(path))
    assert loaded["w"].dtype == ms.float32 and loaded["n"].dtype == ms.int64
    np.testing.assert_array_equal(loaded["w"].asnumpy(), [[1.5, -2.0], [3.0, 0.25]])
    np.testing.assert_array_equal(loaded["n"].asnumpy(), [1, -2, 2 ** 40])


BF16_BITS = np.array([0x3FC0, 0xC000, 0x4049, 0x7F80, 0x0001], np.uint16)   # 1.5, -2, 3.140625, inf, tiny
BF16_VALUES = np.array([1.5, -2.0, 3.140625, np.inf, 2.0 ** -133], np.float32)


def test_bfloat16_loads_as_float32_from_safetensors_and_ckpt(tmp_path):
    path = tmp_path / "bf16.safetensors"
    path.write_bytes(_safetensors_file(
        {"__metadata__": {"format": "ms"}, "w": {"dtype": "BF16", "shape": [5, 1], "data_offsets": [0, 10]},
         "b": {"dtype": "F32", "shape": [1], "data_offsets": [10, 14]}},
        BF16_BITS.astype("<u2").tobytes() + np.float32(0.5).tobytes()))
    loaded = ms.load_checkpoint(str(path), format="safetensors")
    assert loaded["w"].dtype == ms.float32 and loaded["w"].shape == (5, 1)
    np.testing.assert_array_equal(loaded["w"].asnumpy().ravel(), BF16_VALUES)
    assert loaded["b"].asnumpy().tolist() == [0.5]
    ckpt = tmp_path / "bf16.ckpt"
    ckpt.write_bytes(_message("w", "BFloat16", [5], BF16_BITS.astype("<u2").tobytes()))
    np.testing.assert_array_equal(ms.load_checkpoint(str(ckpt))["w"].asnumpy(), BF16_VALUES)


def test_lossy_conversion_into_the_network_warns_as_mindspore_and_names_the_values(caplog):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = ms.Parameter(ms.Tensor(np.zeros(2, np.int32)), name="count")
            self.scale = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="scale")
            self.half = ms.Parameter(ms.Tensor(np.zeros(1, np.float16)), name="half")

        def construct(self, x):
            return x

    net = Net()
    values = {"count": np.array([2 ** 40 + 5, 3], np.int64), "scale": np.array([1.5, 1e300]),
              "half": np.array([0.5], np.float32)}
    with caplog.at_level("WARNING", logger="npspore.checkpoint"):
        ms.load_param_into_net(net, {name: ms.Parameter(ms.Tensor(v), name=name) for name, v in values.items()})
    messages = [record.getMessage() for record in caplog.records]
    assert messages[0].startswith("The type of count:Int64 in 'parameter_dict' is different from the type of it in "
                                  "'net':Int32, then the type convert from Int64 to Int32 in the network.")
    assert "1 of its values do not fit Int32 and change, such as 1099511627781 at [0], which becomes 5" in messages[0]
    assert "such as 1e+300 at [1], which becomes inf" in messages[1]
    assert messages[2].endswith("from Float32 to Float16 in the network. May consume additional memory and time.")
    assert net.count.asnumpy().tolist() == [5, 3] and net.half.asnumpy().tolist() == [0.5]
