"""Saving checkpoints during training: ``CheckpointConfig`` and the ``ModelCheckpoint`` callback.

Files are named as MindSpore names them, ``{prefix}-{epoch}_{step in epoch}.ckpt`` in ``directory``;
when files with the prefix already exist there, the prefix gets a suffix (``CKP_1-1_32.ckpt``).
At most ``keep_checkpoint_max`` files of the prefix are kept, the oldest removed first — and only
once the new file is durable (``save_checkpoint`` writes a new file, ``fsync``s it, renames it and
``fsync``s the directory), so a crash at any moment leaves a complete checkpoint. Only regular files
are counted and removed: a symlink someone planted under a checkpoint's name is neither followed
nor deleted. A save killed mid-way leaves a hidden temporary file (``.{name}.<random>.tmp``); the
next ``ModelCheckpoint`` of the prefix in that directory removes it (two trainings must not write
one prefix into one directory at the same time, as in MindSpore).

With ``CheckpointConfig(exception_save=True)``, an exception that ends ``Model.train``/``fit`` first
saves the training network as ``{prefix}-{epoch}_{step in epoch}_breakpoint.ckpt`` (MindSpore's name;
the prefix gets a suffix when such files exist), then propagates.
"""
from __future__ import annotations

import os
import stat
import time
from typing import Any

from ...common.tensor import Tensor
from ...core.logs import warn
from ...core.safefile import remove_leftovers
from ...nn.cell import Cell
from ...nn.validation import check_non_negative_int
from ..serialization import save_checkpoint
from .callback import Callback, RunContext

__all__ = ["CheckpointConfig", "ModelCheckpoint"]

_APPEND_NAMES = ("epoch_num", "step_num")
_BREAKPOINT_SUFFIX = "_breakpoint.ckpt"


def _optional_non_negative_int(name, value):
    return None if value is None else check_non_negative_int(value, name, "CheckpointConfig")


class CheckpointConfig:
    """When and how ``ModelCheckpoint`` saves.

    Args:
        save_checkpoint_steps (int): save every this many steps (default 1).
        save_checkpoint_seconds (int): save every this many seconds (used when steps is 0 or None).
        keep_checkpoint_max (int): keep at most this many files (default 5).
        keep_checkpoint_per_n_minutes (int): not supported by npspore (must be 0 or None when
            ``keep_checkpoint_max`` is 0).
        integrated_save (bool), async_save (bool): passed to ``save_checkpoint``.
        saved_network (Cell): save this network instead of the training network.
        append_info (list): ``'epoch_num'``, ``'step_num'`` and at most one dict of extra entries.
        enc_key (bytes): must be None. enc_mode (str): ignored.
        exception_save (bool): when training raises, save the training network to
            ``{prefix}-{epoch}_{step}_breakpoint.ckpt`` before the exception propagates.
        crc_check (bool): write MindSpore's CRC record.
        remove_redundancy (bool): must be False (no parallel training).
        format (str): ``'ckpt'`` or ``'safetensors'``.

    Raises:
        ValueError: if every saving/keeping policy is 0 or None, or an argument is out of range.
        TypeError: if ``saved_network`` is not a Cell or ``append_info`` is malformed.
    """

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode="AES-GCM", exception_save=False, crc_check=False,
                 remove_redundancy=False, format="ckpt", **kwargs):
        save_checkpoint_steps = _optional_non_negative_int("save_checkpoint_steps", save_checkpoint_steps)
        save_checkpoint_seconds = _optional_non_negative_int("save_checkpoint_seconds", save_checkpoint_seconds)
        keep_checkpoint_max = _optional_non_negative_int("keep_checkpoint_max", keep_checkpoint_max)
        keep_checkpoint_per_n_minutes = _optional_non_negative_int("keep_checkpoint_per_n_minutes",
                                                                   keep_checkpoint_per_n_minutes)
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError("For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, "
                            f"but got {type(saved_network)}.")
        if not (save_checkpoint_steps or save_checkpoint_seconds or keep_checkpoint_max
                or keep_checkpoint_per_n_minutes):
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' "
                             "can't be all None or 0.")
        if not keep_checkpoint_max and keep_checkpoint_per_n_minutes:
            raise NotImplementedError("For 'CheckpointConfig', npspore does not support "
                                      "'keep_checkpoint_per_n_minutes'; use 'keep_checkpoint_max'.")
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'CheckpointConfig', the 'format' must be 'ckpt' or 'safetensors', but got {format}.")
        if remove_redundancy:
            raise TypeError("The deduplication feature for saving checkpoint can only be used in parallel "
                            "scenarios, but got 'stand_alone'.")
        self.exception_save = exception_save
        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = None if save_checkpoint_steps else save_checkpoint_seconds
        self._keep_checkpoint_max = keep_checkpoint_max if keep_checkpoint_max else 1
        self._keep_checkpoint_per_n_minutes = None
        self._integrated_save = integrated_save
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = self._append_info_dict(append_info)
        self._enc_key = enc_key
        self._enc_mode = enc_mode
        self._crc_check = crc_check
        self._format = format

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps, doc="Steps between saves.")
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds, doc="Seconds between saves.")
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max, doc="Files kept at most.")
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes,
                                             doc="Always None in npspore.")
    integrated_save = property(lambda self: self._integrated_save, doc="Passed to save_checkpoint.")
    async_save = property(lambda self: self._async_save, doc="Passed to save_checkpoint.")
    saved_network = property(lambda self: self._saved_network, doc="The network saved instead of the trained one.")
    enc_key = property(lambda self: self._enc_key, doc="The encryption key (None).")
    enc_mode = property(lambda self: self._enc_mode, doc="The encryption mode.")
    crc_check = property(lambda self: self._crc_check, doc="Whether files carry a CRC record.")
    format = property(lambda self: self._format, doc="'ckpt' or 'safetensors'.")
    append_dict = property(lambda self: self._append_dict, doc="Extra entries saved with each file.")

    def get_checkpoint_policy(self):
        """The saving and keeping policy as a dict."""
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _append_info_dict(append_info):
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' must be list,but got {type(append_info)}.")
        extra = {name: 0 for name in _APPEND_NAMES if name in append_info}
        dicts = [element for element in append_info if isinstance(element, dict)]
        if len(dicts) > 1:
            raise TypeError(f"For 'CheckpointConfig', the element of 'append_info' must has only one dict, "
                            f"but got {len(dicts)}")
        for element in append_info:
            if isinstance(element, str) and element not in _APPEND_NAMES:
                raise ValueError("For 'CheckpointConfig', the value of element in the argument 'append_info' must "
                                 f"be in {list(_APPEND_NAMES)}, but got {element}.")
            if not isinstance(element, (str, dict)):
                raise TypeError("For 'CheckpointConfig', the type of 'append_info' element must be str or dict,"
                                f"but got {type(element)}.")
        for key, value in (dicts[0].items() if dicts else ()):
            if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
                raise TypeError("For 'CheckpointConfig', the key type of the dict 'append_info' must be string, the "
                                "value type must be int or float or bool, but got key type "
                                f"{type(key)}, value type {type(value)}")
            extra[key] = value
        return extra


def _prefix_not_in_use(directory, prefix, breakpoint_files=False):
    """``prefix``, or ``prefix_N`` when checkpoint files with ``prefix`` already exist in ``directory``.

    Breakpoint files (``..._breakpoint.ckpt``) count only for the prefix of breakpoint files, and
    only they count for it, as in MindSpore.
    """
    suffix = 0
    for filename in os.listdir(directory):
        if filename.endswith(_BREAKPOINT_SUFFIX) != breakpoint_files:
            continue
        if os.path.splitext(filename)[1] not in (".ckpt", ".safetensors") or not filename.startswith(prefix):
            continue
        rest = filename[len(prefix):]
        if not rest or rest[0].isalpha():
            continue
        dash = rest.find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash > 0 and rest[1:dash].isdigit():
            suffix = max(suffix, int(rest[1:dash]) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class ModelCheckpoint(Callback):
    """Save the training network's Parameters to checkpoint files during training.

    Args:
        prefix (Union[str, callable]): file name prefix (no ``'/'``), or ``prefix(cb_params) -> str``
            (then the file is ``{prefix}.ckpt``).
        directory (Union[str, callable]): where files go (created if needed; default: the current
            directory), or ``directory(cb_params) -> str``.
        config (CheckpointConfig): the policy (default ``CheckpointConfig()``: every step, keep 5).

    Raises:
        ValueError: if ``prefix`` is not a str without ``'/'`` or a callable.
        TypeError: if ``config`` is not a CheckpointConfig.
    """

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        if not callable(prefix) and (not isinstance(prefix, str) or "/" in prefix):
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it "
                             f"must be callable or string that does not contain '/', but got {prefix}.")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError("For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', "
                            f"but got {type(config)}.")
        self._config = config if config is not None else CheckpointConfig()
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        self._directory = os.getcwd() if directory is None or callable(directory) else directory
        if not callable(directory):
            os.makedirs(self._directory, exist_ok=True)
        self._prefix = prefix
        self._exception_prefix = prefix
        if not callable(prefix) and not callable(directory):
            remove_leftovers(self._directory, prefix)
            self._prefix = _prefix_not_in_use(self._directory, prefix)
        self._append_dict = dict(self._config.append_dict or {})
        self._append_base = {name: self._append_dict.get(name, 0) for name in _APPEND_NAMES}
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._latest_ckpt_file_name = ""

    @property
    def latest_ckpt_file_name(self):
        """The path of the last file saved."""
        return self._latest_ckpt_file_name

    def step_end(self, run_context: RunContext) -> None:
        """Save when the policy says so."""
        cb_params = run_context.original_args()
        if self._prefix_func:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is callable, "
                                 f"it must return a string that does not contain '/', but got {self._prefix}.")
        if self._directory_func:
            self._directory = self._directory_func(cb_params)
            os.makedirs(self._directory, exist_ok=True)
        self._save(cb_params)

    def end(self, run_context: RunContext) -> None:
        """Save the last step's Parameters if not saved yet."""
        self._save(run_context.original_args(), force=True)

    def _due(self, cb_params, force):
        steps = self._config.save_checkpoint_steps
        if steps:
            return force or cb_params.cur_step_num >= self._last_triggered_step + steps
        seconds = self._config.save_checkpoint_seconds
        if seconds:
            now = time.time()
            if force or now - self._last_time > seconds:
                self._last_time = now
                return True
        return False

    def _save(self, cb_params, force=False):
        if cb_params.cur_step_num == self._last_triggered_step or not self._due(cb_params, force):
            return
        extension = "." + self._config.format
        if self._prefix_func:
            name = self._prefix + extension
        else:
            step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
            name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}{extension}"
        self._last_triggered_step = cb_params.cur_step_num
        self._set_append_counts(cb_params.cur_epoch_num, cb_params.cur_step_num)
        network = self._config.saved_network if self._config.saved_network is not None else cb_params.train_network
        path = os.path.join(self._directory, name)
        save_checkpoint(network, path, self._config.integrated_save, self._config.async_save,
                        self._append_dict or None, self._config.enc_key, self._config.enc_mode,
                        crc_check=self._config.crc_check, format=self._config.format)
        self._latest_ckpt_file_name = path
        self._retire_oldest(extension, keep=path)

    def _set_append_counts(self, epoch, step):
        for key, value in (("epoch_num", epoch), ("step_num", step)):
            if key in self._append_dict:
                self._append_dict[key] = self._append_base[key] + value

    def _retire_oldest(self, extension, keep):
        """Remove the oldest regular files of the prefix beyond ``keep_checkpoint_max`` (never ``keep``)."""
        files = []
        for filename in os.listdir(self._directory):
            path = os.path.join(self._directory, filename)
            if filename.endswith(extension) and filename.startswith(self._prefix + "-") and path != keep \
                    and not any(char.isalpha() for char in filename[len(self._prefix):-len(extension)]):
                info = os.lstat(path)
                if stat.S_ISREG(info.st_mode):
                    files.append((info.st_mtime_ns, path))
        files.sort()
        for _, path in files[:max(0, len(files) + 1 - self._config.keep_checkpoint_max)]:
            os.remove(path)

    def save_breakpoint(self, train_network: Cell, epoch: int, step_in_epoch: int) -> str:
        """Save ``train_network`` as MindSpore's ``{prefix}-{epoch}_{step}_breakpoint.ckpt`` in the directory.

        ``Model.train`` and ``Model.fit`` call it when training raises and ``exception_save`` is set;
        ``epoch_num``/``step_num`` of ``append_info`` get the epoch and step reached.

        Returns:
            str: the path of the file written.
        """
        prefix = _prefix_not_in_use(self._directory, self._exception_prefix, breakpoint_files=True)
        path = os.path.join(self._directory, f"{prefix}-{epoch}_{step_in_epoch}{_BREAKPOINT_SUFFIX}")
        self._set_append_counts(epoch, step_in_epoch)
        save_checkpoint(train_network, path, self._config.integrated_save, self._config.async_save,
                        self._append_dict or None, self._config.enc_key, self._config.enc_mode)
        return path


def save_breakpoint_checkpoint(callbacks: Any, train_network: Cell, epoch: int, step_in_epoch: int) -> None:
    """Save the breakpoint checkpoint of the last ``ModelCheckpoint`` in ``callbacks`` with ``exception_save``.

    What MindSpore's ``Model`` does when training raises. A failure to save is logged and swallowed:
    the caller re-raises the training's own exception.
    """
    callbacks = callbacks if isinstance(callbacks, (list, tuple)) else [callbacks]
    checkpoints = [callback for callback in callbacks if isinstance(callback, ModelCheckpoint)]
    if not checkpoints or not checkpoints[-1]._config.exception_save:
        return
    try:
        checkpoints[-1].save_breakpoint(train_network, epoch, step_in_epoch)
    except Exception as error:  # the training's exception matters more than this one
        warn("npspore.checkpoint", "Failed to save the breakpoint checkpoint: %s", error)
