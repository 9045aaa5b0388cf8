"""``OnRequestExit``: a callback that saves the network (checkpoint and MindIR) when the process is asked to
exit by a signal (``SIGTERM`` by default), as MindSpore 2.10's does.

On a signal MindSpore's training runs on to its end, then saves ``<directory>/rank_<device_id>/<file_name>_train``
(``.ckpt``/``.mindir``); an evaluation stops after its current step and saves ``..._eval``. A later run loads the
saved checkpoint when it begins. MindSpore's step-level graceful exit (``MS_ENABLE_GRACEFUL_EXIT=1`` with the
``graceful_exit`` parameter its Ascend training cells add) needs that parameter, which no npspore network has: as
in MindSpore without it, the signal is acted on at the end. npspore's MindIR export holds inference graphs only:
a training network (with its optimizer's Parameter updates) gets its checkpoint and an error log naming the
MindIR it could not write.
"""
from __future__ import annotations

import os
import signal

from ...core.logs import mindspore_log
from ..._checkparam import check_isinstance
from ...context import get_context
from ...export import export
from ..serialization import load_checkpoint, save_checkpoint
from .callback import Callback

__all__ = ["OnRequestExit"]


class OnRequestExit(Callback):
    """Save the network when the process receives ``sig``.

    Args:
        save_ckpt (bool): save a checkpoint. Default: ``True``.
        save_mindir (bool): save a MindIR graph (of the last batch's inputs). Default: ``True``.
        file_name (str): the files' name stem. Default: ``'Net'``.
        directory (str): the folder of ``rank_<device_id>/``. Default: ``'./'``.
        config_file (str, optional): MindSpore's graceful-exit configuration (used with the step-level exit).
        sig (int): the signal. Default: ``signal.SIGTERM``.

    Raises:
        ValueError: if ``save_ckpt``/``save_mindir`` is not a bool, ``sig`` not an int, or ``sig`` is SIGKILL.
    """

    def __init__(self, save_ckpt: bool = True, save_mindir: bool = True, file_name: str = "Net",
                 directory: str = "./", config_file: str | None = None, sig: int = signal.SIGTERM) -> None:
        super().__init__()
        for name, value, kind in (("save_ckpt", save_ckpt, bool), ("save_mindir", save_mindir, bool), ("sig", sig, int)):
            check_isinstance(name, value, kind)
        if hasattr(signal, "SIGKILL") and sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.save_ckpt, self.save_mindir, self.sig = save_ckpt, save_mindir, sig
        self.exit = False
        self.save_path = directory
        self.remote_config_file = config_file
        if save_ckpt or save_mindir:
            folder = os.path.join(os.getcwd() if directory is None else directory, f"rank_{get_context('device_id')}")
            os.makedirs(folder, exist_ok=True)
            self.train_name = os.path.join(folder, f"{file_name}_train")
            self.eval_name = os.path.join(folder, f"{file_name}_eval")

    def _handle_signal(self, signum, frame) -> None:
        self.exit = True

    def on_train_begin(self, run_context) -> None:
        """Handle ``sig`` from now on; load the checkpoint a previous run saved."""
        signal.signal(self.sig, self._handle_signal)
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            load_checkpoint(f"{self.train_name}.ckpt", net=run_context.original_args().train_network)

    def on_train_end(self, run_context) -> None:
        """After a signal: save the training network."""
        if self.exit:
            params = run_context.original_args()
            self._save(params.train_network, params.train_dataset_element, self.train_name)

    def on_eval_begin(self, run_context) -> None:
        """Handle ``sig``; load the evaluation's (or else the training's) saved checkpoint."""
        signal.signal(self.sig, self._handle_signal)
        if not self.save_ckpt:
            return
        network = run_context.original_args().eval_network
        for name in (self.eval_name, self.train_name):
            if os.path.isfile(f"{name}.ckpt"):
                load_checkpoint(f"{name}.ckpt", net=network)
                return

    def on_eval_step_end(self, run_context) -> None:
        """After a signal: stop the evaluation."""
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context) -> None:
        """After a signal: save the evaluation network."""
        if self.exit:
            params = run_context.original_args()
            self._save(params.eval_network, params.eval_dataset_element, self.eval_name)

    def _save(self, network, inputs, name: str) -> None:
        if self.save_ckpt:
            save_checkpoint(network, ckpt_file_name=name)
        if self.save_mindir:
            try:
                export(network, *inputs, file_name=name, file_format="MINDIR")
            except ValueError as error:   # ExportError: a training network's Parameter updates; the checkpoint is saved
                mindspore_log().error(f"OnRequestExit saved {name}.ckpt but not {name}.mindir: {error}")
