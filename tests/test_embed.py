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
    assert len(int8.tokenize([long])[0]) > 1  # more than one window
    vector = int8.encode([long])[0]
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5
    assert float(vector @ int8.encode([SENTENCES[0]])[0]) > 0.3


def test_encoding_is_the_same_whether_texts_are_tokenized_ahead_or_one_by_one(int8: Embedder):
    texts = [*SENTENCES, " ".join(SENTENCES * 20)]
    ticks: list[tuple[int, int]] = []
    ahead = int8.encode_tokenized(int8.tokenize(texts), len(texts), lambda done, of: ticks.append((done, of)), 2)
    windows = len(int8.tokenize(texts)[0])
    assert ticks[-1] == (windows, windows) and [d for d, _ in ticks] == sorted(d for d, _ in ticks)
    # Runs are independent of their neighbours and of the order they are run in (longest first).
    alone = np.stack([int8.encode([t])[0] for t in texts])
    assert np.allclose(ahead, alone, atol=1e-6)


def test_the_title_vector_pulls_chunks_toward_their_document(int8: Embedder):
    chunks = int8.encode(SENTENCES)
    title = "Maintenance manual for centrifugal pumps"
    mixed = int8.with_title(chunks, title, 0.5)
    assert np.allclose(np.linalg.norm(mixed, axis=1), 1.0, atol=1e-5)
    toward = int8.encode([title])[0]
    assert ((mixed @ toward) > (chunks @ toward) + 0.05).all()
    # Each chunk stays closest to itself among the document's chunks.
    assert (np.argmax(mixed @ chunks.T, axis=1) == np.arange(len(SENTENCES))).all()
    assert int8.with_title(chunks, "", 0.5) is chunks and int8.with_title(chunks, title, 0) is chunks
    assert int8.with_title(np.zeros((0, 384), np.float32), title, 0.5).shape == (0, 384)


def test_the_pytorch_path_mixes_the_title_the_same_way(int8: Embedder, fp32: Embedder):
    title = "Maintenance manual for centrifugal pumps " * 40  # longer than the model's window: embedded in parts
    a = int8.with_title(int8.encode(SENTENCES), title, 0.5)
    b = fp32.with_title(fp32.encode(SENTENCES), title, 0.5)
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    assert ((a * b).sum(axis=1) > 0.97).all()


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
    older = cache / "0123456789abcdef.onnx"  # a copy made by an earlier recipe of the same model
    shutil.copy(int8.onnx.path, older)
    older.with_suffix(".json").write_text(json.dumps({**meta, "source": meta["source"]}))
    rebuilt = Embedder(dtype="int8", cache_dir=cache)
    assert not older.exists() and not older.with_suffix(".json").exists()
    assert rebuilt.runtime == "onnxruntime int8"
    assert json.loads(sidecar.read_text())["probes"] != meta["probes"]
    assert float((rebuilt.encode(SENTENCES) * int8.encode(SENTENCES)).sum(axis=1).min()) > 0.999


def test_spelled_out_layer_norm_computes_what_the_fused_operator_does(tmp_path: Path):
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from kb.onnx_model import _session, _spell_out_layer_norms

    rng = np.random.default_rng(0)
    scale, bias = rng.normal(size=8).astype(np.float32), rng.normal(size=8).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("LayerNormalization", ["x", "scale", "bias"], ["y"], axis=-1, epsilon=1e-5)],
        "ln",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 8])],
        [numpy_helper.from_array(scale, "scale"), numpy_helper.from_array(bias, "bias")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = rng.normal(size=(5, 8)).astype(np.float32) * 3 + 1
    fused = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    _spell_out_layer_norms(model)
    assert "LayerNormalization" not in {n.op_type for n in model.graph.node}
    onnx.checker.check_model(model)
    onnx.save(model, tmp_path / "ln.onnx")
    session = _session(tmp_path / "ln.onnx")
    assert np.allclose(session.run(None, {"x": x})[0], fused, atol=1e-5)


def test_another_callers_texts_do_not_queue_behind_a_whole_document(int8: Embedder):
    """An ingestion queues only a few runs at a time, so a search's texts are embedded while it goes on."""
    import threading

    document = [f"{SENTENCES[i % 4]} (passage {i})" for i in range(240)]
    progress: list[int] = []
    started = threading.Event()

    def ingest() -> None:
        int8.encode(document, progress=lambda done, of: (progress.append(done), started.set()), batch_size=4)

    worker = threading.Thread(target=ingest)
    worker.start()
    assert started.wait(timeout=60)
    int8.encode(SENTENCES[:3])  # several texts: these go through the shared runs, like a query with variants
    done_when_answered = progress[-1]
    worker.join(timeout=120)
    assert progress[-1] == len(document)
    assert done_when_answered < len(document) / 2, done_when_answered
