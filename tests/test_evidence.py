"""Coverage of agent.evidence: how a passage holds a question's term (keys pressed together however spaced, a name
with its number only where the two are written together)."""

from agent.assess import assess
from agent.evidence import (
    is_short_option,
    names_path,
    read,
    term_covered,
    token_set,
    without_markup,
    written_code,
    written_in,
)
from kb.text import squashed
from tests.test_agent_units import assess_state, hit


def test_code_the_question_writes_is_held_only_as_written() -> None:
    """ "--qz-errors" is not "--qz" beside "errors"; "glue()" is held by "glue (parts)" or "x.glue(", not by
    "gluing"."""
    text = "With the --qz option, errors are reported; gluing parts uses x.glue (p) or --retries=3."
    assert written_in("--qz", text) and written_in("--retries", text) and not written_in("--qz-errors", text)
    assert written_in("glue()", text) and not written_in("glu()", text)
    # Typeset dashes are hyphens, a call may be capitalised at a sentence's start.
    assert written_in("--qz-errors", "the −−qz‐errors flag") and written_in("--verbose", "The –verbose option")
    assert written_in("qz_open()", "Qz_open() returns 0.")
    # An escape keeps its case: "%q" is another escape, "100%Q" no escape.
    assert written_in("%Q", "%Q The hash of the host.") and not written_in("%Q", "%q is the port; 100%Q")
    # A short option keeps its case, whole, after a hyphen or a typeset dash ("-k", "−k"; not "-K", "-kb", "x-k").
    assert written_in("-k", "-k --keep Keeps files.") and written_in("-k", "the −k flag")
    assert not any(written_in("-k", t) for t in ("-K Kills.", "-kb sets", "the x-k pair"))
    # A path whole, or a path within it; not another path ending the same way, nor "and/or".
    assert written_code("Is /var/qz, and/or ~/.qzrc, still read? q/**/z") == ["/var/qz", "~/.qzrc", "q/**/z"]
    assert written_code("Is (a+b)/2 or 5%/year, ${QZ}/x, C:/qz or https://qz.org/a/b a path?") == []
    assert written_in("/qz", "/qz/run and /qz. too") and not written_in("/qz", "/var/qz Like /qzx, it")
    # Named by its last part only when that is quoted or called a directory: "run the gate" names no "/run".
    assert names_path("/qz", 'the "qz" directories') and names_path("/qz", "each qz directory")
    assert not names_path("/run", "run the gate") and not names_path("/qz", "a link to /var/qz")
    # A wildcard pattern, quoted or not; not "*" alone (a product) nor another pattern holding it.
    assert written_code("Why does `qz 's/q*/Z/' *.qz` fail? 365 * x; /srv/qz/gate* too") == [
        "s/q*/Z/",
        "*.qz",
        "/srv/qz/gate*",
    ]
    assert written_in("q/**/z", 'For example, "q/**/z" matches "q/z".') and not written_in("*.qz", "all *.qzx files")
    # A footnote's or emphasis's star and arithmetic are no patterns; a path a pattern goes on is the pattern's.
    assert written_code("Why did Revenue* and **net** rise 2*3 or 3.5*10^6 times?") == []
    assert written_code("Is /var read, or only /var/qz/*.log?") == ["/var", "/var/qz/*.log"]
    question = "What does the --qz-errors option of the gate do?"
    state = {**assess_state(question, [hit("manual", text)]), "question": question}
    assert assess(state).missing_identifiers == ["--qz-errors"]


def test_an_acronyms_plural_is_covered_by_the_acronym() -> None:
    text = ["Each QZ holds a pen; the QZCONTEXT type names it."]
    assert term_covered("QZs", token_set(text), squashed(text))
    assert not term_covered("PRs", token_set(text), squashed(text))
    side = ["The video shows the side panel."]  # "ID" inside "video" and "side" is no acronym
    assert not term_covered("IDs", token_set(side), squashed(side))
    joined = ["The keepalive timer runs."]  # a hyphenated term written joined
    assert term_covered("keep-alive", token_set(joined), squashed(joined))


def test_a_word_is_covered_in_its_british_or_american_spelling() -> None:
    text = ["The gate's default behavior is to initialize the colour table."]
    tokens, flat = token_set(text), squashed(text)
    assert all(term_covered(w, tokens, flat) for w in ("behaviour", "initialise", "color", "behavior"))
    assert not term_covered("harbour", tokens, flat) and not term_covered("gator", tokens, flat)


def test_keys_pressed_together_are_covered_however_spaced() -> None:
    text = ["To enter the sequence Shift + Ctrl + Z, press and release each key."]
    assert term_covered("Shift+Ctrl+Z", token_set(text), squashed(text))
    assert not term_covered("Shift+Alt+Z", token_set(text), squashed(text))


def test_a_name_with_its_number_is_covered_only_where_the_two_are_written_together() -> None:
    text = ["The Gate Level 3 Lock is held while 5 valves and the Level 12 seal are down."]
    assert not term_covered("Level 5", token_set(text), squashed(text))
    assert not term_covered("Level 1", token_set(text), squashed(text))  # "Level 12" is another
    assert term_covered("Level 3", token_set(text), squashed(text))
    question = "Which code does the gate assign to Level 5 Lock?"
    verdict = assess(
        {
            **assess_state(question, [hit("manual", "The gate assigns code 0x1a03 to Level 3 Lock and 5 to others.")]),
            "question": question,
        }
    )
    assert verdict.failing == "identifiers_covered" and "Level 5" in verdict.reasons[0].detail


def test_a_readers_story_anchors_the_identifier_but_needs_no_cover() -> None:
    entry = hit("errors", "EQZ (Too many open gates): the gate table is full. Raise the limit with qzlimit -n 2048.")
    question = "My script opens lots of gates at night on my laptop and crashes with EQZ. How can I fix it?"
    assert assess({**assess_state(question, [entry]), "question": question}).sufficient
    asked = "My script opens lots of gates and crashes with EQZ. Which laptop vendor patched it in firmware?"
    assert not assess({**assess_state(asked, [entry]), "question": asked}).sufficient


def test_names_joined_by_a_slash_are_each_covered() -> None:
    """ "QzRetry/QzTimeout" names two settings a document writes apart: each is found, not the pair run together."""
    text = ["QzRetry sets the retries. QzTimeout sets the time to wait."]
    assert term_covered("QzRetry/QzTimeout", token_set(text), squashed(text))
    assert not term_covered("QzRetry/QzLimit", token_set(text), squashed(text))
    # Codes of one family too ("qz3/qz4"), not only the pair as written.
    codes = ["Mount options for qz3: the qz4 file system reads them too."]
    assert term_covered("qz3/qz4", token_set(codes), squashed(codes))


def test_markup_left_in_a_text_hides_no_term() -> None:
    """A table converted carelessly keeps its tags: "<kbd>Qz</kbd>+<kbd>D</kbd>" still holds "Qz+D", and reads
    without them."""
    row = "<tr> <td><kbd>Qz</kbd>+<kbd>D</kbd></td> <td>Deletes the gate</td> </tr>"
    assert term_covered("Qz+D", *read([row])) and not term_covered("Qz+X", *read([row]))
    assert without_markup(row) == "Qz + D Deletes the gate"
    assert (
        without_markup("A gate of 3 < 4 rows, --log=<file> for <b>all</b>.")
        == "A gate of 3 < 4 rows, --log=<file> for all."
    )


def test_a_cells_tags_are_those_its_passage_closes() -> None:
    """A sentence of a cell holds its opening tag only; the passage closes it."""
    cell = "<tr> <td><b>QzGate</b> deletes the gate at once."
    assert without_markup(cell, f"{cell} It then stops.</td> </tr>") == "QzGate deletes the gate at once."
    assert is_short_option("-k") and not is_short_option("--keep") and not is_short_option("-1")
