"""Conversations: the runs a person asked one after another, kept as one JSON file each beside the run records.

A conversation is only written once it has a run, so opening a new chat and leaving it leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from pathlib import Path

from pydantic import BaseModel, Field

_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


class Conversation(BaseModel):
    """A sequence of runs shown together on the Ask page."""

    conversation_id: str = Field(description="Identifier, also the `c` query parameter of the Ask page.")
    created_at: float = Field(description="Unix time of the first question.")
    updated_at: float = Field(description="Unix time of the last question.")
    title: str = Field(description="The first question, which names the conversation in lists.")
    run_ids: list[str] = Field(default_factory=list, description="The runs, oldest first.")


def valid_conversation_id(conversation_id: str | None) -> bool:
    return bool(conversation_id) and bool(_SAFE_ID.match(conversation_id or ""))


def new_conversation_id() -> str:
    return f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"


class Conversations:
    """The conversations saved in one directory."""

    def __init__(self, directory: Path):
        self.dir = directory

    def get(self, conversation_id: str) -> Conversation | None:
        if not _SAFE_ID.match(conversation_id):
            return None
        try:
            return Conversation.model_validate_json((self.dir / f"{conversation_id}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def add_run(self, conversation_id: str, run_id: str, question: str) -> Conversation:
        """Append a run (creating the conversation with its first question as title)."""
        if not _SAFE_ID.match(conversation_id):
            raise ValueError(f"conversation id {conversation_id!r}: only letters, digits, '-' and '_' are allowed")
        now = time.time()
        conversation = self.get(conversation_id) or Conversation(
            conversation_id=conversation_id, created_at=now, updated_at=now, title=" ".join(question.split())
        )
        if run_id not in conversation.run_ids:
            conversation.run_ids.append(run_id)
        conversation.updated_at = now
        self._save(conversation)
        return conversation

    def listing(self, limit: int | None = None) -> list[Conversation]:
        """Saved conversations, most recently active first; unreadable files are skipped."""
        out = []
        for path in self.dir.glob("*.json") if self.dir.is_dir() else []:
            try:
                out.append(Conversation.model_validate(json.loads(path.read_text(encoding="utf-8"))))
            except (OSError, ValueError):
                continue
        out.sort(key=lambda c: (-c.updated_at, c.conversation_id))
        return out[:limit] if limit else out

    def of_run(self, run_id: str) -> Conversation | None:
        """The conversation a run belongs to, if any."""
        return next((c for c in self.listing() if run_id in c.run_ids), None)

    def _save(self, conversation: Conversation) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / f"{conversation.conversation_id}.json"
        tmp = path.with_suffix(f".tmp-{os.getpid()}")
        tmp.write_text(conversation.model_dump_json(indent=1), encoding="utf-8")
        tmp.replace(path)  # atomic: a reader never sees half a conversation
