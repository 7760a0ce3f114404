"""The value check reads a value as its entry's (agent.values): the unit counted and a default's word name nothing
measured, a default stated alone is the entry's it ends, and a version asked is the one the subject's entry gives."""

from tests.test_values import _paged, _verdict

QUESTION = "How many seconds does Quillwort's fetch method wait before a connection times out by default?"


def test_the_unit_counted_and_a_defaults_word_name_nothing_measured() -> None:
    """ "10 seconds by default" of another setting is no wait of the method asked about."""
    question = QUESTION
    other = _paged(
        "Quillwort's fetch method opens a connection. Qz-Max-Age (qz-max-age) sets how old an index may be. It is 10 "
        "seconds by default.",
        3,
    )
    verdict = _verdict(question, [other])
    assert verdict.failing == "value_stated"
    own = _paged("Quillwort's fetch method waits 30 seconds for a connection by default before it times out.", 4)
    assert _verdict(question, [other, own]).sufficient
    # A default stated alone ends the entry that says what it measures.
    entry = _paged("Quillwort's fetch method waits for a connection before it times out. Default: 30 seconds.", 5)
    assert _verdict(question, [other, entry]).sufficient


def test_what_version_of_a_program_is_the_subjects_entry_s() -> None:
    """The program titles the document: a version asked is still the one the option's entry gives."""
    question = "What version of qzd first added the QzHold= option?"
    entry = {**_paged("QzHold= Takes a boolean; the first hold is added to the queue.", 3), "title": "qzd.5"}
    assert _verdict(question, [entry]).failing == "value_stated"
    dated = {**_paged("QzHold= Takes a boolean. Added in version 247.", 4), "title": "qzd.5"}
    assert _verdict(question, [entry, dated]).sufficient


def test_a_default_stated_alone_is_named_by_the_entry_it_ends() -> None:
    entry = _paged(
        "QZ_FETCH_WAIT Sets how long Quillwort's fetch method waits before a connection times out. Values above 60 are "
        "clamped. Default: 30 seconds.",
        3,
    )
    assert _verdict(QUESTION, [entry]).sufficient
    other = _paged("QZ_INDEX_AGE Sets how old an index may be. Default: 30 seconds.", 4)
    opening = _paged("Quillwort's fetch method opens a connection and waits before it times out.", 4, 1)
    assert _verdict(QUESTION, [opening, {**other, "ordinal": 5}]).failing == "value_stated"


def test_a_passage_beginning_mid_entry_keeps_the_defaults_word() -> None:
    """The entry opened in the passage before: what its default measures is said there."""
    opening = _paged("QZ_FETCH_WAIT Sets how long Quillwort's fetch method waits before a connection times out.", 5, 1)
    rest = _paged(
        "Default: 30 seconds. QZ_INDEX_AGE Sets how old an index may be before the fetch method's connection waits.",
        5,
        2,
    )
    assert _verdict(QUESTION, [opening, rest]).sufficient


def test_a_default_counts_what_its_entry_counts() -> None:
    """ "The default value in this file is 1,000." counts the gates its entry's opening names: the counted noun need
    not be repeated beside the figure."""
    question = "What is the default limit on the number of gates the root user can open?"
    entry = _paged(
        "/qz/root_maxgates (since 2.2) This is the maximum number of gates that the root user may open. The default "
        "value in this file is 1,000.",
        3,
    )
    assert _verdict(question, [entry]).sufficient
    # The default of an entry counting something else counts no gates, though the page names them.
    other = _paged(
        "Each user may open gates. /qz/root_maxbytes (since 2.2) This is the maximum number of bytes that the root "
        "user may hold. The default value in this file is 9 and the limit may be raised.",
        3,
    )
    assert _verdict(question, [other]).failing == "value_stated"
    # A figure beside "the default" is no default's figure ("thirty times the default value"): it counts nothing of
    # the entry's.
    bounds = _paged(
        "/qz/root_maxgates (since 2.2) This is the maximum number of gates that the root user may open. The minimum "
        "value is 10 and the maximum is 3,000 (thirty times the default value).",
        3,
    )
    assert _verdict(question, [bounds]).failing == "value_stated"
    # A default of a measure of its own counts nothing else, and a passage opening no entry lends no noun.
    threads = "How many worker threads does qzd start by default?"
    idle = _paged("qzd starts worker threads on demand. The default idle timeout is 30 seconds.", 3)
    assert _verdict(threads, [idle]).failing == "value_stated"
