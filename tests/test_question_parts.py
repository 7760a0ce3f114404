"""The parts of a question asking several things. Examples are invented."""

from agent.question_parts import question_parts


def test_a_second_question_joined_by_and_is_a_part_of_its_own() -> None:
    assert question_parts("What fuel do the harbour tugs burn, and how often are their filters cleaned?") == [
        "What fuel do the harbour tugs burn",
        "how often are their filters cleaned?",
    ]
    assert question_parts("What is a tug manifest and what does a line in it look like?") == [
        "What is a tug manifest",
        "what does a line in it look like?",
    ]


def test_a_second_question_after_a_question_mark_is_a_part() -> None:
    assert question_parts("Which pier do the tugs use? How long may they moor there?") == [
        "Which pier do the tugs use?",
        "How long may they moor there?",
    ]


def test_one_question_is_one_part() -> None:
    # "and" joining two things asked about, "or" joining alternatives, and a part with no word of its own ("and
    # why?") leave the question whole.
    for question in (
        "What do the tugs and the barges carry?",
        "Is the north pier or the south pier deeper?",
        "Which fuel do the tugs burn, and why?",
        "Which crews load and do repairs on the barges?",  # an auxiliary without a comma goes on as a verb
        "Which tugs does the pattern `q? z` match?",  # a question mark in code ends nothing
    ):
        assert question_parts(question) == [question]
