#!/usr/bin/env bash
#===- fuzz/build-campaign.sh - fuzz targets over the release build -------===#
#
# Usage: fuzz/build-campaign.sh [release build dir (default build)] [out dir]
# (FUSECC_CAMPAIGN_TARGETS="onnx graph" builds only those.)
#
# Builds compile-fuzzer, graph-fuzzer and onnx-fuzzer with clang-22
# (-fsanitize=fuzzer,address,undefined) against the libraries of an
# existing release build (g++), for long campaigns on a machine where the
# full sanitizer build of .ci/sanitize-compiler.sh does not fit. Only the
# harnesses and, for onnx-fuzzer, the ONNX importer's sources are compiled
# here (instrumented: coverage feedback and ASan/UBSan on the importer);
# the rest of fusecc runs uninstrumented (a crash or abort is still
# caught, a silent out-of-bounds access in it is not). CI uses the full
# ASan + UBSan build (.ci/fuzz-compiler.sh).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$repo/build}" && pwd)"
out="${2:-$build/fuzz-campaign}"
mkdir -p "$out/obj"
clang="$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)"
san="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=all"
flags=(-O1 -g -std=gnu++17 -fno-exceptions -DNDEBUG
  -D_GLIBCXX_USE_CXX11_ABI=1 -DONNX_NAMESPACE=onnx -DONNX_ML=1
  -I/usr/lib/llvm-22/include -I"$repo/include" -I"$build/include" $san)
# The ONNX classes the build generated from onnx.proto (when it did), in
# front of the system's onnx_pb.h, as lib/Import/ONNX/CMakeLists.txt does.
if [[ -d "$build/lib/Import/ONNX/proto" ]]; then
  flags=(-I"$build/lib/Import/ONNX/proto" "${flags[@]}")
fi
# The link libraries of a release tool (fusecc has the importer and the
# target; fusecc-check the reference), from the build's own link rule.
libs_of() {
  awk -v t="build bin/$1:" 'index($0, t) == 1 { on = 1 }
    on && /LINK_LIBRARIES/ { sub(/^ *LINK_LIBRARIES = /, ""); print; exit }' \
    "$build/build.ninja" | sed 's/-Wl,-rpath,"[^"]*"//'
}
link() { # target, tool whose libraries to use, objects...
  local target=$1 tool=$2
  shift 2
  echo "build-campaign: linking $target"
  (cd "$build" && eval "\"$clang\" -fsanitize=fuzzer $san $* $(libs_of "$tool") \
    -Wl,-rpath,/usr/lib/llvm-22/lib -o \"$out/$target\"")
}
cov=(-fsanitize=fuzzer-no-link)
# Objects to build: "source object extra-flag", two compilations at a time.
targets=(${FUSECC_CAMPAIGN_TARGETS:-compile graph onnx})
jobs=()
for t in "${targets[@]}"; do
  jobs+=("$repo/fuzz/${t}_fuzzer.cpp $out/obj/${t}_fuzzer.o -DFUSECC_FUZZ_CAMPAIGN=1")
done
importer=()
[[ " ${targets[*]} " == *" onnx "* ]] && for f in "$repo"/lib/Import/ONNX/*.cpp; do
  o="$out/obj/onnx_$(basename "${f%.cpp}").o"
  jobs+=("$f $o -I$repo/lib/Import/ONNX")
  importer+=("$o")
done
export clang
export flags_str="${flags[*]} ${cov[*]}"
printf '%s\n' "${jobs[@]}" | xargs -P "${FUSECC_JOBS:-2}" -L 1 bash -c '
  src=$0 obj=$1 extra=$2
  if [[ ! -f "$obj" || "$src" -nt "$obj" ]]; then
    echo "build-campaign: $src"
    "$clang" $flags_str $extra -c "$src" -o "$obj"
  fi'
for t in "${targets[@]}"; do
  case $t in
  compile) link compile-fuzzer fusecc "$out/obj/compile_fuzzer.o" ;;
  graph) link graph-fuzzer fusecc-check "$out/obj/graph_fuzzer.o" ;;
  onnx) link onnx-fuzzer fusecc "$out/obj/onnx_fuzzer.o" "${importer[@]}" ;;
  esac
done
echo "build-campaign: ${targets[*]} in $out"
