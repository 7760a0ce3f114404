from __future__ import annotations

from agent.notation import symbols_cut
from agent.readable import (
    announces_list,
    announces_listed,
    asks_figure,
    asks_list,
    asks_only_by_year,
    asks_why,
    is_meta,
    listed_noun,
    past_rules,
    past_section_heads,
    states_cause,
    unbracketed,
    unreadable,
    with_run_in_heading,
)
from agent.settings import AnswerSettings


def test_fragments_captions_contacts_and_capital_headings_are_not_answers() -> None:
    q = "How does the filter choose its threshold?"
    assert unreadable("rameters are shared by every layer of the model.", q)  # starts mid-sentence
    # A parameter's entry opens with its name and its type in braces, whatever its case: no fragment.
    assert unreadable("lever {integer} The lever the gate is opened with.", q) is None
    assert unreadable("lever {integer the lever} is used.", q)  # braces of words are no type
    assert unreadable("fullname The full name of the gate.", q) is None  # a name before its description
    assert unreadable("including Apple and Quill, the filter grew.", q)  # a chunk cut mid-sentence: a word
    assert unreadable("iPhone sales set the threshold for the filter this year.", q) is None  # a name, lower-case
    assert unreadable("The filter is most suited to the white-box setting, particu-", q)
    assert unreadable("Report 7-B) filed with the registry sets the threshold of the filter.", q)  # inside a bracket
    assert unreadable("The steps: 1) set the threshold, 2) run the filter, 3) read the output.", q) is None
    assert unreadable("For the year ended December 31,", q)
    assert unreadable("Figure 3: Accuracy of the filter against its threshold.", q)
    assert unreadable("Code and data are at www.example.org for every reader.", q)
    assert unreadable("CONSOLIDATED STATEMENTS OF OPERATIONS (in millions)", q)
    assert unreadable("Does the filter work on noisy inputs?", q) == "a question, not an answer"
    assert unreadable("19 Threshold of the filter . . . . . . . . . . . . . . 23", q) == "a contents or index line"
    assert unreadable("The threshold is set by the user... Then the filter runs.", q) is None  # an ellipsis

    assert unreadable("NORTH PLANT PUMP STATION SUPPLEMENTAL DATA (In thousands) Three months ended June 30.", q)
    assert unreadable("The filter picks the threshold that keeps 95% of the clean samples.", q) is None
    assert unreadable("Figure 3: Accuracy of the filter against its threshold.", "What does Figure 3 show?") is None
    # A figure's own words run into its caption: neither reads as an answer.
    glued = "Clean Noisy Threshold Accuracy (%) Figure 2: Accuracy of the filter against its threshold."
    assert unreadable(glued, q) == "a caption"
    assert unreadable("The filter's accuracy is plotted in Figure 2 against its threshold.", q) is None


def test_a_title_run_into_one_line_is_no_answer() -> None:
    q = "What were the filter's sales in 2019?"
    assert (
        unreadable("Consolidated Balance Sheets HARBOUR WORKS, INC.", q) == "a title: every word capitalised, no figure"
    )
    assert unreadable("Report of Independent Registered Public Accounting Firm To the Board of Directors", q)
    assert unreadable("The Filter Sorts Every Sample It Reads.", q)  # a headline, no verb in lower case
    assert unreadable("Harbour Works sells filters to North Sea ports.", q) is None  # a verb in lower case
    assert unreadable("Filter Sales Grew 12% In 2019 Across All Ports.", q) is None  # a figure: not a bare title
    # A numbered section's heading is a title all the same; a numbered section's sentence is not.
    assert unreadable("4.2 RESULTS Filter Size and Accuracy.", q) == "a title: every word capitalised, no figure"
    assert unreadable("4.2 SALES The filter sold 12 units in 2019.", q) is None


def test_a_title_block_or_a_figures_labels_opening_a_sentence_are_no_answer() -> None:
    q = "How was the filter trained?"
    block = "Qz-Filter: Training Noisy Sample Filters Using Threshold Search Ann Qzell 1 2 Bo Zedd 2 Cy Vorn 1."
    assert unreadable(block, q) == "a title block, headings or a figure's labels run together"
    named = "QzFilter: Noisy Sample Filters using Threshold Search Ann Qzell 1 Bo Zedd 1 Cy Vorn 2."
    assert unreadable(named, q) == "a title block, headings or a figure's labels run together"  # a leading name
    labels = "Small Medium Large X-Large Filter Size Accuracy (%) QZ-3 Noisy Mixed Samples (b) Accuracy by size."
    assert unreadable(labels, q) == "a title block, headings or a figure's labels run together"
    # Prose names a few things in capitals, then has a word in lower case; a list of identifiers is no title.
    assert unreadable("The North Sea Harbour Works Filter Company Board trained the filter in 2019.", q) is None
    # A table's row with a long label is a row; read as a sentence, a person's age ends the run of capitalised words.
    assert unreadable("Harbour Works North Sea Filter Plant Adjusted Operating Income Before Tax | 2019: 12", q) is None
    assert unreadable("Ann Qzell 64 Chief Filter Officer and Senior Vice President, Filter Testing & Data.", q) is None
    listed = "Options QzOpen, QzClose, QzRead, QzWrite, QzSeek, QzTell, QzSync and QzStat are read first."
    assert unreadable(listed, q) is None
    assert unreadable(block, q, AnswerSettings(title_run=20)) is None  # the run's length is a setting
    # Names listed in prose have commas; capitalised small words count for nothing; a year is no section number.
    founders = "Ann Qzell, Bo Zedd, Cy Vorn, Dee Marsh, Eli Tarn, Fay Quill and Gus Holt founded the filter works."
    assert unreadable(founders, q) is None
    assert unreadable("The Board Of Directors Of The Harbour Works Filter Company met in May.", q) is None
    assert unreadable("2019 Harbour Works Sold Filters.", q) is None


def test_a_tables_column_headers_are_no_answer() -> None:
    q = "What were the filter's sales in 2019?"
    assert unreadable("(Dollars in millions) | 2019 | 2018", q) == "a table's column headers"
    assert unreadable("Year ended | FY2019 | 2018.", q) is None  # "FY2019" is more than a year's number
    assert unreadable("Filter sales | 2019: 1,204 | 2018: 1,100", q) is None


def test_a_row_of_figures_without_column_headers_is_no_answer() -> None:
    q = "What were the filter's sales in 2019?"
    bare = "Filter sales | — | — | (77,606) | — | (77,606)"
    assert unreadable(bare, q) == "a table row whose figures have no column headers"
    assert unreadable("Filter sales | 1,204 | 1,100", q) is None  # two figures: the usual two years
    assert unreadable("Filter sales | 1,204 | 1,100 | 990", q, AnswerSettings(headerless_cells=4)) is None
    assert unreadable("Filter sales | 2019: 1,204 | 1,100 | 990", q) is None  # a header says which column is which


def test_number_runs_answer_only_questions_that_ask_for_a_figure() -> None:
    run = "Accuracy 48.2% 53.7% 64.8% 71.4% in all."
    assert unreadable(run, "Why does the filter help?") == "mostly numbers"
    assert unreadable(run, "How high was the accuracy of the filter?") is None


def test_a_run_of_table_figures_in_prose_is_never_an_answer() -> None:
    debris = "Exchange rates cut expense by 3 points. % 43.5 (1.0) 3.1 (3.3) 0.1 (0.4) (1.0) 46.0 FULL PRICE AVERAGE"
    reason = "a run of table figures without their labels"
    assert unreadable(debris, "Why did expense fall?") == reason
    assert unreadable(debris, "How much did expense fall in 2023?") == reason  # which figure is which, nobody knows
    longer = AnswerSettings(figure_run=10, number_share=0.9)  # the thresholds are the answer settings'
    assert unreadable(debris, "How much did expense fall in 2023?", longer) is None
    prose = "Revenue grew 5%, 7%, 9% and 12% in 2019, 2020, 2021 and 2022, and margins held at 31.5%."
    assert unreadable(prose, "How much did revenue grow?") is None
    assert asks_figure("How many layers does it have?") and asks_figure("What was the 2019 total?")
    assert not asks_figure("Why does the filter help?")
    assert not asks_figure("Why does GPT-4 beat the 3M filter?") and asks_figure("What did the filter cost in 2019?")


def test_meta_sentences_are_about_the_document() -> None:
    assert is_meta("In this section we present an overview of the modifications.")
    assert is_meta("A description of working capital is included in the Liquidity section of Item 7.")
    assert is_meta("See Note 4 for the details.")
    assert is_meta("See accompanying notes to consolidated financial statements.")
    assert is_meta("See additional information in Note 19.")
    assert is_meta("Please refer to the Glossary for the definitions of the measures used.")
    assert is_meta("Please refer to the quarterly report filed with the registry for additional information.")
    assert is_meta("For additional information on these factors, please see the filings with the registry.")
    assert not is_meta("The board met on May 3 for further discussion of the merger terms.")
    assert not is_meta("The modification replaces the activation with a gated unit.")
    # A pointer that goes on to list its items states them.
    assert is_meta("The three kinds are discussed in detail in the next three sections.")
    assert not is_meta("The three kinds are discussed in detail in the next three sections: 1. Wear of the lip.")
    assert is_meta("The rest of this paper is organized as follows: 1) Section 2 presents the data.")
    # Items run on after the colon, however they open: the sentence states them.
    assert not is_meta("The tokens are as follows: $QZROOT (or ${QZROOT}) This expands to the gate's directory.")
    assert is_meta("The tokens are as follows: see the next section.")  # too few words to be the items
    assert is_meta("The layout is as follows: the data are presented in Section 4 and the rest below.")
    assert not is_meta("The gates are as follows: north, south.", run_in_words=2)
    # Only a colon ending a clause announces: a URL's, a time's or a ratio's does not. What runs on after one is
    # stated, even after a pointer run into it.
    assert is_meta("Further details are provided in the guide at https://qz.example/gates which covers every lock.")
    assert is_meta("Ratios are discussed in the next section (a 2:1 ratio is used for the north and south locks).")
    assert not is_meta("See the section on gates below. -q / --quiet: Sets the gate to quiet when no keeper is near.")


def test_a_question_asks_only_by_its_year_when_it_names_no_quantity() -> None:
    assert asks_only_by_year("Is Harbour Works a capital-intensive business based on FY2022 data?")
    assert asks_only_by_year("Who are the primary customers of Harbour Works as of 2022?")
    assert not asks_only_by_year("What was the FY2022 amount of dues collected?")
    assert not asks_only_by_year("How much did Harbour Works collect in 2022?")
    assert not asks_only_by_year("Who are the primary customers of Harbour Works?")  # no figure asked at all


def test_a_run_in_heading_is_set_off_from_the_sentence_it_opens() -> None:
    assert with_run_in_heading("Pump initialization In addition to the seals, the pump is primed.") == (
        "Pump initialization: In addition to the seals, the pump is primed."
    )
    assert (
        with_run_in_heading("EMPLOYEES As of May 31, we had 35,000 staff.")
        == "EMPLOYEES: As of May 31, we had 35,000 staff."
    )
    assert with_run_in_heading("Dividend Policy We paid a dividend in each quarter of the year.") == (
        "Dividend Policy: We paid a dividend in each quarter of the year."
    )
    # A one-word heading whose word opens the sentence too.
    assert with_run_in_heading("Seals Seals for the pumps are kept in store.") == (
        "Seals: Seals for the pumps are kept in store."
    )
    assert with_run_in_heading("Zib Zib is a town on the river.") == "Zib Zib is a town on the river."
    # Not a heading: a sentence whose words run on normally, a variable "A", a phrase ending in a function word.
    for sentence in (
        "Changes In and Disagreements With Accountants on Accounting are reported here.",
        "Each block uses A heads and width H.",
        "Results of The tests are kept.",
        "The first sentence receives the A embedding.",
    ):
        assert with_run_in_heading(sentence) == sentence


def test_equations_and_a_figures_text_are_not_answers_unless_asked() -> None:
    equation = "The complete prompt is thus p ≡ ⟨x1 · t1⟩ ‖ ⟨x2 · t2⟩ ‖ . . . ‖ ⟨xk · tk⟩."
    assert unreadable(equation, "How is the prompt built?") == "an equation, pseudo-code or a figure's text"
    assert unreadable(equation, "What equation gives the prompt?") is None
    pseudo = "5: σ ← 1 k−1 ∑i (log pθ(xi) − μ) // variance for normalization 6: if d > ε then 7: return true"
    assert unreadable(pseudo, "How is the score normalised?")
    assert unreadable("The pump holds 4 bar at the grate (± 0.2 bar).", "What pressure does the pump hold?") is None
    # Symbols in prose are not notation: Greek names, units, signs, one arrow between figures.
    for prose in (
        "Batch sizes ∈ {16, 32} and learning rates ∈ {1e−5, 2e−5, 3e−5} were swept for each task.",
        "TNF-α, IL-1β and IFN-γ rose, and particles of 2 μm, 5 μm and 10 μm were counted.",
        "Margins changed by −1.2%, −0.4% and −2.0%, and channels grew 8 → 16 → 32 → 64 over the stages.",
    ):
        assert unreadable(prose, "What was measured?") is None and symbols_cut(prose, "What was measured?") == prose


def test_a_sentence_pointing_to_a_table_is_about_the_document_unless_it_states_a_finding() -> None:
    assert is_meta("Table 3 lists the sizes of the keys and casings for each valve.")
    assert is_meta("Figure 2 compares the two pumps on three loads.")
    assert not is_meta("Table 1 shows that the ZX-9 outlasts the QR-7.")
    assert not is_meta("Table 1 shows the following results: across all loads, the ZX-9 wins.")
    assert not is_meta("Table 3 lists casing sizes of 128, 192 and 256 mm.")  # it states the figures itself


def test_numbered_lines_run_together_are_pseudo_code_unless_an_algorithm_is_asked_for() -> None:
    listing = "Algorithm 4 Seal.Make() 1: d <- B^32 2: z <- B^32 3: (a, b) <- Inner(d, z) 4: return (a, b)."
    assert unreadable(listing, "What does the seal do?") == "pseudo-code: numbered lines run together"
    assert unreadable(listing, "What is the algorithm that makes a seal?") is None
    assert unreadable("At 6:30 the desk opened items 1: gates and 2: paddles for the keepers.", "When?") is None
    assert unreadable("Pumps were split in three sets (Set 1: bronze, Set 2: steel, Set 3: iron).", "Which?") is None


def test_questions_asking_for_a_list_and_sentences_announcing_one() -> None:
    assert asks_list("Which directories are required in /srv?")
    assert asks_list("What are the main components of the pump?")
    assert asks_list("List the valves of the north line")
    assert not asks_list("What is the main component of the pump?")
    assert not asks_list("Why does the pump stop?")
    assert not asks_list("What class does the pump belong to?")  # a singular noun ending in s
    assert not asks_list("What process is used to seal the pump?")
    # After a reader's situation, the clause that asks ("When I open a gate, which valves does it hold?").
    assert listed_noun("When I open the gate with qz_open (g), which valves does the gate object g hold?") == "valves"
    assert not asks_list("The pump, which seals are greased, stops. Why?")  # a relative clause asks nothing
    assert announces_list("The following directories are required in /srv: cache, lib and log.")
    assert announces_list("Its main parts are: a rotor, a seal and a casing.")
    assert not announces_list("The rotor turns at 40 rpm: the seal holds.")


def test_the_things_a_list_question_asks_for_and_a_sentence_announcing_them() -> None:
    assert listed_noun("Which functions are left in the pump's library?") == "functions"
    assert listed_noun("What are the main components of the pump?") == "components"
    assert listed_noun("List the valves of the north line") == ""
    assert listed_noun("What are the basic steps to seal the pump?") == "steps"  # a whole word
    assert announces_listed("It keeps only the following eight functions: open, read and seal.", "functions")
    assert not announces_listed("It keeps only the following eight valves: north, south and east.", "functions")
    assert not announces_listed("Its functions are read and seal.", "functions")  # no list announced


def test_why_questions_and_sentences_giving_a_cause() -> None:
    assert asks_why("Why does the pump keep a second seal?") and not asks_why("What does the pump keep?")
    assert states_cause("The pump keeps a second seal because the first wears in a month.")
    assert states_cause("A second seal is kept to avoid a leak when the first wears.")
    assert not states_cause("The pump keeps a second seal of bronze.")


def test_a_rule_drawn_in_characters_is_no_prose() -> None:
    """A plain-text heading's underline and a table's rule under its head are left out; a dash or two is kept."""
    heading = "GATES ======== Gate mode ------------ In gate mode, one package waits on another."
    assert past_rules(heading) == "GATES Gate mode In gate mode, one package waits on another."
    assert past_rules("Gate Level Action ■■■■■■■■■■■■ QZ_A 1 Open") == "Gate Level Action QZ_A 1 Open"
    dashes = "The filter -- a simple one -- sets the threshold."
    assert past_rules(dashes) == dashes


def test_a_list_of_pages_named_with_their_sections_is_no_answer_unless_asked_for() -> None:
    see_also = "SEE ALSO qzgate(1), qzd(8), qz.conf(5), gates(7), locks(7)."
    assert unreadable(see_also, "Why does qzd lock the gate?") == "a list of references to other pages"
    assert unreadable(see_also, "Which related manual pages does qzd(8) list?") is None
    assert unreadable(see_also, "Which man page describes qz.conf?") is None
    prose = "Use stat(2) or lstat(2) rather than access(2) and open(2) here, since both of them are atomic."
    assert unreadable(prose, "Why does qzd lock the gate?") is None
    listed = "The openers are qzopen(3), qzdup(3), qzfork(3) and qzpipe(3)."  # what the sentence speaks of
    assert unreadable(listed, "Which calls open a gate?") is None
    assert unreadable("Use qz(1), qzd(8) or gates(7) to open it.", "Why does qzd lock the gate?") is None  # no run
    # A "see also" section's opening is its list, however short; prose pointing onwards is no such list.
    assert unreadable("SEE ALSO qz(1), qzd(8) QZSPEC.2, section 2.8.", "Why does qzd lock the gate?") is not None
    assert unreadable("See also: gates(7).", "Why does qzd lock the gate?") is not None
    assert unreadable("See Also: gates(7), locks(7).", "Why does qzd lock the gate?") is not None
    assert unreadable("See also the notes on gates below.", "Why does qzd lock the gate?") is None


def test_a_pages_first_two_section_headings_run_into_its_text_are_left_out() -> None:
    opening = "NAME qzgate - open and shut gates DESCRIPTION A gate opens when its keeper asks."
    assert past_section_heads(opening) == "qzgate - open and shut gates: A gate opens when its keeper asks."
    synopsis = "NAME qzgate - open gates SYNOPSIS qzgate [-q] [-w secs]"  # no sentence after the second heading
    assert past_section_heads(synopsis) == synopsis
    capitals = "NOTES TO THE GATE STATEMENTS The keeper reports."  # a heading in capitals, no line under it
    assert past_section_heads(capitals) == capitals
    assert past_section_heads("The NAME field holds DESCRIPTION Text.") == "The NAME field holds DESCRIPTION Text."


def test_a_sentence_wholly_in_brackets_is_read_without_them() -> None:
    assert unbracketed("(Before that, qzread(2) of the gauge returns an empty buffer.)") == (
        "Before that, qzread(2) of the gauge returns an empty buffer."
    )
    # Brackets opening and closing inside the sentence stay; unbalanced or empty ones are left as written.
    assert unbracketed("(a) the pump primes and (b) the gauge reads zero (see below).").startswith("(a)")
    assert unbracketed("(x (y)") == "(x (y)" and unbracketed("()") == "()"
