"""kb.sentences: a chunk's sentences (table rows, abbreviations, footnote marks, numbered list items, a markup tag
opening a sentence) and the words the next chunk finishes a cut sentence with."""

from __future__ import annotations

from kb.sentences import is_row_line, joiner, run_on, sentences


def test_sentences_keep_table_rows_and_abbreviations() -> None:
    text = "3 Results\nThe model, e.g. the large one, wins. It is fast.\nA | B | C\nFinal words here."
    assert sentences(text) == ["The model, e.g. the large one, wins.", "It is fast.", "A | B | C", "Final words here."]
    hours = "The call starts at 6:30 a.m. (Eastern time) with Harbour Inc. The U.S. Department attends."
    assert sentences(hours) == [
        "The call starts at 6:30 a.m. (Eastern time) with Harbour Inc.",
        "The U.S. Department attends.",
    ]
    # Such an abbreviation ends a sentence before a word that opens one.
    assert sentences("Most sales are in the U.K. We also sell at 4 p.m. In June it rose.") == [
        "Most sales are in the U.K.",
        "We also sell at 4 p.m.",
        "In June it rose.",
    ]


def test_sentences_join_a_word_split_at_a_line_end() -> None:
    assert sentences("The model is trai-\nned on text. Then it runs.") == [
        "The model is trained on text.",
        "Then it runs.",
    ]


def test_sentences_end_at_a_footnote_mark_or_a_closing_quote() -> None:
    text = (
        "It is in the tensor library.1 Because it is common, see \u201cThe Guide.\u201d2 In this work we go. "
        "As in Fig.1 Then."
    )
    assert sentences(text) == [
        "It is in the tensor library.",
        "Because it is common, see \u201cThe Guide.\u201d",
        "In this work we go.",
        "As in Fig.1 Then.",
    ]


def test_list_items_run_into_one_line_are_sentences_of_their_own():
    bullets = "Two rules are implicit: • All text types are plain. • All streams are octets. Then more."
    assert sentences(bullets) == [
        "Two rules are implicit: All text types are plain.",  # the first item stays with its lead-in
        "All streams are octets.",
        "Then more.",
    ]
    options = "Usage: tool [OPTION] FILE Reads FILE. -s, --strict use strict decoding -h, --help display help"
    assert sentences(options) == [
        "Usage: tool [OPTION] FILE Reads FILE.",
        "-s, --strict use strict decoding",
        "-h, --help display help",
    ]
    assert sentences("Run it with --help or -v to see more.") == ["Run it with --help or -v to see more."]


def test_run_on_finishes_a_sentence_cut_at_a_chunk_end_from_the_next_chunk() -> None:
    text = "Valves are checked weekly. The seal is replaced when it"
    assert run_on(text, "shows wear or leaks. Logs are kept for ten years.") == "shows wear or leaks."
    # A hyphenated compound cut at its hyphen is joined without a space (see kb.sentences.joiner).
    assert run_on("Seals are state-of-the-", "art at the plant. Logs.") == "art at the plant."
    assert sentences("Seals are state-of-the-" + joiner("Seals are state-of-the-") + "art at the plant.") == [
        "Seals are state-of-the-art at the plant."
    ]
    # Nothing to finish: the text ends a sentence or a table row; the next chunk opens something new.
    assert run_on("Valves are checked weekly.", "shows wear. Logs are kept.") == ""
    assert run_on("Revenue | 2018: 5", "shows wear.") == ""
    assert run_on(text, "Pressure tests follow. Logs are kept.") == ""
    # Inside an open bracket the sentence goes on, whatever the case of the next chunk's first word.
    bracket = "See the quarterly report for the 12 weeks ended March 25, 2023 (Q1 2023"
    assert run_on(bracket, "Report 7-B) filed with the registry. 1") == "Report 7-B) filed with the registry."
    assert run_on("As listed [Q1 2023", "Report 7-B] filed here.") == "Report 7-B] filed here."
    assert run_on("Steps a) and b) are listed (see the", "Appendix for details). More.") == "Appendix for details)."
    # ... but not when the rest never closes the bracket: a heading or a new sentence follows.
    assert run_on("Sales grew in all regions (see Note 4", "Liquidity and Capital\nOur cash was $5 million.") == ""
    # A heading or a numbered item ends the text or opens the next chunk: nothing runs on.
    assert run_on("Valves are checked.\n3 Results", "the seals held. More.") == ""
    assert run_on("Steps:\n1. Remove the cover", "2. Fit the seal. 3. Test it.") == ""
    assert run_on("Figure 3 Throughput by month", "1. Introduction\nThis paper studies pumps.") == ""
    # The rest never ends within the limit, or a table interrupts it: no guess at where it ends.
    assert run_on(text, "shows wear and\nRevenue | 2018: 4") == ""
    assert run_on(text, "shows " + "much " * 70 + "wear.") == ""


def test_a_short_unfinished_sentence_runs_on() -> None:
    text = "Other valves fit any pump. QX"  # all of the last sentence is on the last line
    assert (
        run_on(text, "valves and ZR valves need a bore of 16 mm. More.") == "valves and ZR valves need a bore of 16 mm."
    )


def test_a_footnote_mark_left_at_a_sentences_start_is_dropped() -> None:
    assert sentences("3 We report two sizes. The 12 valves held.") == ["We report two sizes.", "The 12 valves held."]
    assert sentences("Revenue | 2019: 3") == ["Revenue | 2019: 3"]
    assert sentences("12 valves were replaced.") == ["12 valves were replaced."]  # a count, not a mark
    # ... and one glued to the first word of the next sentence.
    assert sentences("Seals were kept there. 19Deciding is simple. We use 3D maps.") == [
        "Seals were kept there.",
        "Deciding is simple.",
        "We use 3D maps.",
    ]


def test_a_markup_element_opening_a_sentence_starts_a_new_one() -> None:
    text = "<if> This element takes three values. <alias> Alias elements name a family. A total of 3 < 4 holds."
    assert sentences(text) == [
        "<if> This element takes three values.",
        "<alias> Alias elements name a family.",
        "A total of 3 < 4 holds.",
    ]


def test_a_list_announced_at_a_chunks_end_runs_on_with_its_items() -> None:
    text = "The seal fails in three ways, discussed in the next three sections:"
    items = "1. Wear of the lip. 2. Cracks from cold starts. 3. Swelling -- oil the seal does not suit."
    following = f"{items} Wear shows first."
    assert run_on(text, following) == items
    assert run_on(text, "• Wear of the lip. • Cracks.\nOther text.") == "• Wear of the lip. • Cracks."
    assert run_on(text, "Wear shows first.") == ""  # no list opens the next chunk
    assert run_on(text, following, most=8) == "1. Wear of the lip."  # whole items only, within the words allowed
    # A numbered item's mark does not end a sentence; the list reads item by item.
    assert sentences(f"{text} {items}") == [
        "The seal fails in three ways, discussed in the next three sections: 1. Wear of the lip.",
        "2. Cracks from cold starts.",
        "3. Swelling -- oil the seal does not suit.",
    ]
    assert sentences("It grew by a factor of 3. We then stopped.") == ["It grew by a factor of 3.", "We then stopped."]


def test_a_sentence_may_open_with_a_command_line_option() -> None:
    text = "Raising it finds more. --queue-size=<number> [default: 1000] Blocks wait here. Use e.g. -v to see them."
    assert sentences(text) == [
        "Raising it finds more.",
        "--queue-size=<number> [default: 1000] Blocks wait here.",
        "Use e.g. -v to see them.",
    ]


def test_a_format_escape_opens_a_sentence() -> None:
    text = "Supported since 4.2. %n Number of links. %q The queue's name. Use 50% of it."
    assert sentences(text) == ["Supported since 4.2.", "%n Number of links.", "%q The queue's name.", "Use 50% of it."]


def test_a_references_entry_named_in_hyphenated_lower_case_opens_a_sentence() -> None:
    text = "It waits for arguments. gate-time time Set the wait in seconds. The default is 5. See e.g. long-term use."
    assert sentences(text) == [
        "It waits for arguments.",
        "gate-time time Set the wait in seconds.",
        "The default is 5.",
        "See e.g. long-term use.",
    ]
    assert len(sentences("Use the flags: qz_flags QZ_A Apply A. qz_flags QZ_B Apply B.")) == 1  # the list stays


def test_bars_inside_brackets_are_a_syntaxs_choices_not_a_tables_cells() -> None:
    text = "gate-lock [on | off] If on, the gate locks. The default is off."
    assert sentences(text) == ["gate-lock [on | off] If on, the gate locks.", "The default is off."]
    assert is_row_line("gate-lock [on | off] | locks the gate | off") and not is_row_line("mode {a | b} is set")


def test_a_number_after_an_abbreviation_or_a_label_is_no_list_mark() -> None:
    assert sentences("The gain is shown in Fig. 3. We then tune the rate.") == [
        "The gain is shown in Fig. 3.",
        "We then tune the rate.",
    ]
    assert sentences("John Smith, Age: 57. Mr. Smith has served since 2015.") == [
        "John Smith, Age: 57.",
        "Mr. Smith has served since 2015.",
    ]
    assert sentences("The short- and long-term notes rose.") == ["The short- and long-term notes rose."]


def test_an_announced_list_stops_at_a_row_a_heading_or_the_prose_after_it() -> None:
    assert run_on("The seal fails in two ways:", "1. Wear of the lip.\nRevenue | 2019: 5\n2. Cracks.") == (
        "1. Wear of the lip."
    )
    assert run_on("The report is organised as follows:", "1. Introduction\n2. Related Work\nWe propose a pump.") == ""
    assert run_on("It fails in two ways:", "1. Misuse, e.g. freeing twice. 2. Sales in the U.S. fell. Prose.") == (
        "1. Misuse, e.g. freeing twice. 2. Sales in the U.S. fell."
    )


def test_an_announced_lists_wrapped_item_goes_on_and_the_prose_after_it_does_not() -> None:
    assert run_on("It fails in two ways:", "1. Misuse of the\npthreads API. 2. Deadlocks.\nMore prose.") == (
        "1. Misuse of the pthreads API. 2. Deadlocks."
    )
    assert run_on("It fails in two ways:", "• Wear of the lip • Cracks from cold starts\nOther text.") == (
        "• Wear of the lip • Cracks from cold starts"
    )


def test_a_path_heading_a_directory_lists_entry_opens_a_sentence() -> None:
    """A list of paths, each with its description: "(optional). /var/qz ..." ends one entry and opens the next."""
    text = "/srv/qz Gate data (optional).\n/var/qz This directory holds gates. ~/.qzrc Read at start."
    assert sentences(text) == [
        "/srv/qz Gate data (optional).",
        "/var/qz This directory holds gates.",
        "~/.qzrc Read at start.",
    ]
    assert sentences("Read and/or write it. I/O is slow.") == ["Read and/or write it.", "I/O is slow."]
    # A bracketed note may stand between the path and its description ("/qz/max (since 2.2) Sets ...").
    assert sentences("The default is 20. /qz/max (since 2.2) Sets the most. See /qz/min (below) for less.") == [
        "The default is 20.",
        "/qz/max (since 2.2) Sets the most.",
        "See /qz/min (below) for less.",
    ]


def test_an_option_named_in_passing_goes_on_its_sentence() -> None:
    """ "... using -Z, --qz-all, this option ..." is one sentence; "-Z, --qz-all Runs ..." opens one."""
    text = "--qz-max <num> When run in parallel, using -Z, --qz-all, this option sets the most. See also -Z, --qz-all."
    assert sentences(text) == [
        "--qz-max <num> When run in parallel, using -Z, --qz-all, this option sets the most.",
        "See also -Z, --qz-all.",
    ]
    assert sentences("It is global. -Z, --qz-all Runs all gates at once.") == [
        "It is global.",
        "-Z, --qz-all Runs all gates at once.",
    ]
    # An entry listing its aliases opens after an entry with no stop of its own.
    assert sentences("-c, --gates=NUM open the first NUM gates -q, --quiet, --silent never print a gate") == [
        "-c, --gates=NUM open the first NUM gates",
        "-q, --quiet, --silent never print a gate",
    ]


def test_a_stop_before_markup_left_in_the_text_ends_its_sentence() -> None:
    """A table's cells as tags: "... shut.</td> </tr> <tr> <td>QZ_NOW ..." is two sentences, as it reads untagged."""
    text = "<td>Opens the gate. Sets it.</td> </tr> <tr> <td><code>QZ_NOW</code></td> <td>Shuts it.</td>"
    assert sentences(text) == [
        "<td>Opens the gate.",
        "Sets it.",
        "</td> </tr> <tr> <td><code>QZ_NOW</code></td> <td>Shuts it.</td>",
    ]
    assert sentences("It is <b>shut.</b> and locked.") == ["It is <b>shut.</b> and locked."]  # lower case goes on
    assert sentences("Call gate.<code>Open</code> first.") == ["Call gate.<code>Open</code> first."]  # no element ends
