// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels),fuse-convert-to-gpu)' -o /dev/null
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1},fuse-plan-kernels),fuse-convert-to-gpu)' -o /dev/null
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels))' 2>/dev/null | FileCheck %s
//
// Issue 38: plans of valid graphs at sizes near the int32 and int64 limits
// (sets of more than 2^31 elements, more than 2^31 sets, workspaces of
// epilogue statistics past their limit, grids) either lower to GPU IR or
// give one located error naming the limit.

// The issue's graph: a batch of 1000 makes the layer_norm's epilogue
// statistics more than 2^28 values, so the normalisation computes its own
// (split: partial statistics, then combine). fuse-plan-kernels used to
// leave the conv kernel with an empty reader list and crash in
// StatsRoot::of.
// CHECK-LABEL: func.func @issue38_large_batch
// CHECK: fuse.kernel "issue38_large_batch_k1" {{.*}}{fuse.plan.merge_records = 1024 : i64, fuse.plan.partials = 1 : i64, fuse.plan.split_chunk
// CHECK-NOT: fuse.plan.epilogue_stats
// CHECK: return
func.func @issue38_large_batch(%x: tensor<1000x1000x16x64x16xf32>, %w: tensor<1000x32x4x3x4xf32>, %d: tensor<64xf32>) -> tensor<1000x256x122x121x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 2, 4>, padding = array<i64: 1, 4, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 8 : i64} : (tensor<1000x1000x16x64x16xf32>, tensor<1000x32x4x3x4xf32>) -> tensor<1000x256x122x121x64xf32>
  %1 = fuse.tanh %0 : tensor<1000x256x122x121x64xf32>
  %2 = fuse.rsqrt %1 : tensor<1000x256x122x121x64xf32>
  %3 = fuse.layer_norm %2 {normalized_rank = 4 : i64} : tensor<1000x256x122x121x64xf32>
  %4 = fuse.div %3, %d : tensor<1000x256x122x121x64xf32>, tensor<64xf32> -> tensor<1000x256x122x121x64xf32>
  %5 = fuse.neg %4 : tensor<1000x256x122x121x64xf32>
  return %5 : tensor<1000x256x122x121x64xf32>
}

// -----

// A group_norm at batch 2^20 (8.6e9 elements): epilogue statistics of
// 2^27 values fit.
// CHECK-LABEL: func.func @group_norm_batch_2_20
// CHECK: fuse.kernel "group_norm_batch_2_20_k1" {{.*}}fuse.plan.epilogue_stats
func.func @group_norm_batch_2_20(%x: tensor<1048576x8x1024xf32>, %w: tensor<8x8x1xf32>) -> tensor<1048576x8x1024xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1048576x8x1024xf32>, tensor<8x8x1xf32>) -> tensor<1048576x8x1024xf32>
  %1 = fuse.group_norm %0 {num_groups = 2 : i64} : tensor<1048576x8x1024xf32>
  return %1 : tensor<1048576x8x1024xf32>
}

// -----

// One softmax set of 2^31 + 1 elements: split into chunks.
// CHECK-LABEL: func.func @softmax_set_2_31
// CHECK: elements = 262146 : i64{{.*}}role = "partials"
func.func @softmax_set_2_31(%x: tensor<1x1x2147483649xf32>) -> tensor<1x1x2147483649xf32> {
  %0 = fuse.softmax %x {dim = 2 : i64} : tensor<1x1x2147483649xf32>
  return %0 : tensor<1x1x2147483649xf32>
}

// -----

// A sum over 3 * 2^30 elements per set.
// CHECK-LABEL: func.func @sum_set_3_2_30
// CHECK: elements = 786432 : i64{{.*}}role = "partials"
func.func @sum_set_3_2_30(%x: tensor<2x3221225472xf32>) -> tensor<2x1xf32> {
  %0 = fuse.sum %x {dims = array<i64: 1>, keepdim = true} : tensor<2x3221225472xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A layer_norm set of 2^40 elements.
// CHECK-LABEL: func.func @layer_norm_set_2_40
// CHECK: elements = 268435456 : i64{{.*}}role = "partials"
func.func @layer_norm_set_2_40(%x: tensor<2x1048576x1048576xf32>) -> tensor<2x1048576x1048576xf32> {
  %0 = fuse.layer_norm %x {normalized_rank = 2 : i64} : tensor<2x1048576x1048576xf32>
  return %0 : tensor<2x1048576x1048576xf32>
}

// -----

// 2^40 sets of 2 elements: more blocks than a grid has.
func.func @layer_norm_sets_2_40(%x: tensor<1099511627776x2xf32>) -> tensor<1099511627776x2xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 137438953472 blocks; at most 2^31 - 1 fit a grid}}
  %0 = fuse.layer_norm %x : tensor<1099511627776x2xf32>
  return %0 : tensor<1099511627776x2xf32>
}

// -----

// An elementwise kernel over 2^40 elements: more blocks than a grid has.
func.func @tanh_2_40(%x: tensor<1024x1073741824xf32>) -> tensor<1024x1073741824xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 4294967296 blocks of 256 threads; at most 2^31 - 1 fit a grid}}
  %0 = fuse.tanh %x : tensor<1024x1073741824xf32>
  return %0 : tensor<1024x1073741824xf32>
}

// -----

// A max_pool with 2^31 outputs.
// CHECK-LABEL: func.func @max_pool_2_33
func.func @max_pool_2_33(%x: tensor<2x1x65536x65536xf32>) -> tensor<2x1x32768x32768xf32> {
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x1x65536x65536xf32> -> tensor<2x1x32768x32768xf32>
  return %0 : tensor<2x1x32768x32768xf32>
}
