"""Protobuf files a user hands to npspore (``.ckpt`` checkpoints, ``.mindir`` graphs), described and read
safely: the one reader both formats share.

A format's messages are described here, not generated: a format module builds a
``FileDescriptorProto`` from the field names and numbers of MindSpore's ``.proto`` file with
:func:`add_field` and gets its message classes from :func:`message_classes`, in a private
descriptor pool, so they can never clash with another copy of the same ``.proto`` in the process.

:func:`parse_file` reads the bytes through ``safefile.read_regular_file`` (a regular file only,
memory bounded by its size, at most ``limit`` bytes) and parses them with protobuf, whose parser
bounds the nesting depth (100) and checks every length against the bytes left; a damaged file is a
:class:`~npspore.core.safefile.FileReadError` naming it. :func:`checked_shape` bounds the shapes a
file declares before anything is allocated for them, and :func:`elements_of` reads a tensor's bytes
only when they hold whole elements.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .safefile import FileReadError, read_regular_file

__all__ = ["file_descriptor_proto", "field_types", "add_field", "message_classes", "decode_error", "parse_file",
           "parse_bytes", "checked_shape", "elements_of", "MAX_DIMS", "PROTOBUF_LIMIT"]

MAX_DIMS = 32            # the most NumPy 1.26 holds
_MAX_ELEMENTS = 2 ** 59  # no array of 8-byte elements is larger than 2**62 bytes
PROTOBUF_LIMIT = 2 ** 31 - 1   # protobuf parses no message larger than 2 GiB

_INSTALL_HINT = ("Reading and writing {what}s needs the 'protobuf' package: "
                 "pip install protobuf (or pip install 'npspore[checkpoint]').")


def _protobuf(what: str):
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message, message_factory
    except ImportError as error:
        raise ImportError(_INSTALL_HINT.format(what=what)) from error
    return descriptor_pb2, descriptor_pool, message, message_factory


def file_descriptor_proto(name: str, package: str = "", what: str = "file"):
    """An empty ``FileDescriptorProto`` (proto2) named ``name`` to describe a format's messages in."""
    descriptor_pb2 = _protobuf(what)[0]
    return descriptor_pb2.FileDescriptorProto(name=name, package=package, syntax="proto2")


def field_types(what: str = "file"):
    """protobuf's ``FieldDescriptorProto`` (its ``LABEL_*`` and ``TYPE_*`` constants)."""
    return _protobuf(what)[0].FieldDescriptorProto


def add_field(message_proto, name: str, number: int, label: int, type_: int, type_name: str | None = None,
              oneof_index: int | None = None, packed: bool = False) -> None:
    """Declare field ``name = number`` of ``message_proto`` (a ``DescriptorProto``); ``packed``: a repeated
    number field written packed."""
    field = message_proto.field.add(name=name, number=number, label=label, type=type_)
    if type_name is not None:
        field.type_name = type_name
    if oneof_index is not None:
        field.oneof_index = oneof_index
    if packed:
        field.options.packed = True


def message_classes(file_proto, names: Sequence[str], what: str = "file") -> tuple:
    """The message classes ``names`` (full names) of ``file_proto``, built in a private pool."""
    _, descriptor_pool, _, message_factory = _protobuf(what)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file_proto)
    classes = []
    for name in names:
        descriptor = pool.FindMessageTypeByName(name)
        if hasattr(message_factory, "GetMessageClass"):
            classes.append(message_factory.GetMessageClass(descriptor))
        else:
            classes.append(message_factory.MessageFactory(pool).GetPrototype(descriptor))
    return tuple(classes)


def decode_error():
    """protobuf's ``DecodeError`` (what parsing a damaged file raises)."""
    return _protobuf("file")[2].DecodeError


def parse_bytes(path: str, data, message_class, failure: str):
    """``data`` parsed as ``message_class``; a :class:`FileReadError` with ``failure`` when it cannot be."""
    message = message_class()
    try:
        message.ParseFromString(data)
    except (decode_error(), RecursionError, ValueError):
        raise FileReadError(path, failure) from None
    return message


def parse_file(path: str, message_class, what: str, failure: str, limit: int = PROTOBUF_LIMIT):
    """The regular file ``path`` parsed as one ``message_class``.

    Args:
        path (str): the file.
        message_class: a class of :func:`message_classes`.
        what (str): what the file should be, for messages (``"MindIR file"``).
        failure (str): the message of the error for content that does not parse.
        limit (int): the largest file accepted, in bytes.

    Raises:
        FileReadError: if the file is not a regular file, is larger than ``limit``, or does not parse.
    """
    data = read_regular_file(path, what, limit=limit)
    return parse_bytes(path, data, message_class, failure)


def checked_shape(shape: Sequence[int], count: int | None = None) -> bool:
    """Whether ``shape`` is a shape NumPy can hold (at most 32 non-negative dims whose product is
    bounded) and, when ``count`` is given, holds exactly ``count`` elements.

    The product is of Python ints, so no declared dimension wraps around.
    """
    if len(shape) > MAX_DIMS or min(shape, default=0) < 0:
        return False
    elements = math.prod(shape)
    if count is not None and elements != count:
        return False
    return math.prod(max(dim, 1) for dim in shape) <= _MAX_ELEMENTS


def elements_of(data, dtype) -> np.ndarray | None:
    """The little-endian elements of ``dtype`` that the bytes ``data`` hold (read-only, no copy), or
    ``None`` when their length is not a whole number of elements."""
    dtype = np.dtype(dtype)
    if len(data) % dtype.itemsize:
        return None
    return np.frombuffer(data, dtype.newbyteorder("<"))
