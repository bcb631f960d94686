//===- KernelBuilder.cpp - build the gpu.func of a fused kernel -----------===//
//
// Device code of a fused transposed convolution + epilogue.
//
// A block owns `rows` output rows of one H stride phase (batch n, depth od,
// heights oh, oh + s_h, ...), a segment of `tileW` positions along W and
// `tileC` channels. The convolution is computed per stride phase: the
// block's od and H phase fix its valid depth/height taps (`emitTapRange`,
// closed form), and the main loop runs over flattened rounds (valid d tap,
// valid h tap, chunk of input channels; with `mergeHTaps` one round takes all
// valid h taps, whose overlapping input rows are staged once). Along W, every
// warp (tensor cores) or thread (FMA) owns positions of one W phase, so its
// valid W taps are one arithmetic progression too. Only valid taps are visited:
// no multiply by a structural zero.
//
// Each round stages its input rows (16-byte vectors when the rows are
// multiples of 4 long) and weights in shared memory (rounded to TF32 on the
// tf32 tensor-core path), then the tensor cores (`mma.sync m16n8k8`, weight
// fragments shared by the block's rows; split-operand tf32x3 kernels split
// f32 fragments into TF32 hi + lo and take three MMAs) or the FMA units
// accumulate into registers: unrolled values carried through scf.for
// iter_args.
//
// The accumulators (plus the conv bias) are written to an output tile in
// shared memory, which aliases the (now dead) staging buffer. The epilogue
// runs on that tile: elementwise ops are evaluated per element straight from
// the tile; each softmax / layer_norm materialises its input in a tile (the
// conv tile itself when nothing reads the conv afterwards), reduces its lines
// with warp shuffles into per-line statistics, and its readers normalise on
// load. The final value of every element is stored to global memory with
// consecutive threads on consecutive W positions (coalesced), and, where the
// plan says so, the block's partial statistics of the normalisation that
// reads the result are written from the tile (EpilogueStatistics.cpp).
//
// This file is the driver; each family of the device code is emitted by
// its own file over one `EmitContext` (EmitContext.h lists them).
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"
#include "StandaloneKernels.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::emit;

/// The body of the kernel function: arguments and shared memory, the block
/// decomposition, the main loop of the kernel's path, the epilogue.
static void emitKernelBody(EmitContext &cx) {
  EmitBuilder &b = cx.b;
  gpu::GPUFuncOp func = cx.func;
  // Map kernel inputs to function arguments.
  Block &body = cx.kernel.getBody().front();
  for (auto [arg, fArg] : llvm::zip(body.getArguments(), func.getArguments()))
    cx.memOf[arg] = fArg;
  // A convolution operand widened from half storage is read from the half
  // input itself (loads widen it: EmitBuilder::loadF32).
  for (CastOp c : cx.a.operandCasts)
    cx.memOf[c.getResult()] = cx.memOf.lookup(c.getInput());
  // Before the output (absent when only statistics are written): the
  // re-laid-out weights, the re-laid-out input, the partial statistics.
  unsigned next = func.getNumArguments() - (cx.statsOnly ? 0 : 1);
  if (cx.stats)
    cx.statsOut = func.getArgument(--next);
  if (cx.ipack)
    cx.ipacked = func.getArgument(--next);
  if (cx.pack)
    cx.packed = func.getArgument(--next);

  // An epilogue on the accumulators that stores from registers never
  // writes the output tile: the block allocates its staging buffers alone
  // (kb2_20 in bf16: 76.8 -> 45.6 KB, two -> three blocks per SM; docs/perf.md
  // 199).
  cx.registerEpilogue = canEvaluateFromRegisters(cx);
  // So does a channel softmax whose block holds all the channels: its
  // statistics come from the accumulators (docs/perf.md 201).
  if (!cx.registerEpilogue && cx.registerSoftmaxAllowed) {
    cx.registerSoftmax = chooseRegisterSoftmax(cx);
    cx.registerEpilogue = cx.registerSoftmax != nullptr;
  }
  if (cx.registerEpilogue)
    cx.smemPlan = cx.smemPlan.withoutTiles(cx.cfg);
  else
    chooseBulkStore(cx);
  // A half result stored from the tile as it is takes a tile of halves:
  // half the tile's shared memory (docs/perf.md 224).
  if (!cx.registerEpilogue && !cx.bulkStride)
    chooseHalfTile(cx);
  // A reduction split over a cluster: block 0's shared memory holds the
  // other blocks' accumulator fragments too.
  cx.smemPlan.totalElems =
      std::max(cx.smemPlan.totalElems, clusterReduceWords(cx));

  auto wg =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto bytesTy = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface{}, wg);
  Value raw = gpu::DynamicSharedMemoryOp::create(b, bytesTy);
  auto f32Ty = MemRefType::get({cx.smemPlan.totalElems}, b.getF32Type(),
                               MemRefLayoutAttrInterface{}, wg);
  cx.smem = memref::ViewOp::create(b, f32Ty, raw, b.c(0), ValueRange{});
  if (cx.halfTileType)
    cx.smemHalf = memref::ViewOp::create(
        b,
        MemRefType::get({2 * cx.smemPlan.totalElems}, cx.halfTileType,
                        MemRefLayoutAttrInterface{}, wg),
        raw, b.c(0), ValueRange{});

  emitBlockDecomposition(cx);
  auto mainLoop = [&] {
    if (cx.cfg.usesWgmma())
      emitWgmmaMainLoop(cx);
    else
      emitSyncMainLoop(cx);
    gpu::BarrierOp::create(b);
  };
  // A block without a valid tap (no main-loop round) stores its lines'
  // constant values directly (EmptyBlocks.cpp); the others run the main
  // loop and the epilogue below. With clusterK every block of the cluster
  // has the same tile (and none of its rounds): block 0 alone stores it, as
  // it alone runs the epilogue of a tile with rounds.
  if (storesEmptyBlocksDirectly(cx)) {
    Value none = b.cmp(arith::CmpIPredicate::eq, emitRoundCount(cx), b.c(0));
    auto ifNone = scf::IfOp::create(b, TypeRange{}, none, true);
    b.setInsertionPointToStart(&ifNone.getThenRegion().front());
    if (cx.cfg.getClusterK() > 1) {
      auto ifLeader = scf::IfOp::create(
          b, TypeRange{},
          b.cmp(arith::CmpIPredicate::eq, cx.clusterRank, b.c(0)), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
      emitEmptyBlockStores(cx);
    } else {
      emitEmptyBlockStores(cx);
    }
    b.setInsertionPointToStart(&ifNone.getElseRegion().front());
  }
  if (cx.registerEpilogue || cx.bulkStride) {
    // The epilogue runs on the accumulators: stored from registers, or
    // through the output tile by bulk copies.
    emitWgmmaMainLoop(cx);
  } else if (cx.a.pool) {
    emitPooledKernel(cx, mainLoop);
  } else if (cx.a.channelWindow) {
    mainLoop();
    emitChannelWindowEpilogue(cx);
  } else if (cx.a.contraction) {
    mainLoop();
    emitChannelContractionEpilogue(cx);
  } else {
    mainLoop();
    emitEpilogue(cx);
  }
  b.setInsertionPointToEnd(&func.getBody().front());
  emitClusterStartWait(cx);
  gpu::ReturnOp::create(b);
}

FailureOr<gpu::GPUFuncOp>
fusecc::buildKernelFunction(gpu::GPUModuleOp gpuModule, KernelOp kernel,
                            const KernelAnalysis &analysis, EpilogueMath math,
                            int64_t *sharedBytes, bool registerSoftmax) {
  if (!kernel.getConfig())
    return kernel.emitOpError("has no tile config; run fuse-tile-kernels "
                              "before fuse-convert-to-gpu");
  for (Operation *op : analysis.reductions)
    if (auto ln = dyn_cast<LayerNormOp>(op))
      for (Value v : {ln.getWeight(), ln.getBias()})
        if (v && !isa<BlockArgument>(v))
          return ln.emitOpError("weight and bias must be kernel inputs");
  TileConfigAttr cfg = *kernel.getConfig();
  LaunchPlan launch = LaunchPlan::get(analysis, cfg);
  const ConvGeometry &g = analysis.geom;
  if (analysis.needsAllChannels && cfg.getTileC() * cfg.getClusterC() < g.cout)
    return kernel.emitOpError("tile config holds ")
           << cfg.getTileC() << " x " << cfg.getClusterC()
           << " channels (tileC x clusterC); its channel epilogue needs all "
           << g.cout << " in one block or cluster";
  if (cfg.getClusterC() > 1 && launch.numCTiles != cfg.getClusterC())
    return kernel.emitOpError("tile config has clusterC = ")
           << cfg.getClusterC() << " but " << launch.numCTiles
           << " channel tiles; a cluster must hold exactly the channel tiles "
              "of a channel softmax";
  if (cfg.splitsReduction() &&
      (analysis.pool || !analysis.reductions.empty() ||
       analysis.needsAllChannels || analysis.needsWholeRow ||
       analysis.channelEpilogue() || analysis.perSampleLaunch ||
       llvm::divideCeil(g.cinPerGroup(), cfg.getCiChunk()) %
               cfg.getClusterK() !=
           0))
    return kernel.emitOpError("tile config has clusterK = ")
           << cfg.getClusterK()
           << ": a reduction split over a cluster needs an elementwise "
              "epilogue, a static batch and channel chunks a multiple of "
              "clusterK";
  MLIRContext *ctx = kernel.getContext();
  SmallVector<Type> argTypes;
  for (Value in : kernel.getInputs())
    argTypes.push_back(detail::memrefOf(in.getType()));
  if (auto pack = WeightPackPlan::get(analysis, *kernel.getConfig()))
    argTypes.push_back(
        MemRefType::get({pack->totalElems}, Float32Type::get(ctx)));
  if (auto ipack = InputPackPlan::get(analysis, *kernel.getConfig()))
    argTypes.push_back(
        MemRefType::get({ipack->totalElems}, Float32Type::get(ctx)));
  FailureOr<std::optional<EpilogueStatsLayout>> written =
      KernelPlan::epilogueStats(kernel);
  if (failed(written))
    return failure();
  std::optional<EpilogueStatsLayout> stats = *written;
  if (stats)
    argTypes.push_back(
        MemRefType::get({stats->elements()}, stats->elementType));
  const bool statsOnly = KernelPlan::statsOnly(kernel);
  if (statsOnly && !stats)
    return kernel.emitOpError("keeps its result on chip but writes no "
                              "partial statistics");
  if (cfg.splitsReduction() && stats)
    return kernel.emitOpError("tile config has clusterK = ")
           << cfg.getClusterK() << " but the kernel writes partial statistics";
  if (!statsOnly)
    argTypes.push_back(detail::memrefOf(kernel.getResult().getType()));

  EmitBuilder b(kernel.getLoc(), ctx);
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, kernel.getKernelName(),
                                     FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // Kernel buffers never overlap (the runtime rejects overlapping argument
  // buffers): loads of epilogue parameters may then be hoisted past the
  // output stores.
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    b.getUnitAttr());
  // Ask ptxas to keep the blocks resident that can share an SM
  // (`kernelResidentBlocks`): at most 128 registers per thread (two
  // 256-thread blocks, or four 128-thread blocks), more where shared memory
  // or a merged-tap round's staging holds fewer blocks anyway. The staging
  // address arithmetic is otherwise hoisted into registers generously.
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(
                    std::min<int64_t>(8, kernelResidentBlocks(analysis, cfg))));
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(launch.threads), 1, 1}));
  // Clusters are compiled in (`.reqnctapercluster`), so a plain
  // cuLaunchKernel launches them.
  if (cfg.clusterBlocks() > 1)
    func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                  b.getDenseI32ArrayAttr(
                      {static_cast<int32_t>(cfg.clusterBlocks()), 1, 1}));
  b.setInsertionPointToStart(&func.getBody().front());
  EmitContext cx(b, kernel, analysis, func, math);
  cx.stats = stats;
  cx.statsOnly = statsOnly;
  cx.registerSoftmaxAllowed = registerSoftmax;
  emitKernelBody(cx);
  // The tiling checks its plan against the limit; what the kernel adds to
  // it (a cluster's accumulator fragments, ClusterReduce.cpp) is checked
  // here, so that no bundle fails to load for its shared memory.
  if (cx.smemPlan.bytes() > analysis.target.sharedBytesPerBlock())
    return kernel.emitOpError("needs ")
           << cx.smemPlan.bytes() << " bytes of shared memory (at most "
           << analysis.target.sharedBytesPerBlock() << " per block on "
           << analysis.target.describe() << ")";
  if (sharedBytes)
    *sharedBytes = cx.smemPlan.bytes();
  rewriteSigmoidReciprocals(func, math);
  if (math == EpilogueMath::Fast)
    approximateExponentials(func);
  return func;
}
