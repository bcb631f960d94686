// RUN: not fusecc-check --simulate-only %s | FileCheck %s
// Simulator semantics of thread block clusters, on hand-written GPU IR:
// the blocks of a cluster run concurrently and meet at cluster barriers;
// nvvm.mapa + llvm.store to !llvm.ptr<7> writes another block's shared
// memory. Checked: a store before any cluster wait (the target may not
// have started), a read of a pushed word without a cluster barrier after
// the store, a relaxed arrive after stores (it does not release them), a
// block exiting before a store into it is ordered, divergent and unpaired
// barriers, a block that never arrives, ranks outside the cluster, cluster
// ops without nvvm.cluster_dim, and grids that are not whole clusters.

// The blocks of a cluster run one at a time, each until it waits at an
// incomplete cluster barrier or exits, so every run interleaves them alike
// and these diagnostics are deterministic.

// Two blocks swap one value per thread: block b's thread t reads
// 2.5 (4 (1 - b) + t) from its shared memory.
// CHECK-LABEL: @exchange: OK
// CHECK-NEXT: @exchange: arg 0 [0] = 10 (0x41200000)
// CHECK-NEXT: @exchange: arg 0 [1] = 12.5 (0x41480000)
// CHECK-NEXT: @exchange: arg 0 [2] = 0 (0x00000000)
// CHECK-NEXT: @exchange: arg 0 [3] = 2.5 (0x40200000)
// CHECK: @no_start_wait: FAIL (simulator: distributed shared memory store to cluster block 1 before a cluster barrier wait (the block may not have started)
// CHECK: @no_barrier: FAIL (simulator: distributed shared memory race: read of shared memory word 0 without a cluster barrier (arrive by the writer, wait by this block) after cluster block 1 stored to it
// CHECK: @relaxed_release: FAIL (simulator: nvvm.cluster.arrive.relaxed after distributed shared memory stores (it does not release them)
// CHECK: @exit_unordered: FAIL (simulator: store to word 0 of cluster block 1, which has exited
// CHECK: @divergent: FAIL (simulator: nvvm.cluster.arrive reached by 1 of 2 threads (divergent cluster barrier)
// CHECK: @wait_first: FAIL (simulator: nvvm.cluster.wait without nvvm.cluster.arrive
// CHECK: @unpaired: FAIL (simulator: block (0) exits after an nvvm.cluster.arrive without its nvvm.cluster.wait
// CHECK: @absent: FAIL (simulator: nvvm.cluster.wait for cluster block 1, which exited without arriving
// CHECK: @bad_rank: FAIL (simulator: nvvm.mapa to block rank 2 of a cluster of 2
// CHECK: @no_cluster: FAIL (simulator: nvvm.cluster.arrive in a kernel without clusters (no nvvm.cluster_dim)
// CHECK: @odd_grid: FAIL (simulator: grid x (3) is not a multiple of the cluster size (2)
module attributes {gpu.container_module} {
  func.func @exchange(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@exchange blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @no_start_wait(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@no_start_wait blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @no_barrier(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@no_barrier blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @relaxed_release(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@relaxed_release blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @exit_unordered(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@exit_unordered blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @divergent(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@divergent blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @wait_first(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@wait_first blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @unpaired(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@unpaired blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @absent(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@absent blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @bad_rank(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@bad_rank blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @no_cluster(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 2 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@no_cluster blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  func.func @odd_grid(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %g = arith.constant 3 : index
    %c8 = arith.constant 8 : i32
    gpu.launch_func @k::@odd_grid blocks in (%g, %c1, %c1) threads in (%c2, %c1, %c1) dynamic_shared_memory_size %c8 args(%out : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @exchange(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xf32, #gpu.address_space<workgroup>>
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %rank = arith.remui %bid, %c2 : index
      %prank = arith.subi %c1, %rank : index
      %partner = arith.index_cast %prank : index to i32
      %val10 = arith.muli %bid, %c4 : index
      %lin = arith.addi %val10, %tid : index
      %vi = arith.index_cast %lin : index to i32
      %vf0 = arith.sitofp %vi : i32 to f32
      %ten = arith.constant 2.5 : f32
      %vf = arith.mulf %vf0, %ten : f32
      %base = memref.extract_aligned_pointer_as_index %v : memref<2xf32, #gpu.address_space<workgroup>> -> index
      %off = arith.muli %tid, %c4 : index
      %a = arith.addi %base, %off : index
      %a64 = arith.index_cast %a : index to i64
      %p3 = llvm.inttoptr %a64 : i64 to !llvm.ptr<3>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      %p7 = nvvm.mapa %p3, %partner : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.store %vf, %p7 : f32, !llvm.ptr<7>
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      %r = memref.load %v[%tid] : memref<2xf32, #gpu.address_space<workgroup>>
      %o0 = arith.muli %bid, %c2 : index
      %o = arith.addi %o0, %tid : index
      memref.store %r, %out[%o] : memref<4xf32>
      gpu.return
    }
    gpu.func @no_start_wait(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xf32, #gpu.address_space<workgroup>>
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %rank = arith.remui %bid, %c2 : index
      %prank = arith.subi %c1, %rank : index
      %partner = arith.index_cast %prank : index to i32
      %val10 = arith.muli %bid, %c4 : index
      %lin = arith.addi %val10, %tid : index
      %vi = arith.index_cast %lin : index to i32
      %vf0 = arith.sitofp %vi : i32 to f32
      %ten = arith.constant 2.5 : f32
      %vf = arith.mulf %vf0, %ten : f32
      %base = memref.extract_aligned_pointer_as_index %v : memref<2xf32, #gpu.address_space<workgroup>> -> index
      %off = arith.muli %tid, %c4 : index
      %a = arith.addi %base, %off : index
      %a64 = arith.index_cast %a : index to i64
      %p3 = llvm.inttoptr %a64 : i64 to !llvm.ptr<3>
      %p7 = nvvm.mapa %p3, %partner : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.store %vf, %p7 : f32, !llvm.ptr<7>
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      %r = memref.load %v[%tid] : memref<2xf32, #gpu.address_space<workgroup>>
      %o0 = arith.muli %bid, %c2 : index
      %o = arith.addi %o0, %tid : index
      memref.store %r, %out[%o] : memref<4xf32>
      gpu.return
    }
    gpu.func @no_barrier(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xf32, #gpu.address_space<workgroup>>
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %rank = arith.remui %bid, %c2 : index
      %prank = arith.subi %c1, %rank : index
      %partner = arith.index_cast %prank : index to i32
      %val10 = arith.muli %bid, %c4 : index
      %lin = arith.addi %val10, %tid : index
      %vi = arith.index_cast %lin : index to i32
      %vf0 = arith.sitofp %vi : i32 to f32
      %ten = arith.constant 2.5 : f32
      %vf = arith.mulf %vf0, %ten : f32
      %base = memref.extract_aligned_pointer_as_index %v : memref<2xf32, #gpu.address_space<workgroup>> -> index
      %off = arith.muli %tid, %c4 : index
      %a = arith.addi %base, %off : index
      %a64 = arith.index_cast %a : index to i64
      %p3 = llvm.inttoptr %a64 : i64 to !llvm.ptr<3>
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %v[%tid] : memref<2xf32, #gpu.address_space<workgroup>>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      %p7 = nvvm.mapa %p3, %partner : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.store %vf, %p7 : f32, !llvm.ptr<7>
      %r = memref.load %v[%tid] : memref<2xf32, #gpu.address_space<workgroup>>
      %o0 = arith.muli %bid, %c2 : index
      %o = arith.addi %o0, %tid : index
      memref.store %r, %out[%o] : memref<4xf32>
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      gpu.return
    }
    gpu.func @relaxed_release(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xf32, #gpu.address_space<workgroup>>
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %rank = arith.remui %bid, %c2 : index
      %prank = arith.subi %c1, %rank : index
      %partner = arith.index_cast %prank : index to i32
      %val10 = arith.muli %bid, %c4 : index
      %lin = arith.addi %val10, %tid : index
      %vi = arith.index_cast %lin : index to i32
      %vf0 = arith.sitofp %vi : i32 to f32
      %ten = arith.constant 2.5 : f32
      %vf = arith.mulf %vf0, %ten : f32
      %base = memref.extract_aligned_pointer_as_index %v : memref<2xf32, #gpu.address_space<workgroup>> -> index
      %off = arith.muli %tid, %c4 : index
      %a = arith.addi %base, %off : index
      %a64 = arith.index_cast %a : index to i64
      %p3 = llvm.inttoptr %a64 : i64 to !llvm.ptr<3>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      %p7 = nvvm.mapa %p3, %partner : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.store %vf, %p7 : f32, !llvm.ptr<7>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      %r = memref.load %v[%tid] : memref<2xf32, #gpu.address_space<workgroup>>
      %o0 = arith.muli %bid, %c2 : index
      %o = arith.addi %o0, %tid : index
      memref.store %r, %out[%o] : memref<4xf32>
      gpu.return
    }
    gpu.func @exit_unordered(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xf32, #gpu.address_space<workgroup>>
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %rank = arith.remui %bid, %c2 : index
      %prank = arith.subi %c1, %rank : index
      %partner = arith.index_cast %prank : index to i32
      %val10 = arith.muli %bid, %c4 : index
      %lin = arith.addi %val10, %tid : index
      %vi = arith.index_cast %lin : index to i32
      %vf0 = arith.sitofp %vi : i32 to f32
      %ten = arith.constant 2.5 : f32
      %vf = arith.mulf %vf0, %ten : f32
      %base = memref.extract_aligned_pointer_as_index %v : memref<2xf32, #gpu.address_space<workgroup>> -> index
      %off = arith.muli %tid, %c4 : index
      %a = arith.addi %base, %off : index
      %a64 = arith.index_cast %a : index to i64
      %p3 = llvm.inttoptr %a64 : i64 to !llvm.ptr<3>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      %p7 = nvvm.mapa %p3, %partner : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.store %vf, %p7 : f32, !llvm.ptr<7>
      gpu.return
    }
    gpu.func @divergent(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %t = gpu.thread_id x
      %c0x = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0x : index
      scf.if %first {
        nvvm.cluster.arrive {aligned}
      }
      nvvm.cluster.wait {aligned}
      gpu.return
    }
    gpu.func @wait_first(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      nvvm.cluster.wait {aligned}
      gpu.return
    }
    gpu.func @unpaired(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      nvvm.cluster.arrive {aligned}
      gpu.return
    }
    gpu.func @absent(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %b = gpu.block_id x
      %c0x = arith.constant 0 : index
      %first = arith.cmpi eq, %b, %c0x : index
      scf.if %first {
        nvvm.cluster.arrive {aligned}
        nvvm.cluster.wait {aligned}
      }
      gpu.return
    }
    gpu.func @bad_rank(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xf32, #gpu.address_space<workgroup>>
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %rank = arith.remui %bid, %c2 : index
      %prank = arith.subi %c1, %rank : index
      %partner = arith.index_cast %prank : index to i32
      %val10 = arith.muli %bid, %c4 : index
      %lin = arith.addi %val10, %tid : index
      %vi = arith.index_cast %lin : index to i32
      %vf0 = arith.sitofp %vi : i32 to f32
      %ten = arith.constant 2.5 : f32
      %vf = arith.mulf %vf0, %ten : f32
      %base = memref.extract_aligned_pointer_as_index %v : memref<2xf32, #gpu.address_space<workgroup>> -> index
      %off = arith.muli %tid, %c4 : index
      %a = arith.addi %base, %off : index
      %a64 = arith.index_cast %a : index to i64
      %p3 = llvm.inttoptr %a64 : i64 to !llvm.ptr<3>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      %two = arith.constant 2 : i32
      %q = nvvm.mapa %p3, %two : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.store %vf, %q : f32, !llvm.ptr<7>
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      gpu.return
    }
    gpu.func @no_cluster(%out: memref<4xf32>) kernel  {
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      gpu.return
    }
    gpu.func @odd_grid(%out: memref<4xf32>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      gpu.return
    }
  }
}
