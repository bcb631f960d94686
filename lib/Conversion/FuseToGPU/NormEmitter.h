//===- NormEmitter.h - statistics of reduction sets -------------*- C++ -*-===//
//
// The statistics code of the normalisation and reduction kernels
// (NormalizationKernels.cpp), by statistics kind (`StatsKind`): a chunk's
// statistics, the merge of partials and of epilogue records, the per-element
// normalisation and the one result of a reduction's set.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CONVERSION_FUSETOGPU_NORMEMITTER_H
#define FUSECC_LIB_CONVERSION_FUSETOGPU_NORMEMITTER_H

#include "StandaloneKernels.h"

namespace fusecc::detail {

/// Warps per block of the normalisation kernels.
constexpr int64_t kNormWarps = fuse::kStandaloneThreads / 32;
/// Shared memory of a block reduction: one slot per warp, per reduction,
/// plus the two statistics broadcast to the block (Epilogue: up to four
/// values per warp, its merged record).
constexpr int64_t kNormSharedFloats = 4 * kNormWarps + 2;
/// 16-byte quads a thread of `NormEmitter::applyChunk` loads before it
/// stores any (memory-level parallelism of the streaming phase).
constexpr int64_t kQuadsPerThread = 4;

/// The statistics of a chunk or a set, by kind: (mean - shift, M2), (max,
/// sum of exp(x - max)), or (max) / (min) with `b` null.
struct NormStats {
  mlir::Value a, b;
};

/// A partial statistic of a set written by a convolution's epilogue
/// (EpilogueStatsLayout): `recordSize` values of its kind.
struct NormRecord {
  llvm::SmallVector<mlir::Value, 4> fields;
};

/// Emits the statistics of one normalisation or reduction kernel.
struct NormEmitter {
  StandaloneContext &cx;
  mlir::ImplicitLocOpBuilder &b;
  const fuse::NormLayout &l;
  mlir::Operation *root; ///< The normalisation or reduction op.
  fuse::StatsKind kind;
  double eps = 0.0;
  mlir::Value x;    ///< The root's input, flat.
  mlir::Value out;  ///< The kernel's output, flat.
  mlir::Value smem; ///< kNormSharedFloats statistics, or null.
  /// Moments: the set's first element; statistics are relative to it.
  mlir::Value shift;
  int64_t reductions = 0;

  NormEmitter(StandaloneContext &cx, const fuse::NormLayout &l);

  mlir::Value c(int64_t v) { return cx.c(v); }
  mlir::Value f(double v) { return cx.f(v); }
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value addF(mlir::Value x, mlir::Value y);
  mlir::Value subF(mlir::Value x, mlir::Value y);
  mlir::Value mulF(mlir::Value x, mlir::Value y);
  mlir::Value divF(mlir::Value x, mlir::Value y);
  mlir::Value maxF(mlir::Value x, mlir::Value y);
  mlir::Value minF(mlir::Value x, mlir::Value y);
  mlir::Value expF(mlir::Value x);
  mlir::Value eqF(mlir::Value x, mlir::Value y);
  mlir::Value select(mlir::Value c, mlir::Value x, mlir::Value y);
  mlir::Value toF(mlir::Value index);
  mlir::Value load(mlir::Value mem, mlir::Value i);
  mlir::Value sload(int64_t i) { return load(smem, c(i)); }
  /// Combines two extremes of this kind (max, or min for Min).
  mlir::Value extreme(mlir::Value x, mlir::Value y);
  /// The extreme of no element: -inf (+inf for Min).
  mlir::Value noExtreme();

  /// Sums (or maxes) `term(x[addr(j)])` over j = first, first + step, ...
  /// below `end` into one per-thread value.
  mlir::Value
  accumulate(mlir::Value first, mlir::Value end, int64_t step, mlir::Value init,
             llvm::function_ref<mlir::Value(mlir::Value)> addr,
             llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> combine,
             llvm::function_ref<mlir::Value(mlir::Value)> term);
  /// Sums `term(x[addr(j)])` over j = first, first + step, ... below `end`
  /// with a running compensation (Neumaier): a thread's rounding error stays
  /// about one ulp of its sum however long its share of a set is (a column
  /// of 1408 elements summed plainly in f32 was off by 2e-5 relative).
  mlir::Value accumulateSum(mlir::Value first, mlir::Value end, int64_t step,
                            llvm::function_ref<mlir::Value(mlir::Value)> addr,
                            llvm::function_ref<mlir::Value(mlir::Value)> term);
  /// Combines `v` over the 32 lanes of a warp (every lane gets the result).
  mlir::Value
  warpReduce(mlir::Value v,
             llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> combine);
  /// Combines `v` over the block (every thread gets the result).
  mlir::Value blockReduce(
      mlir::Value v, mlir::Value tid,
      llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> combine);

  using Reduce = llvm::function_ref<mlir::Value(
      mlir::Value, llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)>)>;
  /// The statistics of elements first, first + step, ... below `end` of a
  /// chunk [start, end) (`count` elements), combined over the threads that
  /// split the chunk by `reduce`.
  NormStats chunkStats(mlir::Value count, mlir::Value first, mlir::Value end,
                       int64_t step,
                       llvm::function_ref<mlir::Value(mlir::Value)> addr,
                       Reduce reduce);
  /// Whether the statistics need a set's spread (M2) and a shift: all but
  /// a sum or mean reduction.
  bool needsSpread() const;
  /// Loads the set's shift (its element 0) for moments, 0 for a sum or
  /// mean.
  void setShift(llvm::function_ref<mlir::Value(mlir::Value)> addr);
  /// The per-element factors of a normalisation's set from its statistics:
  /// (mean - shift, 1 / sqrt(var + eps)), (max, 1 / sum), or for the log
  /// form (max, log(sum)).
  NormStats finish(NormStats s);
  /// The root's value at flat element `e` (coordinates `coords`).
  mlir::Value normalized(mlir::Value e, llvm::ArrayRef<mlir::Value> coords,
                         NormStats k);
  /// The root's value at coordinates `coords` whose input element is `v`.
  mlir::Value normalizedValue(mlir::Value v, llvm::ArrayRef<mlir::Value> coords,
                              NormStats k);
  /// Normalises elements first, first + step, ... below `end` of a set and
  /// stores the kernel's result there.
  void apply(mlir::Value first, mlir::Value end, int64_t step,
             llvm::function_ref<mlir::Value(mlir::Value)> addr, NormStats k);
  /// Evaluates the kernel's ops after the root at flat output element `e`,
  /// the root's value there being `rootValue`, and stores the result.
  void storeResult(mlir::Value e, mlir::Value rootValue);
  /// The kernel's result at flat output element `e` (the ops after the
  /// root evaluated there), the root's value there being `rootValue`.
  mlir::Value resultAt(mlir::Value e, mlir::Value rootValue);
  /// Whether the elements of a set's chunks, read and written flat, come in
  /// 16-byte aligned f32 quads (set length and chunk multiples of 4, no
  /// broadcast after the root).
  bool quadAligned() const;
  /// Normalises the chunk [start, end) of the set at flat `setBase`, split
  /// over the block's threads (this one `tid`): in 16-byte quads,
  /// kQuadsPerThread per thread loaded before any is stored, where
  /// `quadAligned`; element by element (`apply`) otherwise.
  void applyChunk(mlir::Value setBase, mlir::Value start, mlir::Value end,
                  mlir::Value tid, NormStats k);
  /// A reduction's set `set`: its result from the set's merged statistics
  /// `s` (not finished), carried through the ops after the root (they keep
  /// flat indices: the set's output element is `set`) and stored by the
  /// threads where `writer` holds (all when null).
  void storeReduction(mlir::Value set, NormStats s, mlir::Value writer);
  /// Merges partial statistics q (count nq) into (n, acc).
  void merge(mlir::Value &n, NormStats &acc, mlir::Value nq, NormStats q);

  /// The record of no element (neutral in `mergeRecords`).
  NormRecord emptyRecord();
  /// Merges record q into acc: Chan et al. keeping acc's shift (a record
  /// that counts no element leaves the other unchanged), the sums of
  /// exponentials rescaled to the common max, or the extreme.
  NormRecord mergeRecords(const NormRecord &acc, const NormRecord &q);
  /// Merges `r` over the 32 lanes of a warp (every lane gets the result).
  NormRecord warpMergeRecords(NormRecord r);
  /// The record of this kind whose first value is `mem[at]`.
  NormRecord loadRecord(mlir::Value mem, mlir::Value at);
  /// Merges the records of `mem` whose first values are `recordAt(k)`, for
  /// k = first, first + step, ... below `end`, in order into one per-thread
  /// record (empty where there is none).
  NormRecord
  mergeRecordRange(mlir::Value mem, mlir::Value first, mlir::Value end,
                   int64_t step,
                   llvm::function_ref<mlir::Value(mlir::Value)> recordAt);
  /// Merges `r` over the block whose thread this is (`tid`): over each
  /// warp by shuffles, then lane 0 of each warp stores its record in
  /// shared memory and after one barrier every thread merges the warps'
  /// records in order (every thread gets the result). Uses the start of
  /// `smem`: the block's first use of it.
  NormRecord blockMergeRecords(NormRecord r, mlir::Value tid);
  /// A merged record as statistics (sets `shift` for moments).
  NormStats recordStats(const NormRecord &r);
};

} // namespace fusecc::detail

#endif // FUSECC_LIB_CONVERSION_FUSETOGPU_NORMEMITTER_H
