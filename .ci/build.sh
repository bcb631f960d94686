#!/usr/bin/env bash
#===- .ci/build.sh - configure and build fusecc into build/ --------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$repo/.ci/install-deps.sh"
cmake -S "$repo" -B "$repo/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DFUSECC_BUILD_COMPILER=ON -DFUSECC_BUILD_RUNTIME=ON \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >"$repo/.cmake.log" 2>&1 ||
  { cat "$repo/.cmake.log"; exit 1; }
ninja -C "$repo/build"
