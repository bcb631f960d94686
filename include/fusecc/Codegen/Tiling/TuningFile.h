//===- TuningFile.h - measured tile choices (tuning files) ------*- C++ -*-===//
//
// The tuning data of the tile cost model: a tuning file (bench/tune.py,
// tuning/<device>.json) lists measured tile choices by kernel tuning key;
// the `fuse-tile-kernels` options set the same knobs and win over an
// entry. A tuning directory holds one file per device; the target's
// device picks its file (docs/design/tiling.md).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_CODEGEN_TILING_TUNINGFILE_H
#define FUSECC_CODEGEN_TILING_TUNINGFILE_H

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Target/GPU/TargetInfo.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace fusecc::fuse {

/// Measured tile choices of one kernel (a `tuning-file` entry): the
/// tensor-core knobs, and the FMA path's threads per block and largest row
/// segment (0: the pass options).
struct TunedChoice {
  int64_t rows = 0, ciChunk = 0, tileC = 0;
  int64_t threads = 0, maxTileW = 0;
  int64_t warpsC = 0, mergeH = 0;
  /// 1: wgmma where the chip has it, -1: mma.sync (0: the default).
  int64_t wgmma = 0, wgmmaSplit = 0;
  /// Blocks per cluster of a channel softmax (0: the cost model).
  int64_t clusterC = 0;
  /// 1: mma.sync tiles with positions on M where they fit, -1: never (0:
  /// the cost model).
  int64_t positionsM = 0;
  /// wgmma blocks of the whole H phases of this many samples, -1 never (0:
  /// the cost model).
  int64_t samples = 0;
  /// wgmma warpgroups that share a block's W phases (`wgmmaPhaseSplit`): 2
  /// or 4 where they fit, -1 never (0: the cost model).
  int64_t phaseSplit = 0;
  /// wgmma blocks of a cluster that split the reduction of one tile
  /// (`clusterK`): 2, 4 or 8, -1 never (0: the cost model).
  int64_t clusterK = 0;
};

/// Reads a tuning file: {"base": B, "entries": [{"key": K, "rows": R,
/// "ci_chunk": C, "tile_c": T, "warps_c": C, "merge_h": M, "threads": N,
/// "max_tile_w": W, "wgmma": G, "wgmma_split": S, "cluster_c": L,
/// "positions_m": P, "samples": S, "phase_split": F, "cluster_k": K}, ...]}
/// (every knob optional; other members, e.g. the measured times, are
/// ignored). `base` (optional) names another tuning file, relative to this
/// one's directory, whose entries apply to the kernels this file does not
/// list (a device's file before its own measurements: tuning/h200.json on
/// tuning/h100.json); chains of at most `kMaxTuningBaseDepth` files. Emits
/// an error at `loc` for an unreadable or malformed file.
llvm::FailureOr<llvm::StringMap<TunedChoice>>
readTuningFile(mlir::Location loc, llvm::StringRef path);

/// The most files a chain of `base` members may have (a longer one is an
/// error: a cycle, most likely).
constexpr int kMaxTuningBaseDepth = 8;

/// The tuning file that `path` (a tuning-file option) names for `target`:
/// `path` itself where it is a file (or does not exist: reading it reports
/// that), or where it is a directory, its file for the target's device,
/// `<path>/<device>.json` (`tuning/h200.json` for `--device=h200`); empty
/// where the directory has none (every kernel is left to the cost model).
std::string resolveTuningFile(llvm::StringRef path, const TargetInfo &target);

/// Checks tensor-core knobs (from options, or from the entry of a tuning
/// file, named by `source`); emits the error at `op`.
llvm::LogicalResult checkTunedChoice(mlir::Operation *op, const TunedChoice &k,
                                     llvm::StringRef source = "");

/// The tuning-file entry that applies to `kernel` (its analysis `a`,
/// computing with `math`), or std::nullopt: its own entry, else, for a
/// kernel whose operands are bf16 / f16 on the tensor cores (a half graph,
/// or --precision=bf16|fp16) that has none, its TF32 twin's -- the entry
/// of the same layer and epilogue on f32 storage in tf32
/// (`KernelAnalysis::tuningKey` without the storage casts), measured where
/// no half entry was. Only a twin measured on wgmma (`wgmma: 1`) applies:
/// its rows, warpgroups, merged taps, output channels and cluster carry
/// over, and its channel chunk is scaled by the operand types' K (the
/// target's MMA shapes: 16 / 8), which keeps the round's 16-byte planes,
/// shared memory and wgmma count (`wgmmaPlanes`, docs/design/math.md). A
/// twin that chose mma.sync does not: there TF32 and half stage the same
/// f32 bytes, while half wgmma stages half of them, so the TF32 choice
/// between the paths says nothing of the half one's. A kernel on half
/// storage that computes in TF32 (`tensorCoreMath`: few input channels)
/// takes its twin's entry as it is, on either path: the same kernel, its
/// input loaded from 2-byte elements. `source` says which entry it was,
/// for diagnostics.
std::optional<TunedChoice>
lookupTunedChoice(const llvm::StringMap<TunedChoice> &tuned, KernelOp kernel,
                  const KernelAnalysis &a, ConvMath math, std::string &source);

/// The knobs of a kernel with a tuning-file `entry`: the `options` (the
/// pass options) where they are set (non-zero; threads and max-tile-w where
/// changed from their defaults), else the entry's.
TunedChoice mergeTunedChoice(const TunedChoice &options,
                             const TunedChoice &entry);

} // namespace fusecc::fuse

#endif // FUSECC_CODEGEN_TILING_TUNINGFILE_H
