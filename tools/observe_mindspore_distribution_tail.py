"""Print MindSpore 2.10's outputs or errors for the Bernoulli cases of tests/distribution_tail_cases.py (the
literals of tests/test_distribution_tail.py; the objects of its docstring example).

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_distribution_tail.py``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from distribution_tail_cases import CASES  # noqa: E402


def main():
    import mindspore as ms
    import mindspore.nn.probability.distribution as msd
    from mindspore import Tensor

    names = {"ms": ms, "msd": msd, "Tensor": Tensor, "b1": msd.Bernoulli(0.5, dtype=ms.int32),
             "b2": msd.Bernoulli(dtype=ms.int32), "value": Tensor([1, 0, 1], dtype=ms.int32),
             "probs_a": Tensor([0.6], dtype=ms.float32), "probs_b": Tensor([0.2, 0.3, 0.4], dtype=ms.float32)}
    for key, expression in CASES:
        try:
            out = eval(expression, names)
            print(f"{key!r}: {out!r}," if isinstance(out, tuple) else
                  f"{key!r}: ({out.asnumpy().tolist()!r}, {str(out.dtype)!r}),")
        except Exception as error:  # recorded: the test names what MindSpore refused
            print(f"{key!r}: ({type(error).__name__!r}, {str(error).strip().splitlines()[0]!r}),")


if __name__ == "__main__":
    main()
