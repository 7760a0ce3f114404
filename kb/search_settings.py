"""How search ranks: the nested `search` group of the knowledge-base settings (env KB_SEARCH__*).

Its own module because it only runs at query time: the bench's store cache is keyed on the ingestion code, and a
change of ranking must not rebuild the stores.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class SearchSettings(BaseModel):
    """How search reads a question, prefers the documents it names, fuses rankings and ranks pages."""

    candidates: int = Field(60, ge=8, description="Candidates taken from each ranking before fusion.")
    exact_dense: bool = Field(
        True,
        description="Dense search by an exact matrix product over every chunk's vector (deterministic, kept beside "
        "the BM25 index) rather than Chroma's approximate HNSW index, whose answers vary between processes.",
    )
    fusion: Literal["scores", "ranks"] = Field(
        "scores",
        description="How the dense and BM25 rankings are fused: by their scores (each candidate's standard score "
        "among its ranking's candidates, so a passage far ahead counts for more than one narrowly first) or by "
        "reciprocal rank alone. Chosen on the bench: scores beat ranks on every corpus (min-max and max-scaled "
        "scores tried too).",
    )
    score_scale: float = Field(
        4.0,
        gt=0,
        description="With fusion by scores: a candidate this many standard deviations above its ranking's mean counts "
        "as much as a first place of a ranking fused by rank (chosen on the bench: 2-5 tried, 3-4.5 alike).",
    )
    rrf_k: int = Field(60, ge=1, description="Reciprocal rank fusion constant.")
    dense_weight: float = Field(1.0, ge=0, description="Weight of the dense ranking in fusion.")
    lexical_weight: float = Field(1.0, ge=0, description="Weight of the BM25 ranking in fusion.")
    margin_weight: float = Field(
        0.01,
        ge=0,
        description="Weight of a BM25 score as a share of the best candidate's in the whole pool, added to the fused "
        "score of the chunks of the documents a question names: within such a document, a chunk far ahead on BM25 "
        "holds the question's precise terms (0.01 is about 0.6 of a first place in one ranking; 0 turns it off; "
        "0.01-0.04 tried on the bench; still worth the filings' gold citations 38/60 against 36/60 with fusion by "
        "scores).",
    )
    clean_queries: bool = Field(
        True,
        description="Search the question's information need: persona, format instructions, supplied definitions "
        "and politeness are kept out of the query (see kb.query).",
    )
    document_weight: float = Field(
        1.0,
        ge=0,
        description="Weight of the document a question names, fused into its chunks' scores as a ranking whose "
        "first place every chunk of that document holds (0: documents are not preferred).",
    )
    preferred_rankings: float = Field(
        1.0,
        ge=0,
        description="Weight of the dense and BM25 rankings run again over the preferred documents alone, fused "
        "beside the rankings over every document (0: they only bring those documents' chunks into the pool).",
    )
    document_share: float = Field(
        0.85,
        gt=0,
        le=1,
        description="A document is preferred when its match is at least this share of the best document's.",
    )
    document_max: int = Field(
        4, ge=1, description="At most this many documents are preferred; a question matching more names none."
    )
    document_min_strength: float = Field(
        0.35,
        ge=0,
        description="The best document's match needed before any document is preferred (summed rarity of its terms, "
        "where a term of one document alone counts about 0.7-0.9): a question sharing only common words with the "
        "cards names none.",
    )
    first_page_weight: float = Field(
        0.3,
        ge=0,
        le=1,
        description="Weight of a naming term (capitalised or holding a digit) found on a document's first page "
        "rather than on its card.",
    )
    plain_weight: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Weight of a question's plain word (neither capitalised nor holding a digit) found on a "
        "document's card: titles are worded like questions, so a shared common word names a document weakly.",
    )
    earlier_year_weight: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Weight of a document whose period ends in a year the question names that is not the latest "
        "it names (a report compares its own period with earlier ones, so 'between 2021 and 2022' is about the "
        "period ending in 2022).",
    )
    name_words: int = Field(
        4,
        ge=0,
        description="A title opening with a short name ('NAME: what it is', 'NAME, a ...') of at most this many words "
        "makes that name the document's own: a question naming it prefers that document over others whose titles "
        "only mention it (the name's rarity is taken among the names titles open with; 0 turns it off).",
    )
    definition_weight: float = Field(
        1.0,
        ge=0,
        description="Weight of the ranking of passages that define the term a 'what does X mean / define X / what "
        "is X' question asks about (a definitions section, 'X (long form)', 'X is ...'); 0 turns it off.",
    )
    row_weight: float = Field(
        2.0,
        ge=0,
        description="Weight of the ranking of candidates by their best table row: the share of the row label's "
        "terms the question holds, plus one when a column it names holds a figure (0 turns it off).",
    )
    year_rows_weight: float = Field(
        1.5,
        ge=0,
        description="Weight of the ranking of candidates by how many of their table rows state a figure under a "
        "column headed by a year the question names (0 turns it off; chosen on the bench from 0.5 / 1 / 1.25 / 1.5 "
        "/ 2 / 3).",
    )
    year_rows_min: int = Field(
        2, ge=1, description="Fewest such rows that put a candidate in that ranking (1 to 5 tried; 2 chosen)."
    )
    row_threshold: float = Field(
        1.5,
        ge=0,
        le=2,
        description="A row enters that ranking from this match: 1.5 is half its label in a column the question "
        "names (below 1, a label alone would do).",
    )
    hint_weight: float = Field(
        2.0,
        ge=0,
        description="Weight of the ranking of candidates titled as the question's hint says ('shown in the cash "
        "flow statement': a section or opening line naming it); 0 turns it off. Twice the other rankings' weight: "
        "a question that says where to look is seldom wrong about it (chosen on the bench: 1, 2 and 3 tried).",
    )
    hint_share: float = Field(
        1.0,
        gt=0,
        le=1,
        description="Share of a hint's words a candidate's titles must hold to enter that ranking.",
    )
    identifier_weight: float = Field(
        1.0,
        ge=0,
        description="Weight of the ranking of the candidates that hold, as written, an identifier the question names "
        "('parse_v2', 'XR-17') when few do (see identifier_chunks); 0 turns it off.",
    )
    identifier_chunks: int = Field(
        3,
        ge=1,
        description="An identifier held by at most this many candidates is rare enough to point to its passages.",
    )
    written_chunks: int = Field(
        8,
        ge=0,
        description="A markup element named in angle brackets ('<include>') or a format escape ('%C') that at most "
        "this many chunks of the store hold as written points to them, ranked with identifier_weight; 0 turns it off.",
    )
    contents_factor: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Factor on the fused score of chunks of contents and index pages: they stay searchable, but "
        "rank below the body pages they point to (1 leaves them as found; 0.5 and 0.2 gave the same figures).",
    )
    reference_factor: float = Field(
        0.2,
        ge=0,
        le=1,
        description="Factor on the fused score of reference-list chunks: their entries share a question's words "
        "(the titles of the works they cite) but say nothing about it, so they rank below the pages that discuss "
        "it; still searchable (1 leaves them as found; 0.5 / 0.2 / 0.1 on the bench: support@8 0.750 / 0.751 / 0.751 "
        "on the one corpus with such chunks in its top 8, the others unchanged).",
    )
    unit: Literal["page", "chunk"] = Field(
        "page",
        description="What the top k are: distinct pages (or page pairs) ranked by their chunks' evidence, each shown "
        "by its best chunk; or chunks, where a chunk whose pages all appear higher yields to other pages.",
    )
    page_support: float = Field(
        0.3,
        ge=0,
        le=1,
        description="Share of a page's second-best chunk score added to its best (and this share squared of its "
        "third, and so on): a page several chunks point to ranks above one with a single match.",
    )
