"""``mindspore._extends``: ``cell_attr_register``, the decorator MindSpore's built-in Cells put on
``__init__`` to record their construction arguments."""
from __future__ import annotations

import functools
import inspect
from typing import Callable

from ..missing_names import module_getattr

__all__ = ["cell_attr_register"]


def cell_attr_register(fn: Callable | None = None, attrs: list[str] | str | None = None):
    """Decorate a Cell's ``__init__`` so that it sets ``self.cell_init_args``: the class name followed by the
    ``__init__`` arguments (``attrs=None``), or by the values of the attributes named in ``attrs`` after
    ``__init__`` ran. Usable bare (``@cell_attr_register``) or called (``@cell_attr_register(attrs=[...])``).

    Args:
        fn (function): the ``__init__`` to decorate.
        attrs (Union[list[str], str]): attribute names whose values are recorded instead of the arguments.

    Returns:
        The decorated ``__init__`` (or, called without ``fn``, the decorator).

    Raises:
        ValueError: if ``attrs`` is neither a list nor a str, or holds a non-str.
    """
    def wrap_cell(init: Callable) -> Callable:
        @functools.wraps(init)
        def deco(self, *args, **kwargs):
            arguments = []
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
                del bound["self"]
                arguments = bound.values()
            init(self, *args, **kwargs)
            if isinstance(attrs, list):
                for item in attrs:
                    if not isinstance(item, str):
                        raise ValueError("attr must be a string")
                    if hasattr(self, item):
                        arguments.append(getattr(self, item))
            elif isinstance(attrs, str):
                if hasattr(self, attrs):
                    arguments = getattr(self, attrs)
            elif attrs is not None:
                raise ValueError("attrs must be list or string")
            self.cell_init_args = type(self).__name__ + str(arguments)
        return deco

    return wrap_cell(fn) if fn is not None else wrap_cell


__getattr__ = module_getattr("mindspore._extends", globals())
