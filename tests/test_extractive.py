"""The extractive composer: sentences ranked against the information need, continuations read after what they
continue, the row the question names leading a figure answer. Examples are invented."""

import numpy as np

from agent.extractive import _continuations, compose
from agent.settings import AnswerSettings
from kb.query import read_query


def passage(key: str, chunk_id: str, text: str) -> dict[str, str]:
    return {"key": key, "chunk_id": chunk_id, "doc_id": chunk_id.split(":")[0], "text": text}


CONTEXT = [
    passage("c1", "f:1", "Net cash flow per the annual statement table | 2018: 9,999"),
    passage("c2", "f:2", "Purchases of pump equipment | 2018: 1,577"),
]
QUESTION = (
    "Answer the following question using only the cash flow statement of the annual table: "
    "what were the 2018 purchases of pump equipment?"
)


def test_sentences_are_ranked_against_the_need_not_the_instructions_around_it() -> None:
    settings = AnswerSettings(sentences=1)
    need = read_query(QUESTION).need
    assert need == "what were the 2018 purchases of pump equipment?"
    assert compose(QUESTION, "general", [], CONTEXT, settings, need=need).startswith(
        "Purchases of pump equipment | 2018: 1,577. [c2]"
    )
    # Ranked against the whole question, the instruction's words pick the other row.
    assert compose(QUESTION, "general", [], CONTEXT, settings).startswith("Net cash flow")


def test_the_sentence_after_the_best_one_continues_it_and_reads_right_after_it() -> None:
    context = [
        passage(
            "c1",
            "p:1",
            "The harbour pumps are tuned with the following pump settings: intake pressure of 4 bar. "
            "We also fix a flow of 30 litres and a filter mesh of 2 mm. Crews repaint the hulls every spring.",
        ),
        passage("c2", "p:2", "Pump settings are logged by the harbour office each week for the records."),
    ]
    question = "What are the settings of the harbour pumps?"
    answer = compose(question, "general", [], context, AnswerSettings(sentences=3))
    tuned, fixed = answer.index("tuned with"), answer.index("filter mesh")
    assert tuned < fixed and answer[tuned:fixed].count("[c") == 1  # next to each other
    assert "repaint" not in answer
    without = compose(question, "general", [], context, AnswerSettings(sentences=3, continuation_share=0))
    assert "filter mesh" not in without


def test_the_row_whose_label_the_question_names_leads_a_figure_answer() -> None:
    context = [
        passage("c1", "h:1", "Total Harbour Works stockholders' equity | 2018: 6,512\nPayables to pilots | 2018: 77"),
        passage("c2", "h:2", "Accounts payable | 2018: 303 | 2017: 255"),
    ]
    question = "What is the year end FY2018 amount of accounts payable for Harbour Works?"
    answer = compose(question, "general", [], context, AnswerSettings(sentences=3))
    assert answer.startswith("Accounts payable | 2018: 303. [c2]")


def test_a_range_of_years_keeps_the_columns_within_it() -> None:
    context = [passage("c1", "h:1", "Cost of sales | 2018: 20,441 | 2017: 19,038 | 2016: 17,405 | 2015: 16,534")]
    question = "What is the average cost of sales from FY2016 to FY2018?"
    answer = compose(question, "general", [], context, AnswerSettings())
    assert answer.startswith("Cost of sales | 2018: 20,441 | 2017: 19,038 | 2016: 17,405. [c1]")


def test_a_row_labelled_with_the_documents_name_does_not_lead_for_the_name_alone() -> None:
    terms = ["k", "2018"]  # "4K" matched by one of its forms
    context = [
        {**passage("c1", "k:1", "Net income attributable to 4K | 2018: 5,349"), "document_terms": terms},
        {**passage("c2", "k:2", "Purchases of plant and capital equipment | 2018: (1,577)"), "document_terms": terms},
    ]
    question = "What is the FY2018 capital expenditure amount for 4K?"
    answer = compose(question, "general", [], context, AnswerSettings(sentences=3))
    assert answer.startswith("Purchases of plant and capital equipment | 2018: (1,577). [c2]")


def test_continuations_follow_the_best_sentence_in_passage_order_and_the_named_row_still_leads() -> None:
    context = [
        passage(
            "c1",
            "p:1",
            "The harbour pumps draw water through a steel intake grate. The harbour pumps hold an intake "
            "pressure of four bar in the steel grate. Crews repaint the hulls every spring before the season opens.",
        ),
        passage("c2", "q:1", "Ferries leave the north quay every hour in summer."),
    ]
    question = "What intake pressure do the harbour pumps hold at the steel grate?"
    answer = compose(question, "general", [], context, AnswerSettings(sentences=3))
    # The best sentence leads, the one after it follows; the one before it is no lead it continues.
    assert answer.startswith("The harbour pumps hold an intake") and answer.index("Crews") < answer.index("draw")
    rows = [
        passage("c1", "h:1", "Total Harbour Works stockholders' equity | 2018: 6,512\nAccounts payable | 2018: 303")
    ]
    named = "What is the year end FY2018 amount of accounts payable for Harbour Works?"
    assert compose(named, "general", [], rows, AnswerSettings(sentences=3)).startswith("Accounts payable | 2018: 303.")


def test_a_sentence_that_cannot_be_chosen_lends_nothing_to_the_one_after_it() -> None:
    context = [
        passage(
            "c1", "p:1", "Ballast tanks stay sealed through the winter months. Crews repaint the hulls every spring."
        ),
        passage("c2", "p:2", "The harbour pumps hold four bar at the grate."),
    ]

    def embed(texts: list[str]) -> np.ndarray:  # the first sentence is the closest in meaning, sharing no word
        vectors = {"Ballast": [1.0, 0.0], "Crews": [0.0, 1.0], "The harbour": [0.8, 0.6]}
        rows = [[1.0, 0.0]] + [next((v for k, v in vectors.items() if t.startswith(k)), [0.0, 0.0]) for t in texts[1:]]
        return np.array(rows)

    answer = compose("What pressure do the harbour pumps hold?", "general", [], context, AnswerSettings(), embed)
    assert "harbour pumps hold" in answer and "repaint" not in answer


def test_a_pointer_elsewhere_does_not_continue_the_sentence_before_it() -> None:
    context = [
        passage("c1", "p:1", "The harbour pumps hold four bar at the grate. See Note 4 for the pump schedule."),
        passage("c2", "p:2", "Harbour pumps are serviced by the night crew."),
    ]
    answer = compose("What pressure do the harbour pumps hold?", "general", [], context, AnswerSettings(sentences=2))
    assert "four bar" in answer and "See Note 4" not in answer


def test_a_question_asking_by_its_year_alone_takes_only_rows_about_what_it_asks() -> None:
    context = [
        {
            **passage("c1", "h:1", "Other Harbour Works | 2022: 5\nTotal | 2022: $7"),
            "document_terms": ["harbour", "work"],
        },
        {
            **passage("c2", "h:2", "Harbour Works sells to ferry operators and the port authority in 2022."),
            "document_terms": ["harbour", "work"],
        },
        {**passage("c3", "h:3", "Ferry operators | 2022: 6,018"), "document_terms": ["harbour", "work"]},
    ]
    question = "Who are the primary customers of Harbour Works as of FY2022?"
    answer = compose(question, "general", [], context, AnswerSettings(), need=read_query(question).need)
    assert "Other Harbour Works" not in answer and "Total" not in answer  # the name and the year, nothing asked
    assert "sells to ferry operators" in answer
    # Asked for an amount, the same rows may answer.
    amount = "What was the total amount for Other Harbour Works in FY2022?"
    assert "Other Harbour Works | 2022: 5" in compose(amount, "general", [], context, AnswerSettings())
    # A row about what is asked stays, however the question asks.
    dues = "Which ferry operators bought from Harbour Works as of FY2022?"
    assert "Ferry operators | 2022: 6,018" in compose(dues, "general", [], context, AnswerSettings())


def test_every_form_of_a_name_and_the_words_framing_a_period_leave_rows_out() -> None:
    # "4K" is matched by one of its forms ("k"); its others ("4k") name the document too. "based on ... data"
    # frames the period: a row labelled with the name, or with "stock-based", says nothing about capital intensity.
    terms = ["k", "2022"]
    context = [
        {**passage("c1", "k:1", "Net income attributable to 4K | 2022: 5,777"), "document_terms": terms},
        {**passage("c2", "k:2", "Stock-based compensation | 2022: 301"), "document_terms": terms},
        {**passage("c3", "k:3", "Capital expenditures | 2022: (1,749)"), "document_terms": terms},
    ]
    question = "Is 4K a capital-intensive business based on FY2022 data?"
    answer = compose(question, "general", [], context, AnswerSettings(), need=read_query(question).need)
    assert "Capital expenditures | 2022: (1,749)" in answer
    assert "Net income" not in answer and "Stock-based" not in answer


def test_two_sentences_in_a_row_continue_the_lead_in_their_order() -> None:
    context = [
        passage(
            "c1",
            "p:1",
            "The harbour pumps are tuned with the following pump settings: intake pressure of 4 bar. "
            "We also fix a flow of 30 litres. A filter mesh of 2 mm completes them. Crews repaint the hulls in spring.",
        ),
        passage("c2", "p:2", "Pump settings are logged by the harbour office each week for the records."),
    ]
    question = "What are the settings of the harbour pumps?"
    answer = compose(question, "general", [], context, AnswerSettings(sentences=4))
    assert answer.index("tuned with") < answer.index("fix a flow") < answer.index("filter mesh")
    one = compose(question, "general", [], context, AnswerSettings(sentences=4, continuation_depth=1))
    assert "fix a flow" in one and "filter mesh" not in one


def test_each_further_sentence_takes_the_share_again_and_the_chain_stops_at_the_depth() -> None:
    sentences = ["Pumps are tuned so.", "A flow of 30 litres.", "A mesh of 2 mm.", "Hulls are repainted."]
    items = [(0, j, "c1", text, set()) for j, text in enumerate(sentences)]
    scores, lexical = np.array([1.0, 0.1, 0.1, 0.1]), np.array([1.0, 0.0, 0.0, 0.0])
    settings = AnswerSettings(continuation_share=0.7, continuation_leads=1, continuation_depth=2)
    follows = _continuations(items, scores, lexical, settings)
    assert follows == {1: 0, 2: 1}  # each after the one before it; the third after the lead is not lifted
    assert np.allclose(scores, [1.0, 0.7, 0.49, 0.1]) and lexical[3] == 0.0


def test_a_question_word_the_evidence_never_uses_is_matched_by_its_nearest_word_in_meaning() -> None:
    context = [
        passage("c1", "g:1", "The valves were tested after the gauges were fitted."),
        passage("c2", "g:2", "The gauges were chosen for their range."),
    ]
    near = {"selected": [1.0, 0.0, 0.0], "chosen": [0.9, 0.436, 0.0]}  # likeness 0.9; every other text alike

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([near.get(t, [0.0, 0.0, 1.0]) for t in texts])

    question = "Which gauges were selected?"
    first = compose(question, "general", [], context, AnswerSettings(sentences=1), embed)
    assert first == "The gauges were chosen for their range. [c2]"
    # Without stand-ins both sentences hold only "gauges", and the better ranked passage leads.
    plain = compose(question, "general", [], context, AnswerSettings(sentences=1, stand_in_likeness=0), embed)
    assert plain.startswith("The valves were tested")
    # Not like enough: no stand-in.
    strict = compose(question, "general", [], context, AnswerSettings(sentences=1, stand_in_likeness=0.95), embed)
    assert strict.startswith("The valves were tested")


def test_a_quoted_sentence_sets_off_the_run_in_heading_it_opens_with() -> None:
    context = [passage("c1", "p:1", "Pump initialization We prime the harbour pump with fresh water before use.")]
    answer = compose("How is the harbour pump primed?", "general", [], context, AnswerSettings())
    assert answer == "Pump initialization: We prime the harbour pump with fresh water before use. [c1]"


def test_a_sentence_written_as_an_aside_is_quoted_without_its_brackets() -> None:
    text = "The harbour pump primes itself. (Before that, qzread(2) of the gauge returns an empty buffer.)"
    context = [passage("c1", "p:1", text)]
    answer = compose("What does qzread of the gauge return?", "general", [], context, AnswerSettings())
    assert answer.startswith("Before that, qzread(2) of the gauge returns an empty buffer. [c1]")
    # Brackets opening and closing inside the sentence stay; an aside opening in lower case is a fragment.
    assert (
        compose(
            "What does the gauge read?",
            "general",
            [],
            [passage("c1", "p:1", "(see qzread(2) gauge.)")],
            AnswerSettings(),
        )
        == ""
    )
    aside = "(a) The pump primes itself and (b) the gauge reads zero."
    answer = compose("What does the gauge read?", "general", [], [passage("c1", "p:1", aside)], AnswerSettings())
    assert answer.startswith(aside)


def test_a_sentence_with_a_figures_text_read_into_it_is_quoted_up_to_that_text() -> None:
    text = (
        "The harbour pump is primed with fresh water before every use, and its seals are checked by the night crew "
        "for wear, using p θ ( x ) x̃ 1 x̃ 2 ∼ p ( x ) Pressure Figure 2."
    )
    answer = compose("How is the harbour pump primed?", "general", [], [passage("c1", "p:1", text)], AnswerSettings())
    assert answer.endswith("checked by the night crew for wear, using … [c1]")


TABLE = [
    passage("c1", "v:1", "The standard approves three valve sizes: ZX-9-512, ZX-9-768 and ZX-9-1024."),
    passage(
        "c2",
        "v:2",
        "ZX-9-512 | seal key: 800 | casing: 768\nZX-9-768 | seal key: 1,184 | casing: 1,088\n"
        "ZX-9-1024 | seal key: 1,568 | casing: 1,568",
    ),
]


def test_a_figure_from_a_parameter_table_is_its_member_row_cut_to_the_columns_asked() -> None:
    answer = compose("What is the casing size of ZX-9-768?", "general", [], TABLE, AnswerSettings())
    assert answer.startswith("ZX-9-768 | casing: 1,088. [c2]")
    assert "ZX-9-512 |" not in answer and "ZX-9-1024 |" not in answer and "seal key" not in answer


def test_a_comparison_of_figures_opens_each_part_with_its_row_without_repeating_its_name() -> None:
    question = "Compare the casing sizes of ZX-9-512 and ZX-9-1024"
    answer = compose(question, "compare", ["ZX-9-512", "ZX-9-1024"], TABLE, AnswerSettings())
    assert answer.startswith("ZX-9-512 | casing: 768. [c2]")
    assert "ZX-9-1024 | casing: 1,568. [c2]" in answer and "ZX-9-768 |" not in answer
    assert "ZX-9-1024: ZX-9-1024" not in answer


def _alike(texts: list[str]) -> np.ndarray:
    """Every text as close to the question as every other: only the words and the bonuses rank sentences."""
    return np.full((len(texts), 4), 0.5)


def test_asked_for_a_list_the_long_sentence_naming_its_items_keeps_its_score() -> None:
    items = " ".join(
        f"{w} holds the {w} data of the station" for w in ["crane", "hoist", "winch", "ramp", "buoy", "pier"]
    )
    context = [
        passage("c1", "m:1", f"The following directories are required in /dock: {items}."),
        passage("c2", "m:2", "The following directories are required in /dock/pier: misc holds other data."),
    ]

    settings = AnswerSettings(sentences=1, rank_decay=0.0)
    answer = compose("Which directories are required in /dock?", "general", [], context, settings, _alike)
    assert answer.startswith("The following directories are required in /dock: crane holds")
    # Asked for no list, the same long sentence is discounted as any long one.
    why = compose("Why are directories required in /dock?", "general", [], context, settings, _alike)
    assert why.startswith("The following directories are required in /dock/pier")


def test_a_path_asked_about_is_not_answered_by_a_longer_path_holding_it() -> None:
    context = [
        passage("c1", "m:1", "The following directories are required in /dock/pier: misc holds other data."),
        passage("c2", "m:2", "The following directories are required in /dock: crane holds crane data."),
    ]
    settings = AnswerSettings(sentences=1, rank_decay=0.0)
    answer = compose("Which directories are required in /dock?", "general", [], context, settings)
    assert answer.startswith("The following directories are required in /dock: crane")
    whole = AnswerSettings(sentences=1, rank_decay=0.0, longer_name_share=1.0)
    assert compose("Which directories are required in /dock?", "general", [], context, whole).startswith(
        "The following directories are required in /dock/pier"  # counted whole, the first of equals wins
    )


def _first(question: str, context: list[dict[str, str]], **settings: float) -> str:
    """The one-sentence answer, ranked without the passages' order, with the embedding stub."""
    return compose(question, "general", [], context, AnswerSettings(sentences=1, rank_decay=0.0, **settings), _alike)


def test_asked_which_things_the_sentence_announcing_a_list_of_them_leads() -> None:
    """ "Which winches are left ...?": the sentence naming the setting outscores the one listing the winches, until
    the list of winches is read as what answers."""
    context = [
        passage("c1", "m:1", "You can do this with the NO_TIDE switch of the harbour."),
        passage("c2", "m:2", "Doing this leaves only the following three winches: Alpha, Bravo and Charlie."),
    ]

    question = "Which winches are left if I build the dock with NO_TIDE set?"
    assert _first(question, context, lead_bonus=0.0).startswith("You can do this")
    assert _first(question, context).startswith("Doing this leaves only")


def test_asked_why_the_sentence_giving_a_cause_leads() -> None:
    context = [
        passage("c1", "m:1", "The QZ-9 pump keeps a second seal of bronze on its shaft."),
        passage("c2", "m:2", "A second seal is kept to avoid a leak when the first one wears."),
    ]

    question = "Why does the QZ-9 pump keep a second seal?"
    assert _first(question, context, cause_bonus=0.0).startswith("The QZ-9 pump keeps")
    assert _first(question, context, cause_bonus=1.0).startswith("A second seal is kept to avoid")


def test_an_element_asked_about_by_its_tag_is_answered_where_its_tag_is_written() -> None:
    context = [
        passage("c1", "p:1", "Every package must include the files it reads when it names a directory."),
        passage("c2", "c:1", '<include prefix="default"> This element names another file or directory to read.'),
    ]
    settings = AnswerSettings(sentences=1, rank_decay=0.0)
    question = "What does <include> read when it names a directory?"
    assert compose(question, "general", [], context, settings).startswith("<include")


def test_a_table_row_naming_the_entry_asked_about_answers_in_words_and_a_row_of_figures_does_not() -> None:
    """A lookup in a table of words ("what sound does QZ_LATCH make?") is answered by the entry's row, not only a
    figure asked for; a row of figures naming the entry, or naming it only as a column's head, stays out."""
    context = [
        passage("c1", "s:1", "Each feedback of the panel sounds a tone chosen by the server for the user."),
        passage(
            "c2",
            "s:2",
            "PanelFB | QZ_LOCK | high tone | Modifier locked by the panel\n"
            "PanelFB | QZ_LATCH | low tone then high tone | Modifier latched by the panel",
        ),
        passage("c3", "s:3", "QZ_LATCH | Slices: 2.093 | Gain: 1.79\nSpeed of the panel | QZ_LATCH: 60 | QZ_LOCK: 9"),
    ]
    question = "What sound does the QZ_LATCH feedback make, and what does it indicate?"
    answer = compose(question, "general", [], context, AnswerSettings(rank_decay=0.0), _alike)
    assert "PanelFB | QZ_LATCH | low tone then high tone | Modifier latched by the panel. [c2]" in answer
    assert "QZ_LOCK | high tone" not in answer and "2.093" not in answer and ": 60" not in answer


def test_asked_which_part_covers_it_the_answer_opens_with_the_part_of_the_best_passage() -> None:
    """The section's number keeps its stop off the answer's sentences ("Chapter 3, ..."), and a heading the first
    sentence opens with is said once."""
    context = [
        {
            **passage("c1", "m:1", "Gate Seals Every seal of the gate is greased once a week."),
            "section": "Chapter 3. Gate Seals",
        },
        {**passage("c2", "m:2", "The pump runs at night."), "section": "Chapter 4. Pumps"},
    ]
    question = "Which chapter of the canal manual explains how the gate seals are greased?"
    answer = compose(question, "general", [], context, AnswerSettings(rank_decay=0.0), _alike)
    assert answer.startswith("Chapter 3, Gate Seals: Every seal of the gate is greased once a week. [c1]")
    plain = compose("How are the gate seals greased?", "general", [], context, AnswerSettings(rank_decay=0.0), _alike)
    assert not plain.startswith("Chapter")
    # A heading's word that only opens the sentence's own word is kept ("Pumps" is no heading of "Pumpsets ...").
    pumps = [{**passage("c1", "m:1", "Pumpsets are greased at night."), "section": "Chapter 4. Pump"}]
    question = "Which chapter of the canal manual explains how pumpsets are greased?"
    assert compose(question, "general", [], pumps, AnswerSettings(rank_decay=0.0), _alike).startswith(
        "Chapter 4, Pump: Pumpsets are greased"
    )


def test_an_option_written_as_typed_leads_over_its_words_found_apart() -> None:
    context = [
        passage("c1", "m:1", "Unless stated otherwise, the default is to retry once, and a failed retry is logged."),
        passage("c2", "m:2", "-r number --retries=number Set number of retries to number before the gate gives up."),
    ]
    answer = compose("--retries default?", "general", [], context, AnswerSettings(rank_decay=0.0, sentences=1))
    assert answer.startswith("-r number --retries=number Set number of retries")


def test_a_format_escape_asked_about_leads_with_its_short_entry() -> None:
    """ "%Q Digest of %a%b." is short, but it is the entry asked about; the file's name found everywhere is not."""
    context = [
        passage("c1", "m:1", "The client reads qz_config at start, before any other configuration file."),
        passage("c2", "m:2", "Some settings take escapes filled in when read: %% A percent sign. %Q Digest of %a%b."),
    ]
    settings = AnswerSettings(rank_decay=0.0, sentences=1)
    answer = compose("What is the %Q escape in qz_config?", "general", [], context, settings)
    assert answer.startswith("%Q Digest of %a%b.")


def test_a_default_asked_for_leads_where_it_is_stated_beside_its_name() -> None:
    """ "QzMode default?": the sentence naming QzMode with its default, not the one listing its choices, nor another
    entry's default."""
    context = [
        passage("c1", "m:1", "QzMode default settings are listed beside QzMode in the table of each session."),
        passage("c2", "m:2", "QzLimit Sets the limit of each session; it defaults to 10 sessions."),
        passage("c3", "m:3", "QzMode may also be set to auto for each session, which is the default for it."),
    ]
    answer = compose("QzMode default?", "general", [], context, AnswerSettings(rank_decay=0.0, sentences=1))
    assert answer.startswith("QzMode may also be set to auto")


def test_a_comparisons_part_is_labelled_with_its_topic_a_name_in_code_keeping_its_case() -> None:
    context = [
        passage("c1", "m:1", "The qz_fine_trim call cuts each valve accurately to eight turns."),
        passage("c2", "m:2", "The qz_rough_trim call cuts each valve to eight turns, less accurately."),
        passage("c3", "m:3", "Gate seals wear out; pump seals are greased."),
    ]
    question = "How do qz_fine_trim and qz_rough_trim differ?"
    answer = compose(question, "compare", ["qz_fine_trim", "qz_rough_trim"], context, AnswerSettings(rank_decay=0.0))
    assert "qz_fine_trim: The qz_fine_trim call" in answer and "Qz_" not in answer
    answer = compose("valve vs pump", "compare", ["valve", "pump"], context, AnswerSettings(rank_decay=0.0))
    assert answer.startswith("Valve: The qz_fine_trim call")  # a common word opens its part capitalised
    symbols = [passage("c1", "m:1", "The valve++ form turns first."), passage("c2", "m:2", "The ++valve form waits.")]
    answer = compose("valve++ vs ++valve", "compare", ["valve++", "++valve"], symbols, AnswerSettings(rank_decay=0.0))
    assert "valve++: " in answer and "Valve++" not in answer  # an operator's operand keeps its case


def test_a_sentence_headed_by_a_topics_name_goes_to_that_topics_part() -> None:
    """ "/srv/qz Like /qz, ..." names both topics; it heads the entry of /srv/qz, so it belongs to that part."""
    context = [
        passage("c1", "m:1", "/srv/qz Like /qz, this directory holds gate files kept for an unspecified time."),
        passage("c2", "m:2", "/qz This directory holds gate files, which may be removed at any time."),
    ]
    question = "/qz vs /srv/qz: how long are gate files kept?"
    answer = compose(question, "compare", ["/qz", "/srv/qz"], context, AnswerSettings(rank_decay=0.0, sentences=2))
    assert answer.startswith("/qz This directory") and answer.index("/srv/qz Like") > answer.index("/qz This")


def test_a_question_of_a_pattern_alone_is_answered_where_the_pattern_is_written() -> None:
    """ "q/**/z meaning?" has no word to rank sentences by; the pattern as written is one."""
    context = [
        passage("c1", "m:1", "Two asterisks in a row match any number of gate directories in the qz layout."),
        passage("c2", "m:2", 'For example, "q/**/z" matches "q/z", "q/x/z" and "q/x/y/z" in a layout.'),
    ]
    answer = compose("q/**/z meaning?", "general", [], context, AnswerSettings(rank_decay=0.0, sentences=1))
    assert answer.startswith('For example, "q/**/z" matches')


def test_steps_go_on_past_the_word_limit_of_other_answers() -> None:
    """A question asking for steps reads in document order and may run to `steps_words`; any other answer stops at
    `max_words`."""
    steps = [
        "First loosen the qz valve collar with the long spanner kept beside the gate house door.",
        "Then turn each qz valve handle a quarter turn clockwise until its pointer faces the river side.",
        "Next check that the qz valve seals hold by listening for hissing near the lower hinges.",
        "Afterwards tighten the qz valve collar again and lock the spanner back inside its cabinet.",
        "Finally record the qz valve positions in the gate log book together with the date and time.",
    ]
    context = [passage("c1", "m:1", " ".join(steps))]
    settings = AnswerSettings(rank_decay=0.0, max_words=40, steps_words=80, sentences=8, steps_sentences=8)
    how = compose("How do I turn the qz valve handles of the gate?", "procedure", [], context, settings)
    other = compose("What turns the qz valve handles of the gate?", "general", [], context, settings)
    assert 40 < len(how.split()) <= 80 + 8 and len(other.split()) <= 40 + 8
    assert how.index("First loosen") < how.index("Then turn") < how.index("Next check")  # in document order


def test_a_short_list_entry_opening_with_the_identifier_asked_about_is_no_fragment() -> None:
    context = [
        passage(
            "c1",
            "m:1",
            "Each gate call can fail with one of the following codes: • qz.NOWATER: The channel holds no water at "
            "all. • qz.BADGATE: Unknown gate. • qz.NOLOCK: The lock of the gate is missing.",
        )
    ]
    question = "What does the qz.BADGATE error code mean?"
    answer = compose(question, "general", [], context, AnswerSettings(rank_decay=0.0))
    assert "qz.BADGATE: Unknown gate. [c1]" in answer


def test_asked_for_a_default_the_sentence_stating_it_further_on_in_the_entry_leads() -> None:
    """ "QzLineMax default?": "Defaults to 48K, ..." names no QzLineMax= but ends its entry, which the passage before it
    opens; another entry's default does not lead."""
    context = [
        {**passage("c1", "m:4", "QzLineMax= The longest line to keep. Longer lines are split."), "ordinal": 4},
        {
            **passage(
                "c2",
                "m:5",
                "Defaults to 48K, which fits in one datagram. QzLevel= Sets the level. Defaults to debug for all.",
            ),
            "ordinal": 5,
        },
        {**passage("c3", "m:9", "QzLineMax= lines are split at a break by the reader of the log."), "ordinal": 9},
    ]
    question = "QzLineMax= default?"
    assert _first(question, context, lead_bonus=0.0).startswith("QzLineMax= The longest line")
    assert _first(question, context).startswith("Defaults to 48K")
    context[0] = {**context[0], "ordinal": 2}  # the entry it ends is not in the evidence: another's default
    assert not _first(question, context).startswith("Defaults to")


def test_markup_left_in_a_passage_is_read_without_its_tags_unless_the_question_writes_one() -> None:
    row = "<tr> <td><kbd>Qz</kbd>+<kbd>D</kbd></td> <td>Deletes the gate at once.</td> </tr>"
    context = [passage("c1", "m:1", row)]
    assert _first("What does Qz+D do to the gate?", context) == "Qz + D Deletes the gate at once. [c1]"
    assert "<kbd>" in _first("What does <kbd> mark around Qz in the gate table?", context)


def test_each_part_of_a_question_asking_two_things_gets_a_sentence_of_its_own() -> None:
    context = [
        passage(
            "c1",
            "t:1",
            "The harbour tugs burn marine diesel fuel in both engines. The harbour tugs burn less fuel when towing "
            "empty barges. In winter the harbour tugs burn heavier fuel oil.",
        ),
        passage(
            "c2",
            "t:2",
            "Harbour tugs refuel their diesel fuel tanks at the north pier each night. Filters are cleaned every ten "
            "days by the crew.",
        ),
    ]
    question = "What fuel do the harbour tugs burn, and how often are their filters cleaned?"
    answer = compose(question, "general", [], context, AnswerSettings(sentences=3))
    assert answer.startswith("The harbour tugs burn marine diesel fuel") and "Filters are cleaned" in answer
    # Ranked by the whole question only, the first part's sentences fill the answer.
    whole = compose(question, "general", [], context, AnswerSettings(sentences=3, part_sentences=0))
    assert "Filters" not in whole and "heavier fuel oil" in whole
    # Two sentences: the first part's lead leaves room for the second part's.
    two = compose(question, "general", [], context, AnswerSettings(sentences=2))
    assert two.startswith("The harbour tugs burn marine diesel fuel") and "Filters are cleaned" in two


def test_a_sentence_is_matched_with_the_heading_it_stands_under() -> None:
    context = [
        passage(
            "c1",
            "t:1",
            "Training data We follow the usual recipe of earlier work. "
            "The Qz corpus holds 800 million words of novels.",
        ),
        passage("c2", "t:2", "Evaluation words are counted by the Zib tool after each run."),
    ]
    answer = compose("How many words does the training data hold?", "general", [], context, AnswerSettings(sentences=1))
    assert answer == "The Qz corpus holds 800 million words of novels. [c1]"


def test_a_sentence_its_chunk_cuts_off_unfinished_ends_in_an_ellipsis() -> None:
    """A chunk stopping inside a sentence that nothing finished (the next chunk is a figure) quotes its last words
    ending in an ellipsis: with a stop added they would read as a whole sentence. Finished by the next chunk, or
    ending in a bracket (or a closing tag), it is quoted as it is."""
    text = "The gate holds the tide on every site. Its drop in flow on the north site may be a result"
    cut = passage("c1", "g:1", text)
    answer = compose("Why does the gate's flow drop on the north site?", "general", [], [cut], AnswerSettings())
    assert "may be a result… [c1]" in answer and "result." not in answer
    finished = {**cut, "runs_on": "of the silt."}
    answer = compose("Why does the gate's flow drop on the north site?", "general", [], [finished], AnswerSettings())
    assert "may be a result of the silt. [c1]" in answer
    bracket = passage("c1", "g:1", "The gate opens when the tide turns at the north site (see the gate table)")
    assert "(see the gate table). [c1]" in compose(
        "When does the gate open?", "general", [], [bracket], AnswerSettings()
    )


def test_an_entry_run_on_after_a_bracket_is_quoted_on_its_own() -> None:
    """Entries with no stop of their own ("... see qz(2)) QZFLOW (not in POSIX) Enable ...") run into the one
    before; the entry asked about is quoted alone, not lost in a run that ends in a colon."""
    context = [
        passage(
            "c1",
            "m:1",
            "QZBAUD (not in POSIX) Mask for speeds. The bits are shifted left (not in glibc; see qz(2)) QZMARK (not "
            "in POSIX) Use stick parity. [requires QZ_SOURCE] QZFLOW (not in POSIX) Enable LEVER/GATE (hardware) "
            "flow control. [requires QZ_SOURCE] qz flag constants:",
        ),
    ]
    answer = compose("qz LEVER/GATE hardware flow control flag", "general", [], context, AnswerSettings(sentences=1))
    assert answer == "QZFLOW (not in POSIX) Enable LEVER/GATE (hardware) flow control. [c1]"


def _led_and_flat(question: str, text: str) -> tuple[str, str]:
    """The one-sentence answer from one passage of the text, with the leads and without them (`lead_bonus` 0)."""
    context = [passage("c1", "q:1", text)]
    led, flat = AnswerSettings(sentences=1), AnswerSettings(sentences=1, lead_bonus=0)
    return compose(question, "general", [], context, led), compose(question, "general", [], context, flat)


def test_a_how_many_question_leads_with_a_figure_counting_what_it_counts() -> None:
    """ "How many gates ..." lifts "holds at most 340 gates" above a sentence sharing as many of its words."""
    text = "Gates in a qz_map file are checked by every writer. A qz_map file holds at most 340 gates."
    answer, flat = _led_and_flat("How many gates can be written to a qz_map file?", text)
    assert answer.startswith("A qz_map file holds at most 340 gates.")
    assert flat.startswith("Gates in a qz_map file")


def test_a_short_default_in_the_entry_asked_about_is_quoted_after_the_sentence_before_it() -> None:
    """ "Default: false." alone says nothing of what it is the default of: it is quoted after the sentence before it,
    each with its citation; the same words in the next entry are not --qz-max's."""
    context = [
        passage(
            "c1",
            "m:1",
            "--qz-max <num> When asked to run gates in parallel, this option limits the gates to run at once. "
            "Default: false. Default: 50. If --qz-max is given twice, the last value is used. --qz-min <num> Sets "
            "the least number of gates to keep open. Default: false.",
        ),
    ]
    answer = compose("qz --qz-max default", "general", [], context, AnswerSettings(sentences=4))
    assert answer.startswith("--qz-max <num> When asked to run gates in parallel, this option limits the gates")
    assert "to run at once. [c1] Default: false. [c1] Default: 50. [c1]" in answer
    assert answer.count("Default: false.") == 1  # not after --qz-min's sentence


def test_a_list_entry_headed_by_a_number_the_question_writes_is_no_fragment() -> None:
    """ "28 Operation timeout." is short, but it is the entry "what does code 28 mean" asks about."""
    context = [passage("c1", "a:1", "27 Out of memory. 28 Operation timeout. The time-out period was reached.")]
    answer = compose("What does exit code 28 mean?", "general", [], context, AnswerSettings(sentences=3))
    assert answer.startswith("28 Operation timeout. [c1]")
    assert "27 Out of memory" not in answer
    # A number within another ("28.5") heads no entry; an entry's number may end in a colon ("28: Timed out.").
    listed = [passage("c1", "a:1", "2 Lost gate. 28: Operation timeout. The time-out period was reached.")]
    assert "2 Lost gate" not in compose("What does code 28.5 mean?", "general", [], listed, AnswerSettings(sentences=3))
    assert compose("What does code 28 mean?", "general", [], listed, AnswerSettings(sentences=3)).startswith("28:")


def test_a_sentence_defining_a_term_the_question_quotes_leads() -> None:
    """ "Which gates count as 'stale'?" is answered by "Stale gates means ...", before a sentence sharing as many
    words."""
    text = "Many gates can go stale over a long time. Stale gates means either: a gate shut a day or one with no key."
    answer, flat = _led_and_flat("Which gates count as 'stale'?", text)
    assert answer.startswith("Stale gates means either")
    assert flat.startswith("Many gates can go stale")


def test_a_how_many_question_counts_the_noun_singular_or_plural() -> None:
    """ "How many caches" lifts "1 cache"; "how many entries" lifts "1 entry", above a sentence naming them."""
    for question, figure in (("How many caches does qz keep?", "1 cache"), ("How many entries fit?", "1 entry")):
        answer, flat = _led_and_flat(
            question, f"Qz keeps caches and entries in the yard. Qz keeps {figure} in the yard."
        )
        assert answer.startswith(f"Qz keeps {figure}")
        assert flat.startswith("Qz keeps caches"), question


def test_an_entrys_signature_heads_the_sentences_describing_it() -> None:
    """ "gate.setShut(lever)" heads the sentences after it, though none names it: they answer for setShut, and a
    comparison's part on setShut takes them, not setOpen's."""
    text = (
        "gate.setOpen(lever) • lever {integer} Sets the opening lever. The lever may be between 1 and 9. "
        "The default on most gates is 3. gate.setShut(lever) • lever {integer} Sets the closing lever. "
        "The lever may be between 0 and 4. The default on most gates is 2."
    )
    question = "setOpen vs setShut: what lever values does each take, and what is the default?"
    answer = compose(question, "compare", ["setOpen", "setShut"], [passage("c1", "g:1", text)], AnswerSettings())
    opening, closing = answer.split("setShut: ")
    assert "between 1 and 9" in opening and "is 3" in opening
    assert "between 0 and 4" in closing and "is 2" in closing and "between 1 and 9" not in closing


def test_an_entry_split_off_in_lower_case_is_quoted_and_a_cut_passage_opening_is_not() -> None:
    """ "... . rotate Sets the gates to turn in order." is an entry, though its name is a word; a passage whose
    chunk opens mid-sentence ("turn in order, the gates ...") is no sentence to quote."""
    entry = passage("c1", "m:1", "Options are read at start. rotate Sets the gates to turn in order, one by one.")
    answer = compose("What does the rotate option do to the gates?", "general", [], [entry], AnswerSettings())
    assert "rotate Sets the gates to turn in order" in answer
    cut = passage("c1", "m:2", "rotate gates in order, the keeper sets them one by one. The keeper logs it.")
    answer = compose("How does the keeper rotate gates in order?", "general", [], [cut], AnswerSettings())
    assert "rotate gates in order, the keeper" not in answer
