"""Answers without an LLM: the evidence sentences most relevant to the question, each one cited."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from agent.arithmetic import computed, in_scale, label_share, stated_scale
from agent.assess import topic_hits
from agent.entries import entry_sentences, headed_by, named_entry, opens_with, signature_only
from agent.evidence import (
    framed,
    is_evidence,
    own_heading,
    whole_text,
    without_markup,
    written_code,
    written_in,
)
from agent.intent import content_terms
from agent.leads import defaults_stated, lead_factors
from agent.notation import symbols_cut
from agent.question_parts import question_parts
from agent.question_words import ASKS_WHERE
from agent.readable import (
    announces_list,
    asks_figure,
    asks_list,
    asks_only_by_year,
    is_meta,
    is_row,
    past_rules,
    past_section_heads,
    unbracketed,
    unreadable,
    with_run_in_heading,
)
from agent.rows import about_another_member, label_words, names_entry, row_cells, row_for_columns, row_for_periods
from agent.settings import AnswerSettings
from agent.stand_ins import stand_ins_for
from agent.term_match import lexical_scores
from kb.periods import period_year, years_spanned
from kb.references import is_citation
from kb.sentences import stops_mid_sentence
from kb.text import is_identifier, markup_tags, squashed, tokenize


def _subject_terms(need: str, naming: set[str]) -> list[str]:
    """The need's terms that say what it is about: neither a period ("FY2022", "2022"), nor a word framing it
    ("based on ... data"), nor any form of a word that names the document. A name is matched by one of its forms
    ("4K" by "k"), and every form of it names the document: "4k" left in would let any row labelled with the name
    through ("Net income attributable to 4K" for the capital expenditure)."""
    return [
        word
        for word in content_terms(need)
        if not set(tokenize(word)) & naming and not period_year(word) and word.lower() not in _FRAMING
    ]


# Words that frame a question about a period ("based on FY2022 data", "the figures shown") rather than say what it
# is about: a row labelled "Stock-based compensation" or "Other data" answers nothing such a question asks.
_FRAMING = frozenset(["based", "data", "information", "figures", "numbers", "details", "reported", "shown", "stated"])

# A chunk ending on a word or a comma: not on a markup's closing tag or a bracket.
_MID_WORDS = re.compile(r"(?:[^\W\d_]|,)\s*$")
_HEADING_LINE = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?[A-Z][^.!?]{0,80}$")


def compose(
    question: str,
    intent: str,
    topics: list[str],
    context: list[dict[str, Any]],
    settings: AnswerSettings,
    embed: Callable[[list[str]], np.ndarray] | None = None,
    aliases: dict[str, list[str]] | None = None,
    need: str | None = None,
) -> str:
    """A cited answer from the context items (each with `key` and `text`), or '' when nothing relevant.

    Sentences are ranked by similarity to the question (embeddings when available) and by the question's
    terms they contain, weighted by rarity; each next one is the best after a discount for its likeness to those
    already chosen, so the answer says several things rather than one thing several ways; near-duplicates are
    skipped. Sentences are ranked against `need`, the question's information need (its instructions left out),
    when given; the whole question still says what kind of answer is wanted.
    """
    s = settings
    # Steps go on past the word limit of any other answer (the "about 120 words unless it asks for steps").
    steps = intent == "procedure"
    max_sentences, max_words = (s.steps_sentences, s.steps_words) if steps else (s.sentences, s.max_words)
    figure = asks_figure(question)
    years = years_spanned(question)  # a range asked for keeps the columns of the years within it
    # Asked for a figure only by its year, a row must be about what is asked: its label shares a word of the need
    # but a year and the document's name ("Other Harbour Works | 2022: 5" answers nothing of Harbour's customers).
    document_words = set().union(*(set(c.get("document_terms") or []) for c in context))
    subject = " ".join(_subject_terms(need or question, document_words))
    about: set[str] | None = None
    if asks_only_by_year(question):
        about = {t for t in tokenize(subject) if not t.isdigit()}
    # What a row must answer: the question's identifiers (no other of their family), the words naming its columns.
    identifiers = [t for t in content_terms(need or question) if is_identifier(t) and not period_year(t)]
    asked_words = {t for t in tokenize(need or question) if not t.isdigit()}  # "key" names a column, too
    entries = [i for i in identifiers if not set(tokenize(i)) <= document_words]  # not the document's own name
    codes = written_code(need or question)
    stated = defaults_stated(question, context)  # "Default: 50." is short, but what a default question asks
    places = {place for place, _ in stated}
    # A list's entry headed by a number the question writes ("what does exit code 28 mean": "28 Timed out.")
    numbers = set(re.findall(r"(?<![\w.,])\d+(?!\w|[.,]\d)", need or question))
    items: list[tuple[int, int, str, str, set[str]]] = []  # item, sentence index, key, text, tokens
    tails: dict[int, list[str]] = {}  # item number: the short defaults quoted after it, each with its citation
    heads: dict[int, str] = {}  # item number: the heading the sentence stands under in its passage
    for i, item in enumerate(context):
        if not is_evidence(item):
            continue
        under = ""  # the passage's last heading line or run-in heading so far
        said = entry_sentences(whole_text(item))
        # A chunk stopping inside a sentence nothing finished (the next chunk a figure, or the document's end) ends
        # with an ellipsis: with a stop, its last words would read as a whole sentence ("... may be a result.").
        cut = stops_mid_sentence(item["text"]) and not item.get("runs_on") and _MID_WORDS.search(item["text"])
        previous = ""  # the sentence before, as read, whatever became of it
        for j, sentence in enumerate(said):
            if is_citation(sentence):
                previous = ""
                continue
            if cut and j == len(said) - 1:
                sentence = f"{sentence.rstrip(' ,')}…"
            if not is_row(sentence):
                # A figure's text read into prose: the prose before; a heading's underline, a markup tag (unless
                # the question writes one): no prose.
                sentence = past_rules(symbols_cut(sentence, question, s))
                sentence = sentence if markup_tags(question) else without_markup(sentence, whole_text(item))
                sentence = unbracketed(sentence)  # read as it will be quoted: the checks below see that
            words = len(sentence.split())
            # A short default stated in the entry asked about ("Default: true.") follows the sentence saying of what.
            fragment = len(sentence) < s.min_chars or words < s.min_words
            if fragment and (item.get("doc_id"), item.get("ordinal"), j) in places and previous:
                if not (items and items[-1][:2] == (i, j - 1)):  # the entry's opening, however it starts
                    items.append((i, j - 1, item["key"], previous, set(tokenize(previous))))
                before = items[-1]
                items[-1] = (i, j, before[2], before[3], before[4] | set(tokenize(sentence)))
                tails.setdefault(len(items) - 1, []).append(sentence)
                previous = before[3]  # "Default: 5. Default: 6." both follow it
                continue
            # What a default may follow: prose reading whole, but for a lower-case opening ("auth {boolean} ...").
            prose = not (is_row(sentence) or fragment or _HEADING_LINE.match(sentence))
            previous = sentence if prose and not unreadable(sentence[:1].upper() + sentence[1:], question, s) else ""
            # A short entry holding the code asked about ("%q The port.") or opening with its identifier is whole.
            short = fragment and not (
                any(written_in(c, sentence) for c in codes)
                or opens_with(sentence, identifiers)
                or (sentence.split() or [""])[0].rstrip(".:)") in numbers
            )
            heading = not is_row(sentence) and words <= s.heading_words and _HEADING_LINE.match(sentence)
            head = heading or signature_only(sentence)  # an API entry's head ("gate.open(lever)") heads its sentences
            under = sentence if head else under
            if short or head:
                continue  # headings and fragments read badly as answers
            # A row answers a figure, or what is asked of its entry; an entry split off after a stop may open lower.
            read_as = sentence[:1].upper() + sentence[1:] if j > 0 and named_entry(sentence) else sentence
            if unreadable(read_as, question, s) or (
                is_row(sentence) and not figure and not names_entry(sentence, entries)
            ):
                continue
            if is_row(sentence):
                if about_another_member(sentence, identifiers):
                    continue
                sentence = row_for_periods(sentence, years) if years else row_for_columns(sentence, asked_words)
                if not is_row(sentence):
                    continue  # a label without a value
                if about is not None and not set(tokenize(row_cells(sentence)[0])) & about:
                    continue
            else:  # read as written above (a page's opening heading keeps it from reading as a fragment)
                read = with_run_in_heading(past_section_heads(sentence))
                if read != sentence and (run_in := read.split(": ", 1)[0]) and sentence.startswith(run_in):
                    under = run_in
                elif under:
                    heads[len(items)] = under
                sentence = read
            items.append((i, j, item["key"], sentence, set(tokenize(sentence))))
    if not items:
        return ""
    # A sentence is matched with the heading it stands under: "Training data" says what the sentence after it is
    # about ("We use the Qz corpus and ...") without its words.
    headings = [heads.get(n, "") for n in range(len(items))]
    pool = [(c[4] | set(tokenize(h)), squashed([c[3], h])) for c, h in zip(items, headings, strict=True)]
    asked = need or question
    aliases = aliases or {}
    stand_ins = stand_ins_for(asked, aliases, items, embed, s)
    texts = [c[3] for c in items]
    # A question asking several things: each part is ranked on its own too (a comparison has its topics instead).
    parts = question_parts(asked) if intent != "compare" and s.part_sentences else [asked]
    parts = parts if len(parts) > 1 else []
    lexical, *part_lexical = [
        lexical_scores(
            q, {**aliases, **stand_ins}, pool, s.identifier_weight, texts, s.longer_name_share, s.code_weight
        )
        for q in [asked, *parts]
    ]
    likeness = np.zeros((len(items), len(items)))  # sentence to sentence, for the novelty of each choice
    if embed is not None:
        vectors = embed([asked, *parts, *texts])
        asked_vectors, vectors = vectors[: 1 + len(parts)], vectors[1 + len(parts) :]
        scores, *part_scores = [
            s.dense_weight * np.clip(vectors @ v, 0.0, 1.0) + (1 - s.dense_weight) * lex
            for v, lex in zip(asked_vectors, [lexical, *part_lexical], strict=True)
        ]
        likeness = vectors @ vectors.T
    else:
        scores, *part_scores = [lex.copy() for lex in [lexical, *part_lexical]]
    lengths = np.array([len(c[3].split()) for c in items])
    quoted = lengths + np.array([sum(len(t.split()) for t in tails.get(n, [])) for n in range(len(items))])
    ranks = np.array([c[0] for c in items])
    # A list's items make the sentence announcing them long: asked for a list, it keeps its whole score.
    listing = np.array([announces_list(c[3]) for c in items]) if asks_list(question) else np.zeros(len(items), bool)
    long = (lengths > s.long_words) & ~listing
    factors = np.where(long, s.long_factor, 1.0) / (1.0 + s.rank_decay * ranks)
    factors = factors * np.array([s.meta_factor if is_meta(c[3], s.run_in_words) else 1.0 for c in items])
    factors = factors * lead_factors(question, intent, texts, s, context, stated)
    scores = scores * factors
    # A part is ranked with the whole question too: "and what numbers do they have?" asks about the subject of the
    # question's first part, which only the whole question names.
    part_scores = [np.sqrt(p * factors * scores) for p in part_scores]

    follows = _continuations(items, scores, lexical, s)
    order = sorted(range(len(items)), key=lambda n: (-scores[n], items[n][0], items[n][1]))
    chosen: list[int] = []

    def novel(n: int, by: np.ndarray = scores) -> float:
        """The sentence's score less its likeness to the closest one chosen (maximal marginal relevance)."""
        if not chosen:
            return float(by[n])
        return float(by[n] - s.diversity * by.max() * likeness[n, chosen].max())

    def take(pool: list[int], limit: int, by: np.ndarray = scores, matched: np.ndarray = lexical) -> None:
        pool = [n for n in pool if n not in chosen and by[n] >= s.floor_share * by.max() and matched[n] > 0]
        while pool and len(chosen) < limit:
            n = max(pool, key=lambda n: novel(n, by))  # the first of equals: the better ranked
            pool.remove(n)
            if chosen and sum(quoted[m] for m in [*chosen, n]) > max_words:
                continue
            if any(_jaccard(items[n][4], items[m][4]) > s.duplicate_overlap for m in chosen):
                continue
            chosen.append(n)

    labels: dict[int, str] = {}  # the sentence that opens a topic's part of a comparison, and the topic
    parted = False  # the answer reads topic by topic, each part opening with its topic's name
    if intent == "compare" and topics:
        per_topic = max(1, max_sentences // len(topics))
        # A sentence under an entry's head is about what the head names ("gate.open(lever)" ... "The default is 1.").
        heads_named = [h if signature_only(h) else "" for h in headings]
        sentence_items = [{"text": f"{c[3]} {heads_named[n]}", "n": n} for n, c in enumerate(items)]
        names = {topic: {h["n"] for h in topic_hits(topic, sentence_items)} for topic in topics}
        # A sentence opening with a topic's name (an entry's head: "qz-b Like qz-a, ...") is about that topic.
        heads = {t: {n for n in names[t] if headed_by(items[n][3], t)} for t in topics}
        for topic in topics:
            keys = {h["key"] for h in topic_hits(topic, context)}
            start = len(chosen)
            # Sentences of passages about the topic, but none naming only another topic (or headed by another's
            # name): it belongs to that part.
            others = set().union(*(names[t] for t in topics if t != topic)) - names[topic]
            others |= set().union(*(heads[t] for t in topics if t != topic)) - heads[topic]
            about = [n for n in order if items[n][2] in keys and n not in others]
            # Those naming the topic themselves first: the part opens with the topic's name, and a sentence of a
            # passage that mentions it in passing reads as about something else.
            naming = names[topic] & set(about)
            take([n for n in about if n in naming], start + per_topic)
            take(about, start + per_topic)
            # A figure's row naming the topic states what a figure question asks: it leads its part.
            part = sorted(
                chosen[start:],
                key=lambda n: (n not in naming, not (figure and is_row(items[n][3])), items[n][0], items[n][1]),
            )
            chosen[start:] = part
            if part and s.topic_labels:
                parted = True
                if not items[part[0]][3].lower().startswith(topic.lower()):  # no label repeating its opening words
                    # A name in code keeps its case ("qz_get_x", "x++"; not "Qz_get_x", "X++").
                    first = topic.split()[0]
                    code = is_identifier(first) or re.search(r"[^\w\s'’-]", first)
                    labels[part[0]] = topic if code else topic[:1].upper() + topic[1:]
    if not parted:  # more sentences after a labelled part would read as that topic's
        # The best sentence for the whole question leads; then each part's best, in the parts' order (a part
        # already answered by the lead still takes its next best: "... and which variables are they?" is answered
        # by the sentence after the one naming them), leaving room for the parts after it.
        take(order, 1 if part_scores else 0)
        for k, (by, matched) in enumerate(zip(part_scores, part_lexical, strict=True)):
            room = max_sentences - (len(part_scores) - 1 - k)
            take(
                sorted(range(len(items)), key=lambda n: -by[n]), min(len(chosen) + s.part_sentences, room), by, matched
            )
        take(order, max_sentences)
        chosen[:] = _reading_order(chosen, follows)
    if intent == "procedure" or (intent == "compare" and not parted):
        chosen.sort(key=lambda n: (items[n][0], items[n][1]))  # document order reads as steps / topic by topic
    elif figure and not parted:  # the best row stating a figure of a year or of a member asked for comes first
        stating = [n for n in chosen if is_row(items[n][3]) and _states(items[n][3], years, identifiers)]
        # The row whose label the question names most plainly (not by the document's name) leads, else the better.
        stating.sort(key=lambda n: -label_share(items[n][3], subject))
        if stating:
            chosen.remove(stating[0])
            chosen.insert(0, stating[0])
            lead = items[stating[0]]
            passage = framed(context[lead[0]])
            scaled = in_scale(question, lead[3], passage)
            if scaled:  # the figure in the scale the question asks for, its input cited
                items[stating[0]] = (*lead[:3], f"{lead[3]}{scaled}", lead[4])
            elif unit := stated_scale(lead[3], passage):  # the row's figures read in its table's scale
                items[stating[0]] = (*lead[:3], f"{lead[3]} (in {unit}s)", lead[4])
    if chosen and ASKS_WHERE.search(question):  # asked which part covers it: the part the best passage is in
        lead = items[chosen[0]]
        label, sentence = _part_label(own_heading(context[lead[0]]), lead[3])
        if label:
            labels[chosen[0]] = label
            items[chosen[0]] = (*lead[:3], sentence, lead[4])
    # A comparison reads topic by topic: each topic's part opens with its name.
    text = " ".join(
        f"{labels[n] + ': ' if n in labels else ''}{_terminated(items[n][3])} [{items[n][2]}]"
        + "".join(f" {_terminated(tail)} [{items[n][2]}]" for tail in tails.get(n, []))
        for n in chosen
    )
    calc = computed(question, [c for c in context if is_evidence(c)], s.row_label_share)
    return f"{calc} {text}".strip() if calc else text


_SECTION_NUMBER = re.compile(r"^((?:[A-Z][a-z]+\s+)?(?:\d+(?:\.\d+)*|[IVXLC]+|[A-Z]))\.\s+")


def _part_label(heading: str, sentence: str) -> tuple[str, str]:
    """The label naming the part a sentence is in ("Chapter 3, Gate seals": the number's stop would end a sentence
    of the answer, a comma sets it off) and the sentence without that heading read into it; ("", sentence) when the
    sentence already opens with the label or there is no heading."""
    heading = heading.strip().rstrip(".")
    label, title = _SECTION_NUMBER.sub(r"\1, ", heading), _SECTION_NUMBER.sub("", heading)
    if not label or sentence.startswith(label):
        return "", sentence
    rest = sentence[len(title) :]
    if title and sentence.startswith(title) and rest[:1] in {"", ":", " "}:  # the heading read into it: said once
        return label, rest.lstrip(" :")
    return label, sentence


def _states(row: str, years: list[str], identifiers: list[str]) -> bool:
    """Whether a row states what a figure question asks: a column of a year it names, or (naming no year) a label
    naming one of its identifiers ("ZX-9-768 | casing: 1,088")."""
    if years:
        return any(f"{y}:" in row for y in years)
    return bool({i.lower() for i in identifiers} & {w.lower() for w in label_words(row)})


def _continuations(
    items: list[tuple[int, int, str, str, set[str]]], scores: np.ndarray, lexical: np.ndarray, s: AnswerSettings
) -> dict[int, int]:
    """Lift the sentences after each of the best few (`continuation_depth` in a row) to a share of its score (the
    share again for each further one), in place, and return {a sentence after: the one it follows}. What follows
    the sentence that best matches the question often carries the point without repeating the question's words
    ("... with the following settings: a = 0.9." "We use a decay of 0.1." "Clipping is set to 1.0.")."""
    if not s.continuation_share or not s.continuation_leads:
        return {}
    position = {(c[0], c[1]): n for n, c in enumerate(items)}
    follows: dict[int, int] = {}
    eligible = [n for n in range(len(items)) if lexical[n] > 0]  # a lead that may itself be chosen
    for lead in sorted(eligible, key=lambda n: -scores[n])[: s.continuation_leads]:
        before, share = lead, s.continuation_share
        for _ in range(s.continuation_depth):
            after = position.get((items[before][0], items[before][1] + 1))
            # A pointer to elsewhere continues nothing; a better sentence than the lead reads first, as the best.
            stop = after is None or after in follows or scores[after] >= scores[lead]
            if stop or is_meta(items[after][3], s.run_in_words):
                break
            scores[after] = max(scores[after], share * scores[lead])
            lexical[after] = max(lexical[after], np.finfo(float).eps)  # eligible without the question's words
            follows[after] = before
            before, share = after, share * s.continuation_share
    return follows


def _reading_order(chosen: list[int], follows: dict[int, int]) -> list[int]:
    """The chosen sentences with each continuation right after the sentence it continues (chains kept in order),
    the rest in their order."""
    after = {lead: n for n, lead in follows.items() if n in chosen and lead in chosen}
    followers = set(after.values())
    out: list[int] = []
    for n in chosen:
        if n in followers:
            continue
        while n is not None and n not in out:
            out.append(n)
            n = after.get(n)
    return out


def _terminated(sentence: str) -> str:
    return sentence if sentence[-1] in ".!?…" else f"{sentence}."


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
