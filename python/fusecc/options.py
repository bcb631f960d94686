# ===- fusecc/options.py - The load options, declared once --------------=== #
#
# What fusecc.load (fusecc.module.Module) takes beyond the path, lib and
# device: one table of names, defaults and meanings (in the manner of
# IREE's OptionsBinder), which fusecc.load checks its keywords against and
# the torch.compile backend takes over as options (fusecc.dynamo.driver:
# torch.compile(model, backend="fusecc", options={"frozen_weights": True})
# passes them to every fusecc.load it makes), so a new one is declared here
# alone.
#
# ===--------------------------------------------------------------------=== #

import collections

#: One load option: its keyword, its default and what it does.
Option = collections.namedtuple("Option", "name default help")

#: The load options, in order.
LOAD_OPTIONS = (
    Option("launch_graphs", None,
           "True/False turns the runtime's CUDA-graph launch path on or "
           "off (None: on unless FUSECC_LAUNCH_GRAPHS=0)"),
    Option("reuse_prepared", None,
           "keep the prepare steps' results (weight re-layouts) across "
           "calls while the weights they read are unchanged: each call "
           "checks their identity and PyTorch version (None: yes unless "
           "FUSECC_REUSE_PREPARED=0)"),
    Option("frozen_weights", False,
           "declare the weights constant from the first call on (as "
           "torch._inductor.config.freezing): the prepare steps run once "
           "and no later call runs them or checks the weights, a call "
           "captured into the caller's CUDA graph included; after writing "
           "weights in place call Module.refresh() "
           "(fusecc.dynamo.refresh() for torch.compile)"),
)

#: name -> default.
DEFAULTS = {option.name: option.default for option in LOAD_OPTIONS}


def load_options(options, what="fusecc.load"):
    """`options` (a dict of load options) with the defaults of those it
    leaves out; ValueError naming the unknown ones."""
    unknown = set(options) - set(DEFAULTS)
    if unknown:
        raise ValueError("%s: unknown option(s) %s (known: %s)"
                         % (what, ", ".join(sorted(unknown)),
                            ", ".join(DEFAULTS)))
    bound = dict(DEFAULTS)
    bound.update(options)
    return bound
