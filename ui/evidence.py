"""Drawing a run: round blocks with evidence panels, verdicts and refinements, the answer with citations.

Document text is never trusted as markup: it is escaped before the only formatting we add (bold query terms).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import streamlit as st

from kb.text import tokenize

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^])")
_WORD = re.compile(r"[^\W_]+(?:[-._/][^\W_]+)*")


def escape_md(text: str) -> str:
    """Text shown literally by st.markdown: markdown, HTML, LaTeX and emoji syntax all escaped."""
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", "  \n")


def marked(text: str, query: str, limit: int = 600) -> str:
    """An escaped excerpt with the query's terms in bold."""
    terms = set(tokenize(query))
    excerpt = " ".join(text.split())
    excerpt = excerpt if len(excerpt) <= limit else excerpt[:limit].rsplit(" ", 1)[0] + " …"
    out, pos = [], 0
    for m in _WORD.finditer(excerpt):
        out.append(escape_md(excerpt[pos : m.start()]))
        word = escape_md(m.group())
        out.append(f"**{word}**" if terms and set(tokenize(m.group())) & terms else word)
        pos = m.end()
    out.append(escape_md(excerpt[pos:]))
    return "".join(out)


def pages(item: dict[str, Any]) -> str:
    a, b = item["start_page"], item["end_page"]
    return f"p. {a}" if a == b else f"pp. {a}–{b}"


def _score(value: float | None, fmt: str) -> str:
    return "–" if value is None else format(value, fmt)


def evidence_panel(hits: list[dict[str, Any]], query: str) -> None:
    if not hits:
        st.caption("No hits.")
        return
    for hit in hits:
        with st.container(border=True):
            head = f"**{escape_md(hit['doc_id'])}** · {pages(hit)}"
            if hit.get("section"):
                head += f" · {escape_md(hit['section'])}"
            if hit.get("new"):
                head += " · :green-badge[new this round]"
            if hit.get("ocr"):
                head += " · :orange-badge[OCR: read from the page image]"
            st.markdown(head)
            table_head(hit)
            st.markdown(marked(hit["text"], query))
            runs_on(hit)
            st.caption(why_found(hit))


def why_found(hit: dict[str, Any]) -> str:
    """The scores of a hit, and why its document was preferred and how many more chunks of its page matched."""
    line = (
        f"rank {hit.get('rank', '–')} · dense {_score(hit.get('dense_score'), '.3f')} · "
        f"BM25 {_score(hit.get('lexical_score'), '.2f')} · fused {_score(hit.get('fused_score'), '.4f')}"
    )
    if hit.get("document_score") is not None:
        line += f" · document named by the question ({', '.join(hit.get('document_terms') or [])})"
    if hit.get("year_rows"):
        line += f" · {hit['year_rows']} table rows state a figure for the year asked"
    if hit.get("defines"):
        line += f" · defines “{hit['defines']}”"
    if hit.get("page_chunks"):
        more = len(hit["page_chunks"])
        line += f" · {more} more matching chunk{'s' if more > 1 else ''} on this page"
    if hit.get("repeats_page"):
        line += " · its page is already listed above"
    return line


def searched_note(searched: list[str]) -> None:
    """What search made of the query, when it kept instructions out."""
    if searched:
        st.caption("Searched for: " + " | ".join(f"“{escape_md(q)}”" for q in searched))


def verdict(event: dict[str, Any]) -> None:
    ok = event.get("verdict") == "sufficient"
    st.markdown(f"**Assessment:** {'sufficient' if ok else 'insufficient'}")
    for reason in event.get("reasons", []):
        icon = ":material/check:" if reason["ok"] else ":material/close:"
        st.markdown(f"{icon} `{reason['check']}`: {escape_md(reason['detail'])}")
    grade = event.get("llm_grade")
    if grade:
        text = grade.get("error") or f"{'sufficient' if grade.get('sufficient') else 'insufficient'}: {grade['reason']}"
        st.caption(f"LLM grader (advisory): {text}")


def refinement(ref: dict[str, Any]) -> None:
    st.markdown(
        f"**Refinement** ({escape_md(ref['strategy'])}): {escape_md(ref['previous'])} → **{escape_md(ref['query'])}**"
    )


def approval_note(approval: dict[str, Any]) -> None:
    action = approval["action"]
    extra = f": {escape_md(approval['query'])}" if action == "edit" else ""
    st.markdown(f"**You:** {action}{extra}")


def round_hits(round_record: dict[str, Any], evidence: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The round's hits as retrieved, rebuilt from the saved record."""
    out = []
    for score in round_record.get("scores", []):
        hit = evidence.get(score["chunk_id"])
        if hit is not None:
            out.append({**hit, **score})
    return out


def round_label(r: dict[str, Any]) -> str:
    shown = " | ".join(r.get("queries") or [r["query"]])
    return f"Round {r['round']} · {r['strategy']} · {shown} — {r['new']} new, {r['total']} in total"


def replay_rounds(state: dict[str, Any]) -> None:
    evidence = {h["chunk_id"]: h for h in state.get("evidence", [])}
    for r in state.get("rounds", []):
        label = round_label(r)
        failed = r.get("verdict") == "insufficient"
        # An expander, not st.status: a status pauses 50 ms each time it is drawn, per round of every turn.
        icon = ":material/error:" if failed else ":material/check_circle:"
        with st.expander(label, expanded=False, icon=icon):
            searched_note(r.get("searched", []))
            evidence_panel(round_hits(r, evidence), r["query"])
            if r.get("verdict"):
                verdict(r)
            if r.get("refinement"):
                refinement(r["refinement"])
            if r.get("approval"):
                approval_note(r["approval"])


def intent_line(source: dict[str, Any]) -> None:
    """What the agent made of the question: intent, answer mode and, for comparisons, the topics."""
    if not source.get("intent"):
        return
    topics = source.get("topics") or []
    st.caption(
        f"Intent: {source['intent']} · mode: {source.get('mode') or 'auto'}"
        + (f" · topics: {' / '.join(topics)}" if topics else "")
    )
    follow = source.get("follow_up")
    if follow:  # a follow-up, rewritten from the conversation before it was searched
        st.caption(f"Searching for: “{escape_md(follow['question'])}” ({escape_md(follow['how'])})")


@st.cache_data(max_entries=256, show_spinner=False)
def _page_image(path: str, modified: float, page: int, regions_json: str) -> bytes:
    """A cited page as PNG bytes, rendered once per file version, page and highlight."""
    from kb.render import render_page

    image = render_page(Path(path), page, json.loads(regions_json))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def download_buttons(text: str, name: str, key: str) -> None:
    """Markdown and PDF downloads of an export; the PDF is made only when its button is clicked."""
    from agent.export import markdown_pdf

    with st.container(horizontal=True, vertical_alignment="center"):
        st.download_button(
            "Markdown",
            text,
            f"{name}.md",
            "text/markdown",
            key=f"md-{key}",
            on_click="ignore",
            icon=":material/download:",
        )
        st.download_button(
            "PDF",
            lambda: markdown_pdf(text),
            f"{name}.pdf",
            "application/pdf",
            key=f"pdf-{key}",
            on_click="ignore",
            icon=":material/picture_as_pdf:",
        )


def export_row(state: dict[str, Any], key: str) -> None:
    """The answer as Markdown (to copy) and as files to download."""
    from agent.export import answer_markdown

    text = answer_markdown(state)
    with st.expander("Copy or export this answer", icon=":material/ios_share:"):
        st.code(text, language="markdown", wrap_lines=True)  # its copy button copies the Markdown
        download_buttons(text, "answer", key)


def mode_badge(state: dict[str, Any]) -> None:
    if state.get("mode") == "ollama":
        st.badge(f"Ollama · {state.get('settings', {}).get('model', '')}", icon=":material/smart_toy:", color="blue")
    else:
        st.badge("Extractive (no LLM)", icon=":material/format_quote:", color="gray")


def citation_label(citation: dict[str, Any]) -> str:
    """A citation's expander label: key, document, pages and section, escaped (labels are rendered as markdown,
    and a section such as "Notes ($ in millions)" would otherwise turn into formula or emphasis)."""
    parts = [escape_md(f"[{citation['key']}] {citation['doc_id']}"), pages(citation)]
    if citation.get("section"):
        parts.append(escape_md(citation["section"]))
    return " · ".join(parts)


def table_head(item: dict[str, Any]) -> None:
    """The head of the table a passage opens inside (title, units, columns), so its rows can be read."""
    if item.get("head"):
        st.caption("In the table headed: " + escape_md(" / ".join(item["head"].splitlines())))


def runs_on(item: dict[str, Any]) -> None:
    """The words that finish the passage's last sentence, from the passage after it: an answer may quote them."""
    if item.get("runs_on"):
        st.caption("Its last sentence goes on in the next passage: … " + escape_md(item["runs_on"]))


def citation_view(citation: dict[str, Any], sources: dict[str, Path], key: str) -> None:
    table_head(citation)
    st.text(citation["text"])
    runs_on(citation)
    path = sources.get(citation["doc_id"])
    if path is None or not path.exists():
        st.caption("The PDF of this document is no longer available, so its page cannot be shown.")
        return
    for page in range(citation["start_page"], citation["end_page"] + 1):
        try:
            regions = json.dumps(citation.get("regions") or [], sort_keys=True)
            image = _page_image(str(path), path.stat().st_mtime, page, regions)
        except (OSError, ValueError) as exc:
            st.caption(f"Page {page} could not be rendered: {exc}")
            continue
        st.image(image, caption=f"{citation['doc_id']} · page {page}", width=720)


def answer_view(state: dict[str, Any], sources: dict[str, Path], key: str) -> None:
    mode_badge(state)
    if state.get("refused"):
        refusal = state.get("refusal") or {}
        st.warning(f"Refused ({state.get('refusal_reason')}): {escape_md(state.get('answer', ''))}")
        with st.expander("What was tried"):
            st.markdown(f"**Stop reason:** `{refusal.get('stop_reason')}`")
            for q in refusal.get("queries", []):
                st.markdown(f"- query: {escape_md(q)}")
            docs = refusal.get("documents")
            st.markdown(
                f"**Documents searched:** {escape_md(', '.join(docs) if isinstance(docs, list) else str(docs))}"
            )
            for b in refusal.get("best_evidence", []):
                st.markdown(f"- best evidence: **{escape_md(b['doc_id'])}** {pages(b)}: {escape_md(b['excerpt'])}")
        export_row(state, key)
        return
    st.markdown(escape_md(state.get("answer", "")))
    for c in state.get("citations", []):
        with st.expander(citation_label(c)):
            citation_view(c, sources, f"{key}-{c['key']}")
    export_row(state, key)
