"""What the workbench relies on when several browser sessions share one process: two questions asked at the same
time, on the shared knowledge base and agent, while an ingestion is in the middle of embedding."""

from __future__ import annotations

import threading
from pathlib import Path

from agent.events import EndEvent
from agent.runner import Agent
from agent.settings import AgentSettings
from kb.base import KnowledgeBase
from kb.models import Progress
from kb.settings import KBSettings
from tests import pdfgen


def test_two_asks_run_while_an_ingestion_is_paused_mid_embedding(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    pdfgen.plant_pdf(docs / "plant.pdf")
    base = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    base.ingest([docs])
    settings = AgentSettings(runs_dir=tmp_path / "runs", checkpoint_path=tmp_path / "cp.sqlite", mode="extractive")
    agent = Agent.persistent(base, settings)  # what the workbench shares between sessions

    embedding, asks_done = threading.Event(), threading.Event()
    held: list[bool] = []

    def hold_while_embedding(event: Progress) -> None:
        # The ingestion waits here, mid-embedding, until both questions are answered; if asking had to wait for
        # the ingestion, neither would finish and the wait below would time out.
        if event.stage == "embedding" and not embedding.is_set():
            embedding.set()
            held.append(asks_done.wait(timeout=120))

    new = pdfgen.long_pdf(tmp_path / "incoming.pdf", pages=8)
    ingestion = threading.Thread(target=lambda: base.ingest([new], hold_while_embedding))
    ingestion.start()
    assert embedding.wait(timeout=120), "the ingestion never reached embedding"

    finals: dict[int, EndEvent] = {}

    def ask(n: int) -> None:
        events = list(agent.ask("When is the thermal drift compensator recalibrated?", settings))
        finals[n] = events[-1]

    askers = [threading.Thread(target=ask, args=(n,)) for n in range(2)]
    for t in askers:
        t.start()
    for t in askers:
        t.join(timeout=120)
    asks_done.set()
    ingestion.join(timeout=120)

    assert held == [True], "the ingestion was not held while the questions ran"
    assert sorted(finals) == [0, 1]
    for final in finals.values():
        assert final.kind == "done"
        result = final.result
        assert not result["refused"] and "90 days" in result["answer"]
        assert {c["doc_id"] for c in result["citations"]} == {"plant"}
    assert finals[0].run_id != finals[1].run_id
    assert base.committed().keys() == {"plant", "incoming"}
    ids = [h.chunk_id for h in base.search("measurement number 305 for the long run", k=30)]
    assert len(ids) == len(set(ids)) and any(i.startswith("incoming") for i in ids)
