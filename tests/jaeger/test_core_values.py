"""Values the core and the Python layer share come from the core: the refusal reasons (the core's
`REFUSALS` and `LEARN_REFUSALS`, named as in the Carcassonne core) are all worded."""

from hunters.jaeger import _core as core
from hunters.jaeger.errors import MESSAGES, core_error
from hunters.jaeger.learn import LEARN_MESSAGES, learn_refusal


def test_every_core_refusal_is_worded():
    assert set(core.REFUSALS.values()) <= set(MESSAGES)
    for code, reason in core.REFUSALS.items():
        err = core_error(code, None)
        assert err.reason == reason and err.message == MESSAGES[reason]


def test_every_learning_refusal_is_worded():
    assert set(core.LEARN_REFUSALS.values()) == set(LEARN_MESSAGES)
    assert not set(core.LEARN_REFUSALS) & set(core.REFUSALS)  # one code space: learn_refusal falls back
    for code, reason in core.LEARN_REFUSALS.items():
        err = learn_refusal(code, 7)
        assert err.reason == reason and err.message == LEARN_MESSAGES[reason]
