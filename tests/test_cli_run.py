"""``npspore run``: an unchanged MindSpore program runs on npspore, end to end in a subprocess.

tests/programs/mindspore_tutorial.py imports ``mindspore``, ``mindspore.dataset``, ``mindspore.train``,
``mindspore.common.initializer`` and the 1.x paths (``dataset.vision.c_transforms``,
``nn.loss.loss``). Run through the command it must print what the same file prints when its import
lines say ``npspore`` and Python runs it directly — and train: its loss falls and it classifies the test set.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from npspore.cli import main

TUTORIAL = Path(__file__).parent / "programs" / "mindspore_tutorial.py"


def _environment(tmp_path):
    return dict(os.environ, NPSPORE_CACHE_DIR=str(tmp_path / "cache"), OPENBLAS_NUM_THREADS="1")


def test_run_executes_an_unchanged_mindspore_tutorial(tmp_path):
    run = subprocess.run([sys.executable, "-m", "npspore", "run", str(TUTORIAL), "--epochs", "2"], cwd=tmp_path,
                         env=_environment(tmp_path), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    steps = [re.fullmatch(r"epoch: (\d) step: (\d), loss is (\S+)", line) for line in lines[:-1]]
    assert [(int(m.group(1)), int(m.group(2))) for m in steps] == [(1, 8), (2, 8)]  # --epochs reached argv
    first_loss, last_loss = (float(m.group(3)) for m in steps)
    assert last_loss < first_loss / 10
    assert lines[-1] == "Accuracy: 1.0000"

    ported = tmp_path / "npspore_tutorial.py"
    ported.write_text(re.sub(r"^(import|from) mindspore\b", r"\1 npspore", TUTORIAL.read_text(), flags=re.M)
                      .replace("import npspore\n", "import npspore as mindspore\n"))
    direct = subprocess.run([sys.executable, str(ported), "--epochs", "2"], cwd=tmp_path,
                            env=_environment(tmp_path), capture_output=True, text=True, timeout=300)
    assert direct.returncode == 0, direct.stderr
    assert run.stdout == direct.stdout


def test_run_gives_the_script_its_argv_main_and_exit_status(tmp_path, capsys):
    script = tmp_path / "script.py"
    script.write_text("import sys\nimport mindspore, npspore\n"
                      "print(__name__, sys.argv[1:], mindspore is npspore, sys.path[0] == sys.argv[0].rsplit('/', 1)[0])\n"
                      "sys.exit(int(sys.argv[1]))\n")
    assert main(["run", str(script), "3", "--help"]) == 3
    assert capsys.readouterr().out == "__main__ ['3', '--help'] True True\n"
    assert "mindspore" not in sys.modules


def test_run_prints_the_scripts_traceback_from_its_own_frames(tmp_path, capsys):
    script = tmp_path / "broken.py"
    script.write_text("import mindspore.rewrite\n")
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n  File \"" + str(script) + "\", line 1, in <module>")
    assert err.rstrip().endswith("ModuleNotFoundError: MindSpore's module 'mindspore.rewrite' is not implemented in "
                                 "npspore (npspore has no module 'npspore.rewrite')")
    assert "runpy" not in err


def test_run_of_a_missing_file_is_an_input_error(tmp_path, capsys):
    assert main(["run", str(tmp_path / "absent.py")]) == 2
    assert capsys.readouterr().err == f"npspore: error: cannot run {str(tmp_path / 'absent.py')!r}: no such file\n"


@pytest.mark.parametrize("code, status", [("None", 0), ("'stopped'", 1)])
def test_run_maps_sys_exit_as_python_does(tmp_path, capsys, code, status):
    script = tmp_path / "leave.py"
    script.write_text(f"import sys\nsys.exit({code})\n")
    assert main(["run", str(script)]) == status
    assert capsys.readouterr().err == ("stopped\n" if status else "")
