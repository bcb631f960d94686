# ===- python/tests/test_cached_launch.py - The cached call, runtime ---=== #
#
# EntryFunction's cached path against libfusecc_runtime.so on the fake CUDA
# driver (runtime/test/fake_cuda.c): after a call passed the argument
# checks, a call of the same signature makes one foreign call,
# fusecc_module_launch_packed (one argument: the packed record), bound once
# per entry (Module.pointer_launch) and unbound by Module.close(). What the
# cache may never change: a tensor whose shape, dtype, device or strides
# differ from the cached call's gets the first call's error, naming the
# argument, with outputs given or allocated, and launches nothing; a driver
# failure on the cached path is a FuseccError naming the runtime call.
# Needs the runtime built; skipped otherwise (test_runtime.FakeDriverCase).
#
# ===--------------------------------------------------------------------=== #

import os
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import fusecc  # noqa: E402
from fusecc import callcache  # noqa: E402
from fusecc import module as module_lib  # noqa: E402
from samples import FakeDevice, FakeTensor, check_tensors_as_cuda  # noqa: E402,E501
from test_runtime import FakeDriverCase  # noqa: E402


def layer_args():
    return (FakeTensor((64, 1024)), FakeTensor((1024,)),
            FakeTensor((64, 1024)))


#: (what changes, the `layer` arguments (x, weight, result) with it, the
#: error's text): one per property the cached path must not skip.
CHANGES = [
    ("shape", lambda: (FakeTensor((64, 1023)),) + layer_args()[1:],
     "entry 'layer' input 0 'x': expected shape [64, 1024], got [64, 1023]"),
    ("dtype", lambda: layer_args()[:1] + (
        FakeTensor((1024,), dtype="float16"), FakeTensor((64, 1024))),
     "entry 'layer' input 1 'weight': expected dtype float32 (f32), got "
     "float16"),
    ("device", lambda: (FakeTensor((64, 1024),
                                   device=FakeDevice("cuda", 1)),)
     + layer_args()[1:],
     "entry 'layer' input 0 'x': expected a CUDA tensor on cuda:0, got one "
     "on cuda:1"),
    ("strides", lambda: (FakeTensor((64, 1024), strides=(1, 64)),)
     + layer_args()[1:],
     "entry 'layer' input 0 'x': expected a contiguous tensor, got strides "
     "[1, 64] (call .contiguous())"),
    ("output dtype", lambda: layer_args()[:2] + (
        FakeTensor((64, 1024), dtype="int32"),),
     "entry 'layer' output 0 'result': expected dtype float32 (f32), got "
     "int32"),
]


class CachedLaunch(FakeDriverCase):

    def allocate_fakes(self, f):
        """Outputs allocated as FakeTensors (no PyTorch CUDA here); the
        list of those allocated."""
        allocated = []

        def allocate(stream, batch=0):
            allocated.append(FakeTensor((64, 1024)))
            return [allocated[-1]]
        patch = mock.patch.object(f, "_allocate", allocate)
        patch.start()
        self.addCleanup(patch.stop)
        return allocated

    def test_cached_call_is_one_foreign_call(self):
        with self.load() as module:
            f = module.layer
            self.assertIsNotNone(f._launch)
            x, w, y = layer_args()
            f(x, w, out=y, stream=5)
            x2, w2, y2 = layer_args()
            self.reset()
            with mock.patch.object(f, "prepare",
                                   side_effect=AssertionError("checked")), \
                    mock.patch.object(module, "launch_pointers",
                                      side_effect=AssertionError("method")):
                self.assertIs(f(x2, w2, out=y2, stream=5), y2)
            log = self.log()
            self.assertEqual(len(log), 4, log)
            self.assertEqual(log[2].split(" ")[3:], [
                "%#x" % x2.data_ptr(), log[0].split(" ")[-1],
                "%#x" % y2.data_ptr()])

    def test_allocated_outputs_on_the_cached_path(self):
        with self.load() as module:
            f = module.layer
            allocated = self.allocate_fakes(f)
            x, w, _ = layer_args()
            self.assertIs(f(x, w, stream=5), allocated[-1])
            x2, w2, _ = layer_args()
            self.reset()
            with mock.patch.object(f, "prepare",
                                   side_effect=AssertionError("checked")), \
                    mock.patch.object(callcache, "_STREAM_GETTER",
                                      lambda index: 5):
                self.assertIs(f(x2, w2, stream=5), allocated[-1])
                # The dynamo backend's call: PyTorch's current stream.
                self.assertEqual(f.cached_call([x2, w2]), [allocated[-1]])
            log = self.log()
            self.assertEqual(len(log), 8, log)
            self.assertEqual(log[2].split(" ")[-1],
                             "%#x" % allocated[-2].data_ptr())
            self.assertEqual(log[6].split(" ")[-1],
                             "%#x" % allocated[-1].data_ptr())

    def first_call_error(self, args, allocate):
        """The error of `args` on an entry that has cached nothing."""
        with self.load() as module:
            f = module.layer
            if allocate:
                self.allocate_fakes(f)
            with self.assertRaises(fusecc.ArgumentError) as caught:
                if allocate:
                    f(*args[:2], stream=5)
                else:
                    f(*args[:2], out=args[2], stream=5)
            return str(caught.exception)

    def test_changed_tensor_after_caching_gets_the_first_call_error(self):
        for allocate in (False, True):
            for what, make, message in CHANGES:
                if allocate and what == "output dtype":
                    continue
                with self.subTest(what=what, allocate=allocate):
                    args = make()
                    first = self.first_call_error(args, allocate)
                    self.assertEqual(first, message)
                    with self.load() as module:
                        f = module.layer
                        if allocate:
                            self.allocate_fakes(f)
                        x, w, y = layer_args()
                        for _ in range(2):  # The second one is cached.
                            if allocate:
                                f(x, w, stream=5)
                            else:
                                f(x, w, out=y, stream=5)
                        self.assertEqual(len(f._checked) + len(f._guards), 1)
                        self.reset()
                        with self.assertRaises(fusecc.ArgumentError) as got:
                            if allocate:
                                f(*args[:2], stream=5)
                            else:
                                f(*args[:2], out=args[2], stream=5)
                        self.assertEqual(str(got.exception), first)
                        self.assertEqual(self.log(), [])

    def test_driver_failure_on_the_cached_path(self):
        with self.load() as module:
            f = module.layer
            x, w, y = layer_args()
            f(x, w, out=y, stream=5)
            self.reset(launch=0)
            with self.assertRaises(fusecc.FuseccError) as caught:
                f(x, w, out=y, stream=5)
            self.assertEqual(caught.exception.code, "CUDA_ERROR")
            self.assertIn("fusecc_module_launch_packed: CUDA_ERROR",
                          str(caught.exception))
            self.assertNotIsInstance(caught.exception, fusecc.ArgumentError)
            self.assertEqual(self.fake.fake_cuda_live_allocations(), 0)
            # The cache is intact: the next call launches.
            self.reset()
            self.assertIs(f(x, w, out=y, stream=5), y)
            self.assertEqual(len(self.log()), 4)

    def test_stream_no_record_holds_takes_the_pointer_call(self):
        # -1: not a u64 for the record; ctypes passes it to
        # fusecc_module_launch_pointers as the uncached call does.
        with self.load() as module:
            f = module.layer
            x, w, y = layer_args()
            f(x, w, out=y, stream=5)
            self.reset()
            with mock.patch.object(module, "launch_pointers",
                                   wraps=module.launch_pointers) as call:
                self.assertIs(f(x, w, out=y, stream=-1), y)
                self.assertEqual(call.call_count, 1)
            self.assertEqual(len(self.log()), 4)

    def test_close_unbinds_every_entry(self):
        module = self.load()
        x, w, y = layer_args()
        module.layer(x, w, out=y, stream=5)
        module.layer(x, w, out=y, stream=5)
        module.close()
        self.assertEqual([f._launch for f in module], [None, None])
        self.reset()
        with self.assertRaisesRegex(fusecc.FuseccError, "module is closed"):
            module.layer(x, w, out=y, stream=5)
        self.assertEqual(self.log(), [])


@unittest.skipIf(module_lib.torch is None, "needs PyTorch")
class CachedLaunchTorch(FakeDriverCase):
    """PyTorch CPU tensors (their device passed off as cuda:0 to the
    checks), outputs allocated on the CPU: a changed tensor after caching
    is still named."""

    def setUp(self):
        super().setUp()
        patch = check_tensors_as_cuda()
        patch.start()
        self.addCleanup(patch.stop)

    def test_torch_tensors_after_caching(self):
        torch = module_lib.torch
        with self.load() as module:
            f = module.layer
            f._output_specs[0] = [((64, 1024), torch.float32,
                                   torch.device("cpu"))]
            x, w = torch.empty(64, 1024), torch.empty(1024)
            for _ in range(2):
                y = f(x, w, stream=5)
                self.assertEqual(tuple(y.shape), (64, 1024))
            self.reset()
            z = f(x, w, stream=5)
            self.assertIn("%#x" % z.data_ptr(), self.log()[2])
            cases = [
                ((torch.empty(64, 1023), w), "input 0 'x': expected shape"),
                ((x, torch.empty(1024, dtype=torch.float64)),
                 "input 1 'weight': expected dtype float32"),
                ((torch.empty(1024, 64).t(), w),
                 "input 0 'x': expected a contiguous tensor"),
            ]
            self.reset()
            for args, message in cases:
                with self.assertRaisesRegex(fusecc.ArgumentError, message):
                    f(*args, stream=5)
            self.assertEqual(self.log(), [])


if __name__ == "__main__":
    unittest.main()
