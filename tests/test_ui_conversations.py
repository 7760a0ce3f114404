"""Conversations on the Ask page (AppTest, extractive mode): paused runs that survive a new session, the three
approval buttons, a question asked while a run waits, saved settings, New chat, and Resume from History."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agent.conversations import Conversations
from agent.runs import list_runs

APP = str(Path(__file__).resolve().parent.parent / "ui" / "app.py")
QUESTION = "When is the TDC-X9 recalibrated?"  # needs a refinement: approval pauses it


@pytest.fixture
def env(ui_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_APPROVAL", "true")
    return ui_env


def text_of(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [w.value for w in at.warning] + [i.value for i in at.info]
    return "\n".join(parts).replace("\\", "")


def button(at: AppTest, label: str):  # AppTest's element type
    return next(b for b in at.button if b.label == label)


def paused(env: Path) -> tuple[AppTest, str]:
    """A session whose conversation holds one run waiting for approval; returns it and the conversation id."""
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception
    assert "Proposed refinement (broaden)" in text_of(at)
    [conversation] = Conversations(env / "conversations").listing()
    return at, conversation.conversation_id


def reopened(conversation_id: str) -> AppTest:
    """A new session (a reload, or the app restarted) opening the conversation from its URL."""
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["c"] = conversation_id
    return at.run()


def test_a_paused_run_is_shown_with_its_buttons_in_a_new_session_and_approves(env: Path) -> None:
    _, conversation_id = paused(env)
    at = reopened(conversation_id)
    assert not at.exception
    assert "Proposed refinement (broaden)" in text_of(at)
    assert "waits for your approval" in at.chat_input[0].placeholder
    button(at, "Approve").click().run()
    assert not at.exception
    assert "You:** approve" in text_of(at)
    [run] = list_runs(env / "runs")
    assert run.rounds >= 2  # the approved query ran (the run may pause again on a further proposal)


def test_edit_and_run_runs_the_edited_query(env: Path) -> None:
    at, _ = paused(env)
    field = next(t for t in at.text_input if t.label == "Refined query")
    field.input("thermal drift compensator recalibrated")
    button(at, "Edit & run").click().run()
    assert not at.exception
    assert "You:** edit: thermal drift compensator recalibrated" in text_of(at)


def test_asking_while_a_run_waits_first_offers_to_reject_it(env: Path) -> None:
    at, conversation_id = paused(env)
    at.chat_input[0].set_value("When is the thermal drift compensator recalibrated?").run()
    assert "Reject it (that run then ends" in text_of(at)
    assert len(list_runs(env / "runs")) == 1  # nothing was asked yet
    button(at, "Reject it and ask").click().run()
    assert not at.exception
    runs = {r.question: r for r in list_runs(env / "runs")}
    assert runs[QUESTION].outcome == "refused" and runs[QUESTION].refusal_reason == "refinement_rejected"
    assert runs["When is the thermal drift compensator recalibrated?"].outcome == "answered"
    [conversation] = Conversations(env / "conversations").listing()
    assert conversation.conversation_id == conversation_id and len(conversation.run_ids) == 2


def test_keep_waiting_leaves_the_run_paused(env: Path) -> None:
    at, _ = paused(env)
    at.chat_input[0].set_value("Another question?").run()
    button(at, "Keep waiting").click().run()
    assert not at.exception
    assert "Reject it (that run then ends" not in text_of(at)
    assert [r.outcome for r in list_runs(env / "runs")] == ["paused"]


def test_new_chat_starts_empty_and_the_old_conversation_reopens_from_the_list(env: Path) -> None:
    at, _ = paused(env)
    button(at, "New chat").click().run()
    assert "c" not in at.query_params
    assert "Proposed refinement" not in text_of(at)
    button(at, QUESTION).click().run()  # the conversation is listed by its first question
    assert not at.exception
    assert "Proposed refinement (broaden)" in text_of(at)


def test_settings_survive_a_new_session(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.selectbox(key="cfg_preset").set_value("thorough").run()
    at.number_input(key="cfg_k").set_value(12).run()
    again = AppTest.from_file(APP, default_timeout=90).run()
    assert not again.exception
    assert again.selectbox(key="cfg_preset").value == "thorough"
    assert again.number_input(key="cfg_k").value == 12
    assert again.number_input(key="cfg_max_rounds").value == 5


def test_a_damaged_settings_file_is_ignored(env: Path) -> None:
    (env / "workbench-settings.json").write_text('{"cfg_k": 999, "cfg_preset": "nonsense", "cfg_approval": "yes"')
    at = AppTest.from_file(APP, default_timeout=90).run()
    assert not at.exception
    assert at.selectbox(key="cfg_preset").value == "balanced"


def test_history_resumes_a_paused_run_in_its_conversation(env: Path) -> None:
    at, conversation_id = paused(env)
    at.switch_page("views/history.py").run()
    at.session_state["history_run"] = list_runs(env / "runs")[0].run_id
    at.run()
    assert not at.exception
    button(at, "Resume").click().run()
    assert not at.exception
    assert conversation_id in str(at.query_params["c"])  # the Ask page of the run's own conversation
    assert "Proposed refinement (broaden)" in text_of(at)
    assert button(at, "Approve") is not None


def test_a_conversation_id_that_cannot_be_saved_is_replaced(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["c"] = "../bad.id"
    at.run()
    at.chat_input[0].set_value("When is the thermal drift compensator recalibrated?").run()
    assert not at.exception and not at.error
    [conversation] = Conversations(env / "conversations").listing()
    assert conversation.conversation_id in str(at.query_params["c"])


def test_a_failed_run_says_why_and_leaves_the_input_usable(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agent.runner import Agent

    def broken(self: Agent, question: str, settings: object = None, run_id: object = None, history: object = None):
        raise RuntimeError("the store went away")
        yield  # a generator, as the real one

    monkeypatch.setattr(Agent, "ask", broken)
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.chat_input[0].set_value("Anything?").run()
    assert not at.exception
    assert any("The run failed: the store went away" in e.value for e in at.error)
    assert not at.chat_input[0].disabled


def test_a_follow_up_is_searched_as_a_standalone_question_that_can_be_edited(ui_env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.chat_input[0].set_value("What is the thermal drift compensator?").run()
    at.chat_input[0].set_value("and how often is it recalibrated?").run()
    assert not at.exception
    captions = "\n".join(c.value for c in at.caption)
    assert "Searching for: “How often is thermal drift compensator recalibrated?”" in captions.replace("\\", "")
    last = list_runs(ui_env / "runs")[0]
    assert last.question == "and how often is it recalibrated?"
    [field] = [t for t in at.text_input if t.label == "Ask instead"]
    field.set_value("How often are the pumps recalibrated?")
    button(at, "Ask this instead").click().run()
    assert not at.exception
    newest = list_runs(ui_env / "runs")[0]
    assert newest.question == "How often are the pumps recalibrated?" and len(list_runs(ui_env / "runs")) == 3
