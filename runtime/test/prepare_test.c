/*===- prepare_test.c - Prepare steps and their reuse ----------*- C -*-===//
 *
 * Runs the prepare steps of an entry (`prepare <P>`, `prepared` workspaces:
 * weight re-layouts) against fake_cuda.c, so it needs no GPU: the graph of
 * an (entry, stream) holds them first and is replayed whole at every call by
 * default (one graph launch); with fusecc_module_set_reuse_prepared, a
 * second graph of the slot without them is replayed instead, except at the
 * slot's first call, when a pointer they read changes and after
 * fusecc_module_invalidate_prepared; the direct path (a capturing stream)
 * runs them at every call. Also the manifest's rules for them and the
 * queries. Prints "N passed, M failed" last and exits non-zero on any
 * failure.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L

#include "fusecc/runtime.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/// The fake driver's control functions (fake_cuda.c).
static void (*fake_reset)(int alloc_failure, int launch_failure,
                          int free_failure);
static const char *(*fake_log)(void);
static void (*fake_fail_call)(const char *call, int nth, int result);
static void (*fake_set_capturing)(CUstream stream, int on);

/// The fake driver's log against `expected`, exactly (check.h).
#define CHECK_LOG(expected)                                                    \
  check_log_text(fake_log(), (expected), __FILE__, __LINE__)

/// Kernel names end in _p<N>: the fake logs N pointer params per node.
/// `conv`: a weight re-layout of w (arg 1) into w0, then the convolution
/// reading x, w0 and writing y.
static const char manifest[] =
    "fusecc-bundle 3\n"
    "chip sm_90a\n"
    "precision tf32\n"
    "entry conv args 3 workspaces 1 steps 2 prepare 1\n"
    "arg 0 in x f32 1 8\n"
    "arg 1 in w f32 1 8\n"
    "arg 2 out y f32 1 8\n"
    "workspace 0 f32 16 prepared\n"
    "launch k0_wpack_p2 grid 1 1 1 block 32 1 1 smem 0 params 2 1 w0\n"
    "launch k0_p3 grid 2 1 1 block 32 1 1 smem 0 params 3 0 w0 2\n"
    "end\n"
    "ptx 13\n"
    ".version 8.0\n";

static fusecc_module_t load(const char *text) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(text, strlen(text), &bundle));
  fusecc_module_t module = NULL;
  if (bundle)
    CHECK_OK(fusecc_module_load(bundle, &module));
  fusecc_bundle_release(bundle);
  return module;
}

static fusecc_launch_stats_t stats_of(fusecc_module_t module) {
  fusecc_launch_stats_t stats;
  memset(&stats, 0xff, sizeof(stats));
  CHECK_OK(fusecc_module_launch_stats(module, &stats));
  return stats;
}

/// The graph holds the re-layout, then the convolution, and is replayed
/// whole at every call while reuse is off (the default): one graph launch.
static void test_every_call(void) {
  fake_reset(-1, -1, -1);
  fusecc_module_t module = load(manifest);
  if (!module)
    return;
  CUstream stream = (CUstream)(uintptr_t)7;
  fusecc_buffer_t args[3] = {{0x1000, 32}, {0x2000, 32}, {0x3000, 32}};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG("memalloc 64 -> 0x20000000\n"
            "graph g1\n"
            "node g1 k0_wpack_p2 0x2000 0x20000000 after 0\n"
            "node g1 k0_p3 0x1000 0x20000000 0x3000 after 1\n"
            "instantiate g1 -> e1\n"
            "graphlaunch e1 s7\n"
            "  k0_wpack_p2 0x2000 0x20000000\n"
            "  k0_p3 0x1000 0x20000000 0x3000\n");
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG("graphlaunch e1 s7\n"
            "  k0_wpack_p2 0x2000 0x20000000\n"
            "  k0_p3 0x1000 0x20000000 0x3000\n");
  fusecc_launch_stats_t stats = stats_of(module);
  CHECK(stats.graph_calls == 2 && stats.prepare_runs == 2 &&
        stats.prepare_reuses == 0 && stats.live_graphs == 1);
  fusecc_module_release(module);
}

/// With reuse on: prepared once, reused while the weight pointer and the
/// invalidation count are the same; re-prepared after either changes.
static void test_reuse(void) {
  fake_reset(-1, -1, -1);
  fusecc_module_t module = load(manifest);
  if (!module)
    return;
  CHECK_OK(fusecc_module_set_reuse_prepared(module, 1));
  CUstream stream = (CUstream)(uintptr_t)7;
  fusecc_buffer_t args[3] = {{0x1000, 32}, {0x2000, 32}, {0x3000, 32}};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  // The fake numbers executable graphs across modules: this one's name
  // (the whole entry, the re-layout first).
  const char *made = strstr(fake_log(), "instantiate g");
  CHECK(made != NULL);
  unsigned whole = 0, graph = 0;
  if (made && sscanf(made, "instantiate g%u -> e%u", &graph, &whole) != 2)
    whole = 0;
  char expected[384];
#define EXPECT(fmt, ...)                                                       \
  (snprintf(expected, sizeof(expected), fmt, __VA_ARGS__), expected)
  CHECK(strstr(fake_log(), EXPECT("graphlaunch e%u s7\n"
                                  "  k0_wpack_p2 0x2000 0x20000000\n"
                                  "  k0_p3 0x1000 0x20000000 0x3000\n",
                                  whole)) != NULL);

  // Same weights: the graph without the re-layout, built at its first use
  // on the same workspace, then replayed alone.
  unsigned reuse = whole + 1;
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG(EXPECT("graph g%u\n"
                   "node g%u k0_p3 0x1000 0x20000000 0x3000 after 0\n"
                   "instantiate g%u -> e%u\n"
                   "graphlaunch e%u s7\n"
                   "  k0_p3 0x1000 0x20000000 0x3000\n",
                   graph + 1, graph + 1, graph + 1, reuse, reuse));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG(EXPECT("graphlaunch e%u s7\n"
                   "  k0_p3 0x1000 0x20000000 0x3000\n",
                   reuse));
  // The slot holds both executable graphs.
  CHECK(stats_of(module).live_graphs == 2);

  // A new input x (read by no prepare step): re-pointed, not re-prepared.
  args[0].ptr = 0x4000;
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG(EXPECT("setparams e%u k0_p3 0x4000 0x20000000 0x3000\n"
                   "graphlaunch e%u s7\n"
                   "  k0_p3 0x4000 0x20000000 0x3000\n",
                   reuse, reuse));

  // A new weight tensor: prepared again from it, in the same graph launch
  // as the convolution (the whole graph is re-pointed only now).
  args[1].ptr = 0x5000;
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG(EXPECT("setparams e%u k0_wpack_p2 0x5000 0x20000000\n"
                   "setparams e%u k0_p3 0x4000 0x20000000 0x3000\n"
                   "graphlaunch e%u s7\n"
                   "  k0_wpack_p2 0x5000 0x20000000\n"
                   "  k0_p3 0x4000 0x20000000 0x3000\n",
                   whole, whole, whole));

  // The weight written in place: the caller invalidates; one re-prepare.
  CHECK_OK(fusecc_module_invalidate_prepared(module));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG(EXPECT("graphlaunch e%u s7\n"
                   "  k0_wpack_p2 0x5000 0x20000000\n"
                   "  k0_p3 0x4000 0x20000000 0x3000\n",
                   whole));
  // The graph without the re-layout reads no weight: nothing to re-point.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG(EXPECT("graphlaunch e%u s7\n"
                   "  k0_p3 0x4000 0x20000000 0x3000\n",
                   reuse));

  // Another stream: its own graph and workspace, prepared on it.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, (CUstream)(uintptr_t)9));
  CHECK(strstr(fake_log(), "s9\n  k0_wpack_p2 0x5000 0x20000000\n"
                           "  k0_p3 0x4000 0x20000000 0x3000\n") != NULL);

  // A capturing stream: every step directly, the re-layout included, into
  // a workspace of the call.
  fake_set_capturing(stream, 1);
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(strstr(fake_log(), "launch k0_wpack_p2 s7 0x5000 0x10000000\n"
                           "launch k0_p3 s7 0x4000 0x10000000 0x3000\n"));
  fake_set_capturing(NULL, 0);

  // Reuse off again: prepared at every call.
  CHECK_OK(fusecc_module_set_reuse_prepared(module, 0));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(strstr(fake_log(), "  k0_wpack_p2 0x5000") != NULL);

  fusecc_launch_stats_t stats = stats_of(module);
  CHECK(stats.prepare_runs == 5 && stats.prepare_reuses == 4 &&
        stats.direct_calls == 1 && stats.graph_calls == 9);

  // A failing prepare launch is reported, and the next call prepares.
  CHECK_OK(fusecc_module_set_reuse_prepared(module, 1));
  CHECK_OK(fusecc_module_invalidate_prepared(module));
  fake_reset(-1, -1, -1);
  fake_fail_call("cuGraphLaunch", 0, CUDA_ERROR_LAUNCH_FAILED);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'conv' (with its prepare steps): ");
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(strstr(fake_log(), "  k0_wpack_p2 0x5000") != NULL);

  CHECK_STATUS(fusecc_module_set_reuse_prepared(NULL, 1),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
  CHECK_STATUS(fusecc_module_invalidate_prepared(NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
  fusecc_module_release(module);
#undef EXPECT
}

/// The queries, and the manifest's rules for prepare steps.
static void test_manifest(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(manifest, strlen(manifest), &bundle));
  if (!bundle)
    return;
  size_t count = 9;
  CHECK_OK(fusecc_bundle_entry_prepare_steps(bundle, 0, &count));
  CHECK(count == 1);
  int read[3] = {-1, -1, -1};
  for (size_t a = 0; a < 3; ++a)
    CHECK_OK(fusecc_bundle_arg_prepared(bundle, 0, a, &read[a]));
  CHECK(read[0] == 0 && read[1] == 1 && read[2] == 0);
  CHECK_STATUS(fusecc_bundle_arg_prepared(bundle, 0, 3, &read[0]),
               FUSECC_STATUS_OUT_OF_RANGE, "arg index 3");
  fusecc_workspace_role_t role = FUSECC_WORKSPACE_ROLE_UNSPECIFIED;
  CHECK_OK(fusecc_bundle_workspace_role(bundle, 0, 0, &role));
  CHECK(role == FUSECC_WORKSPACE_ROLE_PREPARED);
  CHECK(strcmp(fusecc_workspace_role_name(role), "prepared") == 0);
  fusecc_bundle_release(bundle);

  /// Each bad manifest: the text replaced in `manifest`, and the message.
  static const struct {
    const char *from, *to, *message;
  } bad[] = {
      {"steps 2 prepare 1", "steps 2 prepare 3", "prepare step count"},
      {"steps 2 prepare 1", "steps 2 prepare 0", "prepare step count"},
      {"params 2 1 w0\n", "params 2 2 w0\n",
       "prepare step 0 parameter 0 must be an input"},
      {"params 2 1 w0\n", "params 2 1 1\n",
       "'prepared' workspace 0 is no parameter of a prepare step"},
      {"steps 2 prepare 1", "steps 2 prepare 2",
       "prepare step 1 parameter 2 must be an input"},
      {"steps 2 prepare 1", "steps 2",
       "'prepared' workspace 0 is no "
       "parameter"},
      {"16 prepared", "16 scratch",
       "prepare step 0 parameter 1 must be an input"},
      {"16 prepared", "16 cached", "or 'prepared', got 'cached'"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    char text[sizeof(manifest) + 64];
    const char *at = strstr(manifest, bad[i].from);
    CHECK(at != NULL);
    if (!at)
      continue;
    size_t head = (size_t)(at - manifest);
    snprintf(text, sizeof(text), "%.*s%s%s", (int)head, manifest, bad[i].to,
             at + strlen(bad[i].from));
    bundle = NULL;
    CHECK_STATUS(fusecc_bundle_parse(text, strlen(text), &bundle),
                 FUSECC_STATUS_PARSE_ERROR, bad[i].message);
    fusecc_bundle_release(bundle);
  }
}

int main(void) {
  setenv("FUSECC_CUDA_DRIVER_LIBRARY", FUSECC_FAKE_DRIVER, 1);
  unsetenv("FUSECC_LAUNCH_GRAPHS");
  void *fake = dlopen(FUSECC_FAKE_DRIVER, RTLD_NOW | RTLD_LOCAL);
  if (!fake) {
    fprintf(stderr, "cannot open the fake driver %s: %s\n", FUSECC_FAKE_DRIVER,
            dlerror());
    return 1;
  }
  *(void **)&fake_reset = dlsym(fake, "fake_cuda_reset");
  *(void **)&fake_log = dlsym(fake, "fake_cuda_log");
  *(void **)&fake_fail_call = dlsym(fake, "fake_cuda_fail_call");
  *(void **)&fake_set_capturing = dlsym(fake, "fake_cuda_set_capturing");
  if (!fake_reset || !fake_log || !fake_fail_call || !fake_set_capturing) {
    fprintf(stderr, "the fake driver lacks its control functions\n");
    return 1;
  }
  test_every_call();
  test_reuse();
  test_manifest();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
