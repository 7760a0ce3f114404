"""agent.stand_ins: a question's word the evidence never uses, matched by the evidence's words nearest in meaning;
word vectors cached per model owner, within a bound. Examples are invented."""

from __future__ import annotations

import numpy as np

from agent import stand_ins
from agent.settings import AnswerSettings
from agent.stand_ins import stand_ins_for
from kb.text import tokenize


def test_word_vectors_are_embedded_once_per_model_owner_and_the_cache_stays_bounded(monkeypatch) -> None:
    class Owner:
        def __init__(self) -> None:
            self.asked: list[list[str]] = []

        def embed(self, texts: list[str]) -> np.ndarray:
            self.asked.append(list(texts))
            return np.array([[float(len(t)), 1.0] for t in texts])

    owner = Owner()
    first = stand_ins._word_vectors(["gauge", "valve", "gauge"], owner.embed)
    again = stand_ins._word_vectors(["valve", "pump"], owner.embed)
    assert owner.asked == [["gauge", "valve"], ["pump"]]  # each word once, whatever the call
    assert first[0].tolist() == [5.0, 1.0] and again[0].tolist() == [5.0, 1.0] and again[1].tolist() == [4.0, 1.0]
    monkeypatch.setattr(stand_ins, "_CACHED_WORDS", 3)
    past = stand_ins._word_vectors(["hull", "pump"], owner.embed)  # four words would pass the bound: emptied first
    assert owner.asked[-1] == ["hull"] and past.tolist() == [[4.0, 1.0], [4.0, 1.0]]
    stand_ins._word_vectors(["pump", "hull"], owner.embed)
    assert owner.asked[-1] == ["pump"]  # emptied: only the words since are kept
    other = Owner()  # another knowledge base keeps its own words
    stand_ins._word_vectors(["hull"], other.embed)
    assert other.asked == [["hull"]]


def test_acronyms_and_words_the_evidence_holds_get_no_stand_ins() -> None:
    text = "The chief executive signed the gauge report before the audit."
    items = [(0, 0, "c1", text, set(tokenize(text)))]
    like = {"ceo": [1, 0, 0], "executive": [1, 0, 0], "record": [0, 1, 0], "gauge": [0, 1, 0]}
    like["report"] = [0, 0.9, 0.436]

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([like.get(t, [0, 0, 1]) for t in texts], dtype=float)

    settings = AnswerSettings()
    assert stand_ins_for("When did the CEO sign it?", {}, items, embed, settings) == {}  # an acronym is as written
    # "gauge" is in the evidence: only the missing "record" takes a stand-in, and never a form of a question word.
    assert stand_ins_for("Which gauge record was signed?", {}, items, embed, settings) == {"record": ["report"]}
