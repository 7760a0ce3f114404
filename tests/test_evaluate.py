"""Evaluation metrics on a small hand-computed example, and both question formats."""

import json
import math
from pathlib import Path

import pytest

from kb.cli import main as kb_cli
from kb.evaluate import GoldSpan, doc_metrics, evaluate, load_questions, page_metrics
from kb.models import Hit
from kb.page_proxy import page_gold
from kb.text import tokenize
from tests import pdfgen


def _hit(doc: str, start: int, end: int, text: str = "", rank: int = 1) -> Hit:
    return Hit(
        chunk_id=f"{doc}:{start}:{rank}",
        doc_id=doc,
        start_page=start,
        end_page=end,
        section="",
        text=text,
        ordinal=0,
        rank=rank,
        fused_score=0.0,
    )


def test_page_metrics_hand_computed():
    gold = [GoldSpan(doc_id="a", start_page=5, end_page=5), GoldSpan(doc_id="b", start_page=2, end_page=3)]
    hits = [_hit("a", 1, 1), _hit("b", 3, 4), _hit("a", 4, 5), _hit("a", 5, 5), _hit("c", 2, 3)]
    # rank 2 matches span b, rank 3 matches span a, rank 4 matches a again (counted once)
    m = page_metrics(hits, gold, k=5)
    assert m["recall"] == 1.0
    assert m["mrr"] == 0.5
    dcg = 1 / math.log2(3) + 1 / math.log2(4)
    idcg = 1 + 1 / math.log2(3)
    assert m["ndcg"] == pytest.approx(dcg / idcg)
    m1 = page_metrics(hits, gold, k=1)
    assert m1 == {"recall": 0.0, "mrr": 0.0, "ndcg": 0.0}
    m2 = page_metrics(hits, gold, k=2)
    assert m2["recall"] == 0.5 and m2["ndcg"] == pytest.approx((1 / math.log2(3)) / idcg)


def test_doc_metrics_answer_support():
    hits = [_hit("x", 1, 1, "The pump runs at 300 rpm"), _hit("y", 2, 2, "Filters are replaced yearly")]
    m = doc_metrics(hits, "y", "Pump speed is 300 rpm", k=2)
    assert m["doc_hit"] == 1.0
    assert m["answer_support"] == pytest.approx(3 / 4)  # pump, 300, rpm of pump, speed, 300, rpm
    assert doc_metrics(hits, "y", None, k=1) == {"doc_hit": 0.0}


def test_both_formats_load_and_bad_lines_name_the_field(tmp_path: Path):
    path = tmp_path / "q.jsonl"
    rows = [
        {"qid": "a1", "question": "q?", "answer": "r", "doc_id": "d", "answerable": True},
        {"qid": "p1", "question": "q?", "answerable": True, "gold": [{"doc_id": "d", "start_page": 2, "end_page": 3}]},
        {"qid": "u1", "question": "q?", "answer": "", "doc_id": "none", "answerable": False},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    qs = load_questions(path)
    assert [q.qid for q in qs] == ["a1", "p1", "u1"] and qs[1].gold[0].end_page == 3
    result = evaluate(qs, lambda q, k: [_hit("d", 3, 3)], [1, 8])
    assert result["metrics"]["questions"] == 2 and result["metrics"]["unanswerable_skipped"] == 1
    by_id = {q["qid"]: q for q in result["questions"]}
    assert by_id["p1"]["recall@1"] == 1.0 and by_id["a1"]["doc_hit@8"] == 1.0
    assert by_id["p1"]["hits"] == [{"doc_id": "d", "start_page": 3, "end_page": 3, "chunk_id": "d:3:1"}]
    path.write_text('{"qid": "b", "question": "q", "gold": [{"doc_id": "d"}]}\n')
    with pytest.raises(ValueError, match=r"q.jsonl line 1: field 'gold.0.start_page'"):
        load_questions(path)


def test_page_proxy_takes_the_pages_that_hold_most_of_the_answer(tmp_path: Path, capsys):
    row = {"qid": "q", "question": "?", "doc_id": "d", "answer": "basalt humidity station survey"}
    q = load_questions(_write(tmp_path, [row]))[0]
    texts = ["basalt", "basalt humidity station survey", "basalt humidity station", "survey station humidity basalt"]
    pages = [(n, set(tokenize(t))) for n, t in enumerate(texts, 1)]
    got = page_gold(q, pages, 0.6, 0.1)  # shares 1/4, 1, 3/4, 1: page 3 is more than the margin below the best
    assert got is not None and [g["start_page"] for g in got["gold"]] == [2, 4]
    assert [g["start_page"] for g in page_gold(q, pages, 0.6, 0.3)["gold"]] == [2, 3, 4]
    assert page_gold(q, pages[:1], 0.6, 0.1) is None  # a quarter of the answer is not enough
    # End to end on a generated PDF: the answer's marker sentence is on page 2 of the report.
    pdfgen.report_pdf(tmp_path / "report.pdf")
    answer = "The basalt station logged the highest humidity."
    questions = _write(tmp_path, [{"qid": "a", "question": "?", "doc_id": "report", "answer": answer}])
    assert kb_cli(["page-proxy", str(questions), str(tmp_path), "--out", str(tmp_path / "pages.jsonl")]) == 0
    gold = [json.loads(line) for line in (tmp_path / "pages.jsonl").read_text().splitlines()]
    assert [g["gold"] for g in gold] == [[{"doc_id": "report", "start_page": 2, "end_page": 2}]]
    capsys.readouterr()
    assert kb_cli(["page-proxy", str(questions), str(tmp_path / "nowhere"), "--out", str(tmp_path / "p.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == f"error: {tmp_path / 'nowhere'}: no such folder"


def _write(folder: Path, rows: list[dict]) -> Path:
    path = folder / "questions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path
