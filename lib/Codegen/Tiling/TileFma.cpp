//===- TileFma.cpp - The FMA tiling of the tile cost model ----------------===//
//
// The cost model's FP32 FMA tiling: threads along W and the channels,
// channels and positions per thread within the accumulator budget, and
// the sweep over block sizes and input-channel chunks that finds one that
// fits (the path every kernel can fall back to).
//
//===----------------------------------------------------------------------===//

#include "TileChoiceInternal.h"

#include "fusecc/Codegen/GPUPlan.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// The FMA-path config for blocks of `threads` threads; emits why none fits
/// only if `report`.
FailureOr<TileConfigAttr> chooseFMAConfig(KernelOp kernel,
                                          const KernelAnalysis &a,
                                          KernelTypesAttr types,
                                          int64_t maxTileW, int64_t threads,
                                          bool report,
                                          int64_t maxCiChunk = 16) {
  const ConvGeometry &g = a.geom;
  MLIRContext *ctx = kernel.getContext();
  // Threads along W: a multiple of the W stride, so that the positions a
  // thread owns (strided by threadsW) share one stride phase and one tap set.
  // Rows of one position at stride 1 (the convolution of output size 1
  // after box sums) take one: 16 would leave 15 of every 16 threads idle
  // (rand37_15's, 89 us for 28 M multiply-adds; docs/perf.md 184).
  int64_t sw = g.stride[2];
  int64_t threadsW = a.rowWidth() == 1 && sw == 1 ? 1 : llvm::alignTo(16, sw);
  if (threadsW > threads) {
    if (!report)
      return failure();
    return kernel.emitOpError("stride ")
           << sw << " along the last dim needs more than " << threads
           << " threads per block";
  }
  int64_t threadsCMax = threads / threadsW;

  // Channel sub-block: channels computed together; inside one group.
  int64_t cg = g.coutPerGroup();
  int64_t subTarget = g.groups == 1 ? std::min<int64_t>(g.cout, 64)
                                    : largestDivisorAtMost(cg, 64);
  int64_t threadsC = g.groups == 1
                         ? std::min(threadsCMax, subTarget)
                         : largestDivisorAtMost(subTarget, threadsCMax);
  // Warp shuffles in the reductions need whole warps.
  int64_t warpQuantum = 32 / std::gcd<int64_t>(threadsW, 32);
  if ((threadsW * threadsC) % 32 != 0) {
    if (g.groups == 1) {
      // Round up to whole warps, or down if that exceeds the budget.
      threadsC = threadsW * static_cast<int64_t>(
                                llvm::alignTo(threadsC, warpQuantum)) <=
                         threads
                     ? llvm::alignTo(threadsC, warpQuantum)
                     : std::max(warpQuantum,
                                static_cast<int64_t>(
                                    llvm::alignDown(threadsC, warpQuantum)));
    } else if (!a.reductions.empty()) {
      // A grouped sub-block cannot be padded with channels: whole warps
      // along W alone, threadsW a multiple of both the stride and 32.
      threadsW = std::lcm<int64_t>(sw, 32);
      if (threadsW > threads) {
        if (!report)
          return failure();
        return kernel.emitOpError("grouped convolution with stride ")
               << sw << " and a fused reduction needs " << threadsW
               << " threads along the last dim for whole warps (at most "
               << threads << ")";
      }
      threadsC = largestDivisorAtMost(subTarget, threads / threadsW);
    }
  }
  if (threadsW * threadsC > threads) {
    if (!report)
      return failure();
    return kernel.emitOpError("stride ")
           << sw << " along the last dim needs " << threadsW * threadsC
           << " threads per block for whole warps (at most " << threads << ")";
  }
  int64_t chanPerThread = llvm::divideCeil(subTarget, threadsC);
  int64_t subBlock = threadsC * chanPerThread;
  int64_t tileC =
      a.needsAllChannels ? llvm::alignTo(g.cout, subBlock) : subBlock;

  int64_t wo = a.rowWidth();
  int64_t posPerThread;
  if (a.wholeRow()) {
    posPerThread = llvm::divideCeil(wo, threadsW);
  } else {
    int64_t cap = tileC > 64 ? std::min<int64_t>(maxTileW, 64) : maxTileW;
    int64_t numTiles = llvm::divideCeil(wo, cap);
    posPerThread = llvm::divideCeil(llvm::divideCeil(wo, numTiles), threadsW);
  }
  std::optional<int64_t> accumulators = checkedMul(chanPerThread, posPerThread);
  if (!accumulators || *accumulators > kMaxAccumulators) {
    if (!report)
      return failure();
    return kernel.emitOpError("needs ")
           << (accumulators ? *accumulators
                            : std::numeric_limits<int64_t>::max())
           << " accumulators per thread for a last dim of " << wo
           << " (at most " << kMaxAccumulators
           << "); a reduction over this row needs a multi-kernel plan";
  }
  int64_t tileW = posPerThread * threadsW;
  int64_t ciChunk = std::min<int64_t>(g.cinPerGroup(), maxCiChunk);
  TileConfigFields f;
  f.tileW = tileW;
  f.tileC = tileC;
  f.threadsW = threadsW;
  f.threadsC = threadsC;
  f.chanPerThread = chanPerThread;
  f.ciChunk = ciChunk;
  f.types = types;
  TileConfigAttr cfg = f.getChecked(
      [&] { return report ? kernel.emitOpError() : InFlightDiagnostic(); },
      ctx);
  if (!cfg)
    return failure();
  if (failed(checkLimits(kernel, a, cfg, report)))
    return failure();
  return cfg;
}

} // namespace

FailureOr<TileConfigAttr> fuse::chooseFMAPathConfig(KernelOp kernel,
                                                    const KernelAnalysis &a,
                                                    KernelTypesAttr types,
                                                    int64_t maxTileW,
                                                    int64_t threads) {
  auto sweep = [&](int64_t maxCiChunk, bool report) {
    for (int64_t t = threads;; t *= 2) {
      bool last = t * 2 > a.target.maxThreadsPerBlock();
      FailureOr<TileConfigAttr> cfg =
          chooseFMAConfig(kernel, a, types, maxTileW, t,
                          /*report=*/report && last, maxCiChunk);
      if (succeeded(cfg) || last)
        return cfg;
    }
  };
  for (int64_t maxCiChunk : {16, 8, 4, 2, 1}) {
    if (maxCiChunk < 16 && a.geom.cinPerGroup() <= maxCiChunk)
      break;
    if (FailureOr<TileConfigAttr> cfg = sweep(maxCiChunk, /*report=*/false);
        succeeded(cfg))
      return cfg;
  }
  return sweep(16, /*report=*/true);
}
