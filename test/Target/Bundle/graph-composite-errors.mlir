// Composite ops a graph line cannot describe are rejected with a located
// error before anything is compiled: a bias without a weight (optional
// operands are positional).

// RUN: not fusecc %S/Inputs/batch-norm-bias-only.mlir -o %t.fcb 2>&1 | FileCheck %s --check-prefix=BN
// RUN: not test -e %t.fcb
// BN: batch-norm-bias-only.mlir:2:8: error: 'fuse.batch_norm' op a bias without a weight is not supported in a bundle graph line

// RUN: not fusecc %S/Inputs/instance-norm-bias-only.mlir -o %t.fcb 2>&1 | FileCheck %s --check-prefix=IN
// RUN: not test -e %t.fcb
// IN: instance-norm-bias-only.mlir:2:8: error: 'fuse.instance_norm' op a bias without a weight is not supported in a bundle graph line
