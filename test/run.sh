#!/usr/bin/env bash
#===- test/run.sh - build fusecc and run every test ----------------------===#
#
# Installs what is missing (Debian 12: LLVM/MLIR 22, CMake, Ninja), builds
# the compiler, tools and runtime, then runs the lit suite (check-fusecc:
# dialect, passes, CLI, CPU reference + kernel simulator, ptxas acceptance
# when the CUDA toolkit is present), the runtime's unit tests (ctest; no
# GPU needed), again under ASan+UBSan (.ci/runtime-sanitize.sh), fuzzes the
# runtime's bundle parser and its load and launch calls for 30 s each
# (.ci/fuzz-runtime.sh; a crash fails),
# and runs the Python package's tests (python/tests, unittest; those needing
# PyTorch, a GPU or the built runtime skip and say why). Prints one closing
# line: "tests: N passed, M failed".
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

# Scripts closing with "<name>: N passed, M failed" add to the totals.
extra_passed=0 extra_failed=0 extra_rc=0
run_counted() {
  local name=$1 rc p f
  shift
  "$@" 2>&1 | tee "$log.$name"
  rc=${PIPESTATUS[0]}
  p=$(grep -oE "^$name: [0-9]+ passed" "$log.$name" | tail -1 | grep -oE "[0-9]+" || echo 0)
  f=$(grep -oE "^$name: [0-9]+ passed, [0-9]+ failed" "$log.$name" | tail -1 |
    grep -oE "[0-9]+ failed" | grep -oE "[0-9]+" || echo 0)
  if ((rc != 0 && f == 0)); then f=1; fi
  extra_passed=$((extra_passed + p)) extra_failed=$((extra_failed + f))
  ((rc == 0)) || extra_rc=1
}
if [[ -d build/runtime ]]; then
  run_counted runtime-sanitize bash .ci/runtime-sanitize.sh
  run_counted fuzz-runtime bash .ci/fuzz-runtime.sh 30
fi
# Compiler fuzzers (ASan + UBSan build in build-san/, each target for
# FUSECC_FUZZ_SECONDS; FUSECC_FUZZ=0 skips) and the lit suite on that build
# (FUSECC_SANITIZE=0 skips; docs/reliability.md: timings).
if [[ "${FUSECC_FUZZ:-1}" != 0 ]]; then
  run_counted fuzz-compiler bash .ci/fuzz-compiler.sh
fi
if [[ "${FUSECC_SANITIZE:-1}" != 0 ]]; then
  run_counted sanitize-compiler bash .ci/sanitize-compiler.sh
fi
# Python package (python/fusecc): GPU-free unit tests, on the interpreter
# that sees Debian's python3-torch and python3-onnx (/usr/bin/python3; a
# python3 earlier on PATH, e.g. pyenv's, does not), or $FUSECC_PYTHON.
py_passed=0 py_failed=0 py_rc=0
python=${FUSECC_PYTHON:-}
if [[ -z $python ]]; then
  python=python3
  for py in /usr/bin/python3 "$(command -v python3 || true)"; do
    if [[ -x $py ]] && "$py" -c "import torch" >/dev/null 2>&1; then
      python=$py
      break
    fi
  done
fi
echo "python/tests: on $python"
"$python" -m unittest discover -s python/tests -v >"$log.python" 2>&1
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
echo "tests: $((passed + ctest_passed + extra_passed + py_passed)) passed," \
  "$((lit_failed + ctest_failed + extra_failed + py_failed)) failed"
((lit_rc == 0 && ctest_rc == 0 && extra_rc == 0 && py_rc == 0))
