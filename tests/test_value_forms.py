"""agent.value_forms: the form a question asks a value in and the values of that form a text states."""

from agent.value_forms import asked_form, stated_values


def test_an_error_code_is_no_acronym() -> None:
    """ "What error code does new Gate() throw ...": "WHATWG URL" names no code; "QZ_BAD_PATH", "QZERR" and an errno
    do."""
    text = "Pass a WHATWG URL object; it throws QZ_BAD_PATH, QZERR or EQZPATH, see JSON."
    assert stated_values(text, "code", "error code") == {"QZ_BAD_PATH", "QZERR", "EQZPATH"}


def test_a_unit_is_asked_and_stated_as_a_word_of_measure() -> None:
    assert asked_form("In what unit is the gate's delay given?") == asked_form("Which units does qz use?") == "unit"
    assert asked_form("How many units does a gate hold?") == "count"
    assert stated_values("It waits 5 ms, then 2 bytes; it's 3 s.", "unit") == {"ms", "bytes"}  # a lone "s" is none
    assert stated_values("`b' for 512-byte blocks, the x-bits", "unit") == {"byte", "blocks"}


def test_a_path_is_asked_and_written_as_one() -> None:
    question = "Where on disk does qzd keep the stamp of a gate with Persistent=true — what's the path?"
    assert asked_form(question) == "path" and asked_form("Which directory holds the gates?") == "path"
    assert asked_form("What is the path of least resistance worth?") == "path"  # "what is the X path"
    text = "It is kept in /var/lib/qzd/stamps/ and ~/.qzrc; and/or TCP/IP, read-only /proc."
    assert stated_values(text, "path") == {"/var/lib/qzd/stamps/", "~/.qzrc", "/proc"}


def test_how_many_seconds_asks_a_time() -> None:
    """ "How many seconds does qzd wait?" is answered by a time ("30 s"), not by a count ("the flag is always 1")."""
    assert asked_form("How many seconds does qzd wait for a gate before it kills it?") == "duration"
    assert asked_form("How many gates does qzd wait for?") == "count"
    assert stated_values("The flag is always 1.", "duration") == set()
