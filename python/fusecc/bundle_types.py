# ===- fusecc/bundle_types.py - What a fusecc bundle holds --------------=== #
#
# The in-memory form of a bundle (docs/bundle.md) that fusecc/bundle.py's
# reader builds: entries with their arguments, workspaces, launches and
# `zero` steps, constants, and the format's limits. Needs no GPU, no
# runtime library and no PyTorch.
#
# ===--------------------------------------------------------------------=== #

import math

SUPPORTED_VERSIONS = (1, 2, 3, 4)
#: Largest batch bound of a dynamic-batch entry (version 4).
MAX_BATCH = 65535
MAX_RANK = 8
MAX_ENTRY_ITEMS = 4096
MAX_PARAMS = 512
MAX_CONSTANTS = 65536
CONST_ALIGNMENT = 16

#: Element sizes in bytes of every manifest dtype.
DTYPE_SIZES = {"f32": 4, "f16": 2, "bf16": 2, "i32": 4, "i64": 8, "u8": 1}
#: The dtypes versions 1 and 2 allow for args (workspaces: f32 only).
_V2_ARG_DTYPES = ("f32", "f16", "bf16")
WORKSPACE_ROLES = ("scratch", "intermediate", "partials", "prepared")


class BundleError(ValueError):
    """A bundle that does not follow the format, with the line it failed on."""


class Arg:
    """One entry argument: `arg <i> <in|out> <name> <dtype> <rank> <dims>`."""

    def __init__(self, index, name, is_output, dtype, shape, batched=False):
        self.index = index
        self.name = name
        self.is_output = is_output
        self.dtype = dtype
        #: Version 4: dim 0 is the launch-time batch (`b`); `shape`,
        #: `element_count` and `byte_size` are then one sample's (dim 0 1).
        self.batched = batched
        self.shape = tuple(shape)
        self.element_count = math.prod(self.shape)
        self.byte_size = self.element_count * DTYPE_SIZES[dtype]

    def shape_at(self, batch):
        """The shape at `batch` (0: a static entry's, as written)."""
        if self.batched and batch:
            return (batch,) + self.shape[1:]
        return self.shape

    def bytes_at(self, batch):
        """The byte size at `batch` (0: a static entry's)."""
        return self.byte_size * (batch if self.batched and batch else 1)

    def __repr__(self):
        return "Arg(%d, %r, %s, %s, %s)" % (
            self.index, self.name, "out" if self.is_output else "in",
            self.dtype, self.shape)


class Workspace:
    """One workspace: `workspace <k> <dtype> <elements> [<role>]` (the role
    is version 3 only; None before)."""

    def __init__(self, index, dtype, element_count, role, per_sample=False):
        self.index = index
        self.dtype = dtype
        self.element_count = element_count
        self.byte_size = element_count * DTYPE_SIZES[dtype]
        self.role = role
        #: Version 4 (`<elements>*b`): one slice per sample; the counts are
        #: one sample's.
        self.per_sample = per_sample

    def bytes_at(self, batch):
        return self.byte_size * (batch if self.per_sample and batch else 1)

    def __repr__(self):
        return "Workspace(%d, %s, %d, %s)" % (self.index, self.dtype,
                                              self.element_count, self.role)


class Param:
    """One launch parameter: kind 'arg' (entry argument), 'workspace' or
    'const' (module constant, version 3) and its index."""

    def __init__(self, kind, index):
        self.kind = kind
        self.index = index

    def token(self):
        return {"arg": "%d", "workspace": "w%d", "const": "c%d"}[
            self.kind] % self.index

    def __eq__(self, other):
        return isinstance(other, Param) and (self.kind, self.index) == (
            other.kind, other.index)

    def __hash__(self):
        return hash((self.kind, self.index))

    def __repr__(self):
        return self.token()


class Launch:
    """A `launch` step: one kernel on the caller's stream."""

    kind = "launch"

    def __init__(self, kernel, grid, block, smem, params, per_sample=False):
        self.kernel = kernel
        #: Version 4 (grid z `b`): runs once per sample, grid z = the batch
        #: (grid[2] is then 1).
        self.per_sample = per_sample
        self.grid = tuple(grid)
        self.block = tuple(block)
        self.smem = smem
        self.params = list(params)

    def __repr__(self):
        return "Launch(%s, grid=%s, block=%s, smem=%d, params=%s)" % (
            self.kernel, self.grid, self.block, self.smem, self.params)


class Zero:
    """A `zero w<k>` step (version 3): workspace k set to 0 bytes."""

    kind = "zero"

    def __init__(self, workspace):
        self.workspace = workspace

    def __repr__(self):
        return "Zero(w%d)" % self.workspace


class Const:
    """A module constant (version 3): `const <k> <name> <dtype> <rank> <dims>
    offset <o>`; its bytes are data[offset : offset + byte_size]."""

    def __init__(self, index, name, dtype, shape, offset):
        self.index = index
        self.name = name
        self.dtype = dtype
        self.shape = tuple(shape)
        self.element_count = math.prod(self.shape)
        self.byte_size = self.element_count * DTYPE_SIZES[dtype]
        self.offset = offset

    def __repr__(self):
        return "Const(%d, %r, %s, %s, offset=%d)" % (
            self.index, self.name, self.dtype, self.shape, self.offset)


class Entry:
    """One entry point: args, workspaces, steps and graph lines."""

    def __init__(self, index, name, line):
        self.index = index
        self.name = name
        self.line = line
        self.args = []
        self.workspaces = []
        self.steps = []
        self.graph = []
        #: Version 4: the bound of the launch-time batch (0: static shapes).
        self.max_batch = 0
        #: Version 3 (`prepare <P>`): the first P steps are prepare steps
        #: (launches reading only inputs and constants, writing only
        #: `prepared` workspaces).
        self.prepare_count = 0

    @property
    def inputs(self):
        return [a for a in self.args if not a.is_output]

    @property
    def outputs(self):
        return [a for a in self.args if a.is_output]

    @property
    def input_count(self):
        return len(self.inputs)

    @property
    def workspace_count(self):
        return len(self.workspaces)

    @property
    def launches(self):
        return [s for s in self.steps if s.kind == "launch"]

    @property
    def prepared_args(self):
        """The indices of the arguments a prepare step reads (the values
        the `prepared` workspaces are computed from), in order."""
        return sorted({p.index for s in self.steps[:self.prepare_count]
                       for p in s.params if p.kind == "arg"})

    def __repr__(self):
        return "Entry(%r, %d args, %d workspaces, %d steps)" % (
            self.name, len(self.args), len(self.workspaces), len(self.steps))


class Bundle:
    """A parsed bundle: header, constants, entries, PTX and data section."""

    def __init__(self):
        self.path = None
        self.version = None
        self.chip = None
        self.precision = None
        self.constants = []
        self.entries = []
        self.ptx = b""
        self.data = b""

    @property
    def ptx_size(self):
        return len(self.ptx)

    def entry(self, name):
        """The entry called `name`; KeyError naming the entries otherwise."""
        for entry in self.entries:
            if entry.name == name:
                return entry
        raise KeyError("bundle has no entry '%s' (entries: %s)"
                       % (name, ", ".join(e.name for e in self.entries)))

    def constant_bytes(self, index):
        """The raw little-endian bytes of constant `index`."""
        const = self.constants[index]
        return self.data[const.offset:const.offset + const.byte_size]

    def __repr__(self):
        return "Bundle(v%s, %s, %s, %d constants, entries %s)" % (
            self.version, self.chip, self.precision, len(self.constants),
            [e.name for e in self.entries])
