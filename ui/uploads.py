"""Saving uploaded files safely."""

from __future__ import annotations

import re
from pathlib import Path


def safe_name(name: str) -> str:
    """Upload names become plain file names: no folders, no odd characters, always .pdf."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(name.replace("\\", "/")).stem).strip("._-")[:80] or "document"
    return f"{stem}.pdf"
