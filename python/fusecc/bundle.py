# ===- fusecc/bundle.py - Pure-Python reader of fusecc bundles -----------=== #
#
# Reads the bundle format of docs/bundle.md (versions 1 and 2; version 3:
# constants with a data section, workspace roles, `zero` steps; version 4:
# a launch-time batch), with the same strictness as the C runtime's parser:
# every deviation is a BundleError "line N: ..." naming what was expected.
# Needs no GPU, no runtime library and no PyTorch: used for metadata,
# argument validation and the reference evaluator. The classes it builds
# are in fusecc/bundle_types.py.
#
# ===--------------------------------------------------------------------=== #

import math

# The bundle's classes and the format's limits (fusecc/bundle_types.py),
# re-exported: fusecc.bundle's names.
from .bundle_types import (  # noqa: F401
    CONST_ALIGNMENT, DTYPE_SIZES, MAX_BATCH, MAX_CONSTANTS, MAX_ENTRY_ITEMS,
    MAX_PARAMS, MAX_RANK, SUPPORTED_VERSIONS, WORKSPACE_ROLES, Arg, Bundle,
    BundleError, Const, Entry, Launch, Param, Workspace, Zero,
    _V2_ARG_DTYPES)


def _quote(token):
    if token is None:
        return "end of line"
    if len(token) > 40:
        return "'%s...'" % token[:40]
    return "'%s'" % token


class _Parser:
    """Line-by-line parser over the bytes of one bundle."""

    def __init__(self, data):
        self.data = data
        self.offset = 0
        self.line_number = 0
        self.tokens = []
        self.position = 0
        self.version = 0

    def error(self, message):
        return BundleError("line %d: %s" % (self.line_number, message))

    # Lexing -------------------------------------------------------------

    def next_line(self):
        """Reads the next line's tokens; False at the end of the data."""
        if self.offset >= len(self.data):
            return False
        self.line_number += 1
        newline = self.data.find(b"\n", self.offset)
        if newline < 0:
            raise self.error("unexpected end of data: line is not terminated "
                             "by '\\n'")
        raw = self.data[self.offset:newline]
        if not raw:
            raise self.error("empty line")
        for i, c in enumerate(raw):
            if c < 0x20 or c > 0x7E:
                raise self.error("invalid byte 0x%02x at column %d (expected "
                                 "printable ASCII)" % (c, i + 1))
            if c == 0x20 and (i == 0 or i + 1 == len(raw) or raw[i + 1] == 0x20):
                raise self.error("stray space at column %d (tokens are "
                                 "separated by single spaces)" % (i + 1))
        self.text = raw.decode("ascii")
        self.tokens = self.text.split(" ")
        self.position = 0
        self.offset = newline + 1
        return True

    def take(self):
        if self.position >= len(self.tokens):
            return None
        token = self.tokens[self.position]
        self.position += 1
        return token

    def rest(self):
        """The rest of the line as text ('' if none)."""
        rest = " ".join(self.tokens[self.position:])
        self.position = len(self.tokens)
        return rest

    def expect_word(self, word, context):
        token = self.take()
        if token != word:
            raise self.error("expected '%s' %s, got %s"
                             % (word, context, _quote(token)))

    def parse_uint(self, token, digits, what, low, high):
        if (digits is None or not digits or len(digits) > 20
                or not digits.isdigit() or not digits.isascii()
                or (len(digits) > 1 and digits[0] == "0")):
            raise self.error("expected %s (a non-negative decimal integer), "
                             "got %s" % (what, _quote(token)))
        value = int(digits)
        if value >= 1 << 64:
            raise self.error("%s %s overflows" % (what, _quote(token)))
        if not low <= value <= high:
            raise self.error("%s %d is out of range (expected %d to %d)"
                             % (what, value, low, high))
        return value

    def expect_uint(self, what, low=0, high=(1 << 64) - 1):
        token = self.take()
        return self.parse_uint(token, token, what, low, high)

    def expect_line_end(self, context):
        token = self.take()
        if token is not None:
            raise self.error("unexpected %s after %s" % (_quote(token),
                                                         context))

    def expect_dtype(self, allowed, what):
        token = self.take()
        if token not in allowed:
            names = ["'%s'" % d for d in allowed]
            listed = (", ".join(names[:-1]) + " or " + names[-1]
                      if len(names) > 1 else names[0])
            raise self.error("expected %s %s, got %s"
                             % (what, listed, _quote(token)))
        return token

    def expect_shape(self, what):
        rank = self.expect_uint("rank", 0, MAX_RANK)
        return [self.expect_uint("dimension", 1, (1 << 63) - 1)
                for _ in range(rank)]

    # Records ------------------------------------------------------------

    def parse(self):
        bundle = Bundle()
        self.bundle = bundle
        if not self.next_line():
            raise BundleError("line 1: empty input: expected "
                              "'fusecc-bundle <version>'")
        magic = self.take()
        if magic != "fusecc-bundle":
            raise self.error("not a fusecc bundle: expected 'fusecc-bundle "
                             "<version>', got %s" % _quote(magic))
        version = self.expect_uint("format version")
        if version not in SUPPORTED_VERSIONS:
            raise self.error("unsupported bundle format version %d (this "
                             "reader reads versions %s)"
                             % (version, ", ".join(
                                 str(v) for v in SUPPORTED_VERSIONS)))
        self.version = bundle.version = version
        self.expect_line_end("the format version")
        seen = {}
        while True:
            if not self.next_line():
                raise self.error("unexpected end of data: expected %s"
                                 % ("another 'entry' or 'ptx <bytes>'"
                                    if bundle.entries else "an 'entry' record"))
            record = self.take()
            if record in ("chip", "precision"):
                if bundle.entries:
                    raise self.error("'%s' must come before the first entry"
                                     % record)
                if record in seen:
                    raise self.error("duplicate '%s' record (first on line %d)"
                                     % (record, seen[record]))
                if bundle.constants:
                    raise self.error("'%s' must come before the first 'const'"
                                     % record)
                seen[record] = self.line_number
                if record == "chip":
                    self.parse_chip()
                else:
                    self.parse_precision()
            elif record == "const":
                if self.version < 3:
                    raise self.error("'const' record needs bundle format "
                                     "version 3")
                if bundle.entries:
                    raise self.error("'const' must come before the first "
                                     "entry")
                if "chip" not in seen or "precision" not in seen:
                    raise self.error("missing '%s' record before the first "
                                     "'const'" % ("chip" if "chip" not in seen
                                                  else "precision"))
                self.parse_const()
            elif record == "entry":
                if "chip" not in seen or "precision" not in seen:
                    raise self.error("missing '%s' record before the first "
                                     "entry" % ("chip" if "chip" not in seen
                                                else "precision"))
                self.parse_entry()
            elif record == "ptx":
                if not bundle.entries:
                    raise self.error("'ptx' before any 'entry' record (a "
                                     "bundle has one or more entries)")
                self.parse_ptx()
                return bundle
            elif record in ("arg", "workspace", "launch", "zero", "graph",
                            "end"):
                raise self.error("'%s' record outside an entry" % record)
            else:
                raise self.error("unknown record %s" % _quote(record))

    def parse_chip(self):
        token = self.take()
        valid = token is not None and 3 < len(token) < 32 and \
            token.startswith("sm_")
        if valid:
            digits = 0
            for i, c in enumerate(token[3:]):
                if "0" <= c <= "9" and i == digits:
                    digits += 1
                elif not ("a" <= c <= "z" and digits > 0):
                    valid = False
            valid = valid and digits > 0
        if not valid:
            raise self.error("expected a chip like 'sm_90' or 'sm_90a', got %s"
                             % _quote(token))
        self.bundle.chip = token
        self.expect_line_end("the chip")

    def parse_precision(self):
        token = self.take()
        if token not in ("ieee", "tf32", "bf16", "fp16"):
            raise self.error("expected precision 'ieee', 'tf32', 'bf16' or "
                             "'fp16', got %s" % _quote(token))
        self.bundle.precision = token
        self.expect_line_end("the precision")

    def parse_const(self):
        constants = self.bundle.constants
        index = self.expect_uint("const index")
        if index != len(constants):
            raise self.error("expected const index %d, got %d"
                             % (len(constants), index))
        if index >= MAX_CONSTANTS:
            raise self.error("more than %d constants" % MAX_CONSTANTS)
        name = self.take()
        if name is None:
            raise self.error("expected a const name, got end of line")
        dtype = self.expect_dtype(tuple(DTYPE_SIZES), "const dtype")
        shape = self.expect_shape("const")
        self.expect_word("offset", "after the const dimensions")
        offset = self.expect_uint("const offset")
        if offset % CONST_ALIGNMENT:
            raise self.error("const %d '%s' offset %d is not a multiple of %d"
                             % (index, name, offset, CONST_ALIGNMENT))
        self.expect_line_end("the const offset")
        const = Const(index, name, dtype, shape, offset)
        const.line = self.line_number
        constants.append(const)

    def parse_entry(self):
        bundle = self.bundle
        name = self.take()
        if name is None:
            raise self.error("expected an entry name, got end of line")
        if any(e.name == name for e in bundle.entries):
            raise self.error("duplicate entry name %s" % _quote(name))
        entry = Entry(len(bundle.entries), name, self.line_number)
        bundle.entries.append(entry)
        self.expect_word("args", "after the entry name")
        arg_count = self.expect_uint("arg count", 0, MAX_ENTRY_ITEMS)
        workspace_count = 0
        step_word = "steps" if self.version >= 3 else "launches"
        if self.version >= 2:
            self.expect_word("workspaces", "after the arg count")
            workspace_count = self.expect_uint("workspace count", 0,
                                               MAX_ENTRY_ITEMS)
            self.expect_word(step_word, "after the workspace count")
        else:
            if self.position < len(self.tokens) and \
                    self.tokens[self.position] == "workspaces":
                raise self.error("'workspaces' in an entry header needs "
                                 "bundle format version 2")
            self.expect_word(step_word, "after the arg count")
        step_count = self.expect_uint(
            "step count" if self.version >= 3 else "launch count", 0,
            MAX_ENTRY_ITEMS)
        if (self.version >= 3 and self.position < len(self.tokens)
                and self.tokens[self.position] == "prepare"):
            self.take()
            entry.prepare_count = self.expect_uint("prepare step count", 1,
                                                   step_count)
        if (self.version >= 4 and self.position < len(self.tokens)
                and self.tokens[self.position] == "max_batch"):
            self.take()
            entry.max_batch = self.expect_uint("max_batch", 1, MAX_BATCH)
            self.expect_line_end("the max_batch")
        else:
            self.expect_line_end("the step count" if self.version >= 3
                                 else "the launch count")
        start = self.line_number
        step_name = "steps" if self.version >= 3 else "launches"
        while True:
            if not self.next_line():
                raise self.error("unexpected end of data in entry '%s' "
                                 "(started on line %d): expected 'end'"
                                 % (name, start))
            record = self.take()
            if record == "arg":
                if len(entry.args) == arg_count:
                    raise self.error("entry '%s' declares %d args, found "
                                     "another 'arg'" % (name, arg_count))
                self.parse_arg(entry)
            elif record == "workspace":
                if self.version < 2:
                    raise self.error("'workspace' record needs bundle format "
                                     "version 2")
                if len(entry.args) < arg_count:
                    raise self.error("entry '%s' declares %d args but only %d "
                                     "'arg' records precede this 'workspace'"
                                     % (name, arg_count, len(entry.args)))
                if len(entry.workspaces) == workspace_count:
                    raise self.error("entry '%s' declares %d workspaces, found "
                                     "another 'workspace'"
                                     % (name, workspace_count))
                self.parse_workspace(entry)
            elif record in ("launch", "zero"):
                if record == "zero" and self.version < 3:
                    raise self.error("'zero' step needs bundle format "
                                     "version 3")
                if len(entry.args) < arg_count:
                    raise self.error("entry '%s' declares %d args but only %d "
                                     "'arg' records precede this '%s'"
                                     % (name, arg_count, len(entry.args),
                                        record))
                if len(entry.workspaces) < workspace_count:
                    raise self.error("entry '%s' declares %d workspaces but "
                                     "only %d 'workspace' records precede "
                                     "this '%s'" % (name, workspace_count,
                                                    len(entry.workspaces),
                                                    record))
                if len(entry.steps) == step_count:
                    raise self.error("entry '%s' declares %d %s, found "
                                     "another '%s'" % (name, step_count,
                                                       step_name, record))
                if entry.graph:
                    raise self.error("'%s' after a 'graph' line in entry '%s' "
                                     "(%s come first)"
                                     % (record, name, step_name))
                if record == "launch":
                    self.parse_launch(entry, arg_count, workspace_count)
                else:
                    self.parse_zero(entry, workspace_count)
            elif record == "graph":
                if (len(entry.args) < arg_count
                        or len(entry.workspaces) < workspace_count
                        or len(entry.steps) < step_count):
                    raise self.error(
                        "'graph' line in entry '%s' before its %d args, %d "
                        "workspaces and %d %s (found %d, %d and %d)"
                        % (name, arg_count, workspace_count, step_count,
                           step_name, len(entry.args), len(entry.workspaces),
                           len(entry.steps)))
                text = self.rest()
                if not text:
                    raise self.error("expected graph text after 'graph'")
                entry.graph.append(text)
            elif record == "end":
                self.expect_line_end("'end'")
                if len(entry.args) < arg_count:
                    raise self.error("entry '%s' declares %d args but has %d"
                                     % (name, arg_count, len(entry.args)))
                if len(entry.workspaces) < workspace_count:
                    raise self.error("entry '%s' declares %d workspaces but "
                                     "has %d" % (name, workspace_count,
                                                 len(entry.workspaces)))
                if len(entry.steps) < step_count:
                    raise self.error("entry '%s' declares %d %s but has %d"
                                     % (name, step_count, step_name,
                                        len(entry.steps)))
                self.check_prepare_steps(entry)
                return
            elif record in ("entry", "ptx", "chip", "precision", "const"):
                raise self.error("missing 'end' for entry '%s' (started on "
                                 "line %d) before %s"
                                 % (name, start, _quote(record)))
            else:
                raise self.error("unknown record %s in entry '%s'"
                                 % (_quote(record), name))

    def parse_arg(self, entry):
        index = self.expect_uint("arg index")
        if index != len(entry.args):
            raise self.error("expected arg index %d, got %d"
                             % (len(entry.args), index))
        direction = self.take()
        if direction == "in":
            if entry.args and entry.args[-1].is_output:
                raise self.error("input arg %d follows an output arg (inputs "
                                 "come first, then outputs)" % index)
        elif direction != "out":
            raise self.error("expected 'in' or 'out', got %s"
                             % _quote(direction))
        name = self.take()
        if name is None:
            raise self.error("expected an arg name, got end of line")
        dtypes = tuple(DTYPE_SIZES) if self.version >= 3 else _V2_ARG_DTYPES
        dtype = self.expect_dtype(dtypes, "dtype")
        batched = (self.position + 1 < len(self.tokens)
                   and self.tokens[self.position + 1] == "b")
        if batched:
            if not entry.max_batch:
                raise self.error("arg %d '%s' has a batch dim 'b' but entry "
                                 "'%s' has no 'max_batch'"
                                 % (index, name, entry.name))
            rank = self.expect_uint("rank", 1, MAX_RANK)
            self.take()
            shape = [1] + [self.expect_uint("dimension", 1, (1 << 63) - 1)
                           for _ in range(rank - 1)]
        else:
            shape = self.expect_shape("arg")
        self.expect_line_end("the dimensions")
        entry.args.append(Arg(index, name, direction == "out", dtype, shape,
                              batched))

    def parse_workspace(self, entry):
        index = self.expect_uint("workspace index")
        if index != len(entry.workspaces):
            raise self.error("expected workspace index %d, got %d"
                             % (len(entry.workspaces), index))
        dtypes = tuple(DTYPE_SIZES) if self.version >= 3 else ("f32",)
        dtype = self.expect_dtype(dtypes, "workspace dtype")
        token = self.take()
        per_sample = (self.version >= 4 and token is not None
                      and len(token) > 2 and token.endswith("*b"))
        if per_sample and not entry.max_batch:
            raise self.error("workspace %d is per sample ('*b') but entry "
                             "'%s' has no 'max_batch'" % (index, entry.name))
        count = self.parse_uint(token, token[:-2] if per_sample else token,
                                "workspace element count", 1, (1 << 64) - 1)
        role = None
        if self.version >= 3:
            role = self.take()
            if role not in WORKSPACE_ROLES:
                raise self.error("expected workspace role 'scratch', "
                                 "'intermediate', 'partials' or 'prepared', "
                                 "got %s"
                                 % _quote(role))
        self.expect_line_end("the workspace role" if role else
                             "the workspace element count")
        entry.workspaces.append(Workspace(index, dtype, count, role,
                                          per_sample))

    def check_prepare_steps(self, entry):
        """The C runtime's check_prepare_steps: each prepare step is a
        launch, not per sample, of inputs without a batch, constants and
        `prepared` workspaces; each `prepared` workspace is a parameter of
        one."""
        for i, step in enumerate(entry.steps[:entry.prepare_count]):
            if step.kind != "launch":
                raise self.error("entry '%s': prepare step %d is not a launch"
                                 % (entry.name, i))
            if step.per_sample:
                raise self.error("entry '%s': prepare step %d runs per sample"
                                 % (entry.name, i))
            for j, p in enumerate(step.params):
                ok = True
                if p.kind == "arg":
                    a = entry.args[p.index]
                    ok = not a.is_output and not a.batched
                elif p.kind == "workspace":
                    w = entry.workspaces[p.index]
                    ok = w.role == "prepared" and not w.per_sample
                if not ok:
                    raise self.error(
                        "entry '%s': prepare step %d parameter %d must be an "
                        "input without a batch, a constant or a 'prepared' "
                        "workspace" % (entry.name, i, j))
        written = {p.index for s in entry.steps[:entry.prepare_count]
                   for p in s.params if p.kind == "workspace"}
        for w in entry.workspaces:
            if w.role == "prepared" and w.index not in written:
                raise self.error("entry '%s': 'prepared' workspace %d is no "
                                 "parameter of a prepare step"
                                 % (entry.name, w.index))

    def parse_param(self, entry, j, arg_count, workspace_count):
        token = self.take()
        if token is not None and token[:1] in ("w", "c"):
            if token[0] == "w":
                if self.version < 2:
                    raise self.error("workspace param %s is not supported by "
                                     "bundle format version 1" % _quote(token))
                index = self.parse_uint(token, token[1:],
                                        "workspace param index", 0,
                                        (1 << 64) - 1)
                if index >= workspace_count:
                    raise self.error("param %d names workspace %d but entry "
                                     "'%s' has %d workspaces"
                                     % (j, index, entry.name, workspace_count))
                return Param("workspace", index)
            if self.version < 3:
                raise self.error("const param %s needs bundle format "
                                 "version 3" % _quote(token))
            index = self.parse_uint(token, token[1:], "const param index", 0,
                                    (1 << 64) - 1)
            count = len(self.bundle.constants)
            if index >= count:
                raise self.error("param %d names const %d but the bundle has "
                                 "%d constants" % (j, index, count))
            return Param("const", index)
        index = self.parse_uint(token, token, "param arg index", 0,
                                (1 << 64) - 1)
        if index >= arg_count:
            raise self.error("param %d names arg %d but entry '%s' has %d args"
                             % (j, index, entry.name, arg_count))
        return Param("arg", index)

    def parse_launch(self, entry, arg_count, workspace_count):
        kernel = self.take()
        if kernel is None:
            raise self.error("expected a kernel name, got end of line")
        self.expect_word("grid", "after the kernel name")
        grid = [self.expect_uint("grid size", 1, (1 << 32) - 1)
                for _ in range(2)]
        per_sample = (self.position < len(self.tokens)
                      and self.tokens[self.position] == "b")
        if per_sample:
            if not entry.max_batch:
                raise self.error("grid z 'b' but entry '%s' has no "
                                 "'max_batch'" % entry.name)
            self.take()
            grid.append(1)
        else:
            grid.append(self.expect_uint("grid size", 1, (1 << 32) - 1))
        self.expect_word("block", "after the grid size")
        block = [self.expect_uint("block size", 1, 1024) for _ in range(3)]
        if math.prod(block) > 1024:
            raise self.error("block of %d threads exceeds 1024"
                             % math.prod(block))
        self.expect_word("smem", "after the block size")
        smem = self.expect_uint("smem bytes", 0, (1 << 32) - 1)
        self.expect_word("params", "after the smem bytes")
        count = self.expect_uint("param count", 0, MAX_PARAMS)
        params = [self.parse_param(entry, j, arg_count, workspace_count)
                  for j in range(count)]
        self.expect_line_end("the params")
        entry.steps.append(Launch(kernel, grid, block, smem, params,
                                  per_sample))

    def parse_zero(self, entry, workspace_count):
        token = self.take()
        if token is None or not token.startswith("w"):
            raise self.error("expected a workspace like 'w0' after 'zero', "
                             "got %s" % _quote(token))
        index = self.parse_uint(token, token[1:], "workspace index", 0,
                                (1 << 64) - 1)
        if index >= workspace_count:
            raise self.error("'zero' names workspace %d but entry '%s' has %d "
                             "workspaces" % (index, entry.name,
                                             workspace_count))
        self.expect_line_end("the workspace")
        entry.steps.append(Zero(index))

    def parse_ptx(self):
        size = self.expect_uint("PTX byte count", 1)
        self.expect_line_end("the PTX byte count")
        remaining = len(self.data) - self.offset
        if size > remaining:
            raise self.error("'ptx' declares %d bytes but only %d remain"
                             % (size, remaining))
        ptx = self.data[self.offset:self.offset + size]
        if b"\0" in ptx:
            raise self.error("PTX contains a NUL byte at offset %d"
                             % ptx.index(b"\0"))
        self.bundle.ptx = ptx
        self.offset += size
        trailing = len(self.data) - self.offset
        constants = self.bundle.constants
        if self.version < 3 or not trailing:
            if trailing:
                raise self.error("%d bytes of trailing data after the %d-byte "
                                 "PTX" % (trailing, size))
            if constants:
                raise self.error("%d constants but no 'data' section after "
                                 "the PTX" % len(constants))
            return
        self.parse_data()

    def parse_data(self):
        # The data line follows the PTX blob; its line number continues
        # from the `ptx` line plus the PTX's own lines.
        self.line_number += self.bundle.ptx.count(b"\n")
        if not self.next_line():  # pragma: no cover - trailing checked above
            raise self.error("expected 'data <bytes>'")
        self.expect_word("data", "after the PTX")
        size = self.expect_uint("data byte count")
        self.expect_line_end("the data byte count")
        remaining = len(self.data) - self.offset
        if size != remaining:
            raise self.error("'data' declares %d bytes but %d remain"
                             % (size, remaining))
        self.bundle.data = self.data[self.offset:]
        for const in self.bundle.constants:
            if const.offset + const.byte_size > size:
                raise BundleError(
                    "line %d: const %d '%s' (%d bytes at offset %d) lies "
                    "outside the %d-byte data section"
                    % (const.line, const.index, const.name, const.byte_size,
                       const.offset, size))


def parse(data, path=None):
    """Parses the bytes of a bundle; BundleError (prefixed with `path` when
    given) if they do not follow the format."""
    if isinstance(data, str):
        data = data.encode()
    try:
        bundle = _Parser(bytes(data)).parse()
    except BundleError as error:
        if path is not None:
            raise BundleError("%s: %s" % (path, error)) from None
        raise
    bundle.path = path
    return bundle


def read(path):
    """Reads and parses the bundle file at `path`."""
    path = str(path)
    with open(path, "rb") as f:
        data = f.read()
    return parse(data, path)
