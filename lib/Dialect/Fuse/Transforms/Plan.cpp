//===- Plan.cpp - the kernel plan and the layouts it decides --------------===//
//
// The plan that fuse-plan-kernels records (Plan.h) and the code reading it
// back: the layouts of normalisation kernels (`NormLayout`: warp, column,
// split or epilogue statistics, records merged once per set), the partial
// statistics a convolution's epilogue writes (`EpilogueStatsLayout`), and
// `KernelPlan` (kernels in order, buffers with lifetimes, workspaces,
// `--emit=plan`'s text). The pass itself is PlanKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Codegen/GPUPlan.h"
#include "fusecc/Dialect/Fuse/IR/BoxSums.h"
#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"
#include "fusecc/Dialect/Fuse/Transforms/Plan.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace fusecc::fuse;

/// Blocks a split normalisation aims for: four waves of the target's SMs.
static int64_t splitTargetBlocks(const fusecc::TargetInfo &target) {
  return 4 * target.numSMs();
}
/// Column sets, one thread each, that fill the target's SMs with a block
/// of `kStandaloneThreads` each; long sets of fewer columns are split.
static int64_t columnSplitSets(const fusecc::TargetInfo &target) {
  return target.numSMs() * kStandaloneThreads;
}
/// The batch bound of a dynamic-batch module (`fuse.max_batch`), else 1:
/// a per-sample kernel runs for every sample, so its layout's block counts
/// are chosen for the sets of the bound, as the static plan of that batch
/// chooses them (docs/design/plans.md, "Dynamic batch").
static int64_t batchBoundOf(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto bound =
      module ? module->getAttrOfType<IntegerAttr>(kMaxBatchAttr) : nullptr;
  return bound ? std::max<int64_t>(1, bound.getInt()) : 1;
}

FailureOr<NormLayout> NormLayout::get(KernelOp kernel) {
  int64_t warpLimit = kDefaultWarpSetLimit, splitChunk = kDefaultSplitChunk,
          mergeRecords = kDefaultMergeRecords;
  if (auto a = kernel->getAttrOfType<IntegerAttr>(kPlanWarpLimitAttr))
    warpLimit = a.getInt();
  if (auto a = kernel->getAttrOfType<IntegerAttr>(kPlanSplitChunkAttr))
    splitChunk = a.getInt();
  if (auto a = kernel->getAttrOfType<IntegerAttr>(kPlanMergeRecordsAttr))
    mergeRecords = a.getInt();
  return get(kernel, warpLimit, splitChunk, mergeRecords);
}

KernelOp KernelPlan::statsProducer(KernelOp k) {
  if (!k->hasAttr(kPlanEpilogueStatsAttr))
    return {};
  StatsRoot root = StatsRoot::of(k);
  auto arg = root ? dyn_cast<BlockArgument>(viewSource(root.op->getOperand(0)))
                  : BlockArgument();
  if (!arg)
    return {};
  return k.getInputs()[arg.getArgNumber()].getDefiningOp<KernelOp>();
}

/// The channel groups of the epilogue statistics that give `root`'s sets
/// over a convolution result of type `ty` (the root's input or a view of
/// it): read flat, as the normalisation kernels do, the sets must be
/// consecutive runs of whole channels of one sample, `C / groups` channels
/// each (all non-batch dims: the root's channel groups; the spatial dims:
/// one set per channel, groups = C).
std::optional<int64_t> fusecc::fuse::epilogueStatsGroups(const StatsRoot &root,
                                                        RankedTensorType ty) {
  auto in = cast<RankedTensorType>(root.op->getOperand(0).getType());
  ArrayRef<int64_t> dims = root.reducedDims;
  ArrayRef<int64_t> shape = in.getShape();
  if (dims.empty() || ty.getRank() < 3 ||
      in.getNumElements() != ty.getNumElements() ||
      (root.channelGroups != 1 && dims.front() != 1))
    return std::nullopt;
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return std::nullopt;
  auto prod = [](ArrayRef<int64_t> s) {
    int64_t p = 1;
    for (int64_t d : s)
      p *= d;
    return p;
  };
  if (prod(shape.drop_front(dims.back() + 1)) != 1)
    return std::nullopt; // Strided sets.
  int64_t len = prod(shape.slice(dims.front(), dims.size())) /
                std::max<int64_t>(1, root.channelGroups);
  int64_t spatial = prod(ty.getShape().drop_front(2));
  int64_t perSample = ty.getDimSize(1) * spatial;
  if (len < 1 || spatial < 1 || len % spatial != 0 || perSample % len != 0)
    return std::nullopt;
  return perSample / len;
}

/// The convolution kernel whose epilogue can write the partial statistics
/// of normalisation or reduction kernel `k`, or null: the root's sets,
/// whatever their statistics kind, are whole channel groups of a
/// convolution kernel's f32 result (every conv block holds one batch
/// element, so each of its (set, block) parts is a box of the tile).
KernelOp fusecc::fuse::epilogueStatsCandidate(KernelOp k) {
  StatsRoot root = StatsRoot::of(k);
  if (!root)
    return {};
  auto arg = dyn_cast<BlockArgument>(viewSource(root.op->getOperand(0)));
  if (!arg)
    return {};
  auto producer = k.getInputs()[arg.getArgNumber()].getDefiningOp<KernelOp>();
  if (!producer || kernelKindOf(producer) != KernelKind::Convolution ||
      !producer.getConfig())
    return {};
  // A tile whose reduction is split over a cluster (clusterK: block 0 alone
  // runs the epilogue, after the cluster's reduce) writes no partial
  // statistics (fuse-convert-to-gpu refuses them): the reader computes its
  // own. (Found in session 42: the cost model's clusterK on a 2048 -> 256
  // layer read by a spatial softmax failed to compile.)
  if (producer.getConfig()->splitsReduction())
    return {};
  auto ty = cast<RankedTensorType>(arg.getType());
  if (ty != producer.getResult().getType() || !ty.getElementType().isF32() ||
      ty.getRank() < 3)
    return {};
  // Warps write the records (shuffle reductions over whole warps).
  FailureOr<KernelAnalysis> a = KernelAnalysis::analyze(producer);
  if (failed(a) || LaunchPlan::get(*a, *producer.getConfig()).threads % 32)
    return {};
  // A channel epilogue's tile holds the values before reducing or
  // contracting. A pooled epilogue writes the records of its pooled values
  // (one pass: moments or extremes) where each block holds whole pooled
  // rows.
  if (a->channelEpilogue())
    return {};
  if (a->pool && (root.kind == StatsKind::MaxSumExp ||
                  LaunchPlan::get(*a, *producer.getConfig()).numWTiles != 1))
    return {};
  if (!epilogueStatsGroups(root, ty))
    return {};
  return producer;
}

EpilogueStatsLayout EpilogueStatsLayout::get(KernelOp conv, int64_t groups,
                                             StatsKind kind) {
  FailureOr<KernelAnalysis> a = KernelAnalysis::analyze(conv);
  assert(succeeded(a) && conv.getConfig() && "a tiled convolution kernel");
  TileConfigAttr cfg = *conv.getConfig();
  LaunchPlan launch = LaunchPlan::get(*a, cfg);
  EpilogueStatsLayout l;
  l.kind = kind;
  l.batch = a->geom.n;
  l.groups = groups;
  l.channelsPerGroup = a->geom.cout / groups;
  l.tileC = cfg.getTileC();
  l.numCTiles = launch.numCTiles;
  // A pooled epilogue's blocks enumerate the pooled result (LaunchPlan).
  l.spatialBlocks = saturatingMul(
      saturatingMul(launch.numWTiles, launch.numHBlocks),
      a->pool ? a->pool->out[0] : a->geom.out[0]);
  // Partial statistics are f32 whatever the tensors' storage.
  l.elementType = Float32Type::get(conv.getContext());
  for (int64_t g = 0; g < groups; ++g)
    l.tilesPerGroup = std::max(l.tilesPerGroup, l.tilesOf(g));
  for (int64_t ct = 0; ct < l.numCTiles; ++ct) {
    int64_t c0 = ct * l.tileC, c1 = std::min(c0 + l.tileC, a->geom.cout);
    l.groupsPerTile =
        std::max(l.groupsPerTile,
                 (c1 - 1) / l.channelsPerGroup - c0 / l.channelsPerGroup + 1);
  }
  l.partsPerBlock = std::max<int64_t>(1, launch.threads / 32 / l.groupsPerTile);
  return l;
}

namespace {
/// Each statistics kind's name in the plan text and what its records hold.
struct StatsKindInfo {
  StatsKind kind;
  const char *name, *description;
};
constexpr StatsKindInfo kStatsKinds[] = {
    {StatsKind::Moments, "moments", "count, shift, mean, M2"},
    {StatsKind::MaxSumExp, "max_sum_exp", "max, sum of exp"},
    {StatsKind::Max, "max", "max"},
    {StatsKind::Min, "min", "min"},
};
const StatsKindInfo &statsKindInfo(StatsKind k) {
  for (const StatsKindInfo &info : kStatsKinds)
    if (info.kind == k)
      return info;
  llvm_unreachable("statistics kind");
}
} // namespace

StringRef fusecc::fuse::stringifyStatsKind(StatsKind k) {
  return statsKindInfo(k).name;
}

std::optional<StatsKind> fusecc::fuse::parseStatsKind(StringRef s) {
  for (const StatsKindInfo &info : kStatsKinds)
    if (s == info.name)
      return info.kind;
  return std::nullopt;
}

StringRef fusecc::fuse::describeStatsKind(StatsKind k) {
  return statsKindInfo(k).description;
}

int64_t NormLayout::epilogueRecordsPerSet() const {
  if (!producerStats)
    return 0;
  return saturatingMul(
      saturatingMul(producerStats->spatialBlocks, producerStats->tilesPerGroup),
      producerStats->partsPerBlock);
}

bool NormLayout::warpPerSet() const {
  return mode == Mode::Epilogue && root.reduces() &&
         epilogueRecordsPerSet() <= kWarpSetRecords;
}

int64_t NormLayout::mergedRecordsAt() const {
  return mode == Mode::Epilogue ? producerStats->elements() : 0;
}

int64_t NormLayout::partialsElems() const {
  if (mode == Mode::Epilogue)
    return saturatingAdd(
        producerStats->elements(),
        saturatingMul(saturatingMul(outer * inner, mergeParts),
                      producerStats->recordSize()));
  return mode == Mode::Split ? outer * inner * parts * stats : 0;
}

FailureOr<NormLayout> NormLayout::get(KernelOp kernel, int64_t warpLimit,
                                      int64_t splitChunk,
                                      int64_t mergeRecords) {
  if (warpLimit < 1 || splitChunk < 4 || mergeRecords < 1)
    return kernel.emitOpError("warp-set-limit and merge-records must be >= 1 "
                              "and split-chunk >= 4, got ")
           << warpLimit << ", " << mergeRecords << " and " << splitChunk;
  NormLayout l;
  const fusecc::TargetInfo target = getTargetInfo(kernel);
  l.root = StatsRoot::of(kernel);
  if (!l.root)
    return kernel.emitOpError("expected a normalisation or a moment "
                              "reduction as the first op of a kernel "
                              "without a convolution");
  Operation *rootOp = l.root.op;
  // The input is read flat, so a view of a kernel input is that input.
  if (!isa<BlockArgument>(viewSource(rootOp->getOperand(0))))
    return rootOp->emitOpError("input of a normalisation kernel must be a "
                               "kernel input or a view of one");
  auto ty = cast<RankedTensorType>(rootOp->getOperand(0).getType());
  ArrayRef<int64_t> shape = ty.getShape();
  SmallVector<int64_t> dims = l.root.reducedDims;
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return rootOp->emitOpError("reduces non-adjacent dims; expected a "
                                 "contiguous range of dims");
  if (dims.empty())
    return rootOp->emitOpError("reduces no dim");
  int64_t groups = l.root.channelGroups;
  if (groups != 1 && dims.front() != 1)
    return rootOp->emitOpError("groups channels but does not reduce from "
                               "the channel dim");
  auto prod = [&](int64_t from, int64_t to) {
    int64_t p = 1;
    for (int64_t d = from; d < to; ++d)
      p *= shape[d];
    return p;
  };
  l.outer = prod(0, dims.front()) * groups;
  l.len = prod(dims.front(), dims.back() + 1) / groups;
  l.inner = prod(dims.back() + 1, shape.size());
  l.stats = l.root.numStatistics();
  // Statistics and their workspaces are f32 whatever the storage.
  l.statsType = Float32Type::get(ty.getContext());
  if (l.len == 0 || l.outer == 0 || l.inner == 0)
    return rootOp->emitOpError("has an empty reduction set or none");
  // The sets of all samples at the batch bound (its outer dims hold one
  // sample in a dynamic-batch module).
  const int64_t sets = fusecc::saturatingMul(l.outer * l.inner,
                                             batchBoundOf(kernel));
  // Chunks of at most `splitChunk`, and enough blocks for a few waves of
  // the target's SMs when there are few sets, down to 1K-element chunks.
  auto splitSets = [&] {
    int64_t parts = std::max(
        llvm::divideCeil(l.len, splitChunk),
        std::min(
            llvm::divideCeil(l.len, std::min<int64_t>(splitChunk, 1024)),
            llvm::divideCeil(splitTargetBlocks(target), sets)));
    l.chunk = llvm::alignTo(llvm::divideCeil(l.len, parts), 4);
    l.parts = llvm::divideCeil(l.len, l.chunk);
  };
  if (kernel->hasAttr(kPlanEpilogueStatsAttr)) {
    KernelOp producer = KernelPlan::statsProducer(kernel);
    if (!producer || epilogueStatsCandidate(kernel) != producer)
      return kernel.emitOpError("takes its statistics from a convolution "
                                "kernel's epilogue, but its input is not "
                                "such a kernel's result reduced over whole "
                                "channel groups of each sample");
    int64_t groups =
        *epilogueStatsGroups(l.root, producer.getResult().getType());
    FailureOr<std::optional<EpilogueStatsLayout>> written =
        KernelPlan::epilogueStats(producer);
    if (failed(written))
      return failure();
    if (!*written || (*written)->groups != groups ||
        (*written)->kind != l.root.kind)
      return kernel.emitOpError("takes ")
             << stringifyStatsKind(l.root.kind) << " statistics of " << groups
             << " groups per sample from " << producer.getKernelName()
             << "'s epilogue, which writes "
             << (*written ? stringifyStatsKind((*written)->kind)
                          : StringRef("no"))
             << " statistics"
             << (*written
                     ? " of " + std::to_string((*written)->groups) + " groups"
                     : std::string());
    l.mode = Mode::Epilogue;
    l.producerStats = **written;
    // A reduction's block only merges its set's records (no chunk to
    // normalise); a normalisation's sets are split over blocks.
    if (l.root.reduces()) {
      l.parts = 1;
      l.chunk = l.len;
    } else {
      splitSets();
      // Many records and several blocks per set: merged once per set
      // (kMergeOnceRecordsPerThread), by enough blocks to fill the target
      // as a split set's blocks do, each taking at least `mergeRecords`
      // records, at most one merged record per normalising thread; runs
      // of one length, none empty in the sets of the most records.
      const int64_t records = l.epilogueRecordsPerSet();
      if (l.parts > 1 && records > mergeRecords) {
        int64_t parts = std::clamp<int64_t>(
            llvm::divideCeil(splitTargetBlocks(target), sets), 1,
            std::clamp<int64_t>(records / mergeRecords, 1,
                                kStandaloneThreads));
        l.mergeParts =
            llvm::divideCeil(records, llvm::divideCeil(records, parts));
      }
    }
  } else if (l.inner > 1) {
    // One thread per column set, unless the sets are long and too few to
    // give every SM's threads one (a sum over dims 0-2 that keeps a last dim
    // of 6 would have 6 threads read everything): then `parts` blocks per
    // set, as for rows, each thread taking elements `inner` apart.
    if (l.len > warpLimit && sets < columnSplitSets(target)) {
      l.mode = Mode::Split;
      splitSets();
    } else {
      l.mode = Mode::Column;
    }
  } else if (l.len <= warpLimit) {
    l.mode = Mode::Warp;
  } else {
    l.mode = Mode::Split;
    splitSets();
  }
  return l;
}

int64_t PlanBuffer::bytes() const {
  return elements * llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
}

StringRef PlanBuffer::roleName(Role r) {
  return r == Role::Intermediate ? "intermediate" : "partials";
}

static std::optional<int64_t> intAttr(Operation *op, StringRef name) {
  if (auto a = op->getAttrOfType<IntegerAttr>(name))
    return a.getInt();
  return std::nullopt;
}

std::optional<int64_t> KernelPlan::resultBuffer(KernelOp k) {
  return intAttr(k, kPlanResultBufferAttr);
}

std::optional<int64_t> KernelPlan::partialsBuffer(KernelOp k) {
  return intAttr(k, kPlanPartialsAttr);
}

std::optional<int64_t> KernelPlan::statsGroups(KernelOp k) {
  return intAttr(k, kPlanStatsGroupsAttr);
}

FailureOr<StatsKind> KernelPlan::statsKind(KernelOp k) {
  Attribute a = k->getAttr(kPlanStatsKindAttr);
  if (!a)
    return StatsKind::Moments;
  auto str = dyn_cast<StringAttr>(a);
  std::optional<StatsKind> kind =
      str ? parseStatsKind(str.getValue()) : std::nullopt;
  if (!kind)
    return k.emitOpError("has a malformed ")
           << kPlanStatsKindAttr << " " << a
           << "; expected \"moments\", \"max_sum_exp\", \"max\" or \"min\"";
  return *kind;
}

FailureOr<std::optional<EpilogueStatsLayout>>
KernelPlan::epilogueStats(KernelOp k) {
  std::optional<int64_t> groups = statsGroups(k);
  if (!groups)
    return std::optional<EpilogueStatsLayout>();
  FailureOr<StatsKind> kind = statsKind(k);
  if (failed(kind))
    return failure();
  FailureOr<KernelAnalysis> a = KernelAnalysis::analyze(k);
  if (failed(a))
    return failure();
  if (!k.getConfig() || *groups < 1 || a->geom.cout % *groups != 0 ||
      !k.getResult().getType().getElementType().isF32())
    return k.emitOpError("writes epilogue statistics of ")
           << *groups << " channel groups; expected a tiled f32 "
           << "convolution kernel and a divisor of its " << a->geom.cout
           << " channels";
  return std::optional<EpilogueStatsLayout>(
      EpilogueStatsLayout::get(k, *groups, *kind));
}

FailureOr<KernelPlan> KernelPlan::read(func::FuncOp func) {
  KernelPlan plan;
  auto buffers = func->getAttrOfType<ArrayAttr>(kPlanBuffersAttr);
  if (!buffers)
    return func.emitOpError("has no kernel plan; run fuse-plan-kernels first");
  for (Attribute a : buffers) {
    auto d = dyn_cast<DictionaryAttr>(a);
    auto role = d ? d.getAs<StringAttr>("role") : StringAttr();
    auto type = d ? d.getAs<TypeAttr>("type") : TypeAttr();
    auto elements = d ? d.getAs<IntegerAttr>("elements") : IntegerAttr();
    auto first = d ? d.getAs<IntegerAttr>("first") : IntegerAttr();
    auto last = d ? d.getAs<IntegerAttr>("last") : IntegerAttr();
    if (!role || !type || !elements || !first || !last ||
        !type.getValue().isIntOrFloat() || elements.getInt() <= 0 ||
        (role.getValue() != "intermediate" && role.getValue() != "partials"))
      return func.emitOpError("has a malformed plan buffer ") << a;
    PlanBuffer b;
    b.role = role.getValue() == "partials" ? PlanBuffer::Role::Partials
                                           : PlanBuffer::Role::Intermediate;
    b.elementType = type.getValue();
    b.elements = elements.getInt();
    b.firstStep = first.getInt();
    b.lastStep = last.getInt();
    plan.buffers.push_back(b);
  }
  func.walk([&](KernelOp k) { plan.steps.push_back(k); });
  for (KernelOp k : plan.steps)
    for (std::optional<int64_t> idx : {resultBuffer(k), partialsBuffer(k)})
      if (idx &&
          (*idx < 0 || *idx >= static_cast<int64_t>(plan.buffers.size())))
        return k.emitOpError("names plan buffer ")
               << *idx << " of " << plan.buffers.size();
  return plan;
}

static StringRef kindName(KernelOp k) {
  switch (kernelKindOf(k)) {
  case KernelKind::Convolution:
    return "convolution";
  case KernelKind::Normalization:
    return "normalization";
  case KernelKind::Reduction:
    return "reduction";
  case KernelKind::BoxSums:
    return "box sums";
  case KernelKind::Elementwise:
    return "elementwise";
  }
  return "";
}

static std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto tt = dyn_cast<RankedTensorType>(t)) {
    for (int64_t d : tt.getShape())
      os << d << "x";
    os << tt.getElementType();
  } else {
    os << t;
  }
  return s;
}

void KernelPlan::print(func::FuncOp func, raw_ostream &os) const {
  // Each buffer holds at most 2^62 bytes (RepresentableTensors); their sum
  // saturates at 2^64 - 1.
  uint64_t total = 0;
  for (const PlanBuffer &b : buffers)
    total = llvm::SaturatingAdd(total, static_cast<uint64_t>(b.bytes()));
  os << "plan @" << func.getSymName() << ": " << steps.size() << " kernel"
     << (steps.size() == 1 ? "" : "s") << ", " << buffers.size() << " buffer"
     << (buffers.size() == 1 ? "" : "s") << " (" << total << " bytes)\n";
  for (auto [i, b] : llvm::enumerate(buffers))
    os << "  buffer b" << i << " " << PlanBuffer::roleName(b.role) << " "
       << b.elementType << " x " << b.elements << " (" << b.bytes()
       << " bytes) live in steps " << b.firstStep << ".." << b.lastStep << "\n";
  DenseMap<Value, std::string> names;
  for (BlockArgument a : func.getArguments()) {
    auto n = func.getArgAttrOfType<StringAttr>(a.getArgNumber(), "fuse.name");
    names[a] = n ? n.str() : "arg" + std::to_string(a.getArgNumber());
  }
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [i, kc] : llvm::enumerate(steps)) {
    KernelOp k = kc;
    os << "  step " << i << " " << k.getKernelName() << " (" << kindName(k);
    // What fuse-form-kernels decided for the ops computing the
    // convolution's input (folded into the staging, or why not).
    k.getBody().walk([&](ConvTransposeOp conv) {
      if (auto text = conv->getAttrOfType<StringAttr>(kPrologueAttr))
        os << ", prologue: " << text.getValue();
    });
    if (kernelKindOf(k) == KernelKind::Convolution && k.getConfig()) {
      FailureOr<KernelAnalysis> a = KernelAnalysis::analyze(k);
      if (succeeded(a) && a->contraction)
        os << ", channel contraction: " << a->geom.cout << " -> "
           << a->contraction.getResult().getType().getDimSize(1)
           << " channels (1x1 convolution) in the epilogue";
      if (succeeded(a) && a->pool) {
        TileConfigAttr cfg = *k.getConfig();
        LaunchPlan launch = LaunchPlan::get(*a, cfg);
        SharedMemoryPlan smem = SharedMemoryPlan::get(*a, cfg);
        os << ", pooled epilogue: " << a->pool->op->getName().stripDialect()
           << ", " << launch.pooled.pooledRows << " pooled row"
           << (launch.pooled.pooledRows == 1 ? "" : "s") << " per block in "
           << launch.pooled.count << " main-loop pass"
           << (launch.pooled.count == 1 ? "" : "es") << ", "
           << (smem.poolSlots ? "tiles kept" : "partial windows combined");
        if (a->channelWindow)
          os << ", then " << a->channelWindow->getName().stripDialect()
             << " over the channels";
      }
    }
    if (kernelKindOf(k) == KernelKind::Normalization ||
        kernelKindOf(k) == KernelKind::Reduction) {
      FailureOr<NormLayout> l = NormLayout::get(k);
      if (succeeded(l)) {
        // What a set's statistics become: a normalised set, or one result.
        StringRef finish =
            l->root.reduces() ? "combine + reduce" : "combine + normalise";
        os << ": " << l->root.op->getName().stripDialect() << ", "
           << l->outer * l->inner << " sets of " << l->len << ", ";
        switch (l->mode) {
        case NormLayout::Mode::Warp:
          os << "one warp per set";
          break;
        case NormLayout::Mode::Column:
          os << "one thread per set";
          break;
        case NormLayout::Mode::Split:
          os << l->parts << " block" << (l->parts == 1 ? "" : "s")
             << " per set: partial statistics, then " << finish;
          break;
        case NormLayout::Mode::Epilogue:
          os << "partial statistics from " << statsProducer(k).getKernelName()
             << "'s epilogue ("
             << l->producerStats->spatialBlocks *
                    l->producerStats->tilesPerGroup
             << " per set), ";
          if (l->warpPerSet())
            os << "one warp per set: " << finish;
          else
            os << l->parts << " block" << (l->parts == 1 ? "" : "s")
               << " per set: " << finish;
          if (l->mergeParts)
            os << ", records merged once per set by " << k.getKernelName()
               << "_merge (" << l->mergeParts << " block"
               << (l->mergeParts == 1 ? "" : "s") << " per set)";
          break;
        }
      }
    }
    if (std::optional<BoxSumsLayout> l = BoxSumsLayout::get(k)) {
      // The plane's region grid (per dim, regions between the taps' ends).
      std::string grid;
      for (size_t i = 0; i < l->cuts.size(); ++i)
        grid += (i ? "x" : "") + std::to_string(l->regions(i));
      os << ": " << l->op->getName().stripDialect() << ", " << l->planes
         << " plane" << (l->planes == 1 ? "" : "s") << " of "
         << l->rows * l->rowLen << ", ";
      if (l->planesPerBlock == 1)
        os << "one block of " << l->threads << " threads per plane, ";
      else
        os << l->planesPerBlock << " planes per block of " << l->threads
           << " threads, " << l->threadsPerPlane << " per plane, ";
      // Vectors of 4 elements: 16 bytes of f32, 8 of half storage.
      const int64_t bytes =
          getElementTypeOrSelf(k.getInputs().front().getType())
              .getIntOrFloatBitWidth() /
          8;
      if (l->vector == 4)
        os << 4 * bytes << "-byte";
      else
        os << "scalar";
      os << " loads";
      if (l->straight)
        os << " (" << l->rowSteps() * l->unitsPerThread
           << " per thread at once)";
      os << ", " << grid << " regions, " << l->taps() << " taps";
    }
    os << ")\n    reads";
    for (Value in : k.getInputs()) {
      auto it = names.find(in);
      if (it != names.end()) {
        os << " " << it->second;
        continue;
      }
      // A tensor constant (an imported model's weights): its name if any.
      Operation *def = in.getDefiningOp();
      auto n = def ? def->getAttrOfType<StringAttr>("fuse.name") : StringAttr();
      os << " " << (n ? n.str() : def ? std::string("constant") : "?");
    }
    std::string out;
    if (std::optional<int64_t> b = resultBuffer(k))
      out = "b" + std::to_string(*b);
    else if (llvm::is_contained(ret.getOperands(), k.getResult()))
      out = ret.getNumOperands() == 1
                ? std::string("result")
                : "result" + std::to_string(
                                 llvm::find(ret.getOperands(), k.getResult()) -
                                 ret.getOperands().begin());
    if (statsOnly(k))
      out = "(on chip)";
    names[k.getResult()] = out;
    if (statsOnly(k))
      os << "\n    keeps its result (" << typeStr(k.getResult().getType())
         << ") on chip";
    else
      os << "\n    writes " << out << " (" << typeStr(k.getResult().getType())
         << ")";
    if (std::optional<int64_t> p = partialsBuffer(k)) {
      if (std::optional<int64_t> g = statsGroups(k)) {
        // The records' kind where they are not moments.
        FailureOr<StatsKind> kind = statsKind(k);
        os << ", partial statistics ";
        if (succeeded(kind) && *kind != StatsKind::Moments)
          os << "(" << describeStatsKind(*kind) << ") ";
        os << "of " << *g << " group" << (*g == 1 ? "" : "s")
           << " per sample to b" << *p;
      } else if (k->hasAttr(kPlanEpilogueStatsAttr))
        os << ", reads partial statistics b" << *p;
      else
        os << ", partial statistics b" << *p;
    }
    os << "\n";
  }
}
