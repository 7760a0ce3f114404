"""Server mode: a real `chroma run` on 127.0.0.1, shared by two knowledge-base instances."""

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from kb.base import KnowledgeBase
from kb.settings import KBSettings

pytestmark = [pytest.mark.server, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path: Path):
    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    port = _free_port()
    proc = subprocess.Popen(
        [exe, "run", "--path", str(tmp_path / "server-data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    pytest.fail("chroma run did not start")
                time.sleep(0.3)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_server_mode_shares_one_store(chroma_server: int, tmp_path: Path, docs_dir: Path):
    writer = KnowledgeBase(KBSettings(store_dir=tmp_path / "a", chroma_host="127.0.0.1", chroma_port=chroma_server))
    summary = writer.ingest([docs_dir])
    assert not summary.failed
    # a second process-like instance with its own local folder sees the same documents and rebuilds BM25
    reader = KnowledgeBase(KBSettings(store_dir=tmp_path / "b", chroma_host="127.0.0.1", chroma_port=chroma_server))
    assert [d.doc_id for d in reader.documents()] == ["manual", "report"]
    hits = reader.search("QX-7731", k=3)
    assert hits[0].doc_id == "report" and hits[0].lexical_rank == 1
    assert reader.search("basalt humidity", k=3)[0].dense_rank is not None
    assert writer.remove("manual")
    assert all(h.doc_id != "manual" for h in reader.search("pump controller torque", k=8))
