//===- TileConfigFields.h - A tile config's parameters as a value -*- C++
//-*-===//
//
// TileConfigFields: the parameters of a `#fuse.tile` config
// (TileConfigAttr, FuseAttrs.td) as a plain value, to build a config field
// by field or to rebuild one with some fields changed. The one place that
// spells out the attribute's constructor (FuseDialect.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_TILECONFIGFIELDS_H
#define FUSECC_DIALECT_FUSE_IR_TILECONFIGFIELDS_H

#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"

namespace fusecc::fuse {

/// The parameters of a TileConfigAttr, each named as in FuseAttrs.td. Each
/// field defaults as its parameter does; the sizes without a default are 0
/// and `types` is null, to be set.
struct TileConfigFields {
  int64_t tileW = 0, tileC = 0, threadsW = 0, threadsC = 0;
  int64_t chanPerThread = 0, ciChunk = 0;
  KernelTypesAttr types;
  int64_t mmaWarpsC = 0, mmaWarpsW = 0, mmaTilesC = 0, mmaTilesW = 0;
  int64_t rows = 1, mergeHTaps = 0, wgmmaN = 0, wgmmaGroups = 0;
  int64_t clusterC = 1, mmaPositionsM = 0, samples = 0;
  int64_t wgmmaPhaseSplit = 1, clusterK = 1;

  /// All the parameters of `cfg`, to change some and rebuild the config.
  static TileConfigFields of(TileConfigAttr cfg);

  /// The config of these fields; null, with `emitError`'s diagnostic, where
  /// they fail the attribute's verifier.
  TileConfigAttr
  getChecked(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
             mlir::MLIRContext *ctx) const;
};

} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_IR_TILECONFIGFIELDS_H
