#!/usr/bin/env bash
# ./run.sh          set up .venv if needed, then open the workbench at http://127.0.0.1:8501
# ./run.sh test     set up .venv if needed, then run the whole test suite (extra args go to pytest)
# ./run.sh kb ...   the knowledge-base command line (python -m kb ...)
# ./run.sh bench    the bench over every corpus of ../shared/corpora/corpora.json (python -m bench ...)
set -euo pipefail
cd "$(dirname "$0")"

export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 ANONYMIZED_TELEMETRY=False TOKENIZERS_PARALLELISM=false

setup() {
  if [ ! -x .venv/bin/python ]; then
    py=""
    for candidate in python3.11 python3; do
      if command -v "$candidate" >/dev/null 2>&1; then py=$candidate; break; fi
    done
    [ -n "$py" ] || { echo "run.sh: Python 3.11 is required (python3.11 not found)" >&2; exit 1; }
    echo "run.sh: creating .venv with $py" >&2
    "$py" -m venv .venv
  fi
  # Reinstall only when requirements.txt changed since the last successful install.
  stamp=.venv/.requirements.sha256
  want=$(sha256sum requirements.txt | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "run.sh: installing requirements into .venv" >&2
    .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
    .venv/bin/python -m pip install --quiet -r requirements.txt
    echo "$want" > "$stamp"
  fi
  # Export the embedding model's int8 copy once per machine and library version (about 15 s), so no first search
  # or ingestion waits. The check reads file names only (a fraction of a second).
  if ! .venv/bin/python -c 'import sys, kb; from kb.settings import KBSettings, model_source
from kb.onnx_model import OnnxEncoder
s = KBSettings(); sys.exit(s.embed_dtype in ("auto", "int8") and not OnnxEncoder.is_cached(model_source(s.embed_model), s.model_cache_dir))' 2>/dev/null; then
    echo "run.sh: preparing the embedding model (once)" >&2
    .venv/bin/python -c 'import kb; from kb.settings import KBSettings; from kb.embed import get_embedder
s = KBSettings(); get_embedder(s.embed_model, s.embed_dtype, s.model_cache_dir)' \
      || echo "run.sh: could not prepare the embedding model; it will be prepared on first use" >&2
  fi
}

# OCR of scanned pages runs Debian's tesseract with its English data (kb/ocr.py); without it, scanned pages are
# skipped with a note and the rest of the work goes on.
# A failed attempt is not repeated on every start (offline, no sudo): delete .venv/.tesseract-failed to try again.
ensure_tesseract() {
  ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata >/dev/null 2>&1 && command -v tesseract >/dev/null && return 0
  [ -f .venv/.tesseract-failed ] && return 0
  echo "run.sh: installing Debian's tesseract-ocr for OCR of scanned pages" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng; } >/dev/null 2>&1; then
    echo "run.sh: could not install tesseract-ocr (apt-get failed); scanned pages will be skipped" >&2
    touch .venv/.tesseract-failed
  fi
}

# The browser test drives Debian's chromium through Playwright (never `playwright install`).
ensure_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  echo "run.sh: installing Debian's chromium for the browser test" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium; } >/dev/null 2>&1; then
    echo "run.sh: could not install chromium (apt-get failed); the browser test will fail" >&2
  fi
}

setup
ensure_tesseract
case "${1:-}" in
  test)
    shift
    ensure_chromium
    exec .venv/bin/python -m pytest "$@"
    ;;
  kb|agent|bench)
    mod=$1; shift
    exec .venv/bin/python -m "$mod" "$@"
    ;;
  "")
    mkdir -p data
    exec .venv/bin/streamlit run ui/app.py --server.address 127.0.0.1 --server.port 8501
    ;;
  *)
    echo "usage: ./run.sh [test [pytest args] | kb ARGS | agent ARGS | bench ARGS]" >&2
    exit 2
    ;;
esac
