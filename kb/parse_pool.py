"""The worker processes that parse PDFs, one job per file.

They can start before the store and the embedding model are opened (about two seconds of imports and loading on
one core), parsing the files the store is not known to hold while those load. They import only the parser
(kb.parse): the spawned processes unpickle `parse_or_reason` and nothing else of this package.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from kb.files import doc_id_for, file_hash, known_hashes, pdf_files
from kb.parse import ParsedDocument, parse_or_reason


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
        known = known_hashes(store_dir)
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
