//===- ReduceConverters.cpp - reduction ONNX converters -------------------===//
//
// ReduceSum, ReduceMean, ReduceMax, ReduceMin and ReduceLogSumExp as fuse's
// reductions, and the exact compositions ReduceSumSquare = sum(x * x),
// ReduceL1 = sum(|x|), ReduceL2 = sqrt(sum(x * x)) and ReduceLogSum =
// log(sum(x)). Axes come from the attribute (older opsets) or a constant
// second input; no axes reduce every dim, or none with noop_with_empty_axes.
// ReduceProd has no fuse op.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::onnx_import;
using llvm::StringRef;

namespace {

/// What an ONNX reduction computes around its fuse reduction.
enum class Pre { None, Square, Abs };
enum class Post { None, Sqrt, Log };

/// The opset from which `op` takes its axes as input 1 (ReduceSum: 13,
/// the others: 18).
int64_t axesInputOpset(StringRef op) { return op == "ReduceSum" ? 13 : 18; }

/// The sorted, normalised axes of the node, or std::nullopt for "no axes".
FailureOr<std::optional<Shape>> reduceAxes(NodeContext &nc, int64_t rank) {
  std::optional<std::vector<int64_t>> axes;
  if (nc.opset() < axesInputOpset(nc.node.op_type())) {
    if (failed(nc.checkAttributes({"axes", "keepdims"})))
      return failure();
    FailureOr<std::optional<std::vector<int64_t>>> a = nc.attrInts("axes");
    if (failed(a))
      return failure();
    axes = *a;
  } else {
    if (failed(nc.checkAttributes({"keepdims", "noop_with_empty_axes"})))
      return failure();
    if (nc.input(1)) {
      FailureOr<std::vector<int64_t>> a = nc.constInts(1, "axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  }
  if (!axes || axes->empty())
    return std::optional<Shape>();
  std::vector<bool> seen(rank, false);
  for (int64_t a : *axes) {
    FailureOr<int64_t> n = nc.normalizeAxis(a, rank, "axis");
    if (failed(n))
      return failure();
    if (seen[*n])
      return nc.fail("axis " + std::to_string(a) + " is repeated");
    seen[*n] = true;
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i)
    if (seen[i])
      out.push_back(i);
  return std::optional<Shape>(out);
}

/// Builds `OpTy` over `dims` of `x` (with `keepdim`).
template <typename OpTy>
Value reduce(NodeContext &nc, Value x, llvm::ArrayRef<int64_t> dims,
             bool keepdim) {
  auto in = cast<RankedTensorType>(x.getType()).getShape();
  Shape out;
  for (int64_t i = 0; i < static_cast<int64_t>(in.size()); ++i)
    if (!llvm::is_contained(dims, i))
      out.push_back(in[i]);
    else if (keepdim)
      out.push_back(1);
  return OpTy::create(nc.builder(), nc.loc, nc.f32Type(out), x, dims, keepdim);
}

template <typename OpTy, Pre pre = Pre::None, Post post = Post::None>
LogicalResult convertReduce(NodeContext &nc) {
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  Shape in(cast<RankedTensorType>(x->getType()).getShape());
  int64_t rank = static_cast<int64_t>(in.size());
  FailureOr<std::optional<Shape>> axes = reduceAxes(nc, rank);
  if (failed(axes))
    return failure();
  FailureOr<int64_t> keepdims = nc.attrInt("keepdims", 1);
  FailureOr<int64_t> noop = nc.attrInt("noop_with_empty_axes", 0);
  if (failed(keepdims) || failed(noop))
    return failure();
  // No axes reduce every dim, or none with noop_with_empty_axes (then
  // only the elementwise parts apply, as in ONNX's reference: ReduceL2 gives
  // sqrt(x * x)).
  Shape dims;
  if (*axes)
    dims = **axes;
  else if (!*noop)
    for (int64_t i = 0; i < rank; ++i)
      dims.push_back(i);
  for (int64_t d : dims)
    if (in[d] == 0)
      return nc.fail("reduces dim " + std::to_string(d) + " of size 0 (input " +
                     shapeStr(in) + ")");
  OpBuilder &b = nc.builder();
  Value v = *x;
  if constexpr (pre == Pre::Square)
    v = fuse::MulOp::create(b, nc.loc, v.getType(), v, v);
  else if constexpr (pre == Pre::Abs)
    v = fuse::AbsOp::create(b, nc.loc, v.getType(), v);
  // No dims (noop, or a rank-0 input): each element reduces alone.
  if (!dims.empty())
    v = reduce<OpTy>(nc, v, dims, *keepdims != 0);
  if constexpr (post == Post::Sqrt)
    v = fuse::SqrtOp::create(b, nc.loc, v.getType(), v);
  else if constexpr (post == Post::Log)
    v = fuse::LogOp::create(b, nc.loc, v.getType(), v);
  nc.setResult(v);
  return success();
}

} // namespace

void fusecc::onnx_import::registerReduceConverters(
    llvm::StringMap<Converter> &t) {
  t["ReduceSum"] = convertReduce<fuse::SumOp>;
  t["ReduceMean"] = convertReduce<fuse::MeanOp>;
  t["ReduceMax"] = convertReduce<fuse::AmaxOp>;
  t["ReduceMin"] = convertReduce<fuse::AminOp>;
  t["ReduceLogSumExp"] = convertReduce<fuse::LogSumExpOp>;
  t["ReduceSumSquare"] = convertReduce<fuse::SumOp, Pre::Square>;
  t["ReduceL1"] = convertReduce<fuse::SumOp, Pre::Abs>;
  t["ReduceL2"] = convertReduce<fuse::SumOp, Pre::Square, Post::Sqrt>;
  t["ReduceLogSum"] = convertReduce<fuse::SumOp, Pre::None, Post::Log>;
  t["ReduceProd"] = [](NodeContext &nc) {
    return nc.fail("there is no product reduction in fuse and no exact "
                   "composition (exp(sum(log(x))) fails for x <= 0)");
  };
}
