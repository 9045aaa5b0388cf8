"""Disk cache: atomic owner-only files, verification before use, regeneration of bad files.

Tests in which another user plants files need root (to chown files to uid 65534); elsewhere they skip.
"""
import os
import stat
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import npspore as ms
from npspore.compiler import cache

OTHER_UID = 65534  # "nobody"
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's files needs root (os.chown)")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    directory = tmp_path / "kernels"
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(directory))
    return directory


K1, K2, K3 = ("1" * 64), ("2" * 64), ("3" * 64)


def test_store_then_load_round_trips(cache_dir):
    path = cache.store(K1, "kernel = 1\n")
    assert path == str(cache_dir / f"{K1}.py")
    assert cache.load(K1) == ("kernel = 1\n", path)
    assert stat.S_IMODE(os.stat(cache_dir).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    secret = cache.secret_path()
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600 and not secret.startswith(str(cache_dir))


@pytest.mark.parametrize("damage", ["truncate", "edit", "group_writable", "missing_seal", "wrong_secret"])
def test_damaged_or_foreign_files_are_discarded_never_loaded(cache_dir, damage):
    path = cache.store(K2, "kernel = 2\n# long enough to truncate\n")
    if damage == "truncate":
        with open(path, "r+b") as handle:
            handle.truncate(5)
    elif damage == "edit":
        with open(path, "rb") as handle:
            data = handle.read()
        with open(path, "wb") as handle:
            handle.write(b"import os; os.system('echo pwned')\n" + data)
    elif damage == "group_writable":
        os.chmod(path, 0o666)
    elif damage == "missing_seal":
        with open(path, "wb") as handle:
            handle.write(b"kernel = 2\n")
    else:  # sealed with another secret, as by another user who knows the key
        with open(path, "wb") as handle:
            handle.write(b"kernel = 2\n" + cache.seal(K2, b"kernel = 2\n", b"x" * 32))
    assert cache.load(K2) is None
    assert not os.path.exists(path)        # discarded so the next compile regenerates it


def test_two_swapped_verified_kernels_do_not_load(cache_dir):
    cache.store(K1, "kernel = 'first'\n")
    cache.store(K2, "kernel = 'second'\n")
    for name in os.listdir(cache_dir):  # every file of each entry, whatever the format
        if name.startswith((K1, K2)):
            os.rename(cache_dir / name, cache_dir / ("swap-" + name))
    for name in os.listdir(cache_dir):
        if name.startswith("swap-"):
            other = K2 if name[5:].startswith(K1) else K1
            os.rename(cache_dir / name, cache_dir / (other + name[5 + 64:]))
    assert cache.load(K1) is None and cache.load(K2) is None


def the_secret() -> bytes:
    """The per-user cache secret, as a planting attacker who could read it would use it."""
    cache.store(K3, "x = 0\n")  # creates the directory and the secret
    with open(cache.secret_path()) as handle:
        return bytes.fromhex(handle.read().strip())


def test_a_seal_with_the_right_mac_but_another_key_does_not_load(cache_dir):
    secret = the_secret()
    data = b"kernel = 'other'\n"
    with open(cache_dir / f"{K1}.py", "wb") as handle:
        handle.write(data + cache.seal(K2, data, secret))  # a valid entry of K2, stored under K1
    assert cache.load(K1) is None


@pytest.mark.parametrize("plant", ["fifo", "directory", "symlink", "dev_zero", "too_large"])
def test_entries_that_are_not_small_regular_files_never_hang_or_load(cache_dir, plant):
    cache.store(K3, "x = 0\n")  # creates the directory
    target = cache_dir / f"{K1}.py"
    if plant == "fifo":
        os.mkfifo(target)
    elif plant == "directory":
        os.mkdir(target)
    elif plant == "symlink":
        os.symlink(cache.store(K2, "kernel = 'linked'\n"), target)
    elif plant == "dev_zero":
        os.symlink("/dev/zero", target)
    else:
        with open(target, "wb") as handle:
            handle.truncate(cache.MAX_ENTRY_BYTES + 1)
    assert cache.load(K1) is None
    assert K1 not in [e["key"] for e in cache.entries()]


def test_a_non_utf8_entry_is_discarded(cache_dir):
    secret = the_secret()
    data = b"kernel = '\xff\xfe'\n"
    with open(cache_dir / f"{K1}.py", "wb") as handle:
        handle.write(data + cache.seal(K1, data, secret))
    assert cache.load(K1) is None and not os.path.exists(cache_dir / f"{K1}.py")


def test_an_entry_raising_system_exit_is_discarded_not_fatal(cache_dir, tmp_path):
    path = cache.store(K1, "raise SystemExit(3)\nkernel = None\n")
    with pytest.raises(RuntimeError, match="raised SystemExit"):
        cache.execute(*cache.load(K1))
    # end to end: a process finding such a (validly sealed) kernel under its key recompiles
    program = tmp_path / "program.py"
    program.write_text("import numpy as np\nimport npspore as ms\n\n@ms.jit\ndef f(x):\n    return x * 5\n\n"
                       "print(f(ms.Tensor(np.array([1.0], np.float32))).asnumpy().tolist())\n")
    env = dict(os.environ, NPSPORE_CACHE_DIR=str(cache_dir))
    first = subprocess.run([sys.executable, str(program)], env=env, capture_output=True, text=True, timeout=120)
    assert first.stdout == "[5.0]\n", first.stderr
    for entry in cache.entries():
        cache.store(entry["key"], "raise SystemExit(3)\n")
    again = subprocess.run([sys.executable, str(program)], env=env, capture_output=True, text=True, timeout=120)
    assert (again.returncode, again.stdout) == (0, "[5.0]\n"), again.stderr


def test_keys_are_sha256_hex_so_no_name_escapes_the_directory(cache_dir):
    for key in ("../outside", "k1", "A" * 64, "1" * 63):
        with pytest.raises(ValueError, match="64 lowercase hex digits"):
            cache.store(key, "x = 0\n")


def test_empty_env_var_turns_the_disk_cache_off(monkeypatch):
    monkeypatch.setenv("NPSPORE_CACHE_DIR", "")
    assert cache.cache_dir() is None
    assert cache.store(K3, "kernel = 3\n") is None
    assert cache.load(K3) is None


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
            assert cache.store("5" * 64, "kernel = 'x' * 1000\\n")
            assert cache.load("5" * 64) is not None
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(2)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    assert cache.load("5" * 64)[0] == "kernel = 'x' * 1000\n"
    assert not [n for n in os.listdir(cache_dir) if n.startswith(".tmp-")]


def test_entries_lists_header_fields(cache_dir):
    cache.store(K1, "# callable: f\n# signature: (float32[2])\nkernel = 4\n")
    (entry,) = cache.entries()
    assert entry["key"] == K1
    assert entry["header"] == {"callable": "f", "signature": "(float32[2])"}
    assert entry["size"] == os.path.getsize(cache_dir / f"{K1}.py")


# --------------------------------------------------------------------------- unusable or unsafe directories


def compile_twice_in_memory():
    """Compile two kernels of a fresh function; returns the RuntimeWarnings (the disk cache's) raised."""
    cache._WARNED.clear()

    @ms.jit
    def triple(x):
        return x * 3

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = triple(ms.Tensor(np.array([1.0], np.float32))).asnumpy()
        second = triple(ms.Tensor(np.array([1.0, 2.0], np.float32))).asnumpy()
    assert first.tolist() == [3.0] and second.tolist() == [3.0, 6.0]
    return [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("case", ["home_missing", "etc_passwd", "unwritable_parent", "name_too_long", "nul_byte"])
def test_an_unusable_directory_compiles_in_memory_and_warns_once(tmp_path, monkeypatch, case):
    plain_file = tmp_path / "plain-file"
    plain_file.write_text("")
    if case == "home_missing":
        monkeypatch.delenv("NPSPORE_CACHE_DIR")
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        monkeypatch.setenv("HOME", str(plain_file / "nonexistent"))
    elif case == "etc_passwd":
        monkeypatch.setenv("NPSPORE_CACHE_DIR", "/etc/passwd")
    elif case == "unwritable_parent":
        parent = tmp_path / "read-only"
        parent.mkdir(mode=0o500)
        # root writes anywhere, so as root the parent is a read-only kernel filesystem instead
        monkeypatch.setenv("NPSPORE_CACHE_DIR", "/proc/npspore-kernels" if os.geteuid() == 0 else str(parent / "k"))
    elif case == "name_too_long":
        monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path / ("k" * (os.pathconf(tmp_path, "PC_NAME_MAX") + 1))))
    else:
        monkeypatch.setattr(os, "environ", dict(os.environ, NPSPORE_CACHE_DIR=f"{tmp_path}/a\0b"))
    messages = compile_twice_in_memory()
    assert len(messages) == 1 and "kernels are compiled in memory only" in messages[0]


def test_a_directory_that_cannot_be_written_is_warned_about_once(cache_dir, monkeypatch):
    cache_dir.mkdir(mode=0o700)

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    messages = compile_twice_in_memory()
    assert len(messages) == 1 and "No space left on device" in messages[0]


def test_an_interrupted_write_leaves_no_temporary_file(cache_dir, monkeypatch):
    cache.store(K3, "x = 0\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        cache.store(K1, "kernel = 1\n")
    assert os.listdir(cache_dir) == [f"{K3}.py"]


def test_a_group_writable_directory_is_refused_not_tightened(cache_dir):
    cache_dir.mkdir(mode=0o700)
    os.chmod(cache_dir, 0o775)
    messages = compile_twice_in_memory()
    assert len(messages) == 1 and "writable by group or others" in messages[0]
    assert os.listdir(cache_dir) == [] and stat.S_IMODE(os.stat(cache_dir).st_mode) == 0o775


def test_a_directory_reached_through_a_symlink_is_refused(tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    os.symlink(real, tmp_path / "link")
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path / "link"))
    messages = compile_twice_in_memory()
    assert len(messages) == 1 and "symlink" in messages[0]
    assert os.listdir(real) == []


@as_root
def test_a_directory_owned_by_another_user_is_refused(cache_dir):
    cache_dir.mkdir(mode=0o700)
    os.chown(cache_dir, OTHER_UID, OTHER_UID)
    messages = compile_twice_in_memory()
    assert len(messages) == 1 and f"owned by uid {OTHER_UID}" in messages[0]
    assert os.listdir(cache_dir) == []


@as_root
def test_a_directory_under_another_users_symlink_is_refused(tmp_path, monkeypatch):
    (tmp_path / "theirs").mkdir()
    os.symlink(tmp_path / "theirs", tmp_path / "link")
    os.chown(tmp_path / "link", OTHER_UID, OTHER_UID, follow_symlinks=False)
    monkeypatch.setenv("NPSPORE_CACHE_DIR", str(tmp_path / "link" / "kernels"))
    messages = compile_twice_in_memory()
    assert len(messages) == 1 and "a symlink owned by uid" in messages[0]


@as_root
def test_an_entry_planted_by_another_user_is_not_loaded(cache_dir):
    path = cache.store(K1, "kernel = 'mine'\n")
    os.chown(path, OTHER_UID, OTHER_UID)  # same bytes, valid seal, but another owner
    assert cache.load(K1) is None


@pytest.mark.parametrize("problem", ["readable_by_others", "not_a_file", "damaged", "open_directory"])
def test_an_unusable_secret_keeps_kernels_in_memory(cache_dir, tmp_path, monkeypatch, problem):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    os.makedirs(os.path.dirname(cache.secret_path()))
    if problem == "readable_by_others":
        with open(cache.secret_path(), "w") as handle:
            handle.write("ab" * 32)
        os.chmod(cache.secret_path(), 0o644)
    elif problem == "not_a_file":
        os.mkdir(cache.secret_path())
    elif problem == "open_directory":  # others could replace the secret with one they know
        os.chmod(os.path.dirname(cache.secret_path()), 0o777)
    else:
        with open(cache.secret_path(), "w") as handle:
            handle.write("not hex")
        os.chmod(cache.secret_path(), 0o600)
    messages = compile_twice_in_memory()
    assert len(messages) == 1 and "secret" in messages[0]
    assert not [name for name in os.listdir(cache_dir) if name.endswith(".py")]
