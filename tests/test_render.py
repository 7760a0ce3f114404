"""Citation page images: the cited chunk's region is highlighted on the right page, and only there."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from kb.models import Region
from kb.render import render_page
from tests import pdfgen


def test_region_is_tinted_on_its_page_only(tmp_path: Path) -> None:
    pdf = pdfgen.plant_pdf(tmp_path / "plant.pdf")
    doc = pdfium.PdfDocument(str(pdf))
    width, height = doc[1].get_size()
    doc.close()
    region = Region(page=2, x0=72, top=300, x1=300, bottom=400, width=width, height=height)
    plain = render_page(pdf, 2, [], scale=1.0)
    lit = render_page(pdf, 2, [region], scale=1.0)
    other_page = render_page(pdf, 1, [region], scale=1.0)
    assert lit.size == plain.size
    assert abs(lit.width - 4 - width) <= 1 and abs(lit.height - 4 - height) <= 1  # the page plus a 2-pixel frame
    inside, outside = (2 + 200, 2 + 310), (2 + 500, 2 + 700)
    assert lit.getpixel(inside) != plain.getpixel(inside)  # tinted
    r, g, b = lit.getpixel(inside)
    assert r > b and g > b  # yellow-ish, text stays readable
    assert lit.getpixel(outside) == plain.getpixel(outside)
    assert other_page.tobytes() == render_page(pdf, 1, [], scale=1.0).tobytes()


def test_missing_page_names_the_file(tmp_path: Path) -> None:
    pdf = pdfgen.plant_pdf(tmp_path / "plant.pdf")
    with pytest.raises(ValueError, match=r"plant\.pdf: page 9 does not exist"):
        render_page(pdf, 9)
