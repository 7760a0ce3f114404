"""The default check of agent.defaults: what holds when nothing is set is stated within the entry asked about."""

from agent.assess import assess
from agent.defaults import asks_default, default_missing, entry_defaults, left_unset, states_default
from agent.types import Assessment
from tests.test_agent_units import assess_state, hit


def _verdict(question: str, *hits: dict) -> Assessment:
    """The assessment of the hits as evidence for the question."""
    return assess({**assess_state(question, list(hits)), "question": question})


def test_a_question_asking_what_holds_when_nothing_is_set_asks_a_default() -> None:
    for question in (
        "QzMode default?",
        "What is the default QzMode?",
        "What does QzMode default to?",
        "Which mode does the client use by default?",
        "When QzMode is not specified anywhere, which of its modes is used?",
        "If I don’t set QzMode, what happens?",
        "What mode applies without setting QzMode?",
        "What mark does the viewer show by default when --qz-mark hasn’t been set?",
        "What are the default values of QzLevel= and QzLimit=?",
        "What default value does the gate put in /qz/latch at start?",
        "If neither QZ_EDIT nor QZ_VIEW is set, which program is used?",
        "If neither QZ_EDIT nor QZ_VIEW has been set, what runs?",
        "Which editor does the tool fall back to?",
        "What does qz fall back to if the config file is missing?",
        "gate default lift size when QzLift not set",  # a terse query, its auxiliary left out
    ):
        assert asks_default(question), question
    for question in (
        "With the default key map, which key closes the gate?",
        "How do I give a default value in a template when a field is missing?",
        "Which actions suppress the default -emit?",
        "What default sound does the QZ_LATCH bell make?",
        "How do I reset QzMode to the defaults?",
        "Can I change the default?",
        "If neither QZ_EDIT nor QZ_VIEW helps, what then?",
        "How do I fall back to the previous release?",
        "Does the client fall back to QZ/1.1 if the gate fails?",
        "What happens when the gate is set but not opened?",
        "What should I do if the concrete does not set within 24 hours?",  # "set" as what concrete does
    ):
        assert not asks_default(question), question


def test_what_states_a_default() -> None:
    stating = (
        "Defaults to 48K.",
        "[default: 30]",
        "By default, no.",
        "If QzMode is not set, off applies.",
        "The default layout is flat.",
        "The default level is seven.",
    )
    for text in (*stating, "The default values for QZ_MIN, QZ_MAX are respectively 1 and 9."):
        assert states_default(text), text
    for text in (
        "It sets the default key.",
        "The default namespace is set.",
        "The default profile is shown in Table 2.",
        "The default gate is not used.",
        "The default key is used to sign packets.",
        "The default route is overridden by --qz-route.",
        "Its flag is not set.",
        "Specifies the initial window size.",
        "Fails if no console is present.",
    ):
        assert not states_default(text), text


def test_a_default_is_stated_within_the_entry_asked_about() -> None:
    """An entry listing its choices states no default, nor does the next entry's "The default is ..."; a sentence
    after the subject in its own entry does, whichever passage comes first."""
    listed = hit(
        "manual",
        "QzMode Chooses whether to open a console. The argument is one of: off, on, always or smart. "
        "QzMinBits Sets the smallest key length. The default is 1024 bits.",
        1,
    )
    assert default_missing(["QzMode"], [listed]) == "no passage states a default for QzMode"
    stated = hit("manual", "QzMode Chooses whether to open a console. The argument is on or off (the default).", 5)
    assert default_missing(["QzMode"], [listed, stated]) == default_missing(["QzMode"], [stated, listed]) == ""
    option = hit("manual", "Mode= Selects the mode. If set to plain (the default), nothing is checked.", 2)
    assert default_missing(["Mode"], [option]) == ""
    # Entries run into one sentence: the next entry's default, and what follows it, are the next entry's.
    run = hit(
        "manual",
        "qz_fast_key (since 4.1) Sets the key. qz_mark_flag (Integer; default: see below) Enables it. It takes one of "
        "these values: 0 Turn it off. This was the default up to 3.9.",
        3,
    )
    assert default_missing(["qz_fast_key"], [run]) == "no passage states a default for qz_fast_key"
    # A builtin's synopsis run into the entry before opens the next entry: its "unset" is not QZSIZE's default.
    builtins = hit(
        "manual",
        "QZSIZE The number of lines kept. qzwait [job] Waits for the job. If no job is given, the status is unset.",
        4,
    )
    assert default_missing(["QZSIZE"], [builtins]) == "no passage states a default for QZSIZE"


def test_code_is_named_as_written_and_otherwise_needs_its_comma() -> None:
    """ "The qz-mark colour." is no sentence of --qz-mark's entry; "does not otherwise change it" states no default,
    "Otherwise, ..." does."""
    other = hit("manual", "--qz-mark Sets the mark. The -d option does not otherwise change it. -W Wraps lines.", 1)
    assert default_missing(["--qz-mark"], [other]) == "no passage states a default for --qz-mark"
    legend = hit("manual", "R The qz-mark colour. S Search hits. The default is blue. -W Wraps lines.", 7)
    assert default_missing(["--qz-mark"], [legend, other]) == "no passage states a default for --qz-mark"
    said = hit("manual", "--qz-mark Sets the mark. Otherwise, a dot is shown.", 9)
    assert default_missing(["--qz-mark"], [said]) == ""


def test_an_entry_open_at_its_passages_end_is_read_on_or_left_unjudged() -> None:
    """The next passage in the evidence goes on with the entry; past the evidence, the next chunk's first sentence
    tells whether another entry opens there (then no default was stated) or the entry goes on (unknown)."""
    head = hit("manual", "QzMode Chooses whether to open a console. It takes a word.", 4)
    tail = hit("manual", "Only one word is read. The default is off. QzMinBits Sets the smallest key length.", 5)
    assert default_missing(["QzMode"], [head, tail]) == ""
    closed = {**head, "next_opening": "QzMinBits Sets the smallest key length."}
    assert default_missing(["QzMode"], [closed]) == "no passage states a default for QzMode"
    going_on = {**head, "next_opening": "Only one word is read."}
    assert default_missing(["QzMode"], [going_on]) is None
    # Another passage stating it is still read after one left unjudged.
    stated = hit("manual", "QzMode Chooses whether to open a console. The default is off.", 9)
    assert default_missing(["QzMode"], [going_on, stated]) == ""


def test_only_the_subjects_own_entry_goes_on_past_the_evidence() -> None:
    """Prose naming the subject in passing ("if qz_max is set to 2, ...") is no entry of it: what follows the passage
    is about something else, so a default not stated is not stated, however the next chunk opens. An entry headed by
    the subject is still followed across the evidence's passages."""
    passing = hit("manual", "Dumps go to the gate. Since 3.6, if /proc/qz/max is set to 2, the pattern is a path.", 4)
    passing = {**passing, "next_opening": "Only one word is read."}
    assert default_missing(["/proc/qz/max"], [passing]) == "no passage states a default for /proc/qz/max"
    head = hit("manual", "QzMode Chooses whether to open a console. It takes a word.", 4)
    middle = {**hit("manual", "It is read at start.", 5), "next_opening": "Only one word is read."}
    assert default_missing(["QzMode"], [head, middle]) is None  # the entry it heads goes on past both
    row = hit("manual", "QZHUP Q1 Halt Line hung up QZPIPE Q1", 4)
    assert default_missing(["QZPIPE"], [{**row, "next_opening": "Halt Gate shut."}]) is None  # a row's entry
    # A passage opening inside an entry may go on one headed in a chunk the evidence lacks.
    inside = hit("manual", "If QzMode is smart, the console opens only on a terminal. It is read once.", 5)
    assert default_missing(["QzMode"], [{**inside, "next_opening": "When unset, off applies."}]) is None


def test_a_default_asked_for_and_never_stated_is_refused() -> None:
    question = "When QzMode is not specified anywhere, which of its modes (off, on, always, smart) does the client use?"
    listed = hit(
        "manual",
        "QzMode Chooses whether the client opens a console for the run. The argument is one of: off (never), on "
        "(when input is a console), always, or smart (for an interactive run). QzMinBits Sets the smallest key "
        "length.",
    )
    state = {**assess_state(question, [listed]), "question": question}
    verdict = assess(state)
    assert verdict.failing == "default_stated" and "QzMode" in verdict.reasons[-1].detail
    stated = hit("manual", "QzMode Chooses whether the client opens a console. The default is smart (interactive).", 6)
    state = {**assess_state(question, [listed, stated]), "question": question}
    assert assess(state).sufficient


def test_default_values_asked_for_may_be_words() -> None:
    """ "What are the default values of QzLevel= and QzLimit=?" is answered by "QzLevel= defaults to debug", no
    figure: the default check reads it, not the value check."""
    question = "What are the default values of QzLevel= and QzLimit=?"
    entry = hit("manual", "QzLevel=, QzLimit= Control the level. QzLevel= defaults to debug, QzLimit= to notice.")
    state = {**assess_state(question, [entry]), "question": question}
    verdict = assess(state)
    assert verdict.sufficient and any(r.check == "default_stated" for r in verdict.reasons)


def test_a_default_value_past_the_evidence_is_still_a_value_beside_the_subject() -> None:
    """The entry of gate-clip goes on past its passage: "What is the default value of gate-clip?" then needs a value
    beside gate-clip, as any value question; "gate-clip default?" is left unjudged."""
    entry = {
        **hit("manual", "gate-clip [on | off] Clips the output of the server. The server option is set per session."),
        "next_opening": "Note that it needs a console.",
    }
    question = "What is the default value of the gate-clip server option?"
    verdict = _verdict(question, entry)
    assert verdict.failing == "value_stated" and not any(r.check == "default_stated" for r in verdict.reasons)
    question = "gate-clip default?"
    assert _verdict(question, entry).sufficient
    # When the next chunk opens another entry, the default is known to be missing.
    closed = {**entry, "next_opening": "gate-wait seconds Waits between two gates."}
    assert _verdict(question, closed).failing == "default_stated"


def test_a_state_the_question_names_is_no_default_stated() -> None:
    """ "... of qz.bigThreshold for a file with an unspecified attribute": "a path whose attribute is unspecified
    ... smaller than qz.bigThreshold" names the question's own state, no default; "if unset, ..." still states one."""
    question = "What is the default of qz.bigThreshold that decides whether a file with an unspecified gate is text?"
    assert not states_default("A path whose gate is unspecified is text if smaller than qz.bigThreshold.", question)
    assert states_default("A path whose gate is unspecified is text.") and states_default(
        "If unset, it is 5.", question
    )
    # "when QZ_WAIT is unset" asks for the very default "When unset, qzd waits 30 s." states.
    assert states_default("When unset, qzd waits 30 s.", "How long does qzd wait by default when QZ_WAIT is unset?")
    entry = hit("manual", "Unspecified A path whose gate is unspecified is text if it is smaller than qz.bigThreshold.")
    after = hit("manual", "QZ_NEXT Sets the next gate of the file.", 2)
    assert default_missing(["qz.bigThreshold"], [entry, after], None, question) == (
        "no passage states a default for qz.bigThreshold"
    )


def test_every_default_stated_in_the_entry_is_collected_across_its_passages() -> None:
    head = hit("manual", "QzMode Chooses whether to open a console. It takes a word.", 4)
    tail = hit("manual", "The default is off. QzMinBits Sets the smallest key length. The default is 8.", 5)
    assert entry_defaults(["QzMode"], [head, tail]) == (["The default is off."], False)
    going_on = {**head, "next_opening": "Only one word is read."}
    assert entry_defaults(["QzMode"], [going_on]) == ([], True)  # its rest is past the evidence


def test_the_one_path_a_passage_prints_is_what_a_default_is_asked_of() -> None:
    """A path may be the reader's own, but one the documents print names their entry: asked its default, the entry
    must state one ("/qz/latch ... The value written is checked." states none; another entry's default is no
    answer)."""
    question = "What default value does the gate put in /qz/latch at start?"
    entries = hit(
        "manual",
        "/qz/latch This file sets the latch count of the gate. The value written is checked against the gate's "
        "size. /qz/lever This file sets the lever. The default value in this file is 32.",
    )
    verdict = _verdict(question, entries)
    assert verdict.failing == "default_stated" and "/qz/latch" in verdict.reasons[-1].detail
    stated = hit("manual", "/qz/latch This file sets the latch count of the gate. The default value is 8.", 6)
    assert _verdict(question, stated).sufficient


def test_a_path_said_in_passing_or_beside_an_option_is_no_entry_asked_about() -> None:
    """A path only said where things live ("Lock files live under /var/lib/qz/locks"), or written beside the option
    the question asks about, names no entry: the value may be stated of what the question asks."""
    question = "How long is the lock timeout for locks under /var/lib/qz?"
    where = hit("manual", "Lock files live under /var/lib/qz/locks and are removed at start.")
    stated = hit("manual", "The lock timeout is 30 seconds for every lock.", 2)
    assert _verdict(question, where, stated).sufficient
    question = "How many seconds does --qz-wait wait before qz writes /run/qz.lock?"
    entry = hit("manual", "--qz-wait Waits 30 seconds before the lock is written.\n/run/qz.lock Holds the lock.")
    assert _verdict(question, entry).sufficient


def test_an_option_the_question_writes_is_what_a_default_is_asked_of_not_the_program_named_beside_it() -> None:
    """ "Which layout does QZ gate use by default when no --layout option is given?": QZ names the program; the
    entry of --layout lists the layouts and states no default, so nothing answers. Its entry stating one does."""
    question = "Which layout does QZ gate use by default when no --layout option is given?"
    listed = hit(
        "manual",
        "--layout=NAME Writes the archive in the given layout. Valid layouts are: flat QZ gate 1.2 layout, deep QZ "
        "layout as per gate 1.0.",
    )
    verdict = _verdict(question, listed)
    detail = verdict.reasons[-1].detail
    assert verdict.failing == "default_stated" and "--layout" in detail and "QZ" not in detail
    stated = hit(
        "manual", "--layout=NAME Writes the QZ gate archive in the given layout. The default layout is flat.", 6
    )
    assert _verdict(question, stated).sufficient


def test_the_option_a_question_says_is_not_set_is_what_its_default_is_asked_of() -> None:
    """ "... qz --run ... by default when --qz-mode isn't passed?": --qz-mode's entry must state the default; one
    stated in the entry of --run says nothing of it."""
    assert left_unset(
        "Which mode does qz --run use by default when --qz-mode isn't passed?", ["--run", "--qz-mode"]
    ) == ["--qz-mode"]
    assert left_unset("What does --qz-mode default to?", ["--qz-mode"]) == []
    # A name the clause sets is none left unset; one it says is unspecified is.
    assert left_unset("If I pass --verbose, what does --qz-level default to?", ["--verbose", "--qz-level"]) == []
    assert left_unset("Which mode does qz --run use when --qz-mode is unspecified?", ["--run", "--qz-mode"]) == [
        "--qz-mode"
    ]
    question = "Which mode does qz --run use by default when --qz-mode isn't passed?"
    entries = {
        **hit(
            "manual",
            "--run Runs the gate in its mode. By default it runs the gate once. --qz-mode A mode to use when "
            "running the gate. See the gate guide.",
        ),
        "next_opening": "--qz-wait Waits between two gates.",
    }
    verdict = _verdict(question, entries)
    assert verdict.failing == "default_stated" and "--qz-mode" in verdict.reasons[-1].detail


def test_of_several_names_the_one_heading_an_entry_is_what_a_default_is_asked_of() -> None:
    """ "Is QZ_LOOP on by default on a new QZv4 gate?": QZ_LOOP heads its entry, QZv4 only says which gate; a
    sentence about QZv4 gates that states some default says nothing of QZ_LOOP's."""
    question = "Is QZ_LOOP on or off by default on a new QZv4 gate?"
    entries = {
        **hit(
            "manual",
            "QZv4 gates are divided into open and shut gates. Lever routing on QZv4 gates is off by default. QZ_LOOP "
            "(since 1.2) Sets whether a gate's packets are looped back.",
        ),
        "next_opening": "QZ_TTL (since 1.2) Sets the time to live.",
    }
    verdict = _verdict(question, entries)
    assert verdict.failing == "default_stated" and "QZ_LOOP" in verdict.reasons[-1].detail
    stated = hit("manual", "QZ_LOOP (since 1.2) Sets whether packets are looped back. It is on by default.", 6)
    assert _verdict(question, entries, stated).sufficient


def test_a_name_in_capitals_that_is_also_a_word_is_named_only_in_capitals() -> None:
    """ "QZ_EDIT"-style names are code; a variable called EDITOR is not named by "the user's editor of choice", so that
    sentence's neighbour states no default of it, while "$EDITOR" and "EDITOR" name it."""
    passing = hit(
        "manual", "Backup files made by the user's editor of choice go into the ignore file. Its default is ~/x.", 1
    )
    assert default_missing(["EDITOR"], [passing]) == "no passage states a default for EDITOR"
    named = hit("manual", "EDITOR The user's preferred editor. If $EDITOR is not set, the default is vi.", 2)
    assert default_missing(["EDITOR"], [named]) == ""
