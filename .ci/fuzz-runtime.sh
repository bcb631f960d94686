#!/usr/bin/env bash
#===- .ci/fuzz-runtime.sh - fuzz the runtime's bundle parser -------------===#
#
# Usage: .ci/fuzz-runtime.sh [seconds] [extra libFuzzer flags...]
#
# Builds runtime/test/fuzz/fuzz_bundle.c with the runtime's sources using
# clang-22 -fsanitize=fuzzer,address,undefined into build/fuzz-runtime, and
# runs it for a bounded time (default 30 s; CI passes at most 60) from the
# seeds (runtime/test/data/*.fcb, runtime/test/fuzz/seeds/*) with the
# manifest dictionary (runtime/test/fuzz/bundle.dict). A crash, leak,
# sanitizer report or timeout fails; the input is left in
# build/fuzz-runtime/ (crash-*, leak-*, timeout-*) and must become a
# regression unit test. Prints "fuzz-runtime: N passed, M failed" last.
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
mkdir -p "$out/corpus"
src="$repo/runtime/src"
if ! "$clang" -g -O1 -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=all -I "$repo/runtime/include" -I "$cuda_include" \
  "$src"/*.c "$repo/runtime/test/fuzz/fuzz_bundle.c" -ldl -lpthread \
  -o "$out/fuzz_bundle" >"$out/build.log" 2>&1; then
  cat "$out/build.log"
  echo "fuzz-runtime: 0 passed, 1 failed (build)"
  exit 1
fi
rm -f "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-*
"$out/fuzz_bundle" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=16384 -dict="$repo/runtime/test/fuzz/bundle.dict" \
  -artifact_prefix="$out/" -print_final_stats=1 "$@" "$out/corpus" \
  "$repo/runtime/test/data" "$repo/runtime/test/fuzz/seeds" \
  >"$out/fuzz.log" 2>&1
rc=$?
tail -n 25 "$out/fuzz.log"
if ((rc != 0)); then
  ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-* 2>/dev/null
  echo "fuzz-runtime: 0 passed, 1 failed"
  exit 1
fi
echo "fuzz-runtime: 1 passed, 0 failed"
