"""pdfium functions with untyped pointers: pypdfium2's raw bindings type every handle, so each call builds and checks
a ctypes pointer object. Called once per character or page object, that was most of the parse time; with plain
addresses (ints) in and out, a call costs a fraction of it. Only public pypdfium2.raw functions are rebound."""

from __future__ import annotations

import ctypes

import pypdfium2.raw as pdfium_c

_V = ctypes.c_void_p
_I = ctypes.c_int


def _plain(function: object, restype: object, *argtypes: object) -> ctypes._CFuncPtr:
    return ctypes.CFUNCTYPE(restype, *argtypes)(ctypes.cast(function, _V).value)


def handle(obj: object) -> int:
    """The address behind a pypdfium2 raw handle."""
    return ctypes.cast(obj, _V).value or 0


count_chars = _plain(pdfium_c.FPDFText_CountChars, _I, _V)
get_text = _plain(pdfium_c.FPDFText_GetText, _I, _V, _I, _I, _V)
get_unicode = _plain(pdfium_c.FPDFText_GetUnicode, ctypes.c_uint, _V, _I)
get_loose_char_box = _plain(pdfium_c.FPDFText_GetLooseCharBox, _I, _V, _I, _V)
is_hyphen = _plain(pdfium_c.FPDFText_IsHyphen, _I, _V, _I)
get_text_object = _plain(pdfium_c.FPDFText_GetTextObject, _V, _V, _I)
get_char_angle = _plain(pdfium_c.FPDFText_GetCharAngle, ctypes.c_float, _V, _I)
get_font_size = _plain(pdfium_c.FPDFText_GetFontSize, ctypes.c_double, _V, _I)
get_font_weight = _plain(pdfium_c.FPDFText_GetFontWeight, _I, _V, _I)
get_font_info = _plain(pdfium_c.FPDFText_GetFontInfo, ctypes.c_ulong, _V, _I, _V, ctypes.c_ulong, _V)

count_page_objects = _plain(pdfium_c.FPDFPage_CountObjects, _I, _V)
get_page_object = _plain(pdfium_c.FPDFPage_GetObject, _V, _V, _I)
count_form_objects = _plain(pdfium_c.FPDFFormObj_CountObjects, _I, _V)
get_form_object = _plain(pdfium_c.FPDFFormObj_GetObject, _V, _V, ctypes.c_ulong)
object_type = _plain(pdfium_c.FPDFPageObj_GetType, _I, _V)
object_bounds = _plain(pdfium_c.FPDFPageObj_GetBounds, _I, _V, _V, _V, _V, _V)
object_matrix = _plain(pdfium_c.FPDFPageObj_GetMatrix, _I, _V, _V)
path_segments = _plain(pdfium_c.FPDFPath_CountSegments, _I, _V)
text_font = _plain(pdfium_c.FPDFTextObj_GetFont, _V, _V)
font_base_name = _plain(pdfium_c.FPDFFont_GetBaseFontName, ctypes.c_size_t, _V, _V, ctypes.c_size_t)
