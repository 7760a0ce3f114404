"""Definition questions prefer the passage that defines the term (invented examples)."""

import pytest

from kb.base import KnowledgeBase
from kb.definitions import defined_term, defines, defining_rank
from kb.settings import KBSettings
from tests.layouts import glossary_pdf


@pytest.mark.parametrize(
    ("need", "term"),
    [
        ("What does LKP stand for?", "LKP"),
        ("what does the acronym SPW mean", "SPW"),
        ("Define sluice paddle winch", "sluice paddle winch"),
        ("What is meant by a lock flight?", "lock flight"),
        ("What is a lock keeper?", "lock keeper"),
        ("What is the FY2020 gate count?", ""),  # a figure, not a term
        ("What is the reason the gates were rebuilt after the flood?", ""),  # a topic, not a term
        ("How do keepers work the gates?", ""),
        ("In the canal manual, what does LKP stand for and which rule defines it?", "LKP"),  # where, and more
        ("What is a sluice paddle used for?", "sluice paddle"),
        ("What was the LKP?", "LKP"),
        ("What does LKP stand for in the context of /var/gate?", "LKP"),
        ("Answer briefly: what does LKP stand for in the canal manual?", ""),  # the need is read first
        ("What was the gate count of the north lock?", ""),  # a figure of the past, not a name
        ("What were the main findings?", ""),
        ("What does this mean for keepers?", ""),
        ("lock flight - what is it?", "lock flight"),  # a term put first, then asked about
        ("LKP: what's that?", "LKP"),
        ("How do keepers work the gates - what is it?", ""),
        ("Tell me about lock flights - what are they?", ""),  # a request, not a term
        ('In the manual, what is the gate\'s "lock state"?', "lock state"),  # the quoted phrase, not its owner
        ("What is “lock flight” in canal terms?", "lock flight"),
        ("When the loader expands the $QZROOT token, what does it stand for?", "QZROOT"),  # named, then "it"
        ("The keeper's log says 'lock flight'; what does that mean?", "lock flight"),
        ("I saw LKP and SPW in the log, what do they mean?", ""),  # which one?
        ("How do keepers work the gates, what does it mean?", ""),  # nothing named
        ("When the loader reads QZROOT's value, what does it stand for?", "QZROOT"),  # the name, not its possessive
        ("When QZ_MODE=2, what does it mean?", "QZ_MODE"),
        ("The gate stopped after I set QZ_MODE to 2, what does this mean?", ""),  # what happened, not a term
    ],
)
def test_the_term_a_question_asks_to_define(need: str, term: str):
    assert defined_term(need) == term


def test_defining_passages_rank_by_how_they_define():
    records = [
        {"chunk_id": "uses", "section": "3 Working", "text": "The LKP shows the level; the LKP logs commands."},
        {"chunk_id": "sentence", "section": "1 Scope", "text": "Here the LKP is the desk of the keeper."},
        {"chunk_id": "expands", "section": "1 Scope", "text": "The lock keeper panel (LKP) sits by the gate."},
        {"chunk_id": "glossary", "section": "2 Terms and definitions", "text": "LKP: lock keeper panel"},
        {"chunk_id": "goes on", "section": "4 Panels", "text": "A lock keeper panel (LKP, as per rule 7) is fitted."},
    ]
    order = ["glossary", "expands", "goes on", "sentence"]
    assert [r["chunk_id"] for r in defining_rank(records, "LKP")] == order


@pytest.mark.parametrize(
    ("text", "strength"),
    [
        ("This manual specifies a control desk called the LKP.", 1),
        ("The desk, known as LKP, sits by the gate.", 1),
        ("We introduce LKP, a desk for lock keepers.", 1),
        ("Such desks are called LKPs (lock keeper panels) here.", 3),  # a plural, named and expanded
        ("A second desk is called the LKP-2.", 0),  # another name that starts with the term
        ("Unlike LKP, the winch desk logs nothing.", 0),
        ("We introduce the LKP and the winch.", 0),
    ],
)
def test_a_name_given_to_what_a_sentence_describes_is_a_definition(text: str, strength: int) -> None:
    assert defines(text, "LKP") == strength


@pytest.fixture(scope="module")
def practice(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    root = tmp_path_factory.mktemp("glossary")
    glossary_pdf(root / "practice.pdf")
    kb = KnowledgeBase(KBSettings(store_dir=root / "store", parse_workers=1))
    assert not kb.ingest([root / "practice.pdf"]).failed
    return kb


def test_a_definition_question_finds_the_definitions_section(practice: KnowledgeBase):
    hit = practice.search("What does LKP stand for?", k=3)[0]
    assert hit.start_page == 2 and hit.defines == "LKP"
    search = practice.settings.search.model_copy(update={"definition_weight": 0.0})
    plain = KnowledgeBase(practice.settings.model_copy(update={"search": search}))
    assert plain.search("What does LKP stand for?", k=3)[0].start_page != 2  # the pages using it most win otherwise
