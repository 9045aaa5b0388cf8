"""MindSpore's summary event files: records framed as ``[length: uint64 LE][masked CRC32C of the length]
[data][masked CRC32C of the data]`` (TensorFlow's record framing, which MindInsight reads); the CRC32C
comes from ``google-crc32c`` (``pip install 'npspore[summary]'``)."""
from __future__ import annotations

import struct

__all__ = ["frame", "records"]

_LENGTH = struct.Struct("<Q")
_CRC = struct.Struct("<I")
_MASK_DELTA = 0xA282EAD8


def _masked_crc(data: bytes) -> int:
    try:
        import google_crc32c
    except ImportError:
        raise ImportError("Summary files need google-crc32c: pip install 'npspore[summary]' "
                          "(or pip install google-crc32c).") from None
    crc = google_crc32c.value(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF


def frame(data: bytes) -> bytes:
    """One record of ``data``, framed."""
    length = _LENGTH.pack(len(data))
    return length + _CRC.pack(_masked_crc(length)) + data + _CRC.pack(_masked_crc(data))


def records(content: bytes, where: str) -> list[bytes]:
    """The data of each record of an event file's ``content``, checked.

    Raises:
        ValueError: naming ``where``, if a record is cut or a checksum does not match.
    """
    found, offset = [], 0
    while offset < len(content):
        if offset + _LENGTH.size + _CRC.size > len(content):
            raise ValueError(f"Invalid summary file {where}: a record header is cut at byte {offset}.")
        length = content[offset:offset + _LENGTH.size]
        (size,) = _LENGTH.unpack(length)
        start = offset + _LENGTH.size + _CRC.size
        end = start + size
        if end + _CRC.size > len(content):
            raise ValueError(f"Invalid summary file {where}: a record of {size} bytes at byte {offset} is cut.")
        data = content[start:end]
        if (_CRC.unpack_from(content, offset + _LENGTH.size)[0] != _masked_crc(length)
                or _CRC.unpack_from(content, end)[0] != _masked_crc(data)):
            raise ValueError(f"Invalid summary file {where}: the checksum of the record at byte {offset} does not "
                             f"match.")
        found.append(data)
        offset = end + _CRC.size
    return found
