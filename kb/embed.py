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
from kb.settings import PACKAGED_MODEL, model_source
from kb.tokens import Tokenized, Tokens

log = logging.getLogger("kb")
# One model serves every thread (ingestion and the searches of several sessions). The PyTorch path takes this
# lock per batch, so a search waits at most one batch while a large file is embedded; the int8 runs need no
# lock, and an ingestion queues only a few of them at a time (see OnnxEncoder.encode_ids).
_LOCK = threading.Lock()


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
        self.name = model or PACKAGED_MODEL
        source = model_source(self.name)
        self.model: Any = None
        self.onnx: OnnxEncoder | None = None
        if dtype in ("auto", "int8"):
            self.onnx = OnnxEncoder.cached(source, cache_dir)
        if self.onnx is None:
            import transformers
            from sentence_transformers import SentenceTransformer

            transformers.utils.logging.set_verbosity_error()  # no "Loading weights" bars or length warnings
            transformers.utils.logging.disable_progress_bar()
            self.model = SentenceTransformer(source, device="cpu")
            if dtype in ("auto", "int8"):
                try:
                    self.onnx = OnnxEncoder.export(self.model, source, cache_dir)
                except ExportError as exc:
                    log.warning("embedding model %s stays on PyTorch: %s", self.name, exc)
        if self.onnx is not None:
            self.tokens = self.onnx.tokens
            self.dimension = self.onnx.dimension
            self.model = None  # the int8 copy serves; free PyTorch's weights
        else:
            self.tokens = Tokens.from_transformers(self.model.tokenizer, int(self.model.max_seq_length or 256))
            self.dimension = int(self.model.get_embedding_dimension())
        self.max_tokens = self.tokens.max_tokens
        self.bf16 = self.onnx is None and (dtype == "bfloat16" or (dtype == "auto" and _cpu_has_bf16()))
        precision = "bfloat16" if self.bf16 else "float32"
        self.runtime = "onnxruntime int8" if self.onnx else f"pytorch {precision}"

    def count_tokens(self, texts: list[str] | tuple[str, ...]) -> list[int]:
        return self.tokens.count(texts)

    def tokenize(self, texts: list[str]) -> Tokenized:
        """Token windows of texts, for encode_tokenized (tokenized ahead, beside other documents' embedding)."""
        return self.tokens.windows(list(texts))

    def encode(self, texts: list[str], progress: Any = None, batch_size: int = 32) -> np.ndarray:
        """Normalised float32 vectors, one per text."""
        return self.encode_tokenized(self.tokenize(texts), len(texts), progress, batch_size)

    def encode_tokenized(
        self, tokenized: Tokenized, count: int, progress: Any = None, batch_size: int = 32
    ) -> np.ndarray:
        """Normalised float32 vectors of `count` texts from their windows (see tokenize); a text cut into several
        windows gets the normalised mean of their vectors."""
        windows, owners = tokenized
        if not windows:
            return np.zeros((count, self.dimension), dtype=np.float32)
        if self.onnx is not None:
            # All windows in one pass: no run waits for a batch's slowest text. No lock: runs are thread-safe.
            vectors = self.onnx.encode_ids(windows, progress, batch_size)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True).clip(min=1e-12)
        else:
            vectors = np.zeros((len(windows), self.dimension), dtype=np.float32)
            order = np.argsort([-len(w) for w in windows], kind="stable")  # similar lengths pad less
            for start in range(0, len(windows), batch_size):
                idx = order[start : start + batch_size]
                texts_in = [self.tokens.decode(windows[i]) for i in idx]
                with _LOCK, self._precision():
                    vectors[idx] = self.model.encode(texts_in, batch_size=len(idx), normalize_embeddings=True)
                if progress:
                    progress(min(start + batch_size, len(windows)), len(windows))
        if len(windows) == count:
            return vectors
        pooled = np.zeros((count, self.dimension), dtype=np.float32)
        np.add.at(pooled, owners, vectors)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True).clip(min=1e-12)

    def with_title(self, vectors: np.ndarray, title: str, weight: float) -> np.ndarray:
        """Chunk vectors pulled toward their document's title: normalise(v + weight * title vector).

        Every chunk of a document shares its title, so one embedding of it stands in for repeating it in each
        chunk's text (which the model would read again for every chunk).
        """
        if not title or weight <= 0 or not len(vectors):
            return vectors
        mixed = vectors + weight * self.encode([title])[0]
        return mixed / np.linalg.norm(mixed, axis=1, keepdims=True).clip(min=1e-12)

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
