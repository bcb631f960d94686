/*===- fuzz_runtime.c - libFuzzer target over load and launch -----*- C -*-===//
 *
 * The runtime calls a binding makes, on arbitrary bundles, against the fake
 * driver (fake_cuda.c, FUSECC_CUDA_DRIVER_LIBRARY): an accepted bundle is
 * loaded (fusecc_module_load, with or without a current context), then up
 * to six calls of the launch family (launch, by name, pointers, batch,
 * pointers at a batch, shaped) are made on three streams (one of them
 * capturing), the graph launch path on or off, prepared workspaces reused
 * or not (invalidated before some calls), with arguments that fit the
 * entry or are broken in one way (a null, misaligned, short, overlapping or
 * missing buffer, a wrong batch or entry), and at most one driver call made
 * to fail (by name, or the Nth stream allocation, launch or free). The
 * choices come from a generator seeded by the input's last bytes (they lie
 * in the PTX text, which the parser does not read).
 *
 * Invariants (any violation aborts, which libFuzzer reports as a crash):
 * - without an injected failure, every call's verdict is the one
 *   fusecc_bundle_validate_args_batch (or fusecc_bundle_batch_of_shapes)
 *   gives for the same arguments, with the same status code; with one,
 *   arguments validation refuses are still refused;
 * - an accepted call enqueued every launch of the entry (direct path) and
 *   counts once in fusecc_module_launch_stats; at most 16 graph slots
 *   live, each with at most two executable graphs (with and without the
 *   prepare steps);
 * - a call returns with no stream-ordered allocation outstanding, and a
 *   load that fails or a release leaves no constant or graph workspace,
 *   graph, executable graph, pool or pushed context behind;
 * - every status has a known code and a non-empty message.
 *
 * Built by .ci/fuzz-runtime.sh with clang -fsanitize=fuzzer,address,undefined
 * (the fake driver as a shared library built with ASan next to it).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L

#include "fusecc/runtime.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Aborts with `what` when `condition` is false.
static void require(int condition, const char *what) {
  if (!condition) {
    fprintf(stderr, "fuzz_runtime: invariant violated: %s\n", what);
    abort();
  }
}

/// The fake driver's control functions (fake_cuda.c).
static struct {
  void (*reset)(int alloc_failure, int launch_failure, int free_failure);
  void (*forget)(void);
  void (*fail_call)(const char *call, int nth, int result);
  const char *(*log)(void);
  int (*live_allocations)(void);
  int (*live_const_allocations)(void);
  void (*set_no_current_context)(int none);
  void (*set_capturing)(CUstream stream, int on);
  void (*fail_pool_create)(int fail);
  void (*pool_state)(int *created, int *destroyed,
                     unsigned long long *threshold);
  void (*live_graphs)(int *graphs, int *execs);
  void (*context_calls)(int *pushes, int *pops);
  void (*trust_param_names)(int on);
} fake;

/// Driver calls the fake can fail by name (fake_cuda_fail_call).
static const char *const kInjectable[] = {
    "cuDeviceGet",
    "cuDevicePrimaryCtxRetain",
    "cuCtxGetCurrent",
    "cuCtxSetCurrent",
    "cuCtxPushCurrent",
    "cuModuleLoadDataEx",
    "cuModuleGetFunction",
    "cuFuncSetAttribute",
    "cuCtxGetDevice",
    "cuMemAlloc",
    "cuMemcpyHtoD",
    "cuMemFree",
    "cuMemsetD8Async",
    "cuStreamIsCapturing",
    "cuGraphCreate",
    "cuGraphAddKernelNode",
    "cuGraphAddMemsetNode",
    "cuGraphInstantiate",
    "cuGraphExecKernelNodeSetParams",
    "cuGraphLaunch",
};
enum { kInjectableCount = sizeof(kInjectable) / sizeof(kInjectable[0]) };

/// Resolves the fake's control functions; FUSECC_FAKE_DRIVER names it
/// (.ci/fuzz-runtime.sh sets it) and the runtime loads the same library.
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  const char *path = getenv("FUSECC_FAKE_DRIVER");
  require(path && *path, "FUSECC_FAKE_DRIVER names fake_cuda's library");
  setenv("FUSECC_CUDA_DRIVER_LIBRARY", path, 1);
  setenv("FUSECC_LAUNCH_GRAPHS", "1", 1);
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    fprintf(stderr, "fuzz_runtime: %s\n", dlerror());
  require(handle != NULL, "the fake driver loads");
#define RESOLVE(field, name)                                                   \
  do {                                                                         \
    *(void **)&fake.field = dlsym(handle, name);                               \
    require(fake.field != NULL, name);                                         \
  } while (0)
  RESOLVE(reset, "fake_cuda_reset");
  RESOLVE(forget, "fake_cuda_forget");
  RESOLVE(fail_call, "fake_cuda_fail_call");
  RESOLVE(log, "fake_cuda_log");
  RESOLVE(live_allocations, "fake_cuda_live_allocations");
  RESOLVE(live_const_allocations, "fake_cuda_live_const_allocations");
  RESOLVE(set_no_current_context, "fake_cuda_set_no_current_context");
  RESOLVE(set_capturing, "fake_cuda_set_capturing");
  RESOLVE(fail_pool_create, "fake_cuda_fail_pool_create");
  RESOLVE(pool_state, "fake_cuda_pool_state");
  RESOLVE(live_graphs, "fake_cuda_live_graphs");
  RESOLVE(context_calls, "fake_cuda_context_calls");
  RESOLVE(trust_param_names, "fake_cuda_trust_param_names");
#undef RESOLVE
  // Kernel names come from the input: the fake must not read "_p<N>"
  // pointers from a launch that passes fewer.
  fake.trust_param_names(0);
  return 0;
}

/// A small xorshift generator seeded from the input.
static uint64_t next_random(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/// Requires a well-formed status; returns its code (OK for NULL).
static fusecc_status_code_t code_of(fusecc_status_t status) {
  fusecc_status_code_t code = fusecc_status_code(status);
  require(code >= FUSECC_STATUS_OK && code <= FUSECC_STATUS_RESOURCE_EXHAUSTED,
          "a known status code");
  require(!status || (fusecc_status_message(status) &&
                      fusecc_status_message(status)[0]),
          "a status has a message");
  return code;
}

/// Lines of `log` starting with `prefix`.
static size_t count_lines(const char *log, const char *prefix) {
  size_t n = 0, length = strlen(prefix);
  for (const char *line = log; *line;) {
    if (strncmp(line, prefix, length) == 0)
      ++n;
    const char *end = strchr(line, '\n');
    if (!end)
      break;
    line = end + 1;
  }
  return n;
}

enum { kMaxArgs = 16 };

/// The ways a call's arguments may be broken (kFit: none).
enum Breakage {
  kFit,
  kNull,
  kMisaligned,
  kShort,
  kOverlap,
  kMissing,
  kBreakageCount
};

/// One launch-family call of entry `e` (possibly past the end) with
/// arguments placed by `state`; `injected` is whether a driver call may fail.
static void call_once(fusecc_module_t module, fusecc_bundle_t bundle, size_t e,
                      uint64_t *state, int injected) {
  size_t entries = fusecc_bundle_entry_count(bundle);
  fusecc_entry_info_t entry = {0};
  size_t max_batch = 0;
  if (e < entries) {
    require(fusecc_bundle_entry_info(bundle, e, &entry) == NULL, "entry_info");
    require(fusecc_bundle_entry_max_batch(bundle, e, &max_batch) == NULL,
            "max_batch");
  }
  if (entry.arg_count > kMaxArgs)
    return;
  uint64_t r = next_random(state);
  size_t batch = 0;
  if (max_batch)
    batch = (r & 7) == 0 ? max_batch + 1 : 1 + (r >> 8) % max_batch;
  else if ((r & 15) == 0)
    batch = 1 + (r >> 8) % 4; // a batch for a static entry
  // Buffers 1 MiB apart from 0x1000000 (each argument's bytes fit when
  // they are below 1 MiB; larger ones may overlap, which validation sees).
  fusecc_buffer_t args[kMaxArgs];
  uint64_t pointers[kMaxArgs];
  int64_t dims[kMaxArgs][FUSECC_MAX_RANK];
  const int64_t *shapes[kMaxArgs];
  size_t ranks[kMaxArgs];
  size_t count = entry.arg_count;
  for (size_t a = 0; a < count; ++a) {
    fusecc_arg_info_t arg;
    int batched = 0;
    require(fusecc_bundle_arg_info(bundle, e, a, &arg) == NULL, "arg_info");
    require(fusecc_bundle_arg_batched(bundle, e, a, &batched) == NULL,
            "arg_batched");
    unsigned __int128 bytes =
        (unsigned __int128)arg.byte_size * (batched && batch ? batch : 1);
    args[a].ptr = 0x1000000 + (CUdeviceptr)a * 0x100000;
    args[a].size_bytes = bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes;
    pointers[a] = args[a].ptr;
    ranks[a] = arg.rank;
    memcpy(dims[a], arg.dims, sizeof(dims[a]));
    if (batched && batch)
      dims[a][0] = (int64_t)batch;
    shapes[a] = dims[a];
  }
  enum Breakage breakage =
      (r >> 24) % 3 == 0 ? (enum Breakage)((r >> 28) % kBreakageCount) : kFit;
  size_t victim = count ? (r >> 36) % count : 0;
  if (count)
    switch (breakage) {
    case kFit:
      break;
    case kNull:
      args[victim].ptr = pointers[victim] = 0;
      break;
    case kMisaligned:
      args[victim].ptr = pointers[victim] = args[victim].ptr + 4;
      break;
    case kShort:
      if (args[victim].size_bytes)
        --args[victim].size_bytes;
      if (ranks[victim])
        dims[victim][ranks[victim] - 1] += 1;
      break;
    case kOverlap:
      args[victim].ptr = pointers[victim] = args[(victim + 1) % count].ptr;
      break;
    case kMissing:
      --count;
      break;
    case kBreakageCount:
      break;
    }

  // The reference verdict and the call.
  unsigned kind = (unsigned)(r >> 44) % 6;
  CUstream stream = (CUstream)(uintptr_t)(1 + (r >> 50) % 3);
  fusecc_status_t expected = NULL, status = NULL;
  size_t shaped_batch = 0;
  switch (kind) {
  case 0: // launch: batch 0
  case 1: // by name
  case 3: // pointers: batch 0, sizes from the manifest
    batch = 0;
    break;
  case 5: // shaped: the batch the shapes give
    expected = fusecc_bundle_batch_of_shapes(bundle, e, ranks, shapes, count,
                                             &shaped_batch);
    batch = shaped_batch;
    break;
  default:
    break;
  }
  if (!expected) {
    if (kind == 3 || kind == 4) {
      // The manifest's sizes: only the pointers can be wrong.
      fusecc_buffer_t exact[kMaxArgs];
      for (size_t a = 0; a < count; ++a) {
        fusecc_arg_info_t arg;
        int batched = 0;
        fusecc_bundle_arg_info(bundle, e, a, &arg);
        fusecc_bundle_arg_batched(bundle, e, a, &batched);
        unsigned __int128 bytes =
            (unsigned __int128)arg.byte_size * (batched && batch ? batch : 1);
        exact[a].ptr = pointers[a];
        exact[a].size_bytes = bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes;
      }
      expected =
          fusecc_bundle_validate_args_batch(bundle, e, batch, exact, count);
    } else {
      expected =
          fusecc_bundle_validate_args_batch(bundle, e, batch, args, count);
    }
  }
  fusecc_launch_stats_t before, after;
  require(fusecc_module_launch_stats(module, &before) == NULL, "stats");
  size_t launches_before = count_lines(fake.log(), "launch ");
  switch (kind) {
  case 0:
    status = fusecc_module_launch(module, e, args, count, stream);
    break;
  case 1:
    status = fusecc_module_launch_by_name(
        module, e < entries ? entry.name : "no such entry", args, count,
        stream);
    if (e >= entries) {
      require(fusecc_status_code(status) == FUSECC_STATUS_NOT_FOUND,
              "an unknown name is NOT_FOUND");
      fusecc_status_free(expected);
      expected = NULL;
      fusecc_status_free(status);
      return;
    }
    break;
  case 2:
    status = fusecc_module_launch_batch(module, e, batch, args, count, stream);
    break;
  case 3:
    status = fusecc_module_launch_pointers(module, e, pointers, count, stream);
    break;
  case 4:
    if ((r >> 60) & 1) {
      // The same call as one packed record (fusecc_module_launch_packed).
      uint64_t record[FUSECC_PACKED_POINTERS + kMaxArgs];
      record[FUSECC_PACKED_MODULE] = (uint64_t)(uintptr_t)module;
      record[FUSECC_PACKED_ENTRY] = e;
      record[FUSECC_PACKED_BATCH] = batch;
      record[FUSECC_PACKED_STREAM] = (uint64_t)(uintptr_t)stream;
      record[FUSECC_PACKED_COUNT] = count;
      memcpy(record + FUSECC_PACKED_POINTERS, pointers,
             count * sizeof(pointers[0]));
      status = fusecc_module_launch_packed(record);
      break;
    }
    status = fusecc_module_launch_pointers_batch(module, e, batch, pointers,
                                                 count, stream);
    break;
  default:
    status = fusecc_module_launch_shaped(module, e, args, ranks, shapes, count,
                                         stream);
    break;
  }
  fusecc_status_code_t code = code_of(status), want = code_of(expected);
  // A call without a batch (kinds 0, 1, 3) on an entry with a launch-time
  // batch is refused before its arguments are looked at, naming the calls
  // that take one (module.c batch_required).
  if ((kind == 0 || kind == 1 || kind == 3) && e < entries && max_batch) {
    want = FUSECC_STATUS_INVALID_ARGUMENT;
    require(!status || strstr(fusecc_status_message(status),
                               "has a launch-time batch"),
            "a batch-less call on a dynamic entry names the batch calls");
  }
  if (!injected) {
    if (code != want)
      fprintf(stderr, "fuzz_runtime: call kind %u: got '%s', expected '%s'\n",
              kind, status ? fusecc_status_message(status) : "OK",
              expected ? fusecc_status_message(expected) : "OK");
    require(code == want, "a call's verdict is validation's");
  } else {
    require(!expected || status, "broken arguments are never launched");
  }
  require(fusecc_module_launch_stats(module, &after) == NULL, "stats");
  require(after.live_graphs <= 2 * 16,
          "at most 16 graph slots of two graphs per module");
  if (!status) {
    uint64_t calls = (after.direct_calls - before.direct_calls) +
                     (after.graph_calls - before.graph_calls);
    require(calls == 1, "an accepted call counts once");
    // (The fake's log drops what does not fit in its 64 KiB.)
    if (after.direct_calls != before.direct_calls && !injected &&
        strlen(fake.log()) < 60000)
      require(count_lines(fake.log(), "launch ") - launches_before ==
                  entry.launch_count,
              "a direct call enqueues every launch of the entry");
  }
  fusecc_status_free(status);
  fusecc_status_free(expected);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fusecc_bundle_t bundle = NULL;
  fusecc_status_t status = fusecc_bundle_parse(data, size, &bundle);
  if (status) {
    fusecc_status_free(status);
    return 0;
  }
  uint64_t state = 0;
  for (size_t i = 0; i < size && i < 8; ++i)
    state = state << 8 | data[size - 1 - i];
  state |= 1;
  uint64_t r = next_random(&state);

  // The fake starts afresh; at most one driver failure is injected.
  fake.forget();
  fake.reset(-1, -1, -1);
  int injected = 0, free_may_fail = 0;
  unsigned injection = (unsigned)(r % 8);
  int nth = (int)((r >> 8) % 4);
  switch (injection) {
  case 0:
  case 1:
    fake.fail_call(kInjectable[(r >> 16) % kInjectableCount], nth,
                   CUDA_ERROR_INVALID_VALUE);
    injected = 1;
    free_may_fail = 1; // a failing cuMemFree leaves its constant behind
    break;
  case 2:
    fake.reset(nth, -1, -1); // the Nth stream-ordered allocation
    injected = 1;
    break;
  case 3:
    fake.reset(-1, nth, -1); // the Nth launch
    injected = 1;
    break;
  default:
    break;
  }
  int no_context = (r >> 24) & 1, graphs_on = (r >> 25) & 1;
  int reuse_on = (r >> 31) & 1;
  fake.set_no_current_context(no_context);
  fake.fail_pool_create((r >> 26) % 8 == 0);
  fake.set_capturing((CUstream)(uintptr_t)3, (r >> 29) % 4 == 0);
  int pools_created0, pools_destroyed0, pushes0, pops0;
  unsigned long long threshold;
  fake.pool_state(&pools_created0, &pools_destroyed0, &threshold);
  fake.context_calls(&pushes0, &pops0);
  int consts0 = fake.live_const_allocations();

  fusecc_module_t module = NULL;
  status = fusecc_module_load(bundle, &module);
  if (status) {
    code_of(status);
    require(module == NULL, "no module on error");
    // Without an injected failure only the fake's own limits (kernel names
    // of 64 characters or more, 256 kernels) make cuModuleGetFunction fail.
    require(injected ||
                (fusecc_status_code(status) == FUSECC_STATUS_CUDA_ERROR &&
                 strstr(fusecc_status_message(status), "cuModuleGetFunction")),
            "a load fails only when a driver call does");
    fusecc_status_free(status);
  } else {
    require(module && fusecc_module_bundle(module) == bundle, "module bundle");
    status = fusecc_module_set_launch_graphs(module, graphs_on);
    require(status == NULL, "the fake has the graph entry points");
    require(fusecc_module_set_reuse_prepared(module, reuse_on) == NULL,
            "reuse of prepared workspaces");
    size_t consts = 0;
    fusecc_bundle_const_count(bundle, &consts);
    CUdeviceptr pointer = 0;
    for (size_t k = 0; k < consts; ++k) {
      require(fusecc_module_const_pointer(module, k, &pointer) == NULL &&
                  pointer != 0,
              "a loaded constant has an address");
    }
    status = fusecc_module_const_pointer(module, consts, &pointer);
    require(fusecc_status_code(status) == FUSECC_STATUS_OUT_OF_RANGE,
            "a constant past the end is OUT_OF_RANGE");
    fusecc_status_free(status);
    size_t entries = fusecc_bundle_entry_count(bundle);
    unsigned calls = 1 + (unsigned)((r >> 32) % 6);
    for (unsigned c = 0; c < calls; ++c) {
      uint64_t pick = next_random(&state);
      size_t e = (pick & 15) == 0 ? entries : pick % (entries ? entries : 1);
      if ((pick >> 8) % 4 == 0)
        require(fusecc_module_invalidate_prepared(module) == NULL,
                "invalidate prepared workspaces");
      call_once(module, bundle, e, &state, injected);
      if (!injected || injection == 2 || injection == 3)
        require(fake.live_allocations() == 0,
                "no stream-ordered allocation outstanding after a call");
    }
    fusecc_module_release(module);
  }
  int graphs_live, execs_live, pools_created, pools_destroyed, pushes, pops;
  fake.live_graphs(&graphs_live, &execs_live);
  require(graphs_live == 0 && execs_live == 0, "no graph outlives its module");
  fake.pool_state(&pools_created, &pools_destroyed, &threshold);
  require(pools_created - pools_created0 == pools_destroyed - pools_destroyed0,
          "every pool destroyed");
  fake.context_calls(&pushes, &pops);
  require(pushes - pushes0 == pops - pops0, "every context push popped");
  if (!free_may_fail)
    require(fake.live_const_allocations() == consts0,
            "no constant or graph workspace outlives its module");
  fusecc_bundle_release(bundle);
  return 0;
}
