"""agent.question_words: the words that shape a question but name nothing it asks about."""

from agent.intent import content_terms
from agent.question_words import QUESTION_WORDS


def test_a_negated_auxiliary_only_asks() -> None:
    assert {"aren't", "doesn’t", "can't"} <= QUESTION_WORDS
    terms = content_terms("Why aren't gates with Hold= a good fit for repeating timers?")
    assert "aren't" not in terms and {"gates", "repeating", "timers"} <= set(terms)


def test_prepositions_and_pronouns_only_ask() -> None:
    terms = content_terms("Since which release, without the flag, do variables like QZ_CONF work for that one?")
    assert not {"Since", "since", "without", "like", "one"} & set(terms) and "QZ_CONF" in terms
