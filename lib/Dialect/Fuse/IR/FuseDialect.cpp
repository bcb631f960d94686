//===- FuseDialect.cpp - fuse dialect registration ------------------------===//
//
// Registers the fuse dialect's ops and attributes.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"
#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fusecc::fuse;

#include "fusecc/Dialect/Fuse/IR/FuseOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fusecc/Dialect/Fuse/IR/FuseAttrs.cpp.inc"

void FuseDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fusecc/Dialect/Fuse/IR/FuseOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fusecc/Dialect/Fuse/IR/FuseAttrs.cpp.inc"
      >();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 fusecc::Chip chip, fusecc::Device device) {
  if (!fusecc::TargetInfo::supports(device, chip))
    return emitError() << "device '" << fusecc::toString(device)
                       << "' does not run '" << fusecc::toString(chip)
                       << "' code";
  return success();
}

LogicalResult FuseDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() != TargetAttr::kAttrName)
    return success();
  if (!isa<TargetAttr>(attr.getValue()))
    return op->emitError("expected '")
           << TargetAttr::kAttrName << "' to be a #fuse.target, got "
           << attr.getValue();
  if (!isa<ModuleOp>(op))
    return op->emitError("'")
           << TargetAttr::kAttrName << "' belongs on a module, not on '"
           << op->getName() << "'";
  return success();
}

fusecc::TargetInfo fusecc::fuse::getTargetInfo(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>(TargetAttr::kAttrName))
      return target.getInfo();
  return fusecc::TargetInfo::getDefault();
}

LogicalResult TileConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t tileW, int64_t tileC,
    int64_t threadsW, int64_t threadsC, int64_t chanPerThread, int64_t ciChunk,
    StringRef precision, int64_t mmaWarpsC, int64_t mmaWarpsW,
    int64_t mmaTilesC, int64_t mmaTilesW, int64_t rows, int64_t mergeHTaps,
    int64_t wgmmaN, int64_t wgmmaGroups, int64_t clusterC) {
  if (tileW <= 0 || tileC <= 0 || threadsW <= 0 || threadsC <= 0 ||
      chanPerThread <= 0 || ciChunk <= 0)
    return emitError() << "tile config sizes must be positive";
  if (tileW % threadsW != 0)
    return emitError() << "tileW (" << tileW
                       << ") must be a multiple of threadsW (" << threadsW
                       << ")";
  if (threadsW * threadsC > 1024)
    return emitError() << "threadsW * threadsC = " << threadsW * threadsC
                       << " exceeds 1024 threads per block";
  const bool split = precision == TileConfigAttr::kSplitTF32;
  if (precision != "ieee" && precision != "tf32" && !split)
    return emitError() << "precision must be \"ieee\", \"tf32\" or \""
                       << TileConfigAttr::kSplitTF32 << "\", got \""
                       << precision << "\"";
  bool anyMma = mmaWarpsC || mmaWarpsW || mmaTilesC || mmaTilesW;
  bool anyWgmma = wgmmaN || wgmmaGroups;
  if (split && !anyMma && !anyWgmma)
    return emitError() << "precision \"" << TileConfigAttr::kSplitTF32
                       << "\" needs the tensor-core path";
  if (anyMma && anyWgmma)
    return emitError() << "a tile config uses either mma.sync tiles or wgmma, "
                          "not both";
  if (anyWgmma) {
    if (precision != "tf32" && !split)
      return emitError() << "wgmma needs precision \"tf32\" or \""
                         << TileConfigAttr::kSplitTF32 << "\"";
    if (wgmmaN <= 0 || wgmmaN % 8 != 0 || wgmmaN > 256)
      return emitError() << "wgmmaN must be a multiple of 8 in [8, 256], got "
                         << wgmmaN;
    if (tileC % 64 != 0)
      return emitError() << "tileC (" << tileC
                         << ") must be a multiple of 64 with wgmma";
    if (wgmmaGroups <= 0 || wgmmaGroups % (tileC / 64) != 0)
      return emitError() << "wgmmaGroups (" << wgmmaGroups
                         << ") must be a positive multiple of tileC / 64 ("
                         << tileC / 64 << ")";
    if (rows % (wgmmaGroups / (tileC / 64)) != 0)
      return emitError() << "rows (" << rows
                         << ") must be a multiple of the warpgroups per "
                            "channel group ("
                         << wgmmaGroups / (tileC / 64) << ")";
    if (tileW % wgmmaN != 0)
      return emitError() << "tileW (" << tileW
                         << ") must be stride_w * wgmmaN, a multiple of "
                            "wgmmaN ("
                         << wgmmaN << ")";
    if (threadsW * threadsC != 128 * wgmmaGroups)
      return emitError() << "threadsW * threadsC (" << threadsW * threadsC
                         << ") must be 128 * wgmmaGroups (" << 128 * wgmmaGroups
                         << ")";
    if (ciChunk % 8 != 0)
      return emitError() << "ciChunk (" << ciChunk
                         << ") must be a multiple of 8 with wgmma";
  }
  if (rows < 1)
    return emitError() << "rows must be positive, got " << rows;
  if (rows > 1 && !anyMma && !anyWgmma)
    return emitError() << "rows > 1 needs the tensor-core path";
  if (mergeHTaps != 0 && mergeHTaps != 1)
    return emitError() << "mergeHTaps must be 0 or 1, got " << mergeHTaps;
  if (mergeHTaps && !anyMma && !anyWgmma)
    return emitError() << "mergeHTaps needs the tensor-core path";
  if (clusterC != 1 && clusterC != 2 && clusterC != 4 && clusterC != 8)
    return emitError() << "clusterC must be 1, 2, 4 or 8, got " << clusterC;
  if (clusterC > 1 && !anyWgmma)
    return emitError() << "clusterC > 1 needs the wgmma path";
  if (anyMma) {
    if (mmaWarpsC <= 0 || mmaWarpsW <= 0 || mmaTilesC <= 0 || mmaTilesW <= 0)
      return emitError() << "tensor-core tile sizes must all be positive";
    if (precision != "tf32" && !split)
      return emitError() << "tensor cores (mma tiles) need precision \"tf32\" "
                            "or \""
                         << TileConfigAttr::kSplitTF32 << "\"";
    if (tileC != 16 * mmaWarpsC * mmaTilesC)
      return emitError() << "tileC (" << tileC
                         << ") must be 16 * mmaWarpsC * mmaTilesC ("
                         << 16 * mmaWarpsC * mmaTilesC << ")";
    if (ciChunk % 8 != 0)
      return emitError() << "ciChunk (" << ciChunk
                         << ") must be a multiple of 8 with tensor cores";
  }
  return success();
}
