"""agent.value_forms: the form a question asks a value in and the values of that form a text states."""

from agent.value_forms import asked_form, stated_values


def test_an_error_code_is_no_acronym() -> None:
    """ "What error code does new Gate() throw ...": "WHATWG URL" and a standard stream name no code; "QZ_BAD_PATH",
    "QZERR" and an errno do."""
    text = "Pass a WHATWG URL object; it throws QZ_BAD_PATH, QZERR or EQZPATH, see JSON and STDERR."
    assert stated_values(text, "code", "error code") == {"QZ_BAD_PATH", "QZERR", "EQZPATH"}


def test_a_unit_is_asked_and_stated_as_a_word_of_measure() -> None:
    assert asked_form("In what unit is the gate's delay given?") == "unit"
    assert asked_form("What unit is the 10 of -gap 10 counted in?") == asked_form("Which units does qz use?") == "unit"
    for other in ("Which unit does qz.timer start?", "Which unit file holds it?", "How many units does a gate hold?"):
        assert asked_form(other) != "unit", other
    # A short unit, or one that is an ordinary word too, only right after a figure; a unit may be joined to it.
    assert stated_values("It waits 5 ms, then 2 bytes; it's 3 s; it gives us days.", "unit") == {"ms", "bytes", "s"}
    assert stated_values("`b' for 512-byte blocks, 10 blocks, the x-bits; 100ms, 4KiB", "unit") == {
        "byte",
        "blocks",
        "ms",
        "kib",
    }


def test_a_path_is_asked_and_written_as_one() -> None:
    question = "Where on disk does qzd keep the stamp of a gate with Keep=true — what's the path?"
    assert asked_form(question) == "path" and asked_form("Which directory holds the gates?") == "path"
    for other in ("What is the maximum path length qzfs accepts?", "Which directory entries does qzls hide?"):
        assert asked_form(other) == "figure", other
    assert asked_form("What is the PATH variable used for?") == "figure"
    text = "It is kept in /var/lib/qzd/stamps/ and ~/.qzrc; and/or TCP/IP, read-only /proc."
    assert stated_values(text, "path") == {"/var/lib/qzd/stamps/", "~/.qzrc", "/proc"}


def test_how_many_seconds_asks_a_time() -> None:
    """ "How many seconds does qzd wait?" is answered by a time ("30 s"), not by a count ("the flag is always 1")."""
    assert asked_form("How many seconds does qzd wait for a gate before it kills it?") == "duration"
    assert asked_form("How many gates does qzd wait for?") == "count"
    assert stated_values("The flag is always 1.", "duration") == set()


def test_how_long_is_x_done_asks_a_time() -> None:
    """ "How long is X delayed before ...?" asks a time ("a 5s timeout"); "how long is a name?" a length."""
    assert asked_form("At most how long is the gate's start delayed before it runs anyway?") == "duration"
    assert asked_form("How long is the key stored?") == "duration"
    assert asked_form("How long is an encoded name?") == asked_form("How long is a qz name allowed to be?") == "figure"
    assert asked_form("How long is the QZ-1 key and what gate lengths are allowed?") == "figure"


def test_a_time_may_be_stated_without_a_count() -> None:
    """ "How long do files stay in /var/qz?" is answered by "kept for an indefinite period" or "removed at each
    reboot", not by "files are kept here", "on the boot partition" or "at an unknown time"."""
    for text in (
        "Files are kept for an indefinite period.",
        "Gate files are removed at each reboot, as on every boot up.",
        "Gates are kept across reboots.",
        "Held until the next reboot; stale ones go on boot.",
    ):
        assert stated_values(text, "duration"), text
    for text in (
        "Files are kept here; the boot loader reads them.",
        "It is read on the boot partition.",
        "Signals may arrive at an arbitrary time.",
    ):
        assert not stated_values(text, "duration"), text


def test_what_version_asks_a_version_but_not_a_field_or_notes_named_so() -> None:
    assert asked_form("What version of qzd first added the QzHold= option?") == "version"
    assert asked_form("Since what release is QzHold= supported?") == "version"
    assert asked_form("What release notes mention QzHold=?") != "version"
    assert asked_form("What version field does the qz header carry?") != "version"
    # A product named with a dot, and a word between it and "version".
    assert asked_form("In which Qz.js major version will QzGate start throwing?") == "version"


def test_a_pre_release_mark_goes_with_its_version() -> None:
    assert stated_values("In 0.6b1, qz_get() was split into two.", "version") == {"0.6b1"}
    assert stated_values("Since 2.0rc2 and 1.4-beta3 it is gone; see 3.2.", "version") == {"2.0rc2", "1.4-beta3", "3.2"}
    assert stated_values("The 2.0abc file is read.", "version") == set()
    # A letter alone is no pre-release: a size ("a 1.3B model"), a figure's part ("Figure 3.1a").
    assert stated_values("A 1.3B model and a 6.7b one, see Figure 3.1a.", "version") == set()


def test_a_digit_written_as_an_option_is_no_figure() -> None:
    """ "-1 or --fast" is a flag of the command; "is -6" or "set it to -1" is a value."""
    flags = "Regulate the speed using the digit #, where -1 or --fast is the fastest and -9 --best the slowest."
    assert stated_values(flags, "figure") == set()
    assert stated_values("The default level is -6; set it to -1 to restore it.", "figure") == {"-6", "-1"}
    assert stated_values("It returns -1 or -EQZ on failure.", "figure") == {"-1"}
