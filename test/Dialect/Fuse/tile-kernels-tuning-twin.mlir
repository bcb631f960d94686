// A half kernel without a tuning entry of its own takes its TF32 twin's
// (`lookupTunedChoice`, TuningFile.cpp): the entry of the same layer and
// epilogue on f32 storage in tf32 (its tuning key without the storage
// casts). A twin measured on wgmma carries over its rows and merged taps,
// and its channel chunk doubled (16 -> 32: the same 16-byte planes, shared
// memory and wgmma count per round, docs/design/math.md); a twin that
// chose mma.sync does not apply (the half kernel keeps the cost model); an
// entry of the half kernel's own wins. bf16 graphs and --precision=bf16 on
// f32 graphs alike.

// RUN: fusecc %s --chip=sm_90a --emit=tuning-keys | FileCheck %s --check-prefix=KEYS
// RUN: fusecc %s --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=MODEL
// RUN: fusecc %s --chip=sm_90a --tuning=%S/Inputs/tuning-twin.json --emit=fused | FileCheck %s --check-prefix=TWIN
// RUN: sed -e 's/xbf16>/xf32>/g' %s > %t.f32.mlir
// RUN: fusecc %t.f32.mlir --chip=sm_90a --precision=bf16 --tuning=%S/Inputs/tuning-twin.json --emit=fused | FileCheck %s --check-prefix=AUTOCAST

// KEYS: twin_k0{{[[:space:]]}}bf16 r4 n2 c32x64 g1 b0 in1x8x16 k1x3x3 s1x2x2 p0x1x1 d1x1x1 out1x16x32 | cast cast conv_transpose relu cast
// KEYS: sync_twin_k0{{[[:space:]]}}bf16 r4 n2 c32x64 g1 b0 in1x8x16 k1x3x3 s1x2x2 p0x1x1 d1x1x1 out1x16x32 | cast cast conv_transpose sigmoid cast
// KEYS: own_k0{{[[:space:]]}}f16 r4 n2 c32x64 g1 b0 in1x8x16 k1x3x3 s1x2x2 p0x1x1 d1x1x1 out1x16x32 | cast cast conv_transpose relu cast

// The cost model: mma.sync (the grid is below one wave; under half a wave,
// the small-grid tile: one row of 16 channels, 32 a round; docs/perf.md
// 315).
// MODEL-LABEL: fuse.kernel "twin_k0"
// MODEL-SAME: ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 1, mmaTilesW = 1>
// The tf32 twin (wgmma, 1 row, chunk 16, merged taps): wgmma, 1 row,
// chunk 32, merged taps.
// TWIN-LABEL: fuse.kernel "twin_k0"
// TWIN-SAME: ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, mergeHTaps = 1, wgmmaN = 16, wgmmaGroups = 1>
// AUTOCAST-LABEL: fuse.kernel "twin_k0"
// AUTOCAST-SAME: ciChunk = 32, types = <bf16, storage = f32, operand = bf16, accumulator = f32, statistics = f32>, mergeHTaps = 1, wgmmaN = 16, wgmmaGroups = 1>
func.func @twin(%x: tensor<2x32x8x16xbf16>, %w: tensor<32x64x3x3xbf16>) -> tensor<2x64x16x32xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x32x8x16xbf16>, tensor<32x64x3x3xbf16>) -> tensor<2x64x16x32xbf16>
  %1 = fuse.relu %0 : tensor<2x64x16x32xbf16>
  return %1 : tensor<2x64x16x32xbf16>
}

// The twin chose mma.sync with 1 row: not applied, the cost model's tile.
// TWIN-LABEL: fuse.kernel "sync_twin_k0"
// TWIN-SAME: ciChunk = 32, {{.*}}mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 1, mmaTilesW = 1>
func.func @sync_twin(%x: tensor<2x32x8x16xbf16>, %w: tensor<32x64x3x3xbf16>) -> tensor<2x64x16x32xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x32x8x16xbf16>, tensor<32x64x3x3xbf16>) -> tensor<2x64x16x32xbf16>
  %1 = fuse.sigmoid %0 : tensor<2x64x16x32xbf16>
  return %1 : tensor<2x64x16x32xbf16>
}

// An f16 kernel with an entry of its own (2 rows, chunk 16) takes it, not
// the tf32 twin's.
// TWIN-LABEL: fuse.kernel "own_k0"
// TWIN-SAME: ciChunk = 16, types = <f16, storage = f16, operand = f16, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 16, wgmmaGroups = 1>
func.func @own(%x: tensor<2x32x8x16xf16>, %w: tensor<32x64x3x3xf16>) -> tensor<2x64x16x32xf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x32x8x16xf16>, tensor<32x64x3x3xf16>) -> tensor<2x64x16x32xf16>
  %1 = fuse.relu %0 : tensor<2x64x16x32xf16>
  return %1 : tensor<2x64x16x32xf16>
}
