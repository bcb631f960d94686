// RUN: fusecc --emit=plan %s | FileCheck %s --check-prefix=PLAN
// RUN: fusecc --emit=plan --plan-warp-set-limit=8 %s | FileCheck %s --check-prefix=PLAN8
// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --plan-warp-set-limit=8 --plan-split-chunk=100 %s | FileCheck %s
//
// Column sets (elements `inner` apart: the reduced dims are not the last)
// that are long and too few for one thread each are split over blocks like
// rows (NormLayout Split with inner > 1): every block sums its chunk with
// its threads `inner` apart, writes partial statistics, and the set's
// blocks merge them (Chan) and reduce or normalise their chunk. Sums,
// means, var (shifted: mean 1e3), amax, logsumexp, softmax and log_softmax;
// the last run splits them into chunks of 100 (up to 51 blocks per set).

// PLAN-LABEL: plan @sum_0_2
// PLAN: reduction: sum, 6 sets of 4800, 5 blocks per set: partial statistics, then combine + reduce
// PLAN-LABEL: plan @mean_1
// PLAN: reduction: mean, 15 sets of 5000, {{[0-9]+}} blocks per set
// PLAN-LABEL: plan @var_1_mean_1e3
// PLAN: reduction: var, 14 sets of 4200, {{[0-9]+}} blocks per set
// PLAN-LABEL: plan @amax_1_2
// PLAN: reduction: amax, 6 sets of 4900, {{[0-9]+}} blocks per set
// PLAN-LABEL: plan @logsumexp_1
// PLAN: reduction: logsumexp, 4 sets of 4608, {{[0-9]+}} blocks per set
// PLAN-LABEL: plan @softmax_1
// PLAN: normalization: softmax, 6 sets of 4500, {{[0-9]+}} blocks per set: partial statistics, then combine + normalise
// PLAN-LABEL: plan @log_softmax_1
// PLAN: normalization: log_softmax, 2 sets of 5000, {{[0-9]+}} blocks per set
// Column sets that fill the SMs with a thread each stay Column (sets of 10
// count as long with a warp limit of 8).
// PLAN8-LABEL: plan @sum_many_columns
// PLAN8: reduction: sum, 34000 sets of 10, one thread per set

// CHECK: @sum_0_2: PASS rel-L2 {{[0-9.]+e-(0[7-9]|[1-9][0-9])}}
// CHECK: @mean_1: PASS rel-L2 {{[0-9.]+e-(0[7-9]|[1-9][0-9])}}
// CHECK: @var_1_mean_1e3: PASS
// CHECK: @amax_1_2: PASS
// CHECK: @logsumexp_1: PASS
// CHECK: @softmax_1: PASS
// CHECK: @log_softmax_1: PASS
// CHECK: @sum_many_columns: PASS
// CHECK-NOT: FAIL

func.func @sum_0_2(%x: tensor<2x40x60x6xf32>) -> tensor<6xf32> {
  %0 = fuse.sum %x {dims = array<i64: 0, 1, 2>, keepdim = false} : tensor<2x40x60x6xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

func.func @mean_1(%x: tensor<3x5000x5xf32>) -> tensor<3x1x5xf32> {
  %0 = fuse.mean %x {dims = array<i64: 1>, keepdim = true} : tensor<3x5000x5xf32> -> tensor<3x1x5xf32>
  return %0 : tensor<3x1x5xf32>
}

func.func @var_1_mean_1e3(%x: tensor<2x4200x7xf32> {fuse.check.mean = 1000.0 : f64}) -> tensor<2x7xf32> attributes {fuse.check.rel_tol = 5.0e-5 : f64} {
  %0 = fuse.var %x {dims = array<i64: 1>, correction = 1 : i64, keepdim = false} : tensor<2x4200x7xf32> -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

func.func @amax_1_2(%x: tensor<2x70x70x3xf32>) -> tensor<2x3xf32> {
  %0 = fuse.amax %x {dims = array<i64: 1, 2>, keepdim = false} : tensor<2x70x70x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @logsumexp_1(%x: tensor<1x4608x4xf32>) -> tensor<1x1x4xf32> {
  %0 = fuse.logsumexp %x {dims = array<i64: 1>, keepdim = true} : tensor<1x4608x4xf32> -> tensor<1x1x4xf32>
  return %0 : tensor<1x1x4xf32>
}

func.func @softmax_1(%x: tensor<2x4500x3xf32>) -> tensor<2x4500x3xf32> {
  %0 = fuse.softmax %x {dim = 1 : i64} : tensor<2x4500x3xf32>
  return %0 : tensor<2x4500x3xf32>
}

func.func @log_softmax_1(%x: tensor<1x5000x2xf32>) -> tensor<1x5000x2xf32> {
  %0 = fuse.log_softmax %x {dim = 1 : i64} : tensor<1x5000x2xf32>
  return %0 : tensor<1x5000x2xf32>
}

func.func @sum_many_columns(%x: tensor<10x34000xf32>) -> tensor<34000xf32> {
  %0 = fuse.sum %x {dims = array<i64: 0>, keepdim = false} : tensor<10x34000xf32> -> tensor<34000xf32>
  return %0 : tensor<34000xf32>
}
