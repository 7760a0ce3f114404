"""The files an ingestion takes in, and the worker processes that parse them.

The parser processes can start before the store and the embedding model are opened (about two seconds of
imports and loading on one core), parsing the files the store is not known to hold while those load. Which
files the store holds is read from a small hint file written beside the store; Chroma stays the authority,
and a file the hint got wrong is simply parsed later, or parsed for nothing.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from kb.parse import ParsedDocument, parse_or_reason

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


def remember_hashes(store_dir: Path, committed: dict[str, str]) -> None:
    """Write the hint of which content each committed document has (atomically; a failure only loses the hint)."""
    if _known_hashes(store_dir) == committed:
        return
    try:
        store_dir.mkdir(parents=True, exist_ok=True)
        partial = store_dir / f"{_HINT}.{os.getpid()}.partial"  # several processes may share a store
        partial.write_text(json.dumps(committed, sort_keys=True))
        os.replace(partial, store_dir / _HINT)
    except OSError:
        pass


def _known_hashes(store_dir: Path) -> dict[str, str]:
    try:
        known = json.loads((store_dir / _HINT).read_text())
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


class ParsePool:
    """Parser worker processes with their jobs, one per file; without workers, files are parsed on the spot."""

    def __init__(self, workers: int, max_mb: float):
        self.max_mb = max_mb
        context = multiprocessing.get_context("spawn")  # no fork of a process holding threads and a model
        self._pool = ProcessPoolExecutor(workers, mp_context=context) if workers > 1 else None
        self._jobs: dict[Path, Future] = {}
        self._digests: dict[Path, str] = {}  # content hash taken just before an early parse was submitted
        self._dropped: list[Future] = []

    @classmethod
    def early(cls, paths: list[Path], store_dir: Path, workers: int, max_mb: float) -> ParsePool | None:
        """Start parsing the files under `paths` whose content the store is not known to hold; None if there are
        fewer than two (one file is parsed on the spot anyway) or no worker processes are configured."""
        known = _known_hashes(store_dir)
        todo: list[tuple[Path, str]] = []
        for path in (f for p in paths for f in pdf_files(p)):
            try:
                digest = file_hash(path)
            except OSError:
                continue  # the ingestion itself reports the unreadable file
            if known.get(doc_id_for(path)) != digest:
                todo.append((path, digest))
        if len(todo) < 2 or workers < 2:
            return None
        pool = cls(min(workers, len(todo)), max_mb)
        for path, digest in todo:
            pool._digests[path] = digest
            pool.submit(path)
        return pool

    @property
    def planned(self) -> list[Path]:
        """The files with a parse job, in the order submitted."""
        return list(self._jobs)

    def digest(self, path: Path) -> str | None:
        """The content hash taken before the file's early parse (the content that parse read), if any."""
        return self._digests.get(path)

    def submit(self, path: Path) -> None:
        if self._pool is None or path in self._jobs:
            return
        try:
            self._jobs[path] = self._pool.submit(parse_or_reason, str(path), doc_id_for(path), self.max_mb)
        except BrokenProcessPool:  # an earlier file crashed a parser process: this file fails alone
            failed: Future = Future()
            failed.set_exception(BrokenProcessPool())
            self._jobs[path] = failed

    def keep_only(self, paths: set[Path]) -> None:
        """Drop the jobs of files that need no parse after all (one already running finishes unused)."""
        for path in [p for p in self._jobs if p not in paths]:
            job = self._jobs.pop(path)
            if not job.cancel():
                self._dropped.append(job)

    def result(self, path: Path) -> ParsedDocument | str:
        """The parsed document, or the one-line reason it failed (the job is forgotten: memory is freed)."""
        job = self._jobs.pop(path, None)
        if job is None:
            return parse_or_reason(str(path), doc_id_for(path), self.max_mb)
        try:
            return job.result()
        except BrokenProcessPool:
            return "the parser process crashed on this file"
        except CancelledError:
            return "ingestion was interrupted"

    def close(self) -> None:
        """Cancel the queued parses and stop the workers. When none is running any more, wait for them to exit
        (so their resource use is accounted to this process); otherwise return at once, and the parses under
        way (at most one per worker, plus one) finish in the background before the interpreter exits."""
        if self._pool is not None:
            idle = all(job.done() for job in [*self._jobs.values(), *self._dropped])
            self._pool.shutdown(wait=idle, cancel_futures=True)
