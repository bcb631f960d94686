#!/usr/bin/env bash
#===- test/run.sh - build fusecc and run every test ----------------------===#
#
# Installs what is missing (Debian 12: LLVM/MLIR 22, CMake, Ninja), builds
# the compiler, tools and runtime, then runs the lit suite (check-fusecc:
# dialect, passes, CLI, CPU reference + kernel simulator, ptxas acceptance
# when the CUDA toolkit is present) and the runtime's unit tests (ctest; no
# GPU needed). Prints one closing line: "tests: N passed, M failed".
#
#===----------------------------------------------------------------------===#
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
bash .ci/build.sh || { echo "tests: 0 passed, 1 failed (build)"; exit 1; }

log="$repo/build/test-log.txt"
/usr/lib/llvm-22/bin/lit -sv build/test 2>&1 | tee "$log"
lit_rc=${PIPESTATUS[0]}
passed=$(grep -oE "^ *Passed *: *[0-9]+" "$log" | grep -oE "[0-9]+$" || echo 0)
lit_failed=$(grep -E "^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: *[0-9]+" "$log" |
  awk -F: '{ n += $2 } END { print n + 0 }')
if ((lit_rc != 0 && lit_failed == 0)); then lit_failed=1; fi

ctest_passed=0 ctest_failed=0 ctest_rc=0
if [[ -d build/runtime ]]; then
  (cd build/runtime && ctest --output-on-failure) 2>&1 | tee "$log.ctest"
  ctest_rc=${PIPESTATUS[0]}
  total=$(grep -oE "tests failed out of [0-9]+" "$log.ctest" | grep -oE "[0-9]+$" || echo 0)
  ctest_failed=$(grep -oE "[0-9]+ tests failed" "$log.ctest" | grep -oE "^[0-9]+" || echo 0)
  ctest_passed=$((total - ctest_failed))
  if ((ctest_rc != 0 && ctest_failed == 0)); then ctest_failed=1; fi
else
  echo "test/run.sh: runtime not built (no cuda.h); its unit tests are skipped"
fi
# Compiler fuzzers (ASan + UBSan build in build-san/, each target for
# FUSECC_FUZZ_SECONDS; FUSECC_FUZZ=0 skips) and the lit suite on that build
# (FUSECC_SANITIZE=0 skips; docs/reliability.md: timings).
extra_passed=0 extra_failed=0 extra_rc=0
for step in fuzz sanitize; do
  [[ $step == fuzz && "${FUSECC_FUZZ:-1}" == 0 ]] && continue
  [[ $step == sanitize && "${FUSECC_SANITIZE:-1}" == 0 ]] && continue
  bash ".ci/$step-compiler.sh" 2>&1 | tee "$log.$step"
  ((PIPESTATUS[0] == 0)) || extra_rc=1
  counts=$(grep -oE "^$step-compiler: [0-9]+ passed, [0-9]+ failed" "$log.$step" | tail -1)
  p=$(grep -oE "[0-9]+ passed" <<<"$counts" | grep -oE "[0-9]+" || echo 0)
  f=$(grep -oE "[0-9]+ failed" <<<"$counts" | grep -oE "[0-9]+" || echo 1)
  extra_passed=$((extra_passed + p)) extra_failed=$((extra_failed + f))
done
echo "tests: $((passed + ctest_passed + extra_passed)) passed, $((lit_failed + ctest_failed + extra_failed)) failed"
((lit_rc == 0 && ctest_rc == 0 && extra_rc == 0))
