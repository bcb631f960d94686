//===- Plan.h - the kernel plan of a graph function -------------*- C++ -*-===//
//
// The plan of a graph function (fuse-plan-kernels): its kernels in order,
// the device buffers between them (intermediates, reused once their last
// reader has run) and the workspaces of reductions that span blocks, with
// what each kernel reads and writes. The pass records it as attributes;
// `KernelPlan::read` rebuilds it for the GPU lowering and `--emit=plan`.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_TRANSFORMS_PLAN_H
#define FUSECC_DIALECT_FUSE_TRANSFORMS_PLAN_H

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace fusecc::fuse {

/// Attribute names of the plan.
constexpr llvm::StringLiteral kPlanBuffersAttr = "fuse.plan.buffers";
constexpr llvm::StringLiteral kPlanResultBufferAttr = "fuse.plan.result";
constexpr llvm::StringLiteral kPlanPartialsAttr = "fuse.plan.partials";
constexpr llvm::StringLiteral kPlanWarpLimitAttr = "fuse.plan.warp_set_limit";
constexpr llvm::StringLiteral kPlanSplitChunkAttr = "fuse.plan.split_chunk";
/// On a normalisation kernel: the records per set of epilogue statistics
/// past which they are merged once per set (`NormLayout::mergeParts`).
constexpr llvm::StringLiteral kPlanMergeRecordsAttr = "fuse.plan.merge_records";
/// On a convolution kernel: the channel groups of the normalisation whose
/// partial statistics its epilogue writes (to its `fuse.plan.partials`).
constexpr llvm::StringLiteral kPlanStatsGroupsAttr = "fuse.plan.stats_groups";
/// On a convolution kernel with `fuse.plan.stats_groups`: the kind of the
/// records its epilogue writes (`stringifyStatsKind`: moments,
/// max_sum_exp, max, min); moments when absent.
constexpr llvm::StringLiteral kPlanStatsKindAttr = "fuse.plan.stats_kind";
/// On a normalisation kernel: its statistics come from the epilogue of the
/// convolution kernel that computes its input (`NormLayout::Mode::Epilogue`).
constexpr llvm::StringLiteral kPlanEpilogueStatsAttr =
    "fuse.plan.epilogue_stats";
/// On a convolution kernel whose only reader is a reduction taking its
/// statistics from the epilogue: the result is never stored (no buffer);
/// the kernel writes only the partial statistics.
constexpr llvm::StringLiteral kPlanStatsOnlyAttr = "fuse.plan.stats_only";

/// The attribute on a host function's `memref.alloc` that names the
/// workspace's role in the bundle (docs/bundle.md): `scratch`,
/// `intermediate` or `partials`.
constexpr llvm::StringLiteral kWorkspaceRoleAttr = "fuse.role";

/// The id of a tensor constant: bundle module constant `c<id>`. Set on the
/// graph's `arith.constant` by the bundle's graph description and carried to
/// the `memref.global` the lowering makes of it.
constexpr llvm::StringLiteral kConstIdAttr = "fuse.const_id";

/// Longest reduction set one warp takes (`NormLayout::Mode::Warp`).
constexpr int64_t kDefaultWarpSetLimit = 4096;
/// Elements per block of a split reduction set, before balancing.
constexpr int64_t kDefaultSplitChunk = 16384;

/// Threads per block of the normalisation and elementwise kernels.
constexpr int64_t kStandaloneThreads = 256;
/// Records per thread of a normalising block past which an Epilogue
/// normalisation of several blocks per set merges each set's records once,
/// in a launch of its own (`NormLayout::mergeParts`), instead of in every
/// block of the set. A thread merges its records one dependent global load
/// after the other (~0.5 us each from DRAM) before its block streams its
/// chunk, and the streaming of a full chunk (kDefaultSplitChunk elements,
/// 4 quads in flight per thread) takes 4 such rounds: past 4 records per
/// thread, every block of the set spends longer merging than normalising,
/// and the extra launch (a few us) costs less than one block's merge. At
/// 300-400 records per set (1-2 per thread) the merge is a fraction of the
/// chunk and the launch would cost more than it saves.
constexpr int64_t kMergeOnceRecordsPerThread = 4;
/// Records per set past which they are merged once per set
/// (`--plan-merge-records`), and the fewest records one block of that merge
/// takes.
constexpr int64_t kDefaultMergeRecords =
    kMergeOnceRecordsPerThread * kStandaloneThreads;

/// The partial statistics a convolution kernel's epilogue writes for a
/// normalisation or reduction whose sets are `groups` channel groups of its
/// result per sample (group_norm, layer_norm over C and the spatial dims:
/// all non-batch dims; instance norm, a softmax, logsumexp, amax or amin
/// over the spatial dims: one set per channel). A block (batch n, spatial
/// block s, channel tile ct) splits its part of every group g its channels
/// meet between `partsPerBlock` warps, each of which writes one record,
/// record (((n groups + g) spatialBlocks + s) tilesPerGroup + ct -
/// firstTile(g)) partsPerBlock + part, of `recordSize()` values by `kind`:
///  - Moments: the count of its elements, a shift (the group's first
///    element in the tile), their mean relative to the shift, and the sum
///    of their squared deviations from that mean (M2);
///  - MaxSumExp: their max m and the sum of exp(v - m) (exp(v) where m is
///    -inf: an empty record, or one of -inf values only, is (-inf, 0));
///  - Max / Min: their max (min), -inf (+inf) when empty; NaN propagates.
/// A record may count no element. A pooled epilogue (one W tile: whole
/// pooled rows per block) writes moments or extremes of its pooled values
/// (through the ops after the pool), its blocks' s enumerating the pooled
/// depth and H blocks (LaunchPlan), so that the pooled tensor need not
/// reach device memory for a reduction after it.
struct EpilogueStatsLayout {
  /// Values per record of moments: count, shift, mean - shift, M2.
  static constexpr int64_t kRecordSize = 4;
  StatsKind kind = StatsKind::Moments;
  int64_t batch = 0, groups = 0, channelsPerGroup = 0;
  int64_t tileC = 0, numCTiles = 0;
  /// Blocks per batch element and channel tile: W tiles x H blocks x depth
  /// (the pooled depth for a pooled epilogue).
  int64_t spatialBlocks = 0;
  /// The most channel tiles one group meets.
  int64_t tilesPerGroup = 0;
  /// The most groups one channel tile meets, and the warps that share the
  /// part of one group (`warps / partsPerBlock` teams take the groups in
  /// turn).
  int64_t groupsPerTile = 0, partsPerBlock = 1;
  mlir::Type elementType;

  /// Values per record of this layout's kind.
  static int64_t recordSizeOf(StatsKind k) {
    return k == StatsKind::Moments     ? kRecordSize
           : k == StatsKind::MaxSumExp ? 2
                                       : 1;
  }
  int64_t recordSize() const { return recordSizeOf(kind); }
  int64_t firstTile(int64_t g) const {
    return g * channelsPerGroup / tileC;
  }
  int64_t tilesOf(int64_t g) const {
    return ((g + 1) * channelsPerGroup - 1) / tileC - firstTile(g) + 1;
  }
  /// Records and values of the whole workspace, saturated at kSaturated
  /// (a layout that large is never planned: kMaxEpilogueStatsElements).
  int64_t records() const {
    int64_t r = 1;
    for (int64_t f :
         {batch, groups, spatialBlocks, tilesPerGroup, partsPerBlock})
      r = saturatingMul(r, f);
    return r;
  }
  int64_t elements() const { return saturatingMul(records(), recordSize()); }
  /// The layout of convolution kernel `conv` (tiled) for `groups` groups
  /// and records of `kind`.
  static EpilogueStatsLayout get(KernelOp conv, int64_t groups, StatsKind kind);
};

/// The spelling of a statistics kind in `fuse.plan.stats_kind`, and back.
llvm::StringRef stringifyStatsKind(StatsKind k);
std::optional<StatsKind> parseStatsKind(llvm::StringRef s);
/// What a record of `k` holds, for `--emit=plan`.
llvm::StringRef describeStatsKind(StatsKind k);

/// How a normalisation or reduction kernel (`KernelKind::Normalization`,
/// `KernelKind::Reduction`) covers its reduction sets. The sets of the root op are `outer x inner` runs of
/// `len` elements: element j of set (o, i) is at (o len + j) inner + i of
/// the row-major input (group_norm: outer = N x groups, inner = 1).
struct NormLayout {
  enum class Mode {
    /// inner == 1, short sets: one warp per set, one kernel.
    Warp,
    /// Long sets (rows, or columns too few for a thread each): `parts`
    /// blocks per set write partial statistics to a workspace
    /// (`<kernel>_stats`), then `parts` blocks per set combine them and
    /// normalise (`<kernel>`).
    Split,
    /// inner > 1, short or many sets: one thread per set, consecutive
    /// threads on consecutive inner positions (coalesced), one kernel.
    Column,
    /// inner == 1, the input computed by a convolution kernel whose blocks
    /// each hold one batch element: that kernel's epilogue writes partial
    /// statistics of every (set, block) pair (`EpilogueStatsLayout`), and
    /// `parts` blocks per set combine them and normalise their chunk. The
    /// input is read once.
    Epilogue,
  };
  Mode mode = Mode::Warp;
  /// The normalisation, or the moment reduction (one result per set).
  StatsRoot root;
  int64_t outer = 0, len = 0, inner = 0;
  /// Split: blocks per set and the elements each takes (a multiple of 4,
  /// the last block takes the rest).
  int64_t parts = 1, chunk = 0;
  /// Statistics per partial (two: shift-based mean and M2, or max and sum;
  /// one: the max or min).
  int64_t stats = 2;
  /// Element type of the partial statistics.
  mlir::Type statsType;

  /// Epilogue: where the producer's partial statistics lie.
  std::optional<EpilogueStatsLayout> producerStats;
  /// Epilogue, a normalisation of several blocks per set with more than
  /// `fuse.plan.merge_records` records per set: a launch before the
  /// normalising one (`<kernel>_merge`) merges each set's records once,
  /// `mergeParts` blocks per set each merging a run of them into one record
  /// in the partials workspace after the epilogue's records
  /// (`mergedRecordsAt`); the normalising blocks then merge only those
  /// `mergeParts` records (at most one per thread). 0: every normalising
  /// block merges all its set's records.
  int64_t mergeParts = 0;

  /// Values of the partials workspace this kernel reads and writes.
  int64_t partialsElems() const;
  /// Mode::Epilogue with `mergeParts`: the first value of the merged
  /// records in the partials workspace, `mergeParts` records per set in set
  /// order.
  int64_t mergedRecordsAt() const;
  /// Records of one set that the producer's epilogue writes, at most.
  int64_t epilogueRecordsPerSet() const;
  /// Most records per set that one warp merges alone.
  static constexpr int64_t kWarpSetRecords = 128;
  /// Epilogue mode, a reduction (one result per set) of sets with at most
  /// `kWarpSetRecords` records: one warp per set merges them, a block
  /// takes several sets (a block per set would leave most of its threads
  /// idle and wait on a barrier per set).
  bool warpPerSet() const;
  /// The layout under the limits recorded by fuse-plan-kernels (defaults
  /// where none are).
  static llvm::FailureOr<NormLayout> get(KernelOp kernel);
  static llvm::FailureOr<NormLayout>
  get(KernelOp kernel, int64_t warpLimit, int64_t splitChunk,
      int64_t mergeRecords = kDefaultMergeRecords);
};

/// One device buffer of the plan.
struct PlanBuffer {
  enum class Role { Intermediate, Partials };
  Role role = Role::Intermediate;
  mlir::Type elementType;
  int64_t elements = 0;
  /// Steps of the kernels that write and read it (its lifetime).
  int64_t firstStep = 0, lastStep = 0;
  int64_t bytes() const;
  static llvm::StringRef roleName(Role r);
};

struct KernelPlan {
  llvm::SmallVector<KernelOp> steps;
  llvm::SmallVector<PlanBuffer> buffers;

  /// Rebuilds the plan recorded on `func` by fuse-plan-kernels.
  static llvm::FailureOr<KernelPlan> read(mlir::func::FuncOp func);
  /// The buffer holding kernel `k`'s result when it is an intermediate.
  static std::optional<int64_t> resultBuffer(KernelOp k);
  /// The partials workspace of a split normalisation kernel, or the one a
  /// convolution kernel's epilogue writes statistics to.
  static std::optional<int64_t> partialsBuffer(KernelOp k);
  /// The channel groups of the statistics `k`'s epilogue writes, if any.
  static std::optional<int64_t> statsGroups(KernelOp k);
  /// The kind of the records `k`'s epilogue writes (moments when the plan
  /// names none); emits an error and fails on a malformed kind.
  static llvm::FailureOr<StatsKind> statsKind(KernelOp k);
  /// The layout of the statistics `k`'s epilogue writes, if any; emits an
  /// error and fails on a malformed plan.
  static llvm::FailureOr<std::optional<EpilogueStatsLayout>>
  epilogueStats(KernelOp k);
  /// True if convolution kernel `k` writes only partial statistics, not its
  /// result.
  static bool statsOnly(KernelOp k) { return k->hasAttr(kPlanStatsOnlyAttr); }
  /// The convolution kernel whose epilogue writes the statistics of
  /// normalisation kernel `k` (Epilogue mode), or null.
  static KernelOp statsProducer(KernelOp k);
  /// Human-readable listing (`fusecc --emit=plan`).
  void print(mlir::func::FuncOp func, llvm::raw_ostream &os) const;
};

/// The channel groups per sample of the statistics a convolution's epilogue
/// writes for `root`'s sets over a convolution result of type `ty` (the
/// root's input or a view of it), or std::nullopt where the sets, read
/// flat, are not consecutive runs of whole channels of one sample.
std::optional<int64_t> epilogueStatsGroups(const StatsRoot &root,
                                           mlir::RankedTensorType ty);
/// The convolution kernel whose epilogue can write the partial statistics
/// of normalisation or reduction kernel `k`, or null.
KernelOp epilogueStatsCandidate(KernelOp k);

} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_TRANSFORMS_PLAN_H
