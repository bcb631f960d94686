//===- FuseInterfaces.td - fuse op interfaces --------------*- tablegen -*-===//
//
// Interfaces shared by the fuse ops: the scalar form of elementwise ops, used
// both by code generation (as arith/math IR) and by the CPU reference.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEINTERFACES_TD
#define FUSECC_DIALECT_FUSE_IR_FUSEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Fuse_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let description = [{
    An op that applies one scalar function to each element of its (broadcast)
    operands. The op knows its scalar semantics twice: as IR built with the
    `arith` and `math` dialects on `f32` values (what a kernel computes), and
    as a double-precision evaluation (what the CPU reference computes).
  }];
  let cppNamespace = "::fusecc::fuse";
  let methods = [
    InterfaceMethod<
      "Builds the scalar computation on f32 `operands`, returns its value.",
      "::mlir::Value", "buildScalar",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::ValueRange":$operands)>,
    InterfaceMethod<
      "Evaluates the scalar function in double precision.",
      "double", "evaluate", (ins "::llvm::ArrayRef<double>":$operands)>,
    InterfaceMethod<
      "True if the result is affine in operand `index`: `a * x + c` with "
      "`x` that operand's element and `a`, `c` functions of the other "
      "operands' elements alone (add, sub, mul, neg; div in its dividend). "
      "A sum or mean over a set on which the other operands are constant "
      "then commutes with the op: mean(f(x)) = f(mean(x)) "
      "(fuse-reduce-through-conv).",
      "bool", "isAffineIn", (ins "unsigned":$index), [{}],
      [{ return false; }]>,
  ];
}

def Fuse_NormalizationOpInterface : OpInterface<"NormalizationOpInterface"> {
  let description = [{
    An op that is not elementwise: every element of its result depends on
    statistics (a max and a sum, a mean and a variance) of a set of input
    elements, its *reduction set*. The set is described by the reduced dims
    plus an optional grouping of the channel dim (dim 1): the elements of
    one set share every coordinate outside `getReducedDims()` and, when
    `getChannelGroups()` > 1, the channel group `c / (C / groups)`.
    The kernel analysis and the plan decide from this alone whether a tile
    holds a whole reduction set (statistics in the block), or whether the
    set spans blocks (partial statistics combined in a planned phase). The
    op evaluates itself in double precision for the CPU reference and
    describes itself as a bundle `graph` line.
  }];
  let cppNamespace = "::fusecc::fuse";
  let methods = [
    InterfaceMethod<
      "The dims reduced into one set of statistics, ascending.",
      "::llvm::SmallVector<int64_t>", "getReducedDims">,
    InterfaceMethod<
      "Groups of the channel dim (1: each channel on its own or all "
      "channels, as the reduced dims say).",
      "int64_t", "getChannelGroups", (ins), [{}], [{ return 1; }]>,
    InterfaceMethod<
      "The statistics of a set: Moments (mean and variance: the partials "
      "of any subset of a set merge with Chan's formula, whichever blocks "
      "computed them) or MaxSumExp (a max and a sum of exponentials, "
      "merged by rescaling). Over all non-batch dims of a convolution's "
      "result, or its spatial dims, the convolution's epilogue writes the "
      "partials of either kind.",
      "::fusecc::fuse::StatsKind", "getStatisticsKind", (ins), [{}],
      [{ return ::fusecc::fuse::StatsKind::Moments; }]>,
    InterfaceMethod<
      "With MaxSumExp statistics, the element's formula from the set's max "
      "m and sum s of exp(x - m): Exp, exp(x - m) / s (softmax), or Log, "
      "(x - m) - log(s) (log_softmax). The statistics, their partials and "
      "every plan are the same for both; only the per-element step and the "
      "set's finish (1 / s or log(s)) differ.",
      "::fusecc::fuse::SoftmaxForm", "getSoftmaxForm", (ins), [{}],
      [{ return ::fusecc::fuse::SoftmaxForm::Exp; }]>,
    InterfaceMethod<
      "Evaluates the op in double precision: `operands` are the dense "
      "row-major contents of the op's operands (in order, absent optional "
      "operands omitted), `out` the result's, of the result's shape.",
      "void", "evaluateReference",
      (ins "::llvm::ArrayRef<::llvm::ArrayRef<double>>":$operands,
           "::llvm::MutableArrayRef<double>":$out)>,
    InterfaceMethod<
      "The op's attributes as bundle graph-line tokens (`key=value` ...), "
      "after its operands (docs/bundle.md).",
      "std::string", "getGraphAttributes">,
  ];
}

def Fuse_WindowOpInterface : OpInterface<"WindowOpInterface"> {
  let description = [{
    An op whose result element at coordinates `o` combines the elements of
    its operand found from `o` alone: a pooling window, the whole extent of
    the reduced dims (a reduction), or one element at remapped coordinates
    (a reshape). A kernel evaluates it per result element, the window's loop
    inside the thread, so a chain of elementwise and window ops reads each
    graph input directly and needs no intermediate tensor. The op builds
    that loop itself (`buildAt`), evaluates itself in double precision for
    the CPU reference, and describes itself as a bundle `graph` line.
  }];
  let cppNamespace = "::fusecc::fuse";
  let methods = [
    InterfaceMethod<
      "Operand elements combined into one result element (the trip count "
      "of the loop `buildAt` builds; 1 for a reshape).",
      "int64_t", "getWindowVolume">,
    InterfaceMethod<
      "The dims whose whole extent one result element combines, ascending "
      "(empty for a pool or a reshape, whose windows are not whole dims).",
      "::llvm::SmallVector<int64_t>", "getReducedDims", (ins), [{}],
      [{ return {}; }]>,
    InterfaceMethod<
      "Sum, Mean, Variance, Max, Min or LogSumExp if the result is that "
      "statistic "
      "of the operand over getReducedDims() (its sets can then be planned "
      "like a normalisation's: split over blocks, or from a convolution "
      "epilogue's partial statistics, whose kind `statsKindOf` gives); "
      "None otherwise.",
      "::fusecc::fuse::SetReduction", "getSetReduction", (ins), [{}],
      [{ return ::fusecc::fuse::SetReduction::None; }]>,
    InterfaceMethod<
      "For a Variance set reduction, the correction subtracted from a "
      "set's size in the divisor (torch.var's `correction`: 1 unbiased, 0 "
      "biased); 0 for the other ops.",
      "int64_t", "getVarianceCorrection", (ins), [{}], [{ return 0; }]>,
    InterfaceMethod<
      "True if the result is the operand's elements in the same row-major "
      "order under another shape (a view: the same buffer serves both).",
      "bool", "isView", (ins), [{}], [{ return false; }]>,
    InterfaceMethod<
      "The sliding window of a pooling op (kernel, stride, padding and "
      "dilation per pooled trailing dim): every result element combines "
      "the operand elements of its window and nothing else, so a producer "
      "whose blocks hold whole windows can apply the op in its epilogue. "
      "std::nullopt for the other window ops.",
      "std::optional<::fusecc::fuse::SlidingWindow>", "getSlidingWindow",
      (ins), [{}], [{ return std::nullopt; }]>,
    InterfaceMethod<
      "With a sliding window: builds the result element at `coords` from "
      "`combined`, its window's in-bounds elements combined by the "
      "window's rule (SlidingWindow::combine, in any order and grouping): "
      "the max itself, or the sum over an average's divisor. A producer "
      "that walks the window in its own order (a convolution epilogue "
      "combining the parts of a window its passes computed) finishes "
      "the element with this.",
      "::mlir::Value", "buildWindowFinish",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::ValueRange":$coords, "::mlir::Value":$combined),
      [{}], [{ return combined; }]>,
    InterfaceMethod<
      "Builds the result element at `coords` (index values, one per result "
      "dim) from operand elements that `operandAt` builds at the operand "
      "coordinates it is given (always in bounds), in the operand's "
      "element type; returns it. With `lanes`, the lanes of a warp call "
      "this together at the same `coords` and may share the window "
      "(WindowLanes).",
      "::mlir::Value", "buildAt",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::ValueRange":$coords,
           "::llvm::function_ref<::mlir::Value(::mlir::OpBuilder &, "
           "::mlir::Location, ::mlir::ValueRange)>":$operandAt,
           "const ::fusecc::fuse::WindowLanes *":$lanes)>,
    InterfaceMethod<
      "Builds the result element at `coords` from elements of any of the "
      "op's operands: `operandAt(builder, loc, k, at)` builds operand k's "
      "element at `at` (always in bounds). Callers that evaluate an op per "
      "result element (the elementwise kernels, a convolution's prologue) "
      "call this; the default serves the one-operand ops through `buildAt`.",
      "::mlir::Value", "buildAtOperands",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::ValueRange":$coords,
           "::llvm::function_ref<::mlir::Value(::mlir::OpBuilder &, "
           "::mlir::Location, unsigned, ::mlir::ValueRange)>":$operandAt,
           "const ::fusecc::fuse::WindowLanes *":$lanes),
      [{}], [{
        return $_op.buildAt(builder, loc, coords,
            [&](::mlir::OpBuilder &b, ::mlir::Location l,
                ::mlir::ValueRange at) { return operandAt(b, l, 0, at); },
            lanes);
      }]>,
    InterfaceMethod<
      "Evaluates the op in double precision: `operands` are the dense "
      "row-major contents of the op's operands, `out` the result's.",
      "void", "evaluateReference",
      (ins "::llvm::ArrayRef<::llvm::ArrayRef<double>>":$operands,
           "::llvm::MutableArrayRef<double>":$out)>,
    InterfaceMethod<
      "The op's attributes as bundle graph-line tokens (`key=value` ...), "
      "after its operands (docs/bundle.md).",
      "std::string", "getGraphAttributes">,
  ];
}

def Fuse_CompositeOpInterface : OpInterface<"CompositeOpInterface"> {
  let description = [{
    An op defined as a composition of other fuse ops (batch_norm,
    instance_norm). `fuse-decompose`, the first pass of the
    pipeline, replaces it by the ops `decompose` builds, so no later pass,
    kernel or lowering knows it. The op still evaluates itself in double
    precision, written directly rather than through its decomposition (the
    simulator checks then test the decomposition too), and describes itself
    as a bundle `graph` line (the graph lines are written before the
    pipeline runs, so they keep the user's op).
  }];
  let cppNamespace = "::fusecc::fuse";
  let methods = [
    InterfaceMethod<
      "Builds the op's replacement from other fuse ops at the builder's "
      "insertion point; returns one value per result of the op.",
      "::llvm::SmallVector<::mlir::Value>", "decompose",
      (ins "::mlir::OpBuilder &":$builder)>,
    InterfaceMethod<
      "Evaluates the op in double precision: `operands` are the dense "
      "row-major contents of the op's operands (in order, absent optional "
      "operands omitted), `results` one buffer per result, of its shape.",
      "void", "evaluateReference",
      (ins "::llvm::ArrayRef<::llvm::ArrayRef<double>>":$operands,
           "::llvm::ArrayRef<::llvm::MutableArrayRef<double>>":$results)>,
    InterfaceMethod<
      "The op's attributes as bundle graph-line tokens (`key=value` ...), "
      "after its operands (docs/bundle.md); emits an error and fails where "
      "a graph line cannot describe the op.",
      "::mlir::FailureOr<std::string>", "getGraphAttributes">,
  ];
}

#endif // FUSECC_DIALECT_FUSE_IR_FUSEINTERFACES_TD
