"""MindRecord, MindSpore's data set file format, as ``mindspore.mindrecord``: ``FileWriter`` writes it,
``FileReader`` and ``dataset.MindDataset`` read it, byte-compatible with MindSpore 2.10 both ways.

Rows are msgpack-encoded as in MindSpore: install ``npspore[mindrecord]`` (msgpack) to use it.
"""
from .errors import *  # noqa: F401,F403
from .filereader import FileReader
from .filewriter import FileWriter
from . import errors as _errors
from ..missing_names import module_getattr as _module_getattr

__all__ = ["FileWriter", "FileReader", *_errors.__all__]

# MindSpore 2.10 names of the 2.10 usage list's tail
from .cifar10_to_mr import Cifar10ToMR  # noqa: E402
__all__ += ["Cifar10ToMR"]

__getattr__ = _module_getattr("mindspore.mindrecord", globals())
