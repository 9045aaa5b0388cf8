"""Warnings through the standard ``logging`` module, which loads only when one is logged
(``import npspore`` does not pay for ``logging``)."""


def warn(logger: str, message: str, *args) -> None:
    """Log ``message % args`` at WARNING level to the logger named ``logger`` (``npspore.cache``)."""
    import logging
    logging.getLogger(logger).warning(message, *args)
