"""Evidence checks of agent.assess: a question asking for a count or a value needs a passage naming the subject
beside a value, or it is refused with the subject named; a question's terms must be found together on one page,
not one by one in passing mentions."""

import pytest

from agent.assess import assess, together, topic_hits
from agent.evidence import term_covered, token_set
from agent.intent import read_question
from agent.settings import AgentSettings
from agent.types import Assessment
from agent.value_forms import asked_form, stated_values
from agent.value_questions import asks_value, measure_noun, measured_phrase
from agent.values import asked_bounds, stated_bounds
from kb.text import squashed
from tests.test_agent_units import assess_state, hit

QUESTION = "What numeric value is QZ_MAX_DEPTH defined to in the qzlib library?"


def _state(evidence: list[dict]) -> dict:
    manual = [{**h, "title": "The qzlib library manual"} for h in evidence]
    return {**assess_state(QUESTION, manual), "question": QUESTION}


def _verdict(question: str, evidence: list[dict]) -> Assessment:
    """The assessment of the evidence for a question asked as it stands."""
    return assess({**assess_state(question, evidence), "question": question})


@pytest.mark.parametrize(
    "question, expected",
    [
        (QUESTION, True),
        ("How many parameter sets does the scheme define?", True),
        ("By how much did revenue grow in 2021?", True),
        ("What is the number of rounds?", True),
        ("What does QZ_MAX_DEPTH control?", False),
        ("What is the revenue amount for 2021?", False),  # a row answers it beside a label worded otherwise
        ("What minimum size does the manual require for a boot partition?", True),
        ("What is the maximum weight of a glob?", True),
        ("How long does the pump run?", True),
        ("What counts as a valve?", False),
        ("What limits the pump's throughput?", False),  # a verb, not the noun of a measure
        ("Which files cap the pump, and what does each limit?", False),  # a verb after its subject
        ("What size does the pump's buffer default to?", True),
        ("What is the default shell of the desk?", False),  # a default need not be a figure
        ("How often is the filter replaced?", True),  # a time or a frequency ("monthly")
        ("Which numeric exit status does the gate return then?", True),  # a number
        ("What exit code does the gate end with?", True),
        ("What does the exit status of the gate mean?", False),  # its meaning
        ("What is the interval, in seconds, between two checks?", True),  # a unit closing a clause
        ("What is that default gate pitch, in Hz?", True),  # a frequency
        ("gate pipe buffer size in bytes for a pump's outlet", True),  # a terse query: a measure in a unit
        ("QZ_GATE_KEY numeric constant value", True),  # a terse query: a word between "numeric" and "value"
        ("How do I turn a numeric cell value into text in Qzcalc?", False),  # a kind of cell, no value asked
        ("What is stored in bits 4-7 of the status register?", False),  # a unit naming a place
        ("What must be recorded in minutes of board meetings?", False),
        ("How can I find out how many gates are open?", False),  # the way to find a count
        ("How do I check how much space the gate uses, and what is its maximum size?", True),
    ],
)
def test_questions_asking_for_a_count_or_a_value(question: str, expected: bool) -> None:
    assert asks_value(question) is expected


def test_values_are_figures_standing_on_their_own_or_small_counts_in_words() -> None:
    assert stated_values("The limit is 64 bytes, up from 1.5%, in three steps.") == {"64", "1.5%", "three"}
    assert stated_values("See ASN.1 and x86 support in qz2 since 2nd release.") == set()
    # A release a thing came with, a manual page's section and a call's argument state no value of it.
    assert stated_values("Since Kestrel 3.2, the file holds the highest gate; see qzcap(8).", "figure") == set()
    assert stated_values("It is 64 since Kestrel 2.6.25 and 128 in version 3; f(2) rose from 2.5.", "figure") == {
        "64",
        "128",
        "2.5",
    }
    # An amount after a currency is a figure; a column's width in brackets is one; a lower-case release is none.
    money = "It saved EUR 2.4 million, from USD 1.5 billion; BUF(255) holds it since qzlib 2.17."
    assert stated_values(money, "figure") == {"2.4", "1.5", "255"}


def test_a_subject_never_named_beside_a_value_is_refused_with_its_name() -> None:
    mention = hit("manual", "QZ_MAX_DEPTH is the deepest nesting defined. Release 3.7 added streaming.")
    verdict = assess(_state([mention]))
    assert verdict.failing == "value_stated"
    assert verdict.reasons[-1].detail == "no passage states a value for QZ_MAX_DEPTH"  # 3.7 names a release
    question = "What numeric value does qz_max_key default to?"  # what is measured is the subject: named once
    state = {
        **assess_state(question, [hit("manual", "qz_max_key sets the default key. Version 3 added it.")]),
        "question": question,
    }
    assert assess(state).reasons[-1].detail == "no passage states a value for qz_max_key"
    # A default asked for may be a word: "sets the default key" states none of qz_max_key's.
    question = "What is the default value of qz_max_key?"
    state = {
        **assess_state(question, [hit("manual", "qz_max_key sets the default key. Version 3 added it. QZ_A Sets.")]),
        "question": question,
    }
    assert assess(state).reasons[-1].detail == "no passage states a default for qz_max_key"


def test_a_passage_naming_the_subject_beside_a_value_is_enough() -> None:
    value = hit("manual", "QZ_MAX_DEPTH is the deepest nesting the parser accepts; it is defined to 64.", 2)
    assert assess(_state([value])).sufficient


def test_a_value_the_question_already_gives_is_no_answer() -> None:
    question = "How many levels beyond 8 does QZ_MAX_DEPTH allow in the qzlib library?"
    echo = hit("manual", "QZ_MAX_DEPTH allows nesting beyond 8 levels in the qzlib library.")
    verdict = _verdict(question, [echo])
    assert verdict.failing == "value_stated"


def test_a_document_titled_with_the_subject_states_its_values_in_any_sentence() -> None:
    question = "How many plants did ZX-9 Corp operate in 2021?"
    row = {**hit("zx", "Plants in operation | 2021: 14 | 2020: 12"), "title": "ZX-9 Corp Annual Report 2021"}
    verdict = _verdict(question, [row])
    assert "value_stated" not in {r.check for r in verdict.reasons if not r.ok}


def _paged(doc: str, text: str, page: int) -> dict:
    return {**hit(doc, text, page), "start_page": page, "end_page": page}


SCATTERED = "Which command-line switch puts qzpack into verbose logging?"


def test_terms_found_only_one_by_one_in_passing_are_refused() -> None:
    evidence = [
        _paged("guide", "The qzpack tool rebuilds the cache after an install.", 2),
        _paged("guide", "Every command-line program of the suite reads its configuration first.", 5),
        _paged("guide", "Logging goes to the system journal.", 7),
    ]
    verdict = assess({**assess_state(SCATTERED, evidence), "question": SCATTERED})
    assert verdict.failing == "terms_together"
    check = next(r for r in verdict.reasons if r.check == "terms_together")
    assert check.detail.startswith("no page holds the question’s terms together: at most 1 of 6")


def test_the_same_terms_together_on_one_page_are_enough() -> None:
    evidence = [
        _paged("guide", "The qzpack tool rebuilds the cache after an install.", 2),
        _paged("guide", "Pass the command-line switch --loud to qzpack for verbose logging.", 5),
    ]
    verdict = assess({**assess_state(SCATTERED, evidence), "question": SCATTERED})
    assert verdict.sufficient
    check = next(r for r in verdict.reasons if r.check == "terms_together")
    assert "5 of the 6 key terms together on one page" in check.detail


def test_chunks_of_one_page_count_together_and_a_short_question_needs_all_but_one_term() -> None:
    terms = ["qzpack", "switch", "verbose", "logging"]
    split = [_paged("guide", "qzpack takes a switch.", 4), _paged("guide", "Verbose output is off.", 4)]
    assert together(terms, split, 3).ok  # two chunks of page 4 hold three terms between them
    assert not together(terms, [{**split[1], "start_page": 9}, split[0]], 3).ok
    assert together(["qzpack", "switch", "cache"], [split[0]], 3).ok  # 3 terms: two together are enough
    assert not together(["qzpack", "verbose", "cache"], [_paged("guide", "Verbose output.", 1)], 3).ok
    assert together(["qzpack"], [], 3).ok  # one term: nothing to find together


def test_a_term_found_by_its_alias_counts_together() -> None:
    terms = ["QPL", "switch", "verbose", "logging"]
    page = [_paged("guide", "The Quiet Pack Loader takes a switch for verbose output.", 3)]
    assert not together(terms, page, 3).ok  # "QPL" is not printed, so two of four
    assert together(terms, page, 3, {"QPL": ["Quiet Pack Loader"]}).ok


def test_comparisons_and_a_zero_setting_skip_the_check() -> None:
    evidence = [_paged("guide", "The qzpack tool rebuilds the cache.", 2)]
    off = assess_state(SCATTERED, evidence)
    off["settings"]["checks"]["together_terms"] = 0
    assert all(r.check != "terms_together" for r in assess({**off, "question": SCATTERED}).reasons)
    question = "How does qzpack differ from qzunpack in verbose logging?"
    state = {**assess_state(question, evidence), "question": question}
    assert state["intent"] == "compare"
    assert all(r.check != "terms_together" for r in assess(state).reasons)


def test_a_comparison_of_three_needs_evidence_on_each_and_from_each_home() -> None:
    question = "Compare ZX-9, QR-7 and KT-4"
    two = [hit("zx", "The ZX-9 valve seals at 40 bar.", 1), hit("qr", "The QR-7 pump seals at 38 bar.", 2)]
    state = {**assess_state(question, two), "question": question, "topics": read_question(question).topics}
    state["topic_homes"] = {"ZX-9": ["zx"], "QR-7": ["qr"], "KT-4": ["kt"]}
    checks = {r.check: r for r in assess(state).reasons}
    assert not checks["topics_covered"].ok and checks["topics_covered"].detail == "no evidence on 'KT-4'"
    assert not checks["topic_diversity"].ok and "'KT-4'" in checks["topic_diversity"].detail
    state["evidence"] = [*two, hit("kt", "The KT-4 seal holds 12 bar.", 3)]
    checks = {r.check: r for r in assess(state).reasons}
    assert checks["topics_covered"].detail == "evidence on all 3 topics" and checks["topic_diversity"].ok
    # Two topics sharing a home do not hide the third's: its own document must be among the evidence.
    state["topic_homes"] = {"ZX-9": ["zx"], "QR-7": ["zx"], "KT-4": ["kt"]}
    state["evidence"] = [*two, hit("zx", "The KT-4 seal is mentioned once.", 3)]
    checks = {r.check: r for r in assess(state).reasons}
    assert not checks["topic_diversity"].ok and "'KT-4'" in checks["topic_diversity"].detail


def test_a_value_of_another_measure_beside_the_subject_is_no_answer() -> None:
    question = "What is the maximum nesting depth QZ_PARSE allows?"
    other = hit("manual", "QZ_PARSE allows one file at a time; its input buffer is 512 bytes.", 1)
    words = hit("manual", "Nesting depth has a maximum in every parser.", 2)  # the words, but no value, no subject
    verdict = _verdict(question, [other, words])
    assert verdict.failing == "value_stated"
    assert verdict.reasons[-1].detail == (
        "no passage states a maximum value for QZ_PARSE with maximum, nesting, depth, allows (at most 1 of 4 together)"
    )
    stated = hit("manual", "QZ_PARSE allows blocks nested to a maximum depth of 64 levels.", 3)
    assert _verdict(question, [other, words, stated]).sufficient


def test_a_long_word_the_text_writes_as_two_is_covered() -> None:
    text = ["Raw material pass through and work flow items"]
    assert term_covered("passthrough", token_set(text), squashed(text))
    assert term_covered("workflow", token_set(text), squashed(text))
    assert not term_covered("exchange", token_set(["the ex change"]), squashed(["the ex change"]))  # too short a part


@pytest.mark.parametrize(
    "question, phrase",
    [
        ("How many worker threads can qzpack use?", "worker threads"),
        ("How many CPU cycles per byte does the QZ-2 routine take?", "CPU cycles"),
        ("What is the hexadecimal value of the 48-bit marker that opens a block?", "48-bit marker"),
        ("What is the size of each block in a qz2 file?", "block"),
        ("What does QZ_MAX_DEPTH control?", ""),
        ("How many people work at the QZ-9 plant?", "people"),  # no plural: the first word, not the verb
        ("What is the size of the buffer, in bytes?", "buffer"),  # "the size of X": X
        ("What is the maximum tilt angle, in degrees?", ""),  # a sentence may say "tilts up to 30 degrees"
        ("How many times does the qz resolver retry each gate?", ""),  # a count of repeats: "Default: 4 tries"
        ("What is the default gap length that qzpack uses at level 6?", "gap length"),  # the word before the measure
        ("What is the smallest split size qzip allows?", "split size"),
        ("What is the maximum length allowed for a pier name?", ""),  # a bound's word names no measure
        ("With the default gap size, how many blocks does qzpack write?", "blocks"),  # "how many" first
    ],
)
def test_what_a_value_question_counts_or_measures(question: str, phrase: str) -> None:
    assert measured_phrase(question) == phrase


@pytest.mark.parametrize(
    ("question", "other", "detail", "stating"),
    [
        # A measure named with a word before it ("gap length") is stated beside its noun, not by another size.
        (
            "What is the default gap length that QZ-9 uses at level 6?",
            "QZ-9 packs blocks at level 6. The default block size is twice the window, or 1 MiB.",
            "no passage states a value for gap length (QZ-9)",
            "QZ-9 uses a default gap length of 64 at level 6.",
        ),
        # A count is stated only beside what it counts, not by a release number beside the name.
        (
            "How many worker threads can QZ-9 use for compression?",
            "QZ-9 packs blocks of 900 kbytes. Its worker threads share a buffer. Release 2.1 added levels.",
            "no passage states a value for worker threads (QZ-9)",
            "QZ-9 runs up to 8 threads for compression.",
        ),
    ],
)
def test_a_value_is_stated_only_beside_what_it_measures_or_counts(
    question: str, other: str, detail: str, stating: str
) -> None:
    verdict = _verdict(question, [hit("manual", other, 1)])
    assert verdict.failing == "value_stated"
    assert verdict.reasons[-1].detail == detail
    assert _verdict(question, [hit("manual", other, 1), hit("manual", stating, 2)]).sufficient


def test_a_table_split_over_two_passages_of_one_page_states_its_values() -> None:
    """The first passage names the variable, the second holds its rows: on one page they state the value; on two
    pages, the rows state values of something the evidence never ties to the variable."""
    question = "What value should QZ_TRACE be set to for loading config files?"
    names = {**_paged("manual", "The QZ_TRACE variable is set to the sum of the values wanted.", 4), "ordinal": 1}
    rows = {**_paged("manual", "CONFIG | Value: 1024 | Loading of config files", 4), "ordinal": 2}
    assert _verdict(question, [names, rows]).sufficient
    apart = {**rows, "start_page": 9, "end_page": 9}
    verdict = _verdict(question, [names, apart])
    assert verdict.failing == "value_stated"
    # A passage of the same page about another member of the family states that member's values.
    sibling = {**_paged("manual", "QZ_LIMIT is set to 4096 for config files by default.", 4), "ordinal": 2}
    verdict = _verdict(question, [names, sibling])
    assert verdict.failing == "value_stated"


def test_without_an_identifier_the_measure_named_must_be_stated() -> None:
    """Asked "What is the maximum length allowed for a gate name?", no identifier anchors the value, so the sentence
    stating one names the measure; a count beside the question's other words states no length."""
    assert asks_value("What is the default interval, in seconds, between two checks?")
    assert measure_noun("What is the maximum length allowed for a gate name?") == "length"
    assert measure_noun("What value should the gate be set to?") == ""  # "value" only asks for one
    question = "What is the maximum length allowed for a gate name?"
    count = _paged("manual", "A gate name allowed by the maximum rule is unique and at least two characters long.", 3)
    verdict = _verdict(question, [count])
    assert verdict.failing == "value_stated"
    assert verdict.reasons[-1].detail == "no passage states a maximum value for the length"
    stated = _paged("manual", "A gate name has a maximum length of 32 characters.", 4)
    assert _verdict(question, [count, stated]).sufficient


def test_asked_in_which_release_a_sentence_must_give_one() -> None:
    assert asks_value("In which release was the gate-lock element introduced?")
    # A terse query asks so too; a version named as introduced asks none.
    assert asks_value("--qz-lock option Quill version first introduced")
    assert not asks_value("--qz-lock option in the version introduced by Quill 2")
    assert not asks_value("What happened to the gate after the new version first appeared?")
    assert measure_noun("In which release was the gate-lock element introduced?") == "release"
    question = "In which release was the gate-lock element introduced?"
    about = _paged("manual", "The gate-lock element was introduced to hold every gate shut; it takes 2 arguments.", 3)
    verdict = _verdict(question, [about])
    assert verdict.failing == "value_stated"  # a count of arguments is no release
    dated = _paged("manual", "The gate-lock element was introduced in release 2.4 of the manual.", 4)
    assert _verdict(question, [about, dated]).sufficient


def test_a_release_of_a_whole_standard_dates_no_path_it_holds() -> None:
    question = "In which version of the Harbour Layout Standard was /pier added to replace /var/pier?"
    standard = _paged("layout", "STANDARDS The Harbour Layout Standard (HLS), Version 3.0, published 2015.", 6)
    pier = _paged("layout", "/pier This directory holds the state of the piers since they were raised.", 4)
    verdict = _verdict(question, [standard, pier])
    assert verdict.failing == "value_stated"
    # The path it replaces is not what is dated.
    replaced = _paged("layout", "/var/pier Deprecated in version 2.1 of the Harbour Layout Standard.", 5)
    assert _verdict(question, [standard, pier, replaced]).failing == "value_stated"
    dated = _paged("layout", "/pier Added in version 2.3 of the Harbour Layout Standard to replace /var/pier.", 5)
    assert _verdict(question, [standard, pier, dated]).sufficient


def test_asked_for_a_hexadecimal_value_only_a_number_written_so_answers() -> None:
    assert asks_value("What is the hexadecimal generator of the QZ-9 check?")
    assert stated_values("QZ-9 uses 0x1EDC6F41, or 04C11DB7h, over 64 bits.", "hexadecimal") == {
        "0x1edc6f41",
        "04c11db7h",
    }
    assert stated_values("A decade of feed 1024 and CRC32c.", "hexadecimal") == set()  # words, plain numbers
    question = "What is the hexadecimal generator of the QZ-9 check?"
    sized = _paged("manual", "The QZ-9 check uses a generator of 64 bits, 8 bytes wide.", 3)
    verdict = _verdict(question, [sized])
    assert verdict.failing == "value_stated"
    assert verdict.reasons[-1].detail == "no passage states a hexadecimal value for QZ-9"
    written = _paged("manual", "The QZ-9 check uses the generator 0x42F0E1EBA9EA3693.", 4)
    assert _verdict(question, [sized, written]).sufficient


def test_a_passage_of_a_section_headed_with_the_name_anchors_it() -> None:
    """ "QZM vs QXM for a new protocol?": the QXM section never says "protocol"; a passage of it is about QXM all
    the same, where a list naming QXM in passing anchors nothing."""
    question = "QZM vs QXM for a new protocol?"
    qzm = {**_paged("guide", "QZM seems like a good conservative choice for a new protocol.", 3), "section": "7.3 QZM"}
    listed = _paged("guide", "The modes are QZM, QXM and QRM, each with its own interface.", 4)
    state = {**assess_state(question, [qzm, listed]), "question": question, "topics": read_question(question).topics}
    checks = {r.check: r for r in assess(state).reasons}
    assert not checks["identifiers_covered"].ok and checks["identifiers_covered"].detail == "missing QXM"
    headed = {**_paged("guide", "QXM requires the message length up front.", 5), "section": "7.4 QXM mode"}
    state["evidence"] = [qzm, listed, headed]
    assert assess(state).sufficient


def test_names_asked_about_alone_are_each_anchored_where_described() -> None:
    """ "Which section documents QZ_IN and QZ_OUT?" asks of names alone: each is found in its own passage."""
    question = "Which section of the gate page documents QZ_IN and QZ_OUT?"
    qz_in = {**_paged("guide", "QZ_IN Returns the amount of water in the gate.", 3), "section": "Ioctls"}
    qz_out = {**_paged("guide", "QZ_OUT Returns the amount of water let out.", 3), "section": "Ioctls"}
    state = {**assess_state(question, [qz_in, qz_out]), "question": question}
    assert {r.check: r for r in assess(state).reasons}["identifiers_covered"].ok
    asked = "What does QZ_IN return about the gate's water and QZ_OUT?"  # with other words: anchored beside them
    state = {**assess_state(asked, [qz_in, qz_out]), "question": asked}
    assert {r.check: r for r in assess(state).reasons}["identifiers_covered"].ok


def test_a_value_is_stated_in_the_form_asked_for() -> None:
    """A figure, not a count in words, gives a code its value; a version asked for is a version number, not a
    date; the thing whose version is asked is named beside it (or titles its document)."""
    assert asked_form("What is the integer value of QZ_BAD?") == "figure"
    assert asked_form("How many seals does it need?") == "count"
    assert asked_form("Which Unicode version are the tables of qzlib 2.3.3 based on?") == "version"
    assert stated_values("QZ_BAD forbids two hyphens, QZ_OK is 0.", "figure") == {"0"}
    assert stated_values("This manual is for qzlib (version 2.3.3, 11 July 2022); release 7 follows.", "version") == {
        "2.3.3",
        "7",
    }
    question = "What is the integer value of the QZ_BAD return code?"
    words = _paged("manual", "QZ_BAD [Return code] String has two forbidden hyphens.", 3)
    assert _verdict(question, [words]).failing == "value_stated"
    assert _verdict(question, [words, _paged("manual", "The return code QZ_BAD is -304.", 4)]).sufficient
    question = "Which Unicode version are the tables of qzlib 2.3.3 based on?"
    dated = _paged("manual", "This manual is for qzlib (version 2.3.3, 11 July 2022), with Unicode tables.", 3)
    verdict = _verdict(question, [dated])
    assert verdict.failing == "value_stated" and verdict.reasons[-1].detail.startswith("no passage states a version")
    other = _paged("manual", "After version 2.0.3 the qzlib tables changed their rules by default.", 4)
    assert _verdict(question, [dated, other]).failing == "value_stated"  # whose version? not Unicode's
    stated = _paged("manual", "The qzlib tables follow Unicode 15.0.0 since this release.", 5)
    assert _verdict(question, [dated, other, stated]).sufficient


def test_the_value_check_reads_no_value_in_code() -> None:
    question = "What is the value of QZ_HASH_SIZE, the buffer size for a hash?"
    code = (
        'char hash[QZ_HASH_SIZE]; char mode[] = "2b"; int rc = qz_hash(hash, sizeof(key) - 1, key, 10, salt); '
        "if (rc) { puts(hash); }"
    )
    opening = _paged("manual", code, 3)  # opens with code: no statement at all
    after = _paged(
        "manual", f"Sample code to hash a password with QZ_HASH_SIZE bytes of output for the table: {code}", 4
    )
    assert _verdict(question, [opening, after]).failing == "value_stated"
    assert _verdict(question, [opening, _paged("manual", "QZ_HASH_SIZE is 61, the size of a hash.", 5)]).sufficient
    # A sentence opening with a lower-case name or ending in a colon states its value all the same.
    errno = _paged("manual", "qz_open sets QZ_HASH_SIZE to 61 bytes for a hash:", 6)
    assert _verdict(question, [opening, errno]).sufficient


def test_value_forms_follow_what_is_asked_not_a_word_in_passing() -> None:
    assert asked_form("How many hex digits are in a QZ-9 digest?") == "count"
    assert not asks_value("Which command of QZ-9 prints a file in hex?")
    assert asked_form("What is the number of attention heads in QZ-9?") == "count"
    assert not asks_value("Which press release of QZ Corp reported revenue of $5B?")
    assert measured_phrase("Which minimum version of OpenSSL does QZ-9 need?") == "OpenSSL"
    assert stated_values("polynomials 8005h and 0x1021, as in A100, 2023a and 1e10", "hexadecimal") == {
        "8005h",
        "0x1021",
    }
    heads = _paged("manual", "QZ-9 uses twelve attention heads.", 3)
    assert _verdict("What is the number of attention heads in QZ-9?", [heads]).sufficient
    python = _paged("manual", "QZ-9 supports Python 3 and later.", 3)
    assert _verdict("Which Python version does QZ-9 support?", [python]).sufficient
    # Only a version's thing may title the document: a count's noun must stand beside the value.
    staff = {
        **_paged("report", "QZ-9 had about 1,200 employees at year end.", 3),
        "title": "QZ-9 Report to Shareholders",
    }
    assert _verdict("How many shareholders did QZ-9 have?", [staff]).failing == "value_stated"


def test_a_value_after_another_of_the_subjects_family_is_that_ones() -> None:
    """Values belong to the last name before them: "QZ_512_DIGEST_SIZE ... 512 octets" states none of QZ-256's, and
    a reference's entries run into one sentence keep the first entry's values before the next entry's name."""
    question = "How many octets is the block size of QZ-256 (QZ_256_BLOCK_SIZE)?"
    sibling = _paged(
        "manual",
        "QZ_256_BLOCK_SIZE is the block size of QZ-256. QZ_512_DIGEST_SIZE is kept: its 512 octets are written.",
        3,
    )
    assert _verdict(question, [sibling]).failing == "value_stated"
    own = _paged("manual", "QZ_256_BLOCK_SIZE is the block size of QZ-256, 136 octets.", 4)
    assert _verdict(question, [sibling, own]).sufficient
    question = "What negative values can qz_get_length_der return?"
    entries = _paged(
        "manual",
        "qz_get_length_der returns negative values: -1 if indefinite, -2 if too big . qz_get_tag_der reads a tag.",
        5,
    )
    assert _verdict(question, [entries]).sufficient
    assert stated_values("a hashed password (typically $2b$10$...) or US$5 million", "figure") == {"5"}


def test_a_bound_or_a_percentage_asked_for_is_stated_as_one() -> None:
    assert (
        stated_bounds("What is the largest value X accepts?") == {"maximum"}
        and stated_bounds("--max-threads=500") == set()
    )
    assert stated_bounds("It needs at least 2 and at most 9.") == {"minimum", "maximum"}
    question = "What is the largest value that the QZ-9 --depth option accepts?"
    default = _paged("manual", "The QZ-9 --depth option accepts a value: --depth=<number> [default: 30].", 3)
    verdict = _verdict(question, [default])
    assert verdict.failing == "value_stated" and "maximum value" in verdict.reasons[-1].detail
    assert _verdict(question, [default, _paged("manual", "QZ-9 accepts a --depth of at most 200.", 4)]).sufficient
    assert asks_value("By what percentage does the QZ-9 cache slow its startup?")
    question = "By what percentage does the QZ-9 cache slow its startup?"
    vague = _paged("manual", "The QZ-9 cache slows startup by a percentage that grows with 2 or 3 reads per file.", 3)
    assert _verdict(question, [vague]).failing == "value_stated"
    assert _verdict(question, [vague, _paged("manual", "The QZ-9 cache slows startup by 12%.", 4)]).sufficient


def test_a_bound_is_asked_only_as_a_superlative_of_a_measure_and_a_row_states_a_share() -> None:
    assert asked_bounds("How much revenue did Harbour Holdings Limited report?") == set()
    assert asked_bounds("How many employees does the largest segment of Harbour have?") == set()
    assert asked_bounds("How many customers bought at least 10% of sales?") == set()
    assert asked_bounds("Is there an upper bound on the value of --max-threads?") == {"maximum"}
    assert stated_bounds("It accepts values from 1 to 200.") == {"maximum", "minimum"}
    question = "By what percentage did Harbour revenue change from 2018 to 2019?"
    row = _paged("report", "Harbour revenue change | 2019: 1,200 | 2018: 1,000", 3)
    assert _verdict(question, [row]).sufficient  # the figures a share is computed from


def test_one_relevant_passage_naming_the_identifier_asked_about_is_enough() -> None:
    """A reference gives a setting one entry: the passage naming it is the evidence, with no two others."""
    question = "Can I set QzMinKeyBits under 1024 to take my old short keys?"
    entry = hit(
        "manual",
        "QzMinKeyBits Sets the shortest key length (in bits) the gate takes. The default is 1024 bits. The "
        "length can only be increased.",
    )
    unrelated = hit("manual", "The tool reads the configuration file at start.")
    state = {**assess_state(question, [entry, unrelated]), "question": question}
    settings = AgentSettings.for_preset("balanced", min_hits=3)
    settings.checks.strong_term_share = 1.0  # the entry alone, not as a passage holding most key terms
    state["settings"] = settings.model_dump(mode="json")
    verdict = assess(state)
    check = next(r for r in verdict.reasons if r.check == "relevant_hits")
    assert check.ok and "name QzMinKeyBits" in check.detail


def test_a_passage_holding_the_entry_a_name_opens_is_about_it() -> None:
    """ "Which section documents variables like QZ_CONF, and what does that one control?": the ENVIRONMENT entries
    never say "variables" or "control", but QZ_CONF's entry is there ("like" and "one" ask nothing)."""
    question = "Which section of the qzfs manual documents variables like QZ_CONF, and what does that one control?"
    entries = hit(
        "qzfs",
        "ENVIRONMENT\nQZ_SYNC If set to a non-zero value, it is used to sync often. QZ_CONF Determines the location "
        "of the configuration file.",
    )
    after = hit("qzfs", "The defaults of the gates are controlled by the configuration file.", 2)
    assert _verdict(question, [entries, after]).sufficient
    passing = hit("qzfs", "ENVIRONMENT\nThe defaults are in the file; see QZ_CONF and qzfs.conf(5).")
    assert _verdict(question, [passing, after]).failing == "identifiers_covered"


def test_a_topic_writing_an_option_is_found_where_the_option_is_written() -> None:
    """ "qzpack -k" is "-k" of qzpack: a passage about qzpack without "-k" (or with "-K") is no hit of it, unless no
    passage writes "-k" (the search reads no such code): then the name finds it."""
    keep = {"text": "-k --keep Keeps the input files of qzpack."}
    other = {"text": "-K --kill Stops every qzpack job."}
    about = {"text": "The qzpack command packs files."}
    assert topic_hits("qzpack -k", [keep, other, about]) == [keep]
    assert topic_hits("qzpack", [keep, other, about]) == [keep, other, about]
    assert topic_hits("qzpack -k", [other, about]) == [other, about]


def test_a_topic_named_by_identifiers_needs_its_other_words_only_rounded_down() -> None:
    """ "the v1 qz_agent approach": qz_agent names it, and a passage need not call it an approach; a topic of words
    alone ("the approach") still needs its word."""
    about = {"text": "The v1 qz_agent and qz_notify files are replaced by the populated key."}
    other = {"text": "The v2 gate reports empty groups."}
    assert topic_hits("v1 qz_agent approach", [about, other]) == [about]
    assert topic_hits("v1 qz_agent approach and its latch", [about, other]) == []  # one of two words still
    assert topic_hits("approach", [about, other]) == []


def test_a_path_topic_is_found_where_the_path_or_its_last_part_is_named() -> None:
    """ "/qz" is named by "/qz" or by 'the "qz" directories', not by "/var/qz" (another path ending so); a question
    writing a path it names as its own is not refused for it."""
    own = {"text": "/qz This directory holds gates."}
    word = {"text": 'Files go into the "qz" directories.'}
    other = {"text": "This should be a link to /var/qz."}
    assert topic_hits("/qz", [own, word, other]) == [own, word]
    assert topic_hits("/var/qz", [own, word, other]) == [other]
    question = "Where does qzd read my /srv/mine/qz.conf from?"
    state = {**assess_state(question, [hit("m", "qzd reads every qz.conf file found in /etc.")]), "question": question}
    assert assess(state).missing_identifiers == []
    question = "Which settings file does qzd read for my *.mine gates?"
    evidence = [hit("m", "qzd reads its settings file /etc/qz.conf for every gate.")]
    assert assess({**assess_state(question, evidence), "question": question}).sufficient


def test_a_name_in_a_tables_row_is_anchored_by_its_page_saying_what_the_columns_hold() -> None:
    """ "QZSHUT Q1 Stop Gate shut" holds none of the question's other words; the sentence on its page saying what the
    action column gives does. On another page, it would be a name dropped in passing."""
    question = "What's the default action for QZSHUT, and what causes it?"
    row = {**hit("sig", "QZOPEN Q1 Go Gate opened QZSHUT Q1 Stop Gate shut: a lock with no keeper", 3)}
    columns = hit("sig", "The entries in the Action column of the table give the default disposition of each one.", 2)
    state = assess_state(question, [{**row, "start_page": 4}, {**columns, "start_page": 4}])
    assert assess(state).missing_identifiers == []
    state = assess_state(question, [{**row, "start_page": 4}, {**columns, "start_page": 9}])
    assert assess(state).missing_identifiers == ["QZSHUT"]
    # A number is no name of its own: "17" in passing is not anchored by the page's words.
    question = "What does an exit status of 17 from qzpack mean?"
    passing = {**hit("qz", "Packing the 17 files of the test took a second.", 1), "start_page": 2}
    codes = {
        **hit("qz", "The exit status of qzpack is 0 on success and 18 when a file is missing.", 2),
        "start_page": 2,
    }
    assert assess(assess_state(question, [passing, codes])).missing_identifiers == ["17"]


def test_one_close_passage_holding_most_key_terms_is_enough() -> None:
    """A small manual may hold one passage on what is asked: close in meaning, wording two of the question's eight
    terms otherwise ("blank lines" for "an empty line between paragraphs"), it is enough without two others."""
    question = "How do I write the long description in the Qz field, including an empty line between paragraphs?"
    entry = hit(
        "manual",
        "Qz field: the long description follows the first line; each line of the long description "
        "starts with a space, and a blank line is written as a space and a full stop.",
    )
    other = {**hit("manual", "The tool reads the configuration file at start.", 2), "dense_score": 0.1}
    state = {**assess_state(question, [entry, other]), "question": question}
    state["settings"] = AgentSettings.for_preset("balanced", min_hits=3).model_dump(mode="json")
    check = next(r for r in assess(state).reasons if r.check == "relevant_hits")
    assert check.ok and "close passage(s) hold most key terms" in check.detail
    settings = AgentSettings.for_preset("balanced", min_hits=3)
    settings.checks.strong_term_share = 0.8
    state["settings"] = settings.model_dump(mode="json")
    assert not next(r for r in assess(state).reasons if r.check == "relevant_hits").ok


def test_an_errno_value_asked_for_is_a_code() -> None:
    """ "Which errno value does qz_open() set ...?" asks for a code (EQZ), which "-1 on failure and errno set" does not
    give; "what signal number" still asks a number."""
    assert asked_form("Which errno value does qz_open() set when the gate is shut?") == "code"
    assert asked_form("What signal number does qzd send?") == "figure"
    question = "Which errno value does qz_open() set when the gate is shut?"
    returned = _paged("manual", "qz_open() returns 0 on success, -1 when the gate is shut, and sets errno.", 3)
    assert _verdict(question, [returned]).failing == "value_stated"
    named = _paged("manual", "qz_open() sets errno to EQZSHUT when the gate is shut.", 4)
    assert _verdict(question, [named]).sufficient


def test_a_default_value_asked_in_a_unit_is_a_figure() -> None:
    """ "What is the default value in bytes stored in /qz/rmem ...?" asks a number of bytes; "the default values of
    QzLevel=" may be words (the default check's)."""
    assert asks_value("What is the default value in bytes stored in /qz/rmem for the gate's buffer?")
    assert not asks_value("What are the default values of QzLevel= and QzLimit=?")
    assert not asks_value("Does QzLimit= take values in seconds or minutes?")
