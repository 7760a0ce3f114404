"""Reading a question for search: the information need, apart from persona, format, supplied definitions and
politeness; hints of where to look. Examples are invented."""

from kb.query import read_query


def test_a_plain_question_is_its_own_need():
    q = read_query("What limits the gearbox temperature?")
    assert q.need == "What limits the gearbox temperature?" and not q.dropped and not q.cleaned


def test_persona_and_format_instructions_are_kept_out():
    q = read_query(
        "Assume that you are a harbour inspector. What is the FY2021 dredging volume of the north channel? "
        "Answer in thousands of cubic metres and round to one decimal place."
    )
    assert q.need == "What is the FY2021 dredging volume of the north channel?"
    assert len(q.dropped) == 2 and q.dropped[0].startswith("Assume")


def test_a_question_after_an_instruction_and_a_colon_keeps_the_question_and_a_hint():
    q = read_query(
        "Answer the following question by using information shown in the tide table: what is the highest tide?"
    )
    assert q.need == "what is the highest tide?"
    assert q.hints == ["tide table"]
    assert q.text == "what is the highest tide? tide table"


def test_a_leading_clause_naming_a_source_becomes_a_hint():
    q = read_query("Based on the maintenance log, how many pumps failed in 2019?")
    assert q.need == "how many pumps failed in 2019?" and q.hints == ["maintenance log"]


def test_a_supplied_definition_is_kept_out_but_not_a_lone_one():
    q = read_query("What is the fleet's uptime? Uptime is defined as: hours sailing / hours scheduled.")
    assert q.need == "What is the fleet's uptime?" and q.dropped == [
        "Uptime is defined as: hours sailing / hours scheduled."
    ]
    alone = read_query("Uptime is defined as what in the charter?")
    assert alone.need == "Uptime is defined as what in the charter?"  # the only sentence is the need


def test_politeness_and_unit_parentheses_are_dropped():
    q = read_query("Please list the spare parts kept aboard (in units) for the winter sailings.")
    assert q.need == "list the spare parts kept aboard for the winter sailings."
    assert "please" in q.dropped and "in units" in q.dropped


def test_a_conditional_instruction_beside_the_question_is_dropped():
    q = read_query(
        "Does the ferry line have a rising load factor? If load factor is not a useful measure here, then state "
        "that and explain why."
    )
    assert q.need == "Does the ferry line have a rising load factor?"


def test_a_question_that_is_all_instructions_keeps_its_text():
    q = read_query("Please answer briefly. Round to whole numbers.")
    assert q.need == "Please answer briefly. Round to whole numbers."


def test_a_leading_condition_is_part_of_the_need_even_when_it_holds_a_source_word():
    q = read_query("If the loader is given /srv/a.cfg as input and no log name, what names are used?")
    assert q.need == "If the loader is given /srv/a.cfg as input and no log name, what names are used?"
    late = read_query("When primarily referencing the crew roster, who sailed in May?")
    assert late.need == "who sailed in May?" and late.hints == ["crew roster"]


def test_a_leading_instruction_on_how_to_answer_is_kept_out():
    for question, head in [
        ("Answer briefly: which valve seals the north line?", "Answer briefly"),
        ("Answer in one sentence: which valve seals the north line?", "Answer in one sentence"),
        ("Briefly, which valve seals the north line?", "Briefly"),
        ("In short: which valve seals the north line?", "In short"),
    ]:
        q = read_query(question)
        assert q.need == "which valve seals the north line?" and q.dropped == [head]
    assert read_query("Briefly describe the north line.").need == "Briefly describe the north line."  # no colon
    both = read_query("Answer briefly, in one sentence: which valve seals the north line?")
    assert both.need == "which valve seals the north line?" and both.dropped == ["Answer briefly, in one sentence"]
    assert read_query("Briefly, " * 1500 + "which valve?").need == "which valve?"  # no recursion to exhaust


def test_joined_instructions_on_the_answers_form_are_kept_out():
    q = read_query("Please answer briefly and cite the page: if the sluice gate jams, what happens to the pump?")
    assert q.need == "if the sluice gate jams, what happens to the pump?"
    assert q.dropped == ["Please answer briefly and cite the page"]
    q = read_query("Cite the sources, and answer concisely: how many gates are there?")
    assert q.need == "how many gates are there?"
    assert (
        read_query("Name the gate of the north basin, what is it?").need
        == "Name the gate of the north basin, what is it?"
    )


def test_a_preface_announcing_a_quick_question_is_kept_out():
    q = read_query("Quick one: if I set -gap 10 with no suffix, what unit is the 10 counted in?")
    assert q.need == "if I set -gap 10 with no suffix, what unit is the 10 counted in?" and q.dropped == ["Quick one"]
    assert read_query("Quick question, which valve seals the north line?").need == "which valve seals the north line?"
    assert read_query("Quick gates close first: which one?").need == "Quick gates close first: which one?"


def test_a_wish_framing_a_question_that_stands_alone_is_kept_out():
    q = read_query("We need to work out a ratio for the ledger. What is Qzell Works' 2031 sales total in the summary?")
    assert q.need == "What is Qzell Works' 2031 sales total in the summary?"
    assert "We need to work out a ratio for the ledger." in q.dropped


def test_a_wish_a_question_leans_on_is_part_of_the_need():
    # The question refers back to the wish ("them", "does that") or is too thin to stand alone.
    for question in [
        "I want to mark some zorb files as private to my own checkout. Where should I keep them?",
        "I want to turn off qz telemetry on the site. Which variable lets me do so inside a gate?",
        "I want to stop one folder from growing past a size. Which qz option does that?",
        "I need to list the widgets bound to a frob for tracing. Which call should I use?",
    ]:
        q = read_query(question)
        assert q.need == question and not q.dropped


def test_an_instruction_beside_the_question_does_not_keep_a_wish_in_the_need() -> None:
    q = read_query(
        "We need to work out a ratio for the ledger. What is Qzell Works' 2031 sales total in the summary? "
        "Give the answer in millions."
    )
    assert q.need == "What is Qzell Works' 2031 sales total in the summary?"
