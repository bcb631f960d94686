#!/usr/bin/env bash
#===- test/run.sh - build fusecc and run every test ----------------------===#
#
# Installs what is missing (Debian 12: LLVM/MLIR 22, CMake, Ninja), builds
# the compiler, tools and runtime, then runs the lit suite (check-fusecc:
# dialect, passes, CLI, CPU reference + kernel simulator, ptxas acceptance
# when the CUDA toolkit is present), the runtime's unit tests (ctest; no
# GPU needed) and the Python package's tests (python/tests, unittest; those
# needing PyTorch, a GPU or the built runtime skip and say why). Prints one
# closing line: "tests: N passed, M failed".
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

# Python package (python/fusecc): GPU-free unit tests.
py_passed=0 py_failed=0 py_rc=0
python3 -m unittest discover -s python/tests -v >"$log.python" 2>&1
py_rc=$?
py_ran=$(grep -oE "^Ran [0-9]+ test" "$log.python" | grep -oE "[0-9]+" || echo 0)
py_bad=$(grep -oE "(failures|errors)=[0-9]+" "$log.python" |
  awk -F= '{ n += $2 } END { print n + 0 }')
py_skipped=$(grep -oE "skipped=[0-9]+" "$log.python" | grep -oE "[0-9]+$" || echo 0)
py_passed=$((py_ran - py_bad - py_skipped)) py_failed=$py_bad
if ((py_rc != 0 && py_failed == 0)); then py_failed=1; fi
if ((py_rc != 0)); then cat "$log.python"; fi
echo "python/tests: $py_ran run, $py_skipped skipped, $py_failed failing"
grep -oE "skipped '.*'$" "$log.python" | sort | uniq -c || true
echo "tests: $((passed + ctest_passed + py_passed)) passed, $((lit_failed + ctest_failed + py_failed)) failed"
((lit_rc == 0 && ctest_rc == 0 && py_rc == 0))
