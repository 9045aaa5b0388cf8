"""``mindspore.ckpt_to_safetensors`` and ``safetensors_to_ckpt``: a checkpoint rewritten in the other format, as
MindSpore 2.10 converts it: a single file next to itself (or into ``save_path``), or, for a directory, every
matching file of its ``rank*`` subdirectories into the same layout below ``save_path``. Parameters may be renamed
on the way (``name_map``). Files of a directory are converted by ``processes_num`` worker processes, with
MindSpore's progress bar on standard output.
"""
from __future__ import annotations

import os
import re
import time
from typing import Any

from .serialization import load_checkpoint, save_checkpoint

__all__ = ["ckpt_to_safetensors", "safetensors_to_ckpt"]

_SUFFIX = {"ckpt": ".ckpt", "safetensors": ".safetensors"}


def ckpt_to_safetensors(file_path: str, save_path: str | None = None, name_map: dict | None = None,
                        file_name_regex: str | None = None, processes_num: int = 1) -> None:
    """Convert MindSpore ``.ckpt`` checkpoints into ``.safetensors`` files (see the module doc).

    Args:
        file_path (str): a ``.ckpt`` file, or a directory whose ``rank*`` subdirectories hold them.
        save_path (str, optional): the directory to write to; by default, next to each file. Default: ``None``.
        name_map (dict, optional): old Parameter name -> new name. Default: ``None``.
        file_name_regex (str, optional): convert only the files whose name it matches. Default: ``None``.
        processes_num (int, optional): worker processes converting a directory's files. Default: ``1``.

    Raises:
        ValueError: if ``file_path`` does not exist, ``save_path`` has a file extension, ``name_map`` is not a
            dict, the file is not a ``.ckpt`` file or does not match ``file_name_regex``, or a directory has no
            ``rank*`` subdirectory (MindSpore's messages).
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "ckpt", "safetensors",
             "ckpt_to_safetensors")


def safetensors_to_ckpt(file_path: str, save_path: str | None = None, name_map: dict | None = None,
                        file_name_regex: str | None = None, processes_num: int = 1) -> None:
    """Convert ``.safetensors`` checkpoints into MindSpore ``.ckpt`` files; arguments and errors as
    :func:`ckpt_to_safetensors`'s, with the formats swapped."""
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "safetensors", "ckpt",
             "safetensors_to_ckpt")


def _convert(file_path, save_path, name_map, file_name_regex, processes_num, source, target, func_name):
    is_dir, is_file = os.path.isdir(file_path), os.path.isfile(file_path)
    if not is_dir and not is_file:
        raise ValueError(f"For {func_name}, the input path must be a valid path or file, but got {file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {func_name}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {func_name}, the type of 'name_map' must be a directory, but got '{type(name_map)}'")
    if is_dir:
        tasks = _directory_tasks(file_path, save_path, file_name_regex, source, func_name)
        tasks = [(path, destination, name_map, source, target) for path, destination in tasks]
        if processes_num > 1 and len(tasks) > 1:
            from concurrent.futures import ProcessPoolExecutor   # imports logging: only when converting in processes
            with ProcessPoolExecutor(max_workers=processes_num) as pool:
                list(_progress_bar(pool.map(_convert_file, *zip(*tasks)), len(tasks)))
        else:
            list(_progress_bar((_convert_file(*task) for task in tasks), len(tasks)))
        return
    suffix = _SUFFIX[source]
    if not file_path.endswith(suffix):
        raise ValueError(f"For {func_name}, the input file must be a {suffix} file, but got {file_path}")
    if file_name_regex is not None and not re.findall(file_name_regex, file_path):
        raise ValueError(f"For {func_name}, the input file does not match the regular expression.")
    if save_path:
        os.makedirs(save_path, exist_ok=True)
    name = os.path.basename(file_path).replace(suffix, _SUFFIX[target])
    _convert_file(file_path, os.path.join(save_path or os.path.dirname(file_path), name), name_map, source, target)


def _directory_tasks(file_path, save_path, file_name_regex, source, func_name) -> list[tuple[str, str]]:
    """(source file, destination file) of every matching file in the ``rank*`` subdirectories of ``file_path``;
    the destination directories are made."""
    ranks = sorted(entry for entry in os.listdir(file_path)
                   if entry.startswith("rank") and os.path.isdir(os.path.join(file_path, entry)))
    if not ranks:
        raise ValueError(f"For '{func_name}', no directories starting with 'rank' found in {file_path}.")
    tasks = []
    for rank in ranks:
        rank_dir = os.path.join(file_path, rank)
        destination = os.path.join(save_path, rank) if save_path is not None else rank_dir
        os.makedirs(destination, exist_ok=True)
        for name in sorted(os.listdir(rank_dir)):
            if name.endswith(_SUFFIX[source]) and (file_name_regex is None or re.search(file_name_regex, name)):
                target_name = name.replace(_SUFFIX[source], _SUFFIX["ckpt" if source == "safetensors" else
                                                                     "safetensors"])
                tasks.append((os.path.join(rank_dir, name), os.path.join(destination, target_name)))
    return tasks


def _convert_file(path: str, destination: str, name_map: dict | None, source: str, target: str) -> None:
    parameters: dict[str, Any] = load_checkpoint(path, format=source)
    if name_map is not None:
        parameters = {name_map.get(name, name): value for name, value in parameters.items()}
    save_checkpoint(parameters, destination, format=target)


def _progress_bar(results, total: int):
    """``results``, printing MindSpore's progress bar (``50.0%|████----|[00:00:01<00:00:01]``) after each."""
    start = time.time()
    for done, result in enumerate(results, start=1):
        yield result
        filled = 40 * done // total
        elapsed = time.time() - start
        spent, left = (time.strftime("%H:%M:%S", time.gmtime(t)) for t in (elapsed, elapsed / done * total - elapsed))
        print(f"\r{100 * done / total:.1f}%|{'█' * filled}{'-' * (40 - filled)}|[{spent}<{left}]",
              end="\n" if done == total else "")
