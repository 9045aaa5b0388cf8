"""The parameter-server context, as ``mindspore.set_ps_context`` / ``get_ps_context`` / ``reset_ps_context``.

npspore trains in one process (or data-parallel over MPI), never with parameter servers; a parameter
server changes where an update runs, not what it computes. So the keys MindSpore 2.10 accepts are
checked and stored, with MindSpore's defaults and error messages, and change nothing, as scripts that
read them back expect.
"""
from __future__ import annotations

from typing import Any

__all__ = ["set_ps_context", "get_ps_context", "reset_ps_context"]

# A fresh MindSpore 2.10 process's get_ps_context of each key.
_DEFAULTS: dict[str, Any] = {
    "server_mode": "",
    "ms_role": "MS_NOT_PS",
    "enable_ps": False,
    "worker_num": 0,
    "server_num": 0,
    "scheduler_ip": "127.0.0.1",
    "scheduler_port": 6667,
    "enable_ssl": False,
    "config_file_path": "",
}
_TYPES = {"server_mode": str, "ms_role": str, "enable_ps": bool, "worker_num": int, "server_num": int,
          "scheduler_ip": str, "scheduler_port": int, "enable_ssl": bool, "config_file_path": str,
          "client_password": str, "server_password": str}
# Set-only keys: MindSpore stores the certificate passwords but get_ps_context does not return them, and
# takes the role a process reads back from the MS_ROLE environment variable, never from ms_role.
_WRITE_ONLY = ("client_password", "server_password", "ms_role")
_ROLES = ("MS_WORKER", "MS_PSERVER", "MS_SERVER", "MS_SCHED")

_context: dict[str, Any] = dict(_DEFAULTS)


def set_ps_context(**kwargs: Any) -> None:
    """Set parameter-server context keys (``enable_ps``, ``config_file_path``, ``enable_ssl``,
    ``client_password``, ``server_password`` and the role and address keys); they are recorded only.

    Raises:
        ValueError: for a key MindSpore does not have, a ``server_mode`` other than ``'PARAMETER_SERVER'``
            or an ``ms_role`` other than ``'MS_WORKER'``, ``'MS_PSERVER'``, ``'MS_SERVER'``, ``'MS_SCHED'``.
        TypeError: for a value of the wrong type (``enable_ps=1``).
    """
    for key, value in kwargs.items():
        if key not in _TYPES:
            raise ValueError(f"Set PS context keyword {key} is not recognized!")
        wanted = _TYPES[key]
        if type(value) is not wanted and not (wanted is bool and key != "enable_ps" and type(value) is int):
            raise TypeError(f"The parameter '{key}' must be {wanted}, but got {type(value)}")
        if key == "server_mode" and value != "PARAMETER_SERVER":
            raise ValueError(f"{value} is invalid. Server mode must be PARAMETER_SERVER")
        if key == "ms_role" and value not in _ROLES:
            raise ValueError(f"ms_role {value} is invalid.")
    for key, value in kwargs.items():
        if key not in _WRITE_ONLY:
            _context[key] = bool(value) if _TYPES[key] is bool else value


def get_ps_context(attr_key: str) -> Any:
    """The value of the parameter-server context key ``attr_key``.

    Raises:
        ValueError: for a key MindSpore does not return.
    """
    if attr_key not in _context:
        raise ValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _context[attr_key]


def reset_ps_context() -> None:
    """Turn parameter-server mode off (``enable_ps=False``); as MindSpore's, the other keys keep their
    values."""
    _context["enable_ps"] = False
