//===- KernelAnalysis.cpp - shape facts of a fused kernel -----------------===//
//
// Normalises the convolution of a fuse.kernel to three spatial dims and
// checks that its epilogue can be computed on one block's output tile.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <numeric>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

/// Plan sizes saturate here: a plan that needs more is rejected by the
/// limits (shared memory, grid, workspace) and never built, and 4 x this
/// (bytes) still fits int64.
static constexpr int64_t kSaturated = int64_t{1} << 60;

/// a * b (both >= 0), saturated at kSaturated.
static int64_t smul(int64_t a, int64_t b) {
  std::optional<int64_t> r = checkedMul(a, b);
  return r && *r <= kSaturated ? *r : kSaturated;
}

/// a + b (both >= 0), saturated at kSaturated.
static int64_t sadd(int64_t a, int64_t b) {
  std::optional<int64_t> r = checkedAdd(a, b);
  return r && *r <= kSaturated ? *r : kSaturated;
}

ConvGeometry ConvGeometry::get(ConvTransposeOp conv) {
  ConvGeometry g;
  auto inTy = conv.getInput().getType();
  auto wTy = conv.getWeight().getType();
  auto outTy = conv.getResult().getType();
  g.rank = inTy.getRank();
  g.n = inTy.getDimSize(0);
  g.cin = inTy.getDimSize(1);
  g.groups = conv.getGroups();
  g.cout = outTy.getDimSize(1);
  g.hasBias = static_cast<bool>(conv.getBias());
  int64_t nsp = g.rank - 2, lead = 3 - nsp;
  for (int64_t i = 0; i < 3; ++i) {
    bool real = i >= lead;
    int64_t j = i - lead;
    g.in[i] = real ? inTy.getDimSize(2 + j) : 1;
    g.out[i] = real ? outTy.getDimSize(2 + j) : 1;
    g.k[i] = real ? wTy.getDimSize(2 + j) : 1;
    g.stride[i] = real ? conv.getStride()[j] : 1;
    g.pad[i] = real ? conv.getPadding()[j] : 0;
    g.dil[i] = real ? conv.getDilation()[j] : 1;
  }
  return g;
}

int64_t ConvGeometry::validMacs() const {
  // Per dim: number of (output, tap) pairs whose input index is valid.
  int64_t pairs = 1;
  for (int i = 0; i < 3; ++i) {
    int64_t cnt = 0;
    for (int64_t o = 0; o < out[i]; ++o)
      for (int64_t t = 0; t < k[i]; ++t) {
        int64_t num = o + pad[i] - t * dil[i];
        if (num >= 0 && num % stride[i] == 0 && num / stride[i] < in[i])
          ++cnt;
      }
    pairs = smul(pairs, cnt);
  }
  return smul(smul(smul(n, cout), cinPerGroup()), pairs);
}

/// True if `v`'s shape broadcasts to `shape` without growing it.
static bool broadcastsTo(Value v, ArrayRef<int64_t> shape) {
  auto ty = cast<RankedTensorType>(v.getType());
  auto b = broadcastShapes(ty.getShape(), shape);
  return succeeded(b) && ArrayRef<int64_t>(*b) == shape;
}

TileReduction fusecc::fuse::tileReductionOf(NormalizationOpInterface op) {
  int64_t rank =
      cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  SmallVector<int64_t> dims = op.getReducedDims();
  if (op.getChannelGroups() != 1 || dims.size() != 1)
    return TileReduction::SpansBlocks;
  if (dims[0] == 1)
    return TileReduction::Channels;
  if (dims[0] == rank - 1)
    return TileReduction::LastDim;
  return TileReduction::SpansBlocks;
}

KernelKind fusecc::fuse::kernelKindOf(KernelOp kernel) {
  for (Operation &op : kernel.getBody().front()) {
    if (isa<ConvTransposeOp>(op))
      return KernelKind::Convolution;
    if (isa<NormalizationOpInterface>(op))
      return KernelKind::Normalization;
  }
  return KernelKind::Elementwise;
}

/// Limits of the kernel generator, checked before any plan loops, unrolls or
/// multiplies over the geometry: taps are unrolled along the last dim and
/// phase-selected (unrolled) along all dims, and threads along W are a
/// multiple of the W stride.
static LogicalResult checkGeometryLimits(ConvTransposeOp conv,
                                         const ConvGeometry &g) {
  const int64_t lead = 3 - (g.rank - 2);
  for (int64_t i = lead; i < 3; ++i) {
    if (g.k[i] > kMaxKernelSize)
      return conv.emitOpError("kernel size ")
             << g.k[i] << " along spatial dim " << i - lead << " exceeds "
             << kMaxKernelSize << ", the most the generated kernels unroll";
  }
  if (g.stride[2] > kMaxThreadsPerBlock)
    return conv.emitOpError("stride ")
           << g.stride[2] << " along the last dim needs more than "
           << kMaxThreadsPerBlock
           << " threads per block (threads along W are a multiple of the "
              "stride)";
  return success();
}

FailureOr<KernelAnalysis> KernelAnalysis::analyze(KernelOp kernel) {
  KernelAnalysis a;
  Block &body = kernel.getBody().front();
  for (Operation &op : body.without_terminator()) {
    if (auto conv = dyn_cast<ConvTransposeOp>(op)) {
      if (a.conv)
        return kernel.emitOpError(
            "has more than one convolution; a kernel computes one");
      a.conv = conv;
      continue;
    }
    if (!a.conv) {
      if (isa<arith::ConstantOp>(op))
        continue;
      return op.emitOpError("before the convolution of a fused kernel is not "
                            "supported (prologue fusion is not implemented)");
    }
  }
  if (!a.conv)
    return kernel.emitOpError("has no fuse.conv_transpose to compute");
  a.geom = ConvGeometry::get(a.conv);
  if (failed(checkGeometryLimits(a.conv, a.geom)))
    return failure();
  for (Value v : a.conv->getOperands())
    if (!isa<BlockArgument>(v))
      return a.conv.emitOpError(
          "operands of a fused convolution must be kernel inputs");
  ArrayRef<int64_t> shape = a.conv.getResult().getType().getShape();
  int64_t rank = shape.size();
  for (Operation &op : body.without_terminator()) {
    if (&op == a.conv.getOperation() || isa<arith::ConstantOp>(op))
      continue;
    for (Value r : op.getResults())
      if (cast<RankedTensorType>(r.getType()).getShape() != shape)
        return op.emitOpError("result shape differs from the convolution "
                              "output; the fused epilogue must keep it");
    if (auto norm = dyn_cast<NormalizationOpInterface>(op)) {
      switch (tileReductionOf(norm)) {
      case TileReduction::Channels:
        a.needsAllChannels = true;
        break;
      case TileReduction::LastDim:
        a.needsWholeRow = true;
        break;
      case TileReduction::SpansBlocks:
        return op.emitOpError("reduces a set that spans several output "
                              "tiles; only the channel dim (1) or the last "
                              "dim is reduced inside a convolution kernel "
                              "(fuse-form-kernels plans the others as "
                              "kernels of their own)");
      }
      a.reductions.push_back(&op);
      continue;
    }
    if (!isa<ElementwiseOpInterface>(op))
      return op.emitOpError("cannot be part of a fused epilogue");
    for (Value v : op.getOperands())
      if (!broadcastsTo(v, shape))
        return op.emitOpError("operand does not broadcast to the kernel's "
                              "output shape");
  }
  a.assignTiles();
  return a;
}

void KernelAnalysis::assignTiles() {
  Block *body = conv->getBlock();
  DenseMap<Operation *, int64_t> position;
  int64_t pos = 0;
  for (Operation &op : *body)
    position[&op] = pos++;
  // The last position at which a tile-backed value is read: through chains
  // of elementwise ops (evaluated where their users are) up to the
  // reductions and the yield that consume it.
  auto lastUse = [&](Operation *def) {
    int64_t last = position[def];
    SmallVector<Operation *> work{def};
    DenseSet<Operation *> seen;
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (Operation *user : op->getUsers()) {
        last = std::max(last, position[user]);
        if (seen.insert(user).second && isa<ElementwiseOpInterface>(user))
          work.push_back(user);
      }
    }
    return last;
  };
  tileOf[conv] = 0;
  SmallVector<Operation *> owner{conv.getOperation()};
  for (Operation *red : reductions) {
    int64_t here = position[red];
    auto it = llvm::find_if(owner, [&](Operation *o) {
      return lastUse(o) <= here;
    });
    if (it != owner.end()) {
      tileOf[red] = it - owner.begin();
      *it = red;
    } else {
      tileOf[red] = owner.size();
      owner.push_back(red);
    }
  }
  numTiles = owner.size();
}

/// The plan with output-tile lines `tileStride` apart and the lines of
/// channels 4..7 (mod 8) `tileSkew` further.
static SharedMemoryPlan planSharedMemory(const KernelAnalysis &a,
                                         TileConfigAttr cfg, int64_t tileStride,
                                         int64_t tileSkew) {
  SharedMemoryPlan p;
  const ConvGeometry &g = a.geom;
  p.tileStride = tileStride;
  p.tileSkew = tileSkew;
  p.tileElems = smul(smul(cfg.getRows(), cfg.getTileC()), p.tileStride);
  p.numTiles = a.numTiles;
  p.inputSpan =
      sadd(cfg.getTileW() - 1, smul(g.k[2] - 1, g.dil[2])) / g.stride[2] + 2;
  // Input rows whose length is a multiple of 4 are staged with 16-byte
  // loads: the staged window then starts at a multiple of 4 (up to 3 more
  // columns) and spans whole vectors.
  p.vectorInput = g.in[2] % 4 == 0;
  if (p.vectorInput)
    p.inputSpan =
        std::min<int64_t>(llvm::alignTo(p.inputSpan + 3, 4), kSaturated);
  else if (cfg.usesWgmma())
    p.inputSpan = std::min<int64_t>(llvm::alignTo(p.inputSpan, 4),
                                    kSaturated); // whole column quads

  // Strides = 8 (mod 32) make the tensor-core fragment loads (8 rows x 4
  // k-columns per warp) hit 32 distinct banks.
  auto conflictFree = [](int64_t n) -> int64_t {
    return n <= 8 ? 8
                  : std::min<int64_t>(llvm::alignTo(n - 8, 32) + 8, kSaturated);
  };
  p.xsRowStride = p.inputSpan;
  p.subBlock = cfg.usesTensorCores()
                   ? cfg.getTileC()
                   : cfg.getThreadsC() * cfg.getChanPerThread();
  // The valid H taps of a block's rows form a progression of at most
  // ceil(kh / step) taps; `hTaps` of them are staged per round.
  const int64_t hStep = g.stride[1] / std::gcd(g.stride[1], g.dil[1]);
  p.hInputStep = smul(hStep, g.dil[1]) / g.stride[1];
  auto layout = [&](int64_t hTaps) {
    p.hTapsPerRound = hTaps;
    p.stagedRows = sadd(cfg.getRows(), smul(hTaps - 1, p.hInputStep));
    if (cfg.usesWgmma()) {
      // Planes = 4 words (mod 32) apart: the 16-byte stores of 4 threads
      // with consecutive channel groups and 2 column quads then cover all
      // 32 banks. The wgmma descriptors need 16-byte multiples throughout.
      const int64_t groups = cfg.getCiChunk() / 4;
      p.xsPlaneStride =
          sadd(std::min<int64_t>(llvm::alignTo(smul(4, p.inputSpan) - 4, 32),
                                 kSaturated),
               4);
      p.xsRowStride = smul(groups, p.xsPlaneStride);
      p.xsStride = 0;
      p.wsPlaneStride = 4 * cfg.getTileC();
      p.wsTapStride = smul(groups, p.wsPlaneStride);
      p.wsCiStride = 0;
      p.xsOffset = 0;
      // Both buffers' weight images start at a multiple of 128 bytes:
      // asynchronous 16-byte copies of 8 consecutive threads then fill one
      // 128-byte line (one shared-memory wavefront) rather than straddle
      // two (docs/perf.md section 84).
      p.wsOffset = std::min<int64_t>(
          llvm::alignTo(smul(p.stagedRows, p.xsRowStride), 32), kSaturated);
      p.stageElems = std::min<int64_t>(
          llvm::alignTo(
              sadd(p.wsOffset, smul(smul(hTaps, g.k[2]), p.wsTapStride)), 32),
          kSaturated);
      p.numStages = 2;
    } else {
      p.xsStride = conflictFree(smul(p.stagedRows, p.inputSpan));
      p.wsCiStride = conflictFree(smul(smul(hTaps, g.k[2]), p.subBlock));
      p.xsOffset = 0;
      p.wsOffset = smul(cfg.getCiChunk(), p.xsStride);
      p.stageElems = sadd(p.wsOffset, smul(cfg.getCiChunk(), p.wsCiStride));
      p.numStages = 1;
    }
    int64_t staging = smul(p.numStages, p.stageElems);
    int64_t tiles = smul(p.numTiles, p.tileElems);
    // With several channel sub-blocks, tiles are written while later
    // sub-blocks still stage: no aliasing then.
    bool alias = p.subBlock == cfg.getTileC();
    p.tilesOffset = alias ? 0 : staging;
    p.statsOffset = alias ? std::max(staging, tiles) : sadd(staging, tiles);
    p.statsLen = smul(cfg.getRows(), std::max(cfg.getTileC(), cfg.getTileW()));
    p.statsArrays = cfg.getClusterC() > 1 ? 2 * cfg.getClusterC() + 1 : 2;
    p.totalElems =
        sadd(p.statsOffset, smul(smul(p.statsArrays, p.statsLen),
                                 static_cast<int64_t>(a.reductions.size())));
  };
  // With `mergeHTaps`, tensor-core kernels stage all valid H taps of a
  // round at once (their input rows overlap: rows + taps - 1 rows instead
  // of rows x taps, and half the rounds and barriers for 2 taps) while two
  // blocks still fit an SM; otherwise one H tap per round. Measured mixed
  // (docs/perf.md section 24), so it is a tuning knob.
  int64_t maxH = llvm::divideCeil(g.k[1], hStep);
  layout(cfg.usesTensorCores() && cfg.getMergeHTaps() ? maxH : 1);
  if (p.hTapsPerRound > 1 && p.bytes() > kTwoBlocksSharedBytes)
    layout(1);
  return p;
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
  if (worstBank(oddStride, 0) == 1)
    return plain;
  for (int64_t stride = tileW; stride < tileW + 40; ++stride)
    for (int64_t skew = 0; tileW + skew <= stride; ++skew) {
      if (worstBank(stride, skew) != 1)
        continue;
      SharedMemoryPlan skewed = planSharedMemory(a, cfg, stride, skew);
      bool sameClass =
          skewed.bytes() <= std::max(plain.bytes(), kTwoBlocksSharedBytes) &&
          skewed.hTapsPerRound == plain.hTapsPerRound;
      return sameClass ? skewed : plain;
    }
  return plain;
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
  p.imageElems = smul(smul(g.k[2], cfg.getCiChunk()), cfg.getTileC());
  p.totalElems = smul(smul(smul(smul(p.numCTiles, p.kd), p.kh), p.numChunks),
                      p.imageElems);
  return p;
}

std::optional<InputPackPlan> InputPackPlan::get(const KernelAnalysis &a,
                                               TileConfigAttr cfg) {
  const ConvGeometry &g = a.geom;
  if (!cfg.usesWgmma() || g.in[2] % 4 != 0)
    return std::nullopt;
  SharedMemoryPlan smem = SharedMemoryPlan::get(a, cfg);
  LaunchPlan launch = LaunchPlan::get(a, cfg);
  const int64_t kw = g.k[2], sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
  // The staged window of W tile t starts at iwMin(t) (a multiple of 4) and
  // spans inputSpan columns (as in the kernel's setUpRounds).
  auto iwMin = [&](int64_t t) {
    int64_t first =
        llvm::divideFloorSigned(t * cfg.getTileW() + pw - (kw - 1) * dw, sw);
    return llvm::divideFloorSigned(first, 4) * 4;
  };
  InputPackPlan p;
  p.padL = std::max<int64_t>(0, -iwMin(0));
  int64_t end = std::max<int64_t>(
      g.in[2], iwMin(launch.numWTiles - 1) + smem.inputSpan);
  p.width = std::min<int64_t>(llvm::alignTo(sadd(p.padL, end), 4), kSaturated);
  p.numChunks = llvm::divideCeil(g.cin, cfg.getCiChunk());
  p.groups = cfg.getCiChunk() / 4;
  p.totalElems = smul(
      smul(smul(smul(smul(smul(g.n, g.in[0]), g.in[1]), p.numChunks), p.groups),
           p.width),
      4);
  // Worth its extra pass over the input only where that pass (read the
  // input, write the packed copy) is small beside the output the kernel
  // must write anyway: at most 20% of it. Measured (docs/perf.md section
  // 48): 14-15% on kb1_77, kb2_20, kb2_34, kb2_49 (1-4% faster), 28% on
  // kb2_91 (7% slower).
  const int64_t inputElems =
      smul(smul(smul(smul(g.n, g.cin), g.in[0]), g.in[1]), g.in[2]);
  const int64_t outputElems =
      smul(smul(smul(smul(g.n, g.cout), g.out[0]), g.out[1]), g.out[2]);
  if (smul(5, sadd(inputElems, p.totalElems)) > outputElems)
    return std::nullopt;
  return p;
}

LaunchPlan LaunchPlan::get(const KernelAnalysis &a, TileConfigAttr cfg) {
  LaunchPlan l;
  const ConvGeometry &g = a.geom;
  l.numWTiles = llvm::divideCeil(g.out[2], cfg.getTileW());
  l.numCTiles = llvm::divideCeil(g.cout, cfg.getTileC());
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
  l.numHBlocks = sadd(smul(r, llvm::divideCeil(q + 1, rows)),
                      q > 0 ? smul(sh - r, llvm::divideCeil(q, rows)) : 0);
  l.gridX = smul(smul(smul(smul(l.numWTiles, l.numCTiles), g.n), g.out[0]),
                 l.numHBlocks);
  l.threads = cfg.getThreadsW() * cfg.getThreadsC(); // 128 x wgmmaGroups
  return l;
}

std::string KernelAnalysis::tuningKey(KernelOp kernel,
                                      llvm::StringRef precision) const {
  const ConvGeometry &g = geom;
  std::string key;
  llvm::raw_string_ostream os(key);
  auto dims = [&](llvm::StringRef name, const std::array<int64_t, 3> &v) {
    os << " " << name << v[0] << "x" << v[1] << "x" << v[2];
  };
  os << precision << " r" << g.rank << " n" << g.n << " c" << g.cin << "x"
     << g.cout << " g" << g.groups << " b" << (g.hasBias ? 1 : 0);
  dims("in", g.in);
  dims("k", g.k);
  dims("s", g.stride);
  dims("p", g.pad);
  dims("d", g.dil);
  dims("out", g.out);
  os << " |";
  for (Operation &op : kernel.getBody().front().without_terminator())
    if (!isa<arith::ConstantOp>(op))
      os << " " << op.getName().stripDialect();
  return key;
}
