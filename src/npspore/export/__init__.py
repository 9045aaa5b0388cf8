"""Exporting a Cell's forward computation to a file another runtime loads: ONNX and MindIR.

``export`` (reached as ``mindspore.export`` and ``mindspore.train.serialization.export``) compiles
the Cell's forward for the given inputs in inference mode, stops the pipeline before the steps that
only serve NumPy execution (``compiler.pipeline.export_program``), turns the typed IR into the
backend-neutral :class:`~npspore.export.graph.ExportGraph` and hands it to the writer of the format
(:data:`WRITERS`: one entry per format, the file suffix MindSpore appends and the function that writes
the file). The ``onnx`` package is imported only when an ONNX file is written (``pip install
'npspore[export]'``).
"""
from __future__ import annotations

import os
import re
import stat
from typing import Any, Callable

from ..common.tensor import Tensor
from ..core.safefile import write_durably
from ..jit import forward_request
from ..nn.cell import Cell
from .. import compiler
from .graph import ExportGraph, build_graph

__all__ = ["export", "export_graph", "WRITERS"]

_FORMATS = ["AIR", "ONNX", "MINDIR"]
_FILE_NAME = r"^[0-9a-zA-Z@\_\-\.\:\/\\]+$"   # MindSpore's check_file_name_by_regular


def _write_onnx(graph: ExportGraph, file_name: str) -> None:
    from .onnx_writer import onnx_bytes   # imports the onnx package, an optional extra
    content = onnx_bytes(graph)
    write_durably(file_name, lambda file: file.write(content))


def _write_mindir(graph: ExportGraph, file_name: str) -> None:
    from .mindir_writer import mindir_bytes   # imports protobuf
    content = mindir_bytes(graph)
    write_durably(file_name, lambda file: file.write(content))


# format -> (the suffix MindSpore appends to a file name without it, writer(graph, file_name))
WRITERS: dict[str, tuple[str, Callable[[ExportGraph, str], None]]] = {
    "ONNX": (".onnx", _write_onnx),
    "MINDIR": (".mindir", _write_mindir),
}


def export(net: Cell, *inputs: Any, file_name: str, file_format: str, **kwargs: Any) -> None:
    """Export the network's forward computation for ``inputs`` to a model file, as MindSpore does.

    The Cell runs in inference mode for the export (``set_train(False)``: BatchNorm reads its moving
    statistics, Dropout is the identity) and gets its training flag back afterwards. The Parameters
    become the model's initializers under their names (``conv1.weight``); the model's inputs are named
    after ``construct``'s parameters. Dims made dynamic with ``net.set_inputs`` (``None``) are symbolic
    dims of the model. A tensor ``if``, ``while`` or ``for ... in range`` becomes the format's
    conditional and loop.

    Args:
        net (Cell): the network.
        inputs (Union[Tensor, tuple, list, Number, bool]): the arguments of ``net``'s ``construct``.
        file_name (str): the file; ``".onnx"`` (``".mindir"``) is appended when it does not end with it.
            Missing directories are created (mode 0700); the file is written atomically and made
            read-only (0400), as MindSpore leaves it.
        file_format (str): ``"ONNX"`` or ``"MINDIR"`` (``"AIR"`` needs MindSpore's Ascend backend).
        kwargs (dict): ``enc_key``/``enc_mode`` (encryption) and ``dataset`` are not supported;
            ``custom_func`` is accepted for MINDIR only, as in MindSpore.

    Raises:
        TypeError: if ``file_name`` is not a string.
        ValueError: if ``file_format`` is not one of ``'AIR'``, ``'ONNX'``, ``'MINDIR'``; for ``'AIR'``
            (Ascend only); if ``file_name`` has characters MindSpore refuses; if ``net`` is not a Cell;
            if an op of the program has no form in the format (the message names the op and the user's
            source line; ``npspore.export.graph.ExportError``).
        NotImplementedError: for ``enc_key``, ``dataset`` or an obfuscation option.
        ImportError: for ONNX, if the ``onnx`` package is not installed.

    Examples:
        >>> import numpy as np
        >>> import npspore as ms
        >>> net = ms.nn.Dense(3, 2)
        >>> ms.export(net, ms.Tensor(np.ones((1, 3), np.float32)), file_name="dense", file_format="ONNX")
    """
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    if file_format not in _FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {_FORMATS}, but got {file_format}.")
    _check_file_name(file_name)
    for option in ("enc_key", "dataset"):
        if option in kwargs:
            raise NotImplementedError(f"For 'export', npspore does not support the option '{option}'.")
    if kwargs.get("custom_func") is not None and file_format != "MINDIR":
        raise ValueError(f"Currently only support custom_func for MindIR format, but got {file_format} format.")
    if file_format == "AIR":
        raise ValueError("Only support export file in 'AIR' format with Ascend backend.")
    if not isinstance(net, Cell):
        raise ValueError(f"Export {file_format} format model only support nn.Cell object, but got {type(net)}.")
    suffix, write = WRITERS[file_format]
    file_name = os.path.realpath(file_name)
    if not file_name.endswith(suffix):
        file_name += suffix
    graph = export_graph(net, *inputs)
    directory = os.path.dirname(file_name)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    write(graph, file_name)
    os.chmod(file_name, stat.S_IRUSR)


def _check_file_name(file_name) -> None:
    if not isinstance(file_name, str):
        raise TypeError(f"The '{file_name}' must be string, but got {type(file_name)}.")
    if file_name.endswith(("\\", "/")):
        raise ValueError(f"The '{file_name}' cannot be a directory path.")
    if re.match(_FILE_NAME, file_name) is None:
        raise ValueError(f"The '{file_name}' is illegal, it must be match regular '{_FILE_NAME}'.")


def export_graph(net: Cell, *inputs: Any) -> ExportGraph:
    """The :class:`~npspore.export.graph.ExportGraph` of ``net``'s forward for ``inputs``, in inference mode.

    Raises:
        ValueError: a compile error of the program (located at the user's line), or an
            ``ExportError`` for a statement no export holds.
    """
    training = net.training
    net.set_train(False)
    try:
        program = compiler.pipeline.export_program(forward_request(net, inputs))
    finally:
        net.set_train(training)
    return build_graph(program, _input_names(net, inputs, program.leaf_slices),
                       [_captured_name(obj, path) for obj, path in zip(program.captured, program.capture_paths)])


def _input_names(net: Cell, inputs: tuple, leaf_slices: list) -> list:
    """``construct``'s parameter name for each tensor leaf (``x``; ``x_0``, ``x_1`` for a tuple's leaves)."""
    code = net.construct.__code__
    params = list(code.co_varnames[1:code.co_argcount])
    names = []
    for position, leaves in enumerate(leaf_slices):
        base = params[position] if position < len(params) else f"input_{position}"
        count = leaves.stop - leaves.start
        names += [base] if count == 1 and isinstance(inputs[position], Tensor) else [
            f"{base}_{k}" for k in range(count)]
    return names


def _captured_name(obj, path) -> str:
    name = getattr(obj, "name", None)
    if isinstance(name, str) and name:
        return name
    return ".".join(str(p) for p in path) if path else "captured"
