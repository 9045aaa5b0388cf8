"""The cases of tests/test_distribution_tail.py, shared with ``tools/observe_mindspore_distribution_tail.py``:
``(key, expression)`` over ``msd`` (``nn.probability.distribution``), ``ms``, ``Tensor`` and the docstring's
``b1`` (``Bernoulli(0.5)``), ``b2`` (``Bernoulli()``), ``value``, ``probs_a``, ``probs_b``."""

CASES = [
    *[(f"{name}{suffix}", f"{owner}.{name}(value{extra})") for name in (
        "prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival")
      for suffix, owner, extra in (("", "b1", ""), ("_b", "b1", ", probs_b"), ("_a", "b2", ", probs_a"))],
    *[(f"{name}{suffix}", f"b1.{name}({extra})") for name in ("mean", "sd", "var", "entropy")
      for suffix, extra in (("", ""), ("_b", "probs_b"))],
    ("kl_loss", "b1.kl_loss('Bernoulli', probs_b)"),
    ("kl_loss_a", "b1.kl_loss('Bernoulli', probs_b, probs_a)"),
    ("cross_entropy", "b2.cross_entropy('Bernoulli', probs_b, probs_a)"),
    ("cdf_values", "msd.Bernoulli(0.3)('cdf', Tensor([-1.0, 0.0, 0.5, 1.0, 2.0], ms.float32))"),
    ("sample_shape", "b1.sample((2, 3), probs_b).shape"),
    ("sample_scalar_shape", "b1.sample().shape"),
    ("bad_probs", "msd.Bernoulli(1.5)"),
    ("bad_dist", "b1.kl_loss('Normal', probs_b)"),
]
