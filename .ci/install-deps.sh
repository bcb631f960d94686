#!/usr/bin/env bash
#===- .ci/install-deps.sh - install what fusecc needs on Debian 12 -------===#
#
# LLVM/MLIR 22, lit/FileCheck, CMake, Ninja, a C/C++ compiler, clang-22
# and libclang-rt-22-dev for the fuzzers and sanitizers, and ONNX
# (libonnx-dev, protobuf and protoc: the ONNX classes are generated and
# linked statically into fusecc, node tests, python3-onnx), python3-torch
# (torch.fx for the dynamo backend's translation tests), pip + setuptools +
# wheel + venv for the Python package's wheel. The CUDA
# toolkit (ptxas, cuda.h) is optional: without it the runtime is not built
# and PTX acceptance tests are skipped. Idempotent; needs root (or sudo).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
pkgs=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools cmake ninja-build
      g++ python3 clang-22 libclang-rt-22-dev
      libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
      python3-onnx python3-torch python3-pip python3-venv)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi
