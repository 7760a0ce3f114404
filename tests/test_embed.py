"""The embedding runtimes: the int8 ONNX copy matches PyTorch, is cached, and loads later without PyTorch."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kb.embed import Embedder, get_embedder
from kb.settings import MODEL_CACHE

SENTENCES = [
    "Pump P-101 trips when the suction pressure falls below 1.2 bar for more than five seconds.",
    "The survey covered 412 households across three districts in 2019.",
    "Gradient clipping keeps the loss from diverging in the first thousand steps.",
    "Table 2: throughput in requests per second for each cache size.",
]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def int8() -> Embedder:
    return get_embedder()  # the default: the cached int8 copy, exported on first use


@pytest.fixture(scope="module")
def fp32() -> Embedder:
    return get_embedder(dtype="float32")


def test_default_runtime_is_int8_and_close_to_float32(int8: Embedder, fp32: Embedder):
    assert int8.runtime == "onnxruntime int8"
    assert fp32.runtime == "pytorch float32"
    a, b = int8.encode(SENTENCES), fp32.encode(SENTENCES)
    assert a.shape == b.shape == (len(SENTENCES), 384)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    cosine = (a * b).sum(axis=1)
    assert cosine.min() > 0.97, cosine
    # Both runtimes rank the sentences the same way for a query close to one of them.
    query = "What throughput does each cache size reach?"
    assert np.argmax(a @ int8.encode([query])[0]) == np.argmax(b @ fp32.encode([query])[0]) == 3


def test_long_text_is_embedded_in_parts_by_the_int8_copy(int8: Embedder):
    long = " ".join(SENTENCES * 20)
    assert len(int8._parts(long)) > 1
    vector = int8.encode([long])[0]
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5
    assert float(vector @ int8.encode([SENTENCES[0]])[0]) > 0.3


def test_a_later_process_loads_the_cached_copy_without_pytorch(int8: Embedder):
    script = (
        "import sys; from kb.embed import Embedder; e = Embedder(); "
        "print(e.runtime, 'torch' in sys.modules, e.encode(['hello']).shape)"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "onnxruntime int8 False (1, 384)"


def test_a_stale_cached_copy_is_rebuilt(int8: Embedder, tmp_path: Path):
    cache = tmp_path / "models"
    cache.mkdir()
    for f in MODEL_CACHE.glob(f"{int8.onnx.path.stem}.*"):
        shutil.copy(f, cache / f.name)
    sidecar = cache / f"{int8.onnx.path.stem}.json"
    meta = json.loads(sidecar.read_text())
    meta["probes"] = (-np.asarray(meta["probes"])).tolist()  # the copy no longer matches what the model gave
    sidecar.write_text(json.dumps(meta))
    rebuilt = Embedder(dtype="int8", cache_dir=cache)
    assert rebuilt.runtime == "onnxruntime int8"
    assert json.loads(sidecar.read_text())["probes"] != meta["probes"]
    assert float((rebuilt.encode(SENTENCES) * int8.encode(SENTENCES)).sum(axis=1).min()) > 0.999
