// RUN: not fusecc-check --simulate-only %s | FileCheck %s
// Simulator semantics of nvvm.cp.async.bulk.global.shared.cta (a bulk copy
// shared -> global), nvvm.cp.async.bulk.commit.group and
// nvvm.cp.async.bulk.wait_group, on hand-written GPU IR: global addresses
// come from memref.extract_aligned_pointer_as_index of a kernel argument,
// through llvm.inttoptr (generic) and llvm.addrspacecast (global). Each of
// 4 threads writes its 4 shared words (in - in = 0), fences, and after a
// barrier copies them (16 bytes) to its 4 elements of the output. A copy
// reads through the async proxy (fence and barrier before it, as for a
// wgmma); its words stay pending until a wait_group of the issuing thread
// retires its group.

// CHECK-LABEL: @bulk_ok: OK
// CHECK-COUNT-16: @bulk_ok: arg 1 [{{[0-9]+}}] = 0 (0x00000000)
// CHECK-NOT: @bulk_ok: arg

// CHECK: @no_fence: FAIL (simulator: shared memory word 0 written by thread 0 is read by a bulk copy (nvvm.cp.async.bulk.global.shared.cta, async proxy) without an nvvm.fence.proxy (async.shared) of that thread between the write and the next barrier in 'nvvm.cp.async.bulk.global.shared.cta'
// CHECK: @no_barrier: FAIL (simulator: shared memory race: word 0 written by thread 0 without a barrier before a bulk copy (nvvm.cp.async.bulk.global.shared.cta) reads it in 'nvvm.cp.async.bulk.global.shared.cta'
// CHECK: @store_before_wait: FAIL (simulator: store to shared memory word 0 while a bulk copy (nvvm.cp.async.bulk.global.shared.cta) reading it is pending (no nvvm.cp.async.bulk.wait_group read retiring it) in 'memref.store'
// CHECK: @exit_without_wait: FAIL (simulator: 1 bulk copies (nvvm.cp.async.bulk.global.shared.cta) may still read shared memory at kernel exit (no nvvm.cp.async.bulk.wait_group read retiring them) in 'gpu.return'
// CHECK: @wait_uncommitted: FAIL (simulator: 1 uncommitted bulk copies at a nvvm.cp.async.bulk.wait_group (no nvvm.cp.async.bulk.commit.group before) in 'nvvm.cp.async.bulk.wait_group'
// CHECK: @misaligned: FAIL (simulator: misaligned bulk copy: source 1028, destination offset 4 (both must be multiples of 16 bytes)
// CHECK: @short_size: FAIL (simulator: bulk copy size 8 is not a positive multiple of 16 bytes
// CHECK: @out_of_bounds: FAIL (simulator: bulk copy of elements [16, +4) out of bounds of argument 1 (16 elements) in 'nvvm.cp.async.bulk.global.shared.cta' {{.*}} thread (3, 0, 0))
// CHECK: @to_shared_only: FAIL (simulator: bulk copy destination is not a kernel argument's global address

// What the simulator does not model is rejected when the kernel is
// translated: a cast other than generic -> global, an integer cast
// straight to a global pointer, a copy with a cache hint, and the address
// of a memref that is neither a view of dynamic shared memory nor a kernel
// argument.
// CHECK: @cast_shared_to_global: FAIL (simulator: only llvm.addrspacecast of !llvm.ptr (generic) to !llvm.ptr<1> (global) is supported
// CHECK: @inttoptr_global: FAIL (simulator: only llvm.inttoptr of an i64 address to !llvm.ptr<3> (shared window) or !llvm.ptr (generic) is supported
// CHECK: @cache_hint: FAIL (simulator: nvvm.cp.async.bulk.global.shared.cta with an l2_cache_hint or byte_mask is not supported
// CHECK: @pointer_of_raw: FAIL (simulator: memref.extract_aligned_pointer_as_index is only supported on a memref.view of gpu.dynamic_shared_memory or a kernel argument
module attributes {gpu.container_module} {
  func.func @bulk_ok(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@bulk_ok blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @no_fence(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@no_fence blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @no_barrier(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@no_barrier blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @store_before_wait(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@store_before_wait blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @exit_without_wait(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@exit_without_wait blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @wait_uncommitted(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@wait_uncommitted blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @misaligned(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@misaligned blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @short_size(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@short_size blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @out_of_bounds(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@out_of_bounds blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @to_shared_only(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@to_shared_only blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @cast_shared_to_global(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@cast_shared_to_global blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @inttoptr_global(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@inttoptr_global blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @cache_hint(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@cache_hint blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @pointer_of_raw(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 80 : i32
    gpu.launch_func @k::@pointer_of_raw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  gpu.module @k {
    gpu.func @bulk_ok(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %doff = arith.addi %soff, %c0 : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @no_fence(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %doff = arith.addi %soff, %c0 : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @no_barrier(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %doff = arith.addi %soff, %c0 : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @store_before_wait(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %doff = arith.addi %soff, %c0 : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      %one = arith.constant 1.0 : f32
      memref.store %one, %s[%base] : memref<20xf32, #gpu.address_space<workgroup>>
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @exit_without_wait(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %doff = arith.addi %soff, %c0 : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      gpu.return
    }
    gpu.func @wait_uncommitted(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %doff = arith.addi %soff, %c0 : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @misaligned(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %cs = arith.constant 4 : index
      %soff = arith.addi %off, %cs : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %doff = arith.addi %soff, %c0 : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @short_size(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %doff = arith.addi %soff, %c0 : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 8 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @out_of_bounds(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %dx = arith.constant 16 : index
      %doff = arith.addi %soff, %dx : index
      %ga = arith.addi %op, %doff : index
      %ga64 = arith.index_cast %ga : index to i64
      %gen = llvm.inttoptr %ga64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @to_shared_only(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<20xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %base, %j : index
        %x = memref.load %in[%i] : memref<16xf32>
        %z = arith.subf %x, %x : f32
        memref.store %z, %s[%i] : memref<20xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %sp = memref.extract_aligned_pointer_as_index %s : memref<20xf32, #gpu.address_space<workgroup>> -> index
      %op = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %off = arith.muli %t, %c16 : index
      %soff = arith.addi %off, %c0 : index
      %sa = arith.addi %sp, %soff : index
      %sa64 = arith.index_cast %sa : index to i64
      %src = llvm.inttoptr %sa64 : i64 to !llvm.ptr<3>
      %gen = llvm.inttoptr %sa64 : i64 to !llvm.ptr
      %dst = llvm.addrspacecast %gen : !llvm.ptr to !llvm.ptr<1>
      %size = arith.constant 16 : i32
      nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
      gpu.return
    }
    gpu.func @cast_shared_to_global(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %p = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %a = arith.index_cast %p : index to i64
      %x = llvm.inttoptr %a : i64 to !llvm.ptr<3>
      %y = llvm.addrspacecast %x : !llvm.ptr<3> to !llvm.ptr<1>
      gpu.return
    }
    gpu.func @inttoptr_global(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %p = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %a = arith.index_cast %p : index to i64
      %y = llvm.inttoptr %a : i64 to !llvm.ptr<1>
      gpu.return
    }
    gpu.func @cache_hint(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %p = memref.extract_aligned_pointer_as_index %out : memref<16xf32> -> index
      %a = arith.index_cast %p : index to i64
      %g = llvm.inttoptr %a : i64 to !llvm.ptr
      %y = llvm.addrspacecast %g : !llvm.ptr to !llvm.ptr<1>
      %src = llvm.inttoptr %a : i64 to !llvm.ptr<3>
      %size = arith.constant 16 : i32
      %hint = arith.constant 0 : i64
      nvvm.cp.async.bulk.global.shared.cta %y, %src, %size l2_cache_hint = %hint : !llvm.ptr<1>, !llvm.ptr<3>
      gpu.return
    }
    gpu.func @pointer_of_raw(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %p = memref.extract_aligned_pointer_as_index %raw : memref<?xi8, #gpu.address_space<workgroup>> -> index
      gpu.return
    }
  }
}
