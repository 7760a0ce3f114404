"""One pass over a page's objects through pdfium's raw calls: straight rules (for the ruled-table finder), the
text objects set in a TeX math-symbol font (whose characters pdfium may report by their code, see symbol_fonts), and
the area images cover (a scanned page is one image, see kb.ocr).

Raw calls, because pypdfium2's `get_objects` wraps every object in a Python object first: on a document that draws
each character as its own text object (half a million on 160 pages), that wrapping was half of the parse time.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field

import pypdfium2.raw as pdfium_c

from kb import pdfium_calls as pdf
from kb.symbol_fonts import encoding_of

_MAX_CURVES = 150  # more paths than this with curves: a plotted figure, not a table
_MAX_EDGES = 3000
_MAX_DEPTH = 3  # form objects nested in form objects


@dataclass(slots=True)
class PageObjects:
    """What the parser needs from a page's objects."""

    edges: list[dict] = field(default_factory=list)  # pdfplumber-style edges, top-left origin
    # address of a text object -> its font's encoding table, for text objects in a TeX math-symbol font
    symbol_objects: dict[int, dict[int, str]] = field(default_factory=dict)
    # their bounds (left, bottom, right, top; PDF points), so only the characters inside them are looked up
    symbol_bounds: list[tuple[float, float, float, float]] = field(default_factory=list)
    image_area: float = 0.0  # square points the page's images cover (overlaps counted twice)


def scan(page: object, height: float) -> PageObjects:
    found = PageObjects()
    fonts: dict[int, dict[int, str] | None] = {}
    curves = 0
    bounds = (ctypes.c_float * 4)()
    at = [ctypes.addressof(bounds) + 4 * i for i in range(4)]
    matrix = (ctypes.c_float * 6)()
    # Objects inside a form report their bounds in the form's space: its matrix (and its parents') maps them.
    stack: list[tuple[int, bool, int, tuple[float, ...]]] = [(pdf.handle(page), False, 0, _IDENTITY)]
    while stack:
        container, in_form, depth, to_page = stack.pop()
        count = (pdf.count_form_objects if in_form else pdf.count_page_objects)(container)
        get = pdf.get_form_object if in_form else pdf.get_page_object
        for i in range(count):
            obj = get(container, i)
            kind = pdf.object_type(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
                font = pdf.text_font(obj) or 0
                if font not in fonts:
                    fonts[font] = encoding_of(_font_name(font))
                table = fonts[font]
                if table is not None and pdf.object_bounds(obj, *at):
                    found.symbol_objects[obj] = table
                    found.symbol_bounds.append(tuple(bounds))
            elif kind == pdfium_c.FPDF_PAGEOBJ_PATH and curves <= _MAX_CURVES:
                if pdf.path_segments(obj) > 6:
                    curves += 1  # plotted data, not rules
                    continue
                if pdf.object_bounds(obj, *at):
                    _add_rules(found.edges, *bounds, height)
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                if pdf.object_bounds(obj, *at):
                    found.image_area += _area(bounds, to_page)
            elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < _MAX_DEPTH:
                mapped = pdf.object_matrix(obj, ctypes.addressof(matrix))
                stack.append((obj, True, depth + 1, _compose(tuple(matrix), to_page) if mapped else to_page))
    horizontal = sum(1 for e in found.edges if e["orientation"] == "h")
    if curves > _MAX_CURVES or horizontal < 2 or len(found.edges) - horizontal < 2 or len(found.edges) > _MAX_EDGES:
        found.edges = []
    return found


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _compose(inner: tuple[float, ...], outer: tuple[float, ...]) -> tuple[float, ...]:
    """The matrix applying `inner`, then `outer` (PDF matrices a b c d e f)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _area(bounds: ctypes.Array, m: tuple[float, ...]) -> float:
    """The page area of a box given in a form's space (a parallelogram once mapped: |det| times its area)."""
    width, height = max(0.0, bounds[2] - bounds[0]), max(0.0, bounds[3] - bounds[1])
    return abs(m[0] * m[3] - m[1] * m[2]) * width * height


def _font_name(font: int) -> str:
    buffer = ctypes.create_string_buffer(128)
    size = pdf.font_base_name(font, ctypes.addressof(buffer), len(buffer)) if font else 0
    return buffer.value.decode("latin-1", "replace") if size else ""


def _add_rules(edges: list[dict], left: float, bottom: float, right: float, top: float, height: float) -> None:
    """A thin path is a rule; a larger rectangle (a cell's frame or shading) gives its four sides."""
    w, h = right - left, top - bottom
    y0, y1 = height - top, height - bottom
    if h < 3 and w > 8:
        edges.append(_edge(left, (y0 + y1) / 2, right, (y0 + y1) / 2, "h"))
    elif w < 3 and h > 8:
        edges.append(_edge((left + right) / 2, y0, (left + right) / 2, y1, "v"))
    elif w > 8 and h > 8:
        edges += [
            _edge(left, y0, right, y0, "h"),
            _edge(left, y1, right, y1, "h"),
            _edge(left, y0, left, y1, "v"),
            _edge(right, y0, right, y1, "v"),
        ]


def _edge(x0: float, top: float, x1: float, bottom: float, orientation: str) -> dict:
    return {
        "x0": x0,
        "x1": x1,
        "top": top,
        "bottom": bottom,
        "width": x1 - x0,
        "height": bottom - top,
        "orientation": orientation,
        "object_type": "line",
        "doctop": top,
    }
