"""Line-break hyphens: dropped where typesetting split a word, kept where they belong to what is printed."""

from pathlib import Path

from kb.chunk import chunk_document
from kb.hyphenation import resolve_hyphens
from kb.parse import parse_pdf
from kb.parsed import Line, Page
from tests import layouts


def test_split_words_join_and_identifiers_keep_their_hyphen(tmp_path: Path):
    doc = parse_pdf(layouts.hyphenation_pdf(tmp_path / "hyphens.pdf"), "hyphens", 10)
    (chunk,) = chunk_document(doc, lambda texts: [len(t.split()) for t in texts])
    assert chunk.text == (
        "Our baseline is the XR-7 model trained on international news with a state-of-the-art tokenizer that is "
        "well-known to practitioners. The well-known tokenizer is fast."
    )


def _lines(*texts: str) -> list[Page]:
    lines = [Line(t, 72, 50 + 12 * i, 300, 60 + 12 * i, broken=t.endswith("-")) for i, t in enumerate(texts)]
    return [Page(1, 600, 800, lines)]


def test_the_document_decides_between_joined_and_hyphenated():
    pages = _lines("The co-", "operative model.", "A cooperative run.")
    resolve_hyphens(pages)
    assert pages[0].lines[0].text == "The co" and pages[0].lines[0].glue
    pages = _lines("The co-", "operative model.", "A co-operative run.")
    resolve_hyphens(pages)
    assert pages[0].lines[0].text == "The co-" and pages[0].lines[0].glue


def test_a_hyphen_before_a_table_or_at_the_end_is_left_alone():
    pages = _lines("The total is-", "x")
    pages[0].lines[1].kind = "table"
    resolve_hyphens(pages)
    assert pages[0].lines[0].text == "The total is-" and not pages[0].lines[0].glue
