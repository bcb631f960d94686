#!/usr/bin/env bash
#===- bench/runtime_build.sh - The runtime build of the GPU scripts ------===#
#
# Sourced by gpu_check.sh, models_check.sh, profile.sh and sanitize.sh:
#   build_runtime DIR [TARGET...]
# configures the standalone runtime (runtime/, cuda.h only, no MLIR) into
# DIR in Release (with Ninja where it is installed; the configure output
# in DIR/configure.log) and builds libfusecc_runtime.so and the TARGETs.
# On a failure it prints the configure log or the build's output and
# returns 1.
#
#===----------------------------------------------------------------------===#

build_runtime() {
  local build=$1 repo
  local generator=()
  shift
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  if command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  mkdir -p "$build"
  cmake -S "$repo/runtime" -B "$build" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=Release >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; return 1; }
  cmake --build "$build" --target fusecc_runtime_shared "$@" >/dev/null ||
    { cmake --build "$build"; return 1; }
  [[ -f "$build/libfusecc_runtime.so" ]] ||
    { echo "build_runtime: $build/libfusecc_runtime.so was not built" >&2
      return 1; }
}
