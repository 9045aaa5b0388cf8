"""``npspore export``: write a Cell's forward computation for the given inputs as an ONNX or MindIR model.

The TARGET and its ``--input`` SPECs are read as ``npspore show`` reads them; the file is written by
``npspore.export`` (``mindspore.export``), in inference mode, with its file naming (``-o net`` writes
``net.onnx``). The path written is printed.
"""
from __future__ import annotations

from ..export import export, model_path
from .target import InputError, Target

FORMATS = {"onnx": "ONNX", "mindir": "MINDIR"}


def run(target: Target, args, options) -> int:
    """Export the target to ``options.output`` in ``options.format``; returns the exit status."""
    if not target.is_cell:
        raise InputError("npspore export needs a Cell target (an nn.Cell class, factory or instance)")
    file_format = FORMATS[options.format]
    export(target.obj, *args, file_name=options.output, file_format=file_format)
    print(model_path(options.output, file_format))
    return 0
