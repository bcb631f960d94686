// RUN: fusecc-check %s --plan-split-chunk=64 --plan-merge-records=4 | FileCheck %s
// RUN: fusecc-check %s --plan-split-chunk=64 --plan-merge-records=1 --tile-max-w=8 --tile-threads=64 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 --plan-split-chunk=64 --plan-merge-records=2 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a --tile-wgmma=1 --plan-split-chunk=64 --plan-merge-records=1 | FileCheck %s
// RUN: sed -e 's/tensor<2x/tensor<?x/g' %s > %t.dyn.mlir
// RUN: fusecc-check %t.dyn.mlir --max-batch=3 --batch=1,3 --plan-split-chunk=64 --plan-merge-records=2 | FileCheck %s --check-prefix=DYN
// RUN: fusecc %s --emit=plan --plan-split-chunk=64 --plan-merge-records=4 | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --plan-split-chunk=64 | FileCheck %s --check-prefix=DEFAULT
//
// A normalisation from epilogue statistics whose sets span several blocks
// merges each set's records once, in a launch of its own (`<k>_merge`,
// `NormLayout::mergeParts` blocks per set), when a set has more records
// than `--plan-merge-records` (default 1024; lowered here so that small
// graphs take the path), and its normalising blocks merge only the merged
// records. In the simulator against the float64 reference: moments
// (layer_norm over C x H x W and over H x W, group_norm whose groups
// straddle channel tiles, so that sets have different record counts and
// some merge blocks take none; values around 1e3, where each merged record
// keeps its own shift), (max, sum of exp) (a softmax over all non-batch
// dims, a log_softmax over the spatial dims), a bf16 graph (its
// normalisation stores bf16), ieee and tf32 (mma.sync, wgmma), merge
// blocks of 1 to 4+ records, and a dynamic batch (the merged records are
// per-sample workspace). Reductions (a training batch_norm's mean and var,
// a logsumexp) take one block or warp per set and never this launch
// (epilogue-stats-kinds.mlir, batch-norm-training.mlir). At the default
// threshold these small sets keep merging in every block (DEFAULT).

// CHECK: @ln_chw: PASS
// CHECK: @gn_straddle_1e3: PASS
// CHECK: @ln_spatial: PASS
// CHECK: @softmax_all_nonbatch: PASS
// CHECK: @log_softmax_spatial: PASS
// CHECK: @bf16_gn: PASS {{.*}} storage bf16
// CHECK-NOT: FAIL

// DYN-DAG: @ln_chw[batch=1]: PASS
// DYN-DAG: @ln_chw[batch=3]: PASS
// DYN-DAG: @gn_straddle_1e3[batch=3]: PASS
// DYN-DAG: @softmax_all_nonbatch[batch=3]: PASS
// DYN-DAG: @log_softmax_spatial[batch=3]: PASS
// DYN-NOT: FAIL

// PLAN-LABEL: plan @ln_chw:
// PLAN: (normalization: layer_norm, 2 sets of 1188, partial statistics from ln_chw_k0's epilogue ({{[0-9]+}} per set), {{[0-9]+}} blocks per set: combine + normalise, records merged once per set by ln_chw_k1_merge ({{[0-9]+}} blocks per set))
// PLAN-LABEL: plan @gn_straddle_1e3:
// PLAN: (normalization: group_norm, {{.*}}, records merged once per set by gn_straddle_1e3_k1_merge
// PLAN-LABEL: plan @ln_spatial:
// PLAN: records merged once per set by ln_spatial_k1_merge
// PLAN-LABEL: plan @softmax_all_nonbatch:
// PLAN: (normalization: softmax, 2 sets of 1188, {{.*}}, records merged once per set by softmax_all_nonbatch_k1_merge
// PLAN-LABEL: plan @log_softmax_spatial:
// PLAN: (normalization: log_softmax, {{.*}}, records merged once per set by log_softmax_spatial_k1_merge
// PLAN-LABEL: plan @bf16_gn:
// PLAN: records merged once per set by bf16_gn_k{{[0-9]+}}_merge
// PLAN: writes result (2x24x34x27xbf16)

// DEFAULT-LABEL: plan @ln_chw:
// DEFAULT: blocks per set: combine + normalise)
// DEFAULT-NOT: merged once

// 12 channels x 9 x 11 per sample, several W tiles and H blocks.
func.func @ln_chw(%x: tensor<2x5x5x6xf32>, %w: tensor<5x12x3x3xf32>, %b: tensor<12xf32>, %g: tensor<12x9x11xf32>, %be: tensor<12x9x11xf32>) -> tensor<2x12x9x11xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x5x6xf32>, tensor<5x12x3x3xf32>, tensor<12xf32>) -> tensor<2x12x9x11xf32>
  %n = fuse.layer_norm %c weight(%g : tensor<12x9x11xf32>) bias(%be : tensor<12x9x11xf32>) {normalized_rank = 3 : i64, epsilon = 1.0e-05 : f64} : tensor<2x12x9x11xf32>
  %s = fuse.silu %n : tensor<2x12x9x11xf32>
  return %s : tensor<2x12x9x11xf32>
}

// 24 channels in 4 groups of 6 (16-channel tiles straddle groups 2 and 3:
// their sets have twice the records of the others), values around 1e3.
func.func @gn_straddle_1e3(%x: tensor<2x8x5x6xf32>, %w: tensor<8x24x3x3xf32>, %b: tensor<24xf32> {fuse.check.mean = 1000.0 : f64}, %g: tensor<24xf32>, %be: tensor<24xf32>) -> tensor<2x24x9x11xf32> attributes {fuse.check.rel_tol = 3.0e-4 : f64} {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x5x6xf32>, tensor<8x24x3x3xf32>, tensor<24xf32>) -> tensor<2x24x9x11xf32>
  %n = fuse.group_norm %c weight(%g : tensor<24xf32>) bias(%be : tensor<24xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x24x9x11xf32>
  return %n : tensor<2x24x9x11xf32>
}

// One set per channel (layer_norm over H x W), as rand37_99.
func.func @ln_spatial(%x: tensor<1x4x12x16xf32>, %w: tensor<4x6x1x5xf32>, %b: tensor<6xf32>, %g: tensor<34x27xf32>, %be: tensor<34x27xf32>) -> tensor<1x6x34x27xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3, 2>, padding = array<i64: 0, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x12x16xf32>, tensor<4x6x1x5xf32>, tensor<6xf32>) -> tensor<1x6x34x27xf32>
  %n = fuse.layer_norm %c weight(%g : tensor<34x27xf32>) bias(%be : tensor<34x27xf32>) {normalized_rank = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<1x6x34x27xf32>
  return %n : tensor<1x6x34x27xf32>
}

func.func @softmax_all_nonbatch(%x: tensor<2x5x5x6xf32>, %w: tensor<5x12x3x3xf32>, %b: tensor<12xf32>) -> tensor<2x12x9x11xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x5x6xf32>, tensor<5x12x3x3xf32>, tensor<12xf32>) -> tensor<2x12x9x11xf32>
  %r = fuse.reshape %c : tensor<2x12x9x11xf32> -> tensor<2x1188xf32>
  %s = fuse.softmax %r {dim = 1 : i64} : tensor<2x1188xf32>
  %v = fuse.reshape %s : tensor<2x1188xf32> -> tensor<2x12x9x11xf32>
  return %v : tensor<2x12x9x11xf32>
}

func.func @log_softmax_spatial(%x: tensor<2x4x12x16xf32>, %w: tensor<4x6x1x5xf32>, %b: tensor<6xf32>) -> tensor<2x6x34x27xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3, 2>, padding = array<i64: 0, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x12x16xf32>, tensor<4x6x1x5xf32>, tensor<6xf32>) -> tensor<2x6x34x27xf32>
  %r = fuse.reshape %c : tensor<2x6x34x27xf32> -> tensor<2x6x918xf32>
  %s = fuse.log_softmax %r {dim = 2 : i64} : tensor<2x6x918xf32>
  %v = fuse.reshape %s : tensor<2x6x918xf32> -> tensor<2x6x34x27xf32>
  return %v : tensor<2x6x34x27xf32>
}

// bf16 storage: the normalisation kernel stores bf16.
func.func @bf16_gn(%x: tensor<2x8x12x16xbf16>, %w: tensor<8x24x1x5xbf16>, %g: tensor<24xbf16>, %be: tensor<24xbf16>) -> tensor<2x24x34x27xbf16> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 3, 2>, padding = array<i64: 0, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x12x16xbf16>, tensor<8x24x1x5xbf16>) -> tensor<2x24x34x27xbf16>
  %n = fuse.group_norm %c weight(%g : tensor<24xbf16>) bias(%be : tensor<24xbf16>) {num_groups = 3 : i64, epsilon = 1.0e-05 : f64} : tensor<2x24x34x27xbf16>
  %r = fuse.relu %n : tensor<2x24x34x27xbf16>
  return %r : tensor<2x24x34x27xbf16>
}
