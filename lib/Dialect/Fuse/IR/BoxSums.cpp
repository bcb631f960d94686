//===- BoxSums.cpp - one-pass box sums of a plane -------------------------===//
//
// `BoxSumsLayout::get`: whether a kernel's tap sums are built in one pass
// per plane, and how (BoxSums.h; the kernel is BoxSumsKernel.cpp).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/BoxSums.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

/// Threads per block at most, and 16-byte loads (or scalar loads) a thread
/// has in flight per row-loop iteration (row steps not all unrolled).
static constexpr int64_t kMaxThreads = 256;
static constexpr int64_t kVectorLoadsInFlight = 4;
static constexpr int64_t kScalarLoadsInFlight = 8;

int64_t BoxSumsLayout::leadCells() const {
  int64_t n = 1;
  for (size_t i = 0; i + 1 < cuts.size(); ++i)
    n *= regions(i);
  return n;
}

int64_t BoxSumsLayout::cells() const {
  return leadCells() * regions(cuts.size() - 1);
}

int64_t BoxSumsLayout::rowSteps() const {
  int64_t steps = 0;
  for (int64_t cell = 0, n = leadCells(); cell < n; ++cell) {
    // The cell's rows: the product of its regions' extents, row-major.
    int64_t rest = cell, cellRows = 1;
    for (size_t i = cuts.size() - 1; i-- > 0;) {
      int64_t r = rest % regions(i);
      rest /= regions(i);
      cellRows *= cuts[i][r + 1] - cuts[i][r];
    }
    steps += llvm::divideCeil(cellRows, rowsPerStep);
  }
  return steps;
}

int64_t BoxSumsLayout::taps() const {
  int64_t n = 1;
  ConvTransposeTapSumsOp tapSums = op;
  for (int64_t k : tapSums.getKernelSize())
    n *= k;
  return n;
}

std::optional<BoxSumsLayout> BoxSumsLayout::get(KernelOp kernel) {
  Block &body = kernel.getBody().front();
  if (body.getNumArguments() != 1)
    return std::nullopt;
  SmallVector<Operation *> ops;
  for (Operation &o : body.without_terminator())
    ops.push_back(&o);
  // The tap sums of the input, or of its half storage widened (a cast the
  // kernel reads directly, FormKernels copies it in; the loads widen).
  Value input = body.getArgument(0);
  if (ops.size() == 2) {
    auto c = dyn_cast<CastOp>(ops.front());
    if (!c || c.getInput() != input ||
        !isHalfType(getElementTypeOrSelf(input.getType())) ||
        !getElementTypeOrSelf(c.getType()).isF32())
      return std::nullopt;
    input = c.getResult();
  } else if (ops.size() != 1) {
    return std::nullopt;
  }
  auto op = dyn_cast<ConvTransposeTapSumsOp>(ops.back());
  if (!op || op.getInput() != input ||
      cast<YieldOp>(body.getTerminator()).getValue() != op.getResult() ||
      kernel.getResult().getType() != op.getResult().getType())
    return std::nullopt;
  BoxSumsLayout l;
  l.op = op;
  ArrayRef<int64_t> shape = op.getInput().getType().getShape();
  const size_t nsp = shape.size() - 2;
  for (size_t i = 0; i < nsp; ++i) {
    SmallVector<int64_t> c = {0, shape[i + 2]};
    for (int64_t j = 0, k = op.getKernelSize()[i]; j < k; ++j) {
      auto [lo, hi] = op.getTapInterval(i, j);
      if (lo < hi)
        c.append({lo, hi});
    }
    llvm::sort(c);
    c.erase(llvm::unique(c), c.end());
    l.cuts.push_back(std::move(c));
  }
  l.planes = shape[0] * shape[1];
  l.rowLen = shape.back();
  l.rows = 1;
  for (size_t i = 2; i + 1 < shape.size(); ++i)
    l.rows *= shape[i];
  // Rows of a multiple of 4 keep every row 16-byte aligned (the buffer is).
  l.vector = l.rowLen % 4 == 0 ? 4 : 1;
  l.unitsPerRow = l.rowLen / l.vector;
  // About kLoadsPerThread units a thread, and no more accumulators than a
  // thread keeps (a row wider than the plane's threads gives each several
  // column units).
  int64_t t =
      std::max(llvm::divideCeil(l.rows * l.unitsPerRow, kLoadsPerThread),
               llvm::divideCeil(l.unitsPerRow, kMaxAccumulators / l.vector));
  l.threadsPerPlane =
      std::clamp<int64_t>(llvm::alignTo(t, 32), 32, kMaxThreads);
  // Planes share a block while the grid keeps kMinBlocks blocks: blocks of
  // a warp or two would leave an SM's thread slots unused.
  l.planesPerBlock = std::clamp<int64_t>(l.planes / kMinBlocks, 1,
                                         kMaxThreads / l.threadsPerPlane);
  l.threads = l.planesPerBlock * l.threadsPerPlane;
  l.unitsPerThread = llvm::divideCeil(l.unitsPerRow, l.threadsPerPlane);
  l.rowsPerStep = std::max<int64_t>(1, l.threadsPerPlane / l.unitsPerRow);
  const int64_t inFlight =
      l.vector == 4 ? kVectorLoadsInFlight : kScalarLoadsInFlight;
  l.unroll = std::max<int64_t>(1, inFlight / l.unitsPerThread);
  if (l.unitsPerThread * l.vector > kMaxAccumulators ||
      l.regions(nsp - 1) > kMaxColumnRegions || l.leadCells() > kMaxLeadCells ||
      l.cells() > kMaxCells || l.blocks() > std::numeric_limits<int32_t>::max())
    return std::nullopt;
  l.straight = l.rowSteps() * l.unitsPerThread <= kMaxStraightLoads;
  return l;
}
