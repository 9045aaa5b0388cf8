"""``DatasetHelper``: a dataset's batches for a training loop written by hand, as MindSpore's is on the CPU.

With ``dataset_sink_mode=False`` it iterates the dataset's tuple iterator: each step a list of Tensors, a new
epoch each time the helper is iterated again (``epoch_num`` of them). Sink mode hands batches to a device
queue that a network reads inside its graph; MindSpore has none on the CPU and refuses it there, and so does
npspore.
"""
from __future__ import annotations

from typing import Any, Iterator

from ..common import dtype as mstype
from ..context import get_context

__all__ = ["DatasetHelper"]


class DatasetHelper:
    """The batches of `dataset` for a training loop (see the module doc).

    Args:
        dataset (Dataset): the dataset.
        dataset_sink_mode (bool): must be ``False`` (sink mode needs a device queue). Default: ``True``.
        sink_size (int): -1 (the dataset's size) or the steps per sink. Default: ``-1``.
        epoch_num (int): the epochs the iterator serves. Default: ``1``.

    Raises:
        TypeError: If `dataset_sink_mode` is not a bool or `sink_size` not an int.
        ValueError: If `sink_size` is 0 or below -1.
        RuntimeError: If `dataset_sink_mode` is True.

    Examples:
        >>> dataset_helper = ms.DatasetHelper(train_dataset, dataset_sink_mode=False)
        >>> for inputs in dataset_helper:
        ...     outputs = network(*inputs)
    """

    def __init__(self, dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1, epoch_num: int = 1) -> None:
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"The input value must be bool, but got '{type(dataset_sink_mode).__name__}'")
        if not isinstance(sink_size, int) or isinstance(sink_size, bool):
            raise TypeError(f"The input value must be int, but got '{type(sink_size).__name__}'")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"The 'sink_size' must be -1 or positive, but got sink_size {sink_size}.")
        if dataset_sink_mode:
            raise RuntimeError(f"Currently dataset sink mode is not supported when the device target is "
                               f"{get_context('device_target')}, please set dataset_sink_mode to False in "
                               f"Model.train()")
        self.dataset = dataset
        self._sink_size = dataset.get_dataset_size() if sink_size == -1 else sink_size
        self.iter = dataset.create_tuple_iterator(num_epochs=epoch_num)

    def __iter__(self) -> Iterator[list]:
        return self.iter.__iter__()

    def sink_size(self) -> int:
        """The steps of one sink: `sink_size`, or the dataset's size for -1."""
        return self._sink_size

    def types_shapes(self) -> tuple[list[mstype.Type], list[tuple[int, ...]]]:
        """The dtypes and shapes of the dataset's columns (of its first batch)."""
        types = [mstype.nptype_to_dtype(dtype) for dtype in self.dataset.output_types()]
        return types, [tuple(shape) for shape in self.dataset.output_shapes()]

    def release(self) -> None:
        """Release the device resources of sink mode (there are none without it)."""

    def stop_send(self) -> None:
        """Stop sending batches to the device queue (there is none without sink mode)."""

    def continue_send(self) -> None:
        """Resume sending batches to the device queue (there is none without sink mode)."""
