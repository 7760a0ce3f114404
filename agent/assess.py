"""Deterministic evidence checks, each with a named reason; the LLM grader may add an opinion but never gates."""

from __future__ import annotations

import math
from typing import Any

from agent.defaults import asks_default, default_missing, left_unset
from agent.entries import heads_entry, opens_path_entry
from agent.evidence import (
    coverage,
    is_evidence,
    is_path,
    is_short_option,
    may_be_own,
    names_covered,
    names_path,
    own_heading,
    passage,
    read,
    term_covered,
    titles_read,
    untitled,
    written_code,
    written_in,
)
from agent.intent import content_terms
from agent.recommendations import asked_kind, recommendation_missing
from agent.settings import AgentSettings, CheckSettings
from agent.types import Assessment, Check
from agent.value_questions import asks_value, measure_noun, measured_phrase
from agent.values import HYPHENATED_NAME, value_missing
from kb.text import is_identifier


def anchored_missing(
    identifiers: list[str],
    others: list[str],
    evidence: list[dict[str, Any]],
    aliases: dict[str, list[str]] | None = None,
) -> list[str]:
    """Identifiers not found in any passage that also holds another of the question's terms (or whose page in the
    evidence does) or is headed by the identifier: a name dropped in passing (a citation, a list of alternatives) is
    not evidence about it. An alias (an acronym's long form found in the store) stands for its identifier."""
    pages = _pages(evidence)
    return [i for i in identifiers if not any(_anchors(i, identifiers, others, h, aliases, pages) for h in evidence)]


Page = tuple[set[str], str]


def _pages(evidence: list[dict[str, Any]]) -> dict[tuple[str, Any], Page]:
    """Each page's evidence, read as one text: a table's rows and the sentences saying what its columns hold."""
    texts: dict[tuple[str, Any], list[str]] = {}
    for h in evidence:
        if h.get("start_page") is not None:
            texts.setdefault((h.get("doc_id", ""), h["start_page"]), []).append(passage(h))
    return {page: read(parts) for page, parts in texts.items()}


def _anchors(
    ident: str,
    identifiers: list[str],
    others: list[str],
    hit: dict[str, Any],
    aliases: dict[str, list[str]] | None,
    pages: dict[tuple[str, Any], Page] | None = None,
) -> bool:
    # A question of names alone ("which section documents QZ_IN and QZ_OUT?") may find each where it is described.
    rest = [t for t in [*identifiers, *others] if t != ident] if others else []
    names = [ident, *(aliases or {}).get(ident, [])]
    tokens, flat = read([passage(hit)])
    if not names_covered(names, tokens, flat):
        return False
    # A passage of a section headed with the name, or holding the entry the name opens ("QZ_CONF Determines ..."),
    # is about it, whatever else the question asks of it ("QZM vs QXM for a new protocol?": the QXM section never
    # says "protocol").
    heading = own_heading(hit)
    headed = (bool(heading) and names_covered(names, *read([heading]))) or heads_entry(passage(hit), names)
    # A table's row names it ("QZSHUT Q1 Stop Gate shut"); the page says what its columns hold ("the Action column
    # gives what each one does by default"). Enough to find the name; the documents about the subject are still
    # those whose passages speak of it (`anchoring_hits`).
    # Only for a name of its own: a number ("an exit status of 17") stands on a page in many roles (a count, a
    # date, another code's value).
    page = (tokens, flat)
    if is_identifier(ident):
        page = (pages or {}).get((hit.get("doc_id", ""), hit.get("start_page")), page)
    return not rest or headed or any(term_covered(t, tokens, flat) or term_covered(t, *page) for t in rest)


def anchoring_hits(
    identifiers: list[str],
    others: list[str],
    evidence: list[dict[str, Any]],
    aliases: dict[str, list[str]] | None,
    shared: int = 3,
) -> list[dict[str, Any]]:
    """Passages that anchor one of the question's identifiers: where its subject is named and discussed. Their
    documents are the ones about the subject; evidence from other documents may share the question's words
    (another model's training, say) without being about what was asked."""
    by_ident = {i: [h for h in evidence if _anchors(i, identifiers, others, h, aliases)] for i in identifiers}
    spread = {i: len({h["doc_id"] for h in hits}) for i, hits in by_ident.items() if hits}
    if not spread:
        return []
    # An identifier that many documents share (a field's acronym) does not name the subject when a more specific
    # one does: it is set aside when anchored in at least `shared` documents and twice as many as the most specific.
    # Otherwise (two specific names, each in its own documents) every identifier keeps its documents.
    fewest = min(spread.values())
    keep = {id(h) for i, n in spread.items() if not (n >= shared and n >= 2 * fewest) for h in by_ident[i]}
    return [h for h in evidence if id(h) in keep]


def is_strong(hit: dict[str, Any], key_terms: list[str], c: CheckSettings) -> bool:
    """One passage that holds most of the key terms (`strong_term_share`) and is semantically close: enough on its
    own."""
    if not key_terms or (hit.get("dense_score") is not None and hit["dense_score"] < c.relevance_floor):
        return False
    covered, _ = coverage(key_terms, [passage(hit)])
    return len(covered) >= max(1, round(c.strong_term_share * len(key_terms)))


def is_relevant(hit: dict[str, Any], key_terms: list[str], c: CheckSettings) -> bool:
    """Semantically close to the question, or holding enough of its key terms."""
    if hit.get("dense_score") is not None and hit["dense_score"] >= c.relevance_floor:
        return True
    if not key_terms:
        return False
    covered, _ = coverage(key_terms, [hit["text"]])
    return len(covered) >= max(1, int(len(key_terms) * c.relevant_term_share))


def together(
    key_terms: list[str], evidence: list[dict[str, Any]], most: int, aliases: dict[str, list[str]] | None = None
) -> Check:
    """Whether one page of the evidence holds `most` of the key terms together (all but one of fewer; a term by
    itself or by an alias found in the store): a passage that answers a question speaks of several of its concepts
    at once, while words found one by one across passages are passing mentions ("qzpack" here, "mode" there,
    "verbose" nowhere)."""
    need = min(most, len(key_terms) - 1)
    if need < 1:
        return Check(check="terms_together", ok=True, detail="fewer than two key terms: nothing to find together")
    pages: dict[tuple[str, Any], list[str]] = {}
    for hit in evidence:
        pages.setdefault((hit["doc_id"], hit.get("start_page")), []).append(passage(hit))
    names = {t: [t, *(aliases or {}).get(t, [])] for t in key_terms}
    pages_read = [read(texts) for texts in pages.values()]  # each page read once
    held = ([t for t in key_terms if names_covered(names[t], tokens, flat)] for tokens, flat in pages_read)
    best = max(held, key=len, default=[])
    ok = len(best) >= need
    named = f" ({', '.join(best)})" if best else ""
    if ok:
        detail = f"{len(best)} of the {len(key_terms)} key terms together on one page{named}"
    else:
        detail = f"no page holds the question’s terms together: at most {len(best)} of {len(key_terms)}{named}"
    return Check(check="terms_together", ok=ok, detail=detail)


def topic_hits(topic: str, evidence: list[dict[str, Any]], share: float = 0.5) -> list[dict[str, Any]]:
    """Hits that mention the topic: all its identifiers and at least `share` of its other terms (rounded down when
    identifiers name it: "the v1 qz_agent approach" is about qz_agent, however the passage calls it); of those, the
    ones holding the code it writes when any does ("qzpack -k": "-k" as written; the search reads no such code, so
    a topic whose code no hit holds is still found by its words)."""
    terms = content_terms(topic)
    ids = [t for t in terms if is_identifier(t)]
    rest = [t for t in terms if t not in ids]
    needed = math.floor(share * len(rest)) if ids else share * len(rest)
    out = []
    for hit in evidence:
        text = [passage(hit)]
        if ids and coverage(ids, text)[1]:
            continue
        if rest and len(coverage(rest, text)[0]) < needed:
            continue
        out.append(hit)
    codes = written_code(topic)
    written = [
        h for h in out if all(names_path(c, passage(h)) if is_path(c) else written_in(c, passage(h)) for c in codes)
    ]
    return written or out


def assess(state: dict[str, Any]) -> Assessment:
    """The verdict on the merged evidence: sufficient or not, with every check's outcome and detail."""
    settings = AgentSettings.of(state)
    c = settings.checks
    evidence = [h for h in state.get("evidence", []) if is_evidence(h)]
    texts = [passage(h) for h in evidence]
    identifiers = state.get("identifiers", [])
    key_terms = state.get("key_terms", [])
    others = [t for t in key_terms if t not in identifiers]
    reasons: list[Check] = []

    aliases = state.get("aliases")
    compare = state.get("intent") == "compare"
    if compare:
        # Each topic's passages name that topic, not the other one: an identifier of a comparison counts where it is
        # named beside its own topic's words or the question's shared terms, never only beside the other topic.
        missing_ids = [
            i
            for i in identifiers
            if anchored_missing([i], _own_terms(i, state.get("topics", []), identifiers, others), evidence, aliases)
        ]
    else:
        missing_ids = anchored_missing(identifiers, others, evidence, aliases)
    # A name the question gives (an organisation, a person, a named method) must be in some passage: evidence about
    # other names that merely shares the question's other words does not answer it.
    missing_ids += [n for n in coverage(state.get("names") or [], texts)[1] if n not in missing_ids]
    # Code the question writes as typed must be there as written: "--qz-errors" is not "--qz" and "errors". A short
    # option ("-k") only tells a topic's passages apart: a question may name one to say it is not given; a path or a
    # pattern may be the reader's own.
    written = [c for c in state.get("written") or [] if not (is_short_option(c) or may_be_own(c))]
    missing_ids += [c for c in written if not any(written_in(c, t) for t in texts)]
    found_ids = f"{len(identifiers)} identifier(s) found"
    detail = f"missing {', '.join(missing_ids)}" if missing_ids else found_ids
    reasons.append(Check(check="identifiers_covered", ok=not missing_ids, detail=detail))
    # Terms and relevance are judged on the subject's documents, once the identifiers have some.
    anchors = [] if compare else anchoring_hits(identifiers, others, evidence, aliases, c.shared_documents)
    subjects = sorted({h["doc_id"] for h in anchors})
    on_subject = [h for h in evidence if h["doc_id"] in subjects] if subjects else evidence
    where = f" in {', '.join(subjects)}" if subjects else ""
    # The other terms must be found where the subject is named or right beside it: a document that names the
    # subject once, in passing, does not answer everything its other passages happen to share with the question.
    span = range(-c.near_chunks, c.near_chunks + 1)
    near = {(h["doc_id"], h.get("ordinal", 0) + d) for h in anchors for d in span}
    anchoring = [h for h in on_subject if (h["doc_id"], h.get("ordinal", 0)) in near]
    # A reader's story ("my script ... on my laptop") anchors the identifiers above but is no term to cover.
    story = set(state.get("story") or [])
    others = [t for t in others if t not in story]
    covered, missing_terms = coverage(others, [passage(h) for h in (anchoring or on_subject)])
    named = f" near {', '.join(identifiers)} in {', '.join(subjects)}" if anchoring else where
    share = len(covered) / len(others) if others else 1.0
    detail = f"{share:.0%} of key terms found{named}" + (
        f"; missing {', '.join(missing_terms)}" if missing_terms else ""
    )
    reasons.append(Check(check="key_terms_covered", ok=share >= c.term_coverage, detail=detail))
    if c.together_terms and not compare:  # a comparison's topics are found apart, each on its own pages
        reasons.append(together([t for t in key_terms if t not in story], on_subject, c.together_terms, aliases))
    relevant = [h for h in on_subject if is_relevant(h, key_terms, c)]
    strong = [h for h in relevant if is_strong(h, key_terms, c)]
    detail = f"{len(relevant)} relevant hit(s){where}, {settings.min_hits} needed" + (
        f"; {len(strong)} close passage(s) hold most key terms" if strong else ""
    )
    # A question naming its subject by identifier is answered by the subject's entry: a reference gives one thing one
    # entry, often a single passage, so one relevant passage naming it is enough.
    entry = [h for h in relevant if any(h is a for a in anchors)] if identifiers else []
    if entry and not strong:
        detail += f"; {len(entry)} of them name {', '.join(identifiers)}"
    ok = len(relevant) >= settings.min_hits or bool(strong) or bool(entry)
    reasons.append(Check(check="relevant_hits", ok=ok, detail=detail))
    question = state.get("question", "")
    value = c.stated_value and asks_value(question, worded_defaults=c.stated_default)
    # A path or a pattern may be the reader's own ("the default for /srv/mine"): no name a default is stated of;
    # but when a question writes only one path, and a passage opens an entry with it, it is the documents' own name
    # for what is asked about ("/proc/qz/limit"; two are a comparison's topics, each with a value of its own, and a
    # path beside an option may only say where the option's file goes).
    written = state.get("written") or []
    own = [c for c in written if not may_be_own(c)]
    paths = [c for c in written if is_path(c)]
    headed = len(paths) == 1 and not own and not compare and any(opens_path_entry(paths[0], t) for t in texts)
    printed = paths if headed else []
    if c.stated_default and asks_default(question) and not value:
        # An option the question writes is what the default is of ("which format by default when no --format is
        # given"), the one it says is not set first ("... qz --run ... when --qz-mode isn't passed"); an identifier
        # beside it names the program or the format ("GNU tar", "WARC").
        named = left_unset(question, own) or own or identifiers or printed
        named = named or [t for t in others if HYPHENATED_NAME.match(t)]
        unstated = default_missing(untitled(named, titles_read(evidence)) or named, evidence, aliases, question)
        if unstated is not None:
            reasons.append(Check(check="default_stated", ok=not unstated, detail=unstated or "a default is stated"))
        # The entry goes on past the evidence: a default value asked for is still a value beside the subject.
        value = unstated is None and c.stated_value and asks_value(question, worded_defaults=False)
    if value:
        subject = identifiers or printed
        unstated = value_missing(
            question,
            subject,
            [t for t in others if not any(t.strip("/") == p.strip("/") for p in subject)],
            evidence,
            aliases,
            c.value_term_share,
            max(1, c.together_terms),
            # Without an identifier to anchor it, the measure named is what a stating sentence must name.
            measured_phrase(question) or ("" if subject else measure_noun(question)),
            settings.answer,
            state.get("names") or [],
        )
        reasons.append(Check(check="value_stated", ok=not unstated, detail=unstated or "a value is stated"))
    if c.stated_recommendation and (kind := asked_kind(question)):
        unstated = recommendation_missing(kind, evidence, aliases)
        detail = unstated or "a recommendation is stated"
        reasons.append(Check(check="recommendation_stated", ok=not unstated, detail=detail))
    if compare and state.get("topics"):
        reasons += _topic_checks(state["topics"], evidence, state.get("topic_homes", {}), c.topic_term_share)
    failing = next((r.check for r in reasons if not r.ok), None)
    return Assessment(
        sufficient=failing is None,
        failing=failing,
        reasons=reasons,
        missing_identifiers=missing_ids,
        missing_terms=missing_terms,
        relevant_hits=len(relevant),
        subject_docs=subjects,
    )


def _own_terms(identifier: str, topics: list[str], identifiers: list[str], others: list[str]) -> list[str]:
    """The terms an identifier of a comparison may be anchored by: its topic's other words and the terms of the
    question that belong to no topic; an identifier of no topic, by any other term of the question."""
    # Whole terms, never substrings: "BERT" is not a word of "RoBERTa".
    words_of = {t: {w.lower() for w in content_terms(t)} for t in topics}
    mine = [t for t in topics if identifier.lower() in words_of[t]]
    if not mine:
        return [t for t in [*identifiers, *others] if t != identifier]
    theirs = set().union(*(words_of[t] for t in topics if t not in mine))
    own = [w for t in mine for w in content_terms(t) if w != identifier]
    shared = [w for w in others if w.lower() not in theirs]
    return list(dict.fromkeys([*own, *shared]))


def _topic_checks(
    topics: list[str], evidence: list[dict[str, Any]], homes: dict[str, list[str]], share: float
) -> list[Check]:
    """A comparison needs evidence on every topic, and from each topic's own documents when they differ."""
    absent = [t for t in topics if not topic_hits(t, evidence, share)]
    every = "both topics" if len(topics) == 2 else f"all {len(topics)} topics"
    detail = f"no evidence on {', '.join(map(repr, absent))}" if absent else f"evidence on {every}"
    checks = [Check(check="topics_covered", ok=not absent, detail=detail)]
    home_sets = [set(homes.get(t, [])) for t in topics]
    separate = all(home_sets) and not set.intersection(*home_sets)
    found = {h["doc_id"] for h in evidence}
    lacking = [t for t, home in zip(topics, home_sets, strict=True) if separate and not (home & found)]
    detail = (
        f"the topics live in different documents; none from the home of {', '.join(map(repr, lacking))}"
        if lacking
        else f"{len(found)} document(s) in the evidence"
    )
    return [*checks, Check(check="topic_diversity", ok=not lacking, detail=detail)]
