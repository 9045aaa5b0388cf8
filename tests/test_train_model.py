"""Model.train/eval/fit/predict and the callbacks, on a self-updating least-squares training cell.

Line formats are MindSpore 2.10's (observed on CPU): ``epoch: 1 step: 1, loss is 0.6931471824645996``,
``Train epoch time: 359.703 ms, per step time: 119.901 ms``, ``Eval result: epoch 1, metrics: {...}``.
"""
import io
import itertools
import os
import re
import stat
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import npspore as ms
import npspore.dataset  # noqa: F401 - ms.dataset
from npspore import nn, ops
from npspore.train import (CheckpointConfig, EarlyStopping, History, LambdaCallback, LossMonitor, MAE, Model,
                           ModelCheckpoint, ProgressBar, ReduceLROnPlateau, TimeMonitor)
from npspore.train.callback.callback import InternalCallbackParam, RunContext
from train_helpers import ArrayDataset, LinearRegressionStep, regression_data, regression_losses

X, Y = regression_data()
LOSSES = regression_losses(epochs=2)


class RegressionEval(nn.Cell):
    """(loss, prediction, label) of the training cell's current weights."""

    def __init__(self, step):
        super().__init__()
        self.step = step

    def construct(self, x, y):
        prediction = ops.matmul(x, self.step.w)
        return ops.mean((prediction - y) ** 2), prediction, y


def _lines(capsys):
    return capsys.readouterr().out.splitlines()


def test_loss_monitor_prints_mindspores_lines(capsys):
    Model(LinearRegressionStep()).train(2, ArrayDataset(X, Y), callbacks=LossMonitor())
    expected = [f"epoch: {1 + i // 3} step: {1 + i % 3}, loss is {loss}" for i, loss in enumerate(LOSSES)]
    assert _lines(capsys) == expected


def test_loss_monitor_every_second_step_and_time_monitor(capsys):
    Model(LinearRegressionStep()).train(2, ArrayDataset(X, Y), callbacks=[LossMonitor(2), TimeMonitor()])
    lines = _lines(capsys)
    assert [line for line in lines if line.startswith("epoch")] == [
        f"epoch: 1 step: 2, loss is {LOSSES[1]}", f"epoch: 2 step: 1, loss is {LOSSES[3]}",
        f"epoch: 2 step: 3, loss is {LOSSES[5]}"]
    timing = [line for line in lines if not line.startswith("epoch")]
    assert len(timing) == 2
    assert all(re.fullmatch(r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms", line) for line in timing)


def test_history_and_lambda_callback_see_the_run_parameters():
    history, seen = History(), []

    def on_step_end(run_context):
        params = run_context.original_args()
        seen.append((params.cur_epoch_num, params.cur_step_num, params.batch_num, params.epoch_num, params.mode,
                     float(params.net_outputs.asnumpy())))

    Model(LinearRegressionStep()).train(2, ArrayDataset(X, Y), callbacks=[history, LambdaCallback(
        on_train_step_end=on_step_end)])
    assert seen == [(1 + i // 3, i + 1, 3, 2, "train", loss) for i, loss in enumerate(LOSSES)]
    assert history.epoch == {"epoch": [1, 2]}
    assert [float(v) for v in history.history["net_output"]] == [LOSSES[2], LOSSES[5]]


def test_request_stop_ends_training_after_the_step():
    steps = []

    def stop_at_second(run_context):
        steps.append(run_context.original_args().cur_step_num)
        if len(steps) == 2:
            run_context.request_stop()

    Model(LinearRegressionStep()).train(3, ArrayDataset(X, Y), callbacks=LambdaCallback(on_train_step_end=stop_at_second))
    assert steps == [1, 2]


def test_custom_callback_hook_order():
    calls = []

    class Recorder(ms.train.Callback):
        def on_train_begin(self, run_context):
            calls.append("begin")

        def on_train_epoch_begin(self, run_context):
            calls.append("epoch_begin")

        def step_end(self, run_context):  # old-style hook, called by on_train_step_end
            calls.append("step")

        def on_train_epoch_end(self, run_context):
            calls.append("epoch_end")

        def on_train_end(self, run_context):
            calls.append("end")

    Model(LinearRegressionStep()).train(1, ArrayDataset(X, Y), callbacks=[Recorder()])
    assert calls == ["begin", "epoch_begin", "step", "step", "step", "epoch_end", "end"]


def test_eval_fit_and_predict(capsys):
    step = LinearRegressionStep()
    model = Model(step, eval_network=RegressionEval(step), metrics={"mae": MAE()}, eval_indexes=[0, 1, 2])
    model.fit(2, ArrayDataset(X, Y), ArrayDataset(X, Y), callbacks=[LossMonitor(3)])
    weights = step.w.asnumpy()
    mae = np.abs(Y - X @ weights).sum() / len(X)
    lines = _lines(capsys)
    assert lines[0] == f"epoch: 1 step: 3, loss is {LOSSES[2]}"
    assert lines[1].startswith("Eval result: epoch 1, metrics: {'mae': ")
    assert lines[3] == f"Eval result: epoch 2, metrics: {{'mae': {model.eval(ArrayDataset(X, Y))['mae']}}}"
    np.testing.assert_allclose(model.eval(ArrayDataset(X, Y))["mae"], mae, rtol=1e-6)
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    np.testing.assert_allclose(Model(net).predict(ms.Tensor(X)).asnumpy(), X.sum(1, keepdims=True), rtol=1e-6)


def test_early_stopping_and_reduce_lr_follow_the_monitored_value(capsys):
    params = InternalCallbackParam(cur_epoch_num=0, net_outputs=None, train_network=nn.Dense(1, 1))
    params.optimizer = type("Optimizer", (), {})()
    params.optimizer.learning_rate = ms.Parameter(ms.Tensor(np.float32(0.1)), name="learning_rate")
    run_context = RunContext(params)
    early = EarlyStopping(monitor="eval_loss", patience=2, verbose=True)
    reduce = ReduceLROnPlateau(monitor="eval_loss", patience=1, factor=0.5, verbose=True)
    for callback in (early, reduce):
        callback.on_train_begin(run_context)
    for epoch, value in enumerate([1.0, 0.5, 0.6, 0.55, 0.7], start=1):
        params.cur_epoch_num = epoch
        params.eval_results = {"eval_loss": value}
        reduce.on_train_epoch_end(run_context)
        early.on_train_epoch_end(run_context)
        if run_context.get_stop_requested():
            break
    early.on_train_end(run_context)
    assert epoch == 4 and early.stopped_epoch == 4 and early.best == 0.5
    assert float(params.optimizer.learning_rate.asnumpy()) == pytest.approx(0.025)
    assert _lines(capsys) == ["Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.05.",
                              "Epoch 00004: ReduceLROnPlateau reducing learning rate to 0.025.",
                              "Epoch 00004: early stopping"]


def test_model_checkpoint_names_keeps_and_appends(tmp_path):
    step = LinearRegressionStep()
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2, append_info=["epoch_num", "step_num"])
    checkpoint = ModelCheckpoint(prefix="lsq", directory=str(tmp_path), config=config)
    Model(step).train(2, ArrayDataset(X, Y), callbacks=[checkpoint])
    assert sorted(os.listdir(tmp_path)) == ["lsq-2_1.ckpt", "lsq-2_3.ckpt"]
    assert checkpoint.latest_ckpt_file_name == str(tmp_path / "lsq-2_3.ckpt")
    saved = ms.load_checkpoint(str(tmp_path / "lsq-2_3.ckpt"))
    np.testing.assert_array_equal(saved["w"].asnumpy(), step.w.asnumpy())
    assert (int(saved["epoch_num"].asnumpy()), int(saved["step_num"].asnumpy())) == (2, 6)
    again = ModelCheckpoint(prefix="lsq", directory=str(tmp_path))
    Model(LinearRegressionStep()).train(1, ArrayDataset(X, Y), callbacks=[again])
    assert os.path.basename(again.latest_ckpt_file_name) == "lsq_1-1_3.ckpt"


def test_progress_bar_plain_lines_and_terminal_redraws():
    plain = io.StringIO()
    Model(LinearRegressionStep()).train(1, ArrayDataset(X, Y), callbacks=ProgressBar(file=plain))
    lines = plain.getvalue().splitlines()
    assert [line.split(" steps/s")[0].rsplit(" ", 1)[0] for line in lines] == [
        "epoch 1/1 step 1/3 (33%)", "epoch 1/1 step 2/3 (66%)", "epoch 1/1 step 3/3 (100%)"]
    assert lines[-1].endswith(f"loss {LOSSES[2]:.4f}")

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    Model(LinearRegressionStep()).train(1, ArrayDataset(X, Y), callbacks=ProgressBar(file=terminal))
    text = terminal.getvalue()
    assert text.startswith("\repoch 1/1 step 1/3") and text.endswith("\n") and text.count("\n") == 1


def test_bad_arguments():
    model = Model(LinearRegressionStep())
    with pytest.raises(ValueError, match="epoch"):
        model.train(0, ArrayDataset(X, Y))
    with pytest.raises(TypeError, match="Callback"):
        model.train(1, ArrayDataset(X, Y), callbacks=[print])
    with pytest.raises(TypeError, match="create_tuple_iterator"):
        model.train(1, [(X, Y)])
    with pytest.raises(ValueError, match="metrics"):
        model.eval(ArrayDataset(X, Y))
    with pytest.raises(ValueError, match="eval_network"):
        Model(nn.Dense(2, 1), metrics={"mae"})
    with pytest.raises(ValueError, match="optimizer"):
        Model(nn.Dense(2, 1), amp_level="O2")
    with pytest.raises(ValueError, match="per_print_times"):
        LossMonitor(-1)
    with pytest.raises(ValueError, match="can't be all None or 0"):
        CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0)
    with pytest.raises(ValueError, match="prefix"):
        ModelCheckpoint(prefix="a/b")


def test_printed_lines_and_values_match_mindspore_on_a_small_classifier(capsys):
    # The same program on MindSpore 2.10 CPU printed these lines (the losses to float32 rounding).
    import npspore.dataset as ds

    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(12, 2)
    y = (x.sum(1) > 0).astype(np.int32)
    data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(4)
    net = nn.Dense(2, 2, weight_init="zeros", bias_init="zeros")
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.SGD(net.trainable_params(), learning_rate=0.5), metrics={"accuracy"})
    model.train(2, data, callbacks=[LossMonitor()])
    print(model.eval(data))
    model.fit(1, data, data, callbacks=[LossMonitor(2)])
    mindspore_lines = [
        "epoch: 1 step: 1, loss is 0.6931471824645996", "epoch: 1 step: 2, loss is 0.6659643650054932",
        "epoch: 1 step: 3, loss is 0.5938193798065186", "epoch: 2 step: 1, loss is 0.33555740118026733",
        "epoch: 2 step: 2, loss is 0.555056095123291", "epoch: 2 step: 3, loss is 0.27395716309547424",
        "{'accuracy': 1.0}", "epoch: 1 step: 2, loss is 0.5054395794868469",
        "Eval result: epoch 1, metrics: {'accuracy': 1.0}"]
    lines = _lines(capsys)
    assert len(lines) == len(mindspore_lines)
    for line, expected in zip(lines, mindspore_lines):
        head, _, value = expected.partition("loss is ")
        assert line.startswith(head)
        if value:
            assert float(line.partition("loss is ")[2]) == pytest.approx(float(value), rel=1e-5)
        else:
            assert line == expected
    np.testing.assert_allclose(model.predict(ms.Tensor(x[:2])).asnumpy(),
                               [[1.3224254, -1.3224252], [1.0754943, -1.0754942]], rtol=1e-5)
    info = model.train_network.cache_info()  # the training step compiled (or loaded) once, then reused
    assert (info["entries"], info["compiles"] + info["disk_loads"], info["hits"]) == (1, 1, 8)


EPOCH_ORDERS = textwrap.dedent('''
    import sys
    import numpy as np
    import npspore as ms
    import npspore.dataset as ds
    from npspore import nn


    class Spy(ms.train.Callback):
        """Records the sample ids of each step's batch."""

        def __init__(self):
            self.seen = []

        def on_train_step_begin(self, run_context):
            batch = run_context.original_args().train_dataset_element[0]
            self.seen.append(batch.asnumpy().ravel().astype(int).tolist())


    def epoch_orders(method, seed_with):
        """The order of the 8 sample ids in each of 3 epochs of Model.train/fit over a shuffled dataset."""
        seed_with(1)
        ids = np.arange(8, dtype=np.float32).reshape(8, 1)
        data = ds.NumpySlicesDataset({"x": ids, "y": np.zeros((8, 1), np.float32)}, shuffle=True).batch(8)
        net = nn.Dense(1, 1)
        model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.0))
        spy = Spy()
        getattr(model, method)(3, data, callbacks=[spy])
        return spy.seen


    if __name__ == "__main__":
        print(epoch_orders(sys.argv[1], ms.set_seed))
''')


@pytest.mark.parametrize("method", ["train", "fit"])
@pytest.mark.parametrize("seed_with", ["ms.set_seed", "ds.config.set_seed"])
def test_each_epoch_draws_its_own_order_the_same_on_every_run(tmp_path, method, seed_with, isolated_seeds):
    # Observed on MindSpore 2.10 (repro r16): Model.train runs its epochs as passes of one iterator,
    # and each pass of a shuffled source draws a new order. npspore replayed the first epoch's.
    script = tmp_path / "epoch_orders.py"
    script.write_text(EPOCH_ORDERS)
    namespace = {"__name__": "epoch_orders"}
    exec(compile(EPOCH_ORDERS, str(script), "exec"), namespace)  # noqa: S102 - the script above
    seeding = {"ms.set_seed": ms.set_seed, "ds.config.set_seed": ms.dataset.config.set_seed}[seed_with]
    orders = namespace["epoch_orders"](method, seeding)
    assert len(orders) == 3 and all(sorted(order) == list(range(8)) for order in orders)
    assert len({tuple(order) for order in orders}) == 3
    assert namespace["epoch_orders"](method, seeding) == orders
    if seed_with == "ms.set_seed":  # and in another process
        result = subprocess.run([sys.executable, str(script), method], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == str(orders)


def test_a_dataset_whose_iterator_is_a_generator_still_gets_every_epoch():
    # A user's dataset may return a one-pass iterator (a generator): Model asks it for one per epoch.
    seen = []
    data = ArrayDataset(X, Y)
    Model(LinearRegressionStep()).train(3, data, callbacks=[LambdaCallback(on_train_step_end=lambda rc: seen.append(
        rc.original_args().cur_epoch_num))])
    assert data.get_dataset_size() == 3 and seen == [1, 1, 1, 2, 2, 2, 3, 3, 3]


def test_train_on_the_first_rows_of_an_endless_generator():
    # take(n).get_dataset_size() counted the endless source first: Model.train hung before step 1.
    def endless():
        for i in itertools.count():
            if i == 1000:
                raise AssertionError("the size of take(4) read 1000 rows of its endless source")
            yield np.full((1, 2), i, np.float32), np.zeros((1, 1), np.float32)

    data = ms.dataset.GeneratorDataset(endless, ["x", "y"]).take(4)
    steps = []
    Model(LinearRegressionStep()).train(2, data, callbacks=[LambdaCallback(on_train_step_end=lambda rc: steps.append(
        (rc.original_args().cur_epoch_num, rc.original_args().batch_num)))])
    assert steps == [(1, 4)] * 4 + [(2, 4)] * 4


def test_model_checkpoint_removes_the_oldest_file_only_after_the_new_one_is_durable(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace, real_remove = os.fsync, os.replace, os.remove

    def fsync(fd):
        events.append("fsync dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(source, target):
        events.append(f"rename {os.path.basename(target)}")
        real_replace(source, target)

    def remove(path):
        events.append(f"remove {os.path.basename(path)}")
        real_remove(path)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "remove", remove)
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1)
    checkpoint = ModelCheckpoint(prefix="lsq", directory=str(tmp_path), config=config)
    Model(LinearRegressionStep()).train(1, ArrayDataset(X, Y, batch_size=5), callbacks=[checkpoint])
    assert events == ["fsync file", "rename lsq-1_1.ckpt", "fsync dir",
                      "fsync file", "rename lsq-1_2.ckpt", "fsync dir", "remove lsq-1_1.ckpt"]
    assert os.listdir(tmp_path) == ["lsq-1_2.ckpt"]


def test_model_checkpoint_neither_follows_nor_removes_a_planted_symlink(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my notes")
    notes.chmod(0o644)
    checkpoints = tmp_path / "shared"
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1)
    checkpoint = ModelCheckpoint(prefix="lsq", directory=str(checkpoints), config=config)
    # Planted once training is set up: under the first file's name, and as an "older" checkpoint to retire.
    (checkpoints / "lsq-1_1.ckpt").symlink_to(notes)
    (checkpoints / "lsq-0_9.ckpt").symlink_to(notes)
    Model(LinearRegressionStep()).train(1, ArrayDataset(X, Y), callbacks=[checkpoint])
    assert notes.read_bytes() == b"my notes" and stat.S_IMODE(notes.stat().st_mode) == 0o644
    assert sorted(os.listdir(checkpoints)) == ["lsq-0_9.ckpt", "lsq-1_3.ckpt"]
    assert (checkpoints / "lsq-0_9.ckpt").is_symlink()


class StopAtStep(ms.train.Callback):
    """Raises at the given global step, after the step ran."""

    def __init__(self, step):
        super().__init__()
        self.step = step

    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            raise RuntimeError("data loader died")


def test_exception_save_writes_mindspores_breakpoint_checkpoint_then_reraises(tmp_path):
    step = LinearRegressionStep()
    config = CheckpointConfig(save_checkpoint_steps=100, exception_save=True, append_info=["epoch_num", "step_num"])
    checkpoint = ModelCheckpoint(prefix="lsq", directory=str(tmp_path), config=config)
    with pytest.raises(RuntimeError, match="data loader died"):
        Model(step).train(2, ArrayDataset(X, Y), callbacks=[checkpoint, StopAtStep(5)])
    assert os.listdir(tmp_path) == ["lsq-2_2_breakpoint.ckpt"]
    saved = ms.load_checkpoint(str(tmp_path / "lsq-2_2_breakpoint.ckpt"))
    np.testing.assert_array_equal(saved["w"].asnumpy(), step.w.asnumpy())
    assert (int(saved["epoch_num"].asnumpy()), int(saved["step_num"].asnumpy())) == (2, 2)
    with pytest.raises(RuntimeError, match="data loader died"):  # a second one gets a prefix suffix
        Model(LinearRegressionStep()).fit(1, ArrayDataset(X, Y), callbacks=[checkpoint, StopAtStep(1)])
    assert sorted(os.listdir(tmp_path)) == ["lsq-2_2_breakpoint.ckpt", "lsq_1-1_1_breakpoint.ckpt"]


def test_without_exception_save_an_exception_saves_nothing(tmp_path):
    config = CheckpointConfig(save_checkpoint_steps=100)
    checkpoint = ModelCheckpoint(prefix="lsq", directory=str(tmp_path), config=config)
    with pytest.raises(RuntimeError, match="data loader died"):
        Model(LinearRegressionStep()).train(1, ArrayDataset(X, Y), callbacks=[checkpoint, StopAtStep(2)])
    assert os.listdir(tmp_path) == []


def test_model_checkpoint_removes_what_a_killed_save_left_of_its_prefix(tmp_path):
    leftovers = [".lsq-1_3.ckpt.k2j4x9.tmp", ".lsq_1-2_1.safetensors.a8b7c6.tmp"]
    kept = [".other-1_3.ckpt.k2j4x9.tmp", ".lsq-notes", "lsq-1_2.ckpt"]
    for name in leftovers + kept:
        (tmp_path / name).write_bytes(b"partial")
    (tmp_path / ".lsq-1_4.ckpt.z1.tmp").symlink_to(tmp_path / "lsq-1_2.ckpt")
    ModelCheckpoint(prefix="lsq", directory=str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == sorted(kept + [".lsq-1_4.ckpt.z1.tmp"])
