// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --epilogue-math=exact %s | FileCheck %s
// RUN: fusecc-check --epilogue-math=fast %s | FileCheck %s
// RUN: fusecc-check --precision=bf16 %s | FileCheck %s
// RUN: fusecc-check --precision=fp16 %s | FileCheck %s
// conv_transpose -> softmax(C) -> + bias[C,1,1] -> * 2 -> sigmoid (KernelBench 2/91).

// CHECK: @smb2d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @smb2d_n3_c70: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @smb2d_s1: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @smb2d(%x0: tensor<1x3x3x4xf32>, %w1: tensor<3x5x4x4xf32>, %b2: tensor<5xf32>, %bias3: tensor<5x1x1xf32>) -> tensor<1x5x7x9xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x3x4xf32>, tensor<3x5x4x4xf32>, tensor<5xf32>) -> tensor<1x5x7x9xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x5x7x9xf32>
  %v2 = fuse.add %v1, %bias3 : tensor<1x5x7x9xf32>, tensor<5x1x1xf32> -> tensor<1x5x7x9xf32>
  %v3 = arith.constant dense<2.0> : tensor<f32>
  %v4 = fuse.mul %v2, %v3 : tensor<1x5x7x9xf32>, tensor<f32> -> tensor<1x5x7x9xf32>
  %v5 = fuse.sigmoid %v4 : tensor<1x5x7x9xf32>
  return %v5 : tensor<1x5x7x9xf32>
}

func.func @smb2d_n3_c70(%x0: tensor<3x4x2x2xf32>, %w1: tensor<4x70x4x4xf32>, %b2: tensor<70xf32>, %bias3: tensor<70x1x1xf32>) -> tensor<3x70x5x5xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x2x2xf32>, tensor<4x70x4x4xf32>, tensor<70xf32>) -> tensor<3x70x5x5xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<3x70x5x5xf32>
  %v2 = fuse.add %v1, %bias3 : tensor<3x70x5x5xf32>, tensor<70x1x1xf32> -> tensor<3x70x5x5xf32>
  %v3 = arith.constant dense<2.0> : tensor<f32>
  %v4 = fuse.mul %v2, %v3 : tensor<3x70x5x5xf32>, tensor<f32> -> tensor<3x70x5x5xf32>
  %v5 = fuse.sigmoid %v4 : tensor<3x70x5x5xf32>
  return %v5 : tensor<3x70x5x5xf32>
}

func.func @smb2d_s1(%x0: tensor<1x7x5x5xf32>, %w1: tensor<7x3x2x2xf32>, %b2: tensor<3xf32>, %bias3: tensor<3x1x1xf32>) -> tensor<1x3x6x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x7x5x5xf32>, tensor<7x3x2x2xf32>, tensor<3xf32>) -> tensor<1x3x6x6xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x3x6x6xf32>
  %v2 = fuse.add %v1, %bias3 : tensor<1x3x6x6xf32>, tensor<3x1x1xf32> -> tensor<1x3x6x6xf32>
  %v3 = arith.constant dense<2.0> : tensor<f32>
  %v4 = fuse.mul %v2, %v3 : tensor<1x3x6x6xf32>, tensor<f32> -> tensor<1x3x6x6xf32>
  %v5 = fuse.sigmoid %v4 : tensor<1x3x6x6xf32>
  return %v5 : tensor<1x3x6x6xf32>
}

