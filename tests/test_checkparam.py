"""npspore._checkparam's MindSpore 1.x spellings: the Validator class of static checks and the Rel enumeration,
which scripts import first (``try: from mindspore._checkparam import Validator``) and read relations from
(``validator.EQ`` when the module was imported instead). Messages are MindSpore 2.10's module functions'."""
import pytest

from npspore import _checkparam
from npspore._checkparam import Rel, Validator


def test_validator_holds_every_check_and_relation_of_the_module():
    for name in _checkparam.__all__:
        if name not in ("Rel", "Validator"):
            assert getattr(Validator, name) is getattr(_checkparam, name)
    assert (Validator.EQ, Validator.GT, Validator.INC_LEFT, Validator.INC_BOTH) == (1, 5, 8, 10)


def test_rel_members_are_the_module_relations():
    assert [(member.name, int(member)) for member in Rel] == [
        ("EQ", 1), ("NE", 2), ("LT", 3), ("LE", 4), ("GT", 5), ("GE", 6), ("INC_NEITHER", 7), ("INC_LEFT", 8),
        ("INC_RIGHT", 9), ("INC_BOTH", 10), ("IN", 11), ("NOT_IN", 12)]
    assert Validator.check_int_range(4, 1, 5, Rel.INC_LEFT, "x", "P") == 4
    assert Validator.check("a", 3, "b", 2, Rel.GT, "P") == 3


@pytest.mark.parametrize("call, error, message", [
    # the lr_scheduler of MindEarth, through Validator
    (lambda: Validator.check_positive_float(0.0, arg_name="lr_init"), ValueError,
     "The 'lr_init' must be float and must > 0, but got '0.0' with type 'float'."),
    (lambda: Validator.check_non_negative_int(-1, arg_name="warmup_epochs"), ValueError,
     "The 'warmup_epochs' must be int and must >= 0, but got '-1' with type 'int'."),
    (lambda: Validator.check_positive_int(0, "n", "Net"), ValueError,
     "For 'Net', the 'n' must be int and must > 0, but got '0' with type 'int'."),
    (lambda: Validator.check_int_range(5, 1, 5, Rel.INC_LEFT, "a", "P"), ValueError,
     "For 'P', the 'a' must be in range of [1, 5), but got 5 with type 'int'."),
    (lambda: Validator.check("a", 2, "b", 3, Rel.GT, "Net"), ValueError,
     "For 'Net', the 'a' should be > b: 3, but got 2."),
    (lambda: Validator.check_value_type("x", "s", [int, float], "P"), TypeError,
     "For 'P', the type of 'x' should be one of '['int', 'float']', but got type 'str'."),
])
def test_validator_checks_raise_mindspore_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message
