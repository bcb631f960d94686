//===- SimTensorCore.cpp - mma.sync and wgmma on the CPU ------------------===//
//
// nvgpu.mma.sync m16n8k8 per warp, and Hopper wgmma per warpgroup with
// its operands read from shared memory through matrix descriptors, its
// async-proxy fences, commit groups and waits (see Simulator.h).
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

/// The tensor cores' D = C + sum_k A_k B_k over one k = 8 step, TF32
/// operands (`a`, `b`: exact TF32 values) and an f32 accumulator, as the
/// numerical-feature model of the H100's tensor cores has it (Fasi et al.,
/// "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021, and its
/// later H100 model: 8 products per fused group, 2 extra alignment bits):
/// the products are exact; they and C are aligned to the largest exponent
/// among them with 2 bits below its 24-bit significand (3 where the
/// largest product's significand product is >= 2 and its exponent is not
/// below C's), the bits shifted out are dropped (truncation), the aligned
/// terms are added exactly and the sum is normalised toward zero. So an
/// accumulator that carries a long sum loses up to about one ulp per step,
/// always toward zero: a bias that grows with the steps accumulated in the
/// tensor cores (what split-operand kernels avoid by starting each step
/// from zero and adding it to the running sum with IEEE f32 adds).
/// Non-finite operands or accumulators take the plain IEEE sum.
static float tensorCoreStep(float c, const double *a, const double *b,
                            int64_t aStride, int64_t bStride) {
  double exact = c;
  bool finite = std::isfinite(c);
  for (int k = 0; k < 8; ++k) {
    double p = a[k * aStride] * b[k * bStride];
    finite &= std::isfinite(a[k * aStride]) && std::isfinite(b[k * bStride]);
    exact += p;
  }
  if (!finite)
    return static_cast<float>(exact);
  // A term: |value| = sig x 2^(exp - 23), sig < 2^24 (a product's
  // significand product in [1, 4) normalised to [1, 2): no bit is lost,
  // TF32 significands have 11 bits).
  struct Term {
    int64_t sig;
    int exp;
    bool neg;
  };
  Term terms[9];
  int n = 0;
  auto split = [](double v, int &e) {
    // Exponent clamped to TF32's (f32's) smallest normal one.
    e = std::max(std::ilogb(v), -126);
    return std::ldexp(std::fabs(v), -e);
  };
  // Each product's significand product (in [1, 4) for normal operands)
  // and exponent ea + eb before normalisation.
  double sigs[8];
  int pres[8];
  for (int k = 0; k < 8; ++k) {
    double av = a[k * aStride], bv = b[k * bStride];
    if (av == 0 || bv == 0)
      continue;
    int ea, eb;
    sigs[n] = split(av, ea) * split(bv, eb);
    pres[n] = ea + eb;
    terms[n++] = {0, 0, (av < 0) != (bv < 0)};
  }
  // The extra alignment bit: the largest significand product among the
  // products of the largest pre-normalisation exponent is >= 2.
  int maxPre = std::numeric_limits<int>::min();
  for (int i = 0; i < n; ++i)
    maxPre = std::max(maxPre, pres[i]);
  double maxPreSig = 0;
  for (int i = 0; i < n; ++i) {
    if (pres[i] == maxPre)
      maxPreSig = std::max(maxPreSig, sigs[i]);
    // 24-bit significand (truncated: exact for TF32 operands).
    int64_t bits = static_cast<int64_t>(std::ldexp(sigs[i], 23));
    int e = pres[i];
    if (sigs[i] >= 2)
      bits >>= 1, ++e;
    terms[i].sig = bits;
    terms[i].exp = e;
  }
  bool extra = n > 0 && maxPreSig >= 2;
  if (c != 0) {
    int ec;
    double sig = split(static_cast<double>(c), ec);
    terms[n++] = {static_cast<int64_t>(std::ldexp(sig, 23)), ec, c < 0};
    extra = extra && maxPre >= ec;
  }
  if (n == 0)
    return 0.0f;
  const int extraBits = 2 + (extra ? 1 : 0);
  int maxExp = std::numeric_limits<int>::min();
  for (int i = 0; i < n; ++i)
    maxExp = std::max(maxExp, terms[i].exp);
  int64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    int shift = maxExp - terms[i].exp;
    int64_t aligned = shift > 40 ? 0 : (terms[i].sig << extraBits) >> shift;
    sum += terms[i].neg ? -aligned : aligned;
  }
  if (sum == 0)
    return 0.0f;
  // Exact in double (|sum| < 2^31); normalised toward zero.
  double v = std::ldexp(static_cast<double>(sum), maxExp - 23 - extraBits);
  float f = static_cast<float>(v);
  if (std::isfinite(f) && std::fabs(static_cast<double>(f)) > std::fabs(v))
    f = std::nextafter(f, 0.0f);
  return f;
}

/// The half-operand MMA (nvvm.mma.sync m16n8k16 row.col, bf16 or f16
/// operands, f32 accumulators) of one warp, thread (g, t) = (lane / 4,
/// lane % 4), each register a pair (first element in the low half):
///   A (16x16): a0 (g, 2t | 2t+1), a1 (g+8, 2t | 2t+1), a2 (g, 2t+8 | 2t+9),
///              a3 (g+8, 2t+8 | 2t+9)
///   B (16x8):  b0 (2t | 2t+1, g), b1 (2t+8 | 2t+9, g)
///   C/D as m16n8k8.
/// The operands are exact half values (rounded when packed); each D element
/// is `tensorCoreStep` of its C and products k = 0..7, then of that and
/// products k = 8..15 (exact products, aligned and truncated per group of
/// 8 as the TF32 steps).
void BlockExecutor::execHalfMma(const Inst &inst, int w) {
  const bool bf16 = inst.pred == 1;
  double A[16][16], B[16][8];
  float C[16][8];
  // Register `r` of the operand starting at input `first`: its two values.
  auto pair = [&](int first, int r, int l, double &lo, double &hi) {
    if (bf16) {
      auto bits = static_cast<uint32_t>(R(inst.in[first + r], l));
      lo = static_cast<double>(asF((bits & 0xFFFFu) << 16));
      hi = static_cast<double>(asF(bits & 0xFFFF0000u));
      return;
    }
    lo = static_cast<double>(F(inst.in[first + 2 * r], l));
    hi = static_cast<double>(F(inst.in[first + 2 * r + 1], l));
  };
  const int bFirst = bf16 ? 4 : 8, cFirst = bf16 ? 6 : 12;
  for (int lane = 0; lane < 32; ++lane) {
    int l = w * 32 + lane, g = lane >> 2, t = lane & 3;
    pair(0, 0, l, A[g][2 * t], A[g][2 * t + 1]);
    pair(0, 1, l, A[g + 8][2 * t], A[g + 8][2 * t + 1]);
    pair(0, 2, l, A[g][2 * t + 8], A[g][2 * t + 9]);
    pair(0, 3, l, A[g + 8][2 * t + 8], A[g + 8][2 * t + 9]);
    pair(bFirst, 0, l, B[2 * t][g], B[2 * t + 1][g]);
    pair(bFirst, 1, l, B[2 * t + 8][g], B[2 * t + 9][g]);
    C[g][2 * t] = F(inst.in[cFirst], l);
    C[g][2 * t + 1] = F(inst.in[cFirst + 1], l);
    C[g + 8][2 * t] = F(inst.in[cFirst + 2], l);
    C[g + 8][2 * t + 1] = F(inst.in[cFirst + 3], l);
  }
  auto d = [&](int i, int j) {
    float c = tensorCoreStep(C[i][j], &A[i][0], &B[0][j], 1, 8);
    return fromF(tensorCoreStep(c, &A[i][8], &B[8][j], 1, 8));
  };
  for (int lane = 0; lane < 32; ++lane) {
    int l = w * 32 + lane, g = lane >> 2, t = lane & 3;
    R(inst.out[0], l) = d(g, 2 * t);
    R(inst.out[1], l) = d(g, 2 * t + 1);
    R(inst.out[2], l) = d(g + 8, 2 * t);
    R(inst.out[3], l) = d(g + 8, 2 * t + 1);
  }
}

/// nvgpu.mma.sync m16n8k8, tf32 x tf32 + f32, per warp, with the PTX
/// fragment layouts (groupID = lane / 4, tig = lane % 4):
///   A (16x8): a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4)
///   B (8x8):  b0 (t, g), b1 (t+4, g)
///   C/D (16x8): c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1)
/// The operands' low 13 mantissa bits are ignored (as the tensor cores do:
/// only the top 19 bits are used; operands pre-rounded with
/// cvt.rna.tf32.f32 already have them zero); each D element is
/// `tensorCoreStep` of its C and the 8 products. Half-operand MMAs
/// (pred 1 bf16, 2 f16) go to `execHalfMma`.
LogicalResult BlockExecutor::execMma(const Inst &inst,
                                     const std::vector<int> &lanes) {
  std::vector<int> count((nt + 31) / 32, 0);
  for (int l : lanes)
    ++count[l / 32];
  if (inst.pred != 0) {
    for (size_t w = 0; w < count.size(); ++w) {
      if (count[w] == 0)
        continue;
      if (count[w] != 32)
        return fail(inst, static_cast<int>(w * 32),
                    "nvvm.mma.sync executed by " + std::to_string(count[w]) +
                        " of the 32 lanes of a warp");
      execHalfMma(inst, static_cast<int>(w));
    }
    return success();
  }
  auto tf32 = [](uint64_t bits) {
    return static_cast<double>(asF(bits & 0xFFFFE000u));
  };
  for (size_t w = 0; w < count.size(); ++w) {
    if (count[w] == 0)
      continue;
    if (count[w] != 32)
      return fail(inst, static_cast<int>(w * 32),
                  "nvgpu.mma.sync executed by " + std::to_string(count[w]) +
                      " of the 32 lanes of a warp");
    double A[16][8], B[8][8];
    float C[16][8];
    for (int lane = 0; lane < 32; ++lane) {
      int l = static_cast<int>(w * 32) + lane, g = lane >> 2, t = lane & 3;
      A[g][t] = tf32(R(inst.in[0], l));
      A[g + 8][t] = tf32(R(inst.in[1], l));
      A[g][t + 4] = tf32(R(inst.in[2], l));
      A[g + 8][t + 4] = tf32(R(inst.in[3], l));
      B[t][g] = tf32(R(inst.in[4], l));
      B[t + 4][g] = tf32(R(inst.in[5], l));
      C[g][2 * t] = F(inst.in[6], l);
      C[g][2 * t + 1] = F(inst.in[7], l);
      C[g + 8][2 * t] = F(inst.in[8], l);
      C[g + 8][2 * t + 1] = F(inst.in[9], l);
    }
    auto d = [&](int i, int j) {
      return fromF(tensorCoreStep(C[i][j], &A[i][0], &B[0][j], 1, 8));
    };
    for (int lane = 0; lane < 32; ++lane) {
      int l = static_cast<int>(w * 32) + lane, g = lane >> 2, t = lane & 3;
      R(inst.out[0], l) = d(g, 2 * t);
      R(inst.out[1], l) = d(g, 2 * t + 1);
      R(inst.out[2], l) = d(g + 8, 2 * t);
      R(inst.out[3], l) = d(g + 8, 2 * t + 1);
    }
  }
  return success();
}

LogicalResult BlockExecutor::warpgroupsOf(const Inst &inst,
                                          const std::vector<int> &lanes,
                                          SmallVectorImpl<int> &wgs) {
  std::vector<int> count(wgGroups.size(), 0);
  for (int l : lanes)
    ++count[l / kWarpgroup];
  StringRef name = inst.op->getName().getStringRef();
  for (size_t g = 0; g < count.size(); ++g) {
    if (count[g] == 0)
      continue;
    int first = static_cast<int>(g) * kWarpgroup;
    if (first + kWarpgroup > nt)
      return fail(inst, first,
                  name + " executed by threads of an incomplete warpgroup " +
                      "(the block has " + std::to_string(nt) +
                      " threads; a warpgroup is 128 consecutive threads "
                      "from a multiple of 128)");
    if (count[g] != kWarpgroup)
      return fail(inst, first,
                  name + " executed by " + std::to_string(count[g]) +
                      " of the 128 threads of warpgroup " + std::to_string(g) +
                      " (a .sync.aligned warpgroup op: all of them execute "
                      "it together)");
    wgs.push_back(static_cast<int>(g));
  }
  return success();
}

LogicalResult BlockExecutor::wgmmaOperand(const Inst &inst, int wg, char name,
                                          uint64_t desc, int rows,
                                          std::vector<double> &vals,
                                          std::vector<int64_t> &words) {
  const int first = wg * kWarpgroup;
  const std::string what = std::string("wgmma descriptor ") + name + " (0x" +
                           llvm::utohexstr(desc) + ")";
  const uint64_t fields = 0x3FFFull | 0x3FFFull << 16 | 0x3FFFull << 32 |
                          0x7ull << 49 | 0x3ull << 62;
  if (uint64_t swizzle = desc >> 62)
    return fail(inst, first,
                what + " has swizzle mode " + std::to_string(swizzle) +
                    "; only 0 (no swizzle) is supported");
  if (uint64_t baseOffset = (desc >> 49) & 0x7)
    return fail(inst, first,
                what + " has matrix base offset " + std::to_string(baseOffset) +
                    "; only 0 is supported");
  if (desc & ~fields)
    return fail(inst, first, what + " has reserved bits set");
  const int64_t start = static_cast<int64_t>(desc & 0x3FFF) << 4;
  const int64_t lbo = static_cast<int64_t>((desc >> 16) & 0x3FFF) << 4;
  const int64_t sbo = static_cast<int64_t>((desc >> 32) & 0x3FFF) << 4;
  // compute-sanitizer's memcheck checks an operand as one span of rows x
  // 32 bytes from its start, whatever its strides: keep that span inside
  // the allocation too.
  if (start + rows * 32 > kSmemWindowBase + smemBytes)
    return fail(inst, first,
                "wgmma operand " + std::string(1, name) + "'s span [" +
                    std::to_string(start) + ", +" + std::to_string(rows * 32) +
                    ") (rows x 32 bytes, as compute-sanitizer memcheck reads "
                    "it) passes the end of the dynamic shared memory at " +
                    std::to_string(kSmemWindowBase + smemBytes) + " (" + what +
                    ")");
  // Half operands (inst.memId 1 bf16, 2 f16): K = 16, two 2-byte
  // elements per word, element k at byte (k % 8) * 2 of its core matrix.
  const bool half = inst.memId > 0;
  const int K = half ? 16 : 8, perRow = half ? 8 : 4;
  vals.resize(static_cast<size_t>(rows) * K);
  for (int i = 0; i < rows; ++i)
    for (int kk = 0; kk < K; ++kk) {
      // The word holding the element (aligned).
      int64_t addr = start + (kk / perRow) * lbo + (i / 8) * sbo +
                     (i % 8) * 16 + (kk % perRow) * (half ? 2 : 4) / 4 * 4;
      int64_t off = addr - kSmemWindowBase;
      if (off < 0 || off + 4 > smemBytes)
        return fail(inst, first,
                    "wgmma operand " + std::string(1, name) + " element (" +
                        std::to_string(i) + ", " + std::to_string(kk) +
                        ") at shared address " + std::to_string(addr) +
                        " is outside the dynamic shared memory [" +
                        std::to_string(kSmemWindowBase) + ", " +
                        std::to_string(kSmemWindowBase + smemBytes) + ") (" +
                        what + ": start " + std::to_string(start) + ", LBO " +
                        std::to_string(lbo) + ", SBO " + std::to_string(sbo) +
                        ")");
      int64_t w = off / 4;
      uint64_t bits = fromF(smem[w]);
      vals[static_cast<size_t>(i) * K + kk] =
          half ? static_cast<double>(halfFromBits(
                     kk % 2 ? bits >> 16 : bits, inst.memId == 2))
               : static_cast<double>(asF(bits & 0xFFFFE000u));
      words.push_back(w);
    }
  return success();
}

LogicalResult BlockExecutor::asyncProxyRead(const Inst &inst, int lane,
                                            int64_t w, StringRef reader) {
  const std::string word = "shared memory word " + std::to_string(w);
  const std::string who = reader.str();
  if (sPending[w] > 0)
    return violation(inst, lane,
                     who + ") read of " + word + " while thread " +
                         threadName(sPendLane[w]) +
                         "'s cp.async (nvgpu.device_async_copy) to it is "
                         "pending");
  if (!sInit[w])
    return violation(inst, lane,
                     "read of uninitialised shared memory (word " +
                         std::to_string(w) + ") by a " + who + ")");
  if (sWEpoch[w] == epoch)
    return violation(inst, lane,
                     "shared memory race: word " + std::to_string(w) +
                         " written by thread " + threadName(sWriter[w]) +
                         " without a barrier before a " + who + ") reads it");
  if (fencesBy(sWriter[w], sWEpoch[w]) == sWFence[w])
    return violation(inst, lane,
                     word + " written by thread " + threadName(sWriter[w]) +
                         " is read by a " + who +
                         ", async proxy) without an nvvm.fence.proxy "
                         "(async.shared) of that thread between the write "
                         "and the next barrier");
  return success();
}

/// nvvm.wgmma.mma_async m64nNk8, tf32 x tf32 + f32 (wgmma.mma_async.sync.
/// aligned.m64nNk8.f32.tf32.tf32), or m64nNk16 with bf16 / f16 operands
/// (two 2-byte elements per word, element k at byte (k % 8) * 2 of its
/// 16-byte core-matrix row; products summed per 8 as in execHalfMma),
/// issued by whole warpgroups (128
/// consecutive threads from a multiple of 128), each with one pair of
/// descriptors for all its threads. A descriptor: bits [0, 14) start
/// address >> 4 (shared window, 18 bits), [16, 30) LBO >> 4, [32, 46)
/// SBO >> 4, [49, 52) base offset (0), [62, 64) swizzle mode (0: none).
/// Without swizzle, K-major, element (i, k) of A (64x8, i = m) or B (Nx8,
/// i = n) is the f32 at start + (k / 4) * LBO + (i / 8) * SBO + (i % 8) * 16
/// + (k % 4) * 4 (8x16-byte core matrices). D[m][n] = (scale-d ? C[m][n] :
/// 0) + sum_k A[m][k] * B[n][k], with operands and accumulation
/// (`tensorCoreStep`) as in execMma.
/// Accumulator fragment: lane l of warp w = (tid / 32) % 4 holds element
/// 4j + q = D(16w + l/4 + 8(q/2), 8j + 2(l%4) + q%2).
///
/// The operands are read at issue and the results written to the registers
/// then; the words read stay pending until a wait retires the wgmma's group
/// (a store to them before is reported), and become reads by the warpgroup
/// at the wait. Every word read must be initialised, not the destination
/// of a pending cp.async, not written since the last barrier, and its
/// writer must have executed nvvm.fence.proxy (async.shared) after the write
/// and before the next barrier (the tensor cores read through the async
/// proxy; a cp.async completion counts as a generic write of its thread).
LogicalResult BlockExecutor::execWgmma(const Inst &inst,
                                       const std::vector<int> &lanes) {
  SmallVector<int, 8> wgs;
  if (failed(warpgroupsOf(inst, lanes, wgs)))
    return failure();
  const int n = static_cast<int>(inst.imm);
  const int accBase = 2;
  std::vector<double> a, b;
  for (int g : wgs) {
    const int first = g * kWarpgroup;
    const uint64_t descA = R(inst.in[0], first), descB = R(inst.in[1], first);
    for (int l = first; l < first + kWarpgroup; ++l)
      if (R(inst.in[0], l) != descA || R(inst.in[1], l) != descB)
        return fail(
            inst, l,
            "wgmma descriptors differ within warpgroup " + std::to_string(g) +
                ": A 0x" + llvm::utohexstr(R(inst.in[0], l)) + ", B 0x" +
                llvm::utohexstr(R(inst.in[1], l)) + " here, A 0x" +
                llvm::utohexstr(descA) + ", B 0x" + llvm::utohexstr(descB) +
                " in thread " + threadName(first));
    if (!wgFenced[g] &&
        failed(violation(inst, first,
                         "nvvm.wgmma.mma_async of warpgroup " +
                             std::to_string(g) +
                             " without an earlier nvvm.wgmma.fence.aligned")))
      return failure();
    std::vector<int64_t> words;
    if (failed(wgmmaOperand(inst, g, 'A', descA, 64, a, words)) ||
        failed(wgmmaOperand(inst, g, 'B', descB, n, b, words)))
      return failure();
    for (int64_t w : words)
      if (failed(asyncProxyRead(inst, first, w, "wgmma (nvvm.wgmma.mma_async")))
        return failure();
    for (int li = 0; li < kWarpgroup; ++li) {
      const int l = first + li, warp = li / 32, lane = li % 32;
      for (int j = 0; j < n / 8; ++j)
        for (int q = 0; q < 4; ++q) {
          int row = 16 * warp + lane / 4 + 8 * (q / 2);
          int col = 8 * j + 2 * (lane % 4) + q % 2;
          int e = 4 * j + q;
          float c = inst.pred ? F(inst.in[accBase + e], l) : 0.0f;
          // Half operands: k = 0..7, then 8..15 (as execHalfMma).
          const size_t K = inst.memId > 0 ? 16 : 8;
          for (size_t k0 = 0; k0 < K; k0 += 8)
            c = tensorCoreStep(c, &a[row * K + k0], &b[col * K + k0], 1, 1);
          R(inst.out[e], l) = fromF(c);
        }
    }
    for (int64_t w : words) {
      ++sWgPending[w];
      sWgPendGroup[w] = g;
    }
    wgUncommitted[g].push_back(std::move(words));
  }
  return success();
}

void BlockExecutor::retireWgmma(int wg,
                                std::vector<std::vector<int64_t>> &group) {
  const int32_t reader = -3 - wg;
  for (const std::vector<int64_t> &words : group)
    for (int64_t w : words) {
      --sWgPending[w];
      if (sREpoch[w] != epoch) {
        sREpoch[w] = epoch;
        sReader[w] = reader;
      } else if (sReader[w] != reader) {
        sReader[w] = -2; // several readers
      }
    }
}

LogicalResult BlockExecutor::execWgmmaSync(const Inst &inst,
                                           const std::vector<int> &lanes) {
  switch (inst.opc) {
  case Opc::FenceProxy:
    for (int l : lanes)
      ++fenceCount[l];
    return success();
  case Opc::WgmmaFence: {
    SmallVector<int, 8> wgs;
    if (failed(warpgroupsOf(inst, lanes, wgs)))
      return failure();
    for (int g : wgs)
      wgFenced[g] = 1;
    return success();
  }
  case Opc::WgmmaCommit: {
    // wgmma.commit_group: all of the warpgroup's uncommitted wgmma ops
    // (possibly none) form a new group.
    SmallVector<int, 8> wgs;
    if (failed(warpgroupsOf(inst, lanes, wgs)))
      return failure();
    for (int g : wgs) {
      wgGroups[g].push_back(std::move(wgUncommitted[g]));
      wgUncommitted[g].clear();
    }
    return success();
  }
  case Opc::WgmmaWait: {
    // wgmma.wait_group N: all but the N most recent groups are retired.
    SmallVector<int, 8> wgs;
    if (failed(warpgroupsOf(inst, lanes, wgs)))
      return failure();
    for (int g : wgs) {
      if (!wgUncommitted[g].empty() &&
          failed(violation(
              inst, g * kWarpgroup,
              std::to_string(wgUncommitted[g].size()) +
                  " wgmma (nvvm.wgmma.mma_async) not committed to a group "
                  "(nvvm.wgmma.commit.group.sync.aligned) at a wait, which "
                  "does not cover them")))
        return failure();
      while (wgGroups[g].size() > inst.imm) {
        retireWgmma(g, wgGroups[g].front());
        wgGroups[g].pop_front();
      }
    }
    return success();
  }
  default:
    break;
  }
  return fail(inst, -1, "internal error: unhandled instruction");
}
