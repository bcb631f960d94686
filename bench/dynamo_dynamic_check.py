#!/usr/bin/env python3
# ===- bench/dynamo_dynamic_check.py - torch.compile dynamic batch, GPU --=== #
#
# python3 bench/dynamo_dynamic_check.py [--lib build-rt/libfusecc_runtime.so]
#
# On a GPU machine with PyTorch 2.x (dynamo) and the fusecc package (the
# compiler from $FUSECC_BIN or build/bin/fusecc, or a cache filled
# elsewhere): decoder modules compiled with torch.compile(backend=fusecc,
# dynamic=True), and with torch._dynamo.mark_dynamic(x, 0), then called at
# several batches. Checks that fusecc compiled one dynamic-batch bundle
# (format 4) per partition rather than one per batch, that every batch's
# result matches the module in float64 (rel-L2 below 2e-3 in tf32, 1e-5 in
# ieee), that a batch past the bound runs in PyTorch with a warning and is
# still right, and times the compiled model against eager at each batch.
# With dynamic=True (every size symbolic), the sizes other than the batch
# are specialised at dynamo's example values behind dynamo's guards: a
# call at other spatial sizes recompiles and must be right too. Models: two
# decoders and a block in a third-party library's style (diffusers-like
# resnets and upsampler). Prints one line per (model, way, batch); exit 1
# on a failure.
#
# ===--------------------------------------------------------------------=== #

import argparse
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

import torch  # noqa: E402
from torch import nn  # noqa: E402

import fusecc  # noqa: E402
import fusecc.dynamo as fdynamo  # noqa: E402
from fusecc.dynamo import driver  # noqa: E402


def dcgan():
    m = nn.Sequential(nn.ConvTranspose2d(64, 32, 4, 2, 1, bias=False),
                      nn.BatchNorm2d(32), nn.ReLU(),
                      nn.ConvTranspose2d(32, 16, 4, 2, 1, bias=False),
                      nn.BatchNorm2d(16), nn.ReLU(),
                      nn.ConvTranspose2d(16, 3, 4, 2, 1), nn.Tanh())
    for layer in m:
        if isinstance(layer, nn.BatchNorm2d):
            layer.running_mean.uniform_(-0.5, 0.5)
            layer.running_var.uniform_(0.5, 1.5)
    return m, (64, 8, 8)


def vae_block():
    return nn.Sequential(nn.ConvTranspose2d(32, 32, 4, 2, 1),
                         nn.GroupNorm(8, 32), nn.SiLU(),
                         nn.Upsample(scale_factor=2, mode="nearest"),
                         nn.Conv2d(32, 3, 3, padding=1), nn.Sigmoid()), \
        (32, 16, 16)


class ResnetBlock(nn.Module):
    """A residual block written the way third-party libraries (diffusers'
    ResnetBlock2D) write theirs: functional activations, a shortcut
    convolution, an output scale factor."""

    def __init__(self, cin, cout, groups=8, output_scale_factor=1.0):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, cin, eps=1e-6)
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.norm2 = nn.GroupNorm(groups, cout, eps=1e-6)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.conv_shortcut = nn.Conv2d(cin, cout, 1) if cin != cout else None
        self.output_scale_factor = output_scale_factor

    def forward(self, input_tensor):
        hidden = torch.nn.functional.silu(self.norm1(input_tensor))
        hidden = self.conv1(hidden)
        hidden = torch.nn.functional.silu(self.norm2(hidden))
        hidden = self.conv2(hidden)
        if self.conv_shortcut is not None:
            input_tensor = self.conv_shortcut(input_tensor)
        return (input_tensor + hidden) / self.output_scale_factor


class Upsample2D(nn.Module):
    """diffusers' Upsample2D (nearest x2 by interpolate, then a conv)."""

    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, hidden_states):
        hidden_states = torch.nn.functional.interpolate(
            hidden_states, scale_factor=2.0, mode="nearest")
        return self.conv(hidden_states)


class UpDecoderBlock(nn.Module):
    """An up block in a third-party library's style (not built from
    fusecc's examples): resnets, then an upsampler, then a transposed
    convolution head."""

    def __init__(self):
        super().__init__()
        self.resnets = nn.ModuleList([ResnetBlock(32, 32),
                                      ResnetBlock(32, 16)])
        self.upsamplers = nn.ModuleList([Upsample2D(16)])
        self.head = nn.ConvTranspose2d(16, 3, 4, 2, 1)

    def forward(self, hidden_states):
        for resnet in self.resnets:
            hidden_states = resnet(hidden_states)
        for upsampler in self.upsamplers:
            hidden_states = upsampler(hidden_states)
        return torch.tanh(self.head(hidden_states))


def third_party():
    return UpDecoderBlock(), (32, 8, 8)


def rel_l2(out, ref):
    return ((out.double() - ref).norm() / ref.norm()).item()


def timed(fn, x, reps):
    for _ in range(5):
        fn(x)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn(x)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / reps


def call_checked(compiled, ref_model, x):
    """One call of `compiled` on `x`: its rel-L2 against the float64
    reference and the warnings it gave (fallbacks, shape mismatches)."""
    with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = compiled(x)
        expected = ref_model(x.double())
    return rel_l2(y, expected), caught


def run(name, make, way, batches, options, args):
    torch.manual_seed(0)
    model, sample = make()
    model = model.cuda().eval()
    ref_model = __import__("copy").deepcopy(model).double()
    torch._dynamo.reset()
    driver.history.clear()
    if way == "dynamic=True":
        compiled = torch.compile(model, backend=fdynamo.backend,
                                 dynamic=True, options=options)
    else:
        compiled = torch.compile(model, backend=fdynamo.backend,
                                 options=options)
    limit = 2e-3 if options["precision"] == "tf32" else 1e-5
    ok = True
    for i, batch in enumerate(batches):
        x = torch.rand((batch,) + sample, device="cuda")
        if way == "mark_dynamic":
            torch._dynamo.mark_dynamic(x, 0)
        err, caught = call_checked(compiled, ref_model, x)
        fell_back = any("outside the 1.." in str(w.message) for w in caught)
        bundles = [path for report in driver.history
                   for _, path in report["compiled"]]
        versions = {fusecc.bundle.read(p).version for p in bundles}
        line_ok = err < limit
        with torch.no_grad():
            t_fusecc = timed(compiled, x, args.reps)
            t_eager = timed(model, x, args.reps)
        print("%-10s %-13s batch %4d rel-L2 %.2e %s compiles %d bundles %s "
              "%s fusecc %.4f ms eager %.4f ms (%.2fx)%s" % (
                  name, way, batch, err, "PASS" if line_ok else "FAIL",
                  len(driver.history), len(bundles), sorted(versions),
                  t_fusecc, t_eager, t_eager / t_fusecc,
                  " [fell back past the bound]" if fell_back else ""),
              flush=True)
        ok &= line_ok
    # One dynamic-batch bundle serves every batch (dynamo itself
    # specialises batch 1, so a static compilation for it is its doing).
    dynamic = {p for p in bundles if fusecc.bundle.read(p).version == 4}
    specialised = [r.get("specialised") for r in driver.history
                   if r.get("specialised")]
    print("%-10s %-13s %d backend compilations, %d dynamic-batch bundle(s)"
          "%s" % (name, way, len(driver.history), len(dynamic),
                  ", specialised %s" % specialised if specialised else ""))
    for i, report in enumerate(driver.history):
        # What stayed in PyTorch in each compilation, and why.
        if report.get("left_ops") or report.get("fallbacks"):
            reasons = sorted(set(report.get("unsupported", {}).values()))
            print("%-10s %-13s compilation %d left in PyTorch: %s%s%s" % (
                name, way, i, ", ".join(report.get("left_ops", [])),
                "; fallbacks: %s" % report["fallbacks"]
                if report.get("fallbacks") else "",
                "; reasons: %s" % " | ".join(r[:160] for r in reasons[:6])
                if reasons else ""))
    if len(dynamic) != 1:
        print("%-10s %-13s FAIL: expected one dynamic-batch bundle"
              % (name, way))
        ok = False
    if way == "dynamic=True":
        # Other spatial sizes: dynamo's guard on the specialised sizes
        # recompiles (never the old bundle on new sizes).
        before = len(driver.history)
        other = (sample[0],) + tuple(2 * d for d in sample[1:])
        x = torch.rand((5,) + other, device="cuda")
        err, caught = call_checked(compiled, ref_model, x)
        mismatch = any("at these shapes" in str(w.message) for w in caught)
        line_ok = err < limit
        print("%-10s %-13s batch 5 at %s: rel-L2 %.2e %s, %d more backend "
              "compilation(s)%s" % (
                  name, way, list(other), err, "PASS" if line_ok else "FAIL",
                  len(driver.history) - before,
                  " [ran in PyTorch: shape check]" if mismatch else ""))
        ok &= line_ok
    return ok


def main():
    parser = argparse.ArgumentParser(
        description="torch.compile(backend=fusecc) with a dynamic batch on "
        "the GPU")
    parser.add_argument("--lib", help="libfusecc_runtime.so (default: "
                        "fusecc.find_library())")
    parser.add_argument("--precision", default="tf32")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--ways", default="dynamic=True,mark_dynamic",
                        help="comma list of dynamic=True, mark_dynamic")
    args = parser.parse_args()
    if args.lib:
        os.environ["FUSECC_RUNTIME_LIBRARY"] = args.lib
    torch.backends.cudnn.allow_tf32 = args.precision == "tf32"
    options = {"precision": args.precision, "inner": "eager",
               "max_batch": 64}
    ok = True
    batches = (3, 1, 17, 64, 100)  # 100: past the bound
    for name, make in (("dcgan", dcgan), ("vae_block", vae_block),
                       ("thirdparty", third_party)):
        for way in args.ways.split(","):
            try:
                ok &= run(name, make, way, batches, options, args)
            except Exception as error:  # Report and go on.
                print("%-10s %-13s FAIL %s: %s" % (name, way,
                                                  type(error).__name__,
                                                  error))
                ok = False
    print("all pass" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
