"""Notation read into prose: the prose before a figure's text or source code is quoted, a formula or calls in
prose are prose. Examples are invented."""

from __future__ import annotations

from agent.notation import opens_with_notation, symbols_cut
from agent.readable import unreadable


def test_the_prose_before_a_figures_text_read_into_a_sentence_is_kept_up_to_it() -> None:
    glued = (
        "The method tests whether the curvature of the log probability of a passage is negative near the text, "
        "using log p θ ( x ) x̃ 1 x̃ 2 ∼ p ( x ) Log likelihood Figure 2."
    )
    assert symbols_cut(glued) == (
        "The method tests whether the curvature of the log probability of a passage is negative near the text, "
        "using log …"
    )
    # Lone letters without a symbol are codes or values, and notation right at the start leaves no prose to keep.
    codes = "The parser reads each class of element in the file by its code, the codes A B C D E F in turn."
    assert symbols_cut(codes) == codes
    early = "Here p θ ( x ) ∼ q is sampled once per passage and then perturbed by the mask-filling model."
    assert symbols_cut(early) == early
    # A question asking for the equation gets the whole sentence.
    assert symbols_cut(glued, "What equation gives the curvature test?") == glued


def test_source_code_run_into_a_sentence_is_notation_but_a_formula_or_calls_in_prose_are_not() -> None:
    code = (
        'Sample code to hash a key with the pump scheme for the valve table: char key[] = "pw"; char mode[] = '
        '"2b"; int rc = qz_hash(out, sizeof(key) - 1, key, 10, salt);'
    )
    assert symbols_cut(code) == "Sample code to hash a key with the pump scheme for the valve table: char …"
    assert unreadable('char key[] = "pw"; int rc = qz_hash(out, 10, salt); if (rc) puts(out);', "Why?")
    for prose in (
        "If a message M(x) = M1(x) · x + M2(x) is a concatenation of M1 and M2, its check is computed from theirs.",
        "Call qz_init(ctx) first; then call qz_update; finally call qz_digest(ctx, length, out).",
        "The function qz_read() returns the number of bytes read, or -1 on error (see errno).",
    ):
        assert symbols_cut(prose, "How?") == prose and unreadable(prose, "How?") is None


def test_a_sentence_of_prose_run_together_with_code_around_it_is_quoted() -> None:
    """A page's code examples run into the prose between them: the sentence between two pieces of code is quoted
    after the prose before them ("… If ..."), or alone when the sentence opens with code; code alone quotes nothing."""
    mixed = (
        "Take a gate.qz holding const five = await gate(5); and a lever.qz with import { five } from './gate.qz'; "
        "log(five); # works If a gate never opens, the qz process exits with a 13 status code. import { run } from "
        "'qz'; run(x);"
    )
    assert symbols_cut(mixed) == (
        "Take a gate.qz holding const five = await gate(5); and a lever.qz with import … If a gate never opens, the "
        "qz process exits with a 13 status code."
    )
    opening = "x = f(y); z = g(w); return z; # then Then the gate closes and the lever is set to its rest."
    assert symbols_cut(opening) == "Then the gate closes and the lever is set to its rest."
    assert unreadable("x = f(y); z = g(w); return z; and then y = h(z);", "Why?")
    # After an equation's symbols, the words are the equation's own.
    equation = "the trace of the log p θ ( x ) x̃fake which in practice the Lipschitz bound of the qz keeps small."
    assert symbols_cut(equation) == equation
    # A line comment's mark is code: "const x = f('a b'); // NOTE: ..." opens with code, and the prose after it is
    # what is quoted.
    commented = (
        "const gate = Qz.from('some data'); // NOTE: DO NOT DO THIS! for (let i = 0; i < 9000; ++i) { qz.open(gate, "
        "(err, out) => {}); } In the example above, 9,000 gates are opened at once in the same tick."
    )
    assert symbols_cut(commented) == "In the example above, 9,000 gates are opened at once in the same tick."
    # A "//" in prose is no code: "a leading // is treated specially, and qzstat(2), qzopen(2) ...".
    prose = "Some systems treat a leading // specially, and qzstat(2), qzlstat(2) and qzopen(2) may then resolve it."
    assert symbols_cut(prose) == prose and not opens_with_notation(prose)
