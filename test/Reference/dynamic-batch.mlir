// RUN: fusecc-check %s --max-batch=5 --batch=1,2,5 | FileCheck %s
// RUN: fusecc-check %s --max-batch=5 --batch=1,3 --precision=tf32 --chip=sm_90a --tile-wgmma=always | FileCheck %s --check-prefix=WG
// RUN: fusecc-check %s --max-batch=5 --batch=2 --plan-warp-set-limit=8 --plan-split-chunk=12 | FileCheck %s --check-prefix=SPLIT
// A dynamic batch (docs/design/plans.md, "Dynamic batch"): one module
// compiled from the per-sample graph, simulated at several batches, each
// against the reference of the graph at that batch. Per-sample launches
// run once per sample on its slices (batched arguments, per-sample
// workspaces: intermediates, epilogue statistics, the wgmma input
// re-layout); launches reading only weights (a weight chain, the wgmma
// weight re-layout) run once and are shared by every sample.

// CHECK-DAG: @conv_gn[batch=1]: PASS
// CHECK-DAG: @conv_gn[batch=2]: PASS
// CHECK-DAG: @conv_gn[batch=5]: PASS
// WG-DAG: @conv_gn[batch=1]: PASS
// WG-DAG: @conv_gn[batch=3]: PASS
// SPLIT: @conv_gn[batch=2]: PASS
func.func @conv_gn(%x: tensor<?x8x6x6xf32>, %w: tensor<8x16x3x3xf32>,
                   %b: tensor<16xf32>, %g: tensor<16xf32>,
                   %be: tensor<16xf32>) -> tensor<?x16x11x11xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<?x8x6x6xf32>, tensor<8x16x3x3xf32>, tensor<16xf32>) -> tensor<?x16x11x11xf32>
  %n = fuse.group_norm %c weight(%g : tensor<16xf32>) bias(%be : tensor<16xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<?x16x11x11xf32>
  %r = fuse.relu %n : tensor<?x16x11x11xf32>
  return %r : tensor<?x16x11x11xf32>
}

// CHECK-DAG: @weight_chain_softmax[batch=1]: PASS
// CHECK-DAG: @weight_chain_softmax[batch=2]: PASS
// CHECK-DAG: @weight_chain_softmax[batch=5]: PASS
// WG-DAG: @weight_chain_softmax[batch=3]: PASS
// SPLIT: @weight_chain_softmax[batch=2]: PASS
func.func @weight_chain_softmax(%x: tensor<?x8x4x8xf32>, %w: tensor<8x8x3x3xf32>,
                                %s: tensor<8x8x3x3xf32>) -> tensor<?x8x36xf32> {
  %ws = fuse.mul %w, %s : tensor<8x8x3x3xf32>, tensor<8x8x3x3xf32> -> tensor<8x8x3x3xf32>
  %c = fuse.conv_transpose %x, %ws {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<?x8x4x8xf32>, tensor<8x8x3x3xf32>) -> tensor<?x8x6x10xf32>
  %v = fuse.reshape %c : tensor<?x8x6x10xf32> -> tensor<?x8x60xf32>
  %sm = fuse.softmax %v {dim = 2 : i64} : tensor<?x8x60xf32>
  %p = fuse.max_pool %sm {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>, dilation = array<i64: 1>} : tensor<?x8x60xf32> -> tensor<?x8x30xf32>
  %t = fuse.reshape %p : tensor<?x8x30xf32> -> tensor<?x8x6x5xf32>
  %m = fuse.mean %t {dims = array<i64: 3>, keepdim = false} : tensor<?x8x6x5xf32> -> tensor<?x8x6xf32>
  %q = fuse.reshape %m : tensor<?x8x6xf32> -> tensor<?x48xf32>
  %o = fuse.reshape %q : tensor<?x48xf32> -> tensor<?x8x6xf32>
  %e = fuse.exp %o : tensor<?x8x6xf32>
  %f = fuse.concat %e, %o, %e, %o, %e, %o {dim = 2 : i64} : (tensor<?x8x6xf32>, tensor<?x8x6xf32>, tensor<?x8x6xf32>, tensor<?x8x6xf32>, tensor<?x8x6xf32>, tensor<?x8x6xf32>) -> tensor<?x8x36xf32>
  return %f : tensor<?x8x36xf32>
}

// CHECK-DAG: @spatial_mean[batch=1]#0: PASS
// CHECK-DAG: @spatial_mean[batch=1]#1: PASS
// CHECK-DAG: @spatial_mean[batch=5]#0: PASS
// CHECK-DAG: @spatial_mean[batch=5]#1: PASS
// WG-DAG: @spatial_mean[batch=3]#1: PASS
func.func @spatial_mean(%x: tensor<?x4x7x5xf32>, %w: tensor<4x6x4x4xf32>,
                        %b: tensor<6xf32>) -> (tensor<?x6x1x1xf32>, tensor<?x6x16x12xf32>) {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<?x4x7x5xf32>, tensor<4x6x4x4xf32>, tensor<6xf32>) -> tensor<?x6x14x10xf32>
  %m = fuse.mean %c {dims = array<i64: 2, 3>, keepdim = true} : tensor<?x6x14x10xf32> -> tensor<?x6x1x1xf32>
  %u = fuse.upsample %c {linear} : tensor<?x6x14x10xf32> -> tensor<?x6x16x12xf32>
  return %m, %u : tensor<?x6x1x1xf32>, tensor<?x6x16x12xf32>
}

// Half storage, a reduction through the convolution (box sums: one block
// per sample and channel) and a U-Net step (a nearest upsample and a
// concat with a second batched input folded into the staging, a pooled
// epilogue).
// CHECK-DAG: @half[batch=5]: PASS
// CHECK-DAG: @box_mean[batch=5]: PASS
// CHECK-DAG: @unet_step[batch=5]: PASS
// WG-DAG: @half[batch=3]: PASS
// WG-DAG: @box_mean[batch=3]: PASS
// WG-DAG: @unet_step[batch=3]: PASS
func.func @half(%x: tensor<?x8x5x5xbf16>, %w: tensor<8x4x3x3xbf16>,
                %b: tensor<4xbf16>) -> tensor<?x4x11x11xbf16> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<?x8x5x5xbf16>, tensor<8x4x3x3xbf16>, tensor<4xbf16>) -> tensor<?x4x11x11xbf16>
  %s = fuse.softmax %c {dim = 1 : i64} : tensor<?x4x11x11xbf16>
  return %s : tensor<?x4x11x11xbf16>
}

func.func @box_mean(%x: tensor<?x4x9x7xf32>, %w: tensor<4x6x3x3xf32>,
                    %b: tensor<6xf32>) -> tensor<?x6x1x1xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
       : (tensor<?x4x9x7xf32>, tensor<4x6x3x3xf32>, tensor<6xf32>) -> tensor<?x6x18x14xf32>
  %m = fuse.mean %c {dims = array<i64: 2, 3>, keepdim = true} : tensor<?x6x18x14xf32> -> tensor<?x6x1x1xf32>
  return %m : tensor<?x6x1x1xf32>
}

func.func @unet_step(%x: tensor<?x4x4x4xf32>, %skip: tensor<?x4x8x8xf32>,
                     %w: tensor<8x6x3x3xf32>) -> tensor<?x6x4x4xf32> {
  %u = fuse.upsample %x {output_size = array<i64: 8, 8>} : tensor<?x4x4x4xf32> -> tensor<?x4x8x8xf32>
  %j = fuse.concat %u, %skip {dim = 1 : i64} : (tensor<?x4x8x8xf32>, tensor<?x4x8x8xf32>) -> tensor<?x8x8x8xf32>
  %c = fuse.conv_transpose %j, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<?x8x8x8xf32>, tensor<8x6x3x3xf32>) -> tensor<?x6x8x8xf32>
  %p = fuse.max_pool %c {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : tensor<?x6x8x8xf32> -> tensor<?x6x4x4xf32>
  %r = fuse.relu %p : tensor<?x6x4x4xf32>
  return %r : tensor<?x6x4x4xf32>
}

// A mean of a max pooling (issue 37's pool_reduce): the pooled epilogue's
// moments records in the per-sample workspace, the pooled tensor on chip.
// CHECK-DAG: @mean_of_max_pool[batch=1]: PASS
// CHECK-DAG: @mean_of_max_pool[batch=5]: PASS
// WG-DAG: @mean_of_max_pool[batch=3]: PASS
// SPLIT: @mean_of_max_pool[batch=2]: PASS
func.func @mean_of_max_pool(%x: tensor<?x5x6x8xf32>, %w: tensor<5x7x4x4xf32>) -> tensor<?x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<?x5x6x8xf32>, tensor<5x7x4x4xf32>) -> tensor<?x7x12x16xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<?x7x12x16xf32> -> tensor<?x7x6x8xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<?x7x6x8xf32> -> tensor<?x7xf32>
  return %2 : tensor<?x7xf32>
}

// A 1x1 convolution applied in its producer's epilogue (a channel
// contraction): its weights and bias are shared by every sample.
// CHECK-DAG: @contraction_head[batch=1]: PASS
// CHECK-DAG: @contraction_head[batch=5]: PASS
// WG-DAG: @contraction_head[batch=3]: PASS
func.func @contraction_head(%x: tensor<?x8x5x5xf32>, %w: tensor<8x32x4x4xf32>, %hw: tensor<5x32x1x1xf32>, %hb: tensor<5xf32>) -> tensor<?x5x10x10xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<?x8x5x5xf32>, tensor<8x32x4x4xf32>) -> tensor<?x32x10x10xf32>
  %1 = fuse.relu %0 : tensor<?x32x10x10xf32>
  %2 = fuse.conv %1, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<?x32x10x10xf32>, tensor<5x32x1x1xf32>, tensor<5xf32>) -> tensor<?x5x10x10xf32>
  %3 = fuse.sigmoid %2 : tensor<?x5x10x10xf32>
  return %3 : tensor<?x5x10x10xf32>
}
