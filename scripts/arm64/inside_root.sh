#!/bin/bash
# Run by run_in_root.sh INSIDE the arm64 root (under qemu-user), from the repository copy.
# Environment: WORK (data/ in, out/ out), FIND_LINKS (llama-cpp-python wheel cache), FRESH (1:
# new .venv and model cache), CPUS (qemu CPU models, space-separated), MODEL_CPUS (those that
# also answer the examples with extractor_mode=model), DEV (dev set name).
# Every time written here is EMULATED.
set -euo pipefail

main() {
  local O=$WORK/out D=$WORK/data t0 install_rc=0 had_llama=0 src first=1 cpu first_cpu tag
  step() { echo "$1 $2" >> "$O/steps.txt"; }
  now() { date +%s; }
  cd "$(dirname "$0")/../.."

  if [ "${FRESH:-0}" = 1 ]; then
    echo "==> --fresh: removing .venv and the model cache"
    rm -rf .venv "$HOME/.cache/notillm-local"
  fi
  if [ -x .venv/bin/python ] && .venv/bin/python -c 'import llama_cpp' 2>/dev/null; then had_llama=1; fi
  export PIP_FIND_LINKS=$FIND_LINKS
  first_cpu=${CPUS%% *}
  bash scripts/arm64/cpu_identity.sh "$first_cpu"
  export QEMU_CPU=$first_cpu   # for every program started from here on (install, models, eval)

  echo "==> bash scripts/install.sh   (the README's install command; EMULATED aarch64)"
  t0=$(now)
  bash scripts/install.sh 2>&1 | while IFS= read -r l; do printf '%(%H:%M:%S)T %s\n' -1 "$l"; done \
    | tee "$O/install.log" || install_rc=$?
  step install_s $(( $(now) - t0 ))
  step install_rc "$install_rc"
  if [ $had_llama = 1 ]; then src=already-installed-in-.venv
  elif grep -q 'Building wheel for llama-cpp-python' "$O/install.log"; then src=compiled-under-emulation
  elif grep -q 'llama_cpp_python-.*\.whl' "$O/install.log"; then src=wheel-from-cache
  else src=unknown; fi
  step llama_cpp_python_source "$src"

  # shellcheck disable=SC1091
  . .venv/bin/activate
  if ! ls "$FIND_LINKS"/llama_cpp_python-*.whl >/dev/null 2>&1 && python -c 'import llama_cpp' 2>/dev/null; then
    echo "==> keeping a wheel of the llama-cpp-python install.sh built in $FIND_LINKS"
    python scripts/arm64/pack_wheel.py llama-cpp-python "$FIND_LINKS"
    echo "packed from the .venv after install.sh compiled it under emulation" > "$FIND_LINKS/BUILT-BY.txt"
  fi
  if [ "$install_rc" != 0 ]; then
    echo "==> scripts/install.sh failed (exit $install_rc): see install.log; nothing more is run" >&2
    exit "$install_rc"
  fi

  echo "==> notillm-local models"
  t0=$(now)
  notillm-local models > "$O/models.json" || echo "models: exit $?" >> "$O/models.json"
  step models_s $(( $(now) - t0 ))
  cp "$HOME/.cache/notillm-local/encoder/manifest.json" "$O/encoder-manifest.json" 2>/dev/null || true

  for cpu in $CPUS; do
    echo "==> answers under QEMU_CPU=$cpu: worked examples + $DEV"
    tag=qemu-$(echo "$cpu" | tr ',=' '_-')   # max,sme=off -> qemu-max_sme-off
    mkdir -p "$O/$tag"
    bash scripts/arm64/cpu_identity.sh "$cpu"
    cp /proc/cpuinfo "$O/$tag/cpuinfo.txt"
    env QEMU_CPU="$cpu" LD_SHOW_AUXV=1 /bin/true | grep HWCAP > "$O/$tag/hwcap.txt" || true
    t0=$(now)
    local sets=(examples="$D/examples.jsonl" "$DEV=$D/$DEV.jsonl")
    if [[ " ${MODEL_CPUS:-} " == *" $cpu "* ]]; then sets+=("examples@model=$D/examples.jsonl"); fi
    QEMU_CPU=$cpu python scripts/arm64/answers.py --out "$O/$tag" "${sets[@]}" 2> "$O/$tag/answers.log" \
      || { echo "answers.py failed under $cpu: see $tag/answers.log" >&2; tail -5 "$O/$tag/answers.log" >&2; }
    step "answers_${tag}_s" $(( $(now) - t0 ))
    if [ $first = 1 ]; then
      first=0
      echo "==> notillm-local eval --dataset $DEV.jsonl (QEMU_CPU=$cpu)"
      t0=$(now)
      bash scripts/arm64/cpu_identity.sh "$cpu"
      QEMU_CPU=$cpu notillm-local eval --dataset "$D/$DEV.jsonl" --out "$O/$tag/eval-$DEV" \
        > "$O/$tag/eval-$DEV.summary.json" 2> "$O/$tag/eval.log" \
        || echo "eval failed under $cpu: see $tag/eval.log" >&2
      step "eval_${tag}_s" $(( $(now) - t0 ))
    fi
  done

  { uname -a; python --version; gcc --version | head -1; echo "debian $(cat /etc/debian_version)"; } \
    > "$O/root-versions.txt"
}

main "$@"; exit $?  # one line: bash never reads past it, so editing a running script is safe
