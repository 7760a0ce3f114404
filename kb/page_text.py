"""A page's characters, as pdfium reports them one by one, grouped into lines of words with their boxes.

Read per character rather than as pdfium's page text, because that text does not hold up on real layouts:
- its offsets stop matching character indices on a page with a character pdfium reports as two (a character outside
  the Basic Multilingual Plane) or leaves out (a null code), and then no line of the page gets a box;
- it inserts a space only for a gap of about 0.15 em or more, so tightly set words are glued ("callsfor");
- it joins a hyphenated line end to the next line ("XR\\ufffe7"), losing the line break.

Speed: the codes come in one call and the boxes are written straight into one buffer read through numpy; the
grouping into words and lines is done on arrays, so Python touches words and lines, not characters.
"""

from __future__ import annotations

import ctypes
import math
import re
import unicodedata
from collections import deque
from itertools import repeat

import numpy as np

from kb import pdfium_calls as pdf
from kb.page_objects import PageObjects
from kb.parsed import Line
from kb.symbol_fonts import decode

# A gap without a space character separates words when it is this share of the line's own word spaces (the
# gaps where a space is), or, in a line without spaces, this share of the glyphs' height. Glyph advances in some
# files are off by 0.1 em ("Flow s"), so a fixed share of the height alone would split words.
WORD_SPACE_SHARE = 0.6
WORD_GAP = 0.15
MIN_WORD_GAP = 0.08
# A jump in height of this share of the glyphs' height starts a new line (superscripts move less).
JUMP = 0.7
# Lines on one baseline closer than this many heights are one line cut in pieces.
FRAGMENT_GAP = 1.5

_BREAKS = (0x0A, 0x0D)
# Tab and the Unicode space separators (category Zs).
_SPACES = np.array([0x09, 0x20, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000], dtype=np.uint32)
_INVISIBLE = np.array([0xAD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0xFFFF], dtype=np.uint32)


def _codes(textpage: int, count: int) -> np.ndarray:
    """Each character's code point, by character index."""
    buffer = (ctypes.c_uint16 * (count + 1))()
    if pdf.get_text(textpage, 0, count, ctypes.addressof(buffer)) == count + 1:
        return np.frombuffer(buffer, dtype=np.uint16)[:count].astype(np.uint32)
    return codes_one_by_one(textpage, count)  # pdfium's text left characters out (null codes)


def codes_one_by_one(textpage: int, count: int) -> np.ndarray:
    """Each character's code point, asked of pdfium character by character."""
    return np.array([pdf.get_unicode(textpage, i) for i in range(count)], dtype=np.uint32)


def read_lines(textpage: object, height: float, symbols: PageObjects | None = None) -> list[Line]:
    """The page's lines in pdfium's reading order. Each line keeps its words with their boxes in `words`
    (top-left origin), for the table finders; the parser drops them once tables are found. `symbols`: the page's
    objects, for the text set in a TeX math-symbol font (see kb.page_objects)."""
    raw = pdf.handle(textpage.raw)  # type: ignore[attr-defined]
    count = pdf.count_chars(raw)
    if count <= 0:
        return []
    codes = _codes(raw, count)
    # A surrogate pair is one character: its code goes to the first index, the second is left out.
    pairs = np.nonzero((codes[:-1] >= 0xD800) & (codes[:-1] < 0xDC00) & (codes[1:] >= 0xDC00) & (codes[1:] < 0xE000))[0]
    if len(pairs):
        codes[pairs] = 0x10000 + ((codes[pairs] - 0xD800) << 10) + (codes[pairs + 1] - 0xDC00)
        codes[pairs + 1] = 0
    is_break = np.isin(codes, _BREAKS)
    # pdfium's mark for a hyphen at a line break: U+FFFE in its text, 2 when read one by one (also the code of a
    # symbol font's "×": pdfium says which), or a soft hyphen before a line break.
    marks = np.nonzero(codes == 0x02)[0]
    is_hyphen = (codes == 0xFFFE) | ((codes == 0xAD) & np.append(is_break[1:], True))
    is_hyphen[[i for i in marks.tolist() if pdf.is_hyphen(raw, i) == 1]] = True
    codes[is_hyphen] = 0x2D
    decoding = bool(symbols and symbols.symbol_objects)
    # A symbol font's character may come as a control code: read its box too, it may decode to a symbol.
    index = np.nonzero(_visible(codes) | (((codes < 0x20) & ~is_break) if decoding else False))[0]
    box = _boxes(raw, index)  # left, top, right, bottom per character of `index` (PDF points)
    keep = np.isfinite(box).all(axis=1)  # a damaged glyph's box
    if decoding:
        assert symbols is not None
        _decode(raw, codes, index, box, symbols)
        keep &= _visible(codes[index])
    index, box = index[keep], box[keep]
    if not len(index):
        return []
    is_space = np.isin(codes, _SPACES)
    line_of = np.concatenate(([0], np.cumsum(is_break | is_hyphen)[:-1]))
    text = codes.astype("<u4").tobytes().decode("utf-32-le", "replace")
    left, top, right, bottom = box[:, 0], box[:, 1], box[:, 2], box[:, 3]
    # A gap k lies between visible characters k and k+1. A line ends where pdfium ends it, and where the text jumps
    # to another height without pdfium saying so (lines of one text object placed one under the other).
    middle, size = (top + bottom) / 2, np.maximum(top - bottom, 1e-3)
    original = line_of[index]
    vertical = _vertical(original, left, top, right, bottom)
    along = vertical[1:] & vertical[:-1]  # both characters in a line of rotated text (an axis label, a stamp)
    jump = (np.abs(middle[1:] - middle[:-1]) > JUMP * np.maximum(size[1:], size[:-1])) & ~along
    for k in np.nonzero(jump)[0].tolist():  # rotated characters step up or down the page: no new line
        if _rotated(raw, int(index[k])) and _rotated(raw, int(index[k + 1])):
            jump[k], along[k] = False, True
    new_line = (original[1:] != original[:-1]) | jump
    lines_of_chars = np.concatenate(([0], np.cumsum(new_line)))
    spaces_before = np.cumsum(is_space)[index]
    gaps = left[1:] - right[:-1]
    spaced = (spaces_before[1:] - spaces_before[:-1]) > 0
    threshold = _word_gaps(gaps, spaced, new_line, lines_of_chars, top - bottom)
    word_break = new_line | spaced | ((gaps > threshold[lines_of_chars[:-1]]) & ~along)
    word_starts = np.concatenate(([0], np.nonzero(word_break)[0] + 1))
    word_ends = np.append(word_starts[1:], len(index))
    word_left = np.minimum.reduceat(left, word_starts)
    word_right = np.maximum.reduceat(right, word_starts)
    word_top = height - np.maximum.reduceat(top, word_starts)
    word_bottom = height - np.minimum.reduceat(bottom, word_starts)
    line_words = np.concatenate(([0], np.nonzero(np.diff(lines_of_chars[word_starts]))[0] + 1))
    line_boxes = zip(
        np.minimum.reduceat(word_left, line_words).tolist(),
        np.minimum.reduceat(word_top, line_words).tolist(),
        np.maximum.reduceat(word_right, line_words).tolist(),
        np.maximum.reduceat(word_bottom, line_words).tolist(),
    )
    hyphens = set(np.nonzero(is_hyphen)[0].tolist())
    starts, ends = index[word_starts].tolist(), index[word_ends - 1].tolist()
    spans = (word_ends - word_starts).tolist()
    boxes = list(zip(word_left.tolist(), word_top.tolist(), word_right.tolist(), word_bottom.tolist()))
    lines: list[Line] = []
    for a, b, (x0, y0, x1, y1) in zip(line_words.tolist(), [*line_words[1:].tolist(), len(word_starts)], line_boxes):
        words: list[tuple[float, float, float, float, str]] = []
        for w in range(a, b):
            first, last = starts[w], ends[w]
            if last - first == spans[w] - 1:
                chunk = text[first : last + 1]
            else:
                chunk = "".join(text[i] for i in index[word_starts[w] : word_ends[w]])
            if not chunk.isascii():
                chunk = unicodedata.normalize("NFKC", chunk)
            if chunk.strip():
                words.append((*boxes[w], chunk))
        if words:
            if len(words) < b - a:  # a word that normalised to nothing: the box is the kept words'
                x0, y0 = min(w[0] for w in words), min(w[1] for w in words)
                x1, y1 = max(w[2] for w in words), max(w[3] for w in words)
            sample = starts[(a + b) // 2]  # the middle word's font: a first character may be a bullet or a number
            line = Line(
                " ".join(w[4] for w in words),
                x0,
                y0,
                x1,
                y1,
                size=round(pdf.get_font_size(raw, sample), 1),
                bold=_bold(raw, sample),
                broken=ends[b - 1] in hyphens,
                words=words,
            )
            lines.append(line)
    return _join_fragments(lines)


def _join_fragments(lines: list[Line]) -> list[Line]:
    """Join consecutive lines that continue one another on one baseline: some files set each word (or a small
    capital's first letter) apart, and pdfium then ends a line after each. Wide gaps (table columns) stay apart."""
    out: list[Line] = []
    for line in lines:
        last = out[-1] if out else None
        if last is None or last.broken or not last.words or not line.words:
            out.append(line)
            continue
        height = max(last.bottom - last.top, line.bottom - line.top)
        gap = line.x0 - last.x1
        if abs(last.bottom - line.bottom) > 0.2 * height or not -0.5 <= gap <= FRAGMENT_GAP * height:
            out.append(line)
            continue
        words = list(last.words)
        first = line.words[0]
        if gap < MIN_WORD_GAP * height:  # one word split over two lines ("R" + "ESORTS")
            x0, top, _, bottom, text = words.pop()
            words.append((x0, min(top, first[1]), first[2], max(bottom, first[3]), text + first[4]))
            words += line.words[1:]
        else:
            words += line.words
        last.words, last.text = words, " ".join(w[4] for w in words)
        last.x1, last.top, last.bottom = line.x1, min(last.top, line.top), max(last.bottom, line.bottom)
        last.broken = line.broken
    for line in out:
        _small_capitals(line)
    return out


def _small_capitals(line: Line) -> None:
    """Join a capital to the small capitals that follow it ("R" + "ESORTS"): set in a smaller size, they read
    as one word even where the file spaces them like two."""
    words = line.words or []
    joined: list[tuple[float, float, float, float, str]] = []
    for word in words:
        last = joined[-1] if joined else None
        if (
            last is not None
            and len(last[4]) == 1
            and last[4].isupper()
            and word[4][:1].isupper()
            and word[4].isupper()
            and word[3] - word[1] < 0.85 * (last[3] - last[1])
            and abs(word[3] - last[3]) < 0.2 * (last[3] - last[1])
        ):
            joined[-1] = (last[0], min(last[1], word[1]), word[2], max(last[3], word[3]), last[4] + word[4])
        else:
            joined.append(word)
    if len(joined) != len(words):
        line.words, line.text = joined, " ".join(w[4] for w in joined)


def _visible(codes: np.ndarray) -> np.ndarray:
    """Characters that print: not a space, a line break, a control or formatting code, or half a surrogate pair."""
    return (
        (codes > 0x20)
        & ~np.isin(codes, _SPACES)
        & ~np.isin(codes, _INVISIBLE)
        & ~((codes >= 0x7F) & (codes < 0xA0))
        & ((codes < 0xD800) | (codes >= 0xE000))
    )


def _boxes(raw: int, index: np.ndarray) -> np.ndarray:
    """The loose boxes of the characters at `index`, written by pdfium straight into one buffer."""
    rects = (ctypes.c_float * (4 * len(index)))()
    base = ctypes.addressof(rects)
    # map() drives the calls from C: no Python loop around each of them
    deque(
        map(pdf.get_loose_char_box, repeat(raw, len(index)), index.tolist(), range(base, base + 16 * len(index), 16)), 0
    )
    return np.frombuffer(rects, dtype=np.float32).reshape(len(index), 4).astype(np.float64)


def _decode(raw: int, codes: np.ndarray, index: np.ndarray, box: np.ndarray, symbols: PageObjects) -> None:
    """Map the codes of characters set in a TeX symbol font to their symbols. Only characters whose box lies in
    such a text object's bounds are asked which object they belong to."""
    cx, cy = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2
    inside = np.zeros(len(index), dtype=bool)
    for x0, y0, x1, y1 in symbols.symbol_bounds:
        inside |= (cx >= x0 - 1) & (cx <= x1 + 1) & (cy >= y0 - 1) & (cy <= y1 + 1)
    for i in index[inside].tolist():
        table = symbols.symbol_objects.get(pdf.get_text_object(raw, i) or 0)
        if table is not None:
            codes[i] = decode(int(codes[i]), table)


def _rotated(raw: int, char: int) -> bool:
    """Set at a right angle (or steeper than 45 degrees) to the page's lines."""
    return abs(math.sin(pdf.get_char_angle(raw, char))) > 0.7


def _vertical(
    line_of: np.ndarray, left: np.ndarray, top: np.ndarray, right: np.ndarray, bottom: np.ndarray
) -> np.ndarray:
    """Per character: whether its pdfium line runs up or down the page (rotated text, three characters or more)."""
    starts = np.concatenate(([0], np.nonzero(np.diff(line_of))[0] + 1))
    counts = np.diff(np.append(starts, len(line_of)))
    wide = np.maximum.reduceat(right, starts) - np.minimum.reduceat(left, starts)
    tall = np.maximum.reduceat(top, starts) - np.minimum.reduceat(bottom, starts)
    return np.repeat((tall > 2 * wide) & (counts >= 3), counts)


def _word_gaps(
    gaps: np.ndarray, spaced: np.ndarray, new_line: np.ndarray, line_of: np.ndarray, heights: np.ndarray
) -> np.ndarray:
    """Per line, the narrowest gap that separates two words without a space character between them."""
    lines = int(line_of[-1]) + 1
    chars = np.bincount(line_of, minlength=lines)
    height = np.bincount(line_of, weights=heights, minlength=lines) / np.maximum(chars, 1)
    within = ~new_line
    gap_line = line_of[:-1]
    # the lower quartile of each line's word spaces (gaps where a space is)
    own = within & spaced
    own_line, own_gap = gap_line[own], gaps[own]
    order = np.lexsort((own_gap, own_line))
    counts = np.bincount(own_line, minlength=lines)
    firsts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    quartile = own_gap[order][np.minimum(firsts + counts // 4, max(len(own_gap) - 1, 0))] if len(own_gap) else 0.0
    threshold = np.where(counts > 0, WORD_SPACE_SHARE * quartile, WORD_GAP * height)
    threshold = np.maximum(threshold, MIN_WORD_GAP * height)
    # letter-spaced text: when most glyphs stand apart, gaps do not mark words
    plain = within & ~spaced
    plain_count = np.bincount(gap_line[plain], minlength=lines)
    wide = np.bincount(gap_line[plain], weights=gaps[plain] > threshold[gap_line[plain]], minlength=lines)
    return np.where((plain_count > 0) & (wide * 2 > plain_count), np.inf, threshold)


# Bold faces by name: the weight pdfium reports is off for many embedded fonts (475 for a bold face, 240 for its
# regular one).
_BOLD_NAME = re.compile(rb"bold|black|heavy|semibold|demi", re.IGNORECASE)
_name = ctypes.create_string_buffer(96)


def _bold(raw: int, char: int) -> bool:
    if pdf.get_font_weight(raw, char) >= 600:
        return True
    size = pdf.get_font_info(raw, char, ctypes.addressof(_name), len(_name), 0)
    return 0 < size <= len(_name) and bool(_BOLD_NAME.search(_name.value))  # a longer name is not written
