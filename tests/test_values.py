"""The value check of agent.values: whose value a sentence states (a name the question gives, a word inside another
thing's name) and what a default is not (a bound)."""

from agent.assess import assess
from agent.types import Assessment
from agent.value_forms import asked_form, stated_values
from agent.value_questions import asks_value
from agent.values import _others_cut, asked_bounds, stated_bounds
from tests.test_agent_units import assess_state, hit


def _verdict(question: str, evidence: list[dict]) -> Assessment:
    """The assessment of the evidence for a question asked as it stands."""
    state = {**assess_state(question, evidence), "question": question}
    return assess(state)


def _paged(text: str, page: int, ordinal: int = 1) -> dict:
    """A passage of the manual on a page, at a place in it (passages of one page follow each other)."""
    return {**hit("manual", text, ordinal), "start_page": page, "title": "The toolkit manual"}


def test_a_name_the_question_gives_must_be_named_beside_the_value() -> None:
    """A rare capitalised name is part of the subject: another program's size states none of the one asked about."""
    question = "What buffer size does Quillwort use for each stream?"
    named = _paged("Quillwort reads each stream into a buffer whose size depends on the tool.", 3)
    other = _paged("Before version 3, the buffer size was fixed at 16 kilobytes in Brambleton for each stream.", 4)
    verdict = _verdict(question, [named, other])
    assert verdict.failing == "value_stated" and "Quillwort" in verdict.reasons[-1].detail
    own = _paged("Quillwort uses a buffer size of 64 kilobytes for each stream.", 5)
    assert _verdict(question, [named, other, own]).sufficient


def test_a_word_inside_another_things_name_names_that_thing() -> None:
    """ "size" in "--cache-size=N [default: 1000]" is the cache's size: it states no size of what is asked."""
    question = "What buffer size does Quillwort use for each stream?"
    option = _paged("Quillwort options for each stream: --cache-size=N [default: 1000] Only with --history=full.", 4)
    assert _verdict(question, [option]).failing == "value_stated"
    assert _others_cut("--cache-size=N [default: 1000] Only with QZ_FULL.", question).split() == [
        "[default:",
        "1000]",
        "Only",
        "with",
        ".",
    ]
    # The question's own names stay: the option asked about is named where its value is given.
    asked = "What is the largest value --depth accepts?"
    assert "--depth=<n>" in _others_cut("--depth=<n> accepts at most 200.", asked)


def test_a_default_is_no_bound_unless_the_default_is_asked() -> None:
    question = "Is there an upper bound on the value accepted by --max-workers, and if so what is it?"
    assert asks_value(question)
    default = _paged(
        "--max-workers=<number> [default: 500] Workers accepted. By default, the pool can run up to 500 workers. "
        "The default is 500 workers, which should be enough; no upper bound is given.",
        3,
    )
    assert _verdict(question, [default]).failing == "value_stated"
    bound = _paged("--max-workers accepts values up to 4096 workers; the default is 500.", 4)
    assert _verdict(question, [default, bound]).sufficient
    asked = "What is the default upper limit of workers that --max-workers sets?"
    assert _verdict(asked, [default]).sufficient


def test_a_default_asked_for_is_stated_as_a_default() -> None:
    question = "What is the default timeout of the QZ-9 gate, in seconds?"
    sizes = _paged("QZ-9 gate | timeout field | 4 bytes | 18 reserved", 3)  # an encoding table's row
    assert _verdict(question, [sizes]).failing == "value_stated"
    said = _paged("The QZ-9 gate timeout defaults to 30 seconds.", 4)
    assert _verdict(question, [sizes, said]).sufficient
    neighbour = _paged("QZ-9 gate timeout: see below. The QZ-9 gate latch opens after 30 seconds.", 5)
    assert _verdict(question, [sizes, neighbour]).failing == "value_stated"  # a value, said as no default
    unset = _paged("If not set, the QZ-9 gate timeout is 30 seconds.", 6)  # a default said otherwise
    assert _verdict(question, [sizes, unset]).sufficient


def test_a_hyphenated_name_is_what_has_the_value_asked_for() -> None:
    """ "the numeric value the gate-clip option defaults to": a neighbour entry's default is none of gate-clip's."""
    question = "What numeric value does the gate-clip server option default to?"
    other = _paged("gate-wait seconds Waits between two gates. The default value of this server option is 5.", 3)
    clip = _paged("gate-clip [on | off] Clips the gate's output when on.", 4)
    assert _verdict(question, [other, clip]).failing == "value_stated"
    said = _paged("gate-clip [on | off] Clips the gate's output. The default value of this server option is 1.", 5)
    assert _verdict(question, [other, said]).sufficient


def test_a_rare_word_no_passage_holds_is_what_has_the_value() -> None:
    """ "how many bytes does the Z (zorbyte) suffix mean?" beside a list of the other suffixes: none is stated."""
    question = "For the -span test, how many bytes does the Z (zorbyte) suffix represent?"
    listed = _paged(
        "The -span test takes a suffix: `k' for korbytes (1024 bytes), `M' for morbytes (1048576 bytes).", 3
    )
    assert _verdict(question, [listed]).failing == "value_stated"
    stated = _paged("The -span test takes a suffix: `Z' for zorbyte (1099511627776 bytes).", 4)
    assert _verdict(question, [listed, stated]).sufficient


def test_a_sentence_referring_back_to_another_entry_dates_that_entry() -> None:
    """ "QZ_HOLD (since 2.2) ... This option can be combined with QZ_RUSH only since 2.5.71": QZ_HOLD's date."""
    question = "Since which kernel version has the QZ_RUSH option been available?"
    hold = _paged(
        "QZ_HOLD (since kernel 2.2) If set, holds frames. This option can be combined with QZ_RUSH only since "
        "Qlib 2.5.71. QZ_DEFER (since Qlib 2.4) Wakes a listener.",
        3,
    )
    assert _verdict(question, [hold]).failing == "value_stated"
    rush = _paged("QZ_RUSH (since kernel 2.1) If set, sends at once. This option is on by default.", 4)
    assert _verdict(question, [hold, rush]).sufficient
    # A sentence naming the subject beside another member is about the subject: "It" after it refers to it.
    compared = _paged("The QZ_RUSH option sends at once; compare QZ_HOLD. It is there since kernel 2.1.", 5)
    assert _verdict(question, [hold, compared]).sufficient


def test_a_value_asked_for_may_be_written_in_hexadecimal() -> None:
    question = "What status byte value of the valve register means QZ_BadValve?"
    row = _paged("The status byte value of the valve register: QZ_BadValve | 0x7e | valve of the wrong size", 5)
    assert _verdict(question, [row]).sufficient
    assert stated_values("0x7e means QZ_BadValve; so is 0x1f.", "figure") == {"0x7e", "0x1f"}  # at a stop, too


def test_a_minimum_version_asked_for_is_a_version_stated_as_a_bound() -> None:
    question = "What is the minimum qzcore version required to build qzlib 4.2?"
    assert asked_form(question) == "version" and asked_bounds(question) == {"minimum"}
    assert asked_form("What is the release date of qzlib?") == "figure"  # a date, not a release
    assert asked_form("What is the version field in the qzlib header used for?") == "figure"
    assert asked_form("What was the release of the reserve in 2023?") == "figure"
    plain = _paged("Starting with qzlib 4.2.7, building qzlib requires a qzcore header; qzcore 2.4.1 is bundled.", 3)
    assert _verdict(question, [plain]).failing == "value_stated"
    bound = _paged("Building qzlib 4.2 requires qzcore version 2.3.0 or later.", 4)
    assert _verdict(question, [plain, bound]).sufficient


def test_a_number_of_other_things_is_no_count_of_what_is_asked() -> None:
    """ "the maximum number of groups (currently four); if a key has ..." counts groups, not keys; "out-of-range"
    states no bound."""
    question = "What is the maximum number of keys that can be members of a single gate group?"
    groups = _paged(
        "A gate group array holds the maximum number of groups (currently four); if a key has fewer groups, "
        "members of the extra gate groups are ignored.",
        3,
    )
    assert _verdict(question, [groups]).failing == "value_stated"
    keys = _paged("A single gate group may have at most 32 keys as members.", 4)
    assert _verdict(question, [groups, keys]).sufficient
    assert stated_bounds("If the group is out-of-range for the key, two bits are read.") == set()


def test_how_long_a_thing_waits_is_answered_by_a_time() -> None:
    """ "How long will X wait" asks a time: figures of an address or a range beside the subject's words state none;
    "how long may the name be" asks a length."""
    assert asked_form("How long will the client wait for QzProbeCommand before it gives up?") == "duration"
    assert asked_form("How long must a key be held down to toggle it?") == "duration"
    assert asked_form("How long may the synopsis line be?") == asked_form("How long is the timeout?") == "figure"
    assert asked_form("Which families are defined, and how long must the address be for each?") == "figure"
    assert stated_values("Waits 30s, eight seconds, 1.5 ms or a 90-second spell; 3 sections", "duration") == {
        "30s",
        "eight seconds",
        "1.5 ms",
        "90-second",
    }
    assert stated_values("It then waits indefinitely.", "duration") == {"indefinitely"}
    # "How often" asks a time between or a frequency; "periodically" gives none.
    assert asked_form("How often does the pager reopen the file?") == "duration"
    assert stated_values("Tens of ones; it turns every hour.", "duration") == {"every hour"}  # "tens" is no "ten s"
    assert stated_values("It reopens it hourly, or twice a day; it checks periodically.", "duration") == {
        "hourly",
        "twice",
    }
    question = "How long will the client wait for QzProbeCommand to answer before it closes the connection?"
    listed = _paged(
        "QzProbeCommand names a command the client will wait on to answer before it opens each connection to "
        "host 192.168.0.[0-9].",
        3,
    )
    assert _verdict(question, [listed]).failing == "value_stated"
    timed = _paged(
        "QzProbeCommand names a command; the client waits 5 seconds for it before closing the connection.", 3
    )
    assert _verdict(question, [listed, timed]).sufficient


def test_a_dotted_run_is_no_figure() -> None:
    """ "10.20.30.40" is an address and "4.7.19" a release: neither measures anything."""
    assert stated_values("Gates in 10.20.30.40 and release 4.7.19 have 64 slots.", "figure") == {"64"}


def test_which_release_asks_a_version_beside_the_subject_not_beside_the_word_release() -> None:
    """ "In which Quill release was QzOld renamed QzNew?" is not answered by the product's own first release."""
    question = "In which Quill release was QzOldKeys renamed to QzNewKeys?"
    renamed = _paged("QzNewKeys lists the keys to offer. It was renamed; it was formerly named QzOldKeys.", 3)
    history = _paged("Quill grew out of the free quillet 4.7.19 release by its first author.", 9)
    verdict = _verdict(question, [renamed, history])
    assert verdict.failing == "value_stated" and "QzOldKeys" in verdict.reasons[-1].detail
    dated = _paged("QzNewKeys lists the keys to offer; it was renamed from QzOldKeys in Quill 9.1.", 3)
    assert _verdict(question, [dated, history]).sufficient


def test_a_named_code_asked_for_is_answered_by_a_code_of_its_kind() -> None:
    """ "Which errno does qzset(2) return ..." needs an errno beside qzset, not another call's, nor a capability's
    name; "what does the error code QZ_FULL mean" asks no code."""
    assert asked_form("Which errno does qzset(2) return when the set is too large?") == "code"
    assert asked_form("Which signal does qz.kill() send by default?") == "code"
    assert asked_form("What does the error code QZ_FULL mean?") == "figure"
    assert asked_form("What exit status codes can the tool return?") == "figure"  # numbers
    assert asked_form("Which signal handler runs first?") == asked_form("What signal number has SIGQZ?") == "figure"
    assert stated_values("It fails with EQZDENY; see CAP_QZ and EXAMPLES.", "code", "errno") == {"EQZDENY"}
    assert stated_values("It sends SIGQZSTOP, then QZ_STOP.", "code", "signal") == {"SIGQZSTOP"}
    assert stated_values("It returns QZ_TOO_BIG, NOTE.", "code", "error code") == {"QZ_TOO_BIG"}
    question = "Which errno does qzset(2) return when the new set is not a subset of the allowed set?"
    rules = _paged("For qzset(2), the new set must be a subset of the allowed set of the gate.", 3)
    other = _paged("If the gate did not obtain the allowed set, then qzrun(2) fails with the error EQZDENY.", 4)
    verdict = _verdict(question, [rules, other])
    assert verdict.failing == "value_stated" and verdict.reasons[-1].detail == "no passage states an errno for qzset"
    stated = _paged("qzset(2) fails with EQZDENY when the new set is not a subset of the allowed set.", 5)
    assert _verdict(question, [rules, other, stated]).sufficient


def test_a_default_in_prose_is_said_beside_its_value() -> None:
    """ "By default it merges the gates, so ... 15 means the 15th gate" states no default of 15; "by default the wrap
    length is 70", "sends SIGQZSTOP by default" do; a list's number ("only 1. when ...") is no figure."""
    question = "What default wrap length does the qz 'w' verb use when no -w option is given?"
    far = _paged(
        "The qz tool by default merges all the gates, so $ is the last row of the last gate; 15 means the 15th "
        "row in the merged run, whatever the wrap length of the 'w' verb.",
        3,
    )
    assert _verdict(question, [far]).failing == "value_stated"
    near = _paged("The qz 'w' verb wraps rows; by default the wrap length is 70 characters.", 4)
    assert _verdict(question, [far, near]).sufficient
    assert stated_values("It is kept only 1. when a run ends, or 2. when the tool starts. It is 3.", "figure") == {"3"}
    question = "Which signal does qz_halt() send by default?"
    sent = _paged("qz_halt() sends SIGQZSTOP to the gate by default; see QZ_WAIT.", 5)
    assert _verdict(question, [sent]).sufficient


def test_a_code_asked_by_its_prefix_is_one_named_so() -> None:
    """ "Which QZERR_ error code ..." is answered by a QZERR_ code, not by another capitalised name of the text."""
    question = "Which QZERR_ error code does qzlib raise when qz_skip() is called while two-pass mode is on?"
    assert asked_form(question) == "code"
    said = _paged(
        "qz_skip(QZ_INFO, QZDIM rows) lets QZLIB skip rows; with two-pass mode on it raises an error (a QZERR_ code).",
        3,
    )
    verdict = _verdict(question, [said])
    assert verdict.failing == "value_stated"
    named = _paged("qz_skip() raises QZERR_NOT_SKIPPABLE when two-pass mode is on; qzlib stops.", 4)
    assert _verdict(question, [said, named]).sufficient


def test_a_code_is_stated_beside_the_condition_asked() -> None:
    """ "Which signal do I send to qzd to make it rotate its logs" is not answered by the signal that makes qzd
    flush: the sentence names what the code does, not only the program (and "send" only asks how it comes)."""
    question = "Which signal do I send to qzd to make it rotate its log files immediately?"
    flush = _paged(
        "qzd rotates its log files when they grow too large. Note that qzd keeps records in memory until sending "
        "SIGQZONE to qzd makes it flush them to disk.",
        3,
    )
    verdict = _verdict(question, [flush])
    assert verdict.failing == "value_stated" and "signal" in verdict.reasons[-1].detail
    rotate = _paged("Sending SIGQZTWO to qzd makes it rotate its log files immediately.", 4)
    assert _verdict(question, [flush, rotate]).sufficient


def test_a_release_beside_another_entry_dates_nothing_asked() -> None:
    """ "Since which Quill release does the listing include qz2 records?": "since" only asks when, so a sibling
    entry's "[since 2.2.9]" is no release of qz2."""
    question = "Since which Quill release does the listing include qz2 (long digest) records?"
    listing = {
        **_paged(
            "The record types of the listing: • qz1 :: short digest • qz2 :: long digest (in field 10) "
            "• rvq :: revocation signature (standalone) [since 2.2.9]",
            3,
        ),
        "title": "Quill details",  # the release's program titles the document
    }
    assert _verdict(question, [listing]).failing == "value_stated"
    dated = _paged("qz2 :: long digest records are listed since Quill 2.1.", 4)
    assert _verdict(question, [listing, dated]).sufficient


def test_a_release_is_the_subjects_when_its_entry_gives_it() -> None:
    """ "Which kernel version added qz_dev?": "version 1 quotas" in another entry of the page, or a word of the
    question beside it ("supports"), dates nothing of qz_dev; its own entry's "(since 2.6.19)" does."""
    question = "Which kernel version added support for the qz_dev feature?"
    entry = _paged("qz_dev=path Sets the gate device's path for the kernel; see qzfs(5).", 3, 1)
    page = _paged(
        "Apart from the old quotas (version 1 quotas), qzfs supports journaled quotas, a feature added.", 3, 2
    )
    verdict = _verdict(question, [entry, page])
    assert verdict.failing == "value_stated" and verdict.reasons[-1].detail == "no passage states a version for qz_dev"
    own = _paged("qz_dev This feature marks a gate device; the kernel supports it since 2.6.19.", 4)
    assert _verdict(question, [entry, page, own]).sufficient


def test_a_unit_asked_for_is_named_beside_the_subject() -> None:
    """ "In what unit are the idle and active times of qz.usage() given?" is answered by a unit of measure, not by
    another figure of the call."""
    question = "In what unit are the idle and active times returned by qz.usage() expressed?"
    assert asked_form(question) == "unit" and asks_value(question)
    assert stated_values("It waits 5 ms, then 2 bytes; it gives us 3.", "unit") == {"ms", "bytes"}
    figures = _paged("qz.usage() returns idle and active times for the 2 last calls of the gate.", 3)
    verdict = _verdict(question, [figures])
    assert verdict.failing == "value_stated" and "no passage states a unit for" in verdict.reasons[-1].detail
    unit = _paged("qz.usage() returns idle and active times, expressed in milliseconds.", 4)
    assert _verdict(question, [figures, unit]).sufficient


def test_without_only_asks() -> None:
    """ "Without qz_link, how many subgates can a gate hold?": "without" is in no statement of what holds."""
    question = "Without qz_link, how many subgates can a single gate hold?"
    said = _paged("qz_link Normally, a gate has no more than 64,998 subgates; this feature lifts the limit.", 3)
    assert _verdict(question, [said]).sufficient


def test_a_unit_is_stated_without_its_measure_in_the_entry() -> None:
    """ "What unit is the 10 of -length 10 counted in?": "`b' for 512-byte blocks (the default if no suffix is
    used)" names no length but gives the unit; the quantity "10" is the question's own."""
    question = "If I write -length 10 with no suffix, what unit is the 10 counted in?"
    entry = _paged(
        "-length n[bk] The gap uses n units of space, rounding up. The following suffixes can be used: `b' for "
        "512-byte blocks (this is the default if no suffix is used) `k' for kibibytes",
        3,
    )
    assert _verdict(question, [entry]).sufficient
    other = _paged("-length n[bk] The gap uses n units of space; suffixes can be written after n.", 3)
    assert _verdict(question, [other]).failing == "value_stated"


def test_a_path_is_the_subjects_when_its_entry_gives_it() -> None:
    """ "Where does qzd keep the stamp of Keep=true?": "directories below /run/qz to keep sockets" on the same
    page is another thing's path; the entry's own "kept under /var/lib/qzd/" answers."""
    question = "Where on disk does qzd store the stamp file for a gate with Keep=true — what's the path?"
    entry = _paged("Keep= If true, the time the gate last ran is stored on disk in a stamp file.", 3, 1)
    other = _paged("Daemons frequently require directories below /run/qz to keep sockets and stamp files.", 3, 2)
    verdict = _verdict(question, [entry, other])
    assert verdict.failing == "value_stated" and verdict.reasons[-1].detail == "no passage states a path for Keep"
    own = _paged("Keep= The stamp file of each gate is stored on disk under /var/lib/qzd/stamps/.", 4)
    assert _verdict(question, [entry, other, own]).sufficient


def test_a_range_bounds_only_by_its_figures() -> None:
    """ "between 0 and the time given" states a minimum, no maximum; "from 0 to 7" states both."""
    assert stated_bounds("Delay by a random time between 0 and the specified time value.") == {"minimum"}
    assert stated_bounds("The priority (from 0 to 7, where 0 is the highest).") >= {"minimum", "maximum"}
    question = "What's the largest value QzDelaySec= is allowed to take?"
    assert asks_value(question)
    said = _paged("QzDelaySec= Delay the gate by a random time between 0 and the time value it is allowed to take.", 3)
    assert _verdict(question, [said]).failing == "value_stated"


def test_an_option_entrys_later_sentences_are_its_own() -> None:
    """ "What is the default timeout of QzStart=?": "QzWait= Sets the time to wait. Defaults to 100ms." gives QzWait's
    default, sentence after sentence, until an entry of the subject opens."""
    question = "What default timeout, in seconds, does qzd use for QzStart= when it is not set?"
    other = _paged("QzStart= Sets the start timeout of qzd. QzWait= Sets the time to wait. Defaults to 100 seconds.", 3)
    assert _verdict(question, [other]).failing == "value_stated"
    own = _paged("QzWait= Sets the time to wait. QzStart= Sets the start timeout. Defaults to 90 seconds.", 4)
    assert _verdict(question, [own]).sufficient
    # A mention of the subject in passing is no entry of it: the sentence is still QzWait='s.
    mention = _paged(
        "QzStart= Sets the start timeout of qzd. QzWait= Sets the wait. Unlike QzStart=, it defaults to 100 seconds.", 5
    )
    assert _verdict(question, [mention]).failing == "value_stated"


def test_a_question_writing_no_option_may_be_answered_by_any_entry() -> None:
    """ "What default wait time does qzd use, in seconds?" writes no option: QzWait='s entry answers it."""
    question = "What default wait time, in seconds, does qzd use when nothing is set?"
    entry = _paged("QzStart= Sets the start timeout of qzd. QzWait= Sets the wait time. Defaults to 100 seconds.", 3)
    assert _verdict(question, [entry]).sufficient


def test_a_release_in_the_subjects_own_section_is_its_own() -> None:
    """A passage under the subject's section heading is its entry, naming it or not ("Supported since 2.6.19.")."""
    question = "Which kernel version added support for the qz_dev feature?"
    other = _paged("qz_dev=path Sets the gate device's path; the kernel supports it.", 3, 1)
    section = {**_paged("This feature was added to the kernel, supported since 2.6.19.", 4), "section": "qz_dev"}
    assert _verdict(question, [other, section]).sufficient


def test_a_passage_holding_the_subjects_entry_gives_its_value_there() -> None:
    """QZ_DATA's entry says its data may be split, never at what length; ZA_PLAIN's entry further on gives "a 1 byte
    code" of its data, which is no length of QZ_DATA's, though it names data."""
    question = "At what length does qzgate split data across several QZ_DATA status lines?"
    entries = _paged(
        "QZ_DATA <string> The data may be split among several QZ_DATA lines. ZA_PLAIN <format> The format is a "
        "1 byte code of the data: 62 is binary data.",
        3,
    )
    assert _verdict(question, [entries]).failing == "value_stated"
    stated = _paged("QZ_DATA <string> The data is split into QZ_DATA lines of at most 100 bytes each.", 4)
    assert _verdict(question, [entries, stated]).sufficient


def test_within_the_subjects_own_entry_a_sentence_need_not_name_it() -> None:
    """ "QZ_WATCH A list of gates ... There is a maximum of 10 gates that can be held at once.": the value is QZ_WATCH's
    though the sentence names neither it nor what the question measures besides the gates counted."""
    question = "How many gates can qzsh hold through QZ_WATCH?"
    entry = _paged(
        "QZ_WATCH A colon separated list of gates for qzsh to hold. It overrides the old list. There is a maximum "
        "of 10 gates that can be held at once. QZ_PS1 The prompt, which defaults to 2 signs.",
        5,
    )
    assert _verdict(question, [entry]).sufficient


def test_a_release_asked_of_a_rare_word_is_stated_beside_it() -> None:
    """ "Since which qzlib version is the zorbgroups database supported?": a release beside other words of the page
    ("Starting with qzlib 2.33, qz.conf is reloaded") dates nothing of zorbgroups; one naming it does, even when it
    names the product otherwise ("Since Quux 3.19, zorbgroups entries ..."), but not one dating another rare word
    ("zorbgroups ... removed in qzip 1.18")."""
    question = "Since which qzlib version is the zorbgroups database supported in qz.conf?"
    named = _paged("The zorbgroups database lists the groups; qz.conf may name it like any other database.", 3)
    other = _paged("Starting with qzlib 2.33, qz.conf is automatically reloaded when the database changes.", 4)
    verdict = _verdict(question, [named, other])
    assert verdict.failing == "value_stated" and "zorbgroups" in verdict.reasons[-1].detail
    own = _paged("Since Quux 3.19, the zorbgroups database is supported in qz.conf.", 5)
    assert _verdict(question, [named, other, own]).sufficient
    question = "Since which qzlib version is zorbgroups support for qzip files in qz.conf?"
    another = _paged("Support for zorbgroups files of qzip was removed in qzip 1.18 from qz.conf.", 5)
    assert not _verdict(question, [named, other, another]).sufficient


def test_a_year_asked_is_stated_as_a_year() -> None:
    """ "In what year did X ..." is answered by a sentence giving a year beside X, not by "soon afterward" or by a
    release number."""
    question = "In what year did the qzglob program become a shell built-in?"
    vague = _paged("Long ago, in release 6, there was a qzglob program. Soon afterward it became a shell built-in.", 2)
    assert _verdict(question, [vague]).failing == "value_stated"
    dated = _paged("The qzglob program became a shell built-in in 1979, soon after release 6.", 2)
    assert _verdict(question, [dated]).sufficient
    ending = _paged("Soon after release 6, the qzglob program became a shell built-in in 1979.", 2)
    assert _verdict(question, [ending]).sufficient
    # A choice among the question's own years, or a year's report, asks no year a page must give.
    for question in ("Which year had more qzglob programs, 2019 or 2020?", "Which year's report names qzglob?"):
        assert "value_stated" not in [r.check for r in _verdict(question, [vague]).reasons], question


def test_a_range_asked_for_is_stated_by_both_its_ends() -> None:
    """ "What range of values does QZ_LIFT accept?" is stated by "between 0 and 255", without the word "range"; one
    end alone states no range."""
    question = "What range of values does QZ_LIFT accept, and what is the usual default?"
    general = _paged("Each gate option gives the range of values it will accept.", 2)
    both = _paged("QZ_LIFT Sets the lift. The lift may be between 0 and 255. The default is 1.", 3)
    assert _verdict(question, [general, both]).sufficient
    one = _paged("QZ_LIFT Sets the lift. The lift may be at most 255. The default is 1.", 3)
    assert _verdict(question, [general, one]).failing == "value_stated"
    # Two bounds in two sentences ("at least 2 W" is the lamp's) state no range.
    apart = _paged("QZ_LIFT Sets the lift. The lamp draws at least 2 W. The lift may be at most 255. Default is 1.", 3)
    assert _verdict(question, [general, apart]).failing == "value_stated"
