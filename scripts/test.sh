#!/usr/bin/env bash
# Install with the test tools, then run lint, types and the whole test suite on real models.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --test
# shellcheck disable=SC1091
. .venv/bin/activate
echo "==> ruff"; ruff check server tests scripts export eval
echo "==> mypy"; bash scripts/typecheck.sh
echo "==> pytest"; python -m pytest -q "$@"
