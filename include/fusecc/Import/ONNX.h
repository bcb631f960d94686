//===- ONNX.h - ONNX model import into fuse graphs -----------*- C++ -*-===//
//
// Turns an ONNX ModelProto (read with Debian's libonnx protobuf classes) into
// a module holding one `func.func` graph of fuse ops. Initializers become
// `arith.constant` tensors carrying a `fuse.name` string attribute (or, with
// `weightsAsArgs`, function arguments); function arguments carry `fuse.name`
// arg attributes with the ONNX input names. Every failure is a diagnostic
// naming the node (name and index), its op type and the reason.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_IMPORT_ONNX_H
#define FUSECC_IMPORT_ONNX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fusecc::onnx_import {

/// What the importer does with the model.
struct ImportOptions {
  /// Name of the created func.func (an identifier).
  std::string funcName = "model";
  /// Keep initializers used as tensor operands as function arguments (after
  /// the model inputs) instead of constants.
  bool weightsAsArgs = false;
  /// Static shapes for model inputs, replacing the declared (possibly
  /// dynamic) ones.
  llvm::StringMap<std::vector<int64_t>> inputShapes;
  /// Where nonzero: a model input whose dim 0 is dynamic (a `dim_param`
  /// such as "N", or no value), its other dims static, is imported with
  /// dim 0 = `dynamicBatch` (importONNXDynamicBatch imports at 1 and 2).
  int64_t dynamicBatch = 0;
  /// Model inputs bound to a constant: name -> serialized TensorProto bytes.
  /// Such inputs become initializers (used by the node-test driver for
  /// shape/axes inputs).
  llvm::StringMap<std::string> boundInputs;
};

/// True if `path` ends in `.onnx` or `contents` starts like an ONNX
/// ModelProto (field 1, ir_version, as a varint: byte 0x08).
bool looksLikeONNX(llvm::StringRef path, llvm::StringRef contents);

/// Parses `--input-shape` values `name=1x100x1x1` into `options`. Returns an
/// error message on a malformed value, or an empty string.
std::string parseInputShape(llvm::StringRef spec, ImportOptions &options);

/// Imports the serialized ModelProto `bytes`. `fileName` locates the
/// diagnostics. Returns null after emitting diagnostics on failure.
mlir::OwningOpRef<mlir::ModuleOp> importONNX(mlir::MLIRContext &ctx,
                                             llvm::StringRef bytes,
                                             llvm::StringRef fileName,
                                             const ImportOptions &options);

/// Imports a model whose inputs have a dynamic batch dim 0 (`fusecc
/// --max-batch`): imported at batch 1 and at batch 2 (every shape the
/// importer folds follows the batch), the two graphs compared value by
/// value; a value whose dim 0 is 1 and 2 and whose other dims agree carries
/// the batch and gets a dynamic dim 0 (`tensor<?x...>`), the other values
/// must be the same in both. A value that differs otherwise (the batch
/// folded into other dims, a Shape-derived size) is a located error. The
/// result is not verified (the fuse ops want static shapes): specialise it
/// with fuse::specializeBatch first.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXDynamicBatch(mlir::MLIRContext &ctx, llvm::StringRef bytes,
                       llvm::StringRef fileName, const ImportOptions &options);

/// A model input as declared by the graph (dims < 0 are dynamic).
struct InputInfo {
  std::string name;
  std::string elementType; ///< ONNX data type name, e.g. "FLOAT"; empty
                           ///< for a non-tensor (sequence, optional).
  std::vector<int64_t> shape;
};

/// A summary of a model: its inputs (initializers excluded) and the op types
/// of its nodes in order. Fails with `error` set on a malformed model.
struct ModelInfo {
  std::vector<InputInfo> inputs;
  std::vector<std::string> opTypes;
};
mlir::FailureOr<ModelInfo> inspectONNX(llvm::StringRef bytes,
                                       std::string &error);

/// A tensor read from a serialized TensorProto, converted to double.
struct TensorData {
  std::string elementType; ///< ONNX data type name.
  std::vector<int64_t> shape;
  std::vector<double> data;
};
/// Reads a serialized TensorProto (e.g. a node test's input_0.pb). Fails with
/// `error` set on malformed data or a type without a numeric conversion.
mlir::FailureOr<TensorData> readTensorProto(llvm::StringRef bytes,
                                            std::string &error);

} // namespace fusecc::onnx_import

#endif // FUSECC_IMPORT_ONNX_H
