//===- TileChoice.cpp - the tile choice of a convolution kernel -----------===//
//
// The cost model of `fuse-tile-kernels`: per fused convolution kernel, the
// output tile of a block, the thread grid and the register micro-tile,
// within the limits that the kernel's reductions and the chip impose. The
// choice between the paths and the limits every config must meet are here;
// the FMA tiling is in TileFma.cpp, mma.sync in TileMma.cpp (positions on
// M in TilePositionsM.cpp), wgmma in TileWgmma.cpp (blocks of several
// samples in TileSamples.cpp), the tuning file in TuningFile.cpp.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Codegen/Tiling/TileChoice.h"
#include "fusecc/Codegen/GPUPlan.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "TileChoiceInternal.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

int64_t fuse::positionsPerPhase(const KernelAnalysis &a, int64_t sw,
                                int64_t maxPositions, int64_t tileOverhead,
                                int64_t quantum, bool preferLonger) {
  const int64_t perPhase = llvm::divideCeil(a.rowWidth(), sw);
  if (a.wholeRow())
    return llvm::alignTo(perPhase, quantum);
  int64_t best = std::numeric_limits<int64_t>::max(), positions = quantum;
  for (int64_t p = quantum; p <= maxPositions; p += quantum) {
    int64_t cost = llvm::divideCeil(perPhase, p) * (p + tileOverhead);
    if (cost < best || (preferLonger && cost == best))
      best = cost, positions = p;
  }
  return positions;
}

namespace {

/// Positions per W phase a tensor-core tile holds at most: 2 position warps
/// of at most 16 mma.sync tiles of 8, or a wgmma N of 256.
constexpr int64_t kMaxTensorCorePhasePositions = 256;
} // namespace

int64_t fuse::maxTileRowWidth(const TargetInfo &target, int64_t strideW) {
  // The FMA tiling: at most kMaxAccumulators positions per thread, threads
  // along W a multiple of the stride, of 32 at most (a grouped kernel's
  // whole warps), and of a block at most. The tensor-core tilings: whole
  // phases of at most kMaxTensorCorePhasePositions positions.
  const int64_t maxThreads = target.maxThreadsPerBlock();
  const int64_t sw = std::clamp<int64_t>(strideW, 1, maxThreads);
  const int64_t threadsW =
      std::min<int64_t>(std::lcm<int64_t>(sw, target.warpSize()), maxThreads);
  return std::max(kMaxAccumulators * threadsW,
                  kMaxTensorCorePhasePositions * sw);
}

int64_t fuse::largestDivisorAtMost(int64_t n, int64_t limit) {
  for (int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

TileConfigAttr fuse::makeConfig(KernelOp kernel, const TileConfigFields &f) {
  return f.getChecked([&] { return kernel.emitOpError(); },
                      kernel.getContext());
}

LogicalResult fuse::checkLimits(KernelOp kernel, const KernelAnalysis &a,
                                TileConfigAttr cfg, bool report) {
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
  if (smem.bytes() > a.target.sharedBytesPerBlock()) {
    if (report)
      kernel.emitOpError("tile needs ")
          << smem.bytes() << " bytes of shared memory (at most "
          << a.target.sharedBytesPerBlock() << " per block on "
          << a.target.describe() << ")";
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
  if (launch.threads < 1 || launch.threads > a.target.maxThreadsPerBlock()) {
    if (report)
      kernel.emitOpError("needs ")
          << launch.threads << " threads per block (at most "
          << a.target.maxThreadsPerBlock() << " on " << a.target.describe()
          << ")";
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

bool fuse::rowsShareNoTaps(const ConvGeometry &g) {
  return g.in[1] == 1 && g.out[1] > 1;
}

int64_t fuse::tapsPerPhase(const ConvGeometry &g) {
  int64_t taps = 1;
  for (int d = 0; d < 3; ++d) {
    const int64_t s = std::max<int64_t>(1, g.stride[d]);
    const int64_t step = s / std::gcd(s, std::max<int64_t>(1, g.dil[d]));
    taps = saturatingMul(taps, llvm::divideCeil(g.k[d], step));
  }
  return taps;
}

int64_t fuse::phasesWithTaps(const ConvGeometry &g, int64_t dim) {
  const int64_t s = std::max<int64_t>(1, g.stride[dim]);
  const int64_t step = s / std::gcd(s, std::max<int64_t>(1, g.dil[dim]));
  return std::max<int64_t>(1, std::min(g.k[dim], step));
}

namespace {

/// Products one output of `g` sums on average: its group's input channels
/// times the kernel's taps over the strides' phases (each tap of a dim
/// serves one of its stride's phases; borders ignored). A phase of a
/// stride larger than the kernel has no taps at all.
int64_t meanReductionPerOutput(const ConvGeometry &g) {
  int64_t taps = 1, phases = 1;
  for (int d = 0; d < 3; ++d) {
    taps = saturatingMul(taps, g.k[d]);
    phases = saturatingMul(phases, std::max<int64_t>(1, g.stride[d]));
  }
  return saturatingMul(g.cinPerGroup(), taps) / phases;
}

/// Blocks a default (sm_90a) wgmma kernel needs: one per SM of the target
/// (one wave), or as many as the kernel's mma.sync tiling has (see
/// chooseTileConfig).
int64_t wgmmaMinBlocks(const TargetInfo &target) { return target.numSMs(); }

/// Blocks an ieee kernel needs to take the split-operand tensor-core path
/// under `ieee-tensor-cores=auto`: one wave as well; smaller grids stay on
/// FP32 FMA. On the 32 example layers the split path was faster than FMA
/// on all but kb2_50 and kb1_81 (measured on the H100, docs/perf.md 95).
int64_t splitTF32MinBlocks(const TargetInfo &target) { return target.numSMs(); }

/// Input channels per group an ieee kernel needs for the split path under
/// `auto`: with fewer, most of each 8-deep k-step is padding, three times
/// over (kb2_50, cin = 3: 2.13 ms split against 1.22 ms FMA; kb2_74, cin =
/// 16: 0.49 against 0.65 ms, docs/perf.md 95).
constexpr int64_t kSplitTF32MinInputChannels = 16;

/// Mean products per output from which a layer of few output channels
/// takes wgmma (fewChannelsForWgmma).
constexpr int64_t kFewChannelsWgmmaMinReduction = 1024;

/// Mean products per output below which a layer of at most half the wgmma
/// M in output channels takes mma.sync (fewChannelsForWgmma).
constexpr int64_t kTinyReductionMaxProducts = 32;

/// Mean products per output from which a layer of few output channels
/// with half operands takes wgmma (fewChannelsForWgmma): two rounds of the
/// wgmma tiling's 32 half channels (TileWgmma.cpp's scaled chunk), so that
/// an output's reduction has a next round for the pipeline to load.
constexpr int64_t kFewChannelsWgmmaMinReductionHalf = 64;

/// Input channels per group from which that rule applies: four rounds of
/// 32 half channels for every tap.
constexpr int64_t kFewChannelsWgmmaMinInputsHalf = 128;

/// True if the wgmma instruction's M (64 output channels for every operand
/// type) would be at most a quarter full: a convolution of one group with
/// at most 16 output channels (a DCGAN or decoder's RGB layer, 3 channels)
/// then issues at least 4 times its multiply-adds on wgmma (21 times at 3
/// channels), against at most 5.3 times on mma.sync's M of 16. Such a layer
/// is staging-bound on either path, but the wgmma one also pays the weight
/// re-layout: dcgan_generator's 64 -> 3 layer took 59.5 us on wgmma on the
/// H200 (docs/perf.md 156), ~12x its memory floor. mma.sync by default;
/// a tuning entry (`"wgmma": 1`) or wgmma=always still picks wgmma.
/// Not where the kernel has a prologue: its input is staged through the
/// prologue on either path (no input re-layout on wgmma), and the wgmma
/// main loop loads a round ahead while mma.sync's staging waits: the RGB
/// layers of vae_decoder (upsample folded) and unet_decoder (concat
/// folded) took 0.160 / 0.107 ms on wgmma against 0.327 / 0.186 on
/// mma.sync with batched staging (H200, docs/perf.md 171). Split-operand
/// (ieee) kernels were not measured so and keep mma.sync.
/// Nor where an output sums at least kFewChannelsWgmmaMinReduction
/// products on average (`meanReductionPerOutput`): the main loop, which
/// wgmma pipelines, then outweighs the re-layout and the fuller M. Issue
/// 37's rand37_63 (192 -> 3 channels, 15 taps at stride 2: 1440 products
/// an output) ran 2.50 ms on mma.sync against 2.02 on wgmma; rand37_40
/// (384 -> 3, 5 x 4 x 1 taps at strides 3 x 3 x 4: 213 on average, up to
/// 1536 in a phase, three of four W phases empty) 13.8 against 23.3;
/// dcgan's RGB layer sums 256 (H200, docs/perf.md 179, 185).
/// Also (TF32 operands) a layer of at most half the wgmma M in output
/// channels, a channel reduction's too, whose outputs each sum fewer than
/// kTinyReductionMaxProducts products on average: such a kernel is bound
/// by its stores and staging, which mma.sync's fuller M and smaller tiles
/// serve better. Issue 37's held-out layers (seed 41, docs/perf.md 191):
/// fitted on rand41_42 (4 -> 24 channels, 7 products an output, wgmma
/// 0.78 ms, mma.sync 0.62) and rand41_57 (24 -> 32, 9: 1.54 / 1.36), bounded
/// by rand41_82 (24 -> 32, 42 products: wgmma 11% faster); held out
/// rand41_50 (4 -> 32, 21: 1.53 / 1.32), rand41_86 (4 -> 32, 5: -10%),
/// rand41_59 (32 -> 24, 64: wgmma 17% faster, unchanged) and rand41_83 (a
/// log-softmax over 4 channels, 12: 0.53 / 0.20); on seed 37 rand37_99
/// (4 -> 32, 3: 1.06 / 0.94 ms) but rand37_30 (3-D, 32 -> 24, 24: 1.34 /
/// 1.43, the one changed layer that lost; H200).
/// Half operands from kFewChannelsWgmmaMinReductionHalf products an output
/// take wgmma: there the two paths' rounds differ. mma.sync's half rounds
/// hold one k16 step of 16 channels (two k-steps' fragments outgrow the
/// registers, TileMma.cpp), staged and waited for in turn, while wgmma's
/// take 32 channels (two k-steps) loaded a round ahead: half the rounds
/// and barriers, pipelined. In TF32 both paths' rounds are 16 channels,
/// and mma.sync's fuller M wins up to kFewChannelsWgmmaMinReduction.
/// Fitted on issue 37's bf16 held-out record of seed 44 (docs/perf.md 295,
/// 313): rand44_0 (32 -> 4, 96 products an output: wgmma 0.78 of
/// mma.sync's time), rand44_20 (32 -> 4, 224: 0.70), rand44_51 (64 -> 4,
/// 448: 0.56), rand44_79 (96 -> 16, 64: 0.98); on wgmma their TF32 twins
/// took 1.01-1.22 of the best mma.sync tile's time (docs/perf.md 253).
/// Held out on seed 45 (314): 6 layers 0.42-0.84, one 1.05. Only from
/// kFewChannelsWgmmaMinInputsHalf input channels: the A/B of every bundle
/// the rule changed (316) ran the layers of 128-384 input channels at
/// 0.54-0.87 of their time (rand37_88, 40, 5, 79), while those of 16-96
/// were mixed: 0.62-0.93 on 9, but 1.02-1.16 on the generators' RGB
/// layers (k4 s2, 16-64 channels; onnx_dcgan +13%, dcgan_generator's RGB
/// kernel +10%), rand37_44 +11%, rand37_36 +2%: their input re-layout
/// and 4x-empty M weigh against fewer rounds.
/// `--tile-rules=session42` keeps mma.sync.
bool fewChannelsForWgmma(const KernelAnalysis &a, KernelTypesAttr types,
                         TileRules rules) {
  const Type operandType = types.getOperand();
  if (a.hasPrologue() && !types.usesSplitTF32())
    return false;
  if (rules != TileRules::Session35 && !types.usesSplitTF32() &&
      meanReductionPerOutput(a.geom) >= kFewChannelsWgmmaMinReduction)
    return false;
  if (rulesSince(rules, TileRules::Current) && types.usesHalfOperands() &&
      a.geom.cinPerGroup() >= kFewChannelsWgmmaMinInputsHalf &&
      meanReductionPerOutput(a.geom) >= kFewChannelsWgmmaMinReductionHalf)
    return false;
  // The wgmma tiling's M (chooseWgmmaConfig: 64-channel groups) where the
  // target description names no wgmma shape (a module without
  // #fuse.target, wgmma forced).
  std::optional<MmaShape> wg = a.target.wgmmaShape(operandType);
  std::optional<MmaShape> mma = a.target.mmaShape(operandType);
  const int64_t wgM = wg ? wg->m : 64;
  if (rulesSince(rules, TileRules::Session37) && mma && a.geom.groups == 1 &&
      isa<FloatTF32Type>(operandType) && !types.usesSplitTF32() &&
      a.geom.cout <= wgM / 2 &&
      meanReductionPerOutput(a.geom) < kTinyReductionMaxProducts)
    return true;
  return mma && a.geom.groups == 1 && !a.needsAllChannels &&
         a.geom.cout <= std::max<int64_t>(mma->m, wgM / 4);
}

/// Output channels per group up to which a pooled epilogue prefers
/// mma.sync's kept tiles to a wgmma config combining partial windows (the
/// wgmma M of 64 at most half full): kb2_50 (16) and kb2_74 (32) below;
/// issue 37's rand37_92 (192 channels, 4 x 4 taps at stride 2) ran its
/// mma.sync kept tiles in 2.39 ms against 1.14 on wgmma (docs/perf.md 169).
constexpr int64_t kPooledMMAMaxChannels = 32;

/// True if `wg`, a wgmma config of a pooled epilogue of at most
/// kPooledMMAMaxChannels output channels per group, combines partial
/// windows after every pass (its 64-channel pass tiles do not all fit
/// beside the staging buffers) while mma.sync's default config keeps every
/// pass's tile, which evaluates each window once: on the H100 the cost
/// model's wgmma choice ran kb2_50 (16 channels) in 1.75 ms against 0.43
/// for mma.sync with kept tiles, kb2_74 (32 channels) 0.32 against 0.25
/// (docs/perf.md 100).
bool keepsFewerPooledTiles(KernelOp kernel, const KernelAnalysis &a,
                           TileConfigAttr wg, KernelTypesAttr types,
                           const TunedChoice &knobs, TileRules rules) {
  if (!a.pool || a.geom.coutPerGroup() > kPooledMMAMaxChannels ||
      SharedMemoryPlan::get(a, wg).poolSlots > 0)
    return false;
  // mma.sync's own choice of rows, else fewer rows per pass.
  for (int64_t rows : {knobs.rows, int64_t(2), int64_t(1)}) {
    TileConfigAttr mma =
        chooseMMAConfig(kernel, a, types, knobs.maxTileW, rows, knobs.ciChunk,
                        knobs.tileC, knobs.warpsC, knobs.mergeH, rules);
    if (mma && succeeded(checkLimits(kernel, a, mma, /*report=*/false)) &&
        SharedMemoryPlan::get(a, mma).poolSlots > 0)
      return true;
    if (knobs.rows)
      break;
  }
  return false;
}
/// Whether every user of `kernel`'s result is a set-reduction kernel
/// (`KernelKind::Reduction`: sum, mean, amax, ... over whole dims), which
/// fuse-plan-kernels then makes read only the statistics `kernel` builds
/// per block (`KernelPlan::statsOnly`).
bool feedsOnlyReductions(KernelOp kernel) {
  bool any = false;
  for (mlir::Operation *user : kernel->getUsers()) {
    auto k = llvm::dyn_cast<KernelOp>(user);
    if (!k || kernelKindOf(k) != KernelKind::Reduction)
      return false;
    any = true;
  }
  return any;
}
/// `wg`, the cost model's wgmma config, or, where it holds one row in one
/// warpgroup per 64 channels, two warpgroups of one row each on the same
/// channels (`--tile-wgmma-split=2`): each staged weight chunk then serves
/// two rows. Two cases:
/// - N = 16 at a W stride of 8 or more (every W phase's accumulators in one
///   warpgroup bound N): issue 37's rand37_7 (150 -> 150 channels, 16 x 16
///   taps at stride 8) 22.04 -> 15.55 ms (docs/perf.md 169);
/// - a kernel whose output only set reductions read (`feedsOnlyReductions`:
///   planned stats-only, it stores partial statistics, not its output), so
///   that its main loop, not its stores, bounds it: one row's tile is what
///   the accumulator budget leaves (N 64 at W stride 2), and two rows halve
///   the weights staged per output. Fitted on seed 43's held-out
///   pool_reduce layers (rand43_41, rand43_5, rand43_97: 0.82-0.93 of their
///   time); on layers that store their output (rand43_76, rand44_8,
///   rand43_95: 0.99-1.04) it gains nothing (docs/perf.md 296).
///   `--tile-rules=session42` keeps one row.
/// Only unforced, on full-precision operands, and where the grid still
/// fills the chip.
TileConfigAttr withSplitRows(KernelOp kernel, const KernelAnalysis &a,
                             KernelTypesAttr types, const TunedChoice &knobs,
                             TileConfigAttr wg, TileRules rules) {
  if (!wg || knobs.rows || knobs.ciChunk || knobs.tileC || knobs.wgmmaSplit ||
      knobs.mergeH || knobs.clusterC || knobs.wgmma || a.needsAllChannels ||
      types.usesSplitTF32() || wg.getRows() != 1 ||
      wg.getWgmmaGroups() != wg.getTileC() / 64)
    return wg;
  const bool largeStride = a.geom.stride[2] >= 8 && wg.getWgmmaN() == 16;
  const bool statsOnly =
      rulesSince(rules, TileRules::Current) && feedsOnlyReductions(kernel);
  if (!largeStride && !statsOnly)
    return wg;
  TileConfigAttr two = chooseWgmmaConfig(kernel, a, types, knobs.maxTileW, 0, 0,
                                         0, /*forcedSplit=*/2, 0, 0, rules);
  if (!two || two.getRows() != 2 || two.getWgmmaN() != wg.getWgmmaN() ||
      two.getTileC() != wg.getTileC() ||
      failed(checkLimits(kernel, a, two, /*report=*/false)) ||
      LaunchPlan::get(a, two).gridX < wgmmaMinBlocks(a.target))
    return wg;
  return two;
}
/// `wg`, the cost model's wgmma config, or, where it holds one row of half
/// operands in one warpgroup at a W stride some of whose phases have no
/// tap (a kernel shorter than the stride, or dilated: `phasesWithTaps`),
/// the longer tile whose N counts only the phases with a tap (the config of
/// `--tile-rows=1`). Phases without a tap hold no accumulators and issue
/// no wgmma, so the longer tile holds as many accumulator registers as the
/// default one and each staged weight serves twice (or more) the
/// positions; only where its blocks an SM are not fewer. (Counting the
/// phases with taps for every unforced tile also took more rows, at half
/// the blocks an SM: 3-92% slower on 11 of 18 kernels, docs/perf.md 220.)
/// Fitted on issue 37's bf16 held-out layers of seed 44 (docs/perf.md
/// 313): rand44_42 (1-D, 512 -> 192, 10 taps at stride 4, dilation 2: N
/// 40 -> 80) 0.67 of its time, rand44_8 (3-D, stride 4, dilation 2: N 32
/// -> 64) 0.86, rand44_24 (2-D, stride 2, dilation 2: N 80 -> 104) 0.83.
/// TF32 operands keep the default tile (unmeasured); `--tile-rules=
/// session42` too.
TileConfigAttr withTapPhasesN(KernelOp kernel, const KernelAnalysis &a,
                              KernelTypesAttr types, const TunedChoice &knobs,
                              TileConfigAttr wg, TileRules rules) {
  if (!wg || !rulesSince(rules, TileRules::Current) ||
      !types.usesHalfOperands() || knobs.rows || knobs.ciChunk || knobs.tileC ||
      knobs.wgmmaSplit || knobs.mergeH || knobs.clusterC || knobs.wgmma ||
      knobs.maxTileW != kDefaultMaxTileW || a.needsAllChannels ||
      a.wholeRow() || wg.getRows() != 1 || wg.getWgmmaGroups() != 1 ||
      wg.getTileC() != 64 || phasesWithTaps(a.geom, 2) >= a.geom.stride[2])
    return wg;
  TileConfigAttr longer = chooseWgmmaConfig(
      kernel, a, types, knobs.maxTileW, /*forcedRows=*/1, 0, 0, 0, 0, 0, rules);
  if (!longer || longer.getRows() != 1 || longer.getWgmmaGroups() != 1 ||
      longer.getTileC() != wg.getTileC() ||
      longer.getWgmmaN() <= wg.getWgmmaN() ||
      longer.getMergeHTaps() != wg.getMergeHTaps() ||
      failed(checkLimits(kernel, a, longer, /*report=*/false)) ||
      kernelResidentBlocks(a, longer) < kernelResidentBlocks(a, wg) ||
      LaunchPlan::get(a, longer).gridX < wgmmaMinBlocks(a.target))
    return wg;
  return longer;
}
} // namespace

ConvMath fuse::tensorCoreMath(const KernelAnalysis &a, ConvMath math,
                              Type storage) {
  const bool halfStorage = (math == ConvMath::BF16 && storage.isBF16()) ||
                           (math == ConvMath::F16 && storage.isF16());
  std::optional<MmaShape> tf32 =
      a.target.mmaShape(FloatTF32Type::get(storage.getContext()));
  // A prologue's f32 result would be rounded to TF32, not to the half
  // type the graph holds it in: such kernels keep the half math.
  if (halfStorage && tf32 && !a.hasPrologue() &&
      a.geom.cinPerGroup() <= tf32->k)
    return ConvMath::TF32;
  return math;
}

FailureOr<TileConfigAttr>
fuse::chooseTileConfig(KernelOp kernel, const KernelAnalysis &a, ConvMath math,
                       Type storage, bool pinnedIeee, WgmmaMode wgmma,
                       IeeeTensorCores ieeeTensorCores, TileRules rules,
                       const TunedChoice &knobs) {
  const bool tf32 = math == ConvMath::TF32;
  // bf16 / f16 operands on mma.sync m16n8k16 (not yet on wgmma).
  const bool half = math == ConvMath::BF16 || math == ConvMath::F16;
  FailureOr<TileConfigAttr> cfg = failure();
  // The tensor cores run tf32 kernels, and ieee ones with split
  // operands (tf32x3) under ieee-tensor-cores: the same tilings, where
  // they fit (always) or where they fit and the grid fills the target's
  // SMs once (auto); else FP32 FMA.
  const bool splitTF32 = math == ConvMath::IEEE && !pinnedIeee &&
                         ieeeTensorCores != IeeeTensorCores::Never;
  // The kernel's element types on the tensor cores and on the FMA units
  // (KernelTypesAttr::decide: the operand type is the path's).
  MLIRContext *ctx = kernel.getContext();
  const KernelTypesAttr tensorTypes = KernelTypesAttr::decide(
      ctx, half ? math : tf32 ? ConvMath::TF32 : ConvMath::TF32x3, storage,
      /*tensorCores=*/true);
  const KernelTypesAttr fmaTypes =
      KernelTypesAttr::decide(ctx, math, storage, /*tensorCores=*/false);
  auto gridAllows = [&](TileConfigAttr c) {
    return !splitTF32 || ieeeTensorCores == IeeeTensorCores::Always ||
           (LaunchPlan::get(a, c).gridX >= splitTF32MinBlocks(a.target) &&
            a.geom.cinPerGroup() >= kSplitTF32MinInputChannels);
  };
  // mma.sync: the cost model's channel tile, then narrower ones where that
  // one does not fit the chip's limits (many taps per phase: rand37_61's
  // 64-tap stride-32 layer stages 64 channels' weights past shared memory
  // and fell back to FMA at 3% of the tensor-core time, docs/perf.md 163).
  // At W strides that leave the default tile 8 positions per phase, a
  // block of one row stages every phase's weights for those 8 positions:
  // the longest of 64, 32 and 16 positions per phase that fits comes first
  // (mmaChannelTiles below; issue 37's rand37_61, 1-D stride 32 kernel 64,
  // 5.06 ms at 8 positions, 2.70 / 1.58 / 1.24 at 16 / 32 / 64;
  // rand37_98, 2-D stride 32, 21.7 ms -> 12.6 / 8.4 at 16 / 32,
  // docs/perf.md 169).
  auto mmaChannelTiles = [&](int64_t maxTileW) -> std::optional<
                                                   TileConfigAttr> {
    for (int64_t tileC : {knobs.tileC, int64_t(32), int64_t(16)}) {
      if (tileC != knobs.tileC && (knobs.tileC || a.needsAllChannels))
        break;
      TileConfigAttr mma = chooseMMAConfig(kernel, a, tensorTypes, maxTileW,
                                           knobs.rows, knobs.ciChunk, tileC,
                                           knobs.warpsC, knobs.mergeH, rules);
      if (!mma || failed(checkLimits(kernel, a, mma, /*report=*/false)))
        continue;
      return mma;
    }
    return std::nullopt;
  };
  // wgmma where the chip has it, unless a measurement chose mma.sync;
  // by default for grids of at least one wave, or of at least half a wave
  // and as many blocks as the mma.sync tiling's (full-wave: the first
  // only). Below a wave the weight re-layout's launch and workspace were
  // not paid back where wgmma's larger tiles left fewer blocks (the small
  // variants' tf32 / ieee time fell from 1.31 to 0.96 on mma.sync, H100,
  // docs/perf.md 56); with as many blocks, wgmma ran vae_decoder's 3x3
  // 128 -> 128 convolutions at 32 x 32 (128 blocks either way) in 16 us
  // against 95 on mma.sync (H200, docs/perf.md 179). Tiny grids (under
  // half a wave) were not measured so and keep mma.sync.
  auto wgmmaGridSuffices = [&](TileConfigAttr wg) {
    const int64_t blocks = LaunchPlan::get(a, wg).gridX;
    if (blocks >= wgmmaMinBlocks(a.target))
      return true;
    if (wgmma != WgmmaMode::FillsGrid)
      return false;
    if (2 * blocks < wgmmaMinBlocks(a.target))
      return false;
    std::optional<TileConfigAttr> mma = mmaChannelTiles(knobs.maxTileW);
    return mma && blocks >= LaunchPlan::get(a, *mma).gridX;
  };
  // Large W strides on wgmma: a warpgroup holds every W phase's
  // accumulators, so its N (positions a phase) is 8 at W strides of 16 or
  // more, and 16 at 8 where a block's 64-channel M is at most half used
  // (<= 32 output channels); each staged operand then serves few
  // positions. mma.sync spreads the phases over warps: by default, unforced
  // tf32 layers there take its tiling of 64 / 32 / 16 positions per phase
  // (stride >= 16; rand37_90, 32 channels 32 x 32 taps at stride 16: 4.82
  // -> 2.97 ms) or of 128 (stride 8; rand37_21, 32 channels 16 x 16 taps:
  // 2.70 -> 2.19 ms, where 64 positions took 3.26), the first that fits
  // and that the grid allows (docs/perf.md 196).
  auto longPhases = [&](TileConfigAttr wg) -> std::optional<TileConfigAttr> {
    const int64_t sw = a.geom.stride[2];
    if (!rulesSince(rules, TileRules::Session42) || !tf32 ||
        wgmma == WgmmaMode::Always || knobs.wgmma || knobs.rows ||
        knobs.ciChunk || knobs.tileC || knobs.wgmmaSplit || knobs.mergeH ||
        knobs.clusterC || knobs.phaseSplit > 0 ||
        knobs.maxTileW != kDefaultMaxTileW || a.wholeRow() ||
        a.needsAllChannels || a.pool || a.geom.groups != 1)
      return std::nullopt;
    SmallVector<int64_t, 3> positions;
    if (sw >= 16 && wg.getWgmmaN() == 8)
      positions = {64, 32, 16};
    else if (sw >= 8 && wg.getWgmmaN() == 16 && a.geom.cout <= 32)
      positions = {128};
    for (int64_t p : positions)
      if (std::optional<TileConfigAttr> mma = mmaChannelTiles(p * sw);
          mma && mma->getTileW() == p * sw && gridAllows(*mma) &&
          LaunchPlan::get(a, *mma).gridX >= a.target.numSMs())
        return mma;
    return std::nullopt;
  };
  // mma.sync tiles with positions on M (TilePositionsM.cpp): first where
  // asked for (`positions-m=1`, a tuning entry) or where the cost model
  // prefers them (`prefersPositionsOnM`).
  auto positionsOnM = [&]() -> std::optional<TileConfigAttr> {
    // At the default max-tile-w, up to 64 positions a phase (four M
    // tiles): a block of few channels is small, and its input rows'
    // staged windows overlap less (rand37_43: one W tile of 3 x 64
    // positions for its 187-wide rows instead of two of 3 x 32).
    const int64_t maxTileW =
        knobs.maxTileW == kDefaultMaxTileW
            ? std::max<int64_t>(knobs.maxTileW, 64 * a.geom.stride[2])
            : knobs.maxTileW;
    TileConfigAttr pm =
        choosePositionsOnMConfig(kernel, a, tensorTypes, maxTileW, knobs.rows,
                                 knobs.ciChunk, knobs.mergeH, rules);
    if (!pm || failed(checkLimits(kernel, a, pm, /*report=*/false)) ||
        !gridAllows(pm))
      return std::nullopt;
    return pm;
  };
  // By the rule, one-group layers only in tf32 (measured; split and half
  // operands keep their tiles) where the grid fills the chip once (eight
  // times at W phases of 32-127 positions: `positionsOnMMinBlocks`, the
  // generators' RGB layers at batch 128), and not where wgmma was
  // asked for (`wgmma=always`). Positions on M with a phase split
  // (`positions-m=1 phase-split=S`) are wgmma's (TilePhaseSplit.cpp).
  if ((tf32 || splitTF32 || half) &&
      ((knobs.positionsM == 1 && knobs.phaseSplit <= 0) ||
       (knobs.positionsM == 0 && wgmma != WgmmaMode::Always &&
        (tf32 || a.geom.groups > 1) && prefersPositionsOnM(a, rules, knobs))))
    if (std::optional<TileConfigAttr> pm = positionsOnM();
        pm && (knobs.positionsM == 1 || a.geom.groups > 1 ||
               LaunchPlan::get(a, *pm).gridX >= positionsOnMMinBlocks(a)))
      cfg = *pm;
  // Few channels at a large W stride: wgmma with positions on M
  // (TilePhaseSplit.cpp), where asked for or by its rule, before the other
  // wgmma tilings and mma.sync's long phases.
  if ((tf32 || half) && failed(cfg) && wgmma != WgmmaMode::Never &&
      knobs.wgmma >= 0)
    if (TileConfigAttr pm =
            positionsOnMPhases(kernel, a, knobs, tensorTypes, rules))
      if (gridAllows(pm))
        cfg = pm;
  // Half operands on wgmma: weights re-laid out into packed half words
  // (WeightPackPlan), the input packed by the re-layout kernel or as it is
  // staged (InputPackPlan, Staging.cpp).
  // A grid under half a wave takes 64-channel blocks where their grid
  // suffices (TileSmallGrid.cpp).
  auto withSmallGrid = [&](TileConfigAttr wg) {
    if (!wg || wgmma != WgmmaMode::FillsGrid || wgmmaGridSuffices(wg) ||
        fewChannelsForWgmma(a, tensorTypes, rules))
      return wg;
    TileConfigAttr small =
        smallGridWgmma(kernel, a, tensorTypes, knobs, wg, rules);
    return small && wgmmaGridSuffices(small) ? small : wg;
  };
  if ((tf32 || splitTF32 || half) && failed(cfg) &&
      wgmma != WgmmaMode::Never && knobs.wgmma >= 0)
    if (TileConfigAttr wg = withSmallGrid(withSamples(
            kernel, a, knobs,
            withTapPhasesN(
                kernel, a, tensorTypes, knobs,
                withSplitRows(kernel, a, tensorTypes, knobs,
                              chooseWgmmaConfig(kernel, a, tensorTypes,
                                                knobs.maxTileW, knobs.rows,
                                                knobs.ciChunk, knobs.tileC,
                                                knobs.wgmmaSplit, knobs.mergeH,
                                                knobs.clusterC, rules),
                              rules),
                rules),
            rules)))
      if (succeeded(checkLimits(kernel, a, wg, /*report=*/false)) &&
          (wgmma == WgmmaMode::Always || knobs.wgmma == 1 ||
           (wgmmaGridSuffices(wg) &&
            !fewChannelsForWgmma(a, tensorTypes, rules))) &&
          gridAllows(wg) &&
          !((wgmma == WgmmaMode::FillsGrid || wgmma == WgmmaMode::FullWave) &&
            knobs.wgmma == 0 &&
            keepsFewerPooledTiles(kernel, a, wg, tensorTypes, knobs, rules))) {
        // mma.sync's long phases first (measured faster than split phases
        // at <= 32 channels in tf32: rand37_21, 65, 70, 90; docs/perf.md
        // 229), then wgmma phases split over warpgroups.
        std::optional<TileConfigAttr> mma = longPhases(wg);
        cfg = mma ? *mma
                  : withClusterK(kernel, a, knobs,
                                 withPhaseSplit(kernel, a, knobs, wg, rules),
                                 rules);
      }
  if ((tf32 || splitTF32 || half) && failed(cfg)) {
    std::optional<TileConfigAttr> mma = mmaChannelTiles(knobs.maxTileW);
    const int64_t sw = a.geom.stride[2];
    if (mma && knobs.maxTileW == kDefaultMaxTileW && !knobs.tileC &&
        kDefaultMaxTileW / sw <= 8 && mma->getRows() == 1 && !a.wholeRow())
      for (int64_t positions : {64, 32, 16})
        if (std::optional<TileConfigAttr> longer =
                mmaChannelTiles(positions * sw);
            longer && gridAllows(*longer)) {
          mma = longer;
          break;
        }
    // A grid under half a wave: fewer rows and channels a block
    // (TileSmallGrid.cpp).
    if (mma)
      mma = withSmallGridRows(kernel, a, tensorTypes, knobs, *mma, rules);
    // A tile that fits but whose grid is too small for the split-operand
    // path stays on FMA, as before.
    if (mma && gridAllows(*mma))
      cfg = *mma;
  }
  // A pooled epilogue keeps its pass tiles where fewer rows per pass
  // allow it (each window evaluated once, see keepsFewerPooledTiles).
  if (succeeded(cfg) && a.pool && !knobs.rows && !cfg->usesWgmma() &&
      !cfg->positionsOnM() &&
      (cfg->getTypes() == tensorTypes) &&
      SharedMemoryPlan::get(a, *cfg).poolSlots == 0)
    for (int64_t rows : {int64_t(2), int64_t(1)})
      if (TileConfigAttr mma = chooseMMAConfig(
              kernel, a, tensorTypes, knobs.maxTileW, rows, knobs.ciChunk,
              knobs.tileC, knobs.warpsC, knobs.mergeH, rules))
        if (succeeded(checkLimits(kernel, a, mma, /*report=*/false)) &&
            gridAllows(mma) && SharedMemoryPlan::get(a, mma).poolSlots > 0) {
          cfg = mma;
          break;
        }
  if (failed(cfg))
    cfg =
        chooseFMAPathConfig(kernel, a, fmaTypes, knobs.maxTileW, knobs.threads);
  return cfg;
}
