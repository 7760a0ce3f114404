"""agent.gather: a round's search results as evidence: the row searches a stated ratio needs, and the merge that
keeps a chunk's better-ranked hit."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.gather import Readers, _after, entry_rests, merged, operand_probes, with_page_chunks
from agent.settings import AgentSettings
from tests.agent_fakes import chunk, mini_deps


@pytest.fixture
def agent_settings(tmp_path: Path) -> AgentSettings:
    return AgentSettings.for_preset("balanced", mode="extractive", runs_dir=tmp_path / "runs")


def test_a_row_sought_in_an_earlier_round_is_not_sought_again(agent_settings: AgentSettings) -> None:
    question = (
        "What is the FY2016 current ratio? Define it as total current assets divided by total current liabilities."
    )
    results = [{**chunk("acme", 0, "Total current liabilities | 2016: 500.75"), "document_score": 1.0, "rank": 1}]
    state = {"question": question, "query": question, "counters": {"tool_calls": 0}, "evidence": [], "rounds": []}
    _, search = mini_deps(results)
    assert list(operand_probes(state, results, search, agent_settings)) == ["total current assets 2016"]
    assert search.calls[-1]["docs"] == ["acme"]  # the document the question names
    state["rounds"] = [{"queries": [question, "total current assets 2016"]}]
    assert operand_probes(state, results, search, agent_settings) == {}


def test_the_merge_adds_new_chunks_once_as_their_better_ranked_hit() -> None:
    old = {**chunk("acme", 0, "Ferries sail hourly."), "rank": 1, "query": "ferries", "round": 1}
    low = {**chunk("acme", 1, "Total current assets | 2016: 1,001.5"), "rank": 3, "query": "the question"}
    high = {**low, "rank": 1, "query": "total current assets 2016"}
    again = {**old, "rank": 2, "query": "the question"}
    evidence, hits = merged([old], [again, low, high], 2)
    assert [(e["chunk_id"], e["rank"], e["query"], e["round"]) for e in evidence] == [
        (old["chunk_id"], 1, "ferries", 1),  # found in an earlier round: kept as it was
        (low["chunk_id"], 1, "total current assets 2016", 2),  # the round's better-ranked hit
    ]
    assert [(h["chunk_id"], h["rank"], h["new"]) for h in hits] == [
        (old["chunk_id"], 2, False),
        (low["chunk_id"], 3, True),
        (low["chunk_id"], 1, False),
    ]


def test_a_chunk_ending_in_an_announced_list_reads_on_into_the_next_chunks_items() -> None:
    announcing = chunk("guide", 0, "The seal fails in three ways, discussed in the next sections:")
    listing = chunk("guide", 1, "1. Wear of the lip. 2. Cracks from cold starts. Wear shows first.")
    finished = chunk("guide", 2, "The seal is replaced yearly.")
    following = {announcing["chunk_id"]: listing, finished["chunk_id"]: listing}.get
    assert _after(announcing, following)["runs_on"] == "1. Wear of the lip. 2. Cracks from cold starts."
    assert _after(finished, following)["runs_on"] == ""  # a finished sentence reads nothing on


def test_the_next_chunks_first_whole_sentence_is_kept_beside_each_hit() -> None:
    """Whether an entry a chunk ends in goes on, or another opens: the first sentence past what finishes its own."""
    cut = chunk("guide", 0, "QzMode Specifies the mode of the")
    after = chunk("guide", 1, "session it opens. QzLimit Sets the limit.")
    ends = chunk("guide", 2, "QzMode Specifies the mode.")
    following = {cut["chunk_id"]: after, ends["chunk_id"]: after}.get
    assert _after(cut, following) == {"runs_on": "session it opens.", "next_opening": "QzLimit Sets the limit."}
    assert _after(ends, following)["next_opening"] == "session it opens."
    assert _after(after, following) == {"runs_on": "", "next_opening": ""}  # the document's end


def test_an_entry_of_what_is_asked_that_goes_on_brings_in_the_next_chunk() -> None:
    """The chunk after a hit ending inside the QzLineMax= entry joins the evidence at the hit's rank; a hit ending in
    another entry, or whose next chunk opens another, or prose naming it in passing (no entry of its own, which no
    entry's end would close) brings in nothing."""
    doc = [
        chunk("manual", 0, "QzLineMax= The longest line to keep. Longer lines are split."),
        chunk("manual", 1, "Defaults to 48K. QzLevel= Sets the level."),
        chunk("manual", 2, "QzLevel= Sets the level of the log."),
        chunk("manual", 3, "QzMaxUse= Caps the disk space."),
        chunk("manual", 4, "Lines are split at QzLineMax=. QzRate= Limits the rate."),
        chunk("manual", 5, "The reader splits any line longer than QzLineMax= in two."),
        chunk("manual", 6, "By default the parts are joined again."),
        chunk("manual", 7, "Lines are cut at QzLineMax= as shown next. QzLineMax= The longest line to keep."),
        chunk("manual", 8, "It defaults to 48K, which fits one datagram."),
        chunk("manual", 9, "QzLineMax= The longest line to keep. Longer lines are split."),
        chunk("manual", 10, "QzRate= Limits the rate."),
    ]
    by_id = {c["chunk_id"]: c for c in doc}
    readers = Readers(chunk=by_id.get, following=lambda cid: by_id.get(f"manual:{int(cid.split(':')[1]) + 1:05d}"))
    hits = [{**doc[0], "rank": 2}, {**doc[2], "rank": 1}, {**doc[4], "rank": 3}, {**doc[5], "rank": 4}]
    results = with_page_chunks(hits, "QzLineMax= default?", readers, 0)
    rests = entry_rests(results, ["QzLineMax"], {}, readers, 3)
    assert [(r["chunk_id"], r["rank"], r["neighbour_of"]) for r in rests] == [("manual:00001", 2, "manual:00000")]
    assert rests[0]["next_opening"] == "QzLevel= Sets the level of the log."
    assert entry_rests(results, ["QzLineMax"], {}, readers, 0) == []
    assert entry_rests(results, [], {}, readers, 3) == []
    # A passing mention just before the entry opens is no reason to leave its rest out; an entry whose next chunk
    # opens another brings in nothing; a name that titles the document names every passage, no entry.
    more = with_page_chunks([{**doc[7], "rank": 1}, {**doc[9], "rank": 2}], "QzLineMax= default?", readers, 0)
    assert [r["chunk_id"] for r in entry_rests(more, ["QzLineMax"], {}, readers, 3)] == ["manual:00008"]
    titled = [{**h, "title": "QzLineMax= reference"} for h in more]
    assert entry_rests(titled, ["QzLineMax"], {}, readers, 3) == []
