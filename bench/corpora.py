"""The corpora list (corpora.json): each corpus's PDFs, questions and kind of gold, resolved beside the file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

ROOT = Path(__file__).resolve().parents[1]  # the project's root: bench/ sits beside kb/


class BenchError(Exception):
    """A one-line reason the bench, or one corpus of it, cannot go on."""


class Corpus(BaseModel):
    """One corpus of corpora.json, with its paths resolved against the file's folder."""

    name: str = Field(pattern=r"^[A-Za-z0-9._-]+$", description="Short name; also names its cached store.")
    kind: str = Field("", description="What kind of documents these are.")
    pdfs: Path = Field(description="Folder of the corpus's PDFs.")
    questions: Path | None = Field(None, description="JSONL of questions (kb.evaluate format).")
    gold: Literal["document", "page"] = Field("document", description="Kind of gold the questions carry.")
    notes: str = Field("", description="Free-form notes.")


def default_path() -> Path:
    """BENCH_CORPORA, else ../shared/corpora/corpora.json beside the project's root."""
    env = os.environ.get("BENCH_CORPORA")
    return Path(env) if env else ROOT.parent / "shared" / "corpora" / "corpora.json"


def load_entries(path: Path) -> list[dict[str, Any]]:
    """The raw corpus entries (each validated later, on its own, so one bad entry fails only its corpus)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BenchError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise BenchError(f"{path}: not valid JSON ({exc})") from None
    entries = data.get("corpora") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise BenchError(f'{path}: expected {{"corpora": [{{"name": ..., "pdfs": ...}}, ...]}}')
    for number, entry in enumerate(entries, 1):
        entry.setdefault("name", f"corpus-{number}")
    return entries


def resolve(entry: dict[str, Any], base: Path) -> Corpus:
    """A validated corpus whose folder exists, paths made absolute against `base` (the json file's folder)."""
    try:
        corpus = Corpus(**entry)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise BenchError(f"corpus entry field '{'.'.join(map(str, first['loc']))}': {first['msg']}") from None
    corpus.pdfs = (base / corpus.pdfs).resolve()
    if corpus.questions is not None:
        corpus.questions = (base / corpus.questions).resolve()
    if not corpus.pdfs.is_dir():
        raise BenchError(f"{corpus.pdfs}: no such folder")
    return corpus
