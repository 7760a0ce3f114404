"""BM25 (bm25s) over chunk texts, with a tokenizer that keeps technical identifiers whole and in parts."""

from __future__ import annotations

import json
import os
import re
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import Stemmer

from kb.models import context_text

# A word, or a compound joined by - . _ / (e.g. "gpt-3.5", "iso/iec", "snake_case", "v2.1.0").
_COMPOUND = re.compile(r"[^\W_]+(?:[-._/+][^\W_]+)*|[^\W_]+")
_PARTS = re.compile(r"[^\W_]+")
_ALNUM_SPLIT = re.compile(r"\d+|[^\W\d_]+")

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "being",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "for",
        "from",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "also",
        "may",
        "might",
        "must",
        "shall",
        "via",
        "per",
        "each",
        "both",
        "either",
        "any",
        "all",
        "few",
        "many",
    ]
)


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    """Lower-cased terms: plain words stemmed; identifiers kept whole, plus their parts and letter/digit runs."""
    out: list[str] = []
    stem = _stemmer().stemWord
    for match in _COMPOUND.finditer(text.lower()):
        token = match.group()
        if token.isalpha():  # a plain word (most tokens): one part, nothing to split
            if token not in STOPWORDS and len(token) > 1:
                out.append(stem(token))
            continue
        parts = _PARTS.findall(token)
        out.append(token)  # the identifier as written
        for part in parts if len(parts) > 1 else []:
            if part not in STOPWORDS:
                out.append(part if any(c.isdigit() for c in part) else stem(part))
        for part in parts:
            runs = _ALNUM_SPLIT.findall(part)
            if len(runs) > 1:  # acronyms with digits: "sha256" -> "sha", "256"
                out += [r if r.isdigit() else stem(r) for r in runs if r not in STOPWORDS]
    return out


@lru_cache(maxsize=16384)
def chunk_terms(title: str, section: str, text: str) -> tuple[str, ...]:
    """The indexed terms of a chunk (its context header and text). Cached: ingestion computes them while
    embedding goes on, so the index rebuilt at the end of an ingestion finds them ready."""
    return tuple(tokenize(context_text(title, section, text)))


class LexicalIndex:
    """A BM25 index over a fixed list of chunk records, tagged with the store fingerprint it reflects."""

    def __init__(self, records: list[dict[str, Any]], fingerprint: str, bm25: bm25s.BM25 | None = None):
        self.records = records
        self.fingerprint = fingerprint
        self.position = {r["chunk_id"]: i for i, r in enumerate(records)}
        self.by_ordinal = {(r["doc_id"], r["ordinal"]): i for i, r in enumerate(records)}
        self.by_doc: dict[str, np.ndarray] = {}
        docs = np.array([r["doc_id"] for r in records]) if records else np.array([], dtype=str)
        for doc in sorted(set(docs.tolist())):
            self.by_doc[doc] = np.flatnonzero(docs == doc)
        self.bm25 = bm25 if bm25 is not None else self._build(records)

    @staticmethod
    def _build(records: list[dict[str, Any]]) -> bm25s.BM25 | None:
        if not records:
            return None
        bm25 = bm25s.BM25()
        bm25.index(
            [list(chunk_terms(r["title"], r["section"], r["text"])) or [""] for r in records], show_progress=False
        )
        return bm25

    def search(self, query: str, k: int, docs: list[str] | None = None) -> list[tuple[int, float]]:
        """(record index, score) pairs, best first; ties broken by chunk_id for determinism."""
        if self.bm25 is None:
            return []
        vocab = self.bm25.vocab_dict
        terms = [t for t in tokenize(query) if t in vocab]
        if not terms:
            return []
        mask = None
        if docs is not None:
            mask = np.zeros(len(self.records), dtype=np.float32)
            for doc in docs:
                mask[self.by_doc.get(doc, [])] = 1.0
        scores = self.bm25.get_scores(terms, weight_mask=mask)
        candidates = np.flatnonzero(scores > 0)
        if len(candidates) > k:  # only the k best (and every tie with the k-th) need sorting
            kth = np.partition(scores[candidates], len(candidates) - k)[len(candidates) - k]
            candidates = candidates[scores[candidates] >= kth]
        ranked = sorted(candidates.tolist(), key=lambda i: (-float(scores[i]), self.records[i]["chunk_id"]))
        return [(i, float(scores[i])) for i in ranked[:k]]

    def save(self, directory: Path) -> None:
        """Write to a temporary folder, then swap it in, so a crash never leaves a half-written index."""
        directory.parent.mkdir(parents=True, exist_ok=True)
        tmp = directory.with_name(f"{directory.name}.tmp-{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        if self.bm25 is not None:
            self.bm25.save(str(tmp), show_progress=False)
        with (tmp / "records.jsonl").open("w", encoding="utf-8") as fh:
            for record in self.records:
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        (tmp / "fingerprint").write_text(self.fingerprint)
        old = directory.with_name(f"{directory.name}.old-{os.getpid()}")
        if directory.exists():
            directory.rename(old)
        tmp.rename(directory)
        shutil.rmtree(old, ignore_errors=True)

    @classmethod
    def load(cls, directory: Path) -> LexicalIndex | None:
        """The saved index, or None when missing or unreadable (the caller rebuilds it)."""
        try:
            fingerprint = (directory / "fingerprint").read_text()
            with (directory / "records.jsonl").open(encoding="utf-8") as fh:
                records = [json.loads(line) for line in fh]
            bm25 = bm25s.BM25.load(str(directory)) if records else None
        except (OSError, ValueError, KeyError):
            return None
        return cls(records, fingerprint, bm25)
