"""Routing, refinement helpers, verification and the extractive composer, one piece at a time."""

from __future__ import annotations

import numpy as np
import pytest

from agent.assess import assess
from agent.evidence import is_reference
from agent.extractive import compose
from agent.intent import read_question, terms_of
from agent.nodes import context_of
from agent.refine import find_contraction, find_expansion, propose
from agent.settings import PRESETS, AgentSettings, AnswerSettings
from agent.verify import check_citations, renumbered, split_cited


def test_acronym_expansion_and_contraction() -> None:
    texts = ["We use byte-pair encoding (BPE) with 50K units.", "The NSP (next sentence prediction) task helps."]
    assert find_expansion("BPE", texts) == "byte-pair encoding"
    assert find_expansion("NSP", texts) == "next sentence prediction"
    assert find_expansion("XYZ", texts) is None
    assert find_contraction("Why use byte-pair encoding here?", texts) == ("byte-pair encoding", "BPE")


CONTEXT = [
    {"key": "c1", "text": "The basalt station logged the highest humidity readings of the season.", "rank": 1},
    {"key": "c2", "text": "Station | Code | Reading\nNorth ridge | QX-7731 | 42.5", "rank": 2},
]


def test_split_cited_assigns_markers_to_their_sentence() -> None:
    pairs = split_cited("First fact here [c1]. Second fact, no marker. Third fact [c2][c1].")
    assert pairs == [("First fact here", ["c1"]), ("Second fact, no marker.", []), ("Third fact", ["c2", "c1"])]
    # An option named in passing ("using -Z, --qz-all, this ...") splits no sentence the answer quoted whole.
    whole = "When run in parallel, using -Z, --qz-all, this option sets the most gates"
    assert split_cited(f"{whole} [c1].") == [(whole, ["c1"])]


def test_verify_rules() -> None:
    ok = check_citations("The basalt station logged the highest humidity readings [c1].", CONTEXT, 0.5)
    assert ok["refusal_reason"] is None and ok["answer"].endswith("[c1]")
    assert (
        check_citations("The basalt station logged humidity [c9].", CONTEXT, 0.5)["refusal_reason"]
        == "invalid_citation"
    )
    mixed = check_citations(
        "The basalt station logged the highest humidity readings [c1]. Unicorns graze nearby [c1]. "
        "North ridge reading is 42.5 [c2].",
        CONTEXT,
        0.5,
    )
    assert mixed["refusal_reason"] is None and "Unicorns" not in mixed["answer"]
    assert [s["kept"] for s in mixed["sentences"]] == [True, False, True]
    assert check_citations("Unicorns graze nearby [c1].", CONTEXT, 0.5)["refusal_reason"] == "unsupported_answer"
    assert check_citations("No markers at all.", CONTEXT, 0.5)["refusal_reason"] == "unsupported_answer"


def test_extractive_answer_cites_every_sentence() -> None:
    answer = compose("Which station logged the highest humidity?", "general", [], CONTEXT, AnswerSettings(sentences=3))
    assert answer == "The basalt station logged the highest humidity readings of the season. [c1]"
    assert check_citations(answer, CONTEXT, 0.5)["refusal_reason"] is None


def test_reference_chunks_are_recognised() -> None:
    refs = {
        "section": "",
        "text": "[12] A. Author et al. Deep things. In Proceedings of the Conference on X, 2020.\n"
        "[13] B. Author. More things. arXiv preprint arXiv:2001.00001, 2020.",
    }
    assert is_reference(refs) and is_reference({"section": "8 Conclusion > References", "text": "Doe, A., 2020."})
    assert not is_reference({"section": "2 Results", "text": CONTEXT[0]["text"]})


def test_presets_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    quick = AgentSettings.for_preset("quick")
    assert quick.max_rounds == 1 and quick.preset == "quick"
    assert AgentSettings.for_preset("thorough", k=3).k == 3
    assert PRESETS["balanced"]["max_rounds"] < PRESETS["thorough"]["max_rounds"]
    monkeypatch.setenv("OLLAMA_HOST", "0.0.0.0:11500")
    assert AgentSettings().base_url == "http://0.0.0.0:11500"
    monkeypatch.setenv("AGENT_MODEL", "some-model:1b")
    assert AgentSettings().model == "some-model:1b"


def assess_state(question: str, evidence: list[dict]) -> dict:
    """The state assess reads, for a question and its evidence, with the balanced preset needing one hit."""
    reading = read_question(question)
    return {
        "settings": AgentSettings.for_preset("balanced", min_hits=1).model_dump(mode="json"),
        "intent": reading.intent,
        **terms_of(reading),  # as the route step keeps them
        "evidence": evidence,
    }


def hit(doc: str, text: str, n: int = 1) -> dict:
    """A retrieved chunk of `doc` at position `n`, close enough to the question to count as relevant."""
    return {"chunk_id": f"{doc}:{n}", "doc_id": doc, "ordinal": n, "section": "", "text": text, "dense_score": 0.6}


def test_key_terms_count_only_in_the_documents_about_the_subject() -> None:
    about = hit("zx", "The ZX-9 strategy relies on a cooled reference for its measurements.", 1)
    other = hit("other", "Gradient clipping improves training stability for this strategy of large models.", 2)
    state = assess_state("What strategy does the ZX-9 use for training stability?", [about, other])
    verdict = assess(state)
    assert verdict.subject_docs == ["zx"]
    assert verdict.failing == "key_terms_covered"  # stability lives only in a document not about the ZX-9
    assert "missing training, stability" in verdict.reasons[1].detail
    state["evidence"] = [about, hit("zx", "Its training stability comes from gradient clipping.", 3), other]
    assert assess(state).sufficient  # two chunks after the one naming the ZX-9: still about it


def test_terms_far_from_where_the_subject_is_named_do_not_count() -> None:
    """A document that names the subject once, in passing, does not answer what its other passages discuss."""

    def hit(n: int, text: str) -> dict:
        return {"chunk_id": f"survey:{n}", "doc_id": "survey", "ordinal": n, "section": "", "text": text}

    mention = hit(30, "The ZX-9 is one of the dual-band units we tested.")
    elsewhere = hit(4, "A single-band receiver limits range; dual-band designs extend it over single-band ones.")
    question = "How does the ZX-9's dual-band receiver extend its range over single-band designs?"
    state = assess_state(question, [mention, elsewhere])
    verdict = assess(state)
    assert verdict.subject_docs == ["survey"]
    assert verdict.failing == "key_terms_covered"
    assert "near ZX-9 in survey" in verdict.reasons[1].detail
    state["evidence"] = [mention, {**elsewhere, "chunk_id": "survey:31", "ordinal": 31}]
    assert assess(state).sufficient  # the same words right after the mention are about the ZX-9


def test_a_documents_title_anchors_its_name_for_every_chunk() -> None:
    chunk = {"chunk_id": "zx:1", "doc_id": "zx", "section": "3 Method", "dense_score": 0.6}
    chunk["text"] = "We keep training stable by clipping gradients and warming up the learning rate."
    state = assess_state("How does the ZX-9 keep its training stable?", [chunk])
    assert assess(state).missing_identifiers == ["ZX-9"]
    state["evidence"] = [{**chunk, "title": "ZX-9: A Stable Trainer"}]
    verdict = assess(state)
    assert verdict.missing_identifiers == [] and verdict.subject_docs == ["zx"]


def test_the_most_specific_identifier_names_the_subject() -> None:
    evidence = [
        hit("survey", "Table 4 compares the ZX-9 with other AI systems on the benchmark."),
        hit("guide", "Open-source AI tools let the research community share their contributions."),
        hit("manual", "The AI community reviews open-source research contributions every year."),
    ]
    state = assess_state("What contributions does the ZX-9 offer to the open-source AI research community?", evidence)
    assert state["identifiers"] == ["ZX-9", "AI"]
    verdict = assess(state)
    # "AI" is in every document; only the survey names the ZX-9, and it says nothing of its contributions.
    assert verdict.subject_docs == ["survey"]
    assert not verdict.sufficient and verdict.failing == "key_terms_covered"


def test_two_specific_identifiers_keep_both_their_documents() -> None:
    evidence = [
        hit("zx", "The ZX-9 drops the QR-2 warm-up step and trains with a constant learning rate instead."),
        hit("qr", "The QR-2 warm-up step raises the learning rate over the first thousand steps of training."),
    ]
    state = assess_state("What does the ZX-9 change about the QR-2 warm-up step?", evidence)
    assert state["identifiers"] == ["ZX-9", "QR-2"]
    assert assess(state).subject_docs == ["qr", "zx"]  # neither name is shared: both documents are the subject


def test_a_contents_page_is_never_evidence() -> None:
    """A contents entry names the part that answers, not the answer: it neither passes the checks nor gets cited."""
    entry = {**hit("guide", "3 Load limits of the spreader and the rated load ........ 5", 1), "kind": "contents"}
    state = assess_state("What is the rated load of the spreader?", [entry])
    assert not assess(state).sufficient
    assert (
        compose(
            "What is the rated load of the spreader?",
            "general",
            [],
            [{**entry, "key": "c1"}],
            AnswerSettings(sentences=3),
        )
        == ""
    )
    body = hit("guide", "The rated load of the spreader is forty tonnes at full outreach.", 2)
    state["evidence"] = [entry, body]
    assert assess(state).sufficient
    assert context_of({"evidence": [{**entry, "rank": 1, "round": 1}, {**body, "rank": 2, "round": 1}]}, 12) == [
        {**body, "rank": 2, "round": 1, "key": "c1"}
    ]


def test_a_period_counts_by_its_year_however_the_evidence_writes_it() -> None:
    reading = read_question("What was the FY 2018 capital expenditure of the plant in Q2?")
    assert "FY2018" in reading.key_terms and "FY2018" not in reading.identifiers and "Q2" not in reading.identifiers
    passage = hit("plant", "In fiscal 2018 the plant's capital expenditure rose to 41 million.", 1)
    state = assess_state("What was the FY 2018 capital expenditure of the plant in Q2?", [passage])
    assert not assess(state).missing_terms
    elsewhere = hit("plant", "In fiscal 2017 the plant's capital expenditure rose to 41 million.", 1)
    assert "FY2018" in assess(assess_state("What was the FY 2018 capital expenditure?", [elsewhere])).missing_terms


def test_a_name_the_question_defines_need_not_be_printed() -> None:
    question = "What is the 2019 days payable outstanding (DPO)? DPO is defined as 365 * payables / cost of sales."
    reading = read_question("What is the 2019 days payable outstanding (DPO)?", whole=question)
    assert "DPO" not in reading.key_terms and "payable" in reading.key_terms
    # The need alone no longer holds the long form: it comes from the question that spells it out.
    need_only = read_question("What is the 2019 DPO?", whole=question)
    assert "DPO" not in need_only.key_terms and {"days", "payable", "outstanding"} <= set(need_only.key_terms)
    assert "XYZ" in read_question("What is the XYZ of the pump?").identifiers


def test_citations_are_numbered_as_a_reader_meets_them() -> None:
    answer, mapping = renumbered("Pumps run hot [c3]. Valves leak [c1] [c3].")
    assert answer == "Pumps run hot [c1]. Valves leak [c2] [c1]." and mapping == {"c3": "c1", "c1": "c2"}


def test_extractive_answer_reads_a_row_at_the_year_asked_and_leaves_rows_out_of_prose_answers() -> None:
    row = {
        "key": "c1",
        "chunk_id": "f:1",
        "doc_id": "f",
        "text": "Purchases of pump equipment | 2018: 1,577 | 2017: 1,373 | 2016: 1,420\n"
        "The pump fleet grew because the plant added a second line in the north hall.",
    }
    settings = AnswerSettings(sentences=2)
    figure = compose("What were the 2018 purchases of pump equipment?", "general", [], [row], settings)
    assert figure.startswith("Purchases of pump equipment | 2018: 1,577. [c1]")
    prose = compose("Why did the pump fleet grow?", "general", [], [row], settings)
    assert "|" not in prose and "second line" in prose


def test_prompt_placeholders_are_checked() -> None:
    from agent import prompts

    prompts.check_placeholders(vars(prompts), prompts.PLACEHOLDERS)  # the shipped prompts pass
    with pytest.raises(RuntimeError, match="prompt X: placeholders \\['a'\\], expected \\['b'\\]"):
        prompts.check_placeholders({"X": "{a}"}, {"X": {"b"}})


def test_a_comparison_finds_each_name_beside_its_own_topic() -> None:
    question = "What are the differences between ZX-9 and QR-7?"
    zx = hit("zx", "The ZX-9 seals the north line with a bronze gate.", 1)
    qr = hit("qr", "The QR-7 moves forty litres per minute through the south line.", 1)
    state = assess_state(question, [zx, qr])
    state["topics"] = read_question(question).topics
    assert state["intent"] == "compare" and state["topics"] == ["ZX-9", "QR-7"]
    assert not assess(state).missing_identifiers  # neither passage names the other topic, and need not
    state["evidence"] = [qr]
    assert assess(state).missing_identifiers == ["ZX-9"]


def test_broadening_a_comparison_keeps_both_topics() -> None:
    state = {
        "intent": "compare",
        "topics": ["ZX-9 valve", "QR-7 pump"],
        "key_terms": ["ZX-9", "QR-7", "valve", "pump", "sealing", "pressure", "north"],
        "query": "ZX-9 valve vs QR-7 pump sealing pressure north",
        "queries_tried": ["ZX-9 valve vs QR-7 pump sealing pressure north"],
        "question": "ZX-9 valve vs QR-7 pump sealing pressure north",
        "assessment": {"sufficient": False, "failing": "relevant_hits", "reasons": []},
    }
    proposal = propose(state, lambda *a, **k: [], probes=0)
    assert proposal is not None and proposal.strategy == "broaden"
    assert proposal.query.startswith("ZX-9 valve QR-7 pump")


def test_a_definition_question_leads_with_the_defining_sentence() -> None:
    context = [
        {
            "key": "c1",
            "chunk_id": "m:1",
            "doc_id": "m",
            "text": "Every spreader bar on the north crane was painted and "
            "each spreader bar was inspected in the spring.",
        },
        {
            "key": "c2",
            "chunk_id": "m:2",
            "doc_id": "m",
            "text": "A spreader bar is a beam that keeps the slings of a lift apart.",
        },
    ]
    answer = compose("What is a spreader bar?", "definition", [], context, AnswerSettings(sentences=2))
    assert answer.startswith("A spreader bar is a beam")


def test_a_figure_question_leads_with_the_row_that_states_the_year_asked() -> None:
    context = [
        {
            "key": "c1",
            "chunk_id": "f:1",
            "doc_id": "f",
            "text": "Pump equipment purchases in 2018 rose because the plant added a line of pump equipment.",
        },
        {
            "key": "c2",
            "chunk_id": "f:2",
            "doc_id": "f",
            "text": "Purchases of pump equipment | 2018: 1,577 | 2017: 1,373",
        },
    ]
    answer = compose("What were the 2018 purchases of pump equipment?", "general", [], context, AnswerSettings())
    assert answer.startswith("Purchases of pump equipment | 2018: 1,577. [c2]") and "[c1]" in answer


def test_a_comparison_answer_reads_topic_by_topic() -> None:
    context = [
        {"key": "c1", "chunk_id": "q:1", "doc_id": "q", "text": "The QR-7 pump moves forty litres per minute."},
        {"key": "c2", "chunk_id": "z:1", "doc_id": "z", "text": "The ZX-9 valve seals the north line at forty bar."},
        {"key": "c3", "chunk_id": "z:2", "doc_id": "z", "text": "The ZX-9 valve is serviced every ninety days."},
    ]
    question = "What are the differences between the ZX-9 valve and the QR-7 pump?"
    reading = read_question(question)
    answer = compose(question, "compare", reading.topics, context, AnswerSettings())
    assert answer.startswith("ZX-9 valve: The ZX-9 valve seals")
    assert answer.index("QR-7 pump: The QR-7 pump moves") > answer.index("serviced every ninety days")
    assert check_citations(answer, context, 0.5)["refusal_reason"] is None


def test_each_part_of_a_comparison_opens_with_a_sentence_naming_its_topic() -> None:
    context = [
        {
            "key": "c1",
            "chunk_id": "q:1",
            "doc_id": "q",
            "text": "The pump housing of the line is rated for the pressure of the ZX-9 valve at the north end. "
            "The QR-7 pump moves forty litres per minute through the valve.",
        },
        {"key": "c2", "chunk_id": "z:1", "doc_id": "z", "text": "The ZX-9 valve seals the north line at forty bar."},
    ]
    question = "What are the differences between the ZX-9 valve and the QR-7 pump?"
    reading = read_question(question)
    answer = compose(question, "compare", reading.topics, context, AnswerSettings())
    assert answer.startswith("ZX-9 valve: ") and "QR-7 pump: The QR-7 pump moves forty litres" in answer


def test_a_comparison_of_figures_keeps_its_parts_in_topic_order() -> None:
    context = [
        {"key": "c1", "chunk_id": "q:1", "doc_id": "q", "text": "QR-7 pump pressure | 2019: 38 | 2018: 35"},
        {
            "key": "c2",
            "chunk_id": "z:1",
            "doc_id": "z",
            "text": "The ZX-9 valve held a pressure of forty bar in 2019 on the north line.",
        },
    ]
    question = "How does the pressure of the ZX-9 valve in 2019 compare to the QR-7 pump?"
    reading = read_question(question)
    answer = compose(question, "compare", reading.topics, context, AnswerSettings())
    # the row stating a figure of the year asked for is not moved out of its part to lead the answer
    assert answer.startswith("Pressure of the ZX-9 valve: The ZX-9 valve held")
    assert answer.endswith(" QR-7 pump pressure | 2019: 38. [c1]")  # its name opens the part: no label repeats it


def test_a_comparison_name_inside_another_is_not_the_other_topic() -> None:
    from agent.assess import _own_terms

    # "BERT" is a substring of "RoBERTa" but not one of its words: BERT is never anchored by the other topic.
    assert _own_terms("BERT", ["BERT", "RoBERTa"], ["BERT", "RoBERTa"], ["masking"]) == ["masking"]
    assert _own_terms("RoBERTa", ["BERT", "RoBERTa"], ["BERT", "RoBERTa"], ["masking"]) == ["masking"]


def test_a_rare_name_the_question_gives_must_be_in_the_evidence() -> None:
    reading = read_question("Has Zorblax Industries paid dividends in FY2022? Highest Sales matter.")
    assert reading.names == ["Zorblax"]  # "Industries", "Highest", "Sales" are ordinary words; "Has" opens
    other = hit("acme", "Acme Industries paid dividends to its shareholders in fiscal 2022.", 1)
    state = assess_state("Has Zorblax Industries paid dividends in FY2022?", [other])
    state["names"] = reading.names
    verdict = assess(state)
    assert not verdict.sufficient and verdict.missing_identifiers == ["Zorblax"]
    state["evidence"] = [hit("zorblax", "Zorblax Industries paid dividends to its shareholders in fiscal 2022.", 1)]
    assert assess(state).sufficient


def test_each_next_sentence_of_an_answer_says_something_new() -> None:
    # Sentence vectors by hand, in one passage: the two about speed say one thing in different words (little word
    # overlap, so the duplicate rule alone keeps both); the one about the seal, a little less like the question,
    # says another thing.
    vectors = {
        "What does the falcon pump do?": [1.0, 0.0, 0.0],
        "The falcon pump moves water through the pipes quickly.": [0.90, 0.436, 0.0],
        "Water is driven along the piping by the falcon pump at speed.": [0.89, 0.45, 0.07],
        "The falcon pump needs a new seal every winter.": [0.85, 0.0, 0.527],
    }

    def embed(texts: list[str]) -> np.ndarray:
        rows = np.array([vectors[t] for t in texts])
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)

    context = [{"key": "c1", "chunk_id": "p:1", "doc_id": "p", "text": " ".join(list(vectors)[1:])}]
    question = "What does the falcon pump do?"
    relevance_only = compose(question, "general", [], context, AnswerSettings(sentences=2, diversity=0), embed)
    assert "at speed" in relevance_only and "seal" not in relevance_only
    novel = compose(question, "general", [], context, AnswerSettings(sentences=2), embed)
    assert novel.startswith("The falcon pump moves water") and "seal" in novel and "at speed" not in novel


def test_a_comparison_of_three_topics_answers_each_in_its_part() -> None:
    context = [
        {"key": "c1", "chunk_id": "q:1", "doc_id": "q", "text": "The QR-7 pump moves forty litres per minute."},
        {"key": "c2", "chunk_id": "z:1", "doc_id": "z", "text": "The ZX-9 valve seals the north line at forty bar."},
        {"key": "c3", "chunk_id": "k:1", "doc_id": "k", "text": "The KT-4 gasket lasts about ninety days in service."},
    ]
    question = "Compare the ZX-9 valve, the QR-7 pump and the KT-4 gasket"
    reading = read_question(question)
    assert reading.topics == ["ZX-9 valve", "QR-7 pump", "KT-4 gasket"]
    answer = compose(question, "compare", reading.topics, context, AnswerSettings())
    parts = [answer.index(f"{t}: The {t}") for t in reading.topics]
    assert parts == sorted(parts) and parts[0] == 0
    assert check_citations(answer, context, 0.5)["refusal_reason"] is None


def test_the_answer_context_offers_the_subjects_documents_first() -> None:
    """Other documents ranking higher leave the subject's passages in the context, numbered first."""
    others = [{**hit("manual", f"Gates open at dawn in the {n}th yard.", n), "rank": n, "round": 1} for n in (1, 2, 3)]
    own = {**hit("guide", "A window of 8 is raised to 9 for raw gates.", 4), "rank": 4, "round": 1}
    state = {"evidence": [*others, own], "assessment": {"subject_docs": ["guide"]}}
    assert [c["chunk_id"] for c in context_of(state, 2)] == ["guide:4", "manual:1"]
    assert [c["chunk_id"] for c in context_of({"evidence": [*others, own]}, 2)] == ["manual:1", "manual:2"]
