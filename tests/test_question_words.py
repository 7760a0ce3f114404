"""agent.question_words: the words that shape a question but name nothing it asks about."""

from agent.intent import content_terms
from agent.question_words import ASKS_WHERE, QUESTION_WORDS


def test_a_negated_auxiliary_only_asks() -> None:
    assert {"aren't", "doesn’t", "can't"} <= QUESTION_WORDS
    terms = content_terms("Why aren't gates with Hold= a good fit for repeating timers?")
    assert "aren't" not in terms and {"gates", "repeating", "timers"} <= set(terms)


def test_prepositions_and_pronouns_only_ask() -> None:
    terms = content_terms("Since which release, without the flag, do variables like QZ_CONF work for that one?")
    assert not {"Since", "since", "without", "like", "one"} & set(terms) and "QZ_CONF" in terms


def test_someone_wanting_something_only_frames_the_question() -> None:
    terms = content_terms("Why would anyone want to turn off Qz-Check for a repository?")
    assert not {"anyone", "want"} & set(terms) and {"Qz-Check", "repository"} <= set(terms)


def test_emphasis_only_asks() -> None:
    terms = content_terms("Exactly which code does qzsh return, and what does -q actually do?")
    assert not {"Exactly", "exactly", "actually"} & set(terms) and {"code", "qzsh"} <= set(terms)


def test_asking_for_an_outcome_only_asks() -> None:
    terms = content_terms("What happens to the qz tokens that don't fit, and how can I tell it happened?")
    assert not {"happens", "happened"} & set(terms) and {"qz", "tokens", "fit"} <= set(terms)


def test_including_only_leads_to_what_is_asked() -> None:
    terms = content_terms("How do I write the qz banner, including an empty line?")
    assert "including" not in terms and {"qz", "banner", "empty", "line"} <= set(terms)


def test_reporting_what_a_text_says_only_asks() -> None:
    terms = content_terms("Is this something the qzgate(7) page says can happen to QZ_HOME?")
    assert not {"something", "says"} & set(terms) and {"qzgate", "QZ_HOME"} <= set(terms)


def test_a_negation_asks_as_not_does() -> None:
    terms = content_terms("Where does qzprof write its data if I never set QZ_PROF_DIR?")
    assert "never" not in terms and {"qzprof", "data", "QZ_PROF_DIR"} <= set(terms)


def test_how_often_a_reader_meets_something_only_asks() -> None:
    terms = content_terms("Why does qzd often stall one gate while another keeps running, and is it usually logged?")
    assert not {"often", "another", "usually"} & set(terms) and {"qzd", "stall", "gate", "logged"} <= set(terms)


def test_a_light_verb_and_a_pointer_back_only_ask() -> None:
    terms = content_terms("Which gates get locked when qzd starts, and what should I open instead?")
    assert not {"get", "instead"} & set(terms) and {"gates", "locked", "qzd", "starts", "open"} <= set(terms)
    assert "GET" in content_terms("What status does a GET request to qzd return?")  # a method, named


def test_asked_where_something_is_written_in_the_words_a_reader_uses() -> None:
    """ "Which section tells me / says / has / spells out ...", "which part of the docs describes ...", "which section
    should I read for ...": asked where it is written, whatever the verb; a part of a thing is no part of a text."""
    for question in (
        "Which section of the qzgate page tells me how to list the open gates?",
        "Which section of qzgate(7) says that latches are not part of the standard?",
        "Which section of the ESM chapter spells out the extensions the loader takes?",
        "Which part of the CLI docs describes the layout of the files written?",
        "Which part of the queue overview describes how the count changed?",
        "Which section of the sluice FAQ should I read for tools that help?",
    ):
        assert ASKS_WHERE.search(question), question
    assert not ASKS_WHERE.search("Which part of the gate has a latch?")
    assert not ASKS_WHERE.search("Which section of the beam has the highest bending moment?")  # a thing's section
    assert not ASKS_WHERE.search("Which parts of the gate API does QzTarget not emulate?")
