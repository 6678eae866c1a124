#!/usr/bin/env bash
# Cross-compile llama-cpp-python for aarch64 on this x86_64 host with Debian's
# gcc-aarch64-linux-gnu, with exactly the CMAKE_ARGS scripts/install.sh picks on aarch64, and put
# the wheel into the arm64 root's wheel cache. install.sh, run inside the root by run_in_root.sh,
# then installs that wheel (pip prefers a wheel of the pinned version found through
# PIP_FIND_LINKS) instead of compiling the sdist under qemu, which takes hours on 2 busy cores.
#
#   sudo bash scripts/arm64/cross_build_llama.sh [ROOT]   # default /var/tmp/notillm-arm64/root
#
# Skipped when the cache already holds a wheel for the same version and flags (REBUILD=1 forces).
# Needs: gcc-aarch64-linux-gnu g++-aarch64-linux-gnu cmake (installed with apt-get if missing).
set -euo pipefail

main() {
  local ROOT=${1:-/var/tmp/notillm-arm64/root}
  local repo here key version cmake_args cache work sdist t0
  here=$(cd "$(dirname "$0")" && pwd -P)
  repo=$(cd "$here/../.." && pwd -P)
  # shellcheck source=./lib.sh source-path=SCRIPTDIR
  . "$here/lib.sh"
  say() { printf '==> [cross_build_llama] %s\n' "$*"; }

  [ -d "$ROOT/usr/lib/aarch64-linux-gnu" ] || { echo "error: no arm64 root at $ROOT (run build_root.sh)" >&2; exit 1; }
  version=$(install_llama_version "$repo/scripts/install.sh")
  cmake_args=$(install_cmake_args "$repo/scripts/install.sh" aarch64)
  key=$(llama_wheel_key "$repo/scripts/install.sh")
  cache="$ROOT/var/cache/notillm-wheels/$key"
  if ls "$cache"/llama_cpp_python-"$version"-*.whl >/dev/null 2>&1 && [ "${REBUILD:-0}" != 1 ]; then
    say "wheel already cached: $(ls "$cache"/llama_cpp_python-"$version"-*.whl)"
    return 0
  fi

  local need=()
  command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu)
  command -v aarch64-linux-gnu-g++ >/dev/null || need+=(g++-aarch64-linux-gnu)
  command -v cmake >/dev/null || need+=(cmake)
  if [ ${#need[@]} -gt 0 ]; then
    say "installing host packages: ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
  fi

  work=$(mktemp -d /var/tmp/notillm-arm64-cross.XXXXXX)
  CROSS_WORK=$work
  trap 'rm -rf "$CROSS_WORK"' EXIT
  say "llama-cpp-python==$version, aarch64 CMAKE_ARGS from install.sh: $cmake_args"
  cat > "$work/aarch64.cmake" <<'EOF'
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
EOF
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install -q --isolated --index-url https://pypi.org/simple \
    "scikit-build-core[pyproject]>=0.9.2" build >/dev/null
  say "downloading the sdist from PyPI"
  (cd "$work" && "$work/venv/bin/pip" download -q --isolated --index-url https://pypi.org/simple \
     --no-deps --no-binary :all: --no-build-isolation "llama-cpp-python==$version" -d "$work/dl") \
    || true
  sdist=$(ls "$work"/dl/llama_cpp_python-"$version".tar.gz 2>/dev/null || true)
  [ -n "$sdist" ] || { echo "error: could not download the llama-cpp-python $version sdist" >&2; exit 1; }

  say "cross-compiling (native x86 speed, ~5-15 min on 2 cores)"
  t0=$(date +%s)
  # _PYTHON_HOST_PLATFORM gives the wheel its aarch64 platform tag.
  CMAKE_ARGS="-DCMAKE_TOOLCHAIN_FILE=$work/aarch64.cmake $cmake_args" \
  _PYTHON_HOST_PLATFORM=linux-aarch64 CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-2} \
    "$work/venv/bin/python" -m build --wheel --no-isolation --outdir "$work/wheel" "$sdist" \
    > "$work/build.log" 2>&1 || { cp "$work/build.log" /var/tmp/notillm-arm64-cross-build.log
                                  tail -40 "$work/build.log" >&2; exit 1; }
  local whl
  whl=$(ls "$work"/wheel/*.whl)
  case "$whl" in *aarch64.whl) ;; *) echo "error: wheel is not tagged aarch64: $whl" >&2; exit 1 ;; esac
  # every shared library in the wheel must be an aarch64 ELF (e_machine 183)
  if ! python3 - "$whl" <<'PY'
import struct, sys, zipfile
bad, n = [], 0
with zipfile.ZipFile(sys.argv[1]) as zf:
    for name in zf.namelist():
        if ".so" in name.rsplit("/", 1)[-1]:
            head = zf.open(name).read(20)
            n += 1
            if head[:4] != b"\x7fELF" or struct.unpack("<H", head[18:20])[0] != 183:
                bad.append(name)
print(f"{n} shared libraries, {len(bad)} not aarch64: {bad}")
sys.exit(1 if bad or not n else 0)
PY
  then
    cp "$whl" /var/tmp/ 2>/dev/null || true
    echo "error: $whl holds libraries that are not aarch64 (kept in /var/tmp)" >&2; exit 1
  fi
  mkdir -p "$cache"
  cp "$whl" "$cache/"
  {
    echo "built by: scripts/arm64/cross_build_llama.sh on $(uname -m), $(date -u +%FT%TZ), $(( $(date +%s) - t0 )) s"
    echo "compiler: $(aarch64-linux-gnu-g++ --version | head -1)"
    echo "CMAKE_ARGS (install.sh, aarch64): $cmake_args"
    grep -E '^-- ' "$work/build.log" | grep -iE 'arm|march|openmp|GGML_SYSTEM' || true
  } > "$cache/BUILT-BY.txt"
  say "wheel in $cache: $(basename "$whl") ($(( $(date +%s) - t0 )) s)"
}

main "$@"; exit $?  # one line: bash never reads past it, so editing a running script is safe
