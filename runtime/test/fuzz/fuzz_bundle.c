/*===- fuzz_bundle.c - libFuzzer target over the bundle parser ----*- C -*-===//
 *
 * Feeds arbitrary bytes to fusecc_bundle_parse. A rejected input must be a
 * PARSE_ERROR with a "line N: " message; an accepted bundle is walked
 * through every query (entries, args, workspaces and roles, steps, launches
 * and decoded params, graph lines, constants and their bytes), its
 * invariants are checked, and fusecc_bundle_validate_args is run on buffers
 * placed from the input's last bytes (often near the top of the address
 * space) and compared against an overlap computed in 128-bit arithmetic.
 * Any violation aborts, which libFuzzer reports as a crash.
 *
 * Built by .ci/fuzz-runtime.sh with clang -fsanitize=fuzzer,address,undefined.
 *
 *===----------------------------------------------------------------------===*/

#include "fusecc/runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Aborts with `what` when `condition` is false.
static void require(int condition, const char *what) {
  if (!condition) {
    fprintf(stderr, "fuzz_bundle: invariant violated: %s\n", what);
    abort();
  }
}

/// Frees `status`, requiring that it was OK.
static void require_ok(fusecc_status_t status, const char *what) {
  if (status)
    fprintf(stderr, "fuzz_bundle: %s: %s\n", what,
            fusecc_status_message(status));
  require(status == NULL, what);
}

/// A small xorshift generator seeded from the input.
static uint64_t next_random(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/// Validates entry `e` against buffers placed by `state` and checks the
/// verdict against a wrap-free reference.
static void check_validate_args(fusecc_bundle_t bundle, size_t e,
                                const fusecc_entry_info_t *entry,
                                uint64_t *state) {
  enum { kMaxArgs = 16 };
  if (entry->arg_count == 0 || entry->arg_count > kMaxArgs)
    return;
  fusecc_buffer_t args[kMaxArgs];
  int is_output[kMaxArgs];
  // A dynamic entry (format 4) is checked at a batch in [1, max_batch]:
  // its batched arguments pass that many samples' bytes.
  size_t max_batch = 0;
  require_ok(fusecc_bundle_entry_max_batch(bundle, e, &max_batch),
             "entry_max_batch");
  size_t batch = max_batch ? 1 + next_random(state) % max_batch : 0;
  int expect_ok = 1;
  for (size_t a = 0; a < entry->arg_count; ++a) {
    fusecc_arg_info_t arg;
    require_ok(fusecc_bundle_arg_info(bundle, e, a, &arg), "arg_info");
    int batched = 0;
    require_ok(fusecc_bundle_arg_batched(bundle, e, a, &batched),
               "arg_batched");
    require(!batched || max_batch, "batched arguments only in dynamic entries");
    is_output[a] = arg.is_output;
    uint64_t r = next_random(state);
    // Mostly near the top of the address space or near 0, 16-aligned.
    uint64_t base = (r & 1) ? ~(uint64_t)0 - (r >> 40) : (r >> 44);
    args[a].ptr = (CUdeviceptr)((base & ~(uint64_t)15) | 16);
    unsigned __int128 bytes =
        (unsigned __int128)arg.byte_size * (batched ? batch : 1);
    if (bytes > SIZE_MAX)
      return; // not a size a caller can pass
    args[a].size_bytes = (size_t)bytes;
  }
  if (max_batch) {
    fusecc_status_t unbatched =
        fusecc_bundle_validate_args(bundle, e, args, entry->arg_count);
    require(unbatched != NULL, "a dynamic entry needs its batch");
    fusecc_status_free(unbatched);
  }
  for (size_t i = 0; i < entry->arg_count; ++i) {
    unsigned __int128 a0 = args[i].ptr, a1 = a0 + args[i].size_bytes;
    if (a1 > ((unsigned __int128)1 << 64))
      expect_ok = 0;
  }
  for (size_t i = 0; expect_ok && i < entry->arg_count; ++i) {
    if (!is_output[i])
      continue;
    for (size_t j = 0; j < entry->arg_count; ++j) {
      if (j == i)
        continue;
      unsigned __int128 a0 = args[i].ptr, a1 = a0 + args[i].size_bytes;
      unsigned __int128 b0 = args[j].ptr, b1 = b0 + args[j].size_bytes;
      if (a0 < b1 && b0 < a1)
        expect_ok = 0;
    }
  }
  fusecc_status_t status = fusecc_bundle_validate_args_batch(
      bundle, e, batch, args, entry->arg_count);
  require((status == NULL) == expect_ok,
          "validate_args agrees with the 128-bit reference");
  require(!status ||
              fusecc_status_code(status) == FUSECC_STATUS_INVALID_ARGUMENT,
          "validate_args fails with INVALID_ARGUMENT");
  fusecc_status_free(status);
}

/// Walks everything an accepted bundle reports.
static void walk(fusecc_bundle_t bundle, uint64_t seed) {
  uint32_t version = 0;
  require_ok(fusecc_bundle_format_version(bundle, &version), "version");
  require(version >= 1 && version <= 4, "version 1..4");
  size_t ptx_size = 0;
  const char *ptx = fusecc_bundle_ptx(bundle, &ptx_size);
  require(ptx && strlen(ptx) == ptx_size && ptx_size > 0, "PTX NUL-free");
  size_t consts = 0;
  require_ok(fusecc_bundle_const_count(bundle, &consts), "const_count");
  require(version >= 3 || consts == 0, "constants from version 3 on");
  unsigned checksum = 0;
  for (size_t k = 0; k < consts; ++k) {
    fusecc_const_info_t info;
    const void *data = NULL;
    require_ok(fusecc_bundle_const_info(bundle, k, &info), "const_info");
    require_ok(fusecc_bundle_const_data(bundle, k, &data), "const_data");
    require(info.name && info.name[0], "const name");
    require(info.rank <= FUSECC_MAX_RANK, "const rank");
    require(info.data_offset % 16 == 0, "const offset aligned");
    require(info.byte_size ==
                info.element_count * fusecc_dtype_size(info.dtype),
            "const byte size");
    // Touch every byte: ASan catches a range outside the data section.
    for (size_t b = 0; b < info.byte_size; ++b)
      checksum += ((const unsigned char *)data)[b];
  }
  (void)checksum;
  uint64_t state = seed | 1;
  for (size_t e = 0; e < fusecc_bundle_entry_count(bundle); ++e) {
    fusecc_entry_info_t entry;
    require_ok(fusecc_bundle_entry_info(bundle, e, &entry), "entry_info");
    size_t found = SIZE_MAX;
    require_ok(fusecc_bundle_find_entry(bundle, entry.name, &found),
               "find_entry");
    require(found == e, "entry names unique");
    size_t max_batch = 0;
    require_ok(fusecc_bundle_entry_max_batch(bundle, e, &max_batch),
               "entry_max_batch");
    require(max_batch <= 65535 && (version == 4 || max_batch == 0),
            "a launch-time batch (1..65535) only in version 4");
    for (size_t a = 0; a < entry.arg_count; ++a) {
      fusecc_arg_info_t arg;
      require_ok(fusecc_bundle_arg_info(bundle, e, a, &arg), "arg_info");
      require(arg.byte_size == arg.element_count * fusecc_dtype_size(arg.dtype),
              "arg byte size");
      require((a < entry.input_count) == !arg.is_output, "inputs first");
    }
    for (size_t k = 0; k < entry.workspace_count; ++k) {
      fusecc_workspace_info_t workspace;
      fusecc_workspace_role_t role;
      require_ok(fusecc_bundle_workspace_info(bundle, e, k, &workspace),
                 "workspace_info");
      require_ok(fusecc_bundle_workspace_role(bundle, e, k, &role),
                 "workspace_role");
      require(workspace.element_count > 0 &&
                  workspace.byte_size == workspace.element_count *
                                             fusecc_dtype_size(workspace.dtype),
              "workspace byte size");
      require((version >= 3) == (role != FUSECC_WORKSPACE_ROLE_UNSPECIFIED),
              "roles exactly from version 3 on");
    }
    size_t steps = 0, launches_seen = 0;
    require_ok(fusecc_bundle_step_count(bundle, e, &steps), "step_count");
    for (size_t i = 0; i < steps; ++i) {
      fusecc_step_info_t step;
      require_ok(fusecc_bundle_step_info(bundle, e, i, &step), "step_info");
      if (step.kind == FUSECC_STEP_ZERO) {
        require(version >= 3, "zero steps from version 3 on");
        require(step.workspace_index < entry.workspace_count, "zero index");
        continue;
      }
      require(step.launch_index == launches_seen++, "launches in step order");
      fusecc_launch_info_t launch;
      require_ok(
          fusecc_bundle_launch_info(bundle, e, step.launch_index, &launch),
          "launch_info");
      require(launch.block[0] * launch.block[1] * launch.block[2] <= 1024,
              "block size");
      require(launch.smem_bytes <= 2147483647u, "smem limit");
      for (size_t j = 0; j < launch.param_count; ++j) {
        fusecc_param_info_t param;
        require_ok(
            fusecc_bundle_launch_param(bundle, e, step.launch_index, j, &param),
            "launch_param");
        size_t limit = param.kind == FUSECC_PARAM_ARG ? entry.arg_count
                       : param.kind == FUSECC_PARAM_WORKSPACE
                           ? entry.workspace_count
                           : consts;
        require(param.index < limit, "param index in range");
      }
    }
    require(launches_seen == entry.launch_count, "launch count");
    for (size_t g = 0; g < entry.graph_line_count; ++g) {
      const char *text = NULL;
      require_ok(fusecc_bundle_graph_line(bundle, e, g, &text), "graph_line");
      require(text && text[0], "graph text");
    }
    check_validate_args(bundle, e, &entry, &state);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fusecc_bundle_t bundle = NULL;
  fusecc_status_t status = fusecc_bundle_parse(data, size, &bundle);
  if (status) {
    require(bundle == NULL, "no bundle on error");
    require(fusecc_status_code(status) == FUSECC_STATUS_PARSE_ERROR,
            "errors are PARSE_ERROR");
    require(strncmp(fusecc_status_message(status), "line ", 5) == 0,
            "errors name the line");
    fusecc_status_free(status);
    return 0;
  }
  require(bundle != NULL, "a bundle on success");
  uint64_t seed = 0;
  for (size_t i = 0; i < size && i < 8; ++i)
    seed = seed << 8 | data[size - 1 - i];
  walk(bundle, seed);
  fusecc_bundle_release(bundle);
  return 0;
}
