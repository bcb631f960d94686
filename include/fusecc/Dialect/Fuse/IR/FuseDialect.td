//===- FuseDialect.td - fuse dialect definition ------------*- tablegen -*-===//
//
// The `fuse` dialect describes op graphs of a transposed convolution and its
// epilogue at the tensor level, and the fused kernels formed from them.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEDIALECT_TD
#define FUSECC_DIALECT_FUSE_IR_FUSEDIALECT_TD

include "mlir/IR/OpBase.td"

def Fuse_Dialect : Dialect {
  let name = "fuse";
  let summary = "Transposed convolution + epilogue graphs and fused kernels";
  let description = [{
    The `fuse` dialect models the layers fusecc compiles: a transposed
    convolution (1-D, 2-D or 3-D) followed by an epilogue of elementwise ops,
    normalisations and reductions, on statically shaped `f32` tensors with
    PyTorch semantics (contiguous NC[D]HW layout). The fusion pass groups a
    convolution and its epilogue into a `fuse.kernel` region that becomes one
    GPU kernel launch.
  }];
  let cppNamespace = "::fusecc::fuse";
  let useDefaultAttributePrinterParser = 1;
  // `fuse.target` must be a #fuse.target on a module.
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // FUSECC_DIALECT_FUSE_IR_FUSEDIALECT_TD
