"""The embedding model's own tokenizer, for counting tokens and cutting texts into windows the model sees whole.

Built on Hugging Face `tokenizers` directly: it imports in milliseconds (transformers takes seconds), and two
tokenizers with fixed settings can be shared by every thread without a lock.
"""

from __future__ import annotations

from pathlib import Path

from tokenizers import Tokenizer

# Token ids of each window (special tokens included), and the index of the text each window belongs to.
Tokenized = tuple[list[list[int]], list[int]]


class Tokens:
    """Counts and windows of texts in model tokens; thread-safe."""

    def __init__(self, backend: Tokenizer, max_tokens: int):
        self.max_tokens = max_tokens
        spec = backend.to_str()
        # Model folders often ship a tokenizer.json with truncation and padding set for training; neither applies.
        self._counter = Tokenizer.from_str(spec)
        self._counter.no_padding()
        self._counter.no_truncation()
        self._windower = Tokenizer.from_str(spec)
        self._windower.no_padding()
        specials = self._windower.num_special_tokens_to_add(is_pair=False)
        # Overlapping windows: what follows a cut is also seen with an eighth of the preceding window.
        self._windower.enable_truncation(max_tokens, stride=max(0, max_tokens - specials) // 8)

    @classmethod
    def from_dir(cls, model_dir: str | Path, max_tokens: int) -> Tokens:
        """The tokenizer.json of a local model folder."""
        return cls(Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json")), max_tokens)

    @classmethod
    def from_transformers(cls, tokenizer: object, max_tokens: int) -> Tokens:
        """The backend of a loaded (fast) transformers tokenizer."""
        backend = getattr(tokenizer, "backend_tokenizer", None)
        if not isinstance(backend, Tokenizer):
            raise ValueError(f"the model's tokenizer ({type(tokenizer).__name__}) has no fast backend")
        return cls(backend, max_tokens)

    def count(self, texts: list[str] | tuple[str, ...]) -> list[int]:
        """Tokens of each text, without the model's special tokens."""
        if not texts:
            return []
        return [len(e.ids) for e in self._counter.encode_batch(list(texts), add_special_tokens=False)]

    def windows(self, texts: list[str]) -> Tokenized:
        """Token ids of each text with special tokens, cut into overlapping windows of at most max_tokens, and
        the index of the text each window belongs to."""
        ids: list[list[int]] = []
        owners: list[int] = []
        for i, enc in enumerate(self._windower.encode_batch(list(texts))):
            for part in (enc, *enc.overflowing):
                ids.append(part.ids)
                owners.append(i)
        return ids, owners

    def decode(self, ids: list[int]) -> str:
        return self._windower.decode(ids, skip_special_tokens=True)
