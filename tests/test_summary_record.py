"""``SummaryRecord`` against MindSpore 2.10's summary files.

``tests/fixtures/summary/mindspore.summary`` was written by the real MindSpore 2.10.0's SummaryRecord
(``tools/make_summary_fixtures.py``); npspore's file for the same calls must hold the same events (all
but their wall times), read back with npspore's reader, whose checksums must accept MindSpore's file. (Read
with MindSpore's own ``summary_pb2``, npspore's file gave the same events too, when it was written.)
The errors are MindSpore 2.10's.
"""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor
from npspore.core import record_framing as event_file
from npspore.train.summary import SummaryRecord
from npspore.train.summary.summary_proto import event_message

FIXTURE = Path(__file__).parent / "fixtures" / "summary" / "mindspore.summary"
_spec = importlib.util.spec_from_file_location(
    "make_summary_fixtures", Path(__file__).parent.parent / "tools" / "make_summary_fixtures.py")
fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fixtures)


def events(path):
    """The events of a summary file, their wall times zeroed."""
    parsed = []
    for data in event_file.records(Path(path).read_bytes(), str(path)):
        event = event_message()()
        event.ParseFromString(data)
        assert event.wall_time > 1.7e9
        event.wall_time = 0
        parsed.append(event)
    return parsed


def test_the_events_are_mindspores(tmp_path):
    with SummaryRecord(str(tmp_path)) as summary_record:
        fixtures.record_values(summary_record, Tensor)
    [written] = list(tmp_path.iterdir())
    assert written.name.startswith("events.out.events.summary.") and written.name.endswith("_MS")
    ours, theirs = events(written), events(FIXTURE)
    assert ours == theirs
    assert theirs[0].version == "MindSpore.Event:1"
    histogram = theirs[2].summary.value[2].histogram
    assert (histogram.nan_count, histogram.pos_inf_count, histogram.count) == (1, 1, 7)
    assert [(b.left, b.width, b.count) for b in histogram.buckets] == [(1.0, 3.0, 4), (4.0, 3.0, 1)]


def test_one_open_at_a_time_and_closed_records_nothing(tmp_path):
    first = ms.SummaryRecord(str(tmp_path / "a"), file_prefix="xx_", file_suffix="_yy")
    with pytest.raises(RuntimeError, match="For 'SummaryRecord', only one instance is supported in a training process"):
        SummaryRecord(str(tmp_path / "b"))
    first.close()
    assert first.record(3) is False
    [name] = [p.name for p in (tmp_path / "a").iterdir()]
    assert name.startswith("xx_.out.events.summary.") and name.endswith("_yy")
    with SummaryRecord(str(tmp_path / "b")):
        pass


def test_errors_as_mindspore(tmp_path):
    with pytest.raises(TypeError, match="For 'SummaryRecord', `file_prefix` and `file_suffix`  should be str"):
        SummaryRecord(str(tmp_path), file_prefix=3)
    with SummaryRecord(str(tmp_path)) as record:
        with pytest.raises(ValueError, match="no such \"plugin\" of 'audio'"):
            record.add_value("audio", "x", Tensor(1.0))
        with pytest.raises(TypeError, match='the parameter "value" expect to be Tensor, but got float'):
            record.add_value("scalar", "x", 1.0)
        with pytest.raises(ValueError, match='the parameter "name" type should be str'):
            record.add_value("scalar", "", Tensor(1.0))
        with pytest.raises(TypeError, match="The type of 'step' should be 'int', but got type 'str'."):
            record.record("a")
        with pytest.raises(ValueError, match="npspore writes the plugins"):
            record.add_value("train_lineage", "x", Tensor(np.zeros((1, 3, 2, 2), np.float32)))


def test_a_damaged_file_is_refused_naming_it(tmp_path):
    damaged = tmp_path / "damaged.summary"
    data = bytearray(FIXTURE.read_bytes())
    data[20] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="damaged.summary: the checksum of the record at byte 0 does not match"):
        events(damaged)


def flattened(event):
    """An event as (step, [(tag, kind, numbers)]) with its numbers in float32, to compare within rounding."""
    values = []
    for value in event.summary.value:
        kind = value.WhichOneof("value")
        if kind == "scalar_value":
            numbers = [value.scalar_value]
        else:
            h = value.histogram
            numbers = [h.min, h.max, h.sum, h.count] + [n for b in h.buckets for n in (b.left, b.width, b.count)]
        values.append((value.tag, kind, np.float32(numbers)))
    return event.step, values


def test_summary_collector_writes_what_mindspores_wrote(tmp_path):
    program = Path(__file__).parent / "programs" / "summary_collector_training.py"
    run = subprocess.run([sys.executable, "-m", "npspore", "run", str(program), str(tmp_path / "summary")],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "NPSPORE_CACHE_DIR": str(tmp_path / "cache")})
    assert run.returncode == 0, run.stderr
    [written] = list((tmp_path / "summary").iterdir())
    ours = [flattened(e) for e in events(written)]
    theirs = [flattened(e) for e in events(FIXTURE.parent / "collector.summary")]
    assert [(step, [(tag, kind) for tag, kind, _ in values]) for step, values in ours] == \
        [(step, [(tag, kind) for tag, kind, _ in values]) for step, values in theirs]
    assert [step for step, _ in theirs] == [0, 1, 3, 6]
    for (_, our_values), (_, their_values) in zip(ours, theirs):
        for (_, _, got), (_, _, expected) in zip(our_values, their_values):
            np.testing.assert_allclose(got, expected, rtol=2e-6, atol=1e-7)


def test_the_callback_parameters_of_mindspores_private_spelling():
    from npspore.train.callback import _InternalCallbackParam   # model-zoo training wrappers build their own
    params = _InternalCallbackParam()
    params.cur_step_num = 3   # as MindSpore 2.10's: a dict whose keys are attributes
    assert dict(params) == {"cur_step_num": 3} and params.cur_step_num == 3
