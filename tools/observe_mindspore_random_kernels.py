"""Print MindSpore 2.10's results for the seeded random-op programs of tests/random_kernel_cases.py, as the
``RECORDED`` literals of tests/test_random_kernels.py (``(dtype, values)``, a list of them, or a digest string).

Run with a virtualenv holding MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_random_kernels.py``. Run it twice: the values must not change between runs.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from random_kernel_cases import CASES  # noqa: E402


def main():
    import mindspore as ms
    from mindspore_cases import print_cases
    print_cases([(name, lambda case=case: case(ms)) for name, case in CASES])


if __name__ == "__main__":
    main()
