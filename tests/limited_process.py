"""Loading untrusted files in a fresh Python whose address space is limited (``resource.RLIMIT_AS``).

Shared by the checkpoint and MindIR loaders' tests: a loader that allocated what a damaged file
declares, or read a device without end, dies with MemoryError there instead of exhausting the machine.
"""
import subprocess
import sys
import textwrap


def load_in_limited_process(load: str, paths: list, limit_mb: int = 400, timeout: int = 120) -> tuple:
    """Run ``load(path)`` (a Python expression over ``ms`` and ``path``) for each path in a fresh Python
    limited to ``limit_mb`` MB; return (returncode, output). Each refused file prints
    ``refused: <error class>: <error>``, each other ``loaded: <path>``."""
    code = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, ({limit_mb} << 20, {limit_mb} << 20))
        import npspore as ms
        for path in {[str(path) for path in paths]!r}:
            try:
                {load}
                print("loaded:", path)
            except ValueError as error:
                print("refused:", type(error).__name__ + ":", error)
        """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    return result.returncode, result.stdout + result.stderr
