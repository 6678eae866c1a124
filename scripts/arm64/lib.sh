# shellcheck shell=bash
# Helpers shared by scripts/arm64/*.sh (sourced, not run).

# The CMAKE_ARGS that scripts/install.sh passes to the llama-cpp-python build on ARCH (as
# `uname -m` prints it): its llama-cpp-python block is evaluated with `uname` answering ARCH and
# `python` stubbed, so the flags can never drift from what install.sh really does.
install_cmake_args() { # install_cmake_args INSTALL_SH ARCH
  local install_sh=$1 arch=$2 block
  block=$(sed -n '/^if ! python -c "import llama_cpp"/,/^fi$/p' "$install_sh")
  [ -n "$block" ] || { echo "error: no llama-cpp-python block in $install_sh" >&2; return 1; }
  (
    unset CMAKE_ARGS NOTILLM_ARM_ARCH
    # shellcheck disable=SC2317  # called by the eval'd block
    uname() { echo "$arch"; }
    # shellcheck disable=SC2317
    python() { if [ "$1" = -c ]; then return 1; fi; printf 'CMAKE_ARGS=%s\n' "${CMAKE_ARGS:-}"; }
    eval "$block"
  ) 2>/dev/null | sed -n 's/^CMAKE_ARGS=//p'
}

# The llama-cpp-python version install.sh pins.
install_llama_version() { # install_llama_version INSTALL_SH
  grep -o 'llama-cpp-python==[0-9][0-9.]*' "$1" | head -1 | cut -d= -f3
}

# Key of the wheel cache: the pinned version and the aarch64 CMAKE_ARGS of install.sh. Same key,
# same build: pip may take the cached wheel instead of compiling again.
llama_wheel_key() { # llama_wheel_key INSTALL_SH
  printf '%s|%s' "$(install_llama_version "$1")" "$(install_cmake_args "$1" aarch64)" \
    | sha256sum | cut -c1-12
}
