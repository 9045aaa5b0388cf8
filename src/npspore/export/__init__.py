"""Exporting a Cell's forward computation to a file another runtime loads: ONNX and MindIR.

``export`` (reached as ``mindspore.export`` and ``mindspore.train.serialization.export``) compiles
the Cell's forward for the given inputs in inference mode, stops the pipeline before the steps that
only serve NumPy execution (``compiler.pipeline.export_program``), turns the typed IR into the
backend-neutral :class:`~npspore.export.graph.ExportGraph` and hands it to the writer of the format
(:data:`WRITERS`: one entry per format, the file suffix MindSpore appends and the function that writes
the file: ``onnx_writer``, ``mindir_writer``). The ``onnx`` package is imported only when an ONNX file
is written (``pip install 'npspore[export]'``).
"""
from __future__ import annotations

import os
import re
import stat
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

from ..core.lazy import submodule
from ..core.safefile import write_durably
from ..nn.cell import Cell

if TYPE_CHECKING:   # the graph and the writers load on first use: importing npspore loads no IR
    from .graph import ExportGraph

__all__ = ["export", "check_file_name", "check_proto_size", "model_path", "write_file", "WRITERS"]

_FORMATS = ["AIR", "ONNX", "MINDIR"]
_FILE_NAME = r"^[0-9a-zA-Z@\_\-\.\:\/\\]+$"   # MindSpore's check_file_name_by_regular


def __getattr__(name: str) -> ModuleType:
    """Import the submodule ``name`` on first use (``graph``; ``onnx_writer`` imports ``onnx``)."""
    module = submodule(__name__, name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return module


_PROTO_LIMIT_KB = 1024 * 1024 * 2   # protobuf's 2 GB limit on one message (MindSpore's PROTO_LIMIT_SIZE)


def check_proto_size(graph: "ExportGraph") -> None:
    """Raise MindSpore's error when the Parameters exceed protobuf's 2 GB (one ONNX message holds them).

    Raises:
        RuntimeError: ``Export onnx model failed. Network size is: ...G, it exceeded the protobuf: 2.0G limit.``
    """
    size_kb = sum(init.array.nbytes for init in graph.initializers) / 1024
    if size_kb > _PROTO_LIMIT_KB:
        raise RuntimeError(f"Export onnx model failed. Network size is: {size_kb / 1024 / 1024}G, it exceeded the "
                           f"protobuf: {_PROTO_LIMIT_KB / 1024 / 1024}G limit.")


def write_file(file_name: str, content: bytes) -> None:
    """Write ``content`` to ``file_name`` atomically and durably (``core.safefile.write_durably``)."""
    def write(file) -> None:
        file.write(content)

    write_durably(file_name, write)


def _write_onnx(graph: "ExportGraph", file_name: str) -> None:
    check_proto_size(graph)
    try:
        writer = __getattr__("onnx_writer")
    except ImportError as error:
        raise ImportError("For 'export', file_format 'ONNX' needs the onnx package: pip install 'npspore[export]'") \
            from error
    write_file(file_name, writer.onnx_bytes(graph))


def _write_mindir(graph: "ExportGraph", file_name: str) -> None:
    write_file(file_name, __getattr__("mindir_writer").mindir_bytes(graph))


# format -> (the suffix MindSpore appends to a file name without it, writer(graph, file_name))
WRITERS: dict[str, tuple[str, Callable[["ExportGraph", str], None]]] = {
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
        RuntimeError: for ONNX, if the Parameters take more than protobuf's 2 GB.
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
    check_file_name(file_name)
    for option in ("enc_key", "dataset"):
        if option in kwargs:
            raise NotImplementedError(f"For 'export', npspore does not support the option '{option}'.")
    if kwargs.get("custom_func") is not None and file_format != "MINDIR":
        raise ValueError(f"Currently only support custom_func for MindIR format, but got {file_format} format.")
    if file_format == "AIR":
        raise ValueError("Only support export file in 'AIR' format with Ascend backend.")
    if not isinstance(net, Cell):
        raise ValueError(f"Export {file_format} format model only support nn.Cell object, but got {type(net)}.")
    file_name = model_path(file_name, file_format)
    graph = __getattr__("graph").export_graph(net, *inputs)
    directory = os.path.dirname(file_name)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    WRITERS[file_format][1](graph, file_name)
    os.chmod(file_name, stat.S_IRUSR)


def model_path(file_name: str, file_format: str) -> str:
    """The file :func:`export` writes: ``file_name`` made absolute (``os.path.realpath``, as MindSpore
    does), with the format's suffix (``.onnx``, ``.mindir``) appended unless it already ends with it."""
    suffix = WRITERS[file_format][0]
    path = os.path.realpath(file_name)
    return path if path.endswith(suffix) else path + suffix


def check_file_name(file_name) -> None:
    """MindSpore's check of an export's ``file_name`` (``Validator.check_file_name_by_regular``).

    Raises:
        TypeError: if it is not a string.
        ValueError: if it ends with a path separator or has characters other than letters, digits and
            ``@_-.:/\\``.
    """
    if not isinstance(file_name, str):
        raise TypeError(f"The '{file_name}' must be string, but got {type(file_name)}.")
    if file_name.endswith(("\\", "/")):
        raise ValueError(f"The '{file_name}' cannot be a directory path.")
    if re.match(_FILE_NAME, file_name) is None:
        raise ValueError(f"The '{file_name}' is illegal, it must be match regular '{_FILE_NAME}'.")
