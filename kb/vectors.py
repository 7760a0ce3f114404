"""Exact dense search: every committed chunk's vector in one matrix, in the BM25 index's record order.

Chroma's HNSW index is approximate, and its answers differ from one process to the next (the same question gives
other tails of the candidate list, so other fused ranks). A matrix product over a store of this size is exact,
deterministic and fast (20,000 chunks: a few milliseconds; 100,000: 150 MB of float32). Saved beside the BM25 index
and tagged with the same fingerprint, so it is rebuilt exactly when the committed documents change.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np


class VectorIndex:
    """The normalised vectors of a fixed list of records (row i is record i of the BM25 index)."""

    def __init__(self, matrix: np.ndarray, fingerprint: str):
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self.fingerprint = fingerprint

    def search(self, vector: np.ndarray, n: int, rows: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The n rows most similar to the vector (cosine), among `rows` when given: (row, similarity), best first;
        ties go to the earlier row, so the order never varies."""
        if len(self.matrix) == 0 or n <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32)
        if rows is None:
            sims = self.matrix @ query
            candidates = np.arange(len(sims))
        else:
            if len(rows) == 0:
                return []
            candidates = np.asarray(rows)
            sims = self.matrix[candidates] @ query
        if len(sims) > n:
            top = np.argpartition(-sims, n - 1)[:n]
            kth = sims[top].min()
            top = np.flatnonzero(sims >= kth)  # every tie with the n-th, then a stable order
        else:
            top = np.arange(len(sims))
        order = sorted(top.tolist(), key=lambda i: (-float(sims[i]), int(candidates[i])))[:n]
        return [(int(candidates[i]), float(sims[i])) for i in order]

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}.npz")
        np.savez(tmp, matrix=self.matrix, fingerprint=np.array(self.fingerprint))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> VectorIndex | None:
        try:
            with np.load(path) as data:
                return cls(data["matrix"], str(data["fingerprint"]))
        except (OSError, ValueError, KeyError):
            return None
