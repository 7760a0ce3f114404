"""How a sentence matches the question's terms. Examples are invented."""

from agent.term_match import inside_longer, lexical_scores
from kb.text import squashed, tokenize


def test_a_term_inside_a_longer_path_is_named_only_as_part_of_it() -> None:
    assert inside_longer("dock", "The directories required in /dock/pier: misc.")
    assert not inside_longer("dock", "The directories required in /dock: crane and hoist.")
    assert not inside_longer("training", "Its pre-training data.")  # a hyphenated word is no path


def test_an_element_named_only_as_a_bare_word_counts_a_part_of_one() -> None:
    texts = [
        "Every package must include the files it reads when it names a directory.",
        '<include prefix="default"> This element names another file or directory to read.',
    ]
    pool = [(set(tokenize(t)), squashed([t])) for t in texts]
    question = "What does <include> read when it names a directory?"
    part = lexical_scores(question, {}, pool, texts=texts, part=0.5)
    whole = lexical_scores(question, {}, pool, texts=texts, part=1.0)
    assert part[0] < part[1] and whole[0] == whole[1]  # the bare word counts half; counted whole, they tie


def test_a_rarer_term_weighs_more() -> None:
    texts = ["The pier holds cranes.", "The pier holds winches.", "The pier holds ropes."]
    pool = [(set(tokenize(t)), squashed([t])) for t in texts]
    scores = lexical_scores("Which pier holds winches?", {}, pool)
    assert scores[1] > scores[0] == scores[2] > 0
