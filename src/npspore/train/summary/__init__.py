"""Summaries for MindInsight, as ``mindspore.train.summary``: ``SummaryRecord`` (also ``ms.SummaryRecord``)."""
from .summary_record import SummaryRecord
from ...missing_names import module_getattr as _module_getattr

__all__ = ["SummaryRecord"]

__getattr__ = _module_getattr("mindspore.train.summary", globals())
