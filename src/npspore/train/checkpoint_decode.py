"""Reading checkpoint files into arrays: MindSpore's ``.ckpt`` and ``.safetensors``, refusing any
malformed file with a :class:`~npspore.core.safefile.FileReadError` that names it.

The bytes come from ``core.safefile.read_regular_file`` (a regular file only, memory bounded by its
size). A ``.ckpt`` file is parsed once (protobuf limits the nesting depth) and its entries are
decoded and handed out one at a time, so besides the parsed message only one Parameter's data is
held at once. Each slice is decoded by its own ``tensor_type`` and the slices of one name are
joined with NumPy's promotion; a declared shape must match the elements the slices hold before
anything is allocated.

``BFloat16`` data (``.ckpt`` type ``"BFloat16"``, safetensors ``BF16``) loads as float32: NumPy has
no bfloat16, and every bfloat16 value is exactly a float32 value (its upper 16 bits), so nothing is
lost; such a Parameter is Float32 from then on and saves as Float32.
"""
import binascii
import json
from types import ModuleType
from typing import Callable, Iterable, Iterator, Tuple, Union

import numpy as np

from ..core.logs import warn
from ..core.protofile import checked_shape, elements_of, parse_bytes
from ..core.safefile import FileReadError, read_regular_file
from .checkpoint_proto import checkpoint_message

__all__ = ["CRC_MARK", "STRING_TYPE", "read_ckpt", "read_safetensors", "safetensors_module", "safetensors_crc"]

_LOG = "npspore.checkpoint"
_WHAT = "checkpoint file"
# A .ckpt file may end with b"crc_num" and a 10-byte big-endian CRC-32 of everything before it.
CRC_MARK = b"crc_num"
STRING_TYPE = "str"
_BFLOAT16 = "BFloat16"
_CKPT_TYPE_TO_NUMPY = {
    "Int8": np.int8, "UInt8": np.uint8, "Int16": np.int16, "UInt16": np.uint16, "Int32": np.int32,
    "UInt32": np.uint32, "Int64": np.int64, "UInt64": np.uint64, "Float16": np.float16,
    "Float32": np.float32, "Float64": np.float64, "Bool": np.uint8,  # Bool: any non-zero byte is True
}
_SAFETENSORS_TO_CKPT_TYPE = {
    "BOOL": "Bool", "I8": "Int8", "U8": "UInt8", "I16": "Int16", "U16": "UInt16", "I32": "Int32",
    "U32": "UInt32", "I64": "Int64", "U64": "UInt64", "F16": "Float16", "F32": "Float32", "F64": "Float64",
    "BF16": _BFLOAT16,
}


def _damaged(path, name, reason):
    return FileReadError(path, f"Failed to read the checkpoint file {path}: the entry '{name}' {reason}; "
                               "the file is damaged or not a MindSpore checkpoint.")


def safetensors_module() -> ModuleType:
    """The ``safetensors`` package with its NumPy API loaded (ImportError with the install hint)."""
    try:
        import safetensors
        import safetensors.numpy
    except ImportError as error:
        raise ImportError("Reading and writing .safetensors files needs the 'safetensors' package: "
                          "pip install safetensors (or pip install 'npspore[checkpoint]').") from error
    return safetensors


def safetensors_crc(named_bytes: Iterable[Tuple[str, bytes]]) -> int:
    """MindSpore's CRC-32 of a safetensors file: over each name and its data bytes, in name order."""
    crc = 0
    for name, data in sorted(named_bytes):
        crc = binascii.crc32(data, binascii.crc32(name.encode("utf-8"), crc))
    return crc


# --------------------------------------------------------------------------------------- .ckpt

def read_ckpt(path: str, crc_check: bool,
              wanted: Callable[[str], bool]) -> Iterator[Tuple[str, Union[np.ndarray, str]]]:
    """Yield ``(name, ndarray or str)`` for the entries of a .ckpt file that ``wanted(name)`` accepts.

    Entries are decoded one at a time, so a caller that keeps only its own objects of them holds
    no decoded data but the entry at hand.

    Raises:
        FileReadError: if the file is not a regular file, cannot be parsed, holds no entries, has an
            entry whose slices disagree with its declared shape or type, or fails its CRC check.
    """
    content = read_regular_file(path, _WHAT)
    if content[-17:-10] == CRC_MARK:
        content, stored_crc = memoryview(content)[:-17], int.from_bytes(content[-10:], byteorder="big")
        if crc_check and binascii.crc32(content) != stored_crc:
            raise FileReadError(path, f"For 'load_checkpoint', the crc check has failed for the checkpoint file "
                                      f"{path}; the file is damaged.")
    elif crc_check:
        warn(_LOG, "For 'load_checkpoint', the ckpt file %s does not contain the crc code.", path)
    checkpoint = parse_bytes(path, content, checkpoint_message(),
                             f"Failed to read the checkpoint file {path}. The file may be truncated or not a "
                             "MindSpore checkpoint, and the content cannot be parsed.")
    del content  # the parsed message holds its own copy
    if not checkpoint.value:
        raise FileReadError(path, f"Failed to read the checkpoint file {path}: it holds no parameters; it is empty "
                                  "or not a MindSpore checkpoint.")
    name, parts = None, []
    for value in checkpoint.value:
        if parts and value.tag != name:
            yield _entry(path, name, parts)
            parts = []
        name = value.tag
        if not value.HasField("tensor"):
            raise _damaged(path, name, "holds no tensor (a MapParameter, which npspore does not support)")
        if wanted(name):
            tensor = value.tensor
            parts.append((tensor.tensor_type, tuple(tensor.dims), tensor.tensor_content))
    if parts:
        yield _entry(path, name, parts)


def _entry(path, name, parts):
    """``(name, value)`` of the slices of one name: its consecutive ``(type, dims, content)``."""
    types = {type_name for type_name, _, _ in parts}
    if STRING_TYPE in types:
        if len(types) > 1:
            raise _damaged(path, name, "mixes str and tensor slices")
        return name, _decoded_string(path, name, b"".join(content for _, _, content in parts))
    dims = parts[0][1]
    if len(parts) > 1 and any(part_dims != dims for _, part_dims, _ in parts):
        raise _damaged(path, name, "has slices declaring different shapes")
    pieces = [_slice_array(path, name, type_name, content) for type_name, _, content in parts]
    array = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
    shape = () if dims == (0,) and array.size == 1 else dims  # MindSpore writes a scalar's dims as [0]
    _check_shape(path, name, shape, array.size)
    return name, array.reshape(shape)


def _decoded_string(path, name, content):
    try:
        return content.decode("utf-32-le").rstrip("\0")  # as NumPy's str of the saved 'U' array
    except UnicodeDecodeError:
        raise _damaged(path, name, "is a str that is not valid UTF-32") from None


def _check_shape(path, name, shape, count):
    if not checked_shape(shape, count):
        raise _damaged(path, name, f"declares the shape {list(shape)} but holds {count} elements")


def _slice_array(path, name, type_name, content):
    """The elements of one slice, decoded by the slice's own type (read-only, no copy)."""
    if type_name == _BFLOAT16:
        np_type = np.uint16
    else:
        np_type = _CKPT_TYPE_TO_NUMPY.get(type_name)
    if np_type is None:
        raise FileReadError(path, f"Failed to read the checkpoint file {path}: the entry '{name}' has the tensor "
                                  f"type '{type_name}', which npspore does not support.")
    array = elements_of(content, np_type)
    if array is None:
        raise _damaged(path, name, f"of type {type_name} holds {len(content)} bytes")
    if type_name == _BFLOAT16:
        return _bfloat16_as_float32(array)
    return array != 0 if type_name == "Bool" else array


def _bfloat16_as_float32(bits):
    """float32 values of bfloat16 bit patterns (exact: a bfloat16 is a float32's upper 16 bits)."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


# --------------------------------------------------------------------------------- .safetensors

def read_safetensors(path: str, crc_check: bool,
                     wanted: Callable[[str], bool]) -> Iterator[Tuple[str, np.ndarray]]:
    """Yield ``(name, ndarray)`` for the tensors of a .safetensors file that ``wanted(name)`` accepts, by name.

    Raises:
        FileReadError: if the file is not a regular file or not a valid safetensors file, holds a
            dtype npspore does not read, or fails its CRC check.
    """
    safetensors = safetensors_module()
    content = read_regular_file(path, _WHAT)
    try:
        tensors = safetensors.deserialize(content)
        metadata = json.loads(content[8:8 + int.from_bytes(content[:8], "little")]).get("__metadata__") or {}
    except (safetensors.SafetensorError, ValueError, RecursionError, AttributeError) as error:
        raise FileReadError(path, f"Failed to read the checkpoint file {path}. The file may be truncated or not a "
                                  f"safetensors file ({error}).") from None
    del content
    if crc_check and "crc_num" in metadata:
        if str(safetensors_crc((name, info["data"]) for name, info in tensors)) != str(metadata["crc_num"]):
            raise FileReadError(path, f"For 'load_checkpoint', the crc check has failed for the checkpoint file "
                                      f"{path}; the file is damaged.")
    tensors.sort(key=lambda item: item[0], reverse=True)
    while tensors:  # popped one by one: the data of a tensor handed out is dropped here
        name, info = tensors.pop()
        if wanted(name):
            type_name = _SAFETENSORS_TO_CKPT_TYPE.get(info["dtype"], info["dtype"])
            array = _slice_array(path, name, type_name, info["data"])
            shape = tuple(info["shape"])
            _check_shape(path, name, shape, array.size)
            yield name, array.reshape(shape)
