"""Search one generated PDF's store under several values of a search setting: the pages each value ranks."""

from __future__ import annotations

from pathlib import Path

from kb.base import KnowledgeBase
from kb.search_settings import SearchSettings
from kb.settings import KBSettings


def pages_by_setting(
    tmp_path: Path, pdf: Path, query: str, k: int, setting: str, values: tuple[float, ...]
) -> dict[float, list[int]]:
    """The start pages of the top k hits for the query with `setting` at each value (the PDF ingested once)."""
    pages: dict[float, list[int]] = {}
    for value in values:
        search = SearchSettings(**{setting: value})
        kb = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1, search=search))
        if not pages:
            assert not kb.ingest([pdf]).failed
        pages[value] = [h.start_page for h in kb.search(query, k=k)]
    return pages
