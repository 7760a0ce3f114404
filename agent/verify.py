"""Citation enforcement: every sentence must cite known evidence that actually supports it.

The rule, applied to every answer whatever its mode:
1. A marker that names no evidence passage (unknown key) refuses the whole answer: `invalid_citation`.
2. A sentence without a marker is removed.
3. A sentence is supported when at least `threshold` of its content words (stemmed, stopwords dropped) occur in the
   passages it cites; unsupported sentences are removed.
4. When nothing is left, or more sentences were removed than kept, the answer is refused: `unsupported_answer`.
"""

from __future__ import annotations

import re
from typing import Any

from agent.arithmetic import COMPUTED_CLAUSE
from agent.evidence import whole_text
from agent.prompts import REFUSAL_PHRASE
from kb.sentences import sentences as split_sentences
from kb.text import tokenize

MARKER = re.compile(r"\[(c\d+)\]")
_GROUP = re.compile(r"(?:\s*\[c\d+\])+(?:\s*[.!?])?")
_ANY_KEY = re.compile(r"\[\s*([A-Za-z]*\d+)\s*\]")


def split_cited(answer: str) -> list[tuple[str, list[str]]]:
    """(sentence, cited keys) pairs; a run of markers belongs to the sentence it ends."""
    out: list[tuple[str, list[str]]] = []
    pos = 0
    for group in _GROUP.finditer(answer):
        unit = answer[pos : group.start()].strip()
        keys = list(dict.fromkeys(MARKER.findall(group.group())))
        pos = group.end()
        if not unit:
            if out:  # markers separated from their sentence by a space or a period
                out[-1] = (out[-1][0], list(dict.fromkeys(out[-1][1] + keys)))
            continue
        parts = split_sentences(unit) or [unit]
        out += [(p, []) for p in parts[:-1]]
        out.append((parts[-1], keys))
    tail = answer[pos:].strip()
    if tail:
        out += [(p, []) for p in split_sentences(tail) or [tail]]
    return out


def is_refusal(answer: str) -> bool:
    squash = lambda s: re.sub(r"\W+", " ", s.lower()).strip()  # noqa: E731
    return squash(REFUSAL_PHRASE) in squash(answer)


def support(sentence: str, cited_texts: list[str], computed: bool = False) -> float:
    """Share of the sentence's content words found in its cited passages; a computed clause ("; change +15.0%
    (computed)") is left aside: its inputs are what the passages must hold."""
    if computed:  # the extractive answer's own computed clause; an LLM's text gets no such exemption
        sentence = COMPUTED_CLAUSE.sub(" ", sentence)
    words = set(tokenize(MARKER.sub(" ", sentence)))
    if not words:
        return 0.0
    cited: set[str] = set()
    for text in cited_texts:
        cited.update(tokenize(text))
    return len(words & cited) / len(words)


def check_citations(
    answer: str, context: list[dict[str, Any]], threshold: float, computed: bool = False
) -> dict[str, Any]:
    """The verified answer and a per-sentence record; `refusal_reason` is set when the answer cannot stand."""
    by_key = {item["key"]: item for item in context}
    record: dict[str, Any] = {
        "threshold": threshold,
        "method": "content-word overlap with the cited passages",
        "sentences": [],
        "answer": "",
        "refusal_reason": None,
        "unknown_keys": [],
    }
    unknown = sorted({k for k in _ANY_KEY.findall(answer) if k not in by_key and k.lower().startswith("c")})
    if unknown:
        record["unknown_keys"] = unknown
        record["refusal_reason"] = "invalid_citation"
        return record
    kept: list[str] = []
    for sentence, keys in split_cited(answer):
        entry: dict[str, Any] = {"text": sentence, "keys": keys, "support": 0.0, "kept": False}
        if not keys:
            entry["reason"] = "no citation marker"
        else:
            entry["support"] = round(support(sentence, [whole_text(by_key[k]) for k in keys], computed), 3)
            entry["kept"] = entry["support"] >= threshold
            entry["reason"] = "supported" if entry["kept"] else f"support {entry['support']:.2f} < {threshold:.2f}"
        record["sentences"].append(entry)
        if entry["kept"]:
            kept.append(f"{sentence.rstrip()} " + "".join(f"[{k}]" for k in keys))
    removed = len(record["sentences"]) - len(kept)
    if not kept or removed > len(kept):
        record["refusal_reason"] = "unsupported_answer"
        return record
    record["answer"] = " ".join(kept)
    return record


def renumbered(answer: str) -> tuple[str, dict[str, str]]:
    """The answer with its citations numbered in order of first appearance ([c3] ... [c1] -> [c1] ... [c2]), and the
    map from the evidence keys to the new ones."""
    mapping = {key: f"c{i}" for i, key in enumerate(cited_keys(answer), 1)}
    return MARKER.sub(lambda m: f"[{mapping[m.group(1)]}]", answer), mapping


def cited_keys(answer: str) -> list[str]:
    return list(dict.fromkeys(MARKER.findall(answer)))
