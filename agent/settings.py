"""Agent settings: budgets, presets, answer mode and Ollama connection, overridable by environment (AGENT_*)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

Preset = Literal["quick", "balanced", "thorough"]
AnswerMode = Literal["auto", "ollama", "extractive"]

# Budgets and retrieval depth per preset; quick answers (or refuses) after a single round.
PRESETS: dict[str, dict[str, Any]] = {
    "quick": {"max_rounds": 1, "max_tool_calls": 3, "max_steps": 10, "min_hits": 2, "k": 6},
    "balanced": {"max_rounds": 3, "max_tool_calls": 8, "max_steps": 20, "min_hits": 3, "k": 8},
    "thorough": {"max_rounds": 5, "max_tool_calls": 14, "max_steps": 32, "min_hits": 4, "k": 10},
}


class CheckSettings(BaseModel):
    """Thresholds of the evidence checks (agent.assess) and of finding a comparison's topics."""

    relevance_floor: float = Field(
        0.3, ge=-1, le=1, description="Cosine similarity above which a dense hit counts as relevant."
    )
    term_coverage: float = Field(
        0.5, ge=0, le=1, description="Share of the question's key terms the evidence must contain."
    )
    together_terms: int = Field(
        3,
        ge=0,
        le=20,
        description="Key terms one page of the evidence must hold together (all but one when the question has fewer "
        "than this plus one): a question is not answered by its words found one by one in passing mentions. 0 turns "
        "it off. On the bench only 3 refuses every unanswerable question and no answerable one (2: a probe question "
        "answered; 4: answerable questions refused).",
    )
    story_own_terms: int = Field(
        3,
        ge=0,
        le=20,
        description="Content terms a question asked after a reader's story must hold of its own to be about them: "
        "the story's names are then the reader's context, not what the evidence must hold ('I've got a QZ disk ... "
        "Which options keep it from being mounted at boot ...?'); with fewer ('... crashes with EQZ. Why does it "
        "crash?') the story's names are the subject. 0: only a name or file of its own. 2, 3 and 4 give the same "
        "answers on the bench; 0 refuses two answerable scenario questions.",
    )
    relevant_term_share: float = Field(
        0.5, ge=0, le=1, description="Share of the key terms a passage below the relevance floor must hold to count."
    )
    strong_term_share: float = Field(
        0.6,
        ge=0,
        le=1,
        description="Share of the key terms one close passage must hold to be enough on its own (0.8 before; 0.6 on "
        "the bench answers one more question, a procedure whose one passage words two of its eight terms otherwise, "
        "and changes no other answer).",
    )
    near_chunks: int = Field(
        2, ge=0, le=20, description="Chunks either side of a passage naming the subject that still count as about it."
    )
    shared_documents: int = Field(
        3,
        ge=1,
        le=100,
        description="Documents anchoring an identifier before it counts as a field's shared name (with twice as many "
        "as the most specific identifier) rather than the subject.",
    )
    topic_term_share: float = Field(
        0.5, ge=0, le=1, description="Share of a topic's plain terms a passage must hold to be evidence on it."
    )
    topic_probe_k: int = Field(3, ge=1, le=20, description="Hits of the lexical probe that finds each topic's home.")
    stated_value: bool = Field(
        True,
        description="A question asking for a count or a value needs a passage naming its subject beside a value "
        "(refuses what a document mentions but never quantifies).",
    )
    stated_default: bool = Field(
        True,
        description="A question asking what holds when nothing is set ('X default?', 'when X is not specified') needs "
        "a sentence stating a default within X's entry (refuses an entry that only lists X's choices).",
    )
    stated_recommendation: bool = Field(
        True,
        description="A question asking which X the documents recommend needs a sentence recommending something and "
        "naming an X (refuses a recommendation of something else).",
    )
    value_term_share: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Share of the question's other key terms (what is measured: 'minimum size', 'negative values') a "
        "sentence stating a value must hold, in a passage naming the subject. 0 asks only for a value there.",
    )


class RefineSettings(BaseModel):
    """How rule-based refinement looks for a better query."""

    probes: int = Field(2, ge=0, le=10, description="Most acronym lookups one refinement may spend.")
    probe_k: int = Field(6, ge=1, le=50, description="Hits read per acronym lookup.")
    broaden_terms: int = Field(6, ge=1, le=20, description="Most key terms in a broadened query.")
    shared_terms: int = Field(
        3, ge=0, le=10, description="Question terms outside both topics added to each per-topic query."
    )


class AnswerSettings(BaseModel):
    """The extractive answer and the verification every answer goes through."""

    sentences: int = Field(
        7,
        ge=1,
        le=20,
        description="Most sentences in an answer (within `max_words`; chosen on the bench: 4, then 5, then 6 with 6-8 "
        "alike; 7 once a lower `floor_share` lets shorter sentences in).",
    )
    context_size: int = Field(12, ge=1, le=50, description="Evidence passages offered to the answer step.")
    support_threshold: float = Field(
        0.5, ge=0, le=1, description="Share of a sentence's content words its cited passages must contain."
    )
    min_chars: int = Field(25, ge=0, description="Shortest sentence (characters) an extractive answer may use.")
    min_words: int = Field(5, ge=0, description="Fewest words of a sentence an extractive answer may use.")
    capitals_share: float = Field(
        0.6,
        gt=0,
        le=1,
        description="A sentence of 12 letters or more with more than this share in capitals is a heading: no answer.",
    )
    number_share: float = Field(
        0.5,
        gt=0,
        le=1,
        description="A sentence with more than this share of bare figures among its words answers only a question "
        "that asks for a figure.",
    )
    figure_run: int = Field(
        6,
        ge=2,
        description="This many bare figures in a row in a sentence are a table's cells run into prose, without the "
        "labels that say what they are: never an answer.",
    )
    math_symbols: int = Field(
        2,
        ge=1,
        description="A run of notation holds at least this many different mathematical symbols (Greek letters, "
        "operators, arrows), or one beside a variable: an equation, pseudo-code or a figure's text. One symbol "
        "between figures ('8 → 16 → 32') is a list of values.",
    )
    symbol_run: int = Field(
        5,
        ge=2,
        description="A run of notation is this many symbols, lone letters or figures in a row. A sentence that opens "
        "with one is no answer unless the question asks for an equation; one with twice as many words of prose "
        "before it is quoted up to it, ending in '…'.",
    )
    code_tokens: int = Field(
        4,
        ge=2,
        description="Source code run into a sentence ('char key[] = \"pw\"; f(key, 10);'): this many of "
        "`symbol_run` + 3 words in a row are code (an assignment, a statement's ';', an index or call glued to a "
        "name, a comment mark), the first of them one: notation, as an equation is.",
    )
    headerless_cells: int = Field(
        3,
        ge=2,
        description="A table row with this many figures and no column header to any of them cannot be read (which "
        "is which year?): never an answer (2 and 4 tried; 3 lifts the bench's answer recall most).",
    )
    heading_words: int = Field(
        10, ge=0, description="A capitalised line without a full stop of up to this many words is a heading."
    )
    title_run: int = Field(
        8,
        ge=5,
        description="A sentence (not a table row) opening with this many capitalised words in a row (after any "
        "section number; small words, one-digit marks and '(%)' between them count for nothing, a comma ends the "
        "run) is a title block, headings or a figure's labels run together: no answer.",
    )
    dense_weight: float = Field(
        0.55,
        ge=0,
        le=1,
        description="Weight of question similarity against term overlap when ranking sentences (0.6 before the "
        "stand-ins of `stand_in_likeness`; with them 0.45 / 0.5 / 0.55 / 0.6 / 0.7 tried on the bench corpora, 0.55 "
        "at or above 0.6 on each).",
    )
    identifier_weight: float = Field(1.5, ge=0, description="Weight of an identifier against a plain term in overlap.")
    code_weight: float = Field(
        2.25,
        ge=0,
        description="Weight of code the question writes as typed (an option, a format's escape, a call) against a "
        "plain term in overlap: the thing asked about, where an identifier may only name its document (1.5, 2.25 and "
        "3.0 tried on the bench: 2.25 and 3.0 alike on every corpus, 1.5 leaves an escape's short entry behind).",
    )
    longer_name_share: float = Field(
        0.5,
        ge=0,
        le=1,
        description="What a question's term counts for in a sentence that names it only as part of something else: "
        "a segment of a longer path ('gate' in '/srv/gate/log'), or the bare word of an element the question writes "
        "as a tag ('include' for '<include>'). 0.25 / 0.5 / 0.75 / 1 on the bench (paths): aragog, financebench and "
        "specs alike, the standards probe 0.741 / 0.741 / 0.721 / 0.722.",
    )
    long_words: int = Field(
        50, ge=1, description="Sentences longer than this many words are discounted (70 before, chosen on the bench)."
    )
    long_factor: float = Field(0.7, ge=0, le=1, description="The discount of a long sentence.")
    rank_decay: float = Field(
        0.05,
        ge=0,
        description="Score lost per evidence rank: 1 / (1 + decay * rank) keeps better passages first (0.02 before, "
        "chosen on the bench).",
    )
    floor_share: float = Field(
        0.3,
        ge=0,
        le=1,
        description="A sentence scoring below this share of the best one is left out (0.5, then 0.4 before; 0.3 and "
        "0.2 alike once a question's parts each get a sentence, above 0.4 on the probes and aragog).",
    )
    duplicate_overlap: float = Field(
        0.6, ge=0, le=1, description="Word overlap (Jaccard) above which a sentence repeats one already chosen."
    )
    diversity: float = Field(
        0.2,
        ge=0,
        le=1,
        description="Maximal marginal relevance: score a sentence loses per unit of embedding likeness to the closest "
        "sentence already chosen, as a share of the best sentence's score (0 ranks by relevance alone; chosen on the "
        "bench).",
    )
    meta_factor: float = Field(
        0.3, ge=0, le=1, description="Score kept by a sentence about the document ('in this section we present')."
    )
    run_in_words: int = Field(
        6,
        ge=1,
        description="Words after an announcing sentence's colon ('... as follows: QZROOT This expands to ...') that "
        "make it a statement of the items announced, not a sentence about the document.",
    )
    max_words: int = Field(120, ge=10, description="Most words in an extractive answer (its first sentence always).")
    steps_words: int = Field(
        180,
        ge=10,
        description="Most words in an extractive answer to a question asking for steps ('How do I ...?'), which "
        "reads in document order: the steps go on past `max_words` (120, 150 and 180 on the bench: recall on the "
        "probes' procedures rises with each, tools 0.613 / 0.631 / 0.641, crypto 0.746 / 0.759 / 0.759, no answer "
        "refused or worse; 180 is about eight steps of a manual's length).",
    )
    steps_sentences: int = Field(
        8, ge=1, le=20, description="Most sentences in an answer asking for steps (within `steps_words`)."
    )
    topic_labels: bool = Field(
        True, description="A comparison's answer opens each topic's part with the topic's name ('ZX-9 valve: ...')."
    )
    row_label_share: float = Field(
        0.6,
        ge=0,
        le=1,
        description="Share of a table row label's words the question must hold before the row's figures enter a "
        "computed change or ratio.",
    )
    continuation_share: float = Field(
        0.7,
        ge=0,
        le=1,
        description="The sentence right after one of the `continuation_leads` best scores at least this share of "
        "that one's score, and may be chosen without the question's words: it continues the point (the values after "
        "'with the following settings:'). 0 turns it off (0.5-0.85 tried; 0.6-0.7 lift every corpus).",
    )
    continuation_leads: int = Field(
        3, ge=0, description="How many of the best sentences lend their score to the sentence after them (2-4 alike)."
    )
    continuation_depth: int = Field(
        2,
        ge=0,
        le=5,
        description="How many sentences in a row continue a lead, each taking the share of the one before's lift "
        "(share, share squared, ...): a point is often made over two sentences after the one that names it "
        "(1, 2, 3 tried on the bench corpora; 2 and 3 alike, above 1 on two of them and equal on the third).",
    )
    part_sentences: int = Field(
        1,
        ge=0,
        description="Sentences chosen for each part of a question asking several things ('What is X, and how is "
        "it set?') after the best for the whole question, ranked by the geometric mean of their scores for the part "
        "and for the whole, before the rest (1, 2 tried on the bench: 2 below 1 on aragog and the probes; 0: none).",
    )
    lead_bonus: float = Field(
        0.5,
        ge=0,
        description="Extra score of the sentence that defines the term a 'what is X' question asks about, and of "
        "the one announcing a list of what a 'which Xs' question asks for (a factor of 1 + bonus; for lists 0.5 and "
        "1.0 alike on the bench, the manuals probe's recall 0.598 -> 0.619, no other corpus changed).",
    )
    cause_bonus: float = Field(
        0.4,
        ge=0,
        description="Extra score of a sentence stating a cause or a purpose ('because', 'to avoid', 'ensures') in "
        "the answer to a 'why' question (a factor of 1 + bonus; on the bench 0.2, 0.4, 0.5 and 0.8 tried: 0.4 "
        "raised standards, manuals, policy and financebench by 0.001-0.007 and lowered none, 0.5 cost specs one "
        "answer).",
    )
    stand_in_likeness: float = Field(
        0.65,
        ge=0,
        le=1,
        description="A plain word of the question that no candidate sentence holds is matched, when ranking them, by "
        "the candidates' words at least this like it in meaning (cosine of their embeddings): the evidence says "
        "'chosen' where the question says 'selected', 'spending' for 'expenditure' (0 turns it off; 0.6 / 0.65 / 0.7 "
        "tried on the bench corpora, 0.6 and 0.65 alike and above 0.7 on one of them). Single words' embeddings also "
        "put some opposites this close ('inflow', 'outflow'): it only weighs in the ranking.",
    )
    stand_in_words: int = Field(
        1500,
        ge=1,
        description="Most distinct words of the candidate sentences compared with a missing question word (a bound on "
        "what embedding them costs; the evidence of one question holds 100 to 550).",
    )


class AgentSettings(BaseSettings):
    """Everything that shapes one agent run; a preset fills the budgets unless they are given explicitly."""

    model_config = SettingsConfigDict(
        env_prefix="AGENT_", env_nested_delimiter="__", extra="ignore", populate_by_name=True
    )

    preset: Preset = Field("balanced", description="Named budget preset: quick, balanced or thorough.")
    max_rounds: int = Field(3, ge=1, le=50, description="Most retrieval rounds in one run.")
    max_tool_calls: int = Field(8, ge=1, le=200, description="Most knowledge-base calls (searches and probes).")
    max_steps: int = Field(20, ge=6, le=500, description="Most graph node executions.")
    min_hits: int = Field(3, ge=1, le=50, description="Relevant hits needed before the evidence can be sufficient.")
    k: int = Field(8, ge=1, le=50, description="Hits retrieved per query.")
    operand_k: int = Field(
        2,
        ge=0,
        le=20,
        description="Hits of the search for each row a formula in the question needs ('total current assets "
        "divided by total current liabilities') that the evidence lacks for the year asked; 0: no such search.",
    )
    page_chunks: int = Field(
        1,
        ge=0,
        le=10,
        description="Of each hit's page, this many more of its matching chunks join the evidence (search ranks "
        "pages, each shown by its best chunk).",
    )
    entry_rests: int = Field(
        3,
        ge=0,
        le=10,
        description="Of a round's hits that end inside the entry of something the question names, this many bring "
        "in the chunk after theirs, which goes on with the entry (its default, its limits); 0: none.",
    )
    docs: list[str] | None = Field(None, description="Restrict retrieval to these document ids.")
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
    checks: CheckSettings = Field(default_factory=CheckSettings, description="Thresholds of the evidence checks.")
    refine: RefineSettings = Field(default_factory=RefineSettings, description="Rule-based refinement.")
    answer: AnswerSettings = Field(default_factory=AnswerSettings, description="Extractive answers and verification.")

    @classmethod
    def for_preset(cls, preset: Preset = "balanced", **overrides: Any) -> AgentSettings:
        """Settings with the preset's budgets, then any explicit overrides (None values are ignored)."""
        values = {**PRESETS[preset], **{k: v for k, v in overrides.items() if v is not None}}
        return cls(preset=preset, **values)

    @classmethod
    def of(cls, state: dict[str, Any]) -> AgentSettings:
        """The settings a run carries in its state."""
        return cls.model_validate(state["settings"])

    @property
    def base_url(self) -> str:
        url = self.ollama_url.strip().rstrip("/")
        return url if "://" in url else f"http://{url}"
