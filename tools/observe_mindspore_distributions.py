"""Print MindSpore 2.10's values and errors for the calls of tests/test_distributions.py (its RECORDED literals):
the mindspore.nn.probability.distribution.Normal page's example calls, and the same for Uniform.

Run with a virtualenv holding MindSpore (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_distributions.py``.
"""
import numpy as np
import mindspore as ms
import mindspore.nn.probability.distribution as msd
from mindspore import Tensor
value = Tensor([1.0, 2.0, 3.0], dtype=ms.float32)
mean_a = Tensor([2.0], dtype=ms.float32); sd_a = Tensor([2.0, 2.0, 2.0], dtype=ms.float32)
mean_b = Tensor([1.0], dtype=ms.float32); sd_b = Tensor([1.0, 1.5, 2.0], dtype=ms.float32)
n1 = msd.Normal(3.0, 4.0, dtype=ms.float32); n2 = msd.Normal(dtype=ms.float32)
def p(name, f):
    try:
        r = f(); print(repr(name), ':', (r.asnumpy().tolist(), str(r.dtype)) if hasattr(r, 'asnumpy') else repr(r), ',')
    except Exception as e: print(repr(name), ':', (type(e).__name__, str(e).splitlines()[0][:200]), ',')
for fn in ['prob', 'log_prob', 'cdf', 'log_cdf', 'survival_function', 'log_survival']:
    p(f'n1.{fn}(value)', lambda: getattr(n1, fn)(value))
    p(f'n1.{fn}(value, mean_b, sd_b)', lambda: getattr(n1, fn)(value, mean_b, sd_b))
p('n2.prob(value, mean_a, sd_a)', lambda: n2.prob(value, mean_a, sd_a))
for fn in ['mean', 'mode', 'sd', 'var', 'entropy']:
    p(f'n1.{fn}()', lambda: getattr(n1, fn)())
    p(f'n1.{fn}(mean_b, sd_b)', lambda: getattr(n1, fn)(mean_b, sd_b))
p("n1.kl_loss('Normal', mean_b, sd_b)", lambda: n1.kl_loss('Normal', mean_b, sd_b))
p("n1.kl_loss('Normal', mean_b, sd_b, mean_a, sd_a)", lambda: n1.kl_loss('Normal', mean_b, sd_b, mean_a, sd_a))
p("n1.cross_entropy('Normal', mean_b, sd_b)", lambda: n1.cross_entropy('Normal', mean_b, sd_b))
p("n1.sample((2, 3)).shape", lambda: n1.sample((2, 3)).shape)
p("n1.sample((2,), mean_b, sd_b).shape", lambda: n1.sample((2,), mean_b, sd_b).shape)
p("n2.prob(value)", lambda: n2.prob(value))
p("msd.Normal(3.0, -1.0)", lambda: msd.Normal(3.0, -1.0))
p("n1.kl_loss('Uniform', mean_b, sd_b)", lambda: n1.kl_loss('Uniform', mean_b, sd_b))
p("str(n1)", lambda: str(n1))
low_a = Tensor([0.0], ms.float32); high_a = Tensor([2.0], ms.float32)
low_b = Tensor([-1.5], ms.float32); high_b = Tensor([2.5, 5.0], ms.float32)
u1 = msd.Uniform(0.0, 1.0, dtype=ms.float32); u2 = msd.Uniform(dtype=ms.float32)
value = Tensor([0.5, 0.8], dtype=ms.float32)
for fn in ['prob', 'log_prob', 'cdf', 'log_cdf', 'survival_function', 'log_survival']:
    p(f'u1.{fn}(value)', lambda: getattr(u1, fn)(value))
    p(f'u1.{fn}(value, low_b, high_b)', lambda: getattr(u1, fn)(value, low_b, high_b))
p('u1.prob(Tensor([-0.5, 1.5], ms.float32))', lambda: u1.prob(Tensor([-0.5, 1.5], ms.float32)))
p('u1.cdf(Tensor([-0.5, 1.5], ms.float32))', lambda: u1.cdf(Tensor([-0.5, 1.5], ms.float32)))
for fn in ['mean', 'sd', 'var', 'entropy', 'mode']:
    p(f'u1.{fn}()', lambda: getattr(u1, fn)())
    p(f'u1.{fn}(low_b, high_b)', lambda: getattr(u1, fn)(low_b, high_b))
p("u1.kl_loss('Uniform', low_b, high_b)", lambda: u1.kl_loss('Uniform', low_b, high_b))
p("u1.kl_loss('Uniform', low_b, high_b, low_a, high_a)", lambda: u1.kl_loss('Uniform', low_b, high_b, low_a, high_a))
p("u1.kl_loss('Uniform', Tensor([0.5], ms.float32), high_b)",
  lambda: u1.kl_loss('Uniform', Tensor([0.5], ms.float32), high_b))
p("u1.cross_entropy('Uniform', low_b, high_b)", lambda: u1.cross_entropy('Uniform', low_b, high_b))
p("u1.sample((2, 3)).shape", lambda: u1.sample((2, 3)).shape)
p("msd.Uniform(1.0, 0.0)", lambda: msd.Uniform(1.0, 0.0))
p("str(u1)", lambda: str(u1))
