#!/usr/bin/env bash
# Install and run notillm-local inside an arm64 Debian root under qemu-user emulation, with the
# README's own install command, then answer the contract's worked examples and a small eval, so
# the answers can be compared case by case with x86 (compare.py). See docs/arm64.md.
#
#   sudo bash scripts/arm64/run_in_root.sh [options]
#     --cross          cross-compile llama-cpp-python on this host first (cross_build_llama.sh;
#                      minutes) so install.sh in the root installs that wheel instead of
#                      compiling under emulation (hours on 2 busy cores). Without --cross the
#                      wheel cache is still used when it holds a wheel for the same version and
#                      flags; otherwise install.sh compiles under emulation and the result is
#                      packed into the cache.
#     --root DIR       arm64 root (default /var/tmp/notillm-arm64/root; built when missing)
#     --out DIR        results on this host (default /var/tmp/notillm-arm64/out; replaced)
#     --examples FILE  worked examples (default eval/data/examples.jsonl)
#     --dev FILE       eval set (default eval/data/dev.jsonl); --dev-n N: its first N cases (60)
#     --cpus "LIST"    qemu CPU models to answer under, space-separated (default
#                      "cortex-a76 cortex-a53 max,sme=off": a Raspberry Pi 5 core (ARMv8.2 +
#                      dotprod); a Pi 3 / phone little core (plain ARMv8.0); every other
#                      extension qemu 7.2 has (SVE, i8mm, bf16). Not plain "max": qemu 7.2's
#                      early SME emulation makes onnxruntime's int8 output wrong (docs/arm64.md).
#                      install.sh and the eval run under the first.
#     --model-cpus "LIST"  CPU models (of --cpus) that also answer the worked examples with
#                      extractor_mode=model, so that llama.cpp decides every slot and its
#                      decoding is compared too (default: the first of --cpus; "" for none)
#     --fresh          new .venv and model cache in the root (wheel and pip caches are kept)
#
# Then, natively on x86:  .venv/bin/python scripts/arm64/compare.py --arm OUT
# Re-runs are quick: the root, pip's cache, the .venv and the llama-cpp-python wheel stay in the
# root. Every time this script records is EMULATED (qemu-user on an x86 host).
set -euo pipefail

# shellcheck disable=SC2317  # called by the EXIT trap
unmount_all() {
  local i
  for (( i=${#MOUNTED[@]}-1; i>=0; i-- )); do
    umount -R "${MOUNTED[$i]}" 2>/dev/null || umount -l "${MOUNTED[$i]}" || true
  done
}

main() {
  local ROOT=/var/tmp/notillm-arm64/root OUT=/var/tmp/notillm-arm64/out EXAMPLES="" DEV=""
  local DEV_N=60 FRESH=0 CROSS=0 CPUS="cortex-a76 cortex-a53 max,sme=off" MODEL_CPUS="" MODEL_SET=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --root) ROOT=$2; shift 2 ;;
      --out) OUT=$2; shift 2 ;;
      --examples) EXAMPLES=$2; shift 2 ;;
      --dev) DEV=$2; shift 2 ;;
      --dev-n) DEV_N=$2; shift 2 ;;
      --cpus) CPUS=$2; shift 2 ;;
      --model-cpus) MODEL_CPUS=$2; MODEL_SET=1; shift 2 ;;
      --fresh) FRESH=1; shift ;;
      --cross) CROSS=1; shift ;;
      -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
      *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
    esac
  done

  say() { printf '==> [run_in_root %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
  die() { printf 'error: [run_in_root] %s\n' "$*" >&2; exit 1; }
  [ "$(id -u)" = 0 ] || die "run as root (chroot and mounts need it)"

  local here repo
  here=$(cd "$(dirname "$0")" && pwd -P)
  repo=$(git -C "$here" rev-parse --show-toplevel)
  # shellcheck source=./lib.sh source-path=SCRIPTDIR
  . "$here/lib.sh"
  if [ -z "$EXAMPLES" ]; then
    EXAMPLES=$repo/eval/data/examples.jsonl
  fi
  if [ -z "$EXAMPLES" ] || [ ! -f "$EXAMPLES" ]; then die "no worked-examples file; pass --examples FILE"; fi
  DEV=${DEV:-$repo/eval/data/dev.jsonl}
  [ -f "$DEV" ] || die "no eval set at $DEV; pass --dev FILE"
  EXAMPLES=$(readlink -f "$EXAMPLES"); DEV=$(readlink -f "$DEV")
  if [ "$MODEL_SET" = 0 ]; then MODEL_CPUS=${CPUS%% *}; fi
  say "worked examples: $EXAMPLES ($(grep -c . "$EXAMPLES") cases); eval: first $DEV_N of $DEV"

  # 1. the root (idempotent) and, with --cross, the llama-cpp-python wheel -------------------
  bash "$here/build_root.sh" "$ROOT"
  ROOT=$(readlink -f "$ROOT")
  if [ "$CROSS" = 1 ]; then bash "$here/cross_build_llama.sh" "$ROOT"; fi

  local APP=/opt/notillm-local                      # the repository copy, inside the root
  local WORK=/opt/notillm-arm64                     # data in, results out, inside the root
  local key; key=$(llama_wheel_key "$repo/scripts/install.sh")
  local WHEELS=/var/cache/notillm-wheels/$key       # llama-cpp-python wheel cache, inside the root
  mkdir -p "$ROOT$WHEELS"

  # 2. mounts, always undone -----------------------------------------------------------------
  MOUNTED=()
  trap unmount_all EXIT
  mnt() { # mnt TARGET MOUNT-ARGS...
    local target=$1; shift
    if ! mountpoint -q "$target"; then mount "$@" "$target"; MOUNTED+=("$target"); fi
  }
  mnt "$ROOT/proc" -t proc proc
  mnt "$ROOT/sys" -t sysfs sysfs
  mnt "$ROOT/dev" --rbind /dev
  mount --make-rslave "$ROOT/dev"
  # qemu-user shows the x86 host's /proc/cpuinfo and /sys/devices/system/cpu: give the root
  # writable stand-ins that scripts/arm64/cpu_identity.sh fills for each emulated ARM core.
  mnt "$ROOT/sys/devices/system/cpu" -t tmpfs -o size=1m,mode=0755 notillm-cpu
  cp /proc/cpuinfo "$ROOT/run/notillm-cpuinfo"
  mnt "$ROOT/proc/cpuinfo" --bind "$ROOT/run/notillm-cpuinfo"

  # 3. the working tree: tracked + untracked-not-ignored files (never .venv) ------------------
  say "copying the working tree of $repo (git ls-files -co --exclude-standard) to $APP"
  mkdir -p "$ROOT$APP"
  find "$ROOT$APP" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
  (
    cd "$repo"
    git ls-files -co --exclude-standard -z \
      | while IFS= read -r -d '' f; do if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi; done \
      | tar --null -T - -cf -
  ) | tar -xf - -C "$ROOT$APP"
  local tree
  tree="$(git -C "$repo" rev-parse --short HEAD) + $(git -C "$repo" status --porcelain | wc -l) uncommitted paths"
  rm -rf "$ROOT$WORK"; mkdir -p "$ROOT$WORK/data" "$ROOT$WORK/out"
  # what decides the answers, fingerprinted from the copy; compare.py checks the x86 tree's
  python3 "$here/compare.py" --fingerprint "$ROOT$APP" > "$ROOT$WORK/fingerprint.txt"
  cp "$EXAMPLES" "$ROOT$WORK/data/examples.jsonl"
  head -n "$DEV_N" "$DEV" > "$ROOT$WORK/data/dev$DEV_N.jsonl"

  # 4. inside the root ------------------------------------------------------------------------
  say "running inside the root (EMULATED aarch64); log: $OUT/run.log"
  rm -rf "$OUT"; mkdir -p "$OUT"
  local t0 rc total
  t0=$(date +%s)
  set +e
  chroot "$ROOT" env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PIP_DEFAULT_TIMEOUT=180 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1 \
    WORK="$WORK" FIND_LINKS="$WHEELS" FRESH="$FRESH" CPUS="$CPUS" MODEL_CPUS="$MODEL_CPUS" DEV="dev$DEV_N" \
    ${NOTILLM_N_THREADS:+NOTILLM_N_THREADS=$NOTILLM_N_THREADS} \
    bash "$APP/scripts/arm64/inside_root.sh" 2>&1 | tee "$OUT/run.log"
  rc=${PIPESTATUS[0]}
  set -e
  total=$(( $(date +%s) - t0 ))

  # 5. results back on the host ----------------------------------------------------------------
  cp -r "$ROOT$WORK/out/." "$OUT/"
  cp -r "$ROOT$WORK/data" "$OUT/data"
  echo "$tree" > "$OUT/tree.txt"
  cp "$ROOT$WORK/fingerprint.txt" "$OUT/fingerprint.txt"
  cp "$ROOT$WHEELS/BUILT-BY.txt" "$OUT/llama-wheel-built-by.txt" 2>/dev/null || true
  ls "$ROOT$WHEELS" > "$OUT/llama-wheel-cache.txt" 2>/dev/null || true
  { echo "total_s $total"; echo "rc $rc"; } >> "$OUT/steps.txt"
  lscpu > "$OUT/host-lscpu.txt"
  { qemu-aarch64-static --version | head -1; uname -a; echo "host cores: $(nproc)"; } > "$OUT/host-versions.txt"
  say "done in ${total} s (EMULATED), exit $rc; results in $OUT"
  say "compare with x86:  $repo/.venv/bin/python $repo/scripts/arm64/compare.py --arm $OUT"
  return "$rc"
}

main "$@"; exit $?  # one line: bash never reads past it, so editing a running script is safe
