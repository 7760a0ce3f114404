"""The default check of agent.defaults: what holds when nothing is set is stated within the entry asked about."""

from agent.assess import assess
from agent.defaults import asks_default, default_missing, states_default
from tests.test_agent_units import assess_state, hit


def test_a_question_asking_what_holds_when_nothing_is_set_asks_a_default() -> None:
    for question in (
        "QzMode default?",
        "What is the default QzMode?",
        "What does QzMode default to?",
        "Which mode does the client use by default?",
        "When QzMode is not specified anywhere, which of its modes is used?",
        "If I don't set QzMode, what happens?",
        "What mode applies without setting QzMode?",
        "What character does the pager show by default when --qz-mark hasn't been set?",
        "What are the default values of QzLevel= and QzLimit=?",
    ):
        assert asks_default(question), question
    for question in (
        "With the default key bindings, which key splits the pane?",
        "How do I give a default value in a filter when a field is missing?",
        "Which actions suppress the default -print?",
        "What default sound does the QZ_LATCH bell make?",
    ):
        assert not asks_default(question), question


def test_a_default_is_stated_within_the_entry_asked_about() -> None:
    """An entry listing its choices states no default, nor does the next entry's "The default is ..."; a sentence
    after the subject in its own entry does."""
    listed = hit(
        "manual",
        "QzMode Specifies whether to ask for a terminal. The argument may be one of: no, yes, force or auto. "
        "QzMinBits Specifies the smallest key size. The default is 1024 bits.",
    )
    assert default_missing(["QzMode"], [listed]) == "no passage states a default for QzMode"
    stated = hit("manual", "QzMode Specifies whether to ask for a terminal. The argument is yes or no (the default).")
    assert default_missing(["QzMode"], [listed, stated]) == ""
    option = hit("manual", "Mode= Selects the mode. If set to plain (the default), nothing is checked.")
    assert default_missing(["Mode"], [option]) == ""
    assert states_default("Defaults to 48K.") and states_default("[default: 30]") and states_default("By default, no.")
    assert not states_default("It sets the default key.") and not states_default("The default namespace is set.")
    assert states_default("If QzMode is not set, auto applies.") and not states_default("Its flag is not set.")
    # Entries run into one sentence: the next entry's default, and what follows it, are the next entry's.
    run = hit(
        "manual",
        "qz_fast_key (since 3.7) Sets the key. qz_ecn (Integer; default: see below) Enables it. This file can have "
        "one of these values: 0 Disable it. This was the default up to 2.6.",
    )
    assert default_missing(["qz_fast_key"], [run]) == "no passage states a default for qz_fast_key"
    # "does not otherwise change" states no default; "Otherwise, ..." does.
    other = hit("manual", "--qz-mark Sets the mark. The -d option does not otherwise change it. -S Chops lines.")
    assert default_missing(["--qz-mark"], [other]) == "no passage states a default for --qz-mark"
    # Code is named as written: "The qz-mark character." is no sentence of --qz-mark's entry.
    legend = hit("manual", "R The qz-mark character. S Search results. The default is blue.")
    assert default_missing(["--qz-mark"], [legend, other]) == "no passage states a default for --qz-mark"
    # An entry still open where its passage ends may state its default in the next passage: unknown.
    assert default_missing(["--qz-mark"], [hit("manual", "--qz-mark Sets the mark. It takes a character.")]) is None
    assert default_missing(["--qz-mark"], [hit("manual", "--qz-mark Sets the mark. Otherwise, a dot is shown.")]) == ""


def test_a_default_asked_for_and_never_stated_is_refused() -> None:
    question = "When QzMode is not specified anywhere, which of its modes (no, yes, force, auto) does the client use?"
    listed = hit(
        "manual",
        "QzMode Specifies whether the client asks for a terminal for the session. The argument may be one of: no "
        "(never), yes (when input is a terminal), force (always) or auto (for a login session). QzMinBits Specifies "
        "the smallest key size.",
    )
    state = {**assess_state(question, [listed]), "question": question}
    verdict = assess(state)
    assert verdict.failing == "default_stated" and "QzMode" in verdict.reasons[-1].detail
    stated = hit(
        "manual", "QzMode Specifies whether the client asks for a terminal. The default is auto (for a login)."
    )
    state = {**assess_state(question, [listed, stated]), "question": question}
    assert assess(state).sufficient


def test_default_values_asked_for_may_be_words() -> None:
    """ "What are the default values of QzLevel= and QzLimit=?" is answered by "QzLevel= defaults to debug", no
    figure: the default check reads it, not the value check."""
    question = "What are the default values of QzLevel= and QzLimit=?"
    entry = hit("manual", "QzLevel=, QzLimit= Control the level. QzLevel= defaults to debug, QzLimit= to notice.")
    state = {**assess_state(question, [entry]), "question": question}
    verdict = assess(state)
    assert verdict.sufficient and any(r.check == "default_stated" for r in verdict.reasons)


def test_a_default_value_past_the_evidence_is_still_a_value_beside_the_subject() -> None:
    """The entry of qz-clip goes on past its passage: "What is the default value of qz-clip?" then needs a value
    beside qz-clip, as any value question; "qz-clip default?" is left unjudged."""
    entry = {
        **hit("manual", "qz-clip [on | off] Clips the output of the server. The server option is set per session."),
        "next_opening": "Note that it needs a tty.",
    }
    question = "What is the default value of the qz-clip server option?"
    verdict = assess({**assess_state(question, [entry]), "question": question})
    assert verdict.failing == "value_stated" and not any(r.check == "default_stated" for r in verdict.reasons)
    question = "qz-clip default?"
    assert assess({**assess_state(question, [entry]), "question": question}).sufficient
