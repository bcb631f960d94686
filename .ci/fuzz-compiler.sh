#!/usr/bin/env bash
#===- .ci/fuzz-compiler.sh - run the compiler's libFuzzer targets --------===#
#
# Builds the fuzz targets (ASan + UBSan + libFuzzer, build-san/, shared with
# .ci/sanitize-compiler.sh) and runs each for FUSECC_FUZZ_SECONDS (default
# 60, at most 90 in CI):
#   compile-fuzzer  seeded with examples/*.mlir and the lit tests' graphs
#                   (split at "// -----"), with fuzz/fusecc.dict;
#   graph-fuzzer    structure-aware, from an empty corpus;
#   onnx-fuzzer     (fusecc built with libonnx-dev) ONNX protobuf bytes,
#                   seeded with fuzz/corpus/onnx-fuzzer (structured
#                   mutations of exports: fuzz/make_onnx_seeds.py) and
#                   fuzz/corpus/onnx-fuzzer-campaign (units campaigns found).
# A crash, sanitizer report, timeout (FUSECC_FUZZ_TIMEOUT s per input) or
# out-of-memory fails the target; its input is kept under
# build-san/fuzz-artifacts/. Prints "fuzz-compiler: N passed, M failed".
#
#===----------------------------------------------------------------------===#
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
build="${FUSECC_SAN_BUILD:-$repo/build-san}"
seconds="${FUSECC_FUZZ_SECONDS:-60}"
FUSECC_SAN_BUILD_ONLY=1 bash .ci/sanitize-compiler.sh ||
  { echo "fuzz-compiler: 0 passed, 2 failed (build)"; exit 1; }
export ASAN_OPTIONS="detect_leaks=0:allow_user_poisoning=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
work="$build/fuzz"
artifacts="$build/fuzz-artifacts"
mkdir -p "$work" "$artifacts"
# Seeds: every example, every test graph (one file per split section).
seeds="$work/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
cp examples/*.mlir "$seeds/"
python3 - "$seeds" <<'PY'
import pathlib, sys
out = pathlib.Path(sys.argv[1])
for f in sorted(pathlib.Path("test").rglob("*.mlir")):
    for i, part in enumerate(f.read_text().split("// -----")):
        if "func.func" in part:
            name = "_".join(f.with_suffix("").parts[1:]) + "_%d.mlir" % i
            (out / name).write_text(part)
PY
passed=0 failed=0
run() { # name, corpus dir, extra flags...
  local name=$1 corpus=$2
  shift 2
  mkdir -p "$corpus"
  local log="$work/$name.log"
  "$build/bin/$name" "$corpus" -max_total_time="$seconds" \
    -timeout="${FUSECC_FUZZ_TIMEOUT:-60}" -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$name-" "$@" >"$log" 2>&1
  local rc=$?
  local runs
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" |
    grep -oE "[0-9]+$" || echo "?")
  if ((rc == 0)); then
    passed=$((passed + 1))
    echo "fuzz-compiler: $name: $runs inputs in $seconds s, no finding"
  else
    failed=$((failed + 1))
    echo "fuzz-compiler: $name: FAILED after $runs inputs (rc $rc):"
    grep -E "ERROR|SUMMARY|graph_fuzzer:|compile_fuzzer:|runtime error|Test unit written" "$log" | head -20
  fi
}
# Past findings (fuzz/regressions/compile-fuzzer) run first, every time.
run compile-fuzzer "$work/corpus-compile" fuzz/regressions/compile-fuzzer \
  "$seeds" -dict=fuzz/fusecc.dict -max_len=65536
# Inputs of up to 128 bytes from the start: the generator reads its choices
# from them (short ones give mostly the smallest graphs). Past findings
# (fuzz/regressions/graph-fuzzer) run first, every time.
run graph-fuzzer "$work/corpus-graph" fuzz/regressions/graph-fuzzer \
  -len_control=0 -max_len=128
# Past findings (fuzz/regressions/onnx-fuzzer), the committed seeds and the
# units past campaigns found (fuzz/corpus/onnx-fuzzer-campaign, merged with
# -merge=1: each adds coverage) run first, every time.
if [[ -x "$build/bin/onnx-fuzzer" ]]; then
  run onnx-fuzzer "$work/corpus-onnx" fuzz/regressions/onnx-fuzzer \
    fuzz/corpus/onnx-fuzzer fuzz/corpus/onnx-fuzzer-campaign -max_len=65536
fi
echo "fuzz-compiler: $passed passed, $failed failed"
((failed == 0))
