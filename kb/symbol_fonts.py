"""TeX's math-symbol fonts, whose characters pdfium may report by their code rather than their symbol.

A font without a ToUnicode map is read through its glyph names; the names of TeX's symbol fonts ("bardbl",
"angbracketleft") are not in the Adobe glyph list, so pdfium falls back to the character code: "‖" comes out as
"k", "⟨x⟩" as "hxi". The two encodings below are fixed (OMS for the symbol fonts, OMX for the big operators and
delimiters); they map such a code back to the symbol printed.
"""

from __future__ import annotations

import re

# OMS (cmsy, cmbsy, lmsy, ...): 128 slots; calligraphic capitals (0x41-0x5A) read as plain letters and are left out.
_OMS = dict(enumerate("−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘•≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻←→↑↓↔↗↘≃⇐⇒⇑⇓⇔↖↙∝′∞∈∋△▽\u0338↦∀∃¬∅ℜℑ⊤⊥ℵ"))
_OMS.update(dict(zip(range(0x5B, 0x80), "∪∩⊎∧∨⊢⊣⌊⌋⌈⌉{}⟨⟩|‖↕⇕\\≀√⨿∇∫⊔⊓⊑⊒§†‡¶♣♢♡♠")))
# OMX (cmex, lmex): the first sizes of the delimiters, and the text and display sizes of the big operators.
_OMX = dict(zip(range(0x00, 0x10), "()[]⌊⌋⌈⌉{}⟨⟩|‖/\\"))
_OMX.update(dict(zip(range(0x46, 0x62), "⨆⨆∮∮⨀⨀⨁⨁⨂⨂∑∏∫⋃⋂⨄⋀⋁∑∏∫⋃⋂⨄⋀⋁∐∐")))

_FAMILIES = (
    (re.compile(r"(?:^|\+)(?:CMB?SY\d|LMMathSymbols)", re.I), _OMS),
    (re.compile(r"(?:^|\+)(?:CMEX\d|LMMathExtension)", re.I), _OMX),
)

# Symbols whose glyph names pdfium does know and reports as these ASCII characters: kept as they are.
_KNOWN_ASCII = frozenset("{}|\\")


def encoding_of(font_name: str) -> dict[int, str] | None:
    """The encoding table of a TeX math-symbol font (by its base name, subset prefix allowed), else None."""
    for pattern, table in _FAMILIES:
        if pattern.search(font_name):
            return table
    return None


def decode(code: int, table: dict[int, str]) -> int:
    """The symbol printed for a character pdfium reported as `code` in a font with this table. Letters and
    digits that pdfium reports are codes (it knew no name for them); ASCII it maps from a known name stays."""
    if code >= 0x80 or chr(code) in _KNOWN_ASCII:
        return code
    if table is _OMS and 0x41 <= code <= 0x5A:
        return code  # calligraphic capitals read as plain letters
    symbol = table.get(code)
    return ord(symbol) if symbol else code
