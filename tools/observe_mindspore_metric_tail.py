"""Print MindSpore 2.10's ``ConfusionMatrixMetric`` results (or errors) for the cases of tests/metric_tail_cases.py
(the literals of tests/test_metric_tail.py).

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_metric_tail.py``.
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from metric_tail_cases import CONFUSION_CASES  # noqa: E402


def main():
    from mindspore import Tensor
    from mindspore.train import ConfusionMatrixMetric

    for key, arguments, updates in CONFUSION_CASES:
        try:
            metric = ConfusionMatrixMetric(**arguments)
            metric.clear()
            for y_pred, y in updates:
                metric.update(Tensor(y_pred), Tensor(y))
            out = metric.eval()
            print(f"{key!r}: {np.asarray(out).tolist()!r},")
        except Exception as error:  # recorded: the test names what MindSpore refused
            print(f"{key!r}: ({type(error).__name__!r}, {str(error).strip().splitlines()[0]!r}),")


if __name__ == "__main__":
    main()
