# ===- fusecc/reference.py - Bundle graph lines as a PyTorch function ---=== #
#
# Rebuilds an entry's op graph from its `graph` lines (docs/bundle.md, plus
# version 3's `const_tensor`, `group_norm`, pools, reductions, `reshape`,
# `batch_norm`, `instance_norm` and `log_softmax`)
# as a callable on PyTorch
# tensors: graph(*inputs) -> output(s), in whatever dtype the inputs have
# (float64 for a reference, float32 for eager/torch.compile baselines).
#
# A line may define several values (`%k %k+1 %k+2 = batch_norm ...
# training=1`: the output and the updated running statistics, as PyTorch
# leaves them) and `return` may list several; a call then returns a tuple.
#
# Every op is one row of OPS (fusecc/reference_ops.py): its operand count,
# its attributes, how they are converted once at parse time (so calls do no
# parsing and torch.compile traces nothing but tensor code) and the PyTorch
# function that evaluates it. An op not in the table is a GraphError naming
# it.
# Parsing needs no PyTorch; evaluating does.
#
# ===--------------------------------------------------------------------=== #

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # Parsing and validation work without PyTorch.
    torch = None
    F = None

from .reference_ops import (  # noqa: F401 (OPS, f32: the module's names)
    CONV_OPS, OPS, GraphError, _tensor, f32, validate)


def value_id(token, line):
    try:
        if not token.startswith("%"):
            raise ValueError(token)
        return int(token[1:])
    except ValueError:
        raise GraphError("bad value name '%s' in '%s'" % (token, line)) \
            from None


class Op:
    """One parsed graph line `%k = <op> <operands> <literal> <key=value...>`,
    or `%k %k+1 ... = <op> ...` for an op with several results (`results`
    in order; `result` is the first). `literals` holds bare tokens (the
    value of `const`, the `c<j>` of `const_tensor`); `params` the
    attributes converted by the op's row."""

    def __init__(self, line):
        tokens = line.split(" ")
        equals = tokens.index("=") if "=" in tokens else -1
        if equals < 1 or equals + 1 >= len(tokens):
            raise GraphError("cannot parse graph line '%s'" % line)
        self.line = line
        self.results = [value_id(t, line) for t in tokens[:equals]]
        if len(set(self.results)) != len(self.results):
            raise GraphError("a value defined twice in '%s'" % line)
        self.result = self.results[0]
        self.kind = tokens[equals + 1]
        self.operands = []
        self.literals = []
        self.attrs = {}
        self.params = {}
        for token in tokens[equals + 2:]:
            if token.startswith("%"):
                if self.attrs or self.literals:
                    raise GraphError("operand after attributes in '%s'" % line)
                self.operands.append(value_id(token, line))
            elif "=" in token:
                key, _, value = token.partition("=")
                if key in self.attrs:
                    raise GraphError("attribute '%s' given twice in '%s'"
                                     % (key, line))
                self.attrs[key] = value
            elif not self.attrs:
                self.literals.append(token)
            else:
                raise GraphError("unexpected token '%s' in '%s'"
                                 % (token, line))

    def int_list(self, key, rank, default):
        """The comma-separated integers of attribute `key`, `rank` of them."""
        text = self.attrs.get(key)
        if text is None:
            return [default] * rank
        try:
            values = [int(v) for v in text.split(",")]
        except ValueError:
            raise GraphError("%s=%s is not a list of integers in '%s'"
                             % (key, text, self.line)) from None
        if len(values) != rank:
            raise GraphError("%s has %d values, expected %d in '%s'"
                             % (key, len(values), rank, self.line))
        return values



class Graph:
    """An entry's graph lines as a callable: graph(*inputs) -> outputs.

    Works in whatever dtype the inputs have. Scalar constants are Python
    floats rounded to float32, so they take the inputs' dtype; tensor
    constants (`const_tensor c<j>`, from `constants`, a list of tensors such
    as constant_tensors(bundle)) are converted to the first input's device,
    floating ones also to its dtype: bind() does that once."""

    def __init__(self, lines, input_count, constants=None):
        self.lines = list(lines)
        self.input_count = input_count
        self.constants = None if constants is None else list(constants)
        self.ops = []
        self.returns = None
        defined = set(range(input_count))
        for line in self.lines:
            if line.startswith("return"):
                tokens = line.split(" ")[1:]
                if not tokens or line.split(" ")[0] != "return":
                    raise GraphError("'return' without values")
                self.returns = [value_id(t, line) for t in tokens]
                for v in self.returns:
                    if v not in defined:
                        raise GraphError("return of undefined %%%d" % v)
                continue
            op = Op(line)
            validate(op)
            if op.kind == "const_tensor" and self.constants is not None and \
                    op.params["index"] >= len(self.constants):
                raise GraphError("'%s' names constant c%d but there are %d "
                                 "constants" % (line, op.params["index"],
                                                len(self.constants)))
            for v in op.operands:
                if v not in defined:
                    raise GraphError("use of undefined %%%d in '%s'" % (v, line))
            for v in op.results:
                if v in defined:
                    raise GraphError("%%%d defined twice" % v)
                defined.add(v)
            self.ops.append(op)
        if self.returns is None:
            raise GraphError("graph has no 'return' line")

    def bind(self, dtype, device):
        """A copy whose constants are already on `device` (floating ones in
        `dtype`), so calls on such inputs convert nothing."""
        graph = Graph.__new__(Graph)
        graph.__dict__.update(self.__dict__)
        if self.constants is not None:
            graph.constants = [
                c.to(device=device, dtype=dtype if c.is_floating_point()
                     else c.dtype) for c in self.constants]
        return graph

    def roles(self):
        """Maps input value ids that feed a convolution as weight or bias
        to that op (both are initialised from the weight's fan)."""
        roles = {}
        for op in self.ops:
            if op.kind in CONV_OPS:
                for operand in op.operands[1:]:
                    roles.setdefault(operand, op)
        return roles

    def variance_inputs(self):
        """Value ids that feed a batch_norm as its running variance. A
        checker draws them from fusecc.inputs.RUNNING_VARIANCE_RANGE: a
        negative variance makes its channels NaN, and through a following
        convolution the whole output, which would compare NaN with NaN and
        check nothing."""
        return {op.operands[2] for op in self.ops
                if op.kind == "batch_norm" and len(op.operands) > 2}

    def conv_ops(self):
        return [op for op in self.ops if op.kind in CONV_OPS]

    def const_sources(self):
        """Maps value ids defined by `const_tensor` to their constant index."""
        return {op.result: op.params["index"] for op in self.ops
                if op.kind == "const_tensor"}

    def evaluate(self, inputs, shapes=None, conv_operand=None, conv=None):
        """Runs the graph. When `shapes` is a dict, records the shape of
        every tensor value in it (value id -> tuple). When `conv_operand`
        is given, it maps the input and weight operands of every
        convolution (conv_transpose and forward conv: CONV_OPS) that are
        results of other ops (not graph inputs or constants, which a caller
        adjusts itself, e.g. rounds to TF32). When `conv` is given, every
        convolution is computed as `conv(evaluate, operands)`, where
        `evaluate(operands)` is the op's own evaluation (a model of a
        kernel's arithmetic, e.g. split operands)."""
        if torch is None:
            raise ImportError("evaluating a graph needs PyTorch")
        values = dict(enumerate(inputs))
        env = (inputs[0] if inputs else None, self.constants)
        computed = None
        if conv_operand is not None:
            sources = self.const_sources()
            computed = {v for op in self.ops for v in op.results
                        if v not in sources}
        for op in self.ops:
            a = [values[i] for i in op.operands]
            if computed is not None and op.kind in CONV_OPS:
                a = [conv_operand(v) if k < 2 and op.operands[k] in computed
                     else v for k, v in enumerate(a)]
            if conv is not None and op.kind in CONV_OPS:
                value = conv(lambda operands, op=op: op.evaluate(op, operands,
                                                                 env), a)
            else:
                value = op.evaluate(op, a, env)
            if len(op.results) == 1:
                values[op.result] = value
            else:
                values.update(zip(op.results, value))
        if shapes is not None:
            for key, value in values.items():
                if hasattr(value, "shape"):
                    shapes[key] = tuple(value.shape)
        outputs = tuple(_tensor(env, values[v]) for v in self.returns)
        return outputs[0] if len(outputs) == 1 else outputs

    def __call__(self, *inputs):
        return self.evaluate(inputs)


def constant_tensor(bundle, index):
    """Constant `index` of a parsed bundle as a CPU tensor (a copy of its
    bytes in the data section)."""
    if torch is None:
        raise ImportError("constant tensors need PyTorch")
    from .module import torch_dtype
    const = bundle.constants[index]
    data = bytearray(bundle.constant_bytes(index))
    return torch.frombuffer(data, dtype=torch_dtype(const.dtype)).reshape(
        const.shape)


def constant_tensors(bundle):
    """Every constant of a parsed bundle as CPU tensors, in index order."""
    return [constant_tensor(bundle, k) for k in range(len(bundle.constants))]


def entry_graph(bundle, entry, device=None, dtype=None):
    """The Graph of `entry` (a fusecc.bundle.Entry) with the bundle's
    constants (without PyTorch: parsed only, no constants); bound to
    `dtype`/`device` when both are given."""
    constants = constant_tensors(bundle) if bundle.constants and \
        torch is not None else None
    graph = Graph(entry.graph, entry.input_count, constants)
    if device is not None and dtype is not None:
        graph = graph.bind(dtype, device)
    return graph
