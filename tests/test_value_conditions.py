"""agent.value_conditions and the value check's reading of codes and exit statuses: a code is stated on the
condition asked, an exit status beside "exit" or "status"."""

from agent.value_conditions import conditions
from agent.value_questions import measured_phrase
from tests.test_values import _paged, _verdict


def test_a_value_on_another_condition_is_none_on_the_one_asked() -> None:
    question = "Which exit status does Quillwort return when a script has a syntax error?"
    other = _paged("If a command is not found, Quillwort prints an error message and returns exit status 127.", 3)
    verdict = _verdict(question, [other])
    assert verdict.failing == "value_stated"
    # The condition may open the sentence before the one giving the value.
    own = _paged("A script may have a syntax error. Quillwort then returns exit status 2 at once.", 4)
    assert _verdict(question, [other, own]).sufficient


def test_an_exit_status_asked_is_stated_beside_an_exit() -> None:
    assert measured_phrase("Which numeric exit code does qzsh return on a syntax error?") == "exit"
    question = "What exit status does Quillwort return when a script has a syntax error?"
    other = _paged("A Quillwort script with a syntax error stops; scripts of 128 lines are read at once.", 3)
    verdict = _verdict(question, [other])
    assert verdict.failing == "value_stated" and "an exit status for" in verdict.reasons[-1].detail
    own = _paged("A Quillwort script with a syntax error makes Quillwort exit with status 2.", 4)
    assert _verdict(question, [other, own]).sufficient


def test_the_condition_asked_is_read_but_not_a_default_nor_the_documents_discourse() -> None:
    assert conditions("Which exit status does qzsh return when a script has a syntax error?") == [
        "script",
        "syntax",
        "error",
    ]
    assert conditions("What exit status does qzsh return if you pass an unknown option?") == [
        "pass",
        "unknown",
        "option",
    ]
    assert conditions("What size does the paper assume when discussing how big the qz table can be?") == []
    assert conditions("What size is used when QzSize= is not set?") == []  # a default's: the default check's


def test_an_exit_status_may_be_stated_as_a_status_returned() -> None:
    question = "Which exit status does Quillwort return when a script has a syntax error?"
    own = _paged("When a script has a syntax error, Quillwort returns a status of 2.", 4)
    assert _verdict(question, [own]).sufficient


def test_the_condition_words_a_documents_title_names_are_no_condition() -> None:
    """ "the quill mode" names the document; "fails" is the condition a sentence must state."""
    question = "Which exit status does Quillwort return when the quill mode fails?"
    own = {**_paged("If anything fails, Quillwort exits with status 3.", 4), "title": "Quillwort quill mode manual"}
    assert _verdict(question, [own]).sufficient
