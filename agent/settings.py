"""Agent settings: budgets, presets, answer mode and Ollama connection, overridable by environment (AGENT_*)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

Preset = Literal["quick", "balanced", "thorough"]
AnswerMode = Literal["auto", "ollama", "extractive"]

# Budgets and retrieval depth per preset; quick answers (or refuses) after a single round.
PRESETS: dict[str, dict[str, Any]] = {
    "quick": {"max_rounds": 1, "max_tool_calls": 3, "max_steps": 10, "min_hits": 2, "k": 6},
    "balanced": {"max_rounds": 3, "max_tool_calls": 8, "max_steps": 20, "min_hits": 3, "k": 8},
    "thorough": {"max_rounds": 5, "max_tool_calls": 14, "max_steps": 32, "min_hits": 4, "k": 10},
}


class AgentSettings(BaseSettings):
    """Everything that shapes one agent run; a preset fills the budgets unless they are given explicitly."""

    model_config = SettingsConfigDict(env_prefix="AGENT_", extra="ignore", populate_by_name=True)

    preset: Preset = Field("balanced", description="Named budget preset: quick, balanced or thorough.")
    max_rounds: int = Field(3, ge=1, le=50, description="Most retrieval rounds in one run.")
    max_tool_calls: int = Field(8, ge=1, le=200, description="Most knowledge-base calls (searches and probes).")
    max_steps: int = Field(20, ge=6, le=500, description="Most graph node executions.")
    min_hits: int = Field(3, ge=1, le=50, description="Relevant hits needed before the evidence can be sufficient.")
    k: int = Field(8, ge=1, le=50, description="Hits retrieved per query.")
    page_chunks: int = Field(
        1,
        ge=0,
        le=10,
        description="Of each hit's page, this many more of its matching chunks join the evidence (search ranks "
        "pages, each shown by its best chunk).",
    )
    docs: list[str] | None = Field(None, description="Restrict retrieval to these document ids.")
    relevance_floor: float = Field(
        0.3, ge=-1, le=1, description="Cosine similarity above which a dense hit counts as relevant."
    )
    term_coverage: float = Field(
        0.5, ge=0, le=1, description="Share of the question's key terms the evidence must contain."
    )
    support_threshold: float = Field(
        0.5, ge=0, le=1, description="Share of a sentence's content words its cited chunks must contain."
    )
    answer_sentences: int = Field(4, ge=1, le=20, description="Most sentences in an extractive answer.")
    mode: AnswerMode = Field("auto", description="auto (Ollama when usable, else extractive), ollama or extractive.")
    approval: bool = Field(False, description="Pause for human approval before running a refined query.")
    llm_grader: bool = Field(False, description="Ask the LLM for a second opinion on the evidence (never the gate).")
    llm_rewrite: bool = Field(False, description="Let the LLM propose refined queries before the rule-based ones.")
    ollama_url: str = Field(
        "http://localhost:11434",
        validation_alias=AliasChoices("AGENT_OLLAMA_URL", "OLLAMA_HOST"),
        description="Base URL of the Ollama server.",
    )
    model: str = Field("llama3.2", description="Ollama model that writes answers.")
    llm_timeout: float = Field(120.0, gt=0, description="Seconds before an Ollama call is abandoned.")
    max_ctx: int = Field(16384, ge=2048, description="Largest num_ctx requested from Ollama.")
    runs_dir: Path = Field(Path("data/runs"), description="Directory of saved run records.")
    checkpoint_path: Path = Field(Path("data/checkpoints.sqlite"), description="SQLite checkpointer for paused runs.")

    @classmethod
    def for_preset(cls, preset: Preset = "balanced", **overrides: Any) -> AgentSettings:
        """Settings with the preset's budgets, then any explicit overrides (None values are ignored)."""
        values = {**PRESETS[preset], **{k: v for k, v in overrides.items() if v is not None}}
        return cls(preset=preset, **values)

    @property
    def base_url(self) -> str:
        url = self.ollama_url.strip().rstrip("/")
        return url if "://" in url else f"http://{url}"
