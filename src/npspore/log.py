"""MindSpore's logger, as ``mindspore.log``: ``debug``, ``info``, ``warning``, ``error``, ``critical``
and ``get_level``, on the standard :mod:`logging` logger named ``'mindspore'``.

As in MindSpore, the level comes from the environment variable ``GLOG_v`` (``0`` debug, ``1`` info,
``2`` warning, the default, ``3`` error, ``4`` critical) and messages go to standard error.
"""
from __future__ import annotations

import logging
import os
import sys
from typing import Any

__all__ = ["debug", "info", "warning", "error", "critical", "get_level"]

_LEVELS = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR, "4": logging.CRITICAL}


def _logger() -> logging.Logger:
    logger = logging.getLogger("mindspore")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("[%(levelname)s] ME(%(process)d:%(thread)d,%(processName)s):"
                                               "%(asctime)s [%(filename)s:%(lineno)d] %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    logger.setLevel(_LEVELS.get(get_level(), logging.WARNING))
    return logger


def get_level() -> str:
    """The log level as MindSpore reports it: ``GLOG_v`` (``'0'`` ... ``'4'``), ``'2'`` when unset."""
    level = os.environ.get("GLOG_v", "2")
    return level if level in _LEVELS else "2"


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at DEBUG level."""
    _logger().debug(msg, *args, stacklevel=2, **kwargs)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at INFO level."""
    _logger().info(msg, *args, stacklevel=2, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at WARNING level."""
    _logger().warning(msg, *args, stacklevel=2, **kwargs)


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at ERROR level."""
    _logger().error(msg, *args, stacklevel=2, **kwargs)


def critical(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at CRITICAL level."""
    _logger().critical(msg, *args, stacklevel=2, **kwargs)


# MindSpore 2.10 names of the 2.10 usage list's tail
class _LogActionOnce:
    """Decorate a function so that the warnings ``logger`` logs while it runs are logged the first time only
    (per ``key``), or never with ``no_warning`` (MindSpore's private helper).

    Args:
        logger: an object with a ``warning`` method (npspore's ``log`` module, a ``logging.Logger`` ...).
        key (str): what "the first time" counts.
        no_warning (bool): silence the warnings every time. Default: ``False``.
    """

    is_logged: dict = {}

    def __init__(self, logger: Any, key: str, no_warning: bool = False) -> None:
        self.logger, self.key, self.no_warning = logger, key, no_warning

    def __call__(self, func: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not hasattr(self.logger, "warning"):
                return func(*args, **kwargs)
            original = self.logger.warning
            if self.no_warning or self.key in _LogActionOnce.is_logged:
                self.logger.warning = lambda *_args, **_kwargs: None
            else:
                _LogActionOnce.is_logged[self.key] = True
            try:
                return func(*args, **kwargs)
            finally:
                self.logger.warning = original
        return wrapper
