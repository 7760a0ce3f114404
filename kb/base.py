"""The knowledge base's public face: ingest, list, remove and search documents."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from kb.embed import Embedder, get_embedder
from kb.files import remember_hashes
from kb.ingest import Ingestion
from kb.lexical import LexicalIndex
from kb.models import DocumentRecord, Hit, IngestSummary, Progress
from kb.parse_pool import ParsePool
from kb.search import Mode, hybrid_search
from kb.settings import KBSettings
from kb.store import Store


class KnowledgeBase:
    """One store (embedded or server) with its BM25 index, kept consistent with the committed documents."""

    def __init__(self, settings: KBSettings | None = None):
        self.settings = settings or KBSettings()
        self.store = Store(self.settings)
        self._lexical: LexicalIndex | None = None
        self._lock = threading.RLock()  # guards the BM25 index
        self._ingest_lock = threading.Lock()  # one ingestion at a time; searches go on meanwhile
        # The ingestion loads the model itself, while its parser processes start up.
        self.ingestion = Ingestion(self.store, lambda: self.embedder, self.settings)

    @property
    def embedder(self) -> Embedder:
        s = self.settings
        return get_embedder(s.embed_model, s.embed_dtype, s.model_cache_dir)

    @property
    def _lexical_dir(self) -> Path:
        return self.settings.bm25_dir / self.store.chunks.name

    # catalogue -------------------------------------------------------------------------------------
    def documents(self) -> list[DocumentRecord]:
        return self.store.documents()

    def committed(self) -> dict[str, str]:
        return {d.doc_id: d.content_hash for d in self.store.documents() if d.status == "committed"}

    def remove(self, doc_id: str) -> bool:
        """Delete a document from every index; False when it is unknown."""
        with self._lock:
            if self.store.document(doc_id) is None and not self.store.chunk_count(doc_id):
                return False
            self.store.delete_document(doc_id)
            self.lexical()
            return True

    def repair(self) -> list[str]:
        """Drop documents whose ingestion was abandoned (pending past the lease); returns their ids."""
        return self.ingestion.repair()

    # indexes ---------------------------------------------------------------------------------------
    def lexical(self, committed: dict[str, str] | None = None) -> LexicalIndex:
        """The BM25 index matching the committed documents, loaded or rebuilt from Chroma when stale."""
        committed = self.committed() if committed is None else committed
        fingerprint = hashlib.sha1(json.dumps(sorted(committed.items())).encode()).hexdigest()
        with self._lock:
            if self._lexical is not None and self._lexical.fingerprint == fingerprint:
                return self._lexical
            index = LexicalIndex.load(self._lexical_dir)
            if index is None or index.fingerprint != fingerprint:
                index = LexicalIndex(self.store.chunk_records(committed), fingerprint)
                index.save(self._lexical_dir)
            remember_hashes(self.settings.store_dir, committed)  # also for stores made before the hint existed
            self._lexical = index
            return index

    # work ------------------------------------------------------------------------------------------
    def ingest(
        self,
        paths: Sequence[str | Path],
        progress: Callable[[Progress], None] | None = None,
        parsers: ParsePool | None = None,
    ) -> IngestSummary:
        """Ingest files and folders; `parsers`: parser processes started early (ParsePool.early), taken over."""
        try:
            with self._ingest_lock:
                summary = self.ingestion.run([Path(p) for p in paths], progress, parsers)
                self.lexical()
                return summary
        finally:
            if parsers is not None:
                parsers.close()

    def search(
        self,
        query: str,
        k: int = 8,
        docs: list[str] | None = None,
        variants: list[str] | None = None,
        neighbours: int = 0,
        mode: Mode = "hybrid",
    ) -> list[Hit]:
        catalogue = self.store.documents()
        committed = {d.doc_id: d.content_hash for d in catalogue if d.status == "committed"}
        lexical = self.lexical(committed)
        embedder = self.embedder if mode != "lexical" else None
        return hybrid_search(
            self.store,
            embedder,
            lexical,
            committed,
            self.settings,
            query,
            k,
            docs,
            variants,
            neighbours,
            mode,
            everything_committed=len(committed) == len(catalogue),
        )
