"""The files an ingestion takes in: PDFs named or found under folders, their document names and content hashes, and
the hint file beside the store that says which content the store holds.

The hint lets parser processes start before the store and the embedding model are opened (see kb.parse_pool);
Chroma stays the authority, and a file the hint got wrong is simply parsed later, or parsed for nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from kb.models import FileOutcome

_HINT = "catalogue.json"


def doc_id_for(path: Path) -> str:
    return path.stem if path.suffix.lower() == ".pdf" else path.name


def pdf_files(path: Path) -> list[Path]:
    """A file named directly, or the PDFs under a folder (sorted)."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
    return [path] if path.is_file() else []


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def failure(path: Path, reason: str) -> FileOutcome:
    """A file's failed outcome, its one-line error starting with the file's name."""
    return FileOutcome(path=str(path), doc_id=doc_id_for(path), status="failed", error=f"{path.name}: {reason}")


def collect(paths: list[Path]) -> tuple[list[Path], list[FileOutcome]]:
    """Files to ingest (folders expanded to their PDFs, sorted) and failures for paths that are unusable."""
    files: list[Path] = []
    failed: list[FileOutcome] = []
    for path in paths:
        if path.is_dir() or path.is_file():
            files += pdf_files(path)
        else:
            failed.append(failure(path, "no such file or folder"))
    seen: dict[str, Path] = {}
    unique: list[Path] = []
    for path in files:
        doc_id = doc_id_for(path)
        # One document name is one document: a second file by that name would silently replace the first.
        if doc_id in seen and seen[doc_id].resolve() != path.resolve():
            failed.append(failure(path, f"another file in this batch has the same document name ({seen[doc_id]})"))
        elif doc_id not in seen:
            seen[doc_id] = path
            unique.append(path)
    return unique, failed


def remember_hashes(store_dir: Path, committed: dict[str, str]) -> None:
    """Write the hint of which content each committed document has (atomically; a failure only loses the hint)."""
    if known_hashes(store_dir) == committed:
        return
    try:
        store_dir.mkdir(parents=True, exist_ok=True)
        partial = store_dir / f"{_HINT}.{os.getpid()}.partial"  # several processes may share a store
        partial.write_text(json.dumps(committed, sort_keys=True))
        os.replace(partial, store_dir / _HINT)
    except OSError:
        pass


def known_hashes(store_dir: Path) -> dict[str, str]:
    """The hint's {doc_id: content hash}; empty when there is none or it cannot be read."""
    try:
        known = json.loads((store_dir / _HINT).read_text())
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}
