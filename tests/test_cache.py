"""Disk cache: atomic owner-only files, verification before use, regeneration of bad files."""
import os
import stat
import subprocess
import sys
import textwrap

import pytest

from npspore.compiler import cache


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    directory = tmp_path / "kernels"
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(directory))
    return directory


def test_store_then_load_round_trips(cache_dir):
    path = cache.store("k1", "kernel = 1\n")
    assert path == str(cache_dir / "k1.py")
    assert cache.load("k1") == ("kernel = 1\n", path)
    assert stat.S_IMODE(os.stat(cache_dir).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


@pytest.mark.parametrize("damage", ["truncate", "edit", "group_writable", "missing_digest"])
def test_damaged_or_foreign_files_are_discarded_never_loaded(cache_dir, damage):
    path = cache.store("k2", "kernel = 2\n# long enough to truncate\n")
    if damage == "truncate":
        with open(path, "r+b") as handle:
            handle.truncate(5)
    elif damage == "edit":
        with open(path, "a") as handle:
            handle.write("import os; os.system('echo pwned')\n")
    elif damage == "group_writable":
        os.chmod(path, 0o666)
    else:
        os.unlink(cache_dir / "k2.sha256")
    assert cache.load("k2") is None
    if damage != "missing_digest":
        assert not os.path.exists(path)        # discarded so the next compile regenerates it


def test_empty_env_var_turns_the_disk_cache_off(monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", "")
    assert cache.cache_dir() is None
    assert cache.store("k3", "kernel = 3\n") is None
    assert cache.load("k3") is None


def test_context_switch_turns_the_disk_cache_off(cache_dir):
    import npspore as ms

    ms.set_context(compile_cache=False)
    try:
        assert cache.cache_dir() is None
    finally:
        ms.set_context(compile_cache=True)
    assert cache.cache_dir() == str(cache_dir)


def test_two_processes_storing_the_same_key_both_succeed(cache_dir):
    script = textwrap.dedent(f"""
        import os
        os.environ["NPSPORE_CACHE_DIR"] = {str(cache_dir)!r}
        from npspore.compiler import cache
        for _ in range(200):
            assert cache.store("same", "kernel = 'x' * 1000\\n")
            assert cache.load("same") is not None
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(2)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    assert cache.load("same")[0] == "kernel = 'x' * 1000\n"
    assert not [n for n in os.listdir(cache_dir) if n.startswith(".tmp-")]


def test_entries_lists_header_fields(cache_dir):
    cache.store("k4", "# callable: f\n# signature: (float32[2])\nkernel = 4\n")
    (entry,) = cache.entries()
    assert entry["key"] == "k4"
    assert entry["header"] == {"callable": "f", "signature": "(float32[2])"}
    assert entry["size"] == len("# callable: f\n# signature: (float32[2])\nkernel = 4\n")
