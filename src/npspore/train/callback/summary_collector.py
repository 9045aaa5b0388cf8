"""``SummaryCollector``: the loss and the parameters' histograms of ``Model.train``, in a summary file.

At the first step and every ``collect_freq`` steps it records, as MindSpore 2.10's collector does by
default, the step's loss (scalar ``loss/auto``) and a histogram of each trainable parameter
(``<name>/auto``) through a :class:`~npspore.train.summary.SummaryRecord` open for the run. MindSpore's
other collections (the graph, input images, lineage, the dataset graph, loss landscapes) are not written.
"""
from __future__ import annotations

import re

from ...common.tensor import Tensor
from ..summary import SummaryRecord
from .callback import Callback, RunContext

__all__ = ["SummaryCollector"]


class SummaryCollector(Callback):
    """Collects the loss and parameter histograms of training into ``summary_dir``.

    Args:
        summary_dir (str): the folder of the summary file.
        collect_freq (int): record every this many steps (and at the first). Default: ``10``.
        collect_specified_data (dict, optional): ``{"collect_metric": bool, "histogram_regular": str}`` choose
            the loss and the parameters whose names match the regular expression; MindSpore's other keys are
            accepted. Default: ``None`` (both, every parameter).
        keep_default_action (bool): with ``collect_specified_data``, still collect what it does not name.
            Default: ``True``.
        max_file_size (int, optional): as for SummaryRecord. Default: ``None``.
        num_process, custom_lineage_data, collect_tensor_freq, export_options: accepted for compatibility.

    Raises:
        ValueError: If ``collect_freq`` is not a positive int.
        TypeError: If ``collect_specified_data`` is not a dict or ``keep_default_action`` not a bool.
    """

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None, max_file_size=None,
                 export_options=None):
        if not isinstance(collect_freq, int) or isinstance(collect_freq, bool) or collect_freq <= 0:
            raise ValueError(f"For 'SummaryCollector', the 'collect_freq' should be a positive int, but got "
                             f"{collect_freq}.")
        if collect_specified_data is not None and not isinstance(collect_specified_data, dict):
            raise TypeError(f"For 'SummaryCollector', the 'collect_specified_data' should be dict, but got "
                            f"{type(collect_specified_data).__name__}.")
        if not isinstance(keep_default_action, bool):
            raise TypeError(f"For 'SummaryCollector', the 'keep_default_action' should be bool, but got "
                            f"{type(keep_default_action).__name__}.")
        chosen = collect_specified_data or {}
        self.summary_dir, self.collect_freq, self.max_file_size = summary_dir, collect_freq, max_file_size
        self._collect_loss = chosen.get("collect_metric", keep_default_action or collect_specified_data is None)
        self._histograms = "histogram_regular" in chosen or keep_default_action or collect_specified_data is None
        self._pattern = re.compile(chosen["histogram_regular"]) if chosen.get("histogram_regular") else None
        self._record: SummaryRecord | None = None

    def begin(self, run_context: RunContext) -> None:
        self._record = SummaryRecord(self.summary_dir, max_file_size=self.max_file_size)

    def step_end(self, run_context: RunContext) -> None:
        params = run_context.original_args()
        step = params.cur_step_num
        if self._record is None or (step != 1 and step % self.collect_freq):
            return
        loss = params.net_outputs[0] if isinstance(params.net_outputs, (tuple, list)) else params.net_outputs
        if self._collect_loss and isinstance(loss, Tensor):
            self._record.add_value("scalar", "loss/auto", loss)
        if self._histograms:
            for parameter in params.network.trainable_params():
                if self._pattern is None or self._pattern.match(parameter.name):
                    self._record.add_value("histogram", f"{parameter.name}/auto", parameter)
        self._record.record(step)

    def end(self, run_context: RunContext) -> None:
        if self._record is not None:
            self._record.close()
            self._record = None
