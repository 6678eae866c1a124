#!/usr/bin/env bash
# Build an arm64 Debian root file system (bookworm, like the x86 build machines) for running
# notillm-local under qemu-user emulation. Not part of CI: see docs/arm64.md.
#
#   sudo bash scripts/arm64/build_root.sh [ROOT]     # default /var/tmp/notillm-arm64/root
#
# Needs root, mmdebstrap, qemu-user-static and binfmt-support (Debian packages; installed with
# apt-get when missing). Idempotent: a finished root (stamp file) is left as it is; an
# interrupted build is thrown away and started again. Set REBUILD=1 to force a new root.
set -euo pipefail

main() {
  ROOT=${1:-/var/tmp/notillm-arm64/root}
  SUITE=${SUITE:-bookworm}
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
  SECURITY=${SECURITY:-http://deb.debian.org/debian-security}
  PACKAGES="python3,python3-venv,python3-dev,python3-pip,gcc,g++,make,cmake,git,ca-certificates,procps,util-linux"
  STAMP="$ROOT/.notillm-arm64-root"

  say() { printf '==> [build_root] %s\n' "$*"; }
  die() { printf 'error: [build_root] %s\n' "$*" >&2; exit 1; }

  [ "$(id -u)" = 0 ] || die "run as root (mmdebstrap, chroot and binfmt_misc need it)"

  repo=$(cd "$(dirname "$0")/../.." && pwd -P)
  mkdir -p "$(dirname "$ROOT")"
  abs_root=$(cd "$(dirname "$ROOT")" && pwd -P)/$(basename "$ROOT")
  case "$abs_root/" in
    "$repo"/*) die "the root must not be inside the repository ($repo); pick e.g. /var/tmp/..." ;;
  esac
  ROOT=$abs_root; STAMP="$ROOT/.notillm-arm64-root"

  # --- host tools ---------------------------------------------------------------------------
  need=()
  command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
  [ -e /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
  command -v update-binfmts >/dev/null || need+=(binfmt-support)
  if [ ${#need[@]} -gt 0 ]; then
    say "installing host packages: ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
  fi

  # --- aarch64 emulation through binfmt_misc -----------------------------------------------
  ensure_binfmt() {
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
      say "mounting binfmt_misc"
      mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
      say "enabling qemu-aarch64 in binfmt_misc"
      update-binfmts --enable qemu-aarch64
    fi
    grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 \
      || die "qemu-aarch64 binfmt handler is registered but disabled"
  }
  ensure_binfmt

  # --- the root ------------------------------------------------------------------------------
  if [ -f "$STAMP" ] && [ "${REBUILD:-0}" != 1 ]; then
    say "root already built ($(cat "$STAMP")): $ROOT"
  else
    # An interrupted build leaves no stamp: start from scratch (never if something is mounted).
    if grep -q " $ROOT/" /proc/mounts; then
      die "something is still mounted under $ROOT (a running run_in_root.sh?); unmount it first"
    fi
    rm -rf "$ROOT" "$ROOT.partial"
    say "mmdebstrap $SUITE arm64 into $ROOT (emulated dpkg configure: ~5-15 min)"
    t0=$(date +%s)
    mmdebstrap --mode=root --architectures=arm64 --variant=apt \
      --include="$PACKAGES" \
      "$SUITE" "$ROOT.partial" \
      "deb $MIRROR $SUITE main" \
      "deb $MIRROR $SUITE-updates main" \
      "deb $SECURITY $SUITE-security main"
    mv "$ROOT.partial" "$ROOT"
    echo "debian $SUITE arm64, built $(date -u +%FT%TZ) in $(( $(date +%s) - t0 )) s" > "$STAMP"
    say "built in $(( $(date +%s) - t0 )) s"
  fi

  # The host's local CAs (a TLS-intercepting egress proxy, for instance) so pip in the root
  # reaches PyPI the same way the host does. Cheap; redone every time.
  if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    chroot "$ROOT" update-ca-certificates >/dev/null 2>&1 || true
  fi
  cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"

  say "check: $(chroot "$ROOT" uname -m) / $(chroot "$ROOT" python3 --version) / $(chroot "$ROOT" cmake --version | head -1) / gcc $(chroot "$ROOT" gcc -dumpfullversion)"
  say "ready: $ROOT"
}

main "$@"; exit $?  # one line: bash never reads past it, so editing a running script is safe
