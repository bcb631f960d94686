//===- FuseAttrs.td - fuse attributes ----------------------*- tablegen -*-===//
//
// Attributes of the fuse dialect: the per-kernel tiling configuration.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD
#define FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD

include "fusecc/Dialect/Fuse/IR/FuseDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Fuse_TileConfigAttr : AttrDef<Fuse_Dialect, "TileConfig"> {
  let mnemonic = "tile";
  let summary = "How a fused kernel maps its output onto blocks and threads";
  let description = [{
    Chosen by `fuse-tile-kernels`, consumed by `fuse-convert-to-gpu`.

    A block computes one output row segment: a fixed batch index and output
    depth/height position, `tileW` consecutive positions along the last
    spatial dim, and `tileC` output channels (all channels when a channel
    reduction is fused). Its `threadsW x threadsC` threads each own
    `tileW / threadsW` positions (strided by `threadsW`, a multiple of the
    stride so that a thread's positions share one stride phase) and
    `chanPerThread` channels of each `threadsC * chanPerThread`-channel
    sub-block. Input channels are staged through shared memory `ciChunk` at a
    time. `precision` is `ieee` (FP32 FMA) or `tf32` (tensor cores).

    Example: `#fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16,
    chanPerThread = 4, ciChunk = 16, precision = "ieee">`
  }];
  let parameters = (ins "int64_t":$tileW, "int64_t":$tileC,
                        "int64_t":$threadsW, "int64_t":$threadsC,
                        "int64_t":$chanPerThread, "int64_t":$ciChunk,
                        StringRefParameter<"precision mode">:$precision);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // FUSECC_DIALECT_FUSE_IR_FUSEATTRS_TD
