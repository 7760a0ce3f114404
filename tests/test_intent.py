"""Reading a question (agent.intent): its intent, a comparison's topics, its key terms."""

from __future__ import annotations

import pytest

from agent.intent import plan_for, read_question


@pytest.mark.parametrize(
    ("question", "topics"),
    [
        ("What are the differences between BERT and RoBERTa?", ["BERT", "RoBERTa"]),
        ("Compare dynamic masking and static masking", ["dynamic masking", "static masking"]),
        ("GPT-2 vs BERT", ["GPT-2", "BERT"]),
        ("Compare the heron valve with the falcon pump in terms of cost", ["heron valve", "falcon pump"]),
        ("How does the heron valve differ from the falcon pump?", ["heron valve", "falcon pump"]),
        # A colon within a name ends no topic; one before a space does.
        ("How do Qz::Max-Wait and Qz::Min-Wait differ?", ["Qz::Max-Wait", "Qz::Min-Wait"]),
        ("ZX-9 vs QR-7: which one is faster?", ["ZX-9", "QR-7"]),
    ],
)
def test_compare_topics(question: str, topics: list[str]) -> None:
    reading = read_question(question)
    assert reading.intent == "compare" and reading.topics == topics and reading.error is None


@pytest.mark.parametrize(
    "question",
    [
        "How does Heron Pumps' operating margin in FY2022 compare to FY2021?",
        "How much did valve sales change in FY 2023 vs FY 2022?",
        "Compare 2019 and 2020 pump revenue",
    ],
)
def test_one_subject_in_two_periods_is_no_comparison_of_topics(question: str) -> None:
    reading = read_question(question)
    assert reading.intent == "general" and reading.topics == []
    assert {"2019", "2020"} <= set(reading.key_terms) or any(t.startswith("FY") for t in reading.key_terms)


def test_identical_topics_rejected() -> None:
    assert "two different topics" in read_question("BERT vs bert").error
    operators = read_question("Is there any difference between x++ and ++x in Q-Lang?")  # a symbol's place counts
    assert operators.topics == ["x++", "++x"] and operators.error is None


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("What is a masked language model?", "definition"),
        ("Define dynamic masking", "definition"),
        ("What does NSP stand for?", "definition"),
        ("How do I replace the filter cartridge?", "procedure"),
        ("What are the steps to install the pump controller?", "procedure"),
        ("My primary gate log is corrupted. How do I open the gate from a backup one?", "procedure"),  # after a story
        ("The gate knows how I open it.", "general"),
        ("With qz_set, how do I remove an optional gate?", "procedure"),  # after a clause
        ("How should a gate keeper open the lock?", "procedure"),
        ("What must the installer do after copying the gate file?", "procedure"),
        ("How does a client pick gate numbers?", "general"),  # how a thing works
        ("What are the two main tasks BERT is pre-trained on?", "general"),
    ],
)
def test_intents(question: str, intent: str) -> None:
    assert read_question(question).intent == intent


def test_key_terms_put_identifiers_first() -> None:
    reading = read_question("Which torque does the QX-7731 pump controller need?")
    assert reading.identifiers == ["QX-7731"]
    assert reading.key_terms[0] == "QX-7731" and "which" not in [t.lower() for t in reading.key_terms]


def test_a_pronoun_is_no_topic_and_prepositions_do_not_open_one() -> None:
    assert read_question("How does it compare to the QR-7 pump?").intent != "compare"
    assert read_question("How does the ZX-9 valve compare to the QR-7 pump?").topics == ["ZX-9 valve", "QR-7 pump"]
    assert read_question("Compare the ZX-9 valve with the QR-7 pump").topics == ["ZX-9 valve", "QR-7 pump"]


@pytest.mark.parametrize(
    ("question", "topics"),
    [
        ("How do the ZX-9 valve and the QR-7 pump differ?", ["ZX-9 valve", "QR-7 pump"]),
        ("How do ZX-9 and QR-7 compare in pressure?", ["ZX-9", "QR-7"]),
        ("Which is cheaper, ZX-9 or QR-7?", ["ZX-9", "QR-7"]),
        ("Is ZX-9-512 or ZX-9-1024 recommended for general use?", ["ZX-9-512", "ZX-9-1024"]),
        ("ZX-9 or QR-7: which one seals faster?", ["ZX-9", "QR-7"]),
        ("Does the Heron valve perform better than the Falcon pump?", ["Heron valve", "Falcon pump"]),
        ("Compare the seal and bore sizes of ZX-9 and QR-7", ["ZX-9", "QR-7"]),
    ],
)
def test_every_form_of_comparison_the_issue_names_is_read(question: str, topics: list[str]) -> None:
    reading = read_question(question)
    assert reading.intent == "compare" and reading.topics == topics and reading.error is None


@pytest.mark.parametrize(
    "question",
    [
        "Is it cheaper or faster?",  # no names on either side: not a choice between two things
        "Is revenue higher than expected?",
        "Are there more than five valves?",
        "Is the 2019 or 2020 margin higher?",  # one subject in two periods
    ],
)
def test_an_or_or_than_between_unnamed_things_is_no_comparison(question: str) -> None:
    assert read_question(question).intent != "compare"


@pytest.mark.parametrize(
    ("question", "topics"),
    [
        ("How does the Heron valve's pressure compare to ZX-9 and QR-7?", ["Heron valve pressure", "ZX-9", "QR-7"]),
        ("Compare ZX-9, QR-7 and KT-4", ["ZX-9", "QR-7", "KT-4"]),
        ("ZX-9-512 vs ZX-9-768 vs ZX-9-1024", ["ZX-9-512", "ZX-9-768", "ZX-9-1024"]),
        ("Is the Heron valve better than ZX-9 or QR-7?", ["Heron valve", "ZX-9", "QR-7"]),
    ],
)
def test_a_side_listing_named_things_is_a_topic_for_each(question: str, topics: list[str]) -> None:
    reading = read_question(question)
    assert reading.intent == "compare" and reading.topics == topics and reading.error is None
    assert plan_for(reading)[0] == "retrieve evidence on " + " and on ".join(map(repr, topics))


def test_a_side_listing_plain_words_stays_one_topic() -> None:
    assert read_question("What are the differences between cost and risk of valves?").topics == [
        "cost",
        "risk of valves",
    ]
    assert read_question("Compare the valve with the seal and gasket").topics == ["valve", "seal and gasket"]


def test_topics_differing_only_in_a_letter_are_different_but_a_name_twice_is_not() -> None:
    assert read_question("Model A vs Model B").error is None
    assert read_question("How do Model A and Model B differ from Model C?").topics == ["Model A", "Model B", "Model C"]
    assert "named twice" in read_question("Compare ZX-9, QR-7 and ZX-9").error


def test_quoted_symbols_are_two_topics_of_their_own() -> None:
    """An operator in quotes is a topic ("'+' vs '|' in an expression"): its quotes go, and two symbols differ."""
    reading = read_question("'+' vs '|' in a gate expression: which one wins when both set a valve?")
    assert reading.intent == "compare" and reading.topics == ["+", "|"] and reading.error is None


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("What does LKP stand for in the context of the sluice?", ["LKP", "sluice"]),
        ('What counts as "gate state" kept under the desk?', ["gate", "state", "kept", "desk"]),
        ("What is meant by a lock flight?", ["lock", "flight"]),
        ("Which part of the sluice manual covers qz_gate_open()?", ["qz_gate_open"]),  # asked where it is written
        ("Which chapter explains how the gate hides its range?", ["gate", "hides", "range"]),
        ("Which section of the qzgate(7) page documents QZ_IN and QZ_OUT?", ["QZ_IN", "QZ_OUT"]),
        ("Which section of qzgate(7) gives the rule for new gate sets?", ["rule", "new", "gate", "sets"]),
        ("What part of the gate wears first?", ["part", "gate", "wears", "first"]),  # a part of the thing itself
        ("What triggers ERR_QZ_FULL, and how does it relate to qz_open()?", ["ERR_QZ_FULL", "qz_open"]),
        ("What does the error code ERR_QZ_FULL indicate?", ["ERR_QZ_FULL", "error", "code"]),
        ("What is the problem with EQZ and how do I fix it?", ["EQZ"]),
        ("QZ_GATE_BIND: what does it permit?", ["QZ_GATE_BIND"]),  # what a named thing allows is what is asked
        ("Which permits are needed for hot work?", ["permits", "needed", "hot", "work"]),  # permits named
        ("How many gates can QZ_WATCH hold at the same time?", ["QZ_WATCH", "gates", "hold"]),  # at once
        ("What is QZ_FORTIFY meant to do?", ["QZ_FORTIFY"]),  # what it is for is what is asked
        ("What is the usual lift of a gate?", ["lift", "gate"]),  # as "usually": how often the reader meets it
    ],
)
def test_phrases_framing_what_is_asked_are_no_key_terms(question: str, terms: list[str]) -> None:
    assert read_question(question).key_terms == terms


def test_asked_which_section_covers_a_vs_b_is_no_comparison() -> None:
    """The answer is a part's name; "lazy vs eager gate binding" is the subject it covers, not two topics."""
    reading = read_question("Which section of the sluice guide covers the flags for lazy vs eager gate binding?")
    assert reading.intent != "compare" and reading.topics == []
    assert read_question("The flags for lazy vs eager gate binding").intent == "compare"


def test_a_choice_between_paths_before_a_colon_is_a_comparison() -> None:
    reading = read_question("/bin or /sbin: where should a tool go that every user runs?")
    assert reading.intent == "compare" and reading.topics == ["/bin", "/sbin"]
    assert read_question("Where should the file go, /usr or /opt?").topics == ["/usr", "/opt"]
    assert read_question("Revenue or profit: which grew faster?").intent != "compare"  # no names


@pytest.mark.parametrize(
    ("question", "topics"),
    [
        ("Is the default port of the ZX-9 controller 22 or 2222?", []),  # figures, not names
        ("Which revision should I use, 1.2 or 1.3?", []),
        ("Does the ZX-9 controller support TLS or SSH?", []),  # a yes/no question about two things
        ("Is the return on equity of Heron higher than Falcon's?", []),  # cleaned to "return": no name left
        ("Is the ZX-9 rather than the QR-7 recommended?", []),
        ("Which is fastest, ZX-9, QR-7 or KT-4?", ["ZX-9", "QR-7", "KT-4"]),
        ("Which is fastest, ZX-9, QR-7, or KT-4?", ["ZX-9", "QR-7", "KT-4"]),
        ("What is the difference between ZX-9 and QR-7, according to Hale et al.?", ["ZX-9", "QR-7"]),
        ("Compare ZX-9 and QR-7, as described by Table 4", ["ZX-9", "QR-7"]),
        ("How do Heron and Falcon differ from KT-4?", ["Heron and Falcon", "KT-4"]),  # one name, as "A and B Inc"
        ("Did Heron earn more revenue than Falcon in 2022?", ["Heron", "Falcon"]),
        ("Compare Heron, Falcon and Osprey", ["Heron", "Falcon", "Osprey"]),
        ("How do Heron, Falcon, and Osprey differ?", ["Heron", "Falcon", "Osprey"]),  # no topic "and Osprey"
        ("What sets the ZX-9 apart from controllers like QR-7, KT-4, and LM-2?", []),  # examples, not a choice
        ("What latencies (QR-7 vs KT-4) does the ZX-9 manual assume?", []),  # an aside, not the question's sides
        ("Compare ZX-9 and QR-7 as controllers for the sluice", ["ZX-9", "QR-7"]),  # "as" names a role
        ("Compare the AS/400 and the System/38", ["AS/400", "System/38"]),  # a name, not the role word
        ("Compare ZX-9 with QR-7 as well as KT-4", ["ZX-9", "QR-7", "KT-4"]),
        (
            "Compare the low-level and high-level gates of the ZX-9",
            ["low-level gates of the ZX-9", "high-level gates of the ZX-9"],
        ),
        ("What is the difference between revenue and net income of Heron?", ["revenue", "net income of Heron"]),
    ],
)
def test_what_is_no_comparison_and_how_lists_and_clauses_split(question: str, topics: list[str]) -> None:
    reading = read_question(question)
    assert reading.topics == topics and (reading.intent == "compare") == bool(topics)


def test_a_verbs_ing_form_before_a_name_leaves_the_named_thing_as_the_topic() -> None:
    reading = read_question("Does asking QZ-256 for a longer output give more strength than QX-256?")
    assert reading.intent == "compare" and reading.topics == ["QZ-256", "QX-256"]
    # A plain word after it names nothing: the side stays as it is ("training data" is the thing compared).
    assert read_question("Is training data from QZ-9 larger than QX-7?").topics[0] == "training data from QZ-9"


def test_a_name_in_code_in_parentheses_is_an_identifier_not_an_abbreviation() -> None:
    reading = read_question("How many octets is the block size of QZ-256 (QZ_256_BLOCK_SIZE)?")
    assert "QZ_256_BLOCK_SIZE" in reading.identifiers
    assert "DPO" not in read_question("What are the days payable outstanding (DPO) of Heron?").identifiers
    # A variable expanded as "$(QZARCH)" is named, not spelled out by the words before it.
    assert "QZARCH" in read_question("What does $(QZARCH) turn into in the suite field?").identifiers


def test_a_capitalised_word_opening_a_sentence_is_a_name_when_the_question_writes_it_so_elsewhere() -> None:
    assert read_question("Zorblax died with a failed assertion. Is that a Zorblax bug?").names == ["Zorblax"]
    assert read_question("Zorblax died. Why did it fail?").names == []  # a rare word opening its only sentence


def test_a_name_told_apart_by_a_number_must_be_found_with_it() -> None:
    """ "Level 5" is a name the evidence must hold as written; a section, a table or a date is no such name."""
    assert read_question("Which code does the gate assign to Level 5 Shift?").names == ["Level 5"]
    assert read_question("What does Table 2 give for May 3 and for Tier 1?").names == ["Tier 1"]
    assert read_question("About 10 gates failed with EQZ. What does Fig 3 show?").names == []  # a count, a figure


def test_a_situation_told_before_the_question_is_its_story() -> None:
    """The story's words (not its identifiers) anchor but need no cover; no identifier, or no statement, no story."""
    reading = read_question("My script opens many files and crashes with EQZ. What does that mean?")
    assert "EQZ" in reading.key_terms and "EQZ" not in reading.story and {"script", "crashes"} <= set(reading.story)
    assert read_question("My script opens many files. What does that mean?").story == []
    assert read_question("What does EQZ mean when my script crashes?").story == []
    assert read_question("The pump fails with EQZ. What is going on?").key_terms == ["EQZ", "pump", "fails"]
    assert read_question("The pump fails with EQZ. What went wrong?").key_terms == ["EQZ", "pump", "fails"]
    assert read_question("The pump fails with EQZ. What am I doing wrong?").key_terms == ["EQZ", "pump", "fails"]
    assert "wrong" in read_question("What do wrong readings of the pump look like?").key_terms  # an adjective
    # The reader speaking of themself ("am I") asks; it names nothing the evidence must hold.
    assert "am" not in read_question("The pump stops with EQZ. Which limit am I over?").key_terms
    assert "AM" in read_question("What does AM stand for in the pump's radio settings?").key_terms  # an acronym


def test_a_storys_names_need_no_cover_when_the_question_names_its_own() -> None:
    """ "I'm used to QZ-1. How do I make qzsh use Ctrl-a ...?": QZ-1 is where the reader comes from, not what is
    asked about; "... crashes with EQZ. What does that mean?" asks about EQZ."""
    reading = read_question("I'm used to QZ-1 keys. How do I set qzsh's prefix key in ~/.qzsh.conf?")
    assert reading.identifiers == [] and {"QZ-1", "keys"} <= set(reading.story) and "I'm" not in reading.key_terms
    # A rare name alone asks about it beside the story's names: those stay ("... error 0x1f. Does Qzplan fix it?").
    assert read_question("My eth0 link drops with error 0x1f. Does Qzplan fix that?").identifiers == ["eth0", "0x1f"]
    assert read_question("My script crashes with EQZ. What does that mean?").identifiers == ["EQZ"]


def test_a_question_saying_enough_of_its_own_leaves_the_storys_names_to_the_story() -> None:
    """ "I've got a QZ backup disk ... Which options keep it from being mounted at boot ...?" asks about options: the
    reader's "QZ" disk is context; "... crashes with EQZ. Why does it crash?" still asks about EQZ."""
    told = "I've got a QZ backup disk that is often unplugged. Which options keep it from being mounted at boot?"
    assert read_question(told).identifiers == ["QZ"]  # without a threshold, as before
    reading = read_question(told, own_terms=3)
    assert reading.identifiers == [] and "QZ" in reading.story
    assert read_question("My script crashes with EQZ. Why does it crash?", own_terms=3).identifiers == ["EQZ"]


def test_judging_what_a_story_told_is_no_term() -> None:
    """ "... returns early with EQZ. Is that expected?" asks whether the story is so: "expected" is no term."""
    reading = read_question("My qzd sleeps with QZ_WAIT, yet it wakes early with EQZ. Is that expected?")
    assert reading.identifiers == ["QZ_WAIT", "EQZ"] and "expected" not in reading.key_terms
    assert "expected" in read_question("What is the expected output of qzd?").key_terms


def test_code_written_as_typed_is_read_as_written() -> None:
    """Long options and calls (a method by its own name); a manual page's name with its section is no call."""
    assert read_question("What does qz's --qz-errors option do?").written == ["--qz-errors"]
    assert read_question("What do x.glue(parts) and qz_run() return in qzgate(7)?").written == ["glue()", "qz_run()"]
    assert read_question("Is f(x) or E(X) limited to 5 attachment(s)?").written == []  # notation, a plural
    # A short option keeps its case; a hyphen within a word or an option's value is none.
    assert read_question("qzgate -k vs -K, and does -z-4 or e-mail -- work?").written == ["-k", "-K"]
    # A format's escape as written ("%Q"; search reads only "q"), not a share ("50%") nor a literal percent ("%%").
    assert read_question("What does %Q print in a --format string, at 50% or %%?").written == ["%Q", "--format"]


def test_a_name_in_a_framing_phrase_is_still_a_name() -> None:
    """ "which section of the Zorblax guide covers X": the guide's words are no terms, but its name must be there."""
    reading = read_question("Which section of the Zorblax guide describes the gate's loop clause?")
    assert reading.names == ["Zorblax"] and "guide" not in reading.key_terms
    assert read_question("Which section of the user guide describes the gate's loop clause?").names == []
    assert read_question("Which section of the QZ 9001 standard defines a sluice?").names == ["QZ", "9001"]


def test_an_asides_abbreviations_and_a_contrasts_adverb_are_no_terms() -> None:
    reading = read_question("Does the gate close first, i.e. does it give 4 rather than 5?")
    assert not {"i.e", "rather"} & set(reading.key_terms)


def test_a_topic_written_in_quotes_is_named_as_written() -> None:
    """'"Lock: source"' keeps its colon: a quoted topic is no phrase to cut at its tail."""
    reading = read_question('How do "Lock: source" and "Lock: batch b=" differ in a gate record?')
    assert reading.intent == "compare" and reading.topics == ["Lock: source", "Lock: batch b="]


def test_a_unit_after_a_number_is_no_identifier() -> None:
    """ "10 GB" is a quantity a document may write "10G": no name the evidence must hold as written."""
    reading = read_question("With about 10 GB free and a 3 GHz clock, how many QZ_JOBS run?")
    assert reading.identifiers == ["QZ_JOBS"] and "GB" in reading.key_terms


def test_a_setting_written_as_set_is_a_name() -> None:
    """ "Keep=true", "flush=": a setting written as it is set names it, whatever its word; "x = 3" sets none."""
    reading = read_question("Where on disk does qzd keep the stamp of a gate with Keep=true — what's the path?")
    assert reading.identifiers == ["Keep"]
    assert "flush" in read_question("What is the largest value I can give to the flush= option?").identifiers
    assert read_question("If x = 3, what is the gate's width?").identifiers == []


def test_a_value_after_a_code_noun_is_what_is_asked_about() -> None:
    """ "What does an exit status of 17 mean?": the evidence must hold 17, not only other statuses."""
    assert read_question("What does an exit status of 17 from qzip mean?").identifiers == ["17"]
    assert "0x1F" in read_question("What does error 0x1F mean in qzlib?").identifiers
    assert read_question("How many gates does qzd open at 17 sites?").identifiers == []


def test_an_acronyms_plural_is_a_plain_term_not_a_name_the_evidence_must_print() -> None:
    reading = read_question("Why is QZ_ECHO=yes discouraged on production machines, particularly cloud VMs?")
    assert "VMs" in reading.key_terms and "VMs" not in [*reading.identifiers, *reading.names]
    assert read_question("Which VM does the QZ-9 pier host?").identifiers == ["VM", "QZ-9"]


def test_an_acronym_joined_to_ordinary_words_describes_and_names_nothing() -> None:
    """ "a CPU-heavy job" is a job using much CPU time, however a passage puts it; "QZ-9", "UTF-8", "QZ-agent" (a
    program) and "QZ-zorbgate" (a rare word) still name things."""
    reading = read_question("Why does a CPU-heavy job in one window slow an I/O-bound, TCP/IP-based job?")
    assert reading.identifiers == [] and {"CPU-heavy", "I/O-bound", "TCP/IP-based"} <= set(reading.key_terms)
    assert read_question("Does the QZ-9 pier read UTF-8 names?").identifiers == ["QZ-9", "UTF-8"]
    assert read_question("What does QZ-zorbgate do?").identifiers == ["QZ-zorbgate"]
    assert read_question("Which socket does QZ-agent listen on?").identifiers == ["QZ-agent"]
