"""End to end in a real browser: Playwright driving Debian's chromium against `streamlit run` on 127.0.0.1.

Upload a generated PDF (beside a scanned one, which fails alone), ask a question that needs a refinement with
approval on, watch the evidence panel, edit and run the refined query, open the answer's citation and its page
image. Screenshots go to test-output/browser/.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import pdfgen
from tests.fake_ollama import free_port_url

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "test-output" / "browser"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    return int(free_port_url().rsplit(":", 1)[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("browser-data")
    port = _free_port()
    env = {
        **os.environ,
        "KB_STORE_DIR": str(data / "store"),
        "AGENT_RUNS_DIR": str(data / "runs"),
        "AGENT_CHECKPOINT_PATH": str(data / "checkpoints.sqlite"),
        "AGENT_OLLAMA_URL": free_port_url(),
        "HF_HUB_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
    }
    log = (data / "streamlit.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "ui" / "app.py"),
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(port),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().decode() == "ok":
                        break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail(f"streamlit did not start; see {data / 'streamlit.log'}")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def test_upload_ask_approve_and_open_citation(server: str, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is missing: ./run.sh test installs it (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    pdf = pdfgen.plant_pdf(tmp_path / "plant notes.pdf")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1400})
        timeout_ms = int(os.environ.get("BROWSER_TIMEOUT_MS", "90000"))
        page.set_default_timeout(timeout_ms)
        # expect() has its own 5 s default; the first ingestion loads the embedding model cold.
        expect.set_options(timeout=timeout_ms)
        try:
            first_panel = _journey(page, server, pdf)
        except Exception:
            page.screenshot(path=str(OUT / "failure.png"), full_page=True)
            raise
        finally:
            browser.close()
    (OUT / "metrics.json").write_text(json.dumps({"submit_to_first_evidence_seconds": round(first_panel, 3)}))
    print(f"\nsubmit to first evidence panel: {first_panel:.2f} s")


def _journey(page: Any, server: str, pdf: Path) -> float:
    from playwright.sync_api import expect

    page.goto(server)
    page.get_by_role("link", name="Library").click()
    scan = pdfgen.image_only_pdf(pdf.parent / "scan.pdf")
    page.locator("input[type=file]").set_input_files([str(scan), str(pdf)])
    page.get_by_role("button", name="Ingest").click()
    # The bad file gets its one-line error inline; the good one is still ingested after it.
    expect(page.get_by_text("scan.pdf: no extractable text (scanned image;", exact=False)).to_be_visible()
    expect(page.get_by_text("plant_notes.pdf: 2 pages")).to_be_visible()
    expect(page.get_by_text("Documents (1)")).to_be_visible()

    page.get_by_role("link", name="Ask").click()
    # Wait for the page switch to land: a widget click sent before it would rerun the old page.
    box = page.get_by_placeholder("Ask a question about your documents")
    expect(box).to_be_visible()
    page.get_by_text("Ask me before running a refined query").click()
    expect(page.get_by_text("approval on")).to_be_visible()
    box.fill("When is the TDC-X9 recalibrated?")
    started = time.perf_counter()
    box.press("Enter")
    expect(page.get_by_text("Round 1 · initial").first).to_be_visible()
    expect(page.get_by_text("plant_notes").first).to_be_visible()
    first_panel = time.perf_counter() - started
    page.screenshot(path=str(OUT / "ask-mid-run.png"), full_page=True)

    refined = page.get_by_role("textbox", name="Refined query")
    expect(refined).to_be_visible()
    expect(page.get_by_text("Proposed refinement")).to_be_visible()
    page.screenshot(path=str(OUT / "approval.png"), full_page=True)
    refined.fill("thermal drift compensator recalibrated")
    page.get_by_role("button", name="Edit & run").click()

    citation = page.get_by_text(re.compile(r"^\[c\d+\] plant_notes · p\. 2")).first
    expect(citation).to_be_visible()
    expect(
        page.get_by_text("recalibrated every 90 days by the thermal team").filter(visible=True).first
    ).to_be_visible()
    citation.click()
    image = page.locator("[data-testid='stImage'] img").first
    expect(image).to_be_visible()
    citation.scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / "citation.png"))
    return first_panel
