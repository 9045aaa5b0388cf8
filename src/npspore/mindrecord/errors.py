"""MindRecord's exceptions, as ``mindspore.mindrecord``: ``str(error)`` is ``[ClassName]: message``, the
message being the class's ``prefix`` followed by the detail given."""
from __future__ import annotations

__all__ = ["MindRecordException", "ParamValueError", "ParamTypeError", "MRMInvalidSchemaError",
           "MRMValidateDataError", "MRMDefineIndexError", "MRMInvalidHeaderSizeError", "MRMInvalidPageSizeError",
           "MRMOpenError", "MRMCommitError"]


class MindRecordException(Exception):
    """Base class of MindRecord's errors."""

    prefix = ""

    def __init__(self, detail: str):
        super().__init__(self.prefix + detail)
        self.error_msg = self.prefix + detail

    def __str__(self) -> str:
        return f"[{type(self).__name__}]: {self.error_msg}"


class ParamValueError(MindRecordException):
    """A parameter's value is out of range."""

    prefix = "Invalid parameter value. "


class ParamTypeError(MindRecordException):
    """A parameter has the wrong type."""

    def __init__(self, name: str, expected: str):
        super().__init__(f"Invalid parameter type. '{name}' expect {expected} type.")


class MRMInvalidSchemaError(MindRecordException):
    """A schema MindRecord cannot store."""

    prefix = "Schema format is error. Detail: "


class MRMValidateDataError(MindRecordException):
    """A row that does not match the schema."""

    prefix = "Raw data do not match the schema. Detail: "


class MRMDefineIndexError(MindRecordException):
    """An index field that is not a scalar field of the schema."""

    prefix = "Failed to define index field. Detail: "


class MRMInvalidHeaderSizeError(MindRecordException):
    """A header size out of range, or a header larger than it."""

    prefix = "Failed to set header size. "


class MRMInvalidPageSizeError(MindRecordException):
    """A page size out of range, or a row larger than a page."""

    prefix = "Failed to set page size. "


class MRMOpenError(MindRecordException):
    """The MindRecord files cannot be created."""

    prefix = "MindRecord File could not open successfully. "


class MRMCommitError(MindRecordException):
    """A writer used in the wrong order (writing before a schema, after a commit)."""

    prefix = "Failed to commit. "


# the error of a dataset folder lacking its files (Cifar10ToMR)
class PathNotExistsError(MindRecordException):
    """A path a converter needs does not exist."""

    prefix = "Invalid path. "


__all__ += ["PathNotExistsError"]
