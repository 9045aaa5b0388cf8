"""``dataset.config``'s tuning and debugging switches (issue 26, data-nn-fn): defaults and errors as MindSpore
2.10's (``get_autotune_interval()`` 0, the rest False; the messages it raises for the same calls)."""
import pytest

import npspore.dataset as ds


def test_defaults_and_round_trips():
    config = ds.config
    assert (config.get_autotune_interval(), config.get_enable_autotune(), config.get_auto_offload(),
            config.get_debug_mode()) == (0, False, False, False)
    try:
        config.set_autotune_interval(5)
        config.set_enable_autotune(True, "/tmp/autotune")
        config.set_auto_offload(True)
        config.set_debug_mode(True)
        assert (config.get_autotune_interval(), config.get_enable_autotune(), config.get_auto_offload(),
                config.get_debug_mode()) == (5, True, True, True)
    finally:
        config.set_autotune_interval(0)
        config.set_enable_autotune(False)
        config.set_auto_offload(False)
        config.set_debug_mode(False)


@pytest.mark.parametrize("call, error, message", [
    (lambda c: c.set_autotune_interval(-1), ValueError,
     "Interval given is not within the required range [0, INT32_MAX(2147483647)]."),
    (lambda c: c.set_autotune_interval(1.5), TypeError, "interval must be of type int."),
    (lambda c: c.set_enable_autotune(1), TypeError, "enable must be of type bool."),
    (lambda c: c.set_auto_offload(1), TypeError, "offload must be a bool dtype"),
    (lambda c: c.set_debug_mode(1), TypeError, "debug_mode_flag isn't of type boolean."),
    (lambda c: c.set_enable_autotune(True, 3), TypeError, "json_filepath must be a str value but was: 3."),
])
def test_errors_are_mindspores(call, error, message):
    with pytest.raises(error) as raised:
        call(ds.config)
    assert str(raised.value) == message
