"""MindRecord's exceptions, as ``mindspore.mindrecord``: ``str(error)`` is ``[ClassName]: message``."""
from __future__ import annotations

__all__ = ["MindRecordException", "ParamValueError", "ParamTypeError", "MRMInvalidSchemaError",
           "MRMValidateDataError", "MRMDefineIndexError", "MRMInvalidHeaderSizeError", "MRMInvalidPageSizeError",
           "MRMOpenError", "MRMCommitError"]


class MindRecordException(Exception):
    """Base class of MindRecord's errors."""

    def __init__(self, message: str):
        super().__init__(message)
        self.error_msg = message

    def __str__(self) -> str:
        return f"[{type(self).__name__}]: {self.error_msg}"


class ParamValueError(MindRecordException):
    """A parameter's value is out of range."""

    def __init__(self, detail: str):
        super().__init__(f"Invalid parameter value. {detail}")


class ParamTypeError(MindRecordException):
    """A parameter has the wrong type."""

    def __init__(self, name: str, expected: str):
        super().__init__(f"Invalid parameter type. '{name}' expect {expected} type.")


class MRMInvalidSchemaError(MindRecordException):
    """A schema MindRecord cannot store."""

    def __init__(self, detail: str):
        super().__init__(f"Schema format is error. Detail: {detail}")


class MRMValidateDataError(MindRecordException):
    """A row that does not match the schema."""

    def __init__(self, detail: str):
        super().__init__(f"Raw data do not match the schema. Detail: {detail}")


class MRMDefineIndexError(MindRecordException):
    """An index field that is not a scalar field of the schema."""

    def __init__(self, detail: str):
        super().__init__(f"Failed to define index field. Detail: {detail}")


class MRMInvalidHeaderSizeError(MindRecordException):
    """A header size out of range, or a header larger than it."""

    def __init__(self, detail: str):
        super().__init__(f"Failed to set header size. {detail}")


class MRMInvalidPageSizeError(MindRecordException):
    """A page size out of range, or a row larger than a page."""

    def __init__(self, detail: str):
        super().__init__(f"Failed to set page size. {detail}")


class MRMOpenError(MindRecordException):
    """The MindRecord files cannot be created."""

    def __init__(self, detail: str):
        super().__init__(f"MindRecord File could not open successfully. {detail}")


class MRMCommitError(MindRecordException):
    """A writer used in the wrong order (writing before a schema, after a commit)."""

    def __init__(self, detail: str):
        super().__init__(f"Failed to commit. {detail}")
