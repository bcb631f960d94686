// A dynamic batch's kernels are laid out for the bound: the per-sample
// convolution takes the static kernel's tiles at batch N (fuse-tile-kernels
// analyses it at N) and the group_norm split over blocks takes the parts
// the static plan of N samples gives each set (NormLayout: the sets of the
// bound), so that at the bound both launch the same blocks (64 x 16 = 1024,
// 40 x 16 = 640) and the same shared memory.

// RUN: fusecc %s --max-batch=16 -o - | FileCheck %s --check-prefix=DYN
// RUN: sed 's/tensor<?x/tensor<16x/g' %s > %t.static.mlir
// RUN: fusecc %t.static.mlir -o - | FileCheck %s --check-prefix=STATIC

// DYN: launch gn_k0 grid 64 1 b block 64 1 1 smem 13312 params 4 0 1 w0 w1
// DYN-NEXT: launch gn_k1 grid 40 1 b block 256 1 1 smem 136 params 5 w1 2 3 w0 4
// STATIC: launch gn_k0 grid 1024 1 1 block 64 1 1 smem 13312 params 4 0 1 w0 w1
// STATIC-NEXT: launch gn_k1 grid 640 1 1 block 256 1 1 smem 136 params 5 w1 2 3 w0 4

func.func @gn(%x: tensor<?x16x8x8x8xf32>, %w: tensor<16x32x4x4x4xf32>,
              %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<?x32x16x16x16xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<?x16x8x8x8xf32>, tensor<16x32x4x4x4xf32>) -> tensor<?x32x16x16x16xf32>
  %n = fuse.group_norm %c weight(%g : tensor<32xf32>) bias(%b : tensor<32xf32>) {num_groups = 8 : i64, epsilon = 1.0e-05 : f64} : tensor<?x32x16x16x16xf32>
  return %n : tensor<?x32x16x16x16xf32>
}
