// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-plan-kernels{warp-set-limit=0}))'
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels),fuse-convert-to-gpu)' 2>&1 | FileCheck %s --check-prefix=NOPLAN
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-plan-kernels{merge-records=0}))' 2>&1 | FileCheck %s --check-prefix=MERGE

// Diagnostics of the plan: a bad pass option, read through the layout of
// the normalisation kernel it plans (warp-set-limit, merge-records). The
// second RUN lowers without a plan.

func.func @bad_limit(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  // expected-error@+1 {{'fuse.kernel' op warp-set-limit and merge-records must be >= 1 and split-chunk >= 4, got 0, 1024 and 16384}}
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %s = fuse.softmax %a {dim = 2 : i64} : tensor<2x4x5xf32>
    fuse.yield %s : tensor<2x4x5xf32>
  }
  return %0 : tensor<2x4x5xf32>
}

// MERGE: error: 'fuse.kernel' op warp-set-limit and merge-records must be >= 1 and split-chunk >= 4, got 4096, 0 and 16384
// NOPLAN: error: 'func.func' op has no kernel plan; run fuse-plan-kernels first
