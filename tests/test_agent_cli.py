"""`python -m agent` over a real knowledge base (generated PDFs), in extractive mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent import cli
from agent.types import ApprovalRequest
from kb.base import KnowledgeBase


@pytest.fixture(autouse=True)
def runs_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_RUNS_DIR", str(tmp_path / "runs"))
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "checkpoints.sqlite"))
    return tmp_path / "runs"


def store(kb: KnowledgeBase) -> str:
    return str(kb.settings.store_dir)


def test_ask_json(shared_kb: KnowledgeBase, capsys: pytest.CaptureFixture[str], runs_dir: Path) -> None:
    code = cli.main(
        [
            "--store",
            store(shared_kb),
            "ask",
            "Which station logged the highest humidity readings?",
            "--mode",
            "extractive",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(out) >= {
        "answer",
        "refused",
        "refusal_reason",
        "stop_reason",
        "mode",
        "citations",
        "rounds",
        "llm_calls",
        "seconds",
    }
    assert not out["refused"] and out["mode"] == "extractive" and out["llm_calls"] == 0
    assert "basalt station" in out["answer"]
    cited = {(c["doc_id"], c["start_page"]) for c in out["citations"]}
    assert ("report", 2) in cited
    assert all(set(c) == {"key", "chunk_id", "doc_id", "start_page", "end_page"} for c in out["citations"])
    assert len(list(runs_dir.glob("*.json"))) == 1


def test_ask_prints_each_node(shared_kb: KnowledgeBase, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(
        [
            "--store",
            store(shared_kb),
            "ask",
            "What does the QZ-9 gasket weigh?",
            "--preset",
            "quick",
            "--mode",
            "extractive",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "[   route]" in out and "[retrieve]" in out and "[  assess]" in out and "[  refuse]" in out
    assert "REFUSED [extractive]" in out and "refusal_reason=insufficient_evidence" in out


def test_terminal_approval(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["x", "e", "better query"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    payload = ApprovalRequest(strategy="broaden", previous="a b c", proposed="a b", reasons=["too few hits"], round=1)
    assert cli._ask_terminal(payload) == {"action": "edit", "query": "better query"}
    assert "'a b c' -> 'a b'" in capsys.readouterr().out


def test_eval_both_formats(shared_kb: KnowledgeBase, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    questions = tmp_path / "q.jsonl"
    rows = [
        {
            "qid": "p1",
            "question": "Which station logged the highest humidity readings?",
            "answerable": True,
            "gold": [{"doc_id": "report", "start_page": 2, "end_page": 2}],
        },
        {
            "qid": "d1",
            "question": "How are cobalt sensors affected by salt spray?",
            "doc_id": "report",
            "answer": "The cobalt sensors failed after prolonged exposure to salt spray.",
            "answerable": True,
        },
        {"qid": "u1", "question": "What is the boiling point of the QZ-9 gasket compound?", "answerable": False},
    ]
    questions.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    report = tmp_path / "report.md"
    code = cli.main(
        ["--store", store(shared_kb), "eval", str(questions), "--mode", "extractive", "--json", "--out", str(report)]
    )
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    m = result["metrics"]
    assert m["questions"] == 3 and m["answerable"] == 2 and m["unanswerable"] == 1
    assert m["refusal_accuracy_unanswerable"] == 1.0 and m["false_refusal_rate_answerable"] == 0.0
    assert m["citation_validity"] == 1.0 and m["cites_gold_of_answerable"] == 1.0
    assert [q["qid"] for q in result["questions"]] == ["p1", "d1", "u1"]
    assert all({"qid", "refused", "citations", "rounds", "llm_calls", "seconds"} <= set(q) for q in result["questions"])
    assert report.read_text().startswith("# Agent evaluation")


def test_eval_bad_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"qid": "x"}\n')
    assert cli.main(["--store", str(tmp_path / "s"), "eval", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: bad.jsonl") and "\n" not in err


def test_ask_after_a_saved_run_reads_a_follow_up(
    shared_kb: KnowledgeBase, capsys: pytest.CaptureFixture[str], runs_dir: Path
) -> None:
    first = ["--store", store(shared_kb), "ask", "Which station logged the highest humidity readings?"]
    assert cli.main([*first, "--mode", "extractive", "--json"]) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    follow = ["--store", store(shared_kb), "ask", "and where is it?", "--after", run_id, "--mode", "extractive"]
    assert cli.main([*follow, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["question"] == "and where is it?" and "station" in out["searched_as"]
    assert cli.main([*follow[:-4], "--after", "no-such-run"]) == 2
    assert "--after no-such-run: no saved run" in capsys.readouterr().err
