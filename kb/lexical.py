"""BM25 (bm25s) over chunk texts, with a tokenizer that keeps technical identifiers whole and in parts."""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import json
import os
import re
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any

import bm25s
import numpy as np

from kb.models import context_text
from kb.references import is_reference_list
from kb.text import tokenize

# The version of the reference-list detection: its source, so a list saved by an older one is found again.
_DETECTOR = hashlib.sha1(Path(inspect.getfile(is_reference_list)).read_bytes()).hexdigest()[:12]


@lru_cache(maxsize=16384)
def chunk_terms(title: str, section: str, text: str, head: str = "") -> tuple[str, ...]:
    """The indexed terms of a chunk (its context header, its table's head and its text). Cached: ingestion
    computes them while embedding goes on, so the index rebuilt at the end of an ingestion finds them ready."""
    return tuple(tokenize(context_text(title, section, text, head)))


class LexicalIndex:
    """A BM25 index over a fixed list of chunk records, tagged with the store fingerprint it reflects."""

    def __init__(
        self,
        records: list[dict[str, Any]],
        fingerprint: str,
        bm25: bm25s.BM25 | None = None,
        references: set[str] | None = None,
        directory: Path | None = None,
    ):
        self.records = records
        self.fingerprint = fingerprint
        self.position = {r["chunk_id"]: i for i, r in enumerate(records)}
        self.by_ordinal = {(r["doc_id"], r["ordinal"]): i for i, r in enumerate(records)}
        self.by_doc: dict[str, np.ndarray] = {}
        docs = np.array([r["doc_id"] for r in records]) if records else np.array([], dtype=str)
        for doc in sorted(set(docs.tolist())):
            self.by_doc[doc] = np.flatnonzero(docs == doc)
        self.bm25 = bm25 if bm25 is not None else self._build(records)
        self._references = references
        self._directory = directory  # where it was loaded from, to keep a list found later

    @property
    def references(self) -> set[str]:
        """The reference-list chunks (see kb.references): search ranks them low. Found once per index, when it is
        built or first searched, and kept beside the saved index; reading every candidate's text on every search
        would cost more than the search itself."""
        if self._references is None:
            found = (r["chunk_id"] for r in self.records if is_reference_list(r.get("section") or "", r["text"]))
            self._references = set(found)
            if self._directory is not None:  # an index saved before the list was kept: kept now
                with contextlib.suppress(OSError):  # a read-only store finds it again next time
                    tmp = self._directory / f"references.json.tmp-{os.getpid()}"
                    tmp.write_text(self._references_file())
                    os.replace(tmp, self._directory / "references.json")
        return self._references

    def _references_file(self) -> str:
        # Tagged with what it was found in and by: a list left by another index or another version is not read.
        return json.dumps({"index": self.fingerprint, "by": _DETECTOR, "chunks": sorted(self.references)})

    @staticmethod
    def _build(records: list[dict[str, Any]]) -> bm25s.BM25 | None:
        if not records:
            return None
        bm25 = bm25s.BM25()
        bm25.index(
            [list(chunk_terms(r["title"], r["section"], r["text"], r.get("head", ""))) or [""] for r in records],
            show_progress=False,
        )
        return bm25

    def search(
        self, query: str, k: int, docs: list[str] | None = None, within: list[int] | None = None
    ) -> list[tuple[int, float]]:
        """(record index, score) pairs, best first, of the given documents' records, restricted to the positions
        `within` when given; ties broken by chunk_id for determinism."""
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
        if within is not None:
            kept = np.zeros(len(self.records), dtype=np.float32)
            kept[within] = 1.0
            mask = kept if mask is None else mask * kept
        scores = self.bm25.get_scores(terms, weight_mask=mask)
        candidates = np.flatnonzero(scores > 0)
        if len(candidates) > k:  # only the k best (and every tie with the k-th) need sorting
            kth = np.partition(scores[candidates], len(candidates) - k)[len(candidates) - k]
            candidates = candidates[scores[candidates] >= kth]
        ranked = sorted(candidates.tolist(), key=lambda i: (-float(scores[i]), self.records[i]["chunk_id"]))
        return [(i, float(scores[i])) for i in ranked[:k]]

    def holding(self, pattern: re.Pattern[str], docs: list[str] | None = None) -> list[int]:
        """The positions of the records (of the given documents) whose text the pattern finds, in record order. A
        scan of every record: search runs it only for the rare question that names a markup element or writes a
        format escape ("%C")."""
        if docs is None:
            return [p for p, r in enumerate(self.records) if pattern.search(r["text"])]
        positions = sorted(int(p) for d in docs for p in self.by_doc.get(d, []))
        return [p for p in positions if pattern.search(self.records[p]["text"])]

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
        (tmp / "references.json").write_text(self._references_file())
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
        return cls(records, fingerprint, bm25, _read_references(directory / "references.json", fingerprint), directory)


def _read_references(path: Path, fingerprint: str) -> set[str] | None:
    """The saved list of reference-list chunks, or None when absent, unreadable, or found in another index or by
    another version of the detection."""
    try:
        saved = json.loads(path.read_text())
        if saved["index"] == fingerprint and saved["by"] == _DETECTOR:
            return set(saved["chunks"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None
