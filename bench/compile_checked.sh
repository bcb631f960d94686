#===- bench/compile_checked.sh - compile a graph to a ptxas-checked bundle -===#
#
# Sourced by the bench scripts that compile many graphs
# (awkward_shapes.sh, vocab_bundles.sh):
#   compile_checked GRAPH BUNDLE [fusecc options...]
# compiles GRAPH with build/bin/fusecc into BUNDLE and, where the CUDA
# toolkit's ptxas is present, has ptxas assemble its PTX for sm_90a (its
# notes dropped; an error fails with its text). Sets `ptxas` ("" if absent).
#
#===----------------------------------------------------------------------===#
fusecc="${fusecc:-$repo/build/bin/fusecc}"
ptxas="$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)"
[[ -x "$ptxas" ]] || ptxas=""
[[ -x "$fusecc" ]] || { echo "$(basename "$0"): build fusecc first (bash .ci/build.sh)" >&2; exit 1; }

compile_checked() {
  local graph=$1 bundle=$2
  shift 2
  "$fusecc" "$graph" "$@" -o "$bundle" || return 1
  [[ -n "$ptxas" ]] || return 0
  local ptx log
  ptx="$(mktemp --suffix=.ptx)"
  "$fusecc" "$graph" "$@" --emit=ptx -o "$ptx" || { rm -f "$ptx"; return 1; }
  log="$("$ptxas" -arch=sm_90a "$ptx" -o /dev/null 2>&1)" ||
    { echo "$log" >&2; rm -f "$ptx"; echo "$(basename "$0"): ptxas rejected $graph ($*)" >&2; exit 1; }
  rm -f "$ptx"
}
