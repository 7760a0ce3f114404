"""Hybrid search: tables by cell value, determinism, hit fields, filters, variants, neighbours, tokenizer."""

import itertools
import shutil

import pytest

from kb.base import KnowledgeBase
from kb.documents import DocumentMatch
from kb.lexical import LexicalIndex
from kb.page_units import Candidate
from kb.search import _fuse_margins, _shares, identifier_holders, written_holders
from kb.search_settings import SearchSettings
from kb.text import tokenize
from tests import layouts
from tests.searching import pages_by_setting


def test_table_found_by_cell_value(shared_kb: KnowledgeBase):
    hits = shared_kb.search("QX-7731", k=3)
    assert hits[0].doc_id == "report" and hits[0].start_page <= 2 <= hits[0].end_page
    assert "QX-7731 | Reading: 42.5" in hits[0].text
    assert hits[0].lexical_rank == 1


def test_hits_carry_scores_ranks_and_pages(shared_kb: KnowledgeBase):
    hits = shared_kb.search("which sensors failed after salt spray exposure", k=5)
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    top = hits[0]
    assert top.doc_id == "report" and top.start_page <= 3 <= top.end_page
    assert top.dense_score is not None and top.dense_rank is not None
    assert top.lexical_score is not None and top.lexical_rank is not None
    assert top.fused_score > 0 and top.section.startswith("3 Discussion")
    assert top.regions and top.regions[0].page == 3
    assert all(a.fused_score >= b.fused_score for a, b in itertools.pairwise(hits))


def test_search_is_deterministic_across_instances(shared_kb: KnowledgeBase):
    query = "humidity readings at the station"
    first = [h.model_dump() for h in shared_kb.search(query, k=8)]
    assert first == [h.model_dump() for h in shared_kb.search(query, k=8)]
    fresh = KnowledgeBase(shared_kb.settings)
    assert first == [h.model_dump() for h in fresh.search(query, k=8)]


def test_lexical_index_rebuilds_when_missing(shared_kb: KnowledgeBase):
    before = [h.chunk_id for h in shared_kb.search("torque wrench settings", k=5)]
    shutil.rmtree(shared_kb.settings.bm25_dir)
    fresh = KnowledgeBase(shared_kb.settings)
    assert [h.chunk_id for h in fresh.search("torque wrench settings", k=5)] == before


def test_document_filter(shared_kb: KnowledgeBase):
    hits = shared_kb.search("measurement", k=8, docs=["manual", "report"])
    assert hits and {h.doc_id for h in hits} <= {"manual", "report"}
    assert shared_kb.search("measurement", k=8, docs=["unknown"]) == []


def test_modes_and_variants(shared_kb: KnowledgeBase):
    dense = shared_kb.search("filter cartridge replacement", k=3, mode="dense")
    assert dense and all(h.lexical_rank is None for h in dense)
    lexical = shared_kb.search("filter cartridge replacement", k=3, mode="lexical")
    assert lexical and all(h.dense_rank is None for h in lexical)
    fused = shared_kb.search("pump controller", k=5, variants=["cobalt sensors salt spray"])
    assert {"manual", "report"} <= {h.doc_id for h in fused}


def test_neighbour_expansion(shared_kb: KnowledgeBase):
    hits = shared_kb.search("Sentence 3-30 reports measurement number 330", k=1, neighbours=1)
    main = hits[0]
    assert main.doc_id == "long" and main.neighbour_of is None
    beside = [h for h in hits if h.neighbour_of == main.chunk_id]
    assert beside and {abs(h.ordinal - main.ordinal) for h in beside} == {1}


def test_tokenizer_keeps_identifiers_whole_and_in_parts():
    tokens = tokenize("GPT-3.5 uses snake_case_name, ISO/IEC 27001, SHA256 and v2.1.0 models")
    for expected in ("gpt-3.5", "gpt", "3", "5", "snake_case_name", "snake", "case", "iso/iec", "iec", "27001"):
        assert expected in tokens, expected
    assert {"sha256", "sha", "256", "v2.1.0"} <= set(tokens)
    assert "model" in tokens and "and" not in tokens


def _adds_a_page(hits: list) -> list[bool]:
    covered: set[tuple[str, int]] = set()
    out = []
    for h in hits:
        pages = {(h.doc_id, p) for p in range(h.start_page, h.end_page + 1)}
        out.append(not pages <= covered)
        covered |= pages
    return out


def _chunk_unit(kb: KnowledgeBase) -> KnowledgeBase:
    search = kb.settings.search.model_copy(update={"unit": "chunk"})
    return KnowledgeBase(kb.settings.model_copy(update={"search": search}))


def test_chunks_from_pages_not_yet_listed_come_before_repeats(shared_kb: KnowledgeBase):
    query = "humidity readings at the station"
    chunks = _chunk_unit(shared_kb).search(query, k=20)  # more chunks than the matching pages
    flags = _adds_a_page(chunks)
    assert flags == sorted(flags, reverse=True) and not all(flags)  # repeats exist, and come last
    assert [h.repeats_page for h in chunks] == [not new for new in flags]  # shown in the UI beside the scores
    firsts = [h.fused_score for h, new in zip(chunks, flags, strict=True) if new]
    assert firsts == sorted(firsts, reverse=True)


def test_page_unit_lists_each_page_once_with_its_other_chunks(shared_kb: KnowledgeBase):
    query = "humidity readings at the station"
    chunks = _chunk_unit(shared_kb).search(query, k=30)
    pages = shared_kb.search(query, k=8)
    units = [(h.doc_id, h.start_page, h.end_page) for h in pages]
    assert len(units) == len(set(units)) and [h.rank for h in pages] == list(range(1, len(pages) + 1))
    assert all(a.fused_score >= b.fused_score for a, b in itertools.pairwise(pages))
    by_id = {h.chunk_id: h for h in chunks}
    for hit in pages:  # every chunk a page lists shares its pages, and scored below the one shown
        for cid in hit.page_chunks:
            other = by_id.get(cid)
            assert other is None or (other.doc_id, other.start_page, other.end_page) == (
                hit.doc_id,
                hit.start_page,
                hit.end_page,
            )
    assert any(h.page_chunks for h in pages)


def test_new_pages_first_on_made_up_candidates():
    from kb.page_units import Candidate, new_pages_first

    def cand(cid: str, start: int, end: int) -> Candidate:
        return Candidate({"chunk_id": cid, "doc_id": "d", "start_page": start, "end_page": end})

    ranked = [cand("a", 1, 1), cand("b", 1, 1), cand("c", 1, 2), cand("d", 2, 2), cand("e", 3, 3)]
    # "c" spans pages 1-2 and page 2 is new, so it stays; "d" then repeats page 2, "b" repeats page 1.
    assert [c.record["chunk_id"] for c in new_pages_first(ranked, 4)] == ["a", "c", "e", "b"]
    assert [c.repeats_page for c in ranked] == [False, True, False, True, False]
    # Fewer new pages than k: the repeats fill the rest, in fused order.
    assert [c.record["chunk_id"] for c in new_pages_first(ranked, 5)] == ["a", "c", "e", "b", "d"]
    assert [c.record["chunk_id"] for c in new_pages_first(ranked, 2)] == ["a", "c"]


def test_pages_ranked_by_their_chunks_on_made_up_candidates():
    from kb.page_units import Candidate, rank_pages

    def cand(cid: str, start: int, end: int, fused: float) -> Candidate:
        return Candidate({"chunk_id": cid, "doc_id": "d", "start_page": start, "end_page": end}, fused=fused)

    ranked = [cand("a", 1, 1, 0.030), cand("b", 2, 2, 0.028), cand("c", 2, 2, 0.020), cand("d", 2, 3, 0.019)]
    top = rank_pages(ranked, 3, support=0.5)
    # Page 2 holds two chunks: 0.028 + 0.5 * 0.020 = 0.038 beats page 1's single 0.030; the pair 2-3 is its own unit.
    assert [c.record["chunk_id"] for c in top] == ["b", "a", "d"]
    assert top[0].page_chunks == ["c"] and abs(top[0].fused - 0.038) < 1e-9
    alone = rank_pages(
        [cand(c.record["chunk_id"], *_pages(c), f) for c, f in zip(ranked, [0.03, 0.028, 0.02, 0.019])], 3, 0.0
    )
    assert [c.record["chunk_id"] for c in alone] == ["a", "b", "d"]  # no support: the best chunk decides


def _pages(c) -> tuple[int, int]:
    return c.record["start_page"], c.record["end_page"]


def test_neighbours_follow_their_hit_when_new_pages_come_first(shared_kb: KnowledgeBase):
    hits = _chunk_unit(shared_kb).search("humidity readings at the station", k=4, neighbours=1)
    ranked = [h for h in hits if h.neighbour_of is None]
    assert [h.rank for h in ranked] == [1, 2, 3, 4]
    for h in hits:
        if h.neighbour_of is not None:
            assert not h.repeats_page
            owner = next(r for r in ranked if r.chunk_id == h.neighbour_of)
            assert h.rank == owner.rank and h.doc_id == owner.doc_id


def test_the_knowledge_base_is_the_agents_declared_interface(shared_kb: KnowledgeBase):
    import inspect

    from agent.knowledge import Knowledge

    for name, member in inspect.getmembers(Knowledge, inspect.isfunction):
        if not name.startswith("_"):
            assert (
                list(inspect.signature(getattr(shared_kb, name)).parameters)
                == list(inspect.signature(member).parameters)[1:]
            ), name
    hit = shared_kb.search("torque wrench settings", k=1)[0]
    chunk = shared_kb.chunk(hit.chunk_id)
    assert chunk is not None and (chunk.doc_id, chunk.start_page, chunk.text) == (hit.doc_id, hit.start_page, hit.text)
    assert shared_kb.chunk("no-such-chunk") is None
    records = shared_kb.lexical().records
    first = min((r for r in records if r["doc_id"] == hit.doc_id), key=lambda r: r["ordinal"])
    after = shared_kb.following(first["chunk_id"])
    assert after is not None and (after.doc_id, after.ordinal) == (first["doc_id"], first["ordinal"] + 1)
    last = max((r for r in records if r["doc_id"] == hit.doc_id), key=lambda r: r["ordinal"])
    assert shared_kb.following(last["chunk_id"]) is None and shared_kb.following("no-such-chunk") is None
    assert shared_kb.embed(["a pump"]).shape[0] == 1


def test_bm25_margins_count_within_named_documents_only():
    def cand(chunk: str, doc: str, lexical: float | None) -> Candidate:
        return Candidate({"chunk_id": chunk, "doc_id": doc}, fused=0.03, lexical_score=lexical)

    pool = {c.record["chunk_id"]: c for c in [cand("a1", "a", 12.0), cand("a2", "a", 3.0), cand("b1", "b", 24.0)]}
    pool["a3"] = cand("a3", "a", None)  # found by dense search alone
    _fuse_margins(pool, {"a": DocumentMatch(doc_id="a", score=1.0, strength=0.8, terms=["a"])}, 0.01)
    # shares of the best candidate's score (24, a document not named), for the named document's chunks only
    assert pool["a1"].fused == pytest.approx(0.035) and pool["a2"].fused == pytest.approx(0.03125)
    assert pool["b1"].fused == 0.03 and pool["a3"].fused == 0.03


def test_a_rare_identifier_points_to_the_passages_holding_it_as_written():
    records = [
        {"chunk_id": "parts", "text": "The node copy routine: copy a node, then a node again (node, copy)."},
        {"chunk_id": "holder", "text": "int qp_copy_node (qp_node dst, const char * name) copies the node."},
        {"chunk_id": "other", "text": "qp_dup_node duplicates a node; see qp_copy_node_list for lists."},
        *({"chunk_id": f"many{i}", "text": f"XR-17 valve number {i}."} for i in range(5)),
    ]
    found = identifier_holders(records, "How does qp_copy_node differ from a plain copy?", most=3)
    assert [[r["chunk_id"] for r in holders] for holders in found] == [["holder"]]  # not "qp_copy_node_list"
    assert identifier_holders(records, "What is XR-17?", most=3) == []  # in five passages: not rare
    assert identifier_holders(records, "What happened in FY2019?", most=3) == []  # a period is no identifier


def test_fusion_by_scores_counts_how_far_a_leader_stands_out():
    settings = SearchSettings(fusion="scores", score_scale=4.0)
    far = _shares([10.0, 2.0, 1.9, 1.8, 1.7], settings)  # one passage far ahead
    near = _shares([2.1, 2.0, 1.9, 1.8, 1.7], settings)  # a narrow lead
    assert far[0] == pytest.approx(0.5, abs=0.01) and near[0] == pytest.approx(0.354, abs=0.01)
    assert far[1] == 0.0 < near[1]  # below the ranking's mean: nothing
    assert _shares([5.0], settings) == [0.0]  # one score alone stands out from nothing...
    assert _shares([5.0], settings, pad_to=60) == [1.0]  # ...but a lone BM25 match does, at most a first place


def test_both_fusions_rank_a_cell_value_first(shared_kb: KnowledgeBase):
    saved = shared_kb.settings.search
    try:
        for fusion in ("scores", "ranks"):
            shared_kb.settings.search = saved.model_copy(update={"fusion": fusion})
            top = shared_kb.search("QX-7731", k=3)[0]
            assert top.doc_id == "report" and "QX-7731 | Reading: 42.5" in top.text, fusion
    finally:
        shared_kb.settings.search = saved


def test_a_reference_list_ranks_below_the_page_that_discusses_its_words(tmp_path):
    pdf = layouts.references_pdf(tmp_path / "paper.pdf")
    pages = pages_by_setting(tmp_path, pdf, "silt settling in tidal basins", 2, "reference_factor", (1.0, 0.2))
    assert pages[1.0][0] == 2  # as found, the entries' titles led
    assert pages[0.2] == [1, 2]  # the list stays searchable, below the page that discusses it


def test_a_markup_element_named_by_its_tag_points_to_the_chunks_writing_the_tag() -> None:
    def record(n: int, doc: str, text: str) -> dict:
        return {"chunk_id": f"{doc}:{n}", "doc_id": doc, "ordinal": n, "title": "", "section": "", "text": text}

    records = [
        *(record(n, "policy", f"Packages must include file {n} and include its directory.") for n in range(6)),
        record(1, "config", "The <dir> element lists a directory to scan."),
        record(2, "config", '<include ignore_missing="no"> This element names a file or directory to include.'),
        record(3, "config", "Examples: <include>conf.d</include> loads a directory."),
    ]
    lexical = LexicalIndex(records, "fp")
    found = written_holders(lexical, "which files are loaded when <include> names a directory?", None, most=8)
    assert [[r["chunk_id"] for r in holders] for holders in found] == [["config:2", "config:3"]]  # best on BM25 first
    found = written_holders(lexical, "which examples of <include> load conf.d?", None, most=8)
    assert [[r["chunk_id"] for r in holders] for holders in found] == [["config:3", "config:2"]]
    assert written_holders(lexical, "which files does <include> load?", ["policy"], most=8) == []  # not in scope
    assert written_holders(lexical, "which files does <include> load?", None, most=1) == []  # two hold it: not rare
    assert written_holders(lexical, "which files does include load?", None, most=8) == []  # the bare word: no tag


def test_a_question_naming_an_element_by_its_tag_finds_the_page_writing_it(tmp_path):
    pdf = layouts.markup_manual_pdf(tmp_path / "manuals.pdf")
    question = "which files get loaded when <include> points at a directory?"
    pages = pages_by_setting(tmp_path, pdf, question, 2, "written_chunks", (0, 8))
    assert 4 not in pages[0]  # the word "include" of the policy pages wins on its own
    assert 4 in pages[8]  # the page writing the tag comes into the top two


def _manual(n: int, text: str) -> dict:
    """A chunk of the manual at a place in it."""
    return {"chunk_id": f"manual:{n}", "doc_id": "manual", "ordinal": n, "title": "", "section": "", "text": text}


def test_a_format_escape_points_to_the_chunks_writing_it() -> None:
    """Word search reads "%Q" as the letter q; the chunk whose entry opens with the escape explains it, a list of
    escapes only names it."""

    records = [
        *(_manual(n, f"Queue {n} holds a quick query; q and Q are keys.") for n in range(6)),
        _manual(6, "ESCAPES The escapes: %Q The digest of the gate. %h The gate. %q The pump."),
        _manual(7, "QzLogPath accepts the escapes %%, %Q, %h and %p."),
    ]
    lexical = LexicalIndex(records, "fp")
    found = written_holders(lexical, "What is the %Q token?", None, most=8)
    assert [r["chunk_id"] for r in found[0]] == ["manual:6"] and len(found) == 1  # its entry, not the list
    assert written_holders(lexical, "What is the %h token?", None, most=1) == []  # not rare enough
    assert written_holders(lexical, "What is the %Z token, at 50%?", None, most=8) == []  # written nowhere


def test_a_one_letter_option_points_to_the_chunk_whose_entry_opens_with_it() -> None:
    """Word search reads "-B" as the letter b; the chunk whose entry opens with the option explains it ("... -B [when
    built so] save a backup ..."), one naming it in passing does not, and "-b" is another option."""

    records = [
        *(_manual(n, f"Gate {n} is a b-gate; b and B are keys.") for n in range(6)),
        _manual(6, "Binary files. -b treat all files as binary. -B [when built so] save a backup copy of each file."),
        _manual(7, "With -B and -o together, no numbered copies are made."),
    ]
    lexical = LexicalIndex(records, "fp")
    found = written_holders(lexical, "What does qzip's -B option do?", None, most=8)
    assert [r["chunk_id"] for r in found[0]] == ["manual:6"] and len(found) == 1  # its entry, not the mention
    assert written_holders(lexical, "What does -Q do, at -1?", None, most=8) == []  # written nowhere; -1 no option
