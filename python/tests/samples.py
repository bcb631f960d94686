# ===- python/tests/samples.py - Bundles and fake tensors for the tests -=== #
#
# Builds bundle bytes (format versions 1-3) for the reader and runtime
# tests, and FakeTensor: an object with the shape/dtype/device/stride()/
# data_ptr() the argument checks read, so they are tested without PyTorch.
#
# ===--------------------------------------------------------------------=== #

import math
import os
import struct

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(TESTS))
DATA = os.path.join(TESTS, "data")
RUNTIME_DATA = os.path.join(REPO, "runtime", "test", "data")

PTX = (b".version 8.0\n.target sm_90\n.address_size 64\n"
       b"// Test fixture: a PTX header only.\n")


def bundle_bytes(manifest, ptx=PTX, data=None):
    """A bundle from manifest text (lines up to `end`), the PTX and an
    optional data section."""
    blob = manifest.encode() + b"ptx %d\n" % len(ptx) + ptx
    if data is not None:
        blob += b"data %d\n" % len(data) + data
    return blob


def floats(values):
    return struct.pack("<%df" % len(values), *values)


def pad16(blob):
    return blob + b"\0" * (-len(blob) % 16)


# A v3 decoder layer: conv_transpose with constant weight and bias, a
# group norm with constant affine parameters, SiLU. Three workspaces (one of
# each role), a zero step, constants passed to kernels as c<k>.
V3_WEIGHT = [((i * 7) % 11 - 5) / 8.0 for i in range(2 * 3 * 2 * 2)]
V3_BIAS = [0.25, -0.5, 0.125]
V3_GAMMA = [1.5, 0.75, -1.0]
V3_BETA = [0.0, 0.5, -0.25]
V3_DATA = b"".join(pad16(floats(v)) for v in (V3_WEIGHT, V3_BIAS, V3_GAMMA))
V3_DATA += floats(V3_BETA)

V3_MANIFEST = """fusecc-bundle 3
chip sm_90a
precision tf32
const 0 decoder.0.weight f32 4 2 3 2 2 offset 0
const 1 decoder.0.bias f32 1 3 offset 96
const 2 decoder.1.weight f32 1 3 offset 112
const 3 decoder.1.bias f32 1 3 offset 128
entry decoder args 2 workspaces 3 steps 3
arg 0 in x f32 4 1 2 3 3
arg 1 out result f32 4 1 3 6 6
workspace 0 f32 108 intermediate
workspace 1 f32 2 partials
workspace 2 f32 24 scratch
zero w1
launch decoder_k0_p5 grid 1 1 1 block 64 1 1 smem 0 params 5 0 c0 c1 w0 w1
launch decoder_k1_p6 grid 2 1 1 block 64 1 1 smem 1024 params 6 w0 w1 c2 c3 w2 1
graph %1 = const_tensor c0
graph %2 = const_tensor c1
graph %3 = conv_transpose %0 %1 %2 stride=2,2 padding=0,0 output_padding=0,0 dilation=1,1 groups=1
graph %4 = const_tensor c2
graph %5 = const_tensor c3
graph %6 = group_norm %3 %4 %5 groups=1 eps=1e-05
graph %7 = silu %6
graph return %7
end
"""


def v3_bundle():
    return bundle_bytes(V3_MANIFEST, data=V3_DATA)


# A v3 bundle without constants: new dtypes, a zero step only entry.
V3_PLAIN_MANIFEST = """fusecc-bundle 3
chip sm_90
precision ieee
entry scale args 3 workspaces 1 steps 2
arg 0 in x f32 2 4 8
arg 1 in index i64 1 4
arg 2 out result f32 2 4 8
workspace 0 i32 4 partials
zero w0
launch scale_k0_p3 grid 1 1 1 block 32 1 1 smem 0 params 3 0 w0 2
graph %2 = const 2.0
graph %3 = mul %0 %2
graph return %3
end
entry clear args 1 workspaces 1 steps 1
arg 0 out result u8 1 16
workspace 0 u8 16 scratch
zero w0
end
"""


def v3_plain_bundle():
    return bundle_bytes(V3_PLAIN_MANIFEST)


# A v2 bundle whose kernels the fake CUDA driver logs with their pointers
# (a kernel "<name>_p<N>" takes N pointers there).
V2_FAKE_MANIFEST = """fusecc-bundle 2
chip sm_90
precision ieee
entry layer args 3 workspaces 1 launches 2
arg 0 in x f32 2 64 1024
arg 1 in weight f32 1 1024
arg 2 out result f32 2 64 1024
workspace 0 f32 1024
launch layer_relayout_p2 grid 4 1 1 block 256 1 1 smem 0 params 2 1 w0
launch layer_main_p3 grid 256 1 1 block 256 1 1 smem 0 params 3 0 w0 2
graph %2 = const 2.0
graph %3 = mul %1 %2
graph %4 = add %0 %3
graph return %4
end
entry pair args 3 workspaces 0 launches 1
arg 0 in x f32 1 16
arg 1 out a f32 1 16
arg 2 out b f32 1 16
launch pair_k0_p3 grid 1 1 1 block 16 1 1 smem 0 params 3 0 1 2
graph %1 = relu %0
graph %2 = neg %0
graph return %1 %2
end
"""


def v2_fake_bundle():
    return bundle_bytes(V2_FAKE_MANIFEST)


def write(directory, name, blob):
    path = os.path.join(directory, name)
    with open(path, "wb") as f:
        f.write(blob)
    return path


# Fake tensors ---------------------------------------------------------------

class FakeDtype:
    def __init__(self, name):
        self.name = name

    # Equal by name, as torch.dtype singletons are (argument signatures).
    def __eq__(self, other):
        return isinstance(other, FakeDtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __str__(self):
        return "torch." + self.name


class FakeDevice:
    def __init__(self, kind="cuda", index=0):
        self.type = kind
        self.index = index

    # Equal by value, as torch.device is (argument signatures).
    def __eq__(self, other):
        return isinstance(other, FakeDevice) and (
            other.type, other.index) == (self.type, self.index)

    def __hash__(self):
        return hash((self.type, self.index))


SIZES = {"float32": 4, "float16": 2, "bfloat16": 2, "int32": 4, "int64": 8,
         "uint8": 1}


class FakeTensor:
    """Shape, dtype, device, strides and a device address: all the argument
    checks read. Addresses come from a bump allocator (256-byte aligned)."""

    next_address = 0x7F0000000000

    def __init__(self, shape, dtype="float32", device=None, strides=None,
                 ptr=None):
        self.shape = tuple(shape)
        self.dtype = FakeDtype(dtype)
        self.device = device or FakeDevice()
        if strides is None:
            strides, step = [], 1
            for size in reversed(self.shape):
                strides.insert(0, step)
                step *= size
        self._strides = tuple(strides)
        nbytes = math.prod(self.shape) * SIZES[dtype]
        if ptr is None:
            ptr = FakeTensor.next_address
            FakeTensor.next_address += (nbytes + 255) // 256 * 256 + 256
        self._ptr = ptr

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr

    def view_at(self, byte_offset, shape=None):
        """A tensor sharing this one's memory from `byte_offset` on."""
        return FakeTensor(shape or self.shape, self.dtype.name, self.device,
                          ptr=self._ptr + byte_offset)


def check_tensors_as_cuda():
    """A mock patch of the entries' check_tensor (fusecc.entry, where the
    checked path looks it up) that passes every tensor's device off as
    cuda:0 (PyTorch CPU tensors through the checks of CUDA arguments);
    start it and stop it like any patch."""
    from unittest import mock
    from fusecc import entry as entry_lib
    check_tensor = entry_lib.check_tensor

    class OnCuda:
        class device:
            type, index = "cuda", 0

        def __init__(self, tensor):
            self.tensor = tensor

        def __getattr__(self, name):
            return getattr(self.tensor, name)
    return mock.patch.object(
        entry_lib, "check_tensor",
        lambda t, *rest: check_tensor(OnCuda(t), *rest))

