//===- BoxSums.h - one-pass box sums of a plane -----------------*- C++ -*-===//
//
// The layout of a box-sums kernel (`KernelKind::BoxSums`): the per-tap box
// sums of one `fuse.conv_transpose_tap_sums` built in one pass over each
// (sample, channel) plane of its input. Every tap's box is the plane minus
// a few border rows and columns, so per spatial dim the distinct ends of
// the taps' intervals cut the plane into a small grid of regions; a block
// sums each region once (every element read once) and each tap's box sum
// is the sum of the regions inside its box.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_BOXSUMS_H
#define FUSECC_DIALECT_FUSE_IR_BOXSUMS_H

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include <optional>

namespace fusecc::fuse {

/// How blocks sum the regions of their planes. The plane is `rows` rows of
/// `rowLen` elements (the innermost spatial dim), read in units of
/// `vector` elements (16-byte loads where rows are multiples of 4 long).
/// A block takes `planesPerBlock` consecutive planes, `threadsPerPlane`
/// threads (whole warps) each: about kLoadsPerThread units per thread, so
/// small planes (a 4 KB plane is 256 units) take a warp or two each and a
/// block several of them, every thread with several loads in flight.
/// Thread t of a plane takes the column units `t mod unitsPerRow + m
/// threadsPerPlane` (m < unitsPerThread) of the rows `t / unitsPerRow + i
/// rowsPerStep`, so its columns, and with them their column regions, never
/// change; the rows are walked region by region (`leadCells`, unrolled),
/// either all row steps unrolled with every load issued before any sum
/// (`straight`: at most kMaxStraightLoads loads a thread), or a loop of
/// `unroll` row steps per iteration.
struct BoxSumsLayout {
  ConvTransposeTapSumsOp op;
  /// Per spatial dim, the sorted distinct ends of the taps' non-empty
  /// intervals, 0 and the dim's size included: region r of the dim is
  /// [cuts[r], cuts[r + 1]).
  llvm::SmallVector<llvm::SmallVector<int64_t>> cuts;
  int64_t planes = 0, rows = 0, rowLen = 0;
  int64_t vector = 1, threadsPerPlane = 0, planesPerBlock = 1, threads = 0;
  int64_t unitsPerRow = 0, unitsPerThread = 1, rowsPerStep = 1, unroll = 1;
  bool straight = false;

  /// Units (16-byte or scalar loads) a thread takes per plane, about.
  static constexpr int64_t kLoadsPerThread = 8;
  /// Loads a thread issues at once when its row steps are all unrolled.
  static constexpr int64_t kMaxStraightLoads = 16;
  /// Blocks a grid keeps at least before planes share a block.
  static constexpr int64_t kMinBlocks = 1024;
  /// Region accumulators a thread keeps per column (unitsPerThread x
  /// vector), and column regions, at most.
  static constexpr int64_t kMaxAccumulators = 16;
  static constexpr int64_t kMaxColumnRegions = 16;
  /// Region cells of the leading dims (each unrolled), and of the plane
  /// (each a shared-memory slot per warp), at most.
  static constexpr int64_t kMaxLeadCells = 64;
  static constexpr int64_t kMaxCells = 1024;

  int64_t regions(size_t dim) const { return cuts[dim].size() - 1; }
  /// Region cells of the leading spatial dims (all but the innermost).
  int64_t leadCells() const;
  /// Region cells of the plane: leadCells() x the column regions.
  int64_t cells() const;
  int64_t taps() const;
  /// Row steps of the thread (per unit) over all region cells.
  int64_t rowSteps() const;
  int64_t blocks() const {
    return (planes + planesPerBlock - 1) / planesPerBlock;
  }
  /// The warps' slots per cell, then the planes' cell totals.
  int64_t sharedBytes() const {
    return (threads / 32 + planesPerBlock) * cells() * 4;
  }

  /// The layout of `kernel` when it is exactly one tap-sums op on a kernel
  /// input within the limits above; none otherwise (the op is then built
  /// per result element by an elementwise kernel).
  static std::optional<BoxSumsLayout> get(KernelOp kernel);
};

} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_IR_BOXSUMS_H
