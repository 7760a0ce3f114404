"""Headless checks of the Ask and History pages with Streamlit's AppTest (extractive mode, Ollama unreachable)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agent.conversations import Conversations
from agent.runs import list_runs
from tests.fake_ollama import FakeOllama, free_port_url
from ui.evidence import citation_label, escape_md, marked

APP = str(Path(__file__).resolve().parent.parent / "ui" / "app.py")
CHARTS_PER_RUN = 2  # the evidence map and the node timeline


@pytest.fixture
def app(ui_env: Path) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90).run()
    assert not at.exception
    return at


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_ask_answers_with_citation_and_charts(app: AppTest, tmp_path: Path) -> None:
    assert any("Ollama not reachable" in m.value for m in app.sidebar.markdown)
    app.chat_input[0].set_value("When is the thermal drift compensator recalibrated?").run()
    assert not app.exception
    text = markdown(app)
    assert "recalibrated every 90 days" in text.replace("\\", "")
    labels = [e.label for e in app.expander]
    assert any(label.replace("\\", "").startswith("[c") and "plant · p. 2" in label for label in labels)
    assert "Copy or export this answer" in labels
    assert any(t.label == "Charts for this run" and t.value for t in app.toggle)  # the latest run shows them
    assert any(e.label.startswith("Round 1 · initial") for e in app.expander)
    assert len(app.get("plotly_chart")) == CHARTS_PER_RUN
    runs = list_runs(tmp_path / "runs")
    assert len(runs) == 1 and runs[0].outcome == "answered" and runs[0].mode == "extractive"
    # The run opened a conversation, named in the URL, that holds it.
    [conversation] = Conversations(tmp_path / "conversations").listing()
    assert (
        app.query_params["c"] == [conversation.conversation_id] or app.query_params["c"] == conversation.conversation_id
    )
    assert conversation.run_ids == [runs[0].run_id]


def test_approval_reject_then_history_replay(
    plant_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_APPROVAL", "true")  # the sidebar toggle starts from the configured default
    app = AppTest.from_file(APP, default_timeout=90)
    monkeypatch.setenv("KB_STORE_DIR", str(plant_store))
    monkeypatch.setenv("AGENT_RUNS_DIR", str(tmp_path / "runs"))
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "checkpoints.sqlite"))
    monkeypatch.setenv("AGENT_OLLAMA_URL", free_port_url())
    app.run()
    assert app.toggle(key="cfg_approval").value is True
    app.chat_input[0].set_value("When is the TDC-X9 recalibrated?").run()
    assert not app.exception
    assert "Proposed refinement (broaden)" in "\n".join(i.value for i in app.info)
    field = next(t for t in app.text_input if t.label == "Refined query")
    assert field.value == "TDC-X9 recalibrated"
    next(b for b in app.button if b.label == "Reject").click().run()
    assert not app.exception
    warnings = "\n".join(w.value for w in app.warning)
    assert "Refused (refinement_rejected)" in warnings

    app.switch_page("views/history.py").run()
    assert not app.exception
    assert len(app.get("plotly_chart")) == 3  # outcomes, rounds, latency
    run_id = list_runs(tmp_path / "runs")[0].run_id
    app.session_state["history_run"] = run_id
    app.run()
    assert "Replay" in [s.value for s in app.subheader]
    assert "refinement_rejected" in "\n".join(w.value for w in app.warning)
    assert any("You:** reject" in m.value for m in app.markdown)


def test_document_text_is_never_markup() -> None:
    hostile = "<script>alert(1)</script> **bold** [link](http://x) $x$ :smile:"
    escaped = escape_md(hostile)
    assert "<script>" not in escaped and "**bold**" not in escaped and "](http" not in escaped
    assert escaped.replace("\\", "") == hostile
    assert marked("The basalt station logged", "basalt") == "The **basalt** station logged"


def test_citation_labels_show_sections_literally() -> None:
    citation = {
        "key": "c2",
        "doc_id": "report_2021",
        "start_page": 4,
        "end_page": 5,
        "section": "Notes ($ in *millions*)",
    }
    label = citation_label(citation)
    assert "$" not in label.replace("\\$", "") and "*millions*" not in label
    assert label.replace("\\", "") == "[c2] report_2021 · pp. 4–5 · Notes ($ in *millions*)"


def test_sidebar_settings_follow_the_preset_and_persist_across_pages(app: AppTest) -> None:
    assert app.selectbox(key="cfg_preset").value == "balanced"
    app.selectbox(key="cfg_preset").set_value("thorough").run()
    assert app.number_input(key="cfg_max_rounds").value == 5
    app.number_input(key="cfg_k").set_value(12).run()
    app.toggle(key="cfg_approval").set_value(True).run()
    app.switch_page("views/library.py").run()
    app.switch_page("views/history.py").run()
    app.switch_page("views/ask.py").run()
    assert not app.exception
    assert app.selectbox(key="cfg_preset").value == "thorough"
    assert app.number_input(key="cfg_k").value == 12
    assert app.number_input(key="cfg_max_rounds").value == 5
    assert app.toggle(key="cfg_approval").value is True
    settings = app.session_state["agent_settings"]
    assert (settings.preset, settings.k, settings.max_rounds, settings.approval) == ("thorough", 12, 5, True)


def test_ollama_models_in_the_sidebar_and_a_streamed_cited_answer(
    plant_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOllama(models=["tiny:latest"]) as fake:
        fake.script("The thermal drift compensator is recalibrated every 90 days [c1].")
        monkeypatch.setenv("KB_STORE_DIR", str(plant_store))
        monkeypatch.setenv("AGENT_RUNS_DIR", str(tmp_path / "runs"))
        monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "checkpoints.sqlite"))
        monkeypatch.setenv("AGENT_OLLAMA_URL", fake.url)
        app = AppTest.from_file(APP, default_timeout=90).run()
        assert any("Ollama reachable · 1 model(s)" in m.value for m in app.sidebar.markdown)
        mode = app.selectbox(key="cfg_mode")
        assert mode.options == ["auto", "extractive", "ollama: tiny:latest"]
        mode.set_value("ollama: tiny:latest").run()
        app.chat_input[0].set_value("When is the thermal drift compensator recalibrated?").run()
        assert not app.exception
        assert fake.chat_requests and fake.chat_requests[-1]["model"] == "tiny:latest"
        text = markdown(app).replace("\\", "")
        assert "Ollama · tiny:latest" in text
        assert "recalibrated every 90 days [c1]" in text
