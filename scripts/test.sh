#!/usr/bin/env bash
# Install with the test tools, then run lint, types and the whole test suite on real models.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --test
# The browser tests (tests/test_page.py) drive Debian's Chromium through chromedriver; they fail,
# never skip, without it. CI runs this script as root; elsewhere apt goes through sudo.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "==> installing chromium + chromium-driver (apt)"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update && $sudo apt-get install -y chromium chromium-driver
fi
# The offline test runs `serve` under strace (tests/test_offline.py) so that native code reaching
# the network is caught too; it fails, never skips, without strace.
if ! command -v strace >/dev/null 2>&1; then
  echo "==> installing strace (apt)"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update && $sudo apt-get install -y strace
fi
# shellcheck disable=SC1091
. .venv/bin/activate
echo "==> ruff"; ruff check server tests scripts export eval
echo "==> mypy"; bash scripts/typecheck.sh
echo "==> pytest"; python -m pytest -q "$@"
