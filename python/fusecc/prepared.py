# ===- fusecc/prepared.py - Whether prepared weights are still current --=== #
#
# An entry's prepare steps (docs/bundle.md: the weight re-layouts and
# per-channel vectors that read weights only) run once per weight value
# when the runtime reuses their results (fusecc_module_set_reuse_prepared).
# The runtime sees pointers only, so the Python entry keys the inputs those
# steps read on identity and PyTorch's in-place version: each must be the
# very tensor of the last call (a weak reference: a new tensor may reuse a
# freed one's address) at the same _version (bumped at every in-place
# write: an optimizer step, copy_, load_state_dict). Objects without a
# _version or a weak reference count as changed at every call. A call
# captured into a CUDA graph (torch.cuda.graph, a whole call under
# reduce-overhead) runs the prepare steps at every replay: a replay calls
# neither this key nor the runtime, so it could not see a weight written in
# place between replays (runtime/src/launch_graph.c).
#
# ===--------------------------------------------------------------------=== #

import weakref


class PreparedInputs:
    """The indices (into a call's inputs) of what an entry's prepare steps
    read, and the key of the values seen last."""

    __slots__ = ("indices", "_key")

    def __init__(self, indices):
        self.indices = tuple(indices)
        self._key = None

    def current(self, values):
        """True when `values[i]` for each index is the last call's tensor at
        the same version; otherwise records `values` as the last call's and
        returns False (the caller then invalidates the prepared results)."""
        key = self._key
        if key is not None:
            try:
                for i, ref, version in key:
                    value = values[i]
                    if ref() is not value or value._version != version:
                        break
                else:
                    return True
            except AttributeError:
                pass
        try:
            self._key = [(i, weakref.ref(values[i]), values[i]._version)
                         for i in self.indices]
        except (AttributeError, TypeError):  # No version or weak reference.
            self._key = None
        return False
