// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// Kernels whose staged weights do not fit the shared memory with chunks of
// 16 input channels (64 W taps x 16 x 64 channels = 256 KiB at stride 32,
// issue 37's rand37_61): the FMA tiling takes chunks of 8
// (tile-kernels-long-kernel.mlir), and the kernels still compute the layer.

// CHECK: @long_kernel_64ch: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @long_kernel_gelu: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @long_row_stride32: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// RUN: fusecc --precision=tf32 --emit=fused %s | FileCheck %s --check-prefix=TILE
// TILE: fuse.kernel "long_row_stride32_k0" {{.*}}#fuse.tile<tileW = 2048, tileC = 16, {{.*}}mmaTilesW = 8>

func.func @long_kernel_64ch(%x: tensor<1x64x8xf32>, %w: tensor<64x64x64xf32>) -> tensor<1x64x256xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 32>, padding = array<i64: 16>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x64x8xf32>, tensor<64x64x64xf32>) -> tensor<1x64x256xf32>
  return %0 : tensor<1x64x256xf32>
}

// rand37_61 in small: 80 channels (a partial second channel block), bias,
// gelu, batch 2.
func.func @long_kernel_gelu(%x: tensor<2x80x4xf32>, %w: tensor<80x80x64xf32>, %b: tensor<80xf32>) -> tensor<2x80x128xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 32>, padding = array<i64: 16>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x80x4xf32>, tensor<80x80x64xf32>, tensor<80xf32>) -> tensor<2x80x128xf32>
  %1 = fuse.gelu %0 : tensor<2x80x128xf32>
  return %1 : tensor<2x80x128xf32>
}

// A row of 128 positions per phase at stride 32: the tensor-core tile of
// one row takes 64 positions per phase (tileW 2048, 16 channels: 40 is two
// whole channel blocks and a partial one), docs/perf.md 169.
func.func @long_row_stride32(%x: tensor<1x40x128xf32>, %w: tensor<40x40x64xf32>, %b: tensor<40xf32>) -> tensor<1x40x4096xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 32>, padding = array<i64: 16>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x40x128xf32>, tensor<40x40x64xf32>, tensor<40xf32>) -> tensor<1x40x4096xf32>
  return %0 : tensor<1x40x4096xf32>
}
