//===- TileChoice.h - the tile cost model -----------------------*- C++ -*-===//
//
// The tile choice of a fused convolution kernel (`#fuse.tile<...>`): FP32
// FMA, mma.sync or wgmma tilings within the chip's limits, steered by the
// knobs of `fuse-tile-kernels` and the tuning file (TuningFile.h). The pass
// (lib/Dialect/Fuse/Transforms/TileKernels.cpp) calls `chooseTileConfig`
// for every convolution kernel.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_CODEGEN_TILING_TILECHOICE_H
#define FUSECC_CODEGEN_TILING_TILECHOICE_H

#include "fusecc/Codegen/Tiling/TuningFile.h"
#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Support/Options.h"

namespace fusecc::fuse {

/// Default of the `threads` option (Passes.td).
constexpr int64_t kDefaultThreads = 128;
/// Default of the `max-tile-w` option (Passes.td).
constexpr int64_t kDefaultMaxTileW = 128;
/// The largest `max-tile-w` (the cost model loops over tile widths up to it).
constexpr int64_t kMaxMaxTileW = 4096;

/// An upper bound on the last-dim length a convolution tile of W stride
/// `strideW` can hold whole (a fused layer_norm or softmax over the last
/// dim needs the whole row in one block): the longest any tiling (FMA,
/// mma.sync, wgmma) could take. fuse-form-kernels leaves a normalisation
/// over a longer row to a kernel of its own. Threads per block are
/// `target`'s.
int64_t maxTileRowWidth(const TargetInfo &target, int64_t strideW);

/// The math convolution kernel `a` runs: `math` (convMathFor), except that
/// bf16 / f16 math on storage of that half type whose groups have at most
/// one TF32 k-step of input channels (the target's mma.sync K for TF32: 8)
/// and whose input no prologue computes runs in TF32. Every bf16 and f16
/// value is a TF32 value (8 exponent bits, at least 10 significand bits),
/// so the products and the f32 accumulation
/// are those of the half math; but a half k-step (16) would stage and
/// multiply twice the zero-padded channels: kb2_50 (3 input channels, a
/// pooled epilogue) ran 1.11 ms in bf16 against 0.43 in TF32 on the H200
/// (docs/perf.md 166, 172).
ConvMath tensorCoreMath(const KernelAnalysis &a, ConvMath math,
                        mlir::Type storage);

/// The tile config of convolution kernel `kernel` (shape facts `a`) whose
/// math is `math` (convMathFor) on tensors stored as `storage`
/// (convStorageType; `pinnedIeee`: pinned to FP32 FMA by
/// kConvPrecisionAttrName): a wgmma tiling as `wgmma` allows (tf32 and
/// split operands), else an mma.sync one, for tf32, bf16 and f16 kernels
/// and for ieee ones with split operands as `ieeeTensorCores` allows; else
/// the FP32 FMA tiling. `rules` selects the cost model's rules (the older
/// set of TileRules::Session35 for A/B timing). The config carries the kernel's
/// element types (KernelTypesAttr::decide for the path taken). `knobs` are the
/// options merged with the kernel's tuning-file entry (checked). Emits why no
/// FMA tiling fits and fails.
llvm::FailureOr<TileConfigAttr>
chooseTileConfig(KernelOp kernel, const KernelAnalysis &a, ConvMath math,
                 mlir::Type storage, bool pinnedIeee, WgmmaMode wgmma,
                 IeeeTensorCores ieeeTensorCores, TileRules rules,
                 const TunedChoice &knobs);

} // namespace fusecc::fuse

#endif // FUSECC_CODEGEN_TILING_TILECHOICE_H
