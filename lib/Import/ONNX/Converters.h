//===- Converters.h - ONNX converter registration ------------*- C++ -*-===//
//
// Each converters file adds its entries to the op-type table.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_IMPORT_ONNX_CONVERTERS_H
#define FUSECC_LIB_IMPORT_ONNX_CONVERTERS_H

#include "Importer.h"

namespace fusecc::onnx_import {

/// Constant, Shape, Reshape, Flatten, Unsqueeze, Squeeze, Gather, Concat,
/// Cast, ConstantOfShape (ShapeConverters.cpp).
void registerShapeConverters(llvm::StringMap<Converter> &table);

/// ConvTranspose, BatchNormalization, Softmax, LogSoftmax,
/// LayerNormalization, InstanceNormalization, GroupNormalization
/// (NNConverters.cpp).
void registerNNConverters(llvm::StringMap<Converter> &table);

/// Conv (ConvConverters.cpp).
void registerConvConverters(llvm::StringMap<Converter> &table);

/// Resize, Upsample (ResizeConverters.cpp).
void registerResizeConverters(llvm::StringMap<Converter> &table);

/// MaxPool, AveragePool, LpPool, GlobalAveragePool, GlobalMaxPool,
/// GlobalLpPool (PoolConverters.cpp).
void registerPoolConverters(llvm::StringMap<Converter> &table);

/// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceLogSumExp and the
/// compositions ReduceSumSquare, ReduceL1, ReduceL2, ReduceLogSum; ReduceProd
/// as an error (ReduceConverters.cpp).
void registerReduceConverters(llvm::StringMap<Converter> &table);

/// Mul/Add of a fuse.group_norm result (used only there) by a per-channel
/// constant: folds it into the group_norm's weight/bias (the affine part of
/// PyTorch's GroupNorm export). Returns true if it folded.
mlir::FailureOr<bool> foldAffineIntoGroupNorm(NodeContext &nc, bool isMul);

} // namespace fusecc::onnx_import

#endif // FUSECC_LIB_IMPORT_ONNX_CONVERTERS_H
