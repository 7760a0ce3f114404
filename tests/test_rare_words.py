"""agent.rare_words: which words name a thing, and whether the passages hold one in any spelling."""

from agent.rare_words import absent, is_rare, typo


def test_a_usual_form_of_an_ordinary_word_is_no_rare_word() -> None:
    """ "minimise" is "minimize", "hashes" is "hash"; "zorbyte" is no word of the language."""
    assert not is_rare("minimise") and not is_rare("hashes") and is_rare("zorbyte")
    # An ordinary word undone or done again is ordinary too; a rare one stays rare.
    assert not is_rare("unset") and not is_rare("reloaded") and is_rare("unzorbyte")
    assert is_rare("prefork") and is_rare("overleaf")  # a name made of a word may be a name
    # A form of a base the word list holds only inflected ("truncating": "truncated"); no inflection makes a word.
    assert not is_rare("truncating") and is_rare("zorbyting")


def test_a_word_written_joined_split_or_with_a_slip_is_not_absent() -> None:
    """ "timeout" is held by "time-out", "recieve" by "receive"; "zorbyte" by no "korbyte"."""
    text = ["The time-out is 30 s; receive with a korbyte buffer."]
    assert absent(["timeout", "recieve", "zorbyte"], text) == ["zorbyte"]
    assert typo("recieve", "receive") and typo("colour", "color") and not typo("zorbyte", "korbyte")
