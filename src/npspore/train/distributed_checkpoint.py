"""Merging the checkpoints of distributed training by their strategy files: ``build_searched_strategy``,
``merge_sliced_parameter``, ``merge_pipeline_strategys`` and ``load_distributed_checkpoint`` (MindSpore 2.10's
``mindspore.parallel.checkpoint_transform``).

A strategy file (``train.node_strategy_pb2.ParallelStrategyMap``, or its JSON form) gives each Parameter's
layout: a device matrix and a tensor map sending each tensor dimension to a device axis, counted from the
right (-1: not split). Rank ``r`` sits at ``numpy.unravel_index(r, device_matrix)`` and holds, along each
split dimension, the slice its coordinate on that axis selects; ranks that differ only on unmapped axes hold
the same slice. Merging places each rank's slice; splitting (a prediction strategy) takes this rank's.
Layouts this module does not merge (uneven slices, embedding fields, optimizer-sharded weights, dimensions
split over several axes) raise ``ValueError`` saying so.
"""
from __future__ import annotations

import glob
import json
import os

import numpy as np

from ..core.logs import mindspore_log
from .._checkparam import check_isinstance
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..communication.management import get_rank
from ..core import parallel_context as _parallel
from ..nn.cell import Cell
from . import node_strategy_pb2
from .serialization import load_checkpoint, load_param_into_net, save_checkpoint

__all__ = ["build_searched_strategy", "merge_sliced_parameter", "merge_pipeline_strategys",
           "load_distributed_checkpoint", "transform_checkpoints", "sync_pipeline_shared_parameters"]


def _messages():
    """The strategy-file messages (built when first used: they need the optional protobuf package)."""
    return node_strategy_pb2


def _check_strategy_file(strategy_filename) -> None:
    if not isinstance(strategy_filename, str):
        raise TypeError(f"For 'build_searched_strategy', the argument 'strategy_filename' should be string, "
                        f"but got {type(strategy_filename)}.")
    if not os.path.isfile(strategy_filename):
        raise ValueError(f"For 'build_searched_strategy', no such strategy file: {strategy_filename}. "
                         f"Please check whether the 'strategy_filename' exists.")
    if os.path.getsize(strategy_filename) == 0:
        raise ValueError(f"For 'build_searched_strategy', the strategy file {strategy_filename} should not "
                         f"be empty. Please check whether the 'strategy_filename' is correct.")


def _load_protobuf_strategy(strategy_filename: str):
    strategy_map = _messages().ParallelStrategyMap()
    with open(strategy_filename, "rb") as file:
        content = file.read()
    try:
        strategy_map.ParseFromString(content)
    except Exception as error:  # noqa: BLE001  (protobuf's DecodeError, or a missing required field)
        raise TypeError("The strategy file type should be one of json or protobuf. When the file name extension is "
                        "not '.json', the file is considered as a protobuf file.") from error
    return strategy_map


def _json_layout(item: dict):
    layout = _messages().ParallelLayouts()
    layout.field = item.get("field")
    layout.opt_weight_shard_size = item.get("opt_weight_shard_size")
    layout.opt_weight_shard_step = item.get("opt_weight_shard_step")
    layout.dev_matrix.add().dim.extend(item.get("dev_matrix"))
    layout.tensor_map.add().dim.extend(item.get("tensor_map"))
    layout.param_split_shape.add().dim.extend(item.get("param_split_shape", []))
    layout.indices_offset.add().dim.extend(item.get("indices_offset", []))
    return layout


def build_searched_strategy(strategy_filename: str | None) -> dict | None:
    """Each Parameter's layout in the strategy file ``strategy_filename`` (protobuf, or JSON when it ends in
    ``.json``).

    Returns:
        dict, parameter name -> ``ParallelLayouts``; None when ``strategy_filename`` is None.

    Raises:
        TypeError: if ``strategy_filename`` is not a str or the file does not parse.
        ValueError: if the file does not exist or is empty.
    """
    if strategy_filename is None:
        return None
    _check_strategy_file(strategy_filename)
    if strategy_filename.endswith(".json"):
        with open(strategy_filename, encoding="utf-8") as file:
            items = json.load(file).get("parallel_layout_item", {})
        return {name: _json_layout(item) for name, item in items.items()}
    return {item.param_name: item.parallel_layouts
            for item in _load_protobuf_strategy(strategy_filename).parallel_layout_item}


def merge_pipeline_strategys(src_strategy_dirs: str, dst_strategy_file: str) -> None:
    """Merge the strategy files of every pipeline stage in ``src_strategy_dirs`` (all ``*.ckpt`` or all
    ``*.json``) into ``dst_strategy_file``; each layout's name gets its stage as prefix (``"1-fc.weight"``).

    Raises:
        NotADirectoryError: if ``src_strategy_dirs`` is not a directory.
        ValueError: if it holds both formats, or a file has no strategy or layout items.
    """
    dst_strategy_file = os.path.abspath(os.path.normpath(dst_strategy_file))
    os.makedirs(os.path.dirname(dst_strategy_file), exist_ok=True)
    if not os.path.isdir(src_strategy_dirs):
        raise NotADirectoryError(f"src_strategy_dirs {src_strategy_dirs} is not a directory.")
    protobuf_files = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.ckpt")))
    json_files = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.json")))
    if protobuf_files and json_files:
        raise ValueError("The strategys format should be all '.ckpt' or all '.json'")
    if protobuf_files:
        _merge_protobuf_strategies(protobuf_files, dst_strategy_file)
    else:
        _merge_json_strategies(json_files, dst_strategy_file)


def _merge_protobuf_strategies(files: list[str], dst_strategy_file: str) -> None:
    merged = _messages().ParallelStrategyMap()
    stages, contents = [], set()
    for path in files:
        with open(path, "rb") as file:
            content = file.read()
        if content in contents:
            continue
        contents.add(content)
        strategy_map = _load_protobuf_strategy(path)
        strategy_items, layout_items = strategy_map.parallel_strategy_item, strategy_map.parallel_layout_item
        if not strategy_items or not layout_items:
            raise ValueError(f"The strategy file {path} is empty")
        stage = strategy_items[0].parallel_strategys.stage
        if stage in stages:
            continue
        for item in layout_items:
            item.param_name = f"{stage}-{item.param_name}"
        merged.parallel_strategy_item.extend(strategy_items)
        merged.parallel_layout_item.extend(layout_items)
        stages.append(stage)
    merged.current_stage = 1
    with open(dst_strategy_file, "wb") as file:
        file.write(merged.SerializeToString())


def _merge_json_strategies(files: list[str], dst_strategy_file: str) -> None:
    merged = {"current_stage": 1, "parallel_strategy_item": {}, "parallel_layout_item": {}}
    stages = []
    for path in files:
        with open(path, encoding="utf-8") as file:
            content = json.load(file)
        layout_items, strategy_items = content.get("parallel_layout_item"), content.get("parallel_strategy_item")
        if not strategy_items or not layout_items:
            raise ValueError(f"The strategy file {path} is empty")
        stage = next(iter(strategy_items.values())).get("stage")
        if stage in stages:
            continue
        merged["parallel_layout_item"].update({f"{stage}-{name}": item for name, item in layout_items.items()})
        merged["parallel_strategy_item"].update(strategy_items)
        stages.append(stage)
    with open(dst_strategy_file, "w", encoding="utf-8") as file:
        json.dump(merged, file)


def _layout_parts(name: str, layout) -> tuple[list[int], list[int]]:
    """``(device matrix, tensor map)`` of a ``ParallelLayouts`` or of a prediction layout list, checked to be a
    layout this module merges."""
    if isinstance(layout, (list, tuple)):
        device_matrix, tensor_map, split_shape, field = layout[0], layout[1], layout[2], layout[3]
        shard_size = layout[5] if len(layout) > 5 else 0
        nested = any(isinstance(dim, (list, tuple)) for dim in tensor_map)
    else:
        device_matrix, tensor_map = list(layout.dev_matrix[0].dim), list(layout.tensor_map[0].dim)
        split_shape = list(layout.param_split_shape[0].dim) if layout.param_split_shape else []
        field, shard_size, nested = int(layout.field), int(layout.opt_weight_shard_size), len(layout.tensor_map) > 1
    unsupported = [what for what, present in (("uneven slices (param_split_shape)", bool(split_shape)),
                                              ("an embedding field", field > 0),
                                              ("optimizer-sharded weights", shard_size > 0),
                                              ("a dimension split over several device axes", nested)) if present]
    if unsupported:
        raise ValueError(f"The layout of '{name}' has {', '.join(unsupported)}: merging such slices is not "
                         f"implemented in npspore.")
    return [int(dim) for dim in device_matrix], [int(dim) for dim in tensor_map]


def _slice_index(rank: int, shape: tuple, device_matrix: list[int], tensor_map: list[int]) -> tuple:
    """The index of rank ``rank``'s slice (of shape ``shape``) in the whole tensor."""
    coordinates = np.unravel_index(rank, device_matrix)
    index = []
    for size, axis in zip(shape, tensor_map):
        position = 0 if axis < 0 else coordinates[len(device_matrix) - 1 - axis]
        index.append(slice(position * size, (position + 1) * size))
    return tuple(index)


def _merged(name: str, slices: list[np.ndarray], layout) -> np.ndarray:
    """The whole tensor of the slices ``slices`` (one per rank, in rank order)."""
    device_matrix, tensor_map = _layout_parts(name, layout)
    if len(slices) != int(np.prod(device_matrix)):
        raise ValueError("For 'merge_sliced_parameter', the length of 'sliced_parameters' should be equal to "
                         f"device_count. The length of 'sliced_parameters' is {len(slices)}, but device_count is "
                         f"{int(np.prod(device_matrix))}.")
    if any(piece.shape != slices[0].shape for piece in slices):
        raise ValueError("For 'merge_sliced_parameter', the shape of every parameter in 'sliced_parameters' "
                         "should be the same when slice manner is even.")
    counts = [1 if axis < 0 else device_matrix[len(device_matrix) - 1 - axis] for axis in tensor_map]
    whole = np.empty([size * count for size, count in zip(slices[0].shape, counts)], slices[0].dtype)
    for rank, piece in enumerate(slices):
        whole[_slice_index(rank, piece.shape, device_matrix, tensor_map)] = piece
    return whole


def _split(name: str, whole: np.ndarray, layout, rank: int) -> np.ndarray:
    """Rank ``rank``'s slice of ``whole`` under ``layout``."""
    device_matrix, tensor_map = _layout_parts(name, layout)
    counts = [1 if axis < 0 else device_matrix[len(device_matrix) - 1 - axis] for axis in tensor_map]
    shape = tuple(size // count for size, count in zip(whole.shape, counts))
    return whole[_slice_index(rank, shape, device_matrix, tensor_map)].copy()


def merge_sliced_parameter(sliced_parameters: list, strategy: dict | None = None) -> Parameter:
    """The Parameter whose slices (one per rank, in rank order) are ``sliced_parameters``: concatenated along
    dimension 0 without ``strategy``, placed by the parameter's layout with it.

    Raises:
        TypeError: if ``sliced_parameters`` is not a list of Parameters.
        ValueError: if they differ in name, rank or shape beyond dimension 0, or do not fit the layout.
        KeyError: if ``strategy`` has no layout for the parameter.
    """
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"For 'merge_sliced_parameter', the 'sliced_parameters' should be list, but got "
                        f"{type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError("For 'merge_sliced_parameter', the 'sliced_parameters' should not be empty.")
    if strategy is not None and not isinstance(strategy, dict):
        raise TypeError(f"For 'merge_sliced_parameter', the 'strategy' should be dict, but got {type(strategy)}.")
    for index, parameter in enumerate(sliced_parameters):
        if not isinstance(parameter, Parameter):
            raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' should be 'Parameter', "
                            f"but got {type(parameter)} at index {index}.")
    first = sliced_parameters[0]
    name, shape = first.name, tuple(first.shape)
    for index, parameter in enumerate(sliced_parameters):
        if parameter.name != name or len(parameter.shape) != len(shape) or tuple(parameter.shape[1:]) != shape[1:]:
            raise ValueError("For 'merge_sliced_parameter', please make sure that the elements in 'slice_parameters'"
                             " have the same name, dimension length and shape except 0 axis. The name, dimension "
                             f"length, shape except 0 axis should be {name}, {len(shape)}, {shape[1:]}, but got "
                             f"name: {parameter.name}, dimension length: {len(parameter.shape)}, shape except 0 "
                             f"axis: {tuple(parameter.shape[1:])} at index {index}.")
    slices = [parameter.asnumpy() for parameter in sliced_parameters]
    if not strategy:
        data = np.concatenate(slices)
    else:
        if name not in strategy:
            raise KeyError(f"For 'merge_sliced_parameter', the parameter name {name} should be a key in the "
                           "'strategy'. Please check 'sliced_parameter' and 'strategy'.")
        data = _merged(name, slices, strategy[name])
    return Parameter(Tensor(data), name, first.requires_grad, first.layerwise_parallel)


def _checked_checkpoint_files(checkpoint_filenames) -> list[str]:
    if not isinstance(checkpoint_filenames, list):
        raise TypeError(f"For 'load_distributed_checkpoint', the type of 'checkpoint_filenames' should be list, "
                        f"but got {type(checkpoint_filenames)}.")
    for index, name in enumerate(checkpoint_filenames):
        if not isinstance(name, str) or not name.endswith(".ckpt") or not os.path.isfile(name) \
                or os.path.getsize(name) == 0:
            raise ValueError(f"For 'load_distributed_checkpoint', please check 'checkpoint_filenames', and make sure "
                             f"the {name} at index {index} is a valid checkpoint file, it must be a string ending "
                             f"with '.ckpt', and the checkpoint file it represents must be exist and not empty.")
    return checkpoint_filenames


def _predict_layouts(predict_strategy) -> dict | None:
    if predict_strategy is None or isinstance(predict_strategy, dict):
        return predict_strategy
    if isinstance(predict_strategy, str):
        return build_searched_strategy(predict_strategy)
    raise TypeError(f"For 'load_distributed_checkpoint', the type of 'predict_strategy' should be dict, str or "
                    f"None, but got {type(predict_strategy)}.")


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None, dec_mode="AES-GCM",
                                format="ckpt", unified_safetensors_dir=None, dst_safetensors_dir=None, rank_id=None,
                                output_format="safetensors", name_map=None, max_process_num=64,
                                return_param_dict=False):
    """Load the per-rank checkpoints of a distributed training into ``network``: each Parameter merged from its
    slices by the training strategy file, then (with ``predict_strategy``) split for this process's rank.

    Args:
        network (Cell): the network to load into.
        checkpoint_filenames (list[str]): the ``.ckpt`` files, in rank order.
        predict_strategy (Union[dict, str], optional): the layouts of the prediction (a dict of layouts or a
            strategy file); None loads whole Parameters. Default: ``None``.
        train_strategy_filename (str, optional): the training's strategy file; None takes
            ``AutoParallel``'s saved path or the context's ``strategy_ckpt_load_file``. Default: ``None``.
        strict_load (bool): as ``load_param_into_net``. Default: ``False``.
        dec_key, dec_mode: as ``load_checkpoint``.
        format (str): ``"ckpt"``; ``"safetensors"`` (unified directories) is not implemented in npspore.
        unified_safetensors_dir, dst_safetensors_dir, rank_id, output_format, name_map, max_process_num,
            return_param_dict: the ``"safetensors"`` format's arguments.

    Returns:
        bool, True (also when the strategy file holds no layouts, which loads nothing, as in MindSpore).

    Raises:
        TypeError: if ``network`` is not a Cell or an argument has the wrong type.
        ValueError: if a file is missing or empty, the number of files is not the training's device count, a
            layout is one npspore does not merge, or ``format`` is ``"safetensors"``.
    """
    if format not in ("safetensors", "ckpt") or output_format not in ("safetensors", "ckpt"):
        raise ValueError("For 'load_distributed_checkpoint', 'format' and 'output_format' must be 'ckpt' or "
                         f"'safetensors', but got {format}.")
    if format == "safetensors":
        raise ValueError("For 'load_distributed_checkpoint', the 'safetensors' format (unified safetensors "
                         "directories) is not implemented in npspore; use format='ckpt'.")
    check_isinstance("network", network, Cell)
    checkpoint_filenames = _checked_checkpoint_files(checkpoint_filenames)
    predict = _predict_layouts(predict_strategy)
    if train_strategy_filename is None:   # an AutoParallel's saved path, else the context's
        train_strategy_filename = getattr(network, "_save_strategy_file_path", None)
        if train_strategy_filename is None:
            train_strategy_filename = _parallel.recorded_value("strategy_ckpt_load_file", "")
    train = build_searched_strategy(train_strategy_filename)
    if not train:
        return True
    first_matrix = list(next(iter(train.values())).dev_matrix[0].dim)
    if int(np.prod(first_matrix)) != len(checkpoint_filenames):
        raise ValueError("For 'Load_distributed_checkpoint', the length of 'checkpoint_filenames' should be equal to "
                         "the device count of training process. But got the length of 'checkpoint_filenames' is "
                         f"{len(checkpoint_filenames)} and the device count is {int(np.prod(first_matrix))}.")
    rank_checkpoints = [load_checkpoint(os.path.abspath(name), dec_key=dec_key, dec_mode=dec_mode)
                        for name in checkpoint_filenames]
    loaded, not_in_strategy, not_in_checkpoint = {}, [], []
    for _, param in network.parameters_and_names():
        if param.name not in train:
            not_in_strategy.append(param.name)
            continue
        if param.name not in rank_checkpoints[0]:
            not_in_checkpoint.append(param.name)
            continue
        whole = _merged(param.name, [checkpoint[param.name].asnumpy() for checkpoint in rank_checkpoints],
                        train[param.name])
        if predict and param.name in predict:
            whole = _split(param.name, whole, predict[param.name], get_rank())
        loaded[param.name] = Parameter(Tensor(whole), param.name)
    if not_in_strategy:
        mindspore_log().warning(f"For 'load_distributed_checkpoint', {not_in_strategy} parameters in network are not in the "
                     "slice strategy, you can check whether 'predict_strategy' or 'train_strategy_filename' is correct.")
    if not_in_checkpoint:
        mindspore_log().warning(f"For 'load_distributed_checkpoint', {not_in_checkpoint} parameters in network and slice "
                     "strategy but not in the checkpoint file, please check whether 'checkpoint_filenames' is correct.")
    load_param_into_net(network, loaded, strict_load=strict_load)
    return True


def _rank_checkpoints(src_checkpoints_dir: str) -> dict[int, str]:
    """``{rank: the last (sorted) .ckpt file of src_checkpoints_dir/rank_<rank>/}``."""
    found = {}
    for folder in glob.glob(os.path.join(src_checkpoints_dir, "rank_[0-9]*")):
        rank = folder.split("rank_")[-1]
        if os.path.isdir(folder) and rank.isdigit():
            files = sorted(path for path in glob.glob(os.path.join(folder, "*.ckpt")) if os.path.isfile(path))
            if files:
                found[int(rank)] = files[-1]
    return found


def _device_count(layouts: dict | None) -> int:
    if not layouts:
        return 1
    if any("-" in name and name.split("-")[0].isdigit() for name in layouts):
        raise ValueError("Transforming the checkpoints of a pipeline-parallel strategy (merged stages) is not "
                         "implemented in npspore.")
    return int(np.prod(list(next(iter(layouts.values())).dev_matrix[0].dim)))


def transform_checkpoints(src_checkpoints_dir: str, dst_checkpoints_dir: str, ckpt_prefix: str,
                          src_strategy_file: str | None = None, dst_strategy_file: str | None = None,
                          process_num: int = 1, output_format: str = "ckpt") -> None:
    """Re-slice the checkpoints ``src_checkpoints_dir/rank_<i>/*.ckpt`` (sliced by ``src_strategy_file``; None:
    one unsplit rank) for ``dst_strategy_file`` (None: one unsplit rank), writing
    ``dst_checkpoints_dir/rank_<j>/<ckpt_prefix><j>.ckpt``. A Parameter without a layout is taken whole from
    rank 0. ``process_num`` is accepted (npspore converts in this process).

    Raises:
        ValueError: if the source folder (or path) has no ``rank_<i>/*.ckpt`` files, a needed rank's file is missing, a strategy's
            folder does not exist, a layout is one npspore does not merge, ``output_format`` is not ``"ckpt"``,
            or a strategy has several pipeline stages.
        TypeError: if ``ckpt_prefix`` is not a str.
    """
    sources = _rank_checkpoints(src_checkpoints_dir)
    if not sources:
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' can not be empty.")
    if output_format != "ckpt":
        raise ValueError("For 'transform_checkpoints', 'output_format' can not be 'safetensors' when "
                         "'src_checkpoints_dir' only contains ckpt file.")
    if not isinstance(ckpt_prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    for strategy_file in (src_strategy_file, dst_strategy_file):
        if strategy_file and os.path.dirname(strategy_file) and not os.path.exists(os.path.dirname(strategy_file)):
            raise ValueError(f"The director of {'src' if strategy_file is src_strategy_file else 'dst'}"
                             f"_strategy_file: {os.path.dirname(strategy_file)} is not exists.")
    src_layouts, dst_layouts = build_searched_strategy(src_strategy_file), build_searched_strategy(dst_strategy_file)
    src_count, dst_count = _device_count(src_layouts), _device_count(dst_layouts)
    for rank in range(src_count):
        if rank not in sources:
            raise ValueError(f"The checkpoint file of rank{rank} is needed for converting rank0's checkpoint, "
                             "but it is missing.")
    slices = [load_checkpoint(sources[rank]) for rank in range(src_count)]
    whole = {}
    for name, parameter in slices[0].items():
        if src_layouts and name in src_layouts:
            whole[name] = _merged(name, [checkpoint[name].asnumpy() for checkpoint in slices], src_layouts[name])
        else:
            whole[name] = parameter.asnumpy()
    os.makedirs(dst_checkpoints_dir, exist_ok=True)
    for rank in range(dst_count):
        entries = [{"name": name, "data": Tensor(_split(name, data, dst_layouts[name], rank)
                                                 if dst_layouts and name in dst_layouts else data)}
                   for name, data in whole.items()]
        folder = os.path.join(dst_checkpoints_dir, f"rank_{rank}")
        os.makedirs(folder, exist_ok=True)
        save_checkpoint(entries, os.path.join(folder, f"{ckpt_prefix}{rank}.ckpt"))


def sync_pipeline_shared_parameters(net) -> None:
    """Send the Parameters pipeline stages share (an embedding and the output layer's weight) from the stage
    that updates them to the others. On one process every stage uses the one Parameter object, so there is
    nothing to send; with fewer than two stages MindSpore too returns at once.

    Raises:
        TypeError: if ``net`` is not a Cell.
    """
    if not isinstance(net, Cell):
        raise TypeError(f"For 'sync_pipeline_shared_parameters', the argument 'net' must be a Cell, but got "
                        f"{type(net)}.")
