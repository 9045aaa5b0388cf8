"""``PKSampler``: ``num_val`` rows of each class, the classes in sorted order, each class's rows drawn uniformly with
replacement afresh every pass (as MindSpore 2.10 draws them, ``shuffle`` or not; ``shuffle`` also mixes the
classes). The classes are the values of the source's ``class_column``, read once when the first pass starts."""
from __future__ import annotations

import numpy as np

from .arguments import check_bool, check_int
from .sampling import Sampler

__all__ = ["PKSampler"]


class PKSampler(Sampler):
    """``num_val`` rows per class (see the module doc).

    Args:
        num_val (int): the rows of each class, positive.
        num_class (int): must be None (MindSpore 2.10 does not take it either). Default: ``None``.
        shuffle (bool): also mix the classes' rows. Default: ``False``.
        class_column (str): the column holding the class. Default: ``'label'``.
        num_samples (int): the most rows of a pass. Default: ``None``, all.

    Raises:
        NotImplementedError: If ``num_class`` is given (MindSpore's message). TypeError, ValueError: on bad arguments.
        RuntimeError: (at a pass) If the source has no ``class_column``.
    """

    def __init__(self, num_val: int, num_class: int | None = None, shuffle: bool = False, class_column: str = "label",
                 num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        check_int(num_val, "num_val", 1)
        if num_class is not None:
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        check_bool(shuffle, "shuffle")
        if not isinstance(class_column, str):
            raise TypeError(f"class_column should be a str, but got {type(class_column)}.")
        self.num_val, self.shuffle, self.class_column = num_val, shuffle, class_column
        self._source, self._classes = None, None

    def bind(self, source) -> None:
        """Read the classes from ``source`` (a random-access dataset) when a pass starts."""
        self._source, self._classes = source, None

    def _class_rows(self) -> list[np.ndarray]:
        if self._classes is None:
            if self._source is None:
                raise RuntimeError("PKSampler: the sampler is not attached to a dataset with a class column.")
            labels = np.asarray(self._source.column_values(self.class_column))
            self._classes = [np.flatnonzero(labels == label) for label in np.unique(labels)]
        return self._classes

    def _all_indices(self, n, key):
        rng = key.generator()
        drawn = [rng.choice(rows, self.num_val) for rows in self._class_rows()]
        indices = np.concatenate(drawn).astype(np.int64) if drawn else np.zeros(0, np.int64)
        return rng.permutation(indices) if self.shuffle else indices

    def _count(self, n):
        return self.num_val * len(self._class_rows())
