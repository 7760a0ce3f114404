"""Domain records of the knowledge base."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kb.references import is_reference_list, reference_label


class Region(BaseModel):
    """A rectangle on one PDF page, in points from the page's top-left corner."""

    page: int = Field(description="1-based physical page number.")
    x0: float = Field(description="Left edge in points.")
    top: float = Field(description="Top edge in points, measured from the top of the page.")
    x1: float = Field(description="Right edge in points.")
    bottom: float = Field(description="Bottom edge in points, measured from the top of the page.")
    width: float = Field(description="Page width in points.")
    height: float = Field(description="Page height in points.")


class Chunk(BaseModel):
    """A passage of one document, at most two pages long, as stored in the indexes."""

    chunk_id: str = Field(description="Identifier, stable across re-ingestion of the same content.")
    doc_id: str = Field(description="File name without the .pdf extension.")
    ordinal: int = Field(description="Position of the chunk within its document, from 0.")
    start_page: int = Field(description="First 1-based physical page of the chunk.")
    end_page: int = Field(description="Last 1-based physical page of the chunk (start_page or start_page + 1).")
    section: str = Field("", description="Heading path such as '3 Method > 3.1 Data', empty when none was detected.")
    title: str = Field("", description="Title of the document the chunk belongs to.")
    text: str = Field(description="The chunk's text; table rows appear as 'cell | cell | cell' lines.")
    head: str = Field(
        "",
        description="For a chunk that opens inside a table: the table's head lines above the chunk (its title, "
        "units, column headers; see kb.table_heads), so its rows read on their own. Empty otherwise.",
    )
    regions: list[Region] = Field(default_factory=list, description="Bounding region of the chunk on each page.")
    kind: Literal["body", "contents"] = Field(
        "body",
        description="'contents' for a chunk of a contents, index or list-of-tables page: searchable, never evidence.",
    )
    ocr: bool = Field(False, description="True when a page of the chunk was read by OCR from its image.")

    def embed_text(self) -> str:
        """What the embedding model reads: the section path, the head of the table it opens inside, then the
        passage. The title is not repeated in every chunk; its vector is mixed in once per document instead (see
        Embedder.with_title).

        A reference-list chunk is read as its label (see kb.references): its entries name other works, which would
        draw queries about those works to the list rather than to the text that discusses them. BM25 still indexes
        every entry."""
        if is_reference_list(self.section, self.text):
            return reference_label(self.section)
        return context_text("", self.section, self.text, self.head)


def context_text(title: str, section: str, text: str, table_head: str = "") -> str:
    """Text given to the embedding model and BM25: a short context header, the head of the table the passage opens
    inside, then the passage. The table's head goes first although the model may then cut the passage's last
    tokens: on the bench that read better than a head the model cuts instead (on the filings, dense R@8 0.726 against
    0.685)."""
    header = " | ".join(part for part in (title, section) if part)
    return "\n".join(part for part in (header, table_head, text) if part)


class Hit(BaseModel):
    """One search result with the evidence of why it was found."""

    chunk_id: str = Field(description="Identifier of the chunk.")
    doc_id: str = Field(description="Document the chunk belongs to.")
    start_page: int = Field(description="First 1-based page of the chunk.")
    end_page: int = Field(description="Last 1-based page of the chunk.")
    section: str = Field(description="Heading path of the chunk, possibly empty.")
    title: str = Field("", description="Detected title of the chunk's document, possibly empty.")
    text: str = Field(description="The chunk's text.")
    head: str = Field("", description="The head of the table the chunk opens inside (title, units, columns), or empty.")
    ordinal: int = Field(description="Position of the chunk in its document.")
    regions: list[Region] = Field(default_factory=list, description="Bounding regions for highlighting.")
    rank: int = Field(description="1-based rank in the fused result list.")
    fused_score: float = Field(
        description="Fused score: dense and BM25 by standard score, the other rankings by reciprocal rank."
    )
    dense_score: float | None = Field(
        None, description="Best cosine similarity to the query (None if not retrieved densely)."
    )
    dense_rank: int | None = Field(None, description="Best 1-based rank in the dense rankings.")
    lexical_score: float | None = Field(None, description="Best BM25 score (None if not retrieved lexically).")
    lexical_rank: int | None = Field(None, description="Best 1-based rank in the BM25 rankings.")
    neighbour_of: str | None = Field(None, description="chunk_id of the hit this one was added beside, if expanded.")
    kind: Literal["body", "contents"] = Field(
        "body", description="'contents' for a chunk of a contents, index or list-of-tables page (never evidence)."
    )
    repeats_page: bool = Field(
        False,
        description="With chunks as the unit: every page of this ranked hit is in a higher one, so it was listed "
        "after the chunks of pages not yet listed (neighbours added by expansion are never marked).",
    )
    document_score: float | None = Field(
        None,
        description="When the question names this hit's document: its match relative to the best-named document "
        "(1.0 for the best); None when its document was not preferred.",
    )
    document_terms: list[str] = Field(
        default_factory=list, description="The question's terms that name this hit's document (why it was preferred)."
    )
    defines: str = Field(
        "",
        description="The term the question asks to define, when this chunk defines it (a definition ranking found it).",
    )
    year_rows: int = Field(
        0,
        description="How many of its table rows state a figure for a year the question names (0 unless that "
        "ranking counted it: at least `year_rows_min`).",
    )
    ocr: bool = Field(False, description="True when a page of the chunk was read by OCR from its image.")
    page_chunks: list[str] = Field(
        default_factory=list,
        description="With pages as the unit: the other chunks of this hit's page (or page pair) that matched, best "
        "first; the page's score counts them.",
    )


class DocumentRecord(BaseModel):
    """Catalogue entry of an ingested document."""

    doc_id: str = Field(description="File name without .pdf.")
    content_hash: str = Field(description="SHA-256 of the file's bytes.")
    status: Literal["pending", "committed"] = Field(description="committed once every chunk is stored.")
    source: str = Field(description="Path the file was ingested from.")
    title: str = Field(
        "",
        description="Title that tells the document apart (its cover's title, or for a form who "
        "filed it, what it is and the period it covers).",
    )
    organisation: str = Field("", description="Organisation the document is by, when its first pages name it.")
    period: str = Field("", description="Date or period the document covers, as its first pages state it.")
    name: str = Field("", description="The file name as a person wrote it ('ACME_2024_20R' reads 'ACME 2024 20R').")
    pages: int = Field(0, description="Number of pages.")
    chunks: int = Field(0, description="Number of chunks.")
    tables: int = Field(0, description="Number of tables turned into rows.")
    ocr_pages: str = Field("", description="The pages read by OCR from their images, as ranges ('1-12, 15').")
    notes: str = Field(
        "", description="Pages left out and why, '; '-separated ('page 4 skipped: blank image'); empty when none."
    )
    ingested_at: float = Field(description="Unix time the ingestion started or finished.")
    seconds: float = Field(0.0, description="Time the ingestion took.")
    recipe: str = Field(
        "", description="How the chunks were cut and embedded; a file ingested by another recipe is ingested again."
    )


class FileOutcome(BaseModel):
    """What happened to one input file."""

    path: str = Field(description="The input path.")
    doc_id: str = Field(description="Document id derived from the file name.")
    status: Literal["ingested", "unchanged", "failed"] = Field(description="Outcome of the file.")
    error: str | None = Field(None, description="One-line reason, naming the file, when it failed.")
    pages: int = Field(0, description="Pages ingested.")
    chunks: int = Field(0, description="Chunks stored.")
    ocr_pages: int = Field(0, description="Pages read by OCR.")
    notes: list[str] = Field(default_factory=list, description="Pages left out and why (blank images, unreadable).")


class IngestSummary(BaseModel):
    """Result of one ingestion call."""

    files: list[FileOutcome] = Field(default_factory=list, description="One outcome per input file.")
    seconds: float = Field(0.0, description="Wall time of the whole call.")
    pages: int = Field(0, description="Pages ingested (unchanged files excluded).")
    chunks: int = Field(0, description="Chunks stored.")

    @property
    def failed(self) -> list[FileOutcome]:
        return [f for f in self.files if f.status == "failed"]


class Progress(BaseModel):
    """A progress report sent to the ingestion callback."""

    path: str = Field(description="File being processed.")
    stage: Literal["queued", "ocr", "parsed", "embedding", "stored", "unchanged", "failed"] = Field(
        description="Stage reached ('ocr': pages of the file read by OCR so far)."
    )
    file_index: int = Field(description="0-based index of the file in this call.")
    files_total: int = Field(description="Number of files in this call.")
    done: int = Field(0, description="Units done in this stage (pages while OCR'ing, chunks while embedding).")
    total: int = Field(0, description="Units in this stage.")
    message: str = Field("", description="Human-readable detail, the error line for failures.")
