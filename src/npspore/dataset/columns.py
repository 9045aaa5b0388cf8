"""Column names: checking them, and where an operation's output columns go.

``map`` and ``batch(per_batch_map=...)`` read some input columns and write output columns. As in
MindSpore, with as many outputs as inputs each output takes its input's place (so ``map`` without
``output_columns`` replaces the columns in place); otherwise the outputs come first, followed by
the columns that were not inputs.
"""
from __future__ import annotations


def column_list(columns, name):
    """``columns`` (a str or a non-empty list of distinct str) as a list.

    Raises:
        TypeError: if ``columns`` is not a str or a list of str.
        ValueError: if a name repeats.
    """
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, (list, tuple)) or not columns or not all(isinstance(c, str) for c in columns):
        raise TypeError(f"Argument {name} should be a str or a non-empty list of str, but got {columns!r}.")
    if len(set(columns)) != len(columns):
        raise ValueError(f"Argument {name} has duplicate column names: {list(columns)}.")
    return list(columns)


def check_known(columns, available, who):
    """Raise ValueError naming the first of ``columns`` that is not in ``available``."""
    missing = [c for c in columns if c not in available]
    if missing:
        raise ValueError(f"Invalid column in {who}: {missing[0]!r} is not a column of the dataset, whose "
                         f"columns are {available}.")


class ColumnMapping:
    """Where the outputs of an operation over ``input_columns`` of rows with columns ``names`` go.

    Args:
        names (list[str]): the columns of the rows read.
        input_columns: a str, a list of str, or ``None`` for ``default_inputs``.
        output_columns: a str, a list of str, or ``None`` for the input columns.
        who (str): the operation, named in errors.

    Raises:
        ValueError: if an input column is not in ``names``, or the outputs collide with kept columns.
    """

    def __init__(self, names, input_columns, output_columns, who, default_inputs):
        self.who = who
        self.input_columns = list(default_inputs) if input_columns is None else column_list(input_columns,
                                                                                           "input_columns")
        check_known(self.input_columns, names, f"{who} input_columns")
        self.output_columns = (list(self.input_columns) if output_columns is None
                               else column_list(output_columns, "output_columns"))
        self.input_indices = [names.index(c) for c in self.input_columns]
        self.in_place = len(self.output_columns) == len(self.input_columns)
        self.kept_indices = [i for i, n in enumerate(names) if n not in self.input_columns]
        if self.in_place:
            renamed = dict(zip(self.input_columns, self.output_columns))
            self.output_names = [renamed.get(n, n) for n in names]
        else:
            self.output_names = self.output_columns + [names[i] for i in self.kept_indices]
        if len(set(self.output_names)) != len(self.output_names):
            raise ValueError(f"{who} output_columns {self.output_columns} collide with the columns kept: "
                             f"{self.output_names}.")

    def check_outputs(self, outputs):
        """``outputs`` as a tuple, checked to hold one value per output column.

        Raises:
            RuntimeError: if the operation returned another number of values.
        """
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        if len(outputs) != len(self.output_columns):
            raise RuntimeError(f"Invalid columns, the number of columns returned in '{self.who}' operations should "
                               f"match the number of 'output_columns', but got the number of columns returned in "
                               f"'{self.who}' operations: {len(outputs)}, the number of 'output_columns': "
                               f"{len(self.output_columns)}.")
        return outputs

    def place(self, row, outputs):
        """The output row: ``outputs`` (one per output column) placed among ``row``'s kept columns."""
        if self.in_place:
            new_row = list(row)
            for i, value in zip(self.input_indices, outputs):
                new_row[i] = value
            return tuple(new_row)
        return tuple(outputs) + tuple(row[i] for i in self.kept_indices)
