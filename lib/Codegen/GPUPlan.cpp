//===- GPUPlan.cpp - GPU code generation plans of a kernel ----------------===//
//
// The shared-memory plan, launch geometry and wgmma re-layout plans of a
// tiled convolution kernel.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Codegen/GPUPlan.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <numeric>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

/// The plan with output-tile lines `tileStride` apart and the lines of
/// channels 4..7 (mod 8) `tileSkew` further.
/// compute-sanitizer's memcheck takes a wgmma operand as one span of 64
/// rows x 32 bytes from its start. Weight planes of fewer than 64 channels
/// (`wsPlaneStride` below 1 KB) make an A operand's footprint shorter; the
/// last stage's last one then ends up to 1 KB - 16 wsChannels short of
/// that span, past the staging: the allocation covers it (never read,
/// docs/perf.md 145). The elements an allocation must span for that (0
/// where nothing is needed).
static int64_t wgmmaOperandSpanElems(const SharedMemoryPlan &p,
                                     TileConfigAttr cfg) {
  if (!cfg.usesWgmma() || p.wsChannels >= 64)
    return 0;
  return saturatingAdd(saturatingMul(p.numStages, p.stageElems),
                       256 - 4 * p.wsChannels);
}

static SharedMemoryPlan planSharedMemory(const KernelAnalysis &a,
                                         TileConfigAttr cfg, int64_t tileStride,
                                         int64_t tileSkew) {
  SharedMemoryPlan p;
  const ConvGeometry &g = a.geom;
  p.tileStride = tileStride;
  p.tileSkew = tileSkew;
  p.tileElems = saturatingMul(
      saturatingMul(cfg.getRows(), tileLineChannels(g, cfg)), p.tileStride);
  p.numTiles = a.numTiles;
  p.inputSpan =
      saturatingAdd(cfg.getTileW() - 1, saturatingMul(g.k[2] - 1, g.dil[2])) /
          g.stride[2] +
      2;
  // Input rows whose length is a multiple of 4 are staged with 16-byte
  // loads: the staged window then starts at a multiple of 4 (up to 3 more
  // columns) and spans whole vectors.
  // A prologue with window ops is evaluated element by element (a window
  // reads its operand at every window position): scalar staging. An
  // elementwise one loads its inputs of the input's shape as vectors.
  // Not for blocks of samples, whose rows are staged from the first column
  // their taps read (`samplesInputSpan`), a multiple of 4 or not.
  p.vectorInput = g.in[2] % 4 == 0 && a.prologueIsElementwise() &&
                  !cfg.spansSamples();
  if (p.vectorInput)
    p.inputSpan =
        std::min<int64_t>(llvm::alignTo(p.inputSpan + 3, 4), kSaturated);
  else if (cfg.usesWgmma())
    p.inputSpan = std::min<int64_t>(llvm::alignTo(p.inputSpan, 4),
                                    kSaturated); // whole column quads
  // A warpgroup's consecutive rows as one wgmma N, where the accumulators
  // of all W phases fit those of one `kMaxRowsN` (split operands keep two
  // sets of accumulators: half of it): kernels of W stride 1, and short
  // rows of a larger W stride (a phase of at most 8 positions, N = 8),
  // whose rows would each issue an m64n8 that reads the whole weight
  // operand for 8 positions (dcgan_generator's 512 -> 256 layer, 4
  // positions a phase: 128 us, 34 TFLOP/s; docs/perf.md 156); in TF32,
  // phases of up to `kMaxStridedRowsPhaseN` positions, pooled epilogues
  // included (docs/perf.md 215); with half operands, phases of up to
  // `kMaxStridedRowsPhaseNHalf` (docs/perf.md 226), in rows as one N of up
  // to `kMaxRowsNHalfStrided` / stride (docs/perf.md 280).
  p.rowsN = 0;
  // Blocks of whole samples' phases (`samples`, one W tile) stage the
  // columns their taps read and no more: from the first tap's column of
  // position 0 to the last column of the row (`samplesInputSpan`). Each
  // warpgroup of a row split takes rows / split consecutive rows as its N.
  int64_t samplesBlockN = 0;
  if (cfg.spansSamples()) {
    p.inputSpan = samplesInputSpan(g);
    const int64_t ownRows = cfg.getRows() / cfg.getWgmmaRowSplit();
    const int64_t n =
        saturatingAdd(saturatingMul(ownRows - 1, p.inputSpan), cfg.getWgmmaN());
    if (n <= kMaxRowsN / g.stride[2])
      p.rowsN = n;
    samplesBlockN = saturatingAdd(saturatingMul(cfg.getRows() - 1, p.inputSpan),
                                  cfg.getWgmmaN());
  }
  // (Not for split operands, unmeasured there.)
  const int64_t phaseN = cfg.getWgmmaN();
  const bool tf32 = cfg.getMath() == ConvMath::TF32;
  const bool half = cfg.getTypes().usesHalfOperands();
  const bool shortStridedRows = g.stride[2] > 1 && cfg.getClusterC() == 1 &&
                                !cfg.usesSplitTF32() &&
                                ((phaseN == 8 && !a.wholeRow()) ||
                                 (tf32 && phaseN <= kMaxStridedRowsPhaseN) ||
                                 (half && phaseN <= kMaxStridedRowsPhaseNHalf));
  if (!cfg.spansSamples() && cfg.usesWgmma() &&
      (g.stride[2] == 1 || shortStridedRows) && cfg.getWgmmaRowSplit() == 1 &&
      cfg.getRows() > 1) {
    const int64_t span = llvm::alignTo(p.inputSpan, 8);
    const int64_t n =
        saturatingAdd(saturatingMul(cfg.getRows() - 1, span), cfg.getWgmmaN());
    // Half operands on half storage at a W stride > 1: up to the
    // accumulators of given rows (`kMaxRowsNHalfStrided`), past `kMaxRowsN`
    // only in tuned or forced tiles (heatmap_head's bf16 k2: 175 -> 126 us,
    // docs/perf.md 280). Not on f32 storage, whose epilogue's registers
    // then spill (its k2 at --precision=bf16: 168 registers, 16 bytes).
    const bool halfStorage =
        isa<BFloat16Type, Float16Type>(cfg.getTypes().getStorage());
    const int64_t limit =
        half && halfStorage && g.stride[2] > 1
            ? kMaxRowsNHalfStrided / g.stride[2]
            : kMaxRowsN / (cfg.usesSplitTF32() ? 2 : 1) / g.stride[2];
    if (n <= limit) {
      p.inputSpan = span;
      p.rowsN = n;
    }
  }

  // Strides = 8 (mod 32) make the tensor-core fragment loads (8 rows x 4
  // k-columns per warp) hit 32 distinct banks.
  auto conflictFree = [](int64_t n) -> int64_t {
    return n <= 8 ? 8
                  : std::min<int64_t>(llvm::alignTo(n - 8, 32) + 8, kSaturated);
  };
  p.xsRowStride = p.inputSpan;
  // (wgmma stages all of a block's channels, positions on M too.)
  p.subBlock = cfg.getThreadsC() * cfg.getChanPerThread();
  if (cfg.usesWgmma())
    p.subBlock = cfg.getTileC();
  else if (cfg.usesTensorCores())
    p.subBlock = cfg.mmaStagedChannels();
  // The valid H taps of a block's rows form a progression of at most
  // ceil(kh / step) taps; `hTaps` of them are staged per round.
  const int64_t hStep = g.stride[1] / std::gcd(g.stride[1], g.dil[1]);
  p.hInputStep = saturatingMul(hStep, g.dil[1]) / g.stride[1];
  auto layout = [&](int64_t hTaps) {
    p.hTapsPerRound = hTaps;
    p.stagedRows =
        saturatingAdd(cfg.getRows(), saturatingMul(hTaps - 1, p.hInputStep));
    if (cfg.usesWgmma()) {
      // Planes = 4 words (mod 32) apart: the 16-byte stores of 4 threads
      // with consecutive channel groups and 2 column quads then cover all
      // 32 banks. The wgmma descriptors need 16-byte multiples throughout.
      const int64_t groups = wgmmaPlanes(cfg);
      p.xsPlaneStride = saturatingAdd(
          std::min<int64_t>(
              llvm::alignTo(saturatingMul(4, p.inputSpan) - 4, 32), kSaturated),
          4);
      p.xsRowStride = saturatingMul(groups, p.xsPlaneStride);
      if (p.rowsN) {
        // Rows one after another in each plane: a warpgroup's rows are one
        // run of 16-byte columns. Blocks of samples read up to
        // `samplesOverread` columns past their last staged row (positions
        // past the row's end, never stored): zeroed columns of the plane.
        p.xsRowStride = 4 * p.inputSpan;
        // (The last warpgroup's N ends where the block's rows end.)
        p.xsPadCols =
            cfg.spansSamples()
                ? std::max<int64_t>(0, samplesBlockN + samplesOverread(g) -
                                           p.stagedRows * p.inputSpan)
                : 0;
        p.xsPlaneStride =
            llvm::alignTo(saturatingMul(p.stagedRows, p.xsRowStride) +
                              4 * p.xsPadCols - 4,
                          32) +
            4;
      }
      p.xsStride = 0;
      p.wsChannels = wgmmaImageChannels(g, cfg);
      p.wsPlaneStride = 4 * p.wsChannels;
      p.wsTapStride = saturatingMul(groups, p.wsPlaneStride);
      p.wsCiStride = 0;
      p.xsOffset = 0;
      // Both buffers' weight images start at a multiple of 128 bytes:
      // asynchronous 16-byte copies of 8 consecutive threads then fill one
      // 128-byte line (one shared-memory wavefront) rather than straddle
      // two (docs/perf.md section 84).
      // Split operands (tf32x3): the lo parts' areas follow the hi parts',
      // on 128-byte lines too.
      const int64_t parts = cfg.usesSplitTF32() ? 2 : 1;
      const int64_t xsArea = std::min<int64_t>(
          llvm::alignTo(p.rowsN ? saturatingMul(groups, p.xsPlaneStride)
                                : saturatingMul(p.stagedRows, p.xsRowStride),
                        32),
          kSaturated);
      p.wsPadOffset =
          saturatingMul(saturatingMul(hTaps, g.k[2]), p.wsTapStride);
      p.wsPadElems = 4 * (cfg.getTileC() - p.wsChannels);
      const int64_t wsArea = std::min<int64_t>(
          llvm::alignTo(saturatingAdd(p.wsPadOffset, p.wsPadElems), 32),
          kSaturated);
      p.xsLoOffset = parts > 1 ? xsArea : 0;
      p.wsOffset = saturatingMul(parts, xsArea);
      p.wsLoOffset = parts > 1 ? saturatingAdd(p.wsOffset, wsArea) : 0;
      p.stageElems = saturatingAdd(p.wsOffset, saturatingMul(parts, wsArea));
      p.numStages = 2;
    } else {
      p.xsStride = conflictFree(saturatingMul(p.stagedRows, p.inputSpan));
      p.wsCiStride =
          conflictFree(saturatingMul(saturatingMul(hTaps, g.k[2]), p.subBlock));
      p.xsOffset = 0;
      p.wsOffset = saturatingMul(cfg.getCiChunk(), p.xsStride);
      p.stageElems = saturatingAdd(
          p.wsOffset, saturatingMul(cfg.getCiChunk(), p.wsCiStride));
      p.numStages = 1;
    }
    int64_t staging = saturatingMul(p.numStages, p.stageElems);
    int64_t tiles = saturatingMul(p.numTiles, p.tileElems);
    // A pooled epilogue keeps every pass's tile where that fits two
    // blocks per SM (each window is then evaluated once, after the last
    // pass); otherwise it combines partial windows after each pass.
    p.poolSlots = 0;
    if (a.pool) {
      const int64_t passes =
          a.pool->passesFor(cfg.getRows(), g.stride[1]).count;
      const int64_t slotTiles = saturatingMul(passes, p.tileElems);
      if (saturatingMul(saturatingAdd(staging, slotTiles), 4) <=
          twoBlocksSharedBytes(a.target)) {
        p.poolSlots = passes;
        tiles = slotTiles;
      }
    }
    // With several channel sub-blocks, tiles are written while later
    // sub-blocks still stage (and kept pass tiles while later passes
    // stage): no aliasing then.
    bool alias = p.subBlock >= cfg.getTileC() && p.poolSlots == 0;
    p.tilesOffset = alias ? 0 : staging;
    p.statsOffset =
        alias ? std::max(staging, tiles) : saturatingAdd(staging, tiles);
    p.statsLen =
        saturatingMul(cfg.getRows(), std::max(cfg.getTileC(), cfg.getTileW()));
    p.statsArrays = cfg.getClusterC() > 1 ? 2 * cfg.getClusterC() + 1 : 2;
    p.totalElems =
        saturatingAdd(p.statsOffset,
                      saturatingMul(saturatingMul(p.statsArrays, p.statsLen),
                                    static_cast<int64_t>(a.reductions.size())));
    p.totalElems = std::max(p.totalElems, wgmmaOperandSpanElems(p, cfg));
    p.poolOffset = p.poolElems = 0;
    if (a.pool && p.poolSlots == 0) {
      p.poolOffset = p.totalElems;
      p.poolElems = saturatingMul(
          saturatingMul(
              a.pool->passesFor(cfg.getRows(), g.stride[1]).pooledRows,
              cfg.getTileC()),
          a.pool->out[2]);
      p.totalElems = saturatingAdd(p.totalElems, p.poolElems);
    }
  };
  // With `mergeHTaps`, tensor-core kernels stage all valid H taps of a
  // round at once (their input rows overlap: rows + taps - 1 rows instead
  // of rows x taps, and half the rounds and barriers for 2 taps) while two
  // blocks still fit an SM; otherwise one H tap per round. Measured mixed
  // (docs/perf.md section 24), so it is a tuning knob.
  int64_t maxH = llvm::divideCeil(g.k[1], hStep);
  layout(cfg.usesTensorCores() && cfg.getMergeHTaps() ? maxH : 1);
  if (p.hTapsPerRound > 1 && p.bytes() > twoBlocksSharedBytes(a.target))
    layout(1);
  return p;
}

int64_t fuse::samplesInputSpan(const ConvGeometry &g) {
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  const int64_t lo = llvm::divideFloorSigned(pw - (kw - 1) * dw, sw);
  const int64_t hi = llvm::divideFloorSigned(g.out[2] - 1 + pw, sw);
  return llvm::alignTo(std::max<int64_t>(1, hi - lo + 1), 8);
}

int64_t fuse::samplesOverread(const ConvGeometry &g) {
  // Tap t of phase p starts at column floor((p + pw - t dw) / sw) - lo:
  // at most floor((sw - 1 + pw) / sw) - lo.
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  const int64_t lo = llvm::divideFloorSigned(pw - (kw - 1) * dw, sw);
  return llvm::divideFloorSigned(sw - 1 + pw, sw) - lo + 4;
}

SharedMemoryPlan SharedMemoryPlan::get(const KernelAnalysis &a,
                                       TileConfigAttr cfg) {
  // An odd row stride keeps column walks (channel reductions) conflict-free.
  const int64_t tileW = cfg.getTileW();
  const int64_t oddStride = tileW % 2 == 0 ? tileW + 1 : tileW;
  SharedMemoryPlan plain = planSharedMemory(a, cfg, oddStride, 0);
  if (!cfg.usesWgmma() || a.needsWholeRow)
    return plain;
  // wgmma accumulator stores: a warp store writes channels c0 + 0..7
  // (lane / 4) at positions 2 (lane % 4) x W stride (+ a constant). No
  // single line stride spreads those over 32 banks (an odd one leaves
  // 2-way conflicts for W stride 2, 4-way for 1); lines of channels 4..7
  // (mod 8) shifted by a skew can, with the stride widened so that lines do
  // not overlap. Only where no reduction walks lines across channels (the
  // odd stride is for those), and only if the block keeps its shared-memory
  // class (docs/perf.md section 84).
  auto worstBank = [&](int64_t stride, int64_t skew) {
    std::array<int, 32> banks{};
    int worst = 0;
    for (int64_t ch = 0; ch < 8; ++ch)
      for (int64_t t = 0; t < 4; ++t) {
        int64_t addr = ch * stride + (ch / 4) * skew + 2 * t * a.geom.stride[2];
        worst = std::max(worst, ++banks[addr % 32]);
      }
    return worst;
  };
  auto scalarPlan = [&] {
    if (worstBank(oddStride, 0) == 1)
      return plain;
    for (int64_t stride = tileW; stride < tileW + 40; ++stride)
      for (int64_t skew = 0; tileW + skew <= stride; ++skew) {
        if (worstBank(stride, skew) != 1)
          continue;
        SharedMemoryPlan skewed = planSharedMemory(a, cfg, stride, skew);
        bool sameClass =
            skewed.bytes() <=
                std::max(plain.bytes(), twoBlocksSharedBytes(a.target)) &&
            skewed.hTapsPerRound == plain.hTapsPerRound;
        return sameClass ? skewed : plain;
      }
    return plain;
  };
  SharedMemoryPlan scalar = scalarPlan();
  // wgmma accumulators as runs of 2 sw positions (W stride sw <= 2), one
  // 8- or 16-byte store each: with lines 8 sw (mod 32) words apart the 16
  // (sw = 1) or 8 (sw = 2) lanes of one shared-memory phase cover 32
  // distinct banks, with a half or a quarter of the scalar stores' count
  // (docs/perf.md 147). Not for rows as one N. The block keeps at least
  // the scalar layout's shared memory (the bulk-store tile, sized from it,
  // still fits) and as many blocks per SM as that layout admits (kb2_26's
  // cost-model tiling, 4 rows of 32 positions, lost its fifth block to
  // 48-word lines and ran 13% slower, docs/perf.md 148).
  // Every W phase's wgmma N must be the same (the runs take one column
  // pair of each phase): phases of ceil((width - p) / sw) positions.
  const int64_t sw = a.geom.stride[2];
  const int64_t width = std::min(tileW, a.geom.out[2]);
  auto phaseN = [&](int64_t p) {
    const int64_t n = width > p ? llvm::divideCeil(width - p, sw) : 0;
    return std::clamp<int64_t>(llvm::alignTo(n, 8), 8, cfg.getWgmmaN());
  };
  if (sw <= 2 && phaseN(0) == phaseN(sw - 1) && !cfg.splitsPhases()) {
    int64_t stride = 8 * sw;
    while (stride < tileW)
      stride += 32;
    SharedMemoryPlan runs = planSharedMemory(a, cfg, stride, 0);
    runs.totalElems = std::max(runs.totalElems, scalar.totalElems);
    // Blocks per SM by shared memory alone: registers may admit more than
    // `residentBlocks`' thread bound (kb2_26: 96 registers, 5 blocks).
    auto bySharedMemory = [&](const SharedMemoryPlan &p) {
      return blocksBySharedMemory(a.target, p.bytes());
    };
    if (runs.rowsN == 0 && runs.tilesOffset % (2 * sw) == 0 &&
        runs.bytes() <=
            std::max(plain.bytes(), twoBlocksSharedBytes(a.target)) &&
        bySharedMemory(runs) >= bySharedMemory(scalar) &&
        runs.hTapsPerRound == plain.hTapsPerRound) {
      runs.accumulatorRuns = 2 * sw;
      return runs;
    }
  }
  return scalar;
}

SharedMemoryPlan SharedMemoryPlan::withoutTiles(TileConfigAttr cfg) const {
  SharedMemoryPlan p = *this;
  p.poolSlots = p.poolOffset = p.poolElems = 0;
  p.totalElems = saturatingMul(p.numStages, p.stageElems);
  p.tilesOffset = p.statsOffset = p.totalElems;
  p.totalElems = std::max(p.totalElems, wgmmaOperandSpanElems(p, cfg));
  return p;
}

SharedMemoryPlan SharedMemoryPlan::withHalfTile(TileConfigAttr cfg) const {
  assert(numTiles == 1 && poolSlots == 0 && poolElems == 0 &&
         "a half tile is the convolution's tile alone");
  SharedMemoryPlan p = *this;
  const int64_t staging = saturatingMul(p.numStages, p.stageElems);
  // Whole 16-byte units, as the f32 tile's lines are.
  p.tileElems = llvm::alignTo(llvm::divideCeil(p.tileElems, 2), 4);
  p.statsOffset = p.tilesOffset == 0
                      ? std::max(staging, p.tileElems)
                      : saturatingAdd(p.tilesOffset, p.tileElems);
  p.totalElems = std::max(p.statsOffset, wgmmaOperandSpanElems(p, cfg));
  return p;
}

int64_t fuse::residentBlocks(const TargetInfo &target, int64_t threads,
                             int64_t bytes) {
  return std::max<int64_t>(
      1, std::min<int64_t>(residentThreadsPerSM(target) / threads,
                           blocksBySharedMemory(target, bytes)));
}

/// `kernelRegisterEstimate` of a kernel with shared-memory plan `smem`.
static int64_t registerEstimate(const SharedMemoryPlan &smem) {
  if (smem.rowsN == 0 || smem.hTapsPerRound <= 1)
    return 0;
  return kMergedRowsNRegisters + smem.rowsN / 2;
}

int64_t fuse::kernelRegisterEstimate(const KernelAnalysis &a,
                                     TileConfigAttr cfg) {
  return registerEstimate(SharedMemoryPlan::get(a, cfg));
}

/// Fewest registers a thread of a wgmma kernel with positions on M is
/// budgeted: 512-thread blocks of 24-32 accumulators a thread (stride 8,
/// 21-32 channels) took 64 without spilling, two blocks per SM (ptxas at
/// `.minnctapersm 2`; 94-96 registers at 1).
constexpr int64_t kPositionsMMinRegisters = 64;

int64_t fuse::kernelResidentBlocks(const KernelAnalysis &a,
                                   TileConfigAttr cfg) {
  const LaunchPlan launch = LaunchPlan::get(a, cfg);
  const SharedMemoryPlan smem = SharedMemoryPlan::get(a, cfg);
  // Positions on M hold few accumulators (the block's channels / 2 a
  // phase): a budget of twice them, at least kPositionsMMinRegisters,
  // rather than kResidentRegistersPerThread.
  if (wgmmaPositionsOnM(cfg)) {
    const int64_t phases = a.geom.stride[2] / cfg.getWgmmaPhaseSplit();
    const int64_t accumulators = phases * wgmmaImageChannels(a.geom, cfg) / 2;
    const int64_t registers =
        std::max(kPositionsMMinRegisters,
                 static_cast<int64_t>(llvm::alignTo(2 * accumulators, 8)));
    return std::max<int64_t>(
        1, std::min({a.target.registersPerSM() / (registers * launch.threads),
                     a.target.maxThreadsPerSM() / launch.threads,
                     blocksBySharedMemory(a.target, smem.bytes())}));
  }
  int64_t blocks = residentBlocks(a.target, launch.threads, smem.bytes());
  // Registers are allocated in units of 8 per thread.
  if (int64_t registers = registerEstimate(smem))
    blocks =
        std::min(blocks, std::max<int64_t>(1, a.target.registersPerSM() /
                                                  (llvm::alignTo(registers, 8) *
                                                   launch.threads)));
  return blocks;
}

int64_t fuse::wgmmaChannelsPerPlane(TileConfigAttr cfg) {
  return cfg.getTypes().usesHalfOperands() ? 8 : 4;
}

int64_t fuse::wgmmaPlanes(TileConfigAttr cfg) {
  return llvm::divideCeil(cfg.getCiChunk(), wgmmaChannelsPerPlane(cfg));
}

int64_t fuse::wgmmaImageChannels(const ConvGeometry &g, TileConfigAttr cfg) {
  return std::min<int64_t>(cfg.getTileC(), llvm::alignTo(g.coutPerGroup(), 8));
}

bool fuse::wgmmaPositionsOnM(TileConfigAttr cfg) {
  return cfg.usesWgmma() && cfg.positionsOnM();
}

int64_t fuse::tileLineChannels(const ConvGeometry &g, TileConfigAttr cfg) {
  return wgmmaPositionsOnM(cfg) ? wgmmaImageChannels(g, cfg) : cfg.getTileC();
}

std::optional<WeightPackPlan> WeightPackPlan::get(const KernelAnalysis &a,
                                                  TileConfigAttr cfg) {
  if (!cfg.usesWgmma())
    return std::nullopt;
  const ConvGeometry &g = a.geom;
  WeightPackPlan p;
  p.numCTiles = llvm::divideCeil(g.coutPerGroup(), cfg.getTileC());
  p.kd = g.k[0];
  p.kh = g.k[1];
  p.numChunks = llvm::divideCeil(g.cinPerGroup(), cfg.getCiChunk());
  p.imageChannels = wgmmaImageChannels(g, cfg);
  p.imageElems = saturatingMul(saturatingMul(g.k[2], 4 * wgmmaPlanes(cfg)),
                               p.imageChannels);
  p.parts = cfg.usesSplitTF32() ? 2 : 1;
  p.totalElems = saturatingMul(
      saturatingMul(saturatingMul(saturatingMul(p.numCTiles, p.kd), p.kh),
                    p.numChunks),
      saturatingMul(p.parts, p.imageElems));
  return p;
}

/// Rows whose length is no multiple of 4 are staged element by element
/// (no 16-byte loads of a row): per staged word, one or two scalar loads,
/// a TF32 rounding or a half-pair pack and a shared-memory store, repeated
/// for every channel tile, tap round and W tile that stages the element
/// again. The re-layout does that work once per element (a pass over the
/// input and its packed copy) and leaves the main loop one 16-byte
/// asynchronous copy per column of 4 words, padding columns included. It
/// pays where the main loop stages at least the pass's elements and at
/// least a quarter of the staged window's columns lie in the input (rows
/// as one N widen the window to a multiple of 8 columns). Measured
/// (docs/perf.md 249): heatmap_head's k0 (rows of 6, 2048 -> 256
/// channels, ~9.6x the pass) 140 -> 80 us + 7 us for the pack in bf16, the
/// whole graph -12%; layers of rows 6, 7, 10, 14 (1.05-19x the pass) -4 to
/// -32%; a 1 x 1 input in a window of 12 columns (rand37_gen2's first
/// layer) 2% slower.
static bool narrowRowsRelayoutPays(const KernelAnalysis &a, TileConfigAttr cfg,
                                   const SharedMemoryPlan &smem,
                                   const LaunchPlan &launch, int64_t pass) {
  const ConvGeometry &g = a.geom;
  const int64_t columns = std::min(smem.inputSpan, g.in[2]);
  if (4 * columns < smem.inputSpan)
    return false;
  auto tapSteps = [&](int dim) {
    const int64_t step = g.stride[dim] / std::gcd(g.stride[dim], g.dil[dim]);
    return llvm::divideCeil(g.k[dim], step);
  };
  // Every block's rounds at their largest count (d taps, h rounds, its
  // channel chunks of a clusterK split), each staging the window's rows
  // and columns that lie in the input (a block of samples: each sample's
  // rows) for the chunk's channels.
  const int64_t dRounds = g.rank == 5 ? tapSteps(0) : 1;
  const int64_t hRounds = smem.hTapsPerRound > 1 ? 1 : tapSteps(1);
  const int64_t chunks = llvm::divideCeil(
      llvm::divideCeil(g.cinPerGroup(), cfg.getCiChunk()), cfg.getClusterK());
  const int64_t rows = std::min(
      smem.stagedRows,
      saturatingMul(g.in[1], cfg.spansSamples() ? cfg.getSamples() : 1));
  const int64_t perRound =
      saturatingMul(saturatingMul(rows, columns), cfg.getCiChunk());
  const int64_t staged =
      saturatingMul(saturatingMul(saturatingMul(launch.gridX, dRounds),
                                  saturatingMul(hRounds, chunks)),
                    perRound);
  return staged >= pass;
}

std::optional<InputPackPlan> InputPackPlan::get(const KernelAnalysis &a,
                                                TileConfigAttr cfg) {
  const ConvGeometry &g = a.geom;
  // A prologue is evaluated as the input is staged, not re-laid out.
  // Rows whose length is no multiple of 4 (narrow / odd rows: W = 6, 7,
  // 10, 14, ...) only where their element-by-element staging would be
  // repeated (`narrowRowsRelayoutPays`); one group, positions on N only
  // (unmeasured elsewhere).
  const bool narrowRows = g.in[2] % 4 != 0;
  if (!cfg.usesWgmma() || cfg.usesSplitTF32() || a.hasPrologue() ||
      (narrowRows && (g.groups != 1 || wgmmaPositionsOnM(cfg))))
    return std::nullopt;
  SharedMemoryPlan smem = SharedMemoryPlan::get(a, cfg);
  LaunchPlan launch = LaunchPlan::get(a, cfg);
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  // The staged window of W tile t starts at iwMin(t) (a multiple of 4
  // where the plan stages vectors) and spans inputSpan columns (as in the
  // kernel's emitRoundCount).
  auto iwMin = [&](int64_t t) {
    int64_t first =
        llvm::divideFloorSigned(t * cfg.getTileW() + pw - (kw - 1) * dw, sw);
    return smem.vectorInput ? llvm::divideFloorSigned(first, 4) * 4 : first;
  };
  InputPackPlan p;
  p.padL = std::max<int64_t>(0, -iwMin(0));
  int64_t end =
      std::max<int64_t>(g.in[2], iwMin(launch.numWTiles - 1) + smem.inputSpan);
  p.width = std::min<int64_t>(llvm::alignTo(saturatingAdd(p.padL, end), 4),
                              kSaturated);
  p.numChunks = llvm::divideCeil(g.cin, cfg.getCiChunk());
  p.groups = wgmmaPlanes(cfg);
  p.totalElems = saturatingMul(
      saturatingMul(
          saturatingMul(
              saturatingMul(saturatingMul(saturatingMul(g.n, g.in[0]), g.in[1]),
                            p.numChunks),
              p.groups),
          p.width),
      4);
  // Worth its extra pass over the input only where that pass (read the
  // input, write the packed copy) is small beside the output the kernel
  // must write anyway: at most 20% of it. Measured (docs/perf.md section
  // 48): 14-15% on kb1_77, kb2_20, kb2_34, kb2_49 (1-4% faster), 28% on
  // kb2_91 (7% slower). Half-operand kernels, which without the re-layout
  // pack their channel pairs as they stage the input, keep it up to 30%,
  // and always in 3-D: measured on the H200 (docs/perf.md 172), staging
  // through registers was faster on 1-D and 2-D layers whose input and
  // packed copy are 38% or more of the output (kb1_57 -17%, kb1_74 -23%,
  // kb2_19 -14%, kb2_16 / kb2_2 / kb2_5 -2 to -7%), slower at 20%
  // (bn_train2d +8%) and on 3-D layers (kb1_61 +19%, kb1_70 +12%,
  // decoder3d +7%, kb2_61 +2%).
  const int64_t inputElems = saturatingMul(
      saturatingMul(saturatingMul(saturatingMul(g.n, g.cin), g.in[0]), g.in[1]),
      g.in[2]);
  const int64_t outputElems = saturatingMul(
      saturatingMul(saturatingMul(saturatingMul(g.n, g.cout), g.out[0]),
                    g.out[1]),
      g.out[2]);
  const bool half = cfg.getTypes().usesHalfOperands();
  const int64_t pass = saturatingAdd(inputElems, p.totalElems);
  if (narrowRows)
    return narrowRowsRelayoutPays(a, cfg, smem, launch, pass)
               ? std::optional<InputPackPlan>(p)
               : std::nullopt;
  if (half && g.rank == 5)
    return p;
  if (half ? saturatingMul(10, pass) > saturatingMul(3, outputElems)
           : saturatingMul(5, pass) > outputElems)
    return std::nullopt;
  return p;
}

LaunchPlan LaunchPlan::get(const KernelAnalysis &a, TileConfigAttr cfg) {
  LaunchPlan l;
  const ConvGeometry &g = a.geom;
  l.numWTiles = llvm::divideCeil(a.rowWidth(), cfg.getTileW());
  l.numCTiles = llvm::divideCeil(g.cout, cfg.getTileC());
  l.threads = cfg.getThreadsW() * cfg.getThreadsC(); // 128 x wgmmaGroups
  if (a.pool) {
    // Blocks of `pooledRows` pooled rows at one pooled depth; each block
    // computes the convolution rows of its windows in passes.
    l.pooled = a.pool->passesFor(cfg.getRows(), g.stride[1]);
    l.numHBlocks = llvm::divideCeil(a.pool->out[1], l.pooled.pooledRows);
    l.gridX = saturatingMul(
        saturatingMul(
            saturatingMul(saturatingMul(l.numWTiles, l.numCTiles), g.n),
            a.pool->out[0]),
        l.numHBlocks);
    return l;
  }
  // Blocks along H: single rows, or groups of `rows` rows of one stride
  // phase (oh0 + r * stride_h); a group may run past the last row. Block
  // hb takes group hb / sh of phase hb % sh; later phases have no more rows
  // than earlier ones (ceil((H - p) / sh)), so the groups that would start
  // past the last row are the last block ids, and counting each phase's
  // groups leaves them out.
  // In closed form (no loop over the stride): with H = q sh + r, the first
  // r phases have q + 1 rows, the other sh - r phases (if q > 0) q rows.
  int64_t rows = cfg.getRows(), sh = g.stride[1];
  const int64_t q = g.out[1] / sh, r = g.out[1] % sh;
  l.numHBlocks = saturatingAdd(
      saturatingMul(r, llvm::divideCeil(q + 1, rows)),
      q > 0 ? saturatingMul(sh - r, llvm::divideCeil(q, rows)) : 0);
  // Blocks of `samples` samples: ceil(batch / samples) of them along the
  // batch (the last one may run past it).
  const int64_t batchBlocks =
      cfg.spansSamples() ? llvm::divideCeil(g.n, cfg.getSamples()) : g.n;
  l.gridX = saturatingMul(
      saturatingMul(
          saturatingMul(saturatingMul(l.numWTiles, l.numCTiles), batchBlocks),
          g.out[0]),
      l.numHBlocks);
  // A reduction split over clusters: clusterK blocks a tile.
  l.gridX = saturatingMul(l.gridX, cfg.getClusterK());
  return l;
}
