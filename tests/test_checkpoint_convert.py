"""npspore.ckpt_to_safetensors / safetensors_to_ckpt: files, directories of rank subdirectories, renaming, and
MindSpore 2.10's errors (each behaviour observed on MindSpore 2.10 with the same calls)."""
import os

import numpy as np
import pytest

import npspore as ms

pytest.importorskip("safetensors")


def _net():
    return ms.nn.Dense(3, 2, weight_init=ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), bias_init="ones")


def _values(parameters):
    return {name: (value.asnumpy().tolist(), str(value.dtype)) for name, value in parameters.items()}


def test_a_file_converts_next_to_itself_and_back(tmp_path):
    ms.save_checkpoint(_net(), str(tmp_path / "net.ckpt"))
    ms.ckpt_to_safetensors(str(tmp_path / "net.ckpt"), name_map={"weight": "w"})
    assert sorted(os.listdir(tmp_path)) == ["net.ckpt", "net.safetensors"]
    converted = ms.load_checkpoint(str(tmp_path / "net.safetensors"), format="safetensors")
    assert _values(converted) == {"bias": ([1.0, 1.0], "Float32"), "w": ([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], "Float32")}
    ms.safetensors_to_ckpt(str(tmp_path / "net.safetensors"), save_path=str(tmp_path / "back"))
    assert _values(ms.load_checkpoint(str(tmp_path / "back" / "net.ckpt"))) == _values(converted)
    assert ms.train.serialization.ckpt_to_safetensors is ms.ckpt_to_safetensors


@pytest.mark.parametrize("processes", [1, 2])
def test_a_directory_converts_its_rank_subdirectories(tmp_path, processes, capsys):
    for rank in (0, 1):
        (tmp_path / "ranks" / f"rank_{rank}").mkdir(parents=True)
        for step in (1, 2):
            ms.save_checkpoint(_net(), str(tmp_path / "ranks" / f"rank_{rank}" / f"net{rank}_{step}.ckpt"))
    ms.ckpt_to_safetensors(str(tmp_path / "ranks"), save_path=str(tmp_path / "out"), file_name_regex="_2",
                           processes_num=processes)
    written = sorted((os.path.relpath(root, tmp_path), sorted(files)) for root, _, files in os.walk(tmp_path / "out"))
    assert written == [("out", []), ("out/rank_0", ["net0_2.safetensors"]), ("out/rank_1", ["net1_2.safetensors"])]
    assert capsys.readouterr().out.startswith("\r50.0%|" + "█" * 20 + "-" * 20 + "|[")


def test_errors_are_mindspore_s(tmp_path):
    ckpt = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(_net(), ckpt)
    (tmp_path / "plain").mkdir()
    cases = [
        ((str(tmp_path / "nope.ckpt"),), f"For ckpt_to_safetensors, the input path must be a valid path or file, but "
                                         f"got {tmp_path / 'nope.ckpt'}"),
        ((ckpt, str(tmp_path / "x.txt")), f"For ckpt_to_safetensors, the save_path must be a directory, but got "
                                          f"'{tmp_path / 'x.txt'}'"),
        ((ckpt, None, [1]), "For ckpt_to_safetensors, the type of 'name_map' must be a directory, but got "
                            "'<class 'list'>'"),
        ((ckpt, None, None, "zzz"), "For ckpt_to_safetensors, the input file does not match the regular expression."),
        ((str(tmp_path / "plain"),), f"For 'ckpt_to_safetensors', no directories starting with 'rank' found in "
                                     f"{tmp_path / 'plain'}."),
    ]
    for args, message in cases:
        with pytest.raises(ValueError) as info:
            ms.ckpt_to_safetensors(*args)
        assert str(info.value) == message
    with pytest.raises(ValueError, match="the input file must be a .safetensors file"):
        ms.safetensors_to_ckpt(ckpt)
