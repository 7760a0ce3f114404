"""Follow-up questions: a question that leans on the conversation ("and its parameter sets?", "what about 2021?")
is rewritten into one that stands alone before anything is searched.

Without an LLM the rewrite carries over the previous turn's subject: a pronoun ("it", "its", "they") that is the
question's only subject becomes it; "what about Y?" asks the previous question again with Y in place of its period
(when Y is a period) or of its subject; a bare continuation ("and the parameter sets?") is asked of the subject.
The subject's name in the question is what steers search to its documents (the knowledge base prefers the
documents a question names); nothing restricts the search to the documents that answered before. With
Ollama the model rewrites it in one call (see agent.prompts), the rule-based reading standing in if that fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from agent.intent import content_terms
from agent.llm import LLMError, Rewrite
from agent.prompts import follow_up_messages
from kb.periods import is_period, join_periods, period_year
from kb.text import is_identifier

# How a dependent question opens or refers back: English connectives and pronouns, closed-class words only.
_OPENING = re.compile(r"^\s*(?:and|but|also|so|then|now|ok(?:ay)?|what\s+about|how\s+about)\b[,:]?\s*", re.I)
_ABOUT = re.compile(r"^\s*(?:and\s+)?(?:what|how)\s+about\s+(?P<rest>.+?)\s*\??\s*$", re.I)
_PRONOUN = re.compile(r"\b(?P<p>its|it|they|their|them)\b", re.I)
_POSSESSIVE = {"its", "their"}


class Turn(BaseModel):
    """What a follow-up may lean on from an earlier turn."""

    question: str = Field(description="The earlier question, as it was searched (its standalone form).")
    subject: str = Field("", description="What it was about: its named identifiers, or its first content terms.")
    docs: list[str] = Field(default_factory=list, description="The documents its answer cited.")


class FollowUp(BaseModel):
    """How a question was read against the conversation."""

    question: str = Field(description="The question to search and answer (the original when it stands alone).")
    rewritten: bool = Field(False, description="Whether the question was rewritten from the conversation.")
    how: str = Field("", description="What was carried over, in words.")


def subject_of(question: str) -> str:
    """A question's subject: its identifiers (names, codes), else its capitalised names (not the opening word),
    else its first three content terms."""
    text = join_periods(question)
    terms = [t for t in content_terms(text) if not is_period(t)]
    names = [t for t in terms if is_identifier(t)]
    if not names:
        opening = text.split()[0] if text.split() else ""
        names = [t for t in terms if t[:1].isupper() and t != opening]
    return " and ".join(names[:2]) if names else " ".join(terms[:3])


def turn_of(state: dict[str, Any]) -> Turn:
    """The turn a finished run leaves for the next question."""
    question = state.get("question", "")
    docs = list(dict.fromkeys(c["doc_id"] for c in state.get("citations", []) if c.get("doc_id")))
    return Turn(question=question, subject=subject_of(question), docs=docs)


def _names_own_subject(question: str) -> bool:
    terms = content_terms(join_periods(question))
    return any(is_identifier(t) and not is_period(t) for t in terms)


# "Is it true that ...", "it is possible to ...": a pronoun that refers back to nothing.
_DUMMY_IT = re.compile(
    r"\b(?:is|was)\s+it\s+(?:true|possible|likely|necessary|worth|better|the\s+case)\b|"
    r"\bit\s+(?:is|was)\s+(?:true|possible|likely|necessary|known|said|worth|clear)\b",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|has|have|had|"
    r"can|could|should|would|will|explain|describe|list|name|give|tell|show|compare|define)\b",
    re.I,
)


def follow_up(question: str, turns: list[Turn]) -> FollowUp:
    """The standalone form of `question` given the earlier turns (oldest first). Only a short question that leans
    on the previous one is rewritten: a pronoun standing for its subject, a bare continuation ("and the key
    sizes?") or "what about Y?"; any question that names its own subject, or says more, is left as asked."""
    text = " ".join(question.split())
    if not turns or not text:
        return FollowUp(question=text)
    last = turns[-1]
    about = _ABOUT.match(text)
    if about:
        return _what_about(about.group("rest").strip(" ?."), last) or FollowUp(question=text)
    if _names_own_subject(text) or not last.subject:
        return FollowUp(question=text)
    opened = _OPENING.match(text)
    rest = text[opened.end() :] if opened else text
    own = [t for t in content_terms(rest) if not _PRONOUN.fullmatch(t) and not is_period(t)]
    referring = _PRONOUN.search(_DUMMY_IT.sub(" ", rest))
    if referring and len(own) <= 4:
        # The pronoun is the question's only subject: it stands for the previous question's subject.
        def swap(match: re.Match[str]) -> str:
            word = match.group("p")
            return f"{last.subject}'s" if word.lower() in _POSSESSIVE else last.subject

        pos = referring.start()
        standalone = rest[:pos] + _PRONOUN.sub(swap, rest[pos:], count=1)
    elif opened and text.endswith("?") and len(rest.split()) <= 5 and not _ASKING.match(rest):
        # A bare continuation: "and the key sizes?" asks the same of the previous subject.
        standalone = f"What about {rest.rstrip(' ?.')} of {last.subject}?"
    else:
        return FollowUp(question=text)
    standalone = standalone[:1].upper() + standalone[1:]
    if not standalone.rstrip().endswith("?"):
        standalone = standalone.rstrip(" .") + "?"
    return FollowUp(question=standalone, rewritten=True, how=f"carried over the subject {last.subject!r}")


_FISCAL = re.compile(r"^(?:fiscal\s+(?:year\s+)?|FY\s*)?(?P<year>(?:19|20)\d\d)$", re.IGNORECASE)


def _what_about(target: str, last: Turn) -> FollowUp | None:
    """ "What about Y?": the previous question asked of Y. A period replaces the previous question's one period (or
    is added when it had none); a name replaces its subject; "its X" is asked of the previous subject. Anything
    else is left as asked."""
    previous = join_periods(last.question).rstrip()
    target = re.sub(r"^(?:the|a|an)\s+", "", target, flags=re.IGNORECASE)
    fiscal = _FISCAL.match(target)
    period = target.replace(" ", "") if is_period(target.replace(" ", "")) else None
    if fiscal or period:
        shown = fiscal.group(0) if fiscal else target
        periods = [t for t in content_terms(previous) if is_period(t) and period_year(t)]
        if len(periods) > 1:
            return None  # "from 2018 to 2019": which one Y replaces is unclear
        if periods:
            standalone = re.sub(rf"\b{re.escape(periods[0])}\b", shown, previous, count=1)
        else:
            standalone = f"{previous.rstrip(' ?.')} in {shown}?"
        return FollowUp(question=standalone, rewritten=True, how=f"asked the previous question of {shown}")
    if _PRONOUN.search(target) and last.subject:
        swapped = _PRONOUN.sub(
            lambda m: f"{last.subject}'s" if m.group("p").lower() in _POSSESSIVE else last.subject, target, count=1
        )
        return FollowUp(
            question=f"What about {swapped}?", rewritten=True, how=f"carried over the subject {last.subject!r}"
        )
    names_a_subject = _names_own_subject(target) or target[:1].isupper()
    if names_a_subject and last.subject and re.search(rf"(?<!\w){re.escape(last.subject)}(?!\w)", previous):
        standalone = re.sub(rf"(?<!\w){re.escape(last.subject)}(?!\w)", target, previous, count=1)
        return FollowUp(question=standalone, rewritten=True, how=f"asked the previous question of {target!r}")
    return None


def resolve(state: dict[str, Any], make_llm: Callable[[], Any] | None) -> tuple[FollowUp, dict[str, Any]]:
    """How the run's question reads against its conversation (`state["history"]`), and the state update of an LLM
    call when `make_llm` is given and the rules found the question dependent (one call; the rules stand in if it
    fails)."""
    turns = [Turn.model_validate(t) for t in state.get("history") or []]
    reading = follow_up(state["question"], turns)
    if not reading.rewritten or make_llm is None:
        return reading, {}
    llm = make_llm()
    update: dict[str, Any] = {}
    try:
        messages = follow_up_messages([t.question for t in turns], state["question"])
        written = " ".join(llm.structured("follow_up", messages, Rewrite).query.split())
        if written:
            reading = reading.model_copy(update={"question": written, "how": "rewritten by the model"})
    except LLMError as err:
        update["_warning"] = f"the model could not rewrite the follow-up ({err.message}); carried over by rule"
    counters = dict(state["counters"])
    counters["llm_calls"] += 1
    update.update(counters=counters, llm_calls=[*state.get("llm_calls", []), *llm.calls])
    return reading, update
