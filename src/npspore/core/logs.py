"""Warnings through the standard ``logging`` module, which loads only when one is logged
(``import npspore`` does not pay for ``logging``)."""
from .lazy import module


def warn(logger: str, message: str, *args) -> None:
    """Log ``message % args`` at WARNING level to the logger named ``logger`` (``npspore.cache``)."""
    import logging
    logging.getLogger(logger).warning(message, *args)


def mindspore_log():
    """``npspore.log`` (MindSpore's logger and its ``[WARNING] ME(...)`` format), imported on first use, so that
    the modules ``import npspore`` loads can log through it without loading ``logging``."""
    return module("npspore.log")
