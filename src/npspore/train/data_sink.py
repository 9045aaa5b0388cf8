"""``mindspore.data_sink``: a function run on the next batches of a dataset at each call.

MindSpore sinks the batches to a device queue that loops over the dataset; npspore reads them from
the dataset's own iterator, which starts a new epoch when one ends, so a sink function can be called
for as many steps as wanted.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Iterator

from ..jit import jit
from ..jit_config import JitConfig

__all__ = ["data_sink"]


def data_sink(fn: Callable, dataset, sink_size: int = 1, jit_config: JitConfig | None = None,
              input_signature=None) -> Callable[..., Any]:
    """A function that runs ``fn`` on the dataset's next batches each time it is called.

    Without ``jit_config`` each call runs ``fn`` eagerly on one batch (MindSpore's PyNative data sink);
    with it, ``fn`` is compiled (``jit``) and each call runs it on ``sink_size`` batches in turn. A
    call returns the output of the last run. The dataset's rows are ``fn``'s positional arguments, in
    column order; after the last batch of an epoch the next epoch starts.

    Args:
        fn (Function): the function run on each batch.
        dataset (Dataset): the dataset to take the batches from.
        sink_size (int, optional): how many batches one call runs through a compiled ``fn``. Default: ``1``.
        jit_config (JitConfig, optional): compile ``fn``. Default: ``None`` (run it eagerly, one batch a call).
        input_signature (Union[Tensor, List or Tuple of Tensors], optional): the shapes and dtypes of the
            inputs, passed to ``jit``. Default: ``None``.

    Returns:
        Function, taking no arguments, returning ``fn``'s output on the last batch it ran.

    Raises:
        TypeError: If ``sink_size`` is not an int, or ``jit_config`` not a ``JitConfig``.
        ValueError: If ``sink_size`` is not positive, or the dataset has no rows.

    Examples:
        >>> data = {"x": np.ones((1,), dtype=np.int32), "y": np.ones((1,), dtype=np.int32)}
        >>> sink_process = ms.data_sink(lambda x, y: x + y, ds.NumpySlicesDataset(data=data), sink_size=1)
        >>> print(sink_process())
        2
    """
    if not isinstance(sink_size, int) or isinstance(sink_size, bool):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be 'int', but got type "
                        f"'{type(sink_size).__name__}'.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    if jit_config is not None and not isinstance(jit_config, JitConfig):
        raise TypeError(f"For 'data_sink', the 'jit_config' must be a JitConfig, but got "
                        f"{type(jit_config).__name__}.")
    steps = 1 if jit_config is None else sink_size
    run = fn if jit_config is None else jit(fn, **({} if input_signature is None else
                                                   {"input_signature": input_signature}))
    batches = _endless_batches(dataset)

    @functools.wraps(fn)
    def sink_process(*args, **kwargs):
        out = None
        for _ in range(steps):
            out = run(*next(batches))
        return out

    return sink_process


def _endless_batches(dataset) -> Iterator[list]:
    """The dataset's rows, epoch after epoch."""
    iterator = dataset.create_tuple_iterator()
    while True:
        rows = 0
        for row in iterator:
            rows += 1
            yield row
        if rows == 0:
            raise ValueError("For 'data_sink', the dataset has no rows to sink.")
