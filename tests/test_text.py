from __future__ import annotations

from kb.text import is_common_word, is_identifier, markup_tags, squashed, tag_pattern, tokenize, words


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


def test_markup_tags_are_the_elements_written_in_angle_brackets() -> None:
    assert markup_tags('Can <name target="font"> sit in <match>, or </Edit> and <br/>? 3 < 4 > 2') == [
        "name",
        "match",
        "edit",
        "br",
    ]
    assert tag_pattern("include").search('see <include prefix="x">') and tag_pattern("include").search("<include>")
    assert not tag_pattern("include").search("packages include <includes> and include")
