#!/usr/bin/env bash
#===- .ci/runtime-sanitize.sh - runtime unit tests under ASan + UBSan ----===#
#
# Builds the runtime and its unit tests (standalone, runtime/CMakeLists.txt)
# with -fsanitize=address,undefined -fno-sanitize-recover=all into
# build/runtime-sanitize and runs them with ctest; any sanitizer report fails
# the test that triggered it. Needs cuda.h only (no GPU, no LLVM). Prints one
# closing line "runtime-sanitize: N passed, M failed" (test/run.sh adds it to
# its count) and exits non-zero on any failure.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$repo/build/runtime-sanitize"
cuda_include="${FUSECC_CUDA_INCLUDE_DIR:-/usr/local/cuda/include}"
if [[ ! -f "$cuda_include/cuda.h" ]]; then
  echo "runtime-sanitize: no cuda.h in $cuda_include; skipped"
  echo "runtime-sanitize: 0 passed, 0 failed"
  exit 0
fi
flags="-fsanitize=address,undefined -fno-sanitize-recover=all"
flags+=" -fno-omit-frame-pointer -g -O1"
if ! cmake -S "$repo/runtime" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
  -DFUSECC_CUDA_INCLUDE_DIR="$cuda_include" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" \
  >"$build.cmake.log" 2>&1 || ! ninja -C "$build" -j2 >"$build.build.log" 2>&1; then
  cat "$build.cmake.log" "$build.build.log" 2>/dev/null | tail -40
  echo "runtime-sanitize: 0 passed, 1 failed (build)"
  exit 1
fi
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
log="$build/ctest.log"
(cd "$build" && ctest --output-on-failure -j2) 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
total=$(grep -oE "tests failed out of [0-9]+" "$log" | grep -oE "[0-9]+$" || echo 0)
failed=$(grep -oE "[0-9]+ tests failed" "$log" | grep -oE "^[0-9]+" || echo 0)
if ((rc != 0 && failed == 0)); then failed=1; fi
echo "runtime-sanitize: $((total - failed)) passed, $failed failed"
exit $((rc != 0))
