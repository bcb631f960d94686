#!/usr/bin/env bash
#===- .ci/fuzz-runtime.sh - fuzz the runtime's parser and calls ----------===#
#
# Usage: .ci/fuzz-runtime.sh [seconds] [extra libFuzzer flags...]
#
# Builds two libFuzzer targets with the runtime's sources using clang-22
# -fsanitize=fuzzer,address,undefined into build/fuzz-runtime:
#   fuzz_bundle   the bundle parser and every query
#                 (runtime/test/fuzz/fuzz_bundle.c);
#   fuzz_runtime  load and launch calls against the fake driver
#                 (runtime/test/fuzz/fuzz_runtime.c; fake_cuda.c built as
#                 a shared library with ASan next to it),
# and runs each for a bounded time (default 30 s; CI passes at most 60;
# FUSECC_FUZZ_TARGETS="bundle" runs only that one) from the seeds
# (runtime/test/data/*.fcb, runtime/test/fuzz/seeds/*) with the manifest
# dictionary (runtime/test/fuzz/bundle.dict). A crash, leak, sanitizer
# report or timeout fails; the input is left in build/fuzz-runtime/
# (<target>-crash-*, ...) and must become a regression unit test. Prints
# "fuzz-runtime: N passed, M failed" last.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
shift || true
out="${FUSECC_FUZZ_OUT:-$repo/build/fuzz-runtime}"
cuda_include="${FUSECC_CUDA_INCLUDE_DIR:-/usr/local/cuda/include}"
clang="$(command -v clang-22 || echo /usr/lib/llvm-22/bin/clang)"
if [[ ! -f "$cuda_include/cuda.h" ]]; then
  echo "fuzz-runtime: no cuda.h in $cuda_include; skipped"
  echo "fuzz-runtime: 0 passed, 0 failed"
  exit 0
fi
mkdir -p "$out"
src="$repo/runtime/src"
fuzz="$repo/runtime/test/fuzz"
cflags=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
  -I "$repo/runtime/include" -I "$cuda_include")
build() { # target, extra sources...
  local target=$1
  shift
  "$clang" "${cflags[@]}" -fsanitize=fuzzer "$src"/*.c "$@" -ldl -lpthread \
    -o "$out/$target" >>"$out/build.log" 2>&1
}
: >"$out/build.log"
if ! build fuzz_bundle "$fuzz/fuzz_bundle.c" ||
  ! "$clang" "${cflags[@]}" -shared -fPIC "$repo/runtime/test/fake_cuda.c" \
    -o "$out/libfake_cuda.so" >>"$out/build.log" 2>&1 ||
  ! build fuzz_runtime "$fuzz/fuzz_runtime.c"; then
  cat "$out/build.log"
  echo "fuzz-runtime: 0 passed, 1 failed (build)"
  exit 1
fi
export FUSECC_FAKE_DRIVER="$out/libfake_cuda.so"
passed=0 failed=0
for target in ${FUSECC_FUZZ_TARGETS:-bundle runtime}; do
  rm -f "$out/$target"-crash-* "$out/$target"-leak-* \
    "$out/$target"-timeout-* "$out/$target"-oom-*
  mkdir -p "$out/corpus-$target"
  "$out/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=16384 -dict="$fuzz/bundle.dict" \
    -artifact_prefix="$out/$target-" -print_final_stats=1 "$@" \
    "$out/corpus-$target" "$repo/runtime/test/data" "$fuzz/seeds" \
    >"$out/$target.log" 2>&1
  rc=$?
  echo "fuzz-runtime: fuzz_$target:"
  tail -n 25 "$out/$target.log"
  if ((rc != 0)); then
    ls "$out/$target"-crash-* "$out/$target"-leak-* "$out/$target"-timeout-* \
      "$out/$target"-oom-* 2>/dev/null
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "fuzz-runtime: $passed passed, $failed failed"
((failed == 0))
