// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=2 --tile-max-w=64 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --emit=gpu | FileCheck %s --check-prefix=GPU
// A half result (bf16 / f16) that is the convolution's value itself (plus
// its bias), stored by the lane walk from the tile, takes a tile of halves
// (`chooseHalfTile`, docs/perf.md 224): the accumulators are rounded once
// as they are written to the tile (scalar stores, or the runs of W stride
// 1 and 2), the walk loads pairs of halves and stores them as before; the
// tile takes half the shared memory. Rows of odd lengths (the lane walk),
// W strides 5 (kb1_81's pattern), 2 and 1, a bias; epilogue math (relu)
// keeps the f32 tile. Rows of even length (302, W stride 2) take the
// walk's pairs: one vector<2xbf16> load of the tile widened by one
// arith.extf, which the simulator rejected until session 41 (it widened
// scalars only; found by a hunt over random bf16 chains). Checked against
// float64 on the same half values, every element written.

// CHECK: @bf16_s5_d2: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @f16_s5_d2_bias: PASS {{.*}} unwritten 0 {{.*}} storage f16
// CHECK: @bf16_s2: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @f16_s1: PASS {{.*}} unwritten 0 {{.*}} storage f16
// CHECK: @bf16_relu: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @bf16_s2_k4_pairs: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK-NOT: FAIL

// GPU-LABEL: gpu.func @bf16_s5_d2_k0(
// GPU: memref.view {{.*}} to memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>
// GPU: arith.truncf {{.*}} : f32 to bf16
// GPU: memref.store {{.*}} : memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>
// GPU: {{memref|vector}}.load {{.*}} : memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>
// GPU-LABEL: gpu.func @f16_s5_d2_bias_k0(
// GPU: memref.view {{.*}} to memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>>
// GPU-LABEL: gpu.func @bf16_s2_k0(
// GPU: memref.view {{.*}} to memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>
// GPU: vector.store {{.*}} : memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// GPU-LABEL: gpu.func @bf16_relu_k0(
// GPU-NOT: xbf16, #gpu.address_space<workgroup>>
// GPU: gpu.return
// GPU-LABEL: gpu.func @bf16_s2_k4_pairs_k0(
// GPU: vector.load {{.*}} : memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// GPU-NEXT: arith.extf {{.*}} : vector<2xbf16> to vector<2xf32>

func.func @bf16_s5_d2(%x: tensor<1x16x3x32xbf16>, %w: tensor<16x64x3x3xbf16>) -> tensor<1x64x13x158xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x3x32xbf16>, tensor<16x64x3x3xbf16>) -> tensor<1x64x13x158xbf16>
  return %y : tensor<1x64x13x158xbf16>
}

func.func @f16_s5_d2_bias(%x: tensor<1x16x3x32xf16>, %w: tensor<16x48x3x3xf16>, %b: tensor<48xf16>) -> tensor<1x48x13x158xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x3x32xf16>, tensor<16x48x3x3xf16>, tensor<48xf16>) -> tensor<1x48x13x158xf16>
  return %y : tensor<1x48x13x158xf16>
}

func.func @bf16_s2(%x: tensor<1x32x6x70xbf16>, %w: tensor<32x64x3x3xbf16>) -> tensor<1x64x11x139xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x32x6x70xbf16>, tensor<32x64x3x3xbf16>) -> tensor<1x64x11x139xbf16>
  return %y : tensor<1x64x11x139xbf16>
}

func.func @f16_s1(%x: tensor<2x16x5x131xf16>, %w: tensor<16x64x3x3xf16>) -> tensor<2x64x5x131xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x5x131xf16>, tensor<16x64x3x3xf16>) -> tensor<2x64x5x131xf16>
  return %y : tensor<2x64x5x131xf16>
}

func.func @bf16_relu(%x: tensor<1x16x3x32xbf16>, %w: tensor<16x64x3x3xbf16>) -> tensor<1x64x13x158xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x3x32xbf16>, tensor<16x64x3x3xbf16>) -> tensor<1x64x13x158xbf16>
  %r = fuse.relu %y : tensor<1x64x13x158xbf16>
  return %r : tensor<1x64x13x158xbf16>
}

func.func @bf16_s2_k4_pairs(%x: tensor<1x42x1x151xbf16>, %w: tensor<42x32x4x4xbf16>) -> tensor<1x32x2x302xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x42x1x151xbf16>, tensor<42x32x4x4xbf16>) -> tensor<1x32x2x302xbf16>
  return %y : tensor<1x32x2x302xbf16>
}
