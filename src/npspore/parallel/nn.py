"""``mindspore.parallel.nn``: the wrappers that split a batch into micro-batches for pipeline parallelism,
micro-batch interleaving and gradient accumulation (``Pipeline``, ``MicroBatchInterleaved``,
``GradAccumulation``).

On one process the stages all run here: each wrapper calls the network once per micro-batch (the inputs'
first dimension cut into equal parts) and adds the outputs, as MindSpore's ``construct`` does; the stage
and segment assignments are recorded on the cells (``pipeline_stage``, ``pipeline_segment``).
"""
from __future__ import annotations

from ..nn.cell import Cell

__all__ = ["Pipeline", "PipelineCell", "MicroBatchInterleaved", "GradAccumulation"]


def _micro_batch(inputs, index, parts):
    """Micro-batch ``index`` of ``parts``: each input's rows ``[n*index, n*(index+1))``, ``n = rows // parts``."""
    micro = ()
    for each in inputs:
        rows = each.shape[0]
        if rows % parts != 0:
            raise ValueError(f"For micro batch initialization, the 0th dimension shape of input({rows}) must be "
                             f"divided by micro size({parts})")
        size = rows // parts
        micro += (each[size * index:size * (index + 1)],)
    return micro


def _checked(api: str, network, count_name: str, count: int) -> None:
    if not isinstance(network, Cell):
        raise TypeError(f"For '{api}', the argument 'network' must cell type, but got the type : {type(network)}.")
    if not isinstance(count, int):
        raise TypeError(f"For '{api}', the argument '{count_name}' must be integer, but got the type : "
                        f"{type(count)}.")
    if count <= 0:
        raise ValueError(f"For '{api}', the argument '{count_name}' must be large than 0, but got {count}.")


def _assign(network: Cell, attribute: str, config: dict | None, api: str, argument: str) -> None:
    """Set ``attribute`` on each cell of ``network`` that ``config`` names (by cell name, or ``str(network)``)."""
    remaining = dict(config or {})
    for name, cell in network.cells_and_names():
        if name and name in remaining:
            setattr(cell, attribute, remaining.pop(name))
    if str(network) in remaining:
        setattr(network, attribute, remaining.pop(str(network)))
    if remaining:
        raise KeyError(f"For '{api}', the argument '{argument}' : {remaining} is not found in 'network' : {network}")


class _MicroBatchSum(Cell):
    """Calls ``self.network`` on each of ``parts`` micro-batches of the inputs and adds the outputs."""

    def __init__(self, network, parts: int) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        # a tuple, not range(): its loop unrolls with constant indices in compiled gradients too
        self._later_parts = tuple(range(1, parts))
        self._parts = parts

    def construct(self, *inputs):
        total = self.network(*_micro_batch(inputs, 0, self._parts))
        for index in self._later_parts:
            total = total + self.network(*_micro_batch(inputs, index, self._parts))
        return total


class PipelineCell(_MicroBatchSum):
    """Run ``network`` on ``micro_size`` micro-batches of the inputs and add the outputs.

    Args:
        network (Cell): the network (usually with its loss).
        micro_size (int): the number of micro-batches (each input's first dimension must divide by it).
        stage_config (dict, optional): cell name -> pipeline stage, set as the cells' ``pipeline_stage``.
        segment_config (dict, optional): cell name -> segment, set as the cells' ``pipeline_segment``.

    Raises:
        TypeError: if ``network`` is not a Cell or ``micro_size`` not an int.
        ValueError: if ``micro_size`` is not positive, or an input's first dimension does not divide by it.
        KeyError: if a configured cell name is not in ``network``.
    """

    def __init__(self, network, micro_size: int, stage_config: dict | None = None,
                 segment_config: dict | None = None) -> None:
        _checked("PipelineCell", network, "micro_size", micro_size)
        super().__init__(network, micro_size)
        self.micro_size = micro_size
        _assign(network, "pipeline_stage", stage_config, "PipelineCell", "stage_config")
        _assign(network, "pipeline_segment", segment_config, "PipelineCell", "segment_config")



class Pipeline(PipelineCell):
    """MindSpore's name of :class:`PipelineCell` in ``mindspore.parallel.nn``."""


class MicroBatchInterleaved(_MicroBatchSum):
    """Run ``network`` on ``interleave_num`` slices of the batch and add the outputs (MindSpore overlaps one
    slice's communication with the other's computation; on one process the slices run in turn).

    Args:
        network (Cell): the network; its output must be a Tensor.
        interleave_num (int): the number of slices. Default: ``2``.

    Raises:
        TypeError: if ``interleave_num`` is not an int.
        ValueError: if it is not positive, or an input's first dimension does not divide by it.
    """

    def __init__(self, network, interleave_num: int = 2) -> None:
        if not isinstance(interleave_num, int):
            raise TypeError("For 'MicroBatchInterleaved', the argument 'interleave_num' must be integer, "
                            f"but got the type : {type(interleave_num)}.")
        if interleave_num <= 0:
            raise ValueError("For 'MicroBatchInterleaved', the argument 'interleave_num' must be large than 0, "
                             f"but got {interleave_num}.")
        super().__init__(network, interleave_num)
        self.interleave_num = interleave_num



class GradAccumulation(_MicroBatchSum):
    """Run ``network`` on ``micro_size`` micro-batches and add the outputs, so that the gradient of the sum
    accumulates the micro-batches' gradients.

    Args:
        network (Cell): the network with its loss.
        micro_size (int): the number of micro-batches.

    Raises:
        TypeError: if ``network`` is not a Cell or ``micro_size`` not an int.
        ValueError: if ``micro_size`` is not positive, or an input's first dimension does not divide by it.
    """

    def __init__(self, network, micro_size: int) -> None:
        _checked("GradAccumulation", network, "micro_size", micro_size)
        super().__init__(network, micro_size)
        self.micro_size = micro_size
