"""TensorFlow's record framing, ``[length: uint64 LE][masked CRC32C of the length][data][masked CRC32C of
the data]``: MindSpore's summary event files (which MindInsight reads) and TFRecord files
(``dataset.TFRecordDataset``). The CRC32C comes from ``google-crc32c`` (``pip install 'npspore[summary]'``
or ``'npspore[tfrecord]'``)."""
from __future__ import annotations

import struct

__all__ = ["frame", "records", "data_size", "checked_data", "HEADER_SIZE", "FOOTER_SIZE"]

_LENGTH = struct.Struct("<Q")
_CRC = struct.Struct("<I")
_MASK_DELTA = 0xA282EAD8


def _masked_crc(data: bytes) -> int:
    try:
        import google_crc32c
    except ImportError:
        raise ImportError("Summary and TFRecord files need google-crc32c: pip install 'npspore[summary]' or "
                          "'npspore[tfrecord]' (or pip install google-crc32c).") from None
    crc = google_crc32c.value(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF


def frame(data: bytes) -> bytes:
    """One record of ``data``, framed."""
    length = _LENGTH.pack(len(data))
    return length + _CRC.pack(_masked_crc(length)) + data + _CRC.pack(_masked_crc(data))


HEADER_SIZE = _LENGTH.size + _CRC.size
FOOTER_SIZE = _CRC.size


def _mismatch(where: str, offset: int, kind: str) -> ValueError:
    return ValueError(f"Invalid {kind} {where}: the checksum of the record at byte {offset} does not match.")


def data_size(header: bytes, where: str, offset: int, kind: str) -> int:
    """The data length a record's ``HEADER_SIZE``-byte header (at byte ``offset``) gives, its checksum checked.

    Raises:
        ValueError: naming ``where``, if the checksum does not match.
    """
    length = bytes(header[:_LENGTH.size])
    if _CRC.unpack_from(header, _LENGTH.size)[0] != _masked_crc(length):
        raise _mismatch(where, offset, kind)
    return _LENGTH.unpack(length)[0]


def checked_data(data: bytes, footer: bytes, where: str, offset: int, kind: str) -> bytes:
    """A record's ``data``, after checking it against its ``FOOTER_SIZE``-byte ``footer`` (the record is at
    byte ``offset``).

    Raises:
        ValueError: naming ``where``, if the checksum does not match.
    """
    if _CRC.unpack_from(footer)[0] != _masked_crc(bytes(data)):
        raise _mismatch(where, offset, kind)
    return data


def records(content: bytes, where: str, kind: str = "summary file") -> list[bytes]:
    """The data of each record of the ``content`` of a file of ``kind``, checked.

    Raises:
        ValueError: naming ``where``, if a record is cut or a checksum does not match.
    """
    found, offset = [], 0
    while offset < len(content):
        if offset + HEADER_SIZE > len(content):
            raise ValueError(f"Invalid {kind} {where}: a record header is cut at byte {offset}.")
        size = data_size(content[offset:offset + HEADER_SIZE], where, offset, kind)
        start = offset + HEADER_SIZE
        end = start + size
        if end + FOOTER_SIZE > len(content):
            raise ValueError(f"Invalid {kind} {where}: a record of {size} bytes at byte {offset} is cut.")
        found.append(checked_data(content[start:end], content[end:end + FOOTER_SIZE], where, offset, kind))
        offset = end + FOOTER_SIZE
    return found
