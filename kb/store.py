"""Chroma collections: chunks with their vectors, and a catalogue of documents that marks which are complete."""

from __future__ import annotations

import json
import re
from typing import Any

import chromadb
import numpy as np
from chromadb.config import Settings

from kb.embed import KBEmbeddingFunction
from kb.models import Chunk, DocumentRecord, Region
from kb.settings import KBSettings

_CHUNK_FIELDS = ("doc_id", "ordinal", "start_page", "end_page", "section", "title", "head", "kind", "ocr")
# The values of stores written before a field existed.
_DEFAULTS: dict[str, Any] = {"section": "", "title": "", "head": "", "kind": "body", "ocr": False}


def make_client(settings: KBSettings) -> chromadb.ClientAPI:
    chroma_settings = Settings(anonymized_telemetry=False)
    if settings.chroma_host:
        return chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings)
    path = settings.store_dir / "chroma"
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=chroma_settings)


def _text(document: str | None, meta: dict[str, Any]) -> str:
    """A chunk's text: in its metadata; stores written before that keep it as Chroma's document."""
    text = meta.get("text")
    return (document or "") if text is None else text


def record_from(chunk_id: str, document: str | None, meta: dict[str, Any]) -> dict[str, Any]:
    """Plain-dict chunk record (the form kept by the BM25 index and turned into hits)."""
    record = {"chunk_id": chunk_id, "text": _text(document, meta), "content_hash": meta.get("content_hash", "")}
    for key in _CHUNK_FIELDS:
        record[key] = meta.get(key, _DEFAULTS.get(key, 0))
    record["regions"] = json.loads(meta.get("regions") or "[]")
    return record


class Store:
    """The two Chroma collections of one knowledge base; names carry the model so vectors never mix."""

    def __init__(self, settings: KBSettings):
        self.settings = settings
        self.client = make_client(settings)
        slug = re.sub(r"[^a-zA-Z0-9]+", "-", settings.embed_model.rsplit("/", 1)[-1]).strip("-")[:40] or "model"
        base = f"{settings.collection}-{slug}"
        function = KBEmbeddingFunction(settings.embed_model, settings.embed_dtype, settings.model_cache_dir)
        self.chunks = self.client.get_or_create_collection(
            f"{base}-chunks",
            embedding_function=function,
            configuration={"hnsw": {"space": "cosine"}},
        )
        self.docs = self.client.get_or_create_collection(f"{base}-docs", embedding_function=None)
        self.batch = max(1, min(self.client.get_max_batch_size(), 4000))

    # catalogue -------------------------------------------------------------------------------------
    def documents(self) -> list[DocumentRecord]:
        got = self.docs.get(include=["metadatas"])
        records = [DocumentRecord(**meta) for meta in got["metadatas"] or []]
        return sorted(records, key=lambda r: r.doc_id)

    def document(self, doc_id: str) -> DocumentRecord | None:
        got = self.docs.get(ids=[doc_id], include=["metadatas"])
        return DocumentRecord(**got["metadatas"][0]) if got["ids"] else None

    def put_document(self, record: DocumentRecord) -> None:
        self.docs.upsert(ids=[record.doc_id], embeddings=[[1.0]], metadatas=[record.model_dump()])

    def delete_document(self, doc_id: str) -> None:
        """Mark abandoned, drop the chunks, then the record: a crash in between is finished by repair."""
        record = self.document(doc_id)
        if record is not None:
            record.status, record.ingested_at = "pending", 0.0
            self.put_document(record)
        self.delete_chunks(doc_id)
        self.docs.delete(ids=[doc_id])

    # chunks ----------------------------------------------------------------------------------------
    def delete_chunks(self, doc_id: str) -> None:
        self.chunks.delete(where={"doc_id": doc_id})

    def add_chunks(self, chunks: list[Chunk], vectors: np.ndarray, content_hash: str) -> None:
        for start in range(0, len(chunks), self.batch):
            part = chunks[start : start + self.batch]
            # The text is kept as metadata, not as Chroma's document: documents get a full-text (trigram) index
            # that nothing here queries (BM25 is our own), which doubled the write time, and Chroma's writes hold
            # the GIL, stalling the embedding that runs beside them.
            self.chunks.upsert(
                ids=[c.chunk_id for c in part],
                embeddings=vectors[start : start + len(part)],
                metadatas=[_chunk_meta(c, content_hash) for c in part],
            )

    def chunk_count(self, doc_id: str | None = None) -> int:
        if doc_id is None:
            return self.chunks.count()
        return len(self.chunks.get(where={"doc_id": doc_id}, include=[])["ids"])

    def chunk_records(self, committed: dict[str, str]) -> list[dict[str, Any]]:
        """Every chunk of the committed documents ({doc_id: hash}), in document and position order."""
        records: list[dict[str, Any]] = []
        for doc_id in sorted(committed):
            got = self.chunks.get(where={"doc_id": doc_id}, include=["documents", "metadatas"])
            for cid, text, meta in zip(got["ids"], got["documents"], got["metadatas"]):
                if meta.get("content_hash") == committed[doc_id]:
                    records.append(record_from(cid, text, meta))
        records.sort(key=lambda r: (r["doc_id"], r["ordinal"]))
        return records

    def embeddings(self, chunk_ids: list[str]) -> np.ndarray | None:
        """The stored vectors of the chunks, in the given order; None when any is missing."""
        found: dict[str, Any] = {}
        for start in range(0, len(chunk_ids), self.batch):
            got = self.chunks.get(ids=chunk_ids[start : start + self.batch], include=["embeddings"])
            found.update(zip(got["ids"], got["embeddings"], strict=True))
        if any(cid not in found for cid in chunk_ids):
            return None
        if not chunk_ids:
            return np.zeros((0, 0), dtype=np.float32)
        return np.asarray([found[cid] for cid in chunk_ids], dtype=np.float32)

    def query(self, vector: np.ndarray, n: int, doc_ids: list[str] | None) -> list[tuple[str, float, str, dict]]:
        """Nearest chunks among the given documents (None: all): (chunk_id, cosine similarity, text, metadata)."""
        if doc_ids is not None and not doc_ids:
            return []
        where = None
        if doc_ids is not None:
            where = {"doc_id": doc_ids[0]} if len(doc_ids) == 1 else {"doc_id": {"$in": doc_ids}}
        got = self.chunks.query(
            query_embeddings=[vector], n_results=n, where=where, include=["documents", "metadatas", "distances"]
        )
        return [
            (cid, 1.0 - float(dist), _text(document, meta), meta)
            for cid, dist, document, meta in zip(
                got["ids"][0], got["distances"][0], got["documents"][0], got["metadatas"][0]
            )
        ]


def _chunk_meta(chunk: Chunk, content_hash: str) -> dict[str, Any]:
    meta: dict[str, Any] = {key: getattr(chunk, key) for key in _CHUNK_FIELDS}
    meta["content_hash"] = content_hash
    meta["text"] = chunk.text
    meta["regions"] = json.dumps([r.model_dump() for r in chunk.regions])
    return meta


def regions_of(record: dict[str, Any]) -> list[Region]:
    return [Region(**r) for r in record.get("regions", [])]
