"""agent.entries: which member of a family of names a sentence of a reference is about."""

from agent.entries import (
    BACK_REFERENCE,
    describes_entry,
    entry_of,
    entry_sentences,
    entry_walk,
    goes_on,
    headed_by,
    heads_entry,
    last_option,
    lower_case_entry,
    open_run,
    opens_entry,
    opens_path_entry,
    opens_with,
    other_option,
    own_options,
    own_part,
    runs_in,
    siblings,
    signature_only,
    typed_entry,
)


def test_another_member_of_the_family_is_a_sibling() -> None:
    text = "QZ_INIT and QZ_AUTO_GROW differ; see also qz_free and zx_free."
    found = [m.group() for m in siblings(text, ["QZ_AUTO_GROW"])]
    assert found == ["QZ_INIT", "qz_free"]  # whatever the case; the subject itself and another family are none


def test_a_sentence_running_into_another_entry_keeps_its_own_part() -> None:
    """ "qz_a_key ... qz_b (default: 5)": what follows another member's name is that member's."""
    sentence = "qz_a_key Sets the key for the gate. qz_b (Integer; default: 5) Enables it."
    assert own_part(sentence, ["qz_a_key"]).split() == ["qz_a_key", "Sets", "the", "key", "for", "the", "gate."]
    assert own_part("qz_b is 5; compare qz_a_key, 7.", ["qz_a_key"]).strip() == "qz_b is 5; compare qz_a_key, 7."


def test_a_sentence_referring_back_is_about_the_last_entry_named() -> None:
    assert entry_of("QZ_HOLD holds the gate (since 2.2).", ["QZ_RUSH"]) == "QZ_HOLD"
    assert entry_of("QZ_RUSH rushes it; compare QZ_HOLD.", ["QZ_RUSH"]) == "QZ_RUSH"
    assert BACK_REFERENCE.match("This option can be combined with QZ_RUSH only since 2.5.")
    assert not BACK_REFERENCE.match("The gate opens.")


def test_an_entry_opens_with_the_name_it_describes() -> None:
    for sentence in ("QzMode Chooses the mode.", "Mode= Sets it.", "--qz-wait=N Waits.", "gate-time time Sets it."):
        assert opens_entry(sentence), sentence
    assert not opens_entry("The gate opens at noon.") and not opens_entry("")
    assert opens_entry("Gate-Max-Time (gate-max-time) sets how long a gate waits.")
    assert not opens_entry("Gate-time settings are read at start.") and not opens_entry("Wi-Fi links often drop.")
    # A lower-case command's synopsis, or an option written as set, opens its entry; a citation is no argument.
    assert opens_entry("qzwait [-t secs] [job] Waits for the job.") and opens_entry("qzjoin list [sep] Joins it.")
    assert opens_entry("depth=depth Sets the search depth.")
    assert not opens_entry("see [12] for the proof.") and not opens_entry("the gate opens [at noon].")
    assert not opens_entry("buf [i] = 0;") and not opens_entry("const [v] = f();")
    # A path heading its entry, as a file's page lists its files; a lone path or a slash alone opens none.
    assert opens_entry("/qz/lever This file sets the lever.") and opens_entry("~/.qzrc Read at start.")
    assert not opens_entry("/qz/lever") and not opens_entry("/ 2 gives half.")
    assert opens_entry("/qz/max (since 2.2) Sets the most.") and not opens_entry("/etc/qz.conf overrides it.")
    # A parameter's entry in an API reference: its name and its type in braces.
    assert typed_entry("tries {integer} The number of tries.") and not typed_entry("tries {a few} more.")
    # Within a passage: after a sentence's stop the splitter left unbroken, or at a line's start; never in passing.
    assert opens_path_entry("/qz/max", "The gate was built. /qz/max (since 2.2) This file sets the most.")
    assert opens_path_entry("/qz/max", "Gates.\n/qz/max Sets the most.")
    assert not opens_path_entry("/qz/max", "Limits live under /qz/max Then and there.")


def test_an_entry_run_into_the_sentence_before_is_a_sentence_of_its_own() -> None:
    """A lower-case name starts no sentence the splitter sees: "... accessible. qzwait [job] Waits ..." is two."""
    text = "QZSIZE The number of lines kept. qzwait [job] Waits for the job. If none is given, qzwait waits for all."
    assert entry_sentences(text) == [
        "QZSIZE The number of lines kept.",
        "qzwait [job] Waits for the job.",
        "If none is given, qzwait waits for all.",
    ]
    assert entry_sentences("The default depends on the level. depth=depth Sets it.") == [
        "The default depends on the level.",
        "depth=depth Sets it.",
    ]
    assert entry_sentences("It runs approx. once an hour; see qzd(8).") == ["It runs approx. once an hour; see qzd(8)."]
    # A call's name opening a sentence goes on the entry it is in.
    field = "UINT8 QZ_minor The version written. qz_set_defaults() initializes it to 1.01."
    assert entry_sentences(field) == [field]


def test_a_code_entry_after_a_bracket_or_a_note_after_a_stop_opens_a_sentence() -> None:
    """A list's entries with no stop of their own run on: "... see qz(2)) QZMARK Use ...", "... [requires
    QZ_SOURCE] QZFLOW (not in POSIX) Enable ..."; a citation after "et al." goes on its sentence."""
    text = (
        "QZBAUD Mask for speeds (not in glibc; see qz(2)) QZMARK Use stick parity. [requires QZ_SOURCE] QZFLOW (not "
        "in POSIX) Enable gate flow control. [requires QZ_SOURCE] qz flag constants:"
    )
    assert entry_sentences(text) == [
        "QZBAUD Mask for speeds (not in glibc; see qz(2))",
        "QZMARK Use stick parity.",
        "[requires QZ_SOURCE]",
        "QZFLOW (not in POSIX) Enable gate flow control.",
        "[requires QZ_SOURCE] qz flag constants:",
    ]
    for whole in (
        "A gate task (Qz sorting - Zorb et al. [2011]) and a lever task.",
        "As Zorb et al. [Zor84] show, the bound holds (cf. [QZ1]) for gates, e.g. max=10 of them.",
        "We tune three gates: (1) QZGATE (Zorb, 2019) with its lever, (2) QZNET (Zorb, 2020) without.",
    ):
        assert entry_sentences(whole) == [whole]
    assert entry_sentences("No Mode= is given, so open is assumed. [Gate] Name=qz Lever=on") == [
        "No Mode= is given, so open is assumed.",
        "[Gate] Name=qz Lever=on",
    ]


def test_an_option_the_question_does_not_name_keeps_its_entry() -> None:
    """ "gate_prio=prio The priority (from 0 to 7) ... during a flush" is that option's entry, even run into the
    sentence before it; the option asked about ("flush=") and any prose stay."""
    question = "What is the largest value I can give to the flush= option of qzfs?"
    sentence = "It favours fast gates, at the cost of latency. gate_prio=prio The priority (from 0 to 7) of a flush."
    assert own_options(sentence, question) == "It favours fast gates, at the cost of latency."
    own = "flush=nrsec Start a flush every nrsec seconds. The default value is 5 seconds."
    assert own_options(own, question) == own
    assert own_options("See qzfs(5). -q Quiet. --flush Starts.", question) == "See qzfs(5). --flush Starts."
    assert other_option("-q Quiet mode", "What does -q do?") == ""
    assert other_option("-1 means none", question) == other_option("x is 3", question) == ""


def test_an_entry_opening_with_the_name_is_headed_by_it() -> None:
    text = "ENVIRONMENT\nQZ_SYNC If set, syncs often. QZ_CONF Determines the location of the file. See QZ_RUN too."
    assert heads_entry(text, ["QZ_CONF"]) and heads_entry(text, ["qz_sync"])
    assert not heads_entry(text, ["QZ_RUN"])  # named in passing


def test_the_last_option_opened_is_the_one_the_next_sentences_go_on_about() -> None:
    assert last_option("QzStart= Sets it. QzWait= Sets the wait.") == "QzWait= Sets the wait."
    assert last_option("It waits, see qzd(8).") == ""


def test_an_other_options_entry_goes_on_to_the_next_option() -> None:
    """ "gate_prio=prio The priority; the default is 3." is all gate_prio's; "-w, --wait=N" opens -w's entry; a word
    of the question is no option it writes ("Timeout=" for a question on "QzStart=" that says "timeout")."""
    question = "What default timeout does qzd use for QzStart= when it is not set?"
    assert own_options("gate_prio=prio The priority; the default is 3. QzStart=N Starts; see -q.", question) == (
        "QzStart=N Starts; see -q."
    )
    assert other_option("-w, --wait=N Waits.", question) == "w"
    assert other_option("Timeout= Sets the timeout.", question) == "Timeout"


def test_a_list_entry_opens_with_its_name_and_a_colon() -> None:
    assert opens_with("• qz.BADGATE: Unknown gate.", ["qz.BADGATE"]) and opens_with("QZ_X: off.", ["qz_x"])
    assert not opens_with("QZ sed v1.18 7.7.", ["QZ"]) and not opens_with("qz.BADGATE is unknown.", ["qz.BADGATE"])


def test_an_entry_is_walked_from_its_name_to_the_next_entry_and_may_stay_open() -> None:
    def names_it(sentence: str) -> bool:
        return "QzWait=" in sentence

    walked, open_at_end = entry_walk(
        "QzWait= Sets the wait. It is read once. QzStart= Sets the start.", ["QzWait"], names_it
    )
    assert walked == [("QzWait= Sets the wait.", True), ("It is read once.", True), ("QzStart= Sets the start.", False)]
    assert not open_at_end
    walked, open_at_end = entry_walk("Other text. QzWait= Sets the wait.", ["QzWait"], names_it)
    assert [inside for _, inside in walked] == [False, True] and open_at_end
    # Going on an entry opened before the text: inside from the first sentence.
    assert entry_walk("Defaults to 5.", ["QzWait"], names_it, within=True) == ([("Defaults to 5.", True)], True)


def test_the_next_passage_goes_on_an_entry_unless_it_opens_another() -> None:
    assert goes_on("Defaults to 48K.", ["QzWait"])
    assert not goes_on("QzStart= Sets the start.", ["QzWait"]) and not goes_on("", ["QzWait"])
    assert not goes_on("QZ_WAIT_MAX caps it.", ["QZ_WAIT"])  # another of the family's


def test_an_entry_is_headed_by_a_name_then_a_capital_or_a_colon() -> None:
    assert headed_by("/srv/qz Like /qz, it holds gates.", "/srv/qz") and headed_by("QZB: Like QZA.", "qzb")
    assert not any(headed_by(t, "QZB") for t in ("QZB and QZA share a seal.", "QZB mode is on.", "QZBX Holds."))


def test_a_row_run_into_others_heads_an_entry_and_prose_naming_it_does_not() -> None:
    rows = "QZHUP Q1 Halt Line hung up QZPIPE Q1 Halt Gate shut QZPOLL Q2 Halt Gate polled"
    assert runs_in(rows, ["QZPIPE"]) and runs_in("see below. QZPIPE: Broken pipe", ["QZPIPE"])
    assert not runs_in("Since 3.6, if /proc/qz/max is set to 2, the pattern is a path.", ["/proc/qz/max"])
    assert not runs_in(rows, ["PIPE"])  # a name inside a longer one heads nothing
    assert not runs_in(rows, ["qzpipe"])  # nor one written otherwise


def test_the_open_run_is_the_entry_the_text_ends_in() -> None:
    walked = [("QzA Sets a.", True), ("QzB Sets b.", False), ("QzA again.", True), ("It is read.", True)]
    assert open_run(walked) == ("QzA again. It is read.", False)
    assert open_run([("It goes on.", True)]) == ("It goes on.", True)


def test_a_name_heads_an_entry_with_what_it_does_not_with_prose_about_it() -> None:
    """ "QZ_LOOP (since 1.2) Sets ...", "-l, --qz-loop Loops ...": entries; "QZv4 Addresses are ...", "QZ_B (see below)
    is ..." and "QZv4 addresses are ...": prose about the name, whose defaults are not the entry's."""
    assert describes_entry("QZ_LOOP (since 1.2) Sets whether a gate loops.", ["QZ_LOOP"])
    assert describes_entry("-l, --qz-loop Loops packets back.", ["--qz-loop"])
    for prose in (
        "QZv4 Addresses are assigned per gate.",
        "QZv4 addresses are divided.",
        "QZ_B (see below) is a kind.",
    ):
        assert not describes_entry(prose, ["QZv4", "QZ_B"]), prose


def test_a_methods_signature_after_a_stop_opens_its_entry() -> None:
    """An API reference's entries run together: "... unbound gate. gate.shut(lever) ..." opens the next entry, and the
    signature alone is its head; "see open(2)" is a reference, no entry."""
    text = "Throws if called on an unbound gate. gate.shut(lever) Shuts the gate. It waits. see open(2) for more."
    assert entry_sentences(text) == [
        "Throws if called on an unbound gate.",
        "gate.shut(lever) Shuts the gate.",
        "It waits. see open(2) for more.",
    ]
    assert signature_only("gate.shut(lever[, mode])") and signature_only("qz.gate.reset()")
    assert not signature_only("gate.shut(lever) Shuts the gate.") and not signature_only("open(2)")
    # A call named in prose opens nothing, nor does a section of a law or a version.
    assert entry_sentences("It shuts. gate.open(lever) must be called first.") == [
        "It shuts. gate.open(lever) must be called first."
    ]
    assert not opens_entry("s.10(1) provides that notice is given.")


def test_a_lower_case_name_before_its_description_opens_an_entry() -> None:
    """ "... of the gate. fullname The full name ..." opens the next entry; prose going on in lower case does not, nor
    does a name in mixed case or one before a code in capitals."""
    text = "It names the gate. fullname The full name of the gate. relname A part of it. It shuts. then it opens."
    assert entry_sentences(text) == [
        "It names the gate.",
        "fullname The full name of the gate.",
        "relname A part of it.",
        "It shuts. then it opens.",
    ]
    assert lower_case_entry("fullname The full name.") and lower_case_entry("lever {integer} The lever.")
    assert not lower_case_entry("then it opens.") and not lower_case_entry("errno EINTR is set.")
    assert entry_sentences("It is Qz Inc. and Subsidiaries that report.") == [
        "It is Qz Inc. and Subsidiaries that report."
    ]
