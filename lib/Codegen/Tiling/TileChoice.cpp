//===- TileKernels.cpp - choose the block/thread mapping of kernels -------===//
//
// Implements `fuse-tile-kernels`: a small cost model picks, per fused kernel,
// the output tile of a block, the thread grid and the register micro-tile,
// within the limits that the kernel's reductions and the chip impose. The
// FMA and mma.sync tilings, the tuning file and the pass are here; the
// wgmma tiling is in TileWgmma.cpp.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Codegen/GPUPlan.h"
#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Dialect/Fuse/Transforms/Passes.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "TileChoiceInternal.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <numeric>

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSETILEKERNELS
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

int64_t fuse::positionsPerPhase(const KernelAnalysis &a, int64_t sw,
                                int64_t maxPositions, int64_t tileOverhead) {
  const int64_t perPhase = llvm::divideCeil(a.rowWidth(), sw);
  if (a.wholeRow())
    return llvm::alignTo(perPhase, 8);
  int64_t best = std::numeric_limits<int64_t>::max(), positions = 8;
  for (int64_t p = 8; p <= maxPositions; p += 8) {
    int64_t cost = llvm::divideCeil(perPhase, p) * (p + tileOverhead);
    if (cost < best)
      best = cost, positions = p;
  }
  return positions;
}

namespace {

/// Default of the `threads` option (Passes.td).
constexpr int64_t kDefaultThreads = 128;
/// The largest `max-tile-w` (the cost model loops over tile widths up to it).
constexpr int64_t kMaxMaxTileW = 4096;
/// Accumulators one thread may hold before registers spill.
constexpr int64_t kMaxAccumulators = 64;

/// The largest divisor of `n` that is at most `limit`.
int64_t largestDivisorAtMost(int64_t n, int64_t limit) {
  for (int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// True if `conv` is pinned to FP32 FMA (kConvPrecisionAttrName = "ieee");
/// emits an error and fails for any other value.
FailureOr<bool> isPinnedToIeee(ConvTransposeOp conv) {
  Attribute pin = conv->getAttr(kConvPrecisionAttrName);
  if (!pin)
    return false;
  auto name = dyn_cast<StringAttr>(pin);
  if (!name || name.getValue() != toString(Precision::IEEE)) {
    conv.emitOpError("expected '")
        << kConvPrecisionAttrName
        << "' to be \"ieee\" (the convolution pinned to FP32 FMA), got " << pin;
    return failure();
  }
  return true;
}

/// Checks the limits every config must meet: shared memory and grid size.
/// Emits the reason only if `report` (candidates that may fall back stay
/// silent).
LogicalResult checkLimits(KernelOp kernel, const KernelAnalysis &a,
                          TileConfigAttr cfg, bool report = true) {
  // A block of a grouped convolution computes channels of one group (its
  // inputs are that group's), unless it takes all channels. Only the
  // tensor-core tilings, checked silently, can miss this.
  const ConvGeometry &g = a.geom;
  if (g.groups > 1 && !a.needsAllChannels &&
      g.coutPerGroup() % cfg.getTileC() != 0) {
    assert(!report && "the FMA tiling keeps a grouped block in one group");
    return failure();
  }
  SharedMemoryPlan smem = SharedMemoryPlan::get(a, cfg);
  if (smem.bytes() > kMaxSharedBytes) {
    if (report)
      kernel.emitOpError("tile needs ")
          << smem.bytes() << " bytes of shared memory (at most "
          << kMaxSharedBytes << " on sm_90)";
    return failure();
  }
  LaunchPlan launch = LaunchPlan::get(a, cfg);
  if (launch.gridX > std::numeric_limits<int32_t>::max()) {
    if (report)
      kernel.emitOpError("needs ")
          << launch.gridX << " blocks, more than one launch can have ("
          << std::numeric_limits<int32_t>::max() << ")";
    return failure();
  }
  if (launch.threads < 1 || launch.threads > kMaxThreadsPerBlock) {
    if (report)
      kernel.emitOpError("needs ")
          << launch.threads << " threads per block (at most "
          << kMaxThreadsPerBlock << ")";
    return failure();
  }
  // Workspaces of the packed operands (wgmma): byte sizes must fit.
  int64_t packElems = 0;
  if (std::optional<WeightPackPlan> pack = WeightPackPlan::get(a, cfg))
    packElems = std::max(packElems, pack->totalElems);
  if (std::optional<InputPackPlan> ipack = InputPackPlan::get(a, cfg))
    packElems = std::max(packElems, ipack->totalElems);
  if (packElems >= kMaxTensorBytes / 4) {
    if (report)
      kernel.emitOpError("needs a packed-operand workspace of at least 2^62 "
                         "bytes");
    return failure();
  }
  return success();
}

/// `chooseMMAConfig` for a given number of channel warps.
TileConfigAttr chooseMMAConfigWithWarps(KernelOp kernel,
                                        const KernelAnalysis &a,
                                        StringRef precision, int64_t maxTileW,
                                        int64_t forcedRows,
                                        int64_t forcedCiChunk, int64_t mTiles,
                                        int64_t warpsC, int64_t mergeH) {
  const ConvGeometry &g = a.geom;
  int64_t sw = g.stride[2];
  int64_t tilesC = llvm::divideCeil(mTiles, warpsC);
  // A grouped block's channels are exactly one group's sub-block: rounded
  // up to whole warps they would reach into the next group's channels,
  // which read this group's inputs.
  if (tilesC > 4 || (g.groups > 1 && tilesC * warpsC != mTiles))
    return {};
  // Positions per phase: the whole row if a reduction needs it, else the
  // multiple of 8 that wastes least (plus a small per-tile overhead).
  int64_t positions = positionsPerPhase(
      a, sw, std::max<int64_t>(8, maxTileW / sw), /*tileOverhead=*/8);
  int64_t nTiles = positions / 8;
  int64_t warpsW = nTiles % 2 == 0 ? 2 : 1;
  int64_t tilesW = nTiles / warpsW;
  while (sw * warpsC * warpsW > 16 && warpsW > 1)
    warpsW /= 2, tilesW *= 2;
  if (sw * warpsC * warpsW * 32 > 1024 || tilesC * tilesW > 16)
    return {};
  int64_t tileW = sw * positions;
  // Rows of one H phase per block: each staged weight chunk then feeds
  // `rows` times the multiply-adds. Take the most rows that fit the
  // accumulator budget and keep two blocks per SM in shared memory.
  int64_t rowsNeeded = llvm::divideCeil(g.out[1], g.stride[1]);
  for (int64_t rows : {4, 2, 1}) {
    if (forcedRows && rows != forcedRows)
      continue;
    // Input channels per round: 16, or all of them (<= 32) at once when a
    // block has 4 rows, which halves the rounds and barriers (measured on
    // the H100: kb2_20 0.95 -> 0.78 ms, kb2_49 1.19 -> 1.02; with 2 rows
    // and 128 channels the larger staging was slower, see docs/perf.md).
    int64_t cin8 = llvm::alignTo(g.cinPerGroup(), 8);
    int64_t ciChunk = forcedCiChunk ? forcedCiChunk
                      : cin8 <= 8   ? 8
                      : rows == 4 && cin8 <= 32 ? cin8
                                                : 16;
    if (rows > 1 && (rows * tilesC * tilesW > 16 || rows > rowsNeeded))
      continue;
    // A round that holds every input channel and still fills few of its
    // k-steps (kb2_50: 3 channels in a chunk of 8) costs a barrier and a
    // staging per H tap for little work: stage a phase's H taps together.
    // Unforced, the cost model's tiling of kb2_50 went from 1.15x to 1.03x
    // its tuned time (docs/perf.md 102).
    const bool sparseRounds = g.cinPerGroup() < ciChunk && g.k[1] > g.stride[1];
    TileConfigAttr cfg = TileConfigAttr::getChecked(
        [&] { return kernel.emitOpError(); }, kernel.getContext(), tileW,
        int64_t{16} * warpsC * tilesC, /*threadsW=*/sw * 8,
        /*threadsC=*/warpsC * warpsW * 4, /*chanPerThread=*/int64_t{1}, ciChunk,
        precision, warpsC, warpsW, tilesC, tilesW, rows,
        mergeH ? mergeH : int64_t{sparseRounds},
        /*wgmmaN=*/int64_t{0}, /*wgmmaGroups=*/int64_t{0},
        /*clusterC=*/int64_t{1});
    if (!cfg)
      return {};
    if (rows == 1 || forcedRows ||
        SharedMemoryPlan::get(a, cfg).bytes() <= kTwoBlocksSharedBytes)
      return cfg;
  }
  return {};
}

/// Tensor-core (mma.sync m16n8k8 TF32) config: warps = W phases x channel
/// warps x position warps; each warp computes mmaTilesC x mmaTilesW tiles of
/// 16 channels x 8 positions of one phase. `precision` is "tf32", or
/// "tf32x3" for an ieee kernel with split operands (the same tiling).
/// Returns a null attribute when the kernel does not fit this scheme (then
/// the FMA path is used).
TileConfigAttr chooseMMAConfig(KernelOp kernel, const KernelAnalysis &a,
                               StringRef precision, int64_t maxTileW,
                               int64_t forcedRows, int64_t forcedCiChunk,
                               int64_t forcedTileC, int64_t forcedWarpsC,
                               int64_t mergeH) {
  const ConvGeometry &g = a.geom;
  // A block's channels must lie in one group, in whole 16-channel tiles.
  int64_t channels =
      a.needsAllChannels ? g.cout : std::min<int64_t>(g.coutPerGroup(), 64);
  if (g.groups > 1) {
    if (a.needsAllChannels || g.coutPerGroup() % 16 != 0)
      return {};
    channels = 16 * largestDivisorAtMost(g.coutPerGroup() / 16, 4);
  } else if (forcedTileC && !a.needsAllChannels) {
    channels = std::min(forcedTileC, g.cout);
  }
  int64_t mTiles = llvm::divideCeil(channels, 16);
  if (forcedWarpsC)
    return chooseMMAConfigWithWarps(kernel, a, precision, maxTileW, forcedRows,
                                    forcedCiChunk, mTiles,
                                    std::min(forcedWarpsC, mTiles), mergeH);
  // At most two 16-channel tiles per warp, so that rows fit in registers;
  // if that leaves a block one row only (many positions per warp), more
  // channel warps of one tile each, so that rows can share the weights.
  // Grouped: channel warps that divide the tiles (the next divisor up, and
  // the largest up to 4).
  int64_t warpsC = std::clamp<int64_t>(llvm::divideCeil(mTiles, 2), 1, 4);
  int64_t moreWarpsC = std::min<int64_t>(mTiles, 4);
  if (g.groups > 1) {
    while (mTiles % warpsC != 0)
      ++warpsC;
    moreWarpsC = largestDivisorAtMost(mTiles, 4);
  }
  TileConfigAttr cfg =
      chooseMMAConfigWithWarps(kernel, a, precision, maxTileW, forcedRows,
                               forcedCiChunk, mTiles, warpsC, mergeH);
  bool tryMore = !cfg || (cfg.getRows() == 1 && !forcedRows);
  if (tryMore && moreWarpsC > warpsC)
    if (TileConfigAttr alt =
            chooseMMAConfigWithWarps(kernel, a, precision, maxTileW, forcedRows,
                                     forcedCiChunk, mTiles, moreWarpsC, mergeH))
      if (!cfg || alt.getRows() > 1)
        return alt;
  return cfg;
}

/// Blocks a default (sm_90a) wgmma kernel needs: one per SM of an H100 SXM.
constexpr int64_t kWgmmaMinBlocks = 132;

/// Blocks an ieee kernel needs to take the split-operand tensor-core path
/// under `ieee-tensor-cores=auto`: one wave of an H100 as well; smaller
/// grids stay on FP32 FMA. On the 32 example layers the split path was
/// faster than FMA on all but kb2_50 and kb1_81 (docs/perf.md 95).
constexpr int64_t kSplitTF32MinBlocks = 132;

/// Input channels per group an ieee kernel needs for the split path under
/// `auto`: with fewer, most of each 8-deep k-step is padding, three times
/// over (kb2_50, cin = 3: 2.13 ms split against 1.22 ms FMA; kb2_74, cin =
/// 16: 0.49 against 0.65 ms, docs/perf.md 95).
constexpr int64_t kSplitTF32MinInputChannels = 16;

/// The FMA-path config for blocks of `threads` threads; emits why none fits
/// only if `report`.
FailureOr<TileConfigAttr> chooseFMAConfig(KernelOp kernel,
                                          const KernelAnalysis &a,
                                          StringRef precision, int64_t maxTileW,
                                          int64_t threads, bool report) {
  const ConvGeometry &g = a.geom;
  MLIRContext *ctx = kernel.getContext();
  // Threads along W: a multiple of the W stride, so that the positions a
  // thread owns (strided by threadsW) share one stride phase and one tap set.
  int64_t sw = g.stride[2];
  int64_t threadsW = llvm::alignTo(16, sw);
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
  int64_t tileC = a.needsAllChannels ? llvm::alignTo(g.cout, subBlock)
                                     : subBlock;

  int64_t wo = a.rowWidth();
  int64_t posPerThread;
  if (a.wholeRow()) {
    posPerThread = llvm::divideCeil(wo, threadsW);
  } else {
    int64_t cap = tileC > 64 ? std::min<int64_t>(maxTileW, 64) : maxTileW;
    int64_t numTiles = llvm::divideCeil(wo, cap);
    posPerThread =
        llvm::divideCeil(llvm::divideCeil(wo, numTiles), threadsW);
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
  int64_t ciChunk = std::min<int64_t>(g.cinPerGroup(), 16);
  auto cfg = TileConfigAttr::getChecked(
      [&] { return report ? kernel.emitOpError() : InFlightDiagnostic(); }, ctx,
      tileW, tileC, threadsW, threadsC, chanPerThread, ciChunk, precision,
      int64_t{0}, int64_t{0}, int64_t{0}, int64_t{0},
      /*rows=*/int64_t{1}, /*mergeHTaps=*/int64_t{0}, /*wgmmaN=*/int64_t{0},
      /*wgmmaGroups=*/int64_t{0}, /*clusterC=*/int64_t{1});
  if (!cfg)
    return failure();
  if (failed(checkLimits(kernel, a, cfg, report)))
    return failure();
  return cfg;
}

/// The FMA-path config: blocks of `threads` threads (the measured best
/// size, docs/perf.md) or, where the W stride, the accumulators of a
/// whole-row reduction or the shared memory need it, the smallest larger
/// power-of-two multiple up to 1024 (fewer channels and positions per
/// thread). The reason is reported for the largest block tried.
FailureOr<TileConfigAttr> chooseConfig(KernelOp kernel, const KernelAnalysis &a,
                                       StringRef precision, int64_t maxTileW,
                                       int64_t threads) {
  for (int64_t t = threads;; t *= 2) {
    bool last = t * 2 > 1024;
    FailureOr<TileConfigAttr> cfg =
        chooseFMAConfig(kernel, a, precision, maxTileW, t, /*report=*/last);
    if (succeeded(cfg) || last)
      return cfg;
  }
}

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
};

/// True if `wg`, a wgmma config of a pooled epilogue, combines partial
/// windows after every pass (its 64-channel pass tiles do not all fit
/// beside the staging buffers) while mma.sync's default config keeps every
/// pass's tile, which evaluates each window once: on the H100 the cost
/// model's wgmma choice ran kb2_50 (16 channels) in 1.75 ms against 0.43
/// for mma.sync with kept tiles, kb2_74 (32 channels) 0.32 against 0.25
/// (docs/perf.md 100).
bool keepsFewerPooledTiles(KernelOp kernel, const KernelAnalysis &a,
                           TileConfigAttr wg, StringRef precision,
                           const TunedChoice &knobs) {
  if (!a.pool || SharedMemoryPlan::get(a, wg).poolSlots > 0)
    return false;
  // mma.sync's own choice of rows, else fewer rows per pass.
  for (int64_t rows : {knobs.rows, int64_t(2), int64_t(1)}) {
    TileConfigAttr mma =
        chooseMMAConfig(kernel, a, precision, knobs.maxTileW, rows,
                        knobs.ciChunk, knobs.tileC, knobs.warpsC, knobs.mergeH);
    if (mma && succeeded(checkLimits(kernel, a, mma, /*report=*/false)) &&
        SharedMemoryPlan::get(a, mma).poolSlots > 0)
      return true;
    if (knobs.rows)
      break;
  }
  return false;
}


/// Reads a tuning file: {"entries": [{"key": K, "rows": R, "ci_chunk": C,
/// "tile_c": T, "warps_c": C, "merge_h": M, "threads": N, "max_tile_w": W},
/// ...]} (every
/// knob optional;
/// other members, e.g. the measured times, are ignored). Emits an error at
/// `loc` for an unreadable or malformed file.
FailureOr<llvm::StringMap<TunedChoice>> readTuningFile(Location loc,
                                                       StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return emitError(loc) << "fuse-tile-kernels: cannot read tuning file '"
                          << path << "': " << buffer.getError().message();
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return emitError(loc) << "fuse-tile-kernels: tuning file '" << path
                          << "' is not JSON: "
                          << llvm::toString(json.takeError());
  llvm::StringMap<TunedChoice> choices;
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *entries = root ? root->getArray("entries") : nullptr;
  if (!entries)
    return emitError(loc) << "fuse-tile-kernels: tuning file '" << path
                          << "' has no \"entries\" array";
  for (auto [i, value] : llvm::enumerate(*entries)) {
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<StringRef> key =
        entry ? entry->getString("key") : std::nullopt;
    if (!key)
      return emitError(loc) << "fuse-tile-kernels: tuning file '" << path
                            << "': entry " << i << " has no \"key\" string";
    TunedChoice c;
    for (auto [name, field] : {std::pair<StringRef, int64_t *>{"rows", &c.rows},
                               {"ci_chunk", &c.ciChunk},
                               {"tile_c", &c.tileC},
                               {"threads", &c.threads},
                               {"max_tile_w", &c.maxTileW},
                               {"warps_c", &c.warpsC},
                               {"merge_h", &c.mergeH},
                               {"wgmma", &c.wgmma},
                               {"wgmma_split", &c.wgmmaSplit},
                               {"cluster_c", &c.clusterC}})
      if (std::optional<int64_t> v = entry->getInteger(name))
        *field = *v;
    choices[*key] = c;
  }
  return choices;
}

struct TileKernelsPass
    : public fusecc::fuse::impl::FuseTileKernelsBase<TileKernelsPass> {
  using Base::Base;

  /// Checks tensor-core knobs (from options, or from the entry of a tuning
  /// file, named by `source`).
  static LogicalResult checkKnobs(Operation *op, const TunedChoice &k,
                                  StringRef source = "") {
    auto error = [&]() {
      InFlightDiagnostic d = op->emitError("fuse-tile-kernels: ");
      if (!source.empty())
        d << source << ": ";
      return d;
    };
    if (k.rows != 0 && k.rows != 1 && k.rows != 2 && k.rows != 4 && k.rows != 8)
      return error() << "rows must be 0 (auto), 1, 2, 4 or 8 (wgmma), got "
                     << k.rows;
    if (k.ciChunk < 0 || k.ciChunk % 8 != 0 || k.ciChunk > 64)
      return error() << "ci-chunk must be 0 (auto) or a multiple of 8 up to "
                        "64, got "
                     << k.ciChunk;
    if (k.tileC < 0 || k.tileC % 16 != 0 || k.tileC > 256)
      return error() << "tile-c must be 0 (auto) or a multiple of 16 up to "
                        "256, got "
                     << k.tileC;
    if (k.warpsC != 0 && k.warpsC != 1 && k.warpsC != 2 && k.warpsC != 4)
      return error() << "warps-c must be 0 (auto), 1, 2 or 4, got " << k.warpsC;
    if (k.mergeH != 0 && k.mergeH != 1)
      return error() << "merge-h-taps must be 0 or 1, got " << k.mergeH;
    if (k.threads && (k.threads < 32 || k.threads > 1024))
      return error() << "threads must be in [32, 1024], got " << k.threads;
    if (k.maxTileW && k.maxTileW < 8)
      return error() << "max-tile-w must be >= 8, got " << k.maxTileW;
    if (k.maxTileW > kMaxMaxTileW)
      return error() << "max-tile-w must be at most " << kMaxMaxTileW
                     << ", got " << k.maxTileW;
    if (k.wgmma < -1 || k.wgmma > 1)
      return error() << "wgmma must be -1 (mma.sync), 0 (default) or 1, got "
                     << k.wgmma;
    if (k.wgmmaSplit != 0 && k.wgmmaSplit != 1 && k.wgmmaSplit != 2 &&
        k.wgmmaSplit != 4)
      return error() << "wgmma-split must be 0 (auto), 1, 2 or 4, got "
                     << k.wgmmaSplit;
    if (k.clusterC != 0 && k.clusterC != 1 && k.clusterC != 2 &&
        k.clusterC != 4 && k.clusterC != 8)
      return error() << "cluster-c must be 0 (auto), 1, 2, 4 or 8, got "
                     << k.clusterC;
    return success();
  }

  void runOnOperation() override {
    if (failed(
            checkKnobs(getOperation(), {rows, ciChunk, tileC, 0, 0, warpsC,
                                        mergeHTaps, 0, wgmmaSplit, clusterC})))
      return signalPassFailure();
    if (maxTileW < 8 || threads < 32 || threads > 1024) {
      getOperation().emitError("fuse-tile-kernels: max-tile-w must be >= 8 "
                               "and threads in [32, 1024], got max-tile-w=")
          << static_cast<int64_t>(maxTileW) << " threads="
          << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    if (maxTileW > kMaxMaxTileW) {
      getOperation().emitError("fuse-tile-kernels: max-tile-w must be at most ")
          << kMaxMaxTileW << ", got " << static_cast<int64_t>(maxTileW);
      return signalPassFailure();
    }
    llvm::StringMap<TunedChoice> tuned;
    if (!tuningFile.empty()) {
      FailureOr<llvm::StringMap<TunedChoice>> read =
          readTuningFile(getOperation().getLoc(), tuningFile);
      if (failed(read))
        return signalPassFailure();
      tuned = std::move(*read);
    }
    WalkResult r = getOperation().walk([&](KernelOp kernel) {
      // Kernels without a convolution are laid out by fuse-plan-kernels.
      if (kernelKindOf(kernel) != KernelKind::Convolution)
        return WalkResult::advance();
      FailureOr<KernelAnalysis> a = KernelAnalysis::analyze(kernel);
      if (failed(a))
        return WalkResult::interrupt();
      // A convolution pinned to FP32 (kConvPrecisionAttrName: the small
      // convolution of fuse-reduce-through-conv) takes the FMA path in
      // every mode.
      FailureOr<bool> pinnedIeee = isPinnedToIeee(a->conv);
      if (failed(pinnedIeee))
        return WalkResult::interrupt();
      const Precision kernelPrecision =
          *pinnedIeee ? Precision::IEEE : static_cast<Precision>(precision);
      const StringRef precisionName = toString(kernelPrecision);
      const bool tf32 = kernelPrecision == Precision::TF32;
      // Options set on the command line win over measured choices.
      TunedChoice knobs{rows,   ciChunk,    tileC, threads,    maxTileW,
                        warpsC, mergeHTaps, 0,     wgmmaSplit, clusterC};
      auto it = tuned.find(a->tuningKey(kernel, precisionName));
      if (it != tuned.end()) {
        const TunedChoice &t = it->second;
        knobs.rows = knobs.rows ? knobs.rows : t.rows;
        knobs.ciChunk = knobs.ciChunk ? knobs.ciChunk : t.ciChunk;
        knobs.tileC = knobs.tileC ? knobs.tileC : t.tileC;
        knobs.warpsC = knobs.warpsC ? knobs.warpsC : t.warpsC;
        knobs.mergeH = knobs.mergeH ? knobs.mergeH : t.mergeH;
        knobs.wgmma = t.wgmma;
        knobs.wgmmaSplit = knobs.wgmmaSplit ? knobs.wgmmaSplit : t.wgmmaSplit;
        knobs.clusterC = knobs.clusterC ? knobs.clusterC : t.clusterC;
        // threads / max-tile-w always have values: the entry's win over the
        // defaults unless the options were changed from them.
        if (t.threads && threads == kDefaultThreads)
          knobs.threads = t.threads;
        if (t.maxTileW && maxTileW == kDefaultMaxTileW)
          knobs.maxTileW = t.maxTileW;
        std::string source =
            "tuning file '" + tuningFile + "' entry for this kernel";
        if (failed(checkKnobs(kernel, knobs, source)))
          return WalkResult::interrupt();
      }
      FailureOr<TileConfigAttr> cfg = failure();
      // The tensor cores run tf32 kernels, and ieee ones with split
      // operands (tf32x3) under ieee-tensor-cores: the same tilings, where
      // they fit (always) or where they fit and the grid fills an H100
      // once (auto); else FP32 FMA.
      const bool splitTF32 =
          !tf32 && !*pinnedIeee && ieeeTensorCores != IeeeTensorCores::Never;
      const StringRef tensorPrecision =
          tf32 ? StringRef("tf32") : StringRef(TileConfigAttr::kSplitTF32);
      auto gridAllows = [&](TileConfigAttr c) {
        return !splitTF32 || ieeeTensorCores == IeeeTensorCores::Always ||
               (LaunchPlan::get(*a, c).gridX >= kSplitTF32MinBlocks &&
                a->geom.cinPerGroup() >= kSplitTF32MinInputChannels);
      };
      // wgmma where the chip has it, unless a measurement chose mma.sync;
      // by default only for grids of at least one wave (below that the
      // weight re-layout's launch and workspace are not paid back: the
      // small variants' tf32 / ieee time fell from 1.31 to 0.96 on
      // mma.sync, docs/perf.md 56).
      if ((tf32 || splitTF32) && wgmma != WgmmaMode::Never && knobs.wgmma >= 0)
        if (TileConfigAttr wg = chooseWgmmaConfig(
                kernel, *a, tensorPrecision, knobs.maxTileW, knobs.rows,
                knobs.ciChunk, knobs.tileC, knobs.wgmmaSplit, knobs.mergeH,
                knobs.clusterC))
          if (succeeded(checkLimits(kernel, *a, wg, /*report=*/false)) &&
              (wgmma == WgmmaMode::Always || knobs.wgmma == 1 ||
               LaunchPlan::get(*a, wg).gridX >= kWgmmaMinBlocks) &&
              gridAllows(wg) &&
              !(wgmma == WgmmaMode::FillsGrid && knobs.wgmma == 0 &&
                keepsFewerPooledTiles(kernel, *a, wg, tensorPrecision, knobs)))
            cfg = wg;
      if ((tf32 || splitTF32) && failed(cfg))
        if (TileConfigAttr mma = chooseMMAConfig(
                kernel, *a, tensorPrecision, knobs.maxTileW, knobs.rows,
                knobs.ciChunk, knobs.tileC, knobs.warpsC, knobs.mergeH))
          if (succeeded(checkLimits(kernel, *a, mma, /*report=*/false)) &&
              gridAllows(mma))
            cfg = mma;
      // A pooled epilogue keeps its pass tiles where fewer rows per pass
      // allow it (each window evaluated once, see keepsFewerPooledTiles).
      if (succeeded(cfg) && a->pool && !knobs.rows && !cfg->usesWgmma() &&
          (cfg->getPrecision() == tensorPrecision) &&
          SharedMemoryPlan::get(*a, *cfg).poolSlots == 0)
        for (int64_t rows : {int64_t(2), int64_t(1)})
          if (TileConfigAttr mma = chooseMMAConfig(
                  kernel, *a, tensorPrecision, knobs.maxTileW, rows,
                  knobs.ciChunk, knobs.tileC, knobs.warpsC, knobs.mergeH))
            if (succeeded(checkLimits(kernel, *a, mma, /*report=*/false)) &&
                gridAllows(mma) &&
                SharedMemoryPlan::get(*a, mma).poolSlots > 0) {
              cfg = mma;
              break;
            }
      if (failed(cfg))
        cfg = chooseConfig(kernel, *a, precisionName, knobs.maxTileW,
                           knobs.threads);
      if (failed(cfg))
        return WalkResult::interrupt();
      kernel.setConfigAttr(*cfg);
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
