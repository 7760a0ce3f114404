"""Page images for citations: a PDF page rendered with the cited chunk's regions highlighted."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageOps

from kb.models import Region


def render_page(
    path: Path, page: int, regions: list[Region] | list[dict] | None = None, scale: float = 1.5
) -> Image.Image:
    """Page `page` (1-based) of the PDF at `path`, with the regions on that page outlined and tinted."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        if not 1 <= page <= len(pdf):
            raise ValueError(f"{path.name}: page {page} does not exist (the document has {len(pdf)} pages)")
        image = pdf[page - 1].render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()
    boxes = [Region.model_validate(r) for r in regions or []]
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for box in boxes:
        if box.page != page:
            continue
        sx, sy = image.width / box.width, image.height / box.height
        rect = (box.x0 * sx - 4, box.top * sy - 4, box.x1 * sx + 4, box.bottom * sy + 4)
        draw.rectangle(rect, fill=(255, 213, 0, 70), outline=(230, 120, 0, 255), width=3)
    page_image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
    return ImageOps.expand(page_image, border=2, fill=(150, 150, 150))  # the page's edge on a white background
