// RUN: fusecc-opt %s | fusecc-opt | FileCheck %s
// RUN: fusecc-opt %s --mlir-print-op-generic | fusecc-opt | FileCheck %s
// RUN: fusecc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of the window ops (pools, adaptive pools, reductions, reshape)
// with every attribute form. The custom form leaves out attributes at their
// default (ceil_mode = false, count_include_pad = true, keepdim = false); the
// generic form writes them.

//===----------------------------------------------------------------------===//
// max_pool
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @max_pool1d
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x7xf32>)
// CHECK: %[[R:.*]] = fuse.max_pool %[[X]] {kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 2>} : tensor<1x3x7xf32> -> tensor<1x3x4xf32>
// CHECK: return %[[R]]
// GENERIC-LABEL: sym_name = "max_pool1d"
// GENERIC: "fuse.max_pool"(%{{.*}}) <{ceil_mode = false, kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 2>}> : (tensor<1x3x7xf32>) -> tensor<1x3x4xf32>
func.func @max_pool1d(%x: tensor<1x3x7xf32>) -> tensor<1x3x4xf32> {
  // (7 + 2 - 2 - 1) / 2 + 1 = 4
  %0 = fuse.max_pool %x {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 1>}
       : tensor<1x3x7xf32> -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// CHECK-LABEL: func.func @max_pool2d_dilation_ceil
// CHECK: fuse.max_pool %{{.*}} {ceil_mode = true, dilation = array<i64: 1, 2>, kernel_size = array<i64: 3, 2>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<3x5x7x5xf32> -> tensor<3x5x4x3xf32>
// GENERIC-LABEL: sym_name = "max_pool2d_dilation_ceil"
// GENERIC: "fuse.max_pool"(%{{.*}}) <{ceil_mode = true, dilation = array<i64: 1, 2>, kernel_size = array<i64: 3, 2>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}> : (tensor<3x5x7x5xf32>) -> tensor<3x5x4x3xf32>
func.func @max_pool2d_dilation_ceil(%x: tensor<3x5x7x5xf32>) -> tensor<3x5x4x3xf32> {
  // H: ceil((7 + 2 - 3) / 2) + 1 = 4; W: ceil((5 + 2 - 3) / 2) + 1 = 3.
  %0 = fuse.max_pool %x {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, dilation = array<i64: 1, 2>, ceil_mode = true}
       : tensor<3x5x7x5xf32> -> tensor<3x5x4x3xf32>
  return %0 : tensor<3x5x4x3xf32>
}

// A dilated kernel with the largest padding PyTorch allows (half the
// kernel size, dilation aside).
// CHECK-LABEL: func.func @max_pool1d_dilated_padding
// CHECK: fuse.max_pool %{{.*}} {dilation = array<i64: 3>, kernel_size = array<i64: 2>, padding = array<i64: 1>, stride = array<i64: 1>} : tensor<1x1x5xf32> -> tensor<1x1x4xf32>
func.func @max_pool1d_dilated_padding(%x: tensor<1x1x5xf32>) -> tensor<1x1x4xf32> {
  // 5 + 2 - 3 - 1 + 1 = 4
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 1>,
         padding = array<i64: 1>, dilation = array<i64: 3>}
       : tensor<1x1x5xf32> -> tensor<1x1x4xf32>
  return %0 : tensor<1x1x4xf32>
}

// ceil_mode drops a last window that would start in the right padding:
// ceil((5 + 2 - 2) / 2) + 1 = 4, but window 3 starts at 3 * 2 = 6 >= 5 + 1.
// CHECK-LABEL: func.func @max_pool1d_ceil_dropped
// CHECK: fuse.max_pool %{{.*}} {ceil_mode = true, kernel_size = array<i64: 2>, padding = array<i64: 1>, stride = array<i64: 2>} : tensor<1x1x5xf32> -> tensor<1x1x3xf32>
func.func @max_pool1d_ceil_dropped(%x: tensor<1x1x5xf32>) -> tensor<1x1x3xf32> {
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>,
         padding = array<i64: 1>, ceil_mode = true}
       : tensor<1x1x5xf32> -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// CHECK-LABEL: func.func @max_pool3d
// CHECK: fuse.max_pool %{{.*}} {dilation = array<i64: 1, 1, 1>, kernel_size = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>} : tensor<1x2x5x5x5xf32> -> tensor<1x2x2x2x2xf32>
// GENERIC-LABEL: sym_name = "max_pool3d"
// GENERIC: "fuse.max_pool"(%{{.*}}) <{ceil_mode = false, dilation = array<i64: 1, 1, 1>, kernel_size = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>}>
func.func @max_pool3d(%x: tensor<1x2x5x5x5xf32>) -> tensor<1x2x2x2x2xf32> {
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>,
         padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, ceil_mode = false}
       : tensor<1x2x5x5x5xf32> -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}

// CHECK-LABEL: func.func @max_pool3d_ceil
// CHECK: fuse.max_pool %{{.*}} {ceil_mode = true, kernel_size = array<i64: 2, 3, 1>, padding = array<i64: 1, 0, 0>, stride = array<i64: 2, 2, 1>} : tensor<1x2x5x5x1xf32> -> tensor<1x2x3x2x1xf32>
func.func @max_pool3d_ceil(%x: tensor<1x2x5x5x1xf32>) -> tensor<1x2x3x2x1xf32> {
  // D: ceil((5 + 2 - 2) / 2) + 1 = 4, window 3 starts at 6 >= 5 + 1: 3.
  // H: ceil((5 - 3) / 2) + 1 = 2. W: 1.
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 3, 1>, stride = array<i64: 2, 2, 1>,
         padding = array<i64: 1, 0, 0>, ceil_mode = true}
       : tensor<1x2x5x5x1xf32> -> tensor<1x2x3x2x1xf32>
  return %0 : tensor<1x2x3x2x1xf32>
}

//===----------------------------------------------------------------------===//
// avg_pool
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @avg_pool1d_divisor_override
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x7xf32>)
// CHECK: %[[R:.*]] = fuse.avg_pool %[[X]] {divisor_override = 2 : i64, kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 3>} : tensor<1x1x7xf32> -> tensor<1x1x3xf32>
// CHECK: return %[[R]]
// GENERIC-LABEL: sym_name = "avg_pool1d_divisor_override"
// GENERIC: "fuse.avg_pool"(%{{.*}}) <{ceil_mode = false, count_include_pad = true, divisor_override = 2 : i64, kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 3>}> : (tensor<1x1x7xf32>) -> tensor<1x1x3xf32>
func.func @avg_pool1d_divisor_override(%x: tensor<1x1x7xf32>) -> tensor<1x1x3xf32> {
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 3>, stride = array<i64: 3>,
         padding = array<i64: 1>, divisor_override = 2 : i64}
       : tensor<1x1x7xf32> -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// CHECK-LABEL: func.func @avg_pool2d_exclude_pad_ceil
// CHECK: fuse.avg_pool %{{.*}} {ceil_mode = true, count_include_pad = false, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<3x5x5x7xf32> -> tensor<3x5x3x4xf32>
// GENERIC-LABEL: sym_name = "avg_pool2d_exclude_pad_ceil"
// GENERIC: "fuse.avg_pool"(%{{.*}}) <{ceil_mode = true, count_include_pad = false, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}> : (tensor<3x5x5x7xf32>) -> tensor<3x5x3x4xf32>
func.func @avg_pool2d_exclude_pad_ceil(%x: tensor<3x5x5x7xf32>) -> tensor<3x5x3x4xf32> {
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, ceil_mode = true, count_include_pad = false}
       : tensor<3x5x5x7xf32> -> tensor<3x5x3x4xf32>
  return %0 : tensor<3x5x3x4xf32>
}

// Defaults written explicitly are printed as defaults (left out).
// CHECK-LABEL: func.func @avg_pool3d_defaults
// CHECK: fuse.avg_pool %{{.*}} {kernel_size = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>} : tensor<1x1x4x5x4xf32> -> tensor<1x1x2x2x2xf32>
// GENERIC-LABEL: sym_name = "avg_pool3d_defaults"
// GENERIC: "fuse.avg_pool"(%{{.*}}) <{ceil_mode = false, count_include_pad = true, kernel_size = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>}>
func.func @avg_pool3d_defaults(%x: tensor<1x1x4x5x4xf32>) -> tensor<1x1x2x2x2xf32> {
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>,
         padding = array<i64: 0, 0, 0>, ceil_mode = false, count_include_pad = true}
       : tensor<1x1x4x5x4xf32> -> tensor<1x1x2x2x2xf32>
  return %0 : tensor<1x1x2x2x2xf32>
}

// CHECK-LABEL: func.func @avg_pool3d_all
// CHECK: fuse.avg_pool %{{.*}} {ceil_mode = true, count_include_pad = false, divisor_override = 7 : i64, kernel_size = array<i64: 3, 1, 2>, padding = array<i64: 1, 0, 1>, stride = array<i64: 3, 1, 2>} : tensor<3x1x5x1x7xf32> -> tensor<3x1x2x1x4xf32>
func.func @avg_pool3d_all(%x: tensor<3x1x5x1x7xf32>) -> tensor<3x1x2x1x4xf32> {
  // D: ceil((5 + 2 - 3) / 3) + 1 = 3, window 2 starts at 6 >= 5 + 1: 2.
  // H: 1. W: ceil((7 + 2 - 2) / 2) + 1 = 5, window 4 starts at 8 >= 7 + 1: 4.
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 3, 1, 2>, stride = array<i64: 3, 1, 2>,
         padding = array<i64: 1, 0, 1>, ceil_mode = true, count_include_pad = false,
         divisor_override = 7 : i64}
       : tensor<3x1x5x1x7xf32> -> tensor<3x1x2x1x4xf32>
  return %0 : tensor<3x1x2x1x4xf32>
}

//===----------------------------------------------------------------------===//
// Adaptive pooling
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @adaptive_pools
// CHECK-SAME: (%[[X1:.*]]: tensor<1x3x7xf32>, %[[X2:.*]]: tensor<2x3x5x7xf32>, %[[X3:.*]]: tensor<1x2x3x4x5xf32>)
// CHECK: %[[A0:.*]] = fuse.adaptive_avg_pool %[[X1]] : tensor<1x3x7xf32> -> tensor<1x3x3xf32>
// CHECK: %[[A1:.*]] = fuse.adaptive_avg_pool %[[X2]] : tensor<2x3x5x7xf32> -> tensor<2x3x1x1xf32>
// CHECK: %[[A2:.*]] = fuse.adaptive_avg_pool %[[X3]] : tensor<1x2x3x4x5xf32> -> tensor<1x2x5x2x1xf32>
// CHECK: %[[M0:.*]] = fuse.adaptive_max_pool %[[X1]] : tensor<1x3x7xf32> -> tensor<1x3x9xf32>
// CHECK: %[[M1:.*]] = fuse.adaptive_max_pool %[[X2]] : tensor<2x3x5x7xf32> -> tensor<2x3x3x1xf32>
// CHECK: %[[M2:.*]] = fuse.adaptive_max_pool %[[X3]] : tensor<1x2x3x4x5xf32> -> tensor<1x2x1x1x1xf32>
// CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[M0]], %[[M1]], %[[M2]]
// GENERIC-LABEL: sym_name = "adaptive_pools"
// GENERIC: "fuse.adaptive_avg_pool"(%{{.*}}) : (tensor<1x3x7xf32>) -> tensor<1x3x3xf32>
// GENERIC: "fuse.adaptive_max_pool"(%{{.*}}) : (tensor<1x3x7xf32>) -> tensor<1x3x9xf32>
func.func @adaptive_pools(%x1: tensor<1x3x7xf32>, %x2: tensor<2x3x5x7xf32>, %x3: tensor<1x2x3x4x5xf32>)
    -> (tensor<1x3x3xf32>, tensor<2x3x1x1xf32>, tensor<1x2x5x2x1xf32>,
        tensor<1x3x9xf32>, tensor<2x3x3x1xf32>, tensor<1x2x1x1x1xf32>) {
  %0 = fuse.adaptive_avg_pool %x1 : tensor<1x3x7xf32> -> tensor<1x3x3xf32>
  %1 = fuse.adaptive_avg_pool %x2 : tensor<2x3x5x7xf32> -> tensor<2x3x1x1xf32>
  // Output larger than the input along D (5 > 3).
  %2 = fuse.adaptive_avg_pool %x3 : tensor<1x2x3x4x5xf32> -> tensor<1x2x5x2x1xf32>
  %3 = fuse.adaptive_max_pool %x1 : tensor<1x3x7xf32> -> tensor<1x3x9xf32>
  %4 = fuse.adaptive_max_pool %x2 : tensor<2x3x5x7xf32> -> tensor<2x3x3x1xf32>
  %5 = fuse.adaptive_max_pool %x3 : tensor<1x2x3x4x5xf32> -> tensor<1x2x1x1x1xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x3x3xf32>, tensor<2x3x1x1xf32>, tensor<1x2x5x2x1xf32>,
                                  tensor<1x3x9xf32>, tensor<2x3x3x1xf32>, tensor<1x2x1x1x1xf32>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf32>)
// CHECK: %[[S0:.*]] = fuse.sum %[[X]] {dims = array<i64: 1>} : tensor<2x3x4x5xf32> -> tensor<2x4x5xf32>
// CHECK: %[[S1:.*]] = fuse.sum %[[X]] {dims = array<i64: 3, 1>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x1x4x1xf32>
// CHECK: %[[M0:.*]] = fuse.mean %[[X]] {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x3x1x1xf32>
// CHECK: %[[M1:.*]] = fuse.mean %[[X]] {dims = array<i64: 3, 2>} : tensor<2x3x4x5xf32> -> tensor<2x3xf32>
// CHECK: %[[X0:.*]] = fuse.amax %[[X]] {dims = array<i64: 1, 2, 3>} : tensor<2x3x4x5xf32> -> tensor<2xf32>
// CHECK: %[[X1:.*]] = fuse.amax %[[X]] {dims = array<i64: 0>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<1x3x4x5xf32>
// CHECK: %[[N0:.*]] = fuse.amin %[[X]] {dims = array<i64: 3, 0, 2, 1>} : tensor<2x3x4x5xf32> -> tensor<f32>
// CHECK: %[[N1:.*]] = fuse.amin %[[X]] {dims = array<i64: 2>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x3x1x5xf32>
// CHECK: %[[L0:.*]] = fuse.logsumexp %[[X]] {dims = array<i64: 1>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x1x4x5xf32>
// CHECK: %[[L1:.*]] = fuse.logsumexp %[[X]] {dims = array<i64: 3, 1, 2>} : tensor<2x3x4x5xf32> -> tensor<2xf32>
// CHECK: return %[[S0]], %[[S1]], %[[M0]], %[[M1]], %[[X0]], %[[X1]], %[[N0]], %[[N1]], %[[L0]], %[[L1]]
// GENERIC-LABEL: sym_name = "reductions"
// GENERIC: "fuse.sum"(%{{.*}}) <{dims = array<i64: 1>, keepdim = false}> : (tensor<2x3x4x5xf32>) -> tensor<2x4x5xf32>
// GENERIC: "fuse.sum"(%{{.*}}) <{dims = array<i64: 3, 1>, keepdim = true}> : (tensor<2x3x4x5xf32>) -> tensor<2x1x4x1xf32>
// GENERIC: "fuse.mean"(%{{.*}}) <{dims = array<i64: 2, 3>, keepdim = true}>
// GENERIC: "fuse.mean"(%{{.*}}) <{dims = array<i64: 3, 2>, keepdim = false}>
// GENERIC: "fuse.amax"(%{{.*}}) <{dims = array<i64: 1, 2, 3>, keepdim = false}>
// GENERIC: "fuse.amax"(%{{.*}}) <{dims = array<i64: 0>, keepdim = true}>
// GENERIC: "fuse.amin"(%{{.*}}) <{dims = array<i64: 3, 0, 2, 1>, keepdim = false}> : (tensor<2x3x4x5xf32>) -> tensor<f32>
// GENERIC: "fuse.amin"(%{{.*}}) <{dims = array<i64: 2>, keepdim = true}>
// GENERIC: "fuse.logsumexp"(%{{.*}}) <{dims = array<i64: 1>, keepdim = true}>
// GENERIC: "fuse.logsumexp"(%{{.*}}) <{dims = array<i64: 3, 1, 2>, keepdim = false}>
func.func @reductions(%x: tensor<2x3x4x5xf32>)
    -> (tensor<2x4x5xf32>, tensor<2x1x4x1xf32>, tensor<2x3x1x1xf32>, tensor<2x3xf32>,
        tensor<2xf32>, tensor<1x3x4x5xf32>, tensor<f32>, tensor<2x3x1x5xf32>,
        tensor<2x1x4x5xf32>, tensor<2xf32>) {
  %0 = fuse.sum %x {dims = array<i64: 1>} : tensor<2x3x4x5xf32> -> tensor<2x4x5xf32>
  %1 = fuse.sum %x {dims = array<i64: 3, 1>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x1x4x1xf32>
  %2 = fuse.mean %x {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x3x1x1xf32>
  %3 = fuse.mean %x {dims = array<i64: 3, 2>, keepdim = false} : tensor<2x3x4x5xf32> -> tensor<2x3xf32>
  %4 = fuse.amax %x {dims = array<i64: 1, 2, 3>} : tensor<2x3x4x5xf32> -> tensor<2xf32>
  %5 = fuse.amax %x {dims = array<i64: 0>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<1x3x4x5xf32>
  %6 = fuse.amin %x {dims = array<i64: 3, 0, 2, 1>} : tensor<2x3x4x5xf32> -> tensor<f32>
  %7 = fuse.amin %x {dims = array<i64: 2>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x3x1x5xf32>
  %8 = fuse.logsumexp %x {dims = array<i64: 1>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x1x4x5xf32>
  %9 = fuse.logsumexp %x {dims = array<i64: 3, 1, 2>} : tensor<2x3x4x5xf32> -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : tensor<2x4x5xf32>, tensor<2x1x4x1xf32>, tensor<2x3x1x1xf32>, tensor<2x3xf32>,
        tensor<2xf32>, tensor<1x3x4x5xf32>, tensor<f32>, tensor<2x3x1x5xf32>,
        tensor<2x1x4x5xf32>, tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf32>, %[[S:.*]]: tensor<1x1xf32>)
// CHECK: %[[F:.*]] = fuse.reshape %[[X]] : tensor<2x3x4x5xf32> -> tensor<2x3x20xf32>
// CHECK: %[[B:.*]] = fuse.reshape %[[F]] : tensor<2x3x20xf32> -> tensor<2x3x4x5xf32>
// CHECK: %[[U:.*]] = fuse.reshape %[[B]] : tensor<2x3x4x5xf32> -> tensor<1x2x3x1x4x5x1xf32>
// CHECK: %[[V:.*]] = fuse.reshape %[[U]] : tensor<1x2x3x1x4x5x1xf32> -> tensor<120xf32>
// CHECK: %[[Z:.*]] = fuse.reshape %[[S]] : tensor<1x1xf32> -> tensor<f32>
// CHECK: %[[O:.*]] = fuse.reshape %[[Z]] : tensor<f32> -> tensor<1x1x1xf32>
// CHECK: return %[[V]], %[[O]]
// GENERIC-LABEL: sym_name = "reshape"
// GENERIC: "fuse.reshape"(%{{.*}}) : (tensor<2x3x4x5xf32>) -> tensor<2x3x20xf32>
// GENERIC: "fuse.reshape"(%{{.*}}) : (tensor<1x1xf32>) -> tensor<f32>
func.func @reshape(%x: tensor<2x3x4x5xf32>, %s: tensor<1x1xf32>) -> (tensor<120xf32>, tensor<1x1x1xf32>) {
  // flatten(2), view back, unsqueeze, flatten.
  %0 = fuse.reshape %x : tensor<2x3x4x5xf32> -> tensor<2x3x20xf32>
  %1 = fuse.reshape %0 : tensor<2x3x20xf32> -> tensor<2x3x4x5xf32>
  %2 = fuse.reshape %1 : tensor<2x3x4x5xf32> -> tensor<1x2x3x1x4x5x1xf32>
  %3 = fuse.reshape %2 : tensor<1x2x3x1x4x5x1xf32> -> tensor<120xf32>
  // squeeze to a rank-0 tensor and back.
  %4 = fuse.reshape %s : tensor<1x1xf32> -> tensor<f32>
  %5 = fuse.reshape %4 : tensor<f32> -> tensor<1x1x1xf32>
  return %3, %5 : tensor<120xf32>, tensor<1x1x1xf32>
}

//===----------------------------------------------------------------------===//
// A chain (KernelBench 2/78: conv_transpose, max_pool, max_pool, sum over C)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @chain
// CHECK: %[[C:.*]] = fuse.conv_transpose
// CHECK: %[[P0:.*]] = fuse.max_pool %[[C]] {kernel_size = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>} : tensor<1x5x7x7x7xf32> -> tensor<1x5x3x3x3xf32>
// CHECK: %[[P1:.*]] = fuse.max_pool %[[P0]] {kernel_size = array<i64: 3, 3, 3>, padding = array<i64: 0, 0, 0>, stride = array<i64: 3, 3, 3>} : tensor<1x5x3x3x3xf32> -> tensor<1x5x1x1x1xf32>
// CHECK: %[[S:.*]] = fuse.sum %[[P1]] {dims = array<i64: 1>, keepdim = true} : tensor<1x5x1x1x1xf32> -> tensor<1x1x1x1x1xf32>
// CHECK: return %[[S]]
func.func @chain(%x: tensor<1x3x3x3x3xf32>, %w: tensor<3x5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x1x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<1x3x3x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x5x7x7x7xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>}
       : tensor<1x5x7x7x7xf32> -> tensor<1x5x3x3x3xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 3, 3, 3>, stride = array<i64: 3, 3, 3>, padding = array<i64: 0, 0, 0>}
       : tensor<1x5x3x3x3xf32> -> tensor<1x5x1x1x1xf32>
  %3 = fuse.sum %2 {dims = array<i64: 1>, keepdim = true} : tensor<1x5x1x1x1xf32> -> tensor<1x1x1x1x1xf32>
  return %3 : tensor<1x1x1x1x1xf32>
}
