from __future__ import annotations

from kb.text import (
    is_common_word,
    is_identifier,
    joiner,
    markup_tags,
    run_on,
    sentences,
    squashed,
    tag_pattern,
    tokenize,
    words,
)


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


def test_tokenize_keeps_identifiers_whole_and_in_parts() -> None:
    tokens = tokenize("GPT-3.5 and SHA256 models")
    assert {"gpt-3.5", "gpt", "3", "5", "sha256", "sha", "256", "model"} <= set(tokens)
    assert "and" not in tokens


def test_words_hold_compounds_and_possessives() -> None:
    assert words("The model's GPT-3.5 score, v2.1!") == ["The", "model's", "GPT-3.5", "score", "v2.1"]


def test_identifiers_are_codes_acronyms_and_mixed_case_names() -> None:
    assert all(is_identifier(w) for w in ("GPT-3", "BERT", "RoBERTa", "FY2019", "x86", "read_value"))
    assert not any(is_identifier(w) for w in ("Model", "model", "2019", "A", "1st", "22nd", "3RD", "snake"))


def test_squashed_matches_an_identifier_however_it_is_separated() -> None:
    flat = squashed(["the GPT 3 model and gpt-3"])
    assert "gpt3" in flat.split() or "gpt3" in flat
    assert "gpt 3" in flat


def test_common_words_come_from_the_bundled_vocabulary() -> None:
    assert all(is_common_word(w) for w in ("Highest", "sales", "Block", "industries"))
    assert not any(is_common_word(w) for w in ("Zorblax", "Winograd"))


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
    # A hyphenated compound cut at its hyphen is joined without a space (see kb.text.joiner).
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


def test_markup_tags_are_the_elements_written_in_angle_brackets() -> None:
    assert markup_tags('Can <name target="font"> sit in <match>, or </Edit> and <br/>? 3 < 4 > 2') == [
        "name",
        "match",
        "edit",
        "br",
    ]
    assert tag_pattern("include").search('see <include prefix="x">') and tag_pattern("include").search("<include>")
    assert not tag_pattern("include").search("packages include <includes> and include")


def test_a_markup_element_opening_a_sentence_starts_a_new_one() -> None:
    text = "<if> This element takes three values. <alias> Alias elements name a family. A total of 3 < 4 holds."
    assert sentences(text) == [
        "<if> This element takes three values.",
        "<alias> Alias elements name a family.",
        "A total of 3 < 4 holds.",
    ]
