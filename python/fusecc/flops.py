# ===- fusecc/flops.py - Exact FLOPs of a graph's convolutions ---------=== #
#
# The multiply-adds a convolution line of an entry's graph
# (fusecc.reference's ops `conv_transpose` and `conv`) really does: per
# spatial dim only the (position, tap) pairs inside the output (transposed)
# or the input (forward), as bench/gpu_check.py reports TFLOP/s and its
# roofline floor.
#
# ===--------------------------------------------------------------------=== #


def conv_flops(op, x_shape, w_shape):
    """Exact FLOPs of one transposed conv: 2 * N * Cin * Cout/groups times,
    per spatial dim, the number of (input position, tap) pairs that land
    inside the output."""
    rank = len(x_shape) - 2
    if op.kind == "conv":
        return forward_conv_flops(op, x_shape, w_shape)
    return 2 * transposed_conv_macs(
        x_shape, w_shape, op.int_list("stride", rank, 1),
        op.int_list("padding", rank, 0),
        op.int_list("output_padding", rank, 0),
        op.int_list("dilation", rank, 1))


def transposed_conv_macs(x_shape, w_shape, stride, padding, output_padding,
                         dilation):
    """Multiply-adds of a transposed conv of input `x_shape` and weight
    `w_shape` ([Cin, Cout/groups, *kernel]) with per-dim lists `stride`,
    `padding`, `output_padding` and `dilation`: N * Cin * Cout/groups
    times, per spatial dim, the (input position, tap) pairs that land
    inside the output (bench/random_layers.py counts its layers so)."""
    n, cin = x_shape[0], x_shape[1]
    # Each input channel feeds the w_shape[1] = Cout/groups outputs of its
    # group.
    macs = n * cin * w_shape[1]
    for d in range(len(x_shape) - 2):
        size_in, taps = x_shape[2 + d], w_shape[2 + d]
        size_out = ((size_in - 1) * stride[d] - 2 * padding[d]
                    + dilation[d] * (taps - 1) + output_padding[d] + 1)
        pairs = 0
        for t in range(taps):
            offset = t * dilation[d] - padding[d]
            # Inputs i in [0, size_in) with 0 <= i*stride + offset < size_out.
            low = max(0, -(offset // stride[d]))
            high = min(size_in - 1, (size_out - 1 - offset) // stride[d])
            pairs += max(0, high - low + 1)
        macs *= pairs
    return macs


def forward_conv_flops(op, x_shape, w_shape):
    """Exact FLOPs of one forward conv (weight [Cout, Cin/groups, *k]): 2 *
    N * Cout * Cin/groups times, per spatial dim, the number of (output
    position, tap) pairs that read inside the input."""
    rank = len(x_shape) - 2
    stride = op.int_list("stride", rank, 1)
    begin = op.int_list("padding", rank, 0)
    end = op.int_list("padding_end", rank, 0) \
        if "padding_end" in op.attrs else begin
    dilation = op.int_list("dilation", rank, 1)
    macs = x_shape[0] * w_shape[0] * w_shape[1]
    for d in range(rank):
        size_in, taps = x_shape[2 + d], w_shape[2 + d]
        size_out = ((size_in + begin[d] + end[d] - dilation[d] * (taps - 1)
                     - 1) // stride[d] + 1)
        macs *= sum(1 for o in range(size_out) for t in range(taps)
                    if 0 <= o * stride[d] - begin[d] + t * dilation[d]
                    < size_in)
    return 2 * macs
