//===- PlanKernels.cpp - the kernel plan of a graph function --------------===//
//
// Implements `fuse-plan-kernels`, which records the plan (Plan.h, read back
// and laid out by Plan.cpp): kernels in order, intermediate buffers with
// lifetimes (a buffer is reused by a later intermediate once its last reader
// has run) and the partial-statistics workspaces of normalisations whose
// reduction sets span blocks.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/Transforms/Passes.h"
#include "fusecc/Dialect/Fuse/Transforms/Plan.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSEPLANKERNELS
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc::fuse;

/// The largest workspace of epilogue statistics planned (2^28 values, 1 GiB
/// of f32); past it the normalisation computes its own statistics.
static constexpr int64_t kMaxEpilogueStatsElements = int64_t(1) << 28;

namespace {

struct PlanKernelsPass
    : public fusecc::fuse::impl::FusePlanKernelsBase<PlanKernelsPass> {
  using FusePlanKernelsBase::FusePlanKernelsBase;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Graph functions have one block ending in func.return; others are
    // left without a plan for fuse-convert-to-gpu to reject.
    if (func.isExternal() || !func.getBody().hasOneBlock() ||
        !isa<func::ReturnOp>(func.getBody().front().getTerminator()))
      return;
    Block &body = func.getBody().front();
    SmallVector<KernelOp> steps;
    DenseMap<Operation *, int64_t> stepOf;
    for (Operation &op : body)
      if (auto k = dyn_cast<KernelOp>(op)) {
        stepOf[k] = steps.size();
        steps.push_back(k);
      }
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    // Buffers are assigned in step order; a slot is reused by a buffer of
    // the same role and element type once its last user has run.
    SmallVector<PlanBuffer> slots;
    auto assign = [&](PlanBuffer want) -> int64_t {
      for (auto [i, s] : llvm::enumerate(slots))
        if (s.role == want.role && s.elementType == want.elementType &&
            s.lastStep < want.firstStep) {
          s.elements = std::max(s.elements, want.elements);
          s.lastStep = want.lastStep;
          return i;
        }
      slots.push_back(want);
      return slots.size() - 1;
    };
    Builder b(func.getContext());
    // Normalisations and reductions whose statistics the producing
    // convolution's epilogue writes: producer -> its readers, in step order.
    // Readers of one kind and grouping share the producer's records (a
    // mean and a var of one convolution result, as batch_norm's training
    // statistics); the first reader fixes both.
    DenseMap<Operation *, SmallVector<KernelOp>> statsConsumersOf;
    for (KernelOp k : steps) {
      k->removeAttr(kPlanResultBufferAttr);
      k->removeAttr(kPlanPartialsAttr);
      k->removeAttr(kPlanStatsGroupsAttr);
      k->removeAttr(kPlanStatsKindAttr);
      k->removeAttr(kPlanEpilogueStatsAttr);
      k->removeAttr(kPlanStatsOnlyAttr);
      if (kernelKindOf(k) == KernelKind::Normalization ||
          kernelKindOf(k) == KernelKind::Reduction) {
        k->setAttr(kPlanWarpLimitAttr, b.getI64IntegerAttr(warpSetLimit));
        k->setAttr(kPlanSplitChunkAttr, b.getI64IntegerAttr(splitChunk));
        k->setAttr(kPlanMergeRecordsAttr, b.getI64IntegerAttr(mergeRecords));
      }
    }
    if (epilogueStats)
      for (KernelOp k : steps) {
        KernelKind kind = kernelKindOf(k);
        if (kind != KernelKind::Normalization && kind != KernelKind::Reduction)
          continue;
        KernelOp producer = epilogueStatsCandidate(k);
        if (!producer)
          continue;
        StatsRoot root = StatsRoot::of(k);
        int64_t groups =
            *epilogueStatsGroups(root, producer.getResult().getType());
        // A producer has an entry only once a reader is accepted: every
        // entry has at least one reader (the workspace below takes its
        // kind from the first).
        auto found = statsConsumersOf.find(producer);
        if (found != statsConsumersOf.end()) {
          if (KernelPlan::statsGroups(producer) != groups ||
              StatsRoot::of(found->second.front()).kind != root.kind)
            continue; // Other records: this reader computes its own.
          found->second.push_back(k);
        } else {
          EpilogueStatsLayout layout =
              EpilogueStatsLayout::get(producer, groups, root.kind);
          if (layout.elements() > kMaxEpilogueStatsElements)
            continue; // Too many records: the reader computes its own.
          producer->setAttr(kPlanStatsGroupsAttr, b.getI64IntegerAttr(groups));
          producer->setAttr(kPlanStatsKindAttr,
                            b.getStringAttr(stringifyStatsKind(root.kind)));
          statsConsumersOf[producer].push_back(k);
        }
        k->setAttr(kPlanEpilogueStatsAttr, b.getUnitAttr());
      }
    // A reduction reads only the statistics: when nothing but such
    // reductions reads the convolution's result, it never reaches device
    // memory.
    for (auto &[producerOp, consumers] : statsConsumersOf) {
      auto producer = cast<KernelOp>(producerOp);
      Value result = producer.getResult();
      auto readsOnlyStats = [&](KernelOp k) {
        if (kernelKindOf(k) != KernelKind::Reduction)
          return false;
        Operation *rootOp = StatsRoot::of(k).op;
        for (auto [in, arg] :
             llvm::zip(k.getInputs(), k.getBody().front().getArguments()))
          if (in == result && !onlyFeeds(arg, rootOp))
            return false;
        return true;
      };
      bool onlyStats = llvm::all_of(result.getUsers(), [&](Operation *user) {
        auto k = dyn_cast<KernelOp>(user);
        return k && llvm::is_contained(consumers, k) && readsOnlyStats(k);
      });
      if (onlyStats && !llvm::is_contained(ret.getOperands(), result))
        producer->setAttr(kPlanStatsOnlyAttr, b.getUnitAttr());
    }
    for (auto [i, k] : llvm::enumerate(steps)) {
      int64_t step = i;
      auto consumers = statsConsumersOf.find(k);
      if (consumers != statsConsumersOf.end()) {
        // The workspace lives from this kernel to its last reader.
        EpilogueStatsLayout layout =
            EpilogueStatsLayout::get(k, *KernelPlan::statsGroups(k),
                                     StatsRoot::of(consumers->second[0]).kind);
        // The epilogue's records, and after them the records merged once
        // per set where a reader merges them so (its `mergeParts`; readers
        // that do write the same merged records).
        int64_t last = step, elements = layout.elements();
        for (KernelOp consumer : consumers->second) {
          last = std::max(last, stepOf.lookup(consumer));
          FailureOr<NormLayout> l = NormLayout::get(consumer);
          if (failed(l))
            return signalPassFailure();
          elements = std::max(elements, l->partialsElems());
        }
        PlanBuffer p{PlanBuffer::Role::Partials, layout.elementType, elements,
                     step, last};
        int64_t idx = assign(p);
        k->setAttr(kPlanPartialsAttr, b.getI64IntegerAttr(idx));
        for (KernelOp consumer : consumers->second)
          consumer->setAttr(kPlanPartialsAttr, b.getI64IntegerAttr(idx));
      }
      if (kernelKindOf(k) == KernelKind::Normalization ||
          kernelKindOf(k) == KernelKind::Reduction) {
        FailureOr<NormLayout> l = NormLayout::get(k);
        if (failed(l))
          return signalPassFailure();
        if (l->mode == NormLayout::Mode::Split) {
          PlanBuffer p{PlanBuffer::Role::Partials, l->statsType,
                       l->partialsElems(), step, step};
          k->setAttr(kPlanPartialsAttr, b.getI64IntegerAttr(assign(p)));
        }
      }
      if (llvm::is_contained(ret.getOperands(), k.getResult()) ||
          KernelPlan::statsOnly(k))
        continue; // Written to the entry's output argument, or not at all.
      int64_t last = step;
      for (Operation *user : k.getResult().getUsers()) {
        auto it = stepOf.find(user);
        if (it == stepOf.end()) {
          user->emitOpError("reads a kernel result but is not a kernel; "
                            "every graph op must be in a kernel before "
                            "fuse-plan-kernels");
          return signalPassFailure();
        }
        last = std::max(last, it->second);
      }
      auto ty = cast<RankedTensorType>(k.getResult().getType());
      PlanBuffer inter{PlanBuffer::Role::Intermediate, ty.getElementType(),
                       ty.getNumElements(), step, last};
      k->setAttr(kPlanResultBufferAttr, b.getI64IntegerAttr(assign(inter)));
    }
    SmallVector<Attribute> records;
    for (const PlanBuffer &s : slots)
      records.push_back(b.getDictionaryAttr({
          b.getNamedAttr("role", b.getStringAttr(PlanBuffer::roleName(s.role))),
          b.getNamedAttr("type", TypeAttr::get(s.elementType)),
          b.getNamedAttr("elements", b.getI64IntegerAttr(s.elements)),
          b.getNamedAttr("first", b.getI64IntegerAttr(s.firstStep)),
          b.getNamedAttr("last", b.getI64IntegerAttr(s.lastStep)),
      }));
    func->setAttr(kPlanBuffersAttr, b.getArrayAttr(records));
  }
};

} // namespace
