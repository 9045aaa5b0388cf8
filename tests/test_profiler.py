"""``ms.Profiler`` (``npspore.profiler``): what it records and the files it writes.

The files and their header lines are those MindSpore 2.10.0's Profiler writes on CPU (observed with the
real MindSpore profiling a ``Dense`` layer: ``<output_path>/<host>_<pid>_<time>_ascend_ms/`` with
``FRAMEWORK/cpu_op_type_info_0.csv``, ``cpu_op_detail_info_0.csv``, ``cpu_op_execute_timestamp_0.txt`` and
``ASCEND_PROFILER_OUTPUT/trace_view.json``); the counts are of the calls the program made.
"""
import csv
import json
import re

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.profiler import profiling

TYPE_HEADER = ("op_type,type_occurrences,execution_frequency(per-step),total_compute_time,avg_time(ms),"
               "percent")
DETAIL_HEADER = ("op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms),op_avg_time(ms),"
                 "total_proportion,subgraph,pid")


def profile_three_steps(tmp_path):
    net = nn.Dense(3, 2)
    grad = ms.grad(lambda x: net(x).sum())
    profiler = ms.Profiler(output_path=str(tmp_path / "data"))
    x = Tensor(np.ones((4, 3), np.float32))
    for _ in range(3):
        ops.matmul(x, x.T)
        grad(x)
        profiler.step()
    profiler.analyse()
    ops.matmul(x, x.T)   # after analyse: not recorded
    [folder] = (tmp_path / "data").iterdir()
    return profiler, folder


def read_csv(path):
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def test_the_files_mindspore_writes_with_its_headers(tmp_path):
    _, folder = profile_three_steps(tmp_path)
    assert re.fullmatch(r".+_\d+_\d{17}_ascend_ms", folder.name)
    framework = folder / "FRAMEWORK"
    assert (framework / "cpu_op_type_info_0.csv").read_text().splitlines()[0] == TYPE_HEADER
    assert (framework / "cpu_op_detail_info_0.csv").read_text().splitlines()[0] == DETAIL_HEADER
    assert (framework / "cpu_op_execute_timestamp_0.txt").exists()
    assert (folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").exists()


def test_each_eager_op_and_kernel_call_is_counted_and_timed(tmp_path):
    profiler, folder = profile_three_steps(tmp_path)
    detail = {row["op_name"]: row for row in read_csv(folder / "FRAMEWORK" / "cpu_op_detail_info_0.csv")}
    assert detail["matmul"]["op_occurrences"] == "3" and detail["matmul"]["op_type"] == "matmul"
    kernels = [row for row in detail.values() if row["op_type"] == "Kernel"]
    assert [(row["op_name"], row["op_occurrences"]) for row in kernels] == [("lambda_grad", "3")]
    assert all(float(row["op_total_time(ms)"]) > 0 for row in detail.values())
    assert sum(float(row["total_proportion"]) for row in detail.values()) == pytest.approx(1, abs=1e-4)
    types = {row["op_type"]: row for row in read_csv(folder / "FRAMEWORK" / "cpu_op_type_info_0.csv")}
    assert types["matmul"]["execution_frequency(per-step)"] == "1"
    calls = (folder / "FRAMEWORK" / "cpu_op_execute_timestamp_0.txt").read_text().splitlines()
    assert len(next(line for line in calls if line.startswith("matmul;")).split(";")[2].split()) == 3
    trace = json.loads((folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").read_text())
    spans = [event for event in trace if event["ph"] == "X"]
    assert len(spans) == sum(int(row["op_occurrences"]) for row in detail.values())
    assert sorted({event["args"]["step"] for event in spans}) == [0, 1, 2]
    steps = read_csv(folder / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv")
    assert [row["Step"] for row in steps] == ["0", "1", "2"]
    assert json.loads(profiler.op_analyse("matmul"))["matmul"]["op_occurrences"] == 3


def test_nothing_is_recorded_while_stopped(tmp_path):
    profiler = ms.Profiler(start_profile=False, output_path=str(tmp_path))
    x = Tensor(np.ones(2, np.float32))
    ops.exp(x)
    profiler.start()
    ops.exp(x)
    ops.exp(x)
    profiler.stop()
    ops.exp(x)
    assert json.loads(profiler.op_analyse(["exp"])) == {"exp": {
        "op_occurrences": 2, "op_total_time(ms)": pytest.approx(json.loads(profiler.op_analyse("exp"))["exp"]
                                                                 ["op_total_time(ms)"]),
        "op_avg_time(ms)": pytest.approx(json.loads(profiler.op_analyse("exp"))["exp"]["op_avg_time(ms)"])}}


def test_spellings_and_argument_errors():
    assert ms.Profiler is profiling.Profiler is ms.profiler.Profiler
    with pytest.raises(TypeError, match="'start_profile' must be bool"):
        ms.Profiler(start_profile="yes")
    with pytest.raises(TypeError, match="'output_path' must be str"):
        ms.Profiler(output_path=3, start_profile=False)
    with pytest.raises(TypeError, match="'op_name' must be str or list of str"):
        ms.Profiler(start_profile=False).op_analyse(3)
