"""MindSpore's quick-start train step runs with only the import line changed (tests/quickstart_lenet.py)
and trains as on MindSpore 2.10 CPU."""
import numpy as np
from quickstart_lenet import main


def test_quickstart_script_trains_as_mindspore():
    losses, model, train_step = main()
    # Observed on MindSpore 2.10 CPU with the same script (import mindspore as ms).
    np.testing.assert_allclose(losses, [3.358234405517578, 3.037529945373535, 3.484907627105713,
                                        2.0477707386016846, 2.401097297668457, 1.9636783599853516], rtol=1e-5)
    np.testing.assert_allclose(model.fc3.bias.asnumpy()[:4], [-0.1251717060804367, 0.09815964102745056,
                                                             -0.060228269547224045, -0.09986404329538345], rtol=1e-5)
    assert train_step.cache_info()["compiles"] == 1
