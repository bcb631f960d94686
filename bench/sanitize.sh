#!/usr/bin/env bash
#===- bench/sanitize.sh - compute-sanitizer runs of fusecc kernels -------===#
#
# Usage: [BUNDLES=DIR] [SANITIZE_TIMEOUT=S] bench/sanitize.sh [TOOL...]
#            [-- gpu_check.py options]
#   TOOL: memcheck racecheck synccheck initcheck (default: all four).
#   SANITIZE_TIMEOUT: seconds per bundle and tool (default: none); a bundle
#   that runs out is listed as timed out and counts as not clean.
#   SANITIZE_BLOCK_LIMIT=N: racecheck only; every launch runs its first
#   ~N blocks (FUSECC_SANITIZE_BLOCK_LIMIT, runtime/src/module.c) and the
#   entry is launched once without a check (--launch-only): shared-memory
#   hazards are within a block, and a full-size layer's 10^5 blocks take
#   racecheck hours. The other tools always run whole grids.
#   SANITIZE_LAUNCH_ONLY=1: every tool launches each entry once without the
#   float64 check (a layer whose reference plus the tool's shadow memory
#   does not fit the GPU).
#
# Builds the runtime like gpu_check.sh, then runs bench/gpu_check.py (check
# only, no timing) on every bundle of DIR (default out/bundles), one process
# per bundle, under each compute-sanitizer tool, restricted to fusecc's
# kernels (names *_k<N>). Writes one line per bundle to
# $OUT/sanitize_<tool>.txt and prints one summary line per tool. Exits 1 if
# any tool reports an error or a check fails.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundles="${BUNDLES:-$repo/out/bundles}"
out="${OUT:-$repo/out/sanitize}"
mkdir -p "$out"
tools=()
while [[ $# -gt 0 && "$1" != -- ]]; do tools+=("$1"); shift; done
[[ "${1:-}" == -- ]] && shift
((${#tools[@]})) || tools=(memcheck racecheck synccheck initcheck)
build="${BUILD_DIR:-$repo/build-rt}"
source "$repo/bench/runtime_build.sh"
build_runtime "$build" || exit 1
status=0
# One process per bundle: the float64 reference of a full-size layer takes
# tens of GB of device memory, and a checker holding several of them (with
# the tools' own shadow memory) runs out.
mapfile -t files < <(cd "$bundles" && ls -1 *.fcb)
for tool in "${tools[@]}"; do
  log="$out/sanitize_$tool.txt"
  : >"$log"
  # Only fusecc's kernels are instrumented, except for initcheck: it tracks
  # which bytes kernels wrote, so it must see PyTorch's kernels too (or it
  # reports their results, read back by .item(), as uninitialised).
  # (Kernel-name filters match substrings: fusecc kernels are <graph>_k<N>;
  # a filter the tool does not match would silently check nothing, so
  # tests/planted errors, not a quiet summary, are the proof it works.)
  filter=(--kernel-name kns=_k0 --kernel-name kns=_k1 --kernel-name kns=_k2
    --kernel-name kns=_k3)
  [[ "$tool" == initcheck ]] && filter=()
  errors=0 failed=0 passed=0
  mode=(--no-time) limit=()
  [[ -n "${SANITIZE_LAUNCH_ONLY:-}" ]] && mode=(--launch-only)
  if [[ "$tool" == racecheck && -n "${SANITIZE_BLOCK_LIMIT:-}" ]]; then
    mode=(--launch-only)
    limit=(env "FUSECC_SANITIZE_BLOCK_LIMIT=$SANITIZE_BLOCK_LIMIT")
  fi
  for f in "${files[@]}"; do
    one="$out/$tool.${f%.fcb}.txt"
    timeout "${SANITIZE_TIMEOUT:-0}" "${limit[@]}" \
      compute-sanitizer --tool "$tool" "${filter[@]}" --error-exitcode 99 \
      python3 "$repo/bench/gpu_check.py" --bundles "$bundles" \
      --lib "$build/libfusecc_runtime.so" "${mode[@]}" --filter "$f:" \
      --out "$out/check-$tool" "$@" >"$one" 2>&1
    rc=$?
    # racecheck ends with "RACECHECK SUMMARY: N hazards displayed (E
    # errors, W warnings)", the other tools with "ERROR SUMMARY: E errors".
    summary=$(grep -E "(ERROR|RACECHECK) SUMMARY" "$one" | tail -1)
    checked=$(grep -E "checked, [0-9]+ passed" "$one" | tail -1)
    [[ ${mode[0]} == --launch-only ]] &&
      checked=$(grep -E "launched unchecked" "$one" | tail -1)
    ((rc == 124)) && summary="timed out after ${SANITIZE_TIMEOUT}s"
    echo "$f: rc=$rc ${summary:-no summary} | ${checked:-no check line}" >>"$log"
    n=$(sed -nE -e 's/.*ERROR SUMMARY: ([0-9]+) error.*/\1/p' \
      -e 's/.*RACECHECK SUMMARY: ([0-9]+) hazard.*/\1/p' <<<"$summary")
    errors=$((errors + ${n:-1}))
    if ((rc == 0)) && [[ -n "$checked" ]]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
    fi
  done
  echo "$tool: ${#files[@]} bundles, $passed clean and passing, $failed not" \
    "($errors errors in all); per bundle: $log"
  ((failed == 0)) || status=1
done
exit $status
