"""ui.evidence: the evidence panel's head marks what a passage is (new this round, read by OCR), and a passage
opening inside a table shows the table's head, and one whose last sentence runs on shows the words that finish it."""

from streamlit.testing.v1 import AppTest


def _panel(ocr: bool, head: str = "", runs_on: str = "") -> list[str]:
    def script(ocr: bool, head: str, runs_on: str) -> None:
        from ui.evidence import evidence_panel

        hit = {
            "doc_id": "scan",
            "start_page": 2,
            "end_page": 2,
            "section": "2 Results",
            "text": "The basalt station logged the highest humidity readings.",
            "rank": 1,
            "fused_score": 0.03,
            "dense_score": 0.61,
            "lexical_score": 7.2,
            "ocr": ocr,
            "head": head,
            "runs_on": runs_on,
        }
        evidence_panel([hit], "basalt humidity")

    at = AppTest.from_function(script, args=(ocr, head, runs_on)).run()
    assert not at.exception
    return [m.value for m in at.markdown] + [c.value for c in at.caption]


def test_panel_marks_a_passage_read_by_ocr():
    head = _panel(ocr=True)[0]
    assert head.startswith("**scan** · p. 2 · 2 Results") and "OCR: read from the page image" in head


def test_panel_leaves_text_layer_passages_unmarked():
    assert not any("OCR" in value for value in _panel(ocr=False))


def test_panel_shows_the_head_of_the_table_a_passage_opens_inside():
    shown = _panel(ocr=False, head="Station readings\n(in percent)")
    assert "In the table headed: Station readings / \\(in percent\\)" in shown
    assert not any("table headed" in value for value in _panel(ocr=False))


def test_panel_shows_the_words_that_finish_a_passages_last_sentence():
    shown = _panel(ocr=False, runs_on="during the dry season.")
    assert "Its last sentence goes on in the next passage: … during the dry season\\." in shown
    assert not any("goes on" in value for value in _panel(ocr=False))


def test_why_found_says_how_many_rows_state_the_year_asked():
    from ui.evidence import why_found

    hit = {"rank": 2, "dense_score": 0.4, "lexical_score": 3.0, "fused_score": 0.02}
    assert "table rows state a figure" not in why_found(hit)
    assert "· 9 table rows state a figure for the year asked" in why_found({**hit, "year_rows": 9})
