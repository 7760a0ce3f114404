"""Document cards: a title that tells the document apart, the organisation, the period, the file name."""

from pathlib import Path

from kb.base import KnowledgeBase
from kb.cards import distinct_title
from kb.parse import parse_pdf
from kb.parsed import Card
from kb.settings import KBSettings
from tests import layouts, pdfgen


def test_a_forms_title_says_who_what_and_when_not_the_form_label(tmp_path: Path):
    doc = parse_pdf(layouts.form_cover_pdf(tmp_path / "QL_2024_20R.pdf", 2024), "QL_2024_20R", 10)
    assert doc.title == "Quill & Ledger Holdings, Inc., FORM 20-R, fiscal year ended December 31, 2024"
    assert doc.card.organisation == "Quill & Ledger Holdings, Inc."
    assert doc.card.period == "fiscal year ended December 31, 2024"
    assert doc.card.name == "QL 2024 20R"
    other = parse_pdf(layouts.form_cover_pdf(tmp_path / "QL_2023_20R.pdf", 2023), "QL_2023_20R", 10)
    assert other.title != doc.title


def test_a_papers_title_is_its_top_block_not_a_larger_figure_label(tmp_path: Path):
    doc = parse_pdf(layouts.paper_cover_pdf(tmp_path / "tides.pdf"), "tides", 10)
    assert doc.title == "Sparse Lattice Embeddings for Tidal Forecasts at Coastal Gauge Stations"
    assert doc.card.organisation == "Institute of Coastal Studies"


def test_a_short_name_set_largest_is_titled_with_the_line_under_it_not_the_authors(tmp_path: Path):
    doc = parse_pdf(pdfgen.named_manual_pdf(tmp_path / "quillpen.pdf"), "quillpen", 10)
    assert doc.title == "Quillpen: A library for reading ledger formats on small machines"
    assert doc.card.organisation == "Harbour Tools Ltd."


def test_without_a_cover_title_the_running_header_names_the_document(tmp_path: Path):
    doc = parse_pdf(layouts.draft_pdf(tmp_path / "draft.pdf"), "draft", 10)
    assert doc.title == layouts.HEADER


def test_a_document_opening_with_running_text_is_named_by_its_file_not_a_larger_line_below(tmp_path: Path):
    doc = parse_pdf(pdfgen.manual_page_pdf(tmp_path / "qzsh.1.pdf"), "qzsh.1", 10)
    assert doc.title == "qzsh.1"
    # A short name set far larger than anything else still names its document, running text under it or not.
    named = parse_pdf(pdfgen.named_notes_pdf(tmp_path / "notes.pdf"), "notes", 10)
    assert named.title.startswith("Quillwort")


def test_distinct_title_adds_the_period_then_the_file_name():
    card = Card(title="Annual Report", period="year ended June 30, 2024", name="acme 2024")
    assert distinct_title(card, set()) == "Annual Report"
    assert distinct_title(card, {"annual report"}) == "Annual Report (year ended June 30, 2024)"
    taken = {"annual report", "annual report (year ended june 30, 2024)"}
    assert distinct_title(card, taken) == "Annual Report (acme 2024)"


def test_no_two_documents_of_a_store_share_a_title(tmp_path: Path):
    folder = tmp_path / "docs"
    folder.mkdir()
    layouts.paper_cover_pdf(folder / "tides.pdf")
    layouts.paper_cover_pdf(folder / "tides_copy.pdf")
    kb = KnowledgeBase(KBSettings(store_dir=tmp_path / "store", parse_workers=1))
    assert not kb.ingest([folder]).failed
    titles = {d.doc_id: d.title for d in kb.documents()}
    assert titles["tides"] == "Sparse Lattice Embeddings for Tidal Forecasts at Coastal Gauge Stations"
    assert titles["tides_copy"] == f"{titles['tides']} (tides copy)"
    records = {d.doc_id: d for d in kb.documents()}
    assert records["tides"].organisation == "Institute of Coastal Studies" and records["tides"].name == "tides"


def test_a_title_repeated_small_as_running_header_stays_on_the_cover(tmp_path: Path):
    doc = parse_pdf(layouts.running_title_pdf(tmp_path / "gauges.pdf"), "gauges", 10)
    assert doc.title == "Tidal Gauges Disagree More Often Than Expected"
    assert doc.pages[0].lines[0].text == doc.title  # the cover keeps it
    assert all(doc.title not in ln.text for page in doc.pages[1:] for ln in page.lines)  # later pages drop it


def test_a_cover_title_above_a_form_label_is_the_title(tmp_path: Path):
    doc = parse_pdf(layouts.titled_form_pdf(tmp_path / "review.pdf"), "review", 10)
    assert doc.title == "Harbour Dredging Annual Review"  # not "FORM 20-R", though it is set larger
    assert doc.card.period == "year ended March 31, 2025"


def test_of_several_periods_the_card_keeps_the_one_ending_latest(tmp_path: Path):
    doc = parse_pdf(layouts.results_release_pdf(tmp_path / "release.pdf"), "release", 10)
    assert doc.card.period == "Twelve months ended June 30, 2023"  # stated after the earlier one
    same_year = layouts.results_release_pdf(
        tmp_path / "q3.pdf", "Year ended January 31, 2024", "Nine months ended October 31, 2024"
    )
    assert parse_pdf(same_year, "q3", 10).card.period == "Nine months ended October 31, 2024"  # by month too
