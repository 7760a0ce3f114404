"""Export of finished runs: Markdown content and structure, and a PDF that opens and holds the text."""

from __future__ import annotations

import re
from typing import Any

import pypdfium2

from agent.export import answer_markdown, conversation_markdown, markdown_pdf


def _state(**overrides: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "question": "How does model size affect BERT?",
        "answer": "Larger models lead to a strict accuracy improvement. [c1] Batch size matters too. [c2]",
        "refused": False,
        "refusal_reason": None,
        "mode": "extractive",
        "settings": {"model": "llama3.2"},
        "started_at": 1795470525.38,
        "citations": [
            {
                "key": "c1",
                "chunk_id": "bert:00052:200ab18a7d",
                "doc_id": "bert",
                "start_page": 8,
                "end_page": 8,
                "section": "5.2 Effect of Model Size",
                "text": "We can see that larger models lead to a strict accuracy improvement.",
                "regions": [],
            },
            {
                "key": "c2",
                "chunk_id": "roberta:00034:bcd2c76dce",
                "doc_id": "roberta",
                "start_page": 6,
                "end_page": 7,
                "section": None,
                "text": "Training with large batches improves perplexity.",
                "regions": [],
            },
        ],
    }
    state.update(overrides)
    return state


def _pdf_text(data: bytes) -> str:
    pdf = pypdfium2.PdfDocument(data)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()


def test_answer_markdown_holds_question_answer_and_each_citation_with_pages_and_quoted_passage() -> None:
    md = answer_markdown(_state())
    assert md.startswith("# How does model size affect BERT?\n")
    assert "Larger models lead to a strict accuracy improvement. [c1] Batch size matters too. [c2]" in md
    assert "Mode: extractive" in md
    assert re.search(r"^Asked 2026-11-2[34] \d\d:\d\d", md, flags=re.MULTILINE)
    assert "## Citations" in md
    assert re.search(r"^### \[c1\] bert, p\. 8$", md, flags=re.MULTILINE)
    assert re.search(r"^### \[c2\] roberta, pp\. 6–7$", md, flags=re.MULTILINE)
    assert "Section: 5.2 Effect of Model Size" in md
    assert "> We can see that larger models lead to a strict accuracy improvement.\n" in md
    assert "> Training with large batches improves perplexity.\n" in md
    # The citation without a section gets no section line.
    assert md.count("Section:") == 1


def test_a_citation_inside_a_table_names_the_tables_head_on_one_line() -> None:
    state = _state()
    state["citations"][1]["head"] = "Balance Sheet\n(in millions)\nItem | 2019 | 2018"
    md = answer_markdown(state)
    assert "In the table headed: Balance Sheet / (in millions) / Item | 2019 | 2018\n" in md
    assert md.count("In the table headed:") == 1


def test_a_citation_whose_last_sentence_runs_on_gives_the_words_that_finish_it() -> None:
    state = _state()
    state["citations"][0]["runs_on"] = "across all four\ndatasets."
    md = answer_markdown(state)
    assert "Its last sentence goes on in the next passage: … across all four datasets.\n" in md
    assert md.count("goes on in the next passage") == 1


def test_answer_markdown_names_the_ollama_model_in_ollama_mode() -> None:
    md = answer_markdown(_state(mode="ollama", settings={"model": "qwen2.5:3b"}))
    assert "Mode: Ollama model qwen2.5:3b" in md


def test_refused_run_shows_refusal_reason_before_the_answer() -> None:
    state = _state(
        refused=True,
        refusal_reason="insufficient_evidence",
        answer="The documents do not say.",
        citations=[],
    )
    md = answer_markdown(state)
    assert "Refused (insufficient_evidence): The documents do not say." in md
    assert "## Citations" not in md


def test_passage_with_newlines_and_leading_hash_stays_inside_the_blockquote() -> None:
    passage = "# Not a heading\nsecond line\n\n---\r\nafter a carriage return\fafter a form feed"
    citation = {**_state()["citations"][0], "text": passage}
    md = answer_markdown(_state(citations=[citation]))
    quote_start = md.index("> # Not a heading")
    quoted = md[quote_start:].rstrip("\n").split("\n")
    assert quoted == [
        "> # Not a heading",
        "> second line",
        ">",
        "> ---",
        "> after a carriage return",
        "> after a form feed",
    ]
    # Nothing of the passage escaped as a heading or rule of its own.
    assert not re.search(r"^# Not a heading", md, flags=re.MULTILINE)
    assert not re.search(r"^---$", md, flags=re.MULTILINE)


def test_conversation_markdown_has_both_questions_in_order_separated_by_a_rule() -> None:
    first = _state(question="First question?")
    second = _state(question="Second question?", answer="Second answer. [c1]")
    md = conversation_markdown([first, second])
    assert md.startswith("# First question?\n")
    runs = md.split("\n---\n")
    assert len(runs) == 2
    assert "## First question?" in runs[0] and "Second question?" not in runs[0]
    assert "## Second question?" in runs[1] and "Second answer. [c1]" in runs[1]
    # Headings are demoted one level: citations become ###, each citation ####.
    assert "### Citations" in md and "#### [c1] bert, p. 8" in md
    assert not re.search(r"^## Citations", md, flags=re.MULTILINE)


def test_conversation_markdown_uses_given_title_and_marks_runs_without_answer() -> None:
    unfinished = {"question": "Still waiting?", "started_at": 1795470525.38}
    md = conversation_markdown([_state(), unfinished], title="Model size notes")
    assert md.startswith("# Model size notes\n")
    assert "## Still waiting?\n\n(no answer yet)" in md


def test_pdf_opens_and_its_text_holds_question_and_cited_document() -> None:
    data = markdown_pdf(answer_markdown(_state()))
    assert data.startswith(b"%PDF-")
    text = _pdf_text(data)
    assert "How does model size affect BERT?" in text
    assert "roberta" in text
    assert "We can see that larger models lead to a strict accuracy improvement." in text


def test_pdf_shows_markup_characters_literally() -> None:
    citation = {**_state()["citations"][0], "text": "if a < b && c > d then <b>not bold</b> &amp;"}
    text = _pdf_text(markdown_pdf(answer_markdown(_state(citations=[citation]))))
    assert "if a < b && c > d then <b>not bold</b> &amp;" in text


def test_pdf_with_non_latin1_text_does_not_raise_and_keeps_what_the_fonts_can_show() -> None:
    question = "Is ‖x‖ ≤ 5 € for 中文 and 日本語 text?"
    citation = {**_state()["citations"][0], "text": "norm ‖v‖ ≤ 1, cost 3 €, 数据 \u200bzero-width, ﬁnal"}
    data = markdown_pdf(conversation_markdown([_state(question=question, citations=[citation])]))
    text = _pdf_text(data)
    assert "≤ 5 €" in text
    assert "final" in text  # the ligature is spelled out, not dropped
    # Characters no standard font has become '?', not reportlab's black boxes.
    assert "\u25a0" not in text
    assert "?x? ≤ 5 € for ?? and ??? text?" in text


def test_pdf_wraps_a_long_word_onto_several_lines_without_losing_characters() -> None:
    word = "".join(chr(ord("a") + i % 26) for i in range(3000))
    citation = {**_state()["citations"][0], "text": f"before {word} after"}
    text = _pdf_text(markdown_pdf(answer_markdown(_state(citations=[citation]))))
    joined = "".join(text.split())
    assert word in joined
    assert max(len(line) for line in text.splitlines()) < 200
