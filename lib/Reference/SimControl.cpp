//===- SimControl.cpp - structured control flow over SIMT masks -----------===//
//
// The threads of a block run in lock step over the list of active
// threads: scf.if splits the list, scf.for runs while any active thread
// has iterations left.
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

LogicalResult BlockExecutor::execRegion(const Region &r,
                                        const std::vector<int> &lanes) {
  for (const Inst &inst : r.insts) {
    stats.instructions += static_cast<int64_t>(lanes.size());
    if (failed(exec(inst, lanes)))
      return failure();
    if (returned)
      return success();
  }
  return success();
}

LogicalResult BlockExecutor::execFor(const Inst &inst,
                                     const std::vector<int> &lanes) {
  const Region &body = *inst.r0;
  const int w = inst.width;
  const bool unsignedCmp = inst.pred != 0;
  size_t nIter = body.args.size() - 1;
  auto less = [&](int64_t a, int64_t b) {
    return unsignedCmp ? zext(a, w) < zext(b, w) : sext(a, w) < sext(b, w);
  };
  std::vector<int> cur;
  for (int l : lanes) {
    int64_t step = sext(I(inst.in[2], l), w);
    if (!unsignedCmp && step <= 0)
      return fail(inst, l, "scf.for with a non-positive step");
    R(body.args[0], l) = R(inst.in[0], l);
    for (size_t i = 0; i < nIter; ++i)
      R(body.args[1 + i], l) = R(inst.in[3 + i], l);
    if (less(I(inst.in[0], l), I(inst.in[1], l)))
      cur.push_back(l);
  }
  std::vector<uint64_t> tmp;
  while (!cur.empty()) {
    if (failed(execRegion(body, cur)))
      return failure();
    if (returned)
      return fail(inst, -1, "gpu.return inside a loop");
    tmp.resize(nIter * cur.size());
    for (size_t i = 0; i < nIter; ++i)
      for (size_t j = 0; j < cur.size(); ++j)
        tmp[i * cur.size() + j] = R(body.yields[i], cur[j]);
    for (size_t i = 0; i < nIter; ++i)
      for (size_t j = 0; j < cur.size(); ++j)
        R(body.args[1 + i], cur[j]) = tmp[i * cur.size() + j];
    size_t n = 0;
    for (int l : cur) {
      int64_t iv = I(body.args[0], l);
      int64_t next = norm(
          static_cast<int64_t>(static_cast<uint64_t>(iv) + R(inst.in[2], l)),
          w);
      // Stop on overflow (the iv would wrap) or at the upper bound.
      bool wrapped = unsignedCmp ? zext(next, w) <= zext(iv, w)
                                 : sext(next, w) <= sext(iv, w);
      R(body.args[0], l) = static_cast<uint64_t>(next);
      if (!wrapped && less(next, I(inst.in[1], l)))
        cur[n++] = l;
    }
    cur.resize(n);
  }
  for (int l : lanes)
    for (size_t i = 0; i < nIter; ++i)
      R(inst.out[i], l) = R(body.args[1 + i], l);
  return success();
}

LogicalResult BlockExecutor::execIf(const Inst &inst,
                                    const std::vector<int> &lanes) {
  std::vector<int> t, e;
  for (int l : lanes)
    ((R(inst.in[0], l) & 1) ? t : e).push_back(l);
  auto run = [&](const Region *r, const std::vector<int> &ls) -> LogicalResult {
    if (ls.empty() || !r)
      return success();
    if (failed(execRegion(*r, ls)))
      return failure();
    if (returned)
      return fail(inst, -1, "gpu.return inside scf.if");
    for (size_t i = 0; i < inst.out.size(); ++i)
      for (int l : ls)
        R(inst.out[i], l) = R(r->yields[i], l);
    return success();
  };
  if (failed(run(inst.r0.get(), t)))
    return failure();
  return run(inst.r1.get(), e);
}
