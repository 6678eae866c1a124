#!/usr/bin/env bash
# mypy over the package as it is installed: notillm_local = server/, with eval/ and export/
# mapped inside it (pyproject's package-dir). mypy cannot follow setuptools' editable import
# hook, so it checks a tree of symlinks laid out like the installed package.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir "$tree/notillm_local"
for entry in server/*; do ln -s "$PWD/$entry" "$tree/notillm_local/$(basename "$entry")"; done
ln -s "$PWD/eval" "$tree/notillm_local/eval"
ln -s "$PWD/export" "$tree/notillm_local/export"
MYPYPATH="$tree" mypy --config-file pyproject.toml -p notillm_local "$@"
