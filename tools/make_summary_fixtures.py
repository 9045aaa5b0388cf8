"""Write the summary file of tests/test_summary_record.py with the real MindSpore 2.10's SummaryRecord.

Run with a virtualenv holding MindSpore (never the project's): ``/work/msvenv/bin/python tools/make_summary_fixtures.py``.
Writes ``tests/fixtures/summary/mindspore.summary``: what :func:`record_values` records (a scalar at step 1; a
scalar, a tensor and a histogram with a NaN and an infinity at step 2); and ``collector.summary``: the summary
file ``tests/programs/summary_collector_training.py`` makes MindSpore's SummaryCollector write.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "summary" / "mindspore.summary"


def record_values(summary_record, tensor):
    """The calls the test makes on npspore's SummaryRecord too (``tensor`` is the Tensor class)."""
    summary_record.add_value("scalar", "loss", tensor(np.array(0.5, np.float32)))
    summary_record.record(1)
    summary_record.add_value("scalar", "loss", tensor(np.array(0.25, np.float32)))
    summary_record.add_value("tensor", "w", tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
    summary_record.add_value("histogram", "h", tensor(np.array([1.0, 2.0, 2.5, np.nan, np.inf, 7.0, 3.0],
                                                               np.float32)))
    summary_record.record(2)


def main():
    from mindspore import Tensor
    from mindspore.train.summary import SummaryRecord

    folder = tempfile.mkdtemp()
    with SummaryRecord(folder) as summary_record:
        record_values(summary_record, Tensor)
    [name] = os.listdir(folder)
    shutil.copy(os.path.join(folder, name), FIXTURE)
    shutil.rmtree(folder)
    folder = tempfile.mkdtemp()
    program = FIXTURE.parent.parent.parent / "programs" / "summary_collector_training.py"
    subprocess.run([sys.executable, str(program), folder], check=True, cwd=folder)
    [name] = [n for n in os.listdir(folder) if n.endswith("_MS")]
    shutil.copy(os.path.join(folder, name), FIXTURE.parent / "collector.summary")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
