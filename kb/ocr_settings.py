"""Which pages are OCR'd and how: the nested `ocr` group of the knowledge-base settings (env KB_OCR__*).

Its own module, so the parser processes import pydantic only when a job's settings arrive (by then they ignore
Ctrl-C), not while they start up (see kb.parse_pool).
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class OcrSettings(BaseModel):
    """Which pages are OCR'd and how (env KB_OCR__*)."""

    enabled: bool = Field(True, description="OCR the pages whose text layer is missing or unusable (needs tesseract).")
    language: str = Field(
        "eng", description="tesseract's language(s), such as 'eng' or 'eng+deu'; their data must be installed."
    )
    dpi: int = Field(
        300,
        ge=72,
        le=600,
        description="Resolution pages are rendered at for OCR: tesseract reads best at about 300 dpi, also from a "
        "page scanned at 150 dpi (rendered larger).",
    )
    detect_orientation: bool = Field(
        True,
        description="Detect each page's orientation first, so a page scanned sideways or upside down is read (about "
        "a tenth slower; needs tesseract's 'osd' data, which its package installs).",
    )
    max_pixels: int = Field(
        40_000_000,
        ge=1_000_000,
        description="A page larger than this many pixels at `dpi` is rendered at a lower resolution (A4 at 300 dpi is "
        "8.7 million; a poster at 300 dpi would hold gigabytes in memory).",
    )
    max_pages: int = Field(
        500,
        ge=0,
        description="At most this many pages of one document are OCR'd; later image pages are skipped with a note.",
    )
    workers: int = Field(2, ge=1, description="Pages one parser OCRs at once, each a tesseract process on one core.")
    timeout_seconds: float = Field(120.0, gt=0, description="A page OCR'd for longer than this is skipped with a note.")
    min_chars: int = Field(
        20,
        ge=0,
        description="A text layer with fewer letters and digits than this is missing (a scanner's stamp, 'Page 3', "
        "is not a page's text).",
    )
    full_page_share: float = Field(
        0.8,
        ge=0,
        le=1,
        description="A page that images cover for at least this share of it is a scan unless its text layer holds "
        "full_page_min_chars letters and digits (a scanner's own OCR layer does).",
    )
    full_page_min_chars: int = Field(
        200,
        ge=0,
        description="Letters and digits a page-sized image's text layer needs to be used ('Scanned with ...' is "
        "not the page's text).",
    )
    usable_share: float = Field(
        0.5,
        ge=0,
        le=1,
        description="A text layer is unusable when fewer than this share of its printed characters mean anything: "
        "glyphs pdfium could map to no character come out as private-use, replacement or control characters.",
    )
    min_image_share: float = Field(
        0.1,
        ge=0,
        le=1,
        description="A page without usable text is OCR'd only when images cover at least this share of it: a blank "
        "page, a drawing or a small logo is not a scan.",
    )
    blank_ink: float = Field(
        0.0005,
        ge=0,
        description="A rendered page with dark pixels under this share of its area is blank: skipped with a note, "
        "tesseract is not run.",
    )
    min_confidence: float = Field(
        40.0,
        ge=0,
        le=100,
        description="A line tesseract reads with a lower mean word confidence (0-100) is dropped: specks and the "
        "texture of pictures come out as such lines.",
    )
    vertical_ratio: float = Field(
        2.0,
        gt=0,
        description="A word of three letters or more whose box is this many times taller than wide is set vertically "
        "(a margin stamp) and left out.",
    )
    size_tolerance: float = Field(
        0.1,
        ge=0,
        description="OCR'd type sizes within this share of the document's most common one are taken as that size: "
        "the body is one size, and headings set larger stand out from it.",
    )
    min_page_chars: int = Field(
        10,
        ge=0,
        description="An OCR'd page with fewer letters and digits than this is skipped with a note (a photograph).",
    )
