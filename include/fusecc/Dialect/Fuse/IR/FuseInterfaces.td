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
  ];
}

#endif // FUSECC_DIALECT_FUSE_IR_FUSEINTERFACES_TD
