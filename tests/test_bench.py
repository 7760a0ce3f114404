"""The bench end to end on a tiny generated corpus: cold ingestion into a cached store, reuse on the next run,
one-line errors for a corpus that cannot be measured while the others go on, and the store key."""

import json
from pathlib import Path

import pytest

import bench.stores
from bench.cli import main
from bench.stores import error_lines, store_key
from tests import pdfgen

QUESTIONS = [
    {
        "qid": "q1",
        "question": "Which station logged the highest humidity readings of the season?",
        "answer": "The basalt station logged the highest humidity readings.",
        "doc_id": "report",
    },
    {
        "qid": "q2",
        "question": "What does the maintenance manual say about installing the pump controller?",
        "answer": "It explains installing the pump controller with torque wrench settings.",
        "doc_id": "manual",
    },
    {"qid": "q3", "question": "Who won the 1998 chess olympiad in Elista?", "answer": "", "answerable": False},
]
PAGE_GOLD = [
    {**QUESTIONS[0], "gold": [{"doc_id": "report", "start_page": 2, "end_page": 2}]},
    {**QUESTIONS[1], "gold": [{"doc_id": "manual", "start_page": 1, "end_page": 1}]},
]


@pytest.fixture
def corpora(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """corpora.json with good corpora (document gold, page gold), one whose questions file is missing, and one with
    no readable PDF."""
    # Others edit kb/ while the tests run: a fixed code hash keeps the key of this test's stores stable.
    monkeypatch.setattr(bench.stores, "code_hash", lambda kb_dir: "fixed")
    demo = tmp_path / "corpora" / "demo"
    demo.mkdir(parents=True)
    pdfgen.report_pdf(demo / "report.pdf")
    pdfgen.manual_pdf(demo / "manual.pdf")
    (demo / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    (demo / "pages.jsonl").write_text("".join(json.dumps(q) + "\n" for q in PAGE_GOLD))
    junk = tmp_path / "corpora" / "junk"
    junk.mkdir()
    (junk / "notes.pdf").write_text("not a PDF at all\n")
    listing = {
        "corpora": [
            {
                "name": "demo",
                "kind": "generated",
                "pdfs": "demo",
                "questions": "demo/questions.jsonl",
                "gold": "document",
            },
            {"name": "paged", "pdfs": "demo", "questions": "demo/pages.jsonl", "gold": "page"},
            {"name": "noquestions", "pdfs": "demo", "questions": "demo/missing.jsonl", "gold": "page"},
            {"name": "junk", "pdfs": "junk", "questions": "demo/questions.jsonl", "gold": "document"},
        ]
    }
    path = tmp_path / "corpora" / "corpora.json"
    path.write_text(json.dumps(listing))
    return path


def test_bench_builds_then_reuses_and_reports_failed_corpora_in_one_line(corpora: Path, tmp_path: Path, capsys):
    cache, out = tmp_path / "cache", tmp_path / "board.md"
    code = main(["--corpora", str(corpora), "--cache", str(cache), "--out", str(out), "--ocr", "0"])
    stdout, stderr = capsys.readouterr()
    assert code == 1  # two corpora failed, the good one was measured
    errors = [line for line in stderr.splitlines() if line.startswith(("error: noquestions", "error: junk"))]
    assert len(errors) == 2, stderr  # one line each (beside the ingestion's own line for notes.pdf)
    assert errors[0].startswith("error: noquestions: ") and "missing.jsonl" in errors[0]
    assert errors[1].startswith("error: junk: ingestion failed (exit 1, 0 document(s) stored): notes.pdf: ")
    assert "Traceback" not in stderr and "ingesting" in stderr
    [store] = cache.glob("demo-*")
    assert not list(cache.glob("junk-*/bench.json"))  # a failed ingestion is never taken for a complete store
    mark = store / "bench.json"
    built = json.loads(mark.read_text())
    assert built["documents"] == 2 and built["pages"] == 5 and built["exit_code"] == 0 and built["seconds"] > 0
    row = next(line for line in stdout.splitlines() if line.startswith("| demo | document |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2:5] == ["2", "5", str(built["chunks"])]  # docs, pages, chunks
    assert cells[7] == "built now" and "hit@1" in cells[8] and "unanswerable refused 1/1" in cells[9]
    assert out.read_text() == stdout
    paged = next(line for line in stdout.splitlines() if line.startswith("| paged | page |"))
    assert "R@8 " in paged and "MRR@8 " in paged and "nDCG@8 " in paged
    page_table = stdout.split("## Retrieval, page gold")[1].split("##")[0]
    assert "nDCG@8" in page_table and [line.split("|")[2].strip() for line in page_table.splitlines()[4:7]] == [
        "hybrid",
        "dense",
        "BM25",
    ]

    code = main(
        ["--corpora", str(corpora), "--cache", str(cache), "--corpus", "demo", "--skip-agent", "--json", "--ocr", "0"]
    )
    stdout, stderr = capsys.readouterr()
    assert code == 0 and "ingesting" not in stderr
    report = json.loads(stdout)
    [demo] = report["corpora"]
    assert demo["store"]["reused"] and demo["store"]["built_at"] == built["built_at"]
    assert json.loads(mark.read_text()) == built
    assert demo["agent"] is None and set(demo["retrieval"]) == {"hybrid", "dense", "lexical"}
    assert demo["retrieval"]["hybrid"]["metrics"]["questions"] == 2
    assert demo["quality"]["documents"] == 2 and len(demo["quality"]["targets"]) == 6

    # A tokenizer change (kb/lexical.py) reuses the store but rebuilds its persisted BM25 index.
    mark.write_text(json.dumps({**built, "lexical_hash": "stale"}))
    bm25 = {f: f.stat().st_mtime_ns for f in (store / "bm25").rglob("*") if f.is_file()}
    code = main(["--corpora", str(corpora), "--cache", str(cache), "--corpus", "demo", "--skip-agent", "--ocr", "0"])
    stdout, stderr = capsys.readouterr()
    assert code == 0 and "ingesting" not in stderr
    assert f"| reused, built {demo['store']['built']} |" in stdout
    assert json.loads(mark.read_text()) == built
    rebuilt = {f: f.stat().st_mtime_ns for f in (store / "bm25").rglob("*") if f.is_file()}
    records = [f for f in bm25 if f.name == "records.jsonl"]
    assert records and all(rebuilt.get(f, 0) > bm25[f] for f in records)


def test_scale_copies_the_stores_to_the_size_asked_and_times_warm_search(corpora: Path, tmp_path: Path, capsys):
    cache = tmp_path / "cache"
    args = ["--corpora", str(corpora), "--cache", str(cache), "--corpus", "demo", "--corpus", "paged", "--ocr", "0"]
    code = main([*args, "--skip-agent", "--skip-retrieval", "--scale", "30", "--json"])
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    scale = json.loads(stdout)["scale"]
    assert scale["ok"] and scale["chunks"] >= 30 and scale["documents"] % 2 == 0 and scale["documents"] > 4
    assert scale["questions"] == 4  # both corpora's answerable questions
    assert 0 < scale["p50_ms"] <= scale["p95_ms"] and scale["peak_mb"] > 0 and scale["build_seconds"] > 0
    code = main([*args, "--skip-agent", "--skip-retrieval", "--scale", "30"])
    stdout, _ = capsys.readouterr()
    assert code == 0 and "## Search at scale" in stdout and "(reused)" in stdout
    assert len(list(cache.glob("scale-*"))) == 1


def test_ocr_figures_give_word_recall_speed_and_retrieval_on_an_image_only_copy(corpora: Path, tmp_path: Path, capsys):
    args = ["--corpora", str(corpora), "--cache", str(tmp_path / "cache"), "--corpus", "demo", "--corpus", "paged"]
    code = main([*args, "--skip-agent", "--skip-retrieval", "--ocr", "2", "--json"])
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    report = json.loads(stdout)
    generated = report["ocr_generated"]
    assert generated["ok"] and generated["pages"] == 3 and generated["word_recall"] >= 0.95
    demo, paged = report["corpora"]
    recall = demo["ocr"]["recall"]
    assert recall["pages"] == 2 and recall["word_recall"] >= 0.9 and recall["pages_per_second"] > 0
    copy = demo["ocr"]["copy"]  # the document most questions ask about; both are asked once: the first of them
    assert copy["doc_id"] == "report" and copy["pages"] == copy["ocr_pages"] == 3 and copy["questions"] == 1
    assert set(copy["text"]) == set(copy["image"]) == {"answer_support@8"}
    assert set(paged["ocr"]["copy"]["image"]) == {"recall@8", "mrr@8"}  # page gold: page metrics
    assert paged["ocr"]["copy"]["image"]["recall@8"] == paged["ocr"]["copy"]["text"]["recall@8"] == 1.0
    code = main([*args, "--skip-agent", "--skip-retrieval", "--ocr", "2"])
    stdout, _ = capsys.readouterr()
    assert "## OCR" in stdout and "| generated | 3 |" in stdout and "| demo | report | 3 | 1 |" in stdout


def test_unknown_corpus_is_one_line_and_exit_2(corpora: Path, tmp_path: Path, capsys):
    assert main(["--corpora", str(corpora), "--cache", str(tmp_path / "c"), "--corpus", "demo", "--corpus", "x"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip().splitlines() == ["error: unknown corpus x (known: demo, paged, noquestions, junk)"]
    assert not (tmp_path / "c").exists()
    assert main(["--corpora", str(tmp_path / "none.json")]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


def test_store_key_follows_ingestion_code_not_query_code(tmp_path: Path):
    from kb.settings import KBSettings

    kb_dir = tmp_path / "kb"
    kb_dir.mkdir()
    for name in ("parse.py", "chunk.py", "search.py", "lexical.py"):
        (kb_dir / name).write_text(f"# {name}\n")
    settings = KBSettings(store_dir=tmp_path / "store")
    key, inputs = store_key(settings, kb_dir)
    assert len(key) == 12 and inputs["recipe"] == settings.recipe
    (kb_dir / "search.py").write_text("# ranking changed\n")
    (kb_dir / "lexical.py").write_text("# tokenizer changed\n")
    assert store_key(settings, kb_dir)[0] == key
    (kb_dir / "chunk.py").write_text("# chunking changed\n")
    changed = store_key(settings, kb_dir)[0]
    assert changed != key
    (kb_dir / "cards.py").write_text("# a new ingestion module\n")
    assert store_key(settings, kb_dir)[0] != changed
    assert (
        store_key(settings.model_copy(update={"chunk_target_tokens": 128}), kb_dir)[0] != store_key(settings, kb_dir)[0]
    )


def test_error_lines_are_found_behind_a_progress_bar():
    stderr = "0file [00:00, ?file/s]error: ImportError: no ingest_paths\r  0%| 0/2\nerror: scan.pdf: no text\n"
    assert error_lines(stderr) == ["error: ImportError: no ingest_paths", "error: scan.pdf: no text"]
