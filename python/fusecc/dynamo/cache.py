# ===- fusecc/dynamo/cache.py - Compiled bundles, cached on disk --------=== #
#
# A subgraph's bundle is compiled once per (fuse MLIR text, precision,
# chip, extra compiler arguments, compiler identity) and kept in the cache
# directory ($FUSECC_CACHE_DIR, else $XDG_CACHE_HOME/fusecc, else
# ~/.cache/fusecc) as <key>.fcb next to the graph (<key>.mlir); a graph the
# compiler rejects is kept as <key>.err with its message, so that the
# fallback's reason is known without compiling again. Writes are atomic
# (a temporary file renamed into place), so concurrent processes share the
# directory safely. The compiler's identity is the SHA-256 of its binary;
# the tuning files it is given count by their contents, not their path.
#
# A machine without the compiler runs from a cache filled elsewhere: the
# identities are then those of the machine that filled it,
# $FUSECC_COMPILER_ID (its compiler's SHA-256) and $FUSECC_TUNING_DIGEST
# (compiler.tuning_digest of the tuning it compiled with; `none` for
# none). Without the latter the local tuning files (tuning_dir) stand in,
# and keys match only where they are the same files.
#
# ===--------------------------------------------------------------------=== #

import hashlib
import json
import os
import subprocess
import tempfile

#: Bumped when the key's recipe or the files' layout changes.
CACHE_FORMAT = 1
_compiler_ids = {}


def cache_dir():
    """The cache directory (not created)."""
    env = os.environ.get("FUSECC_CACHE_DIR")
    if env:
        return env
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "fusecc")


def compiler_id(cli):
    """SHA-256 of the compiler binary (memoised on path, size, mtime)."""
    st = os.stat(cli)
    memo = (os.path.realpath(cli), st.st_size, st.st_mtime_ns)
    if memo not in _compiler_ids:
        digest = hashlib.sha256()
        with open(cli, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        _compiler_ids[memo] = digest.hexdigest()
    return _compiler_ids[memo]


def cache_key(text, precision, chip, extra_args=(), compiler=""):
    """The cache key of a graph: a hex SHA-256 over everything that decides
    the bundle (the text holds the shapes and dtypes)."""
    record = json.dumps({"format": CACHE_FORMAT, "graph": text,
                         "precision": precision, "chip": chip,
                         "args": list(extra_args), "compiler": compiler},
                        sort_keys=True)
    return hashlib.sha256(record.encode()).hexdigest()


def _write_atomic(path, data, mode="w"):
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    try:
        with os.fdopen(fd, mode) as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class CompileFailed(Exception):
    """The compiler rejected the graph (str: its message)."""


def compiled_bundle(text, precision, chip, extra_args=(), cli=None,
                    directory=None):
    """The path of the bundle of `text` (compiled now unless cached).
    CompileFailed with the compiler's message when it rejects the graph
    (also when that rejection is cached); CompileError (fusecc.compiler)
    when there is no compiler and no cached bundle."""
    from .. import compiler as compiler_layer
    directory = directory or cache_dir()
    try:
        cli = cli or compiler_layer.find_cli()
        ident = compiler_id(cli)
    except compiler_layer.CompileError:
        cli, ident = None, os.environ.get("FUSECC_COMPILER_ID", "")
        if not ident:
            raise
    # The shipped tile choices (fusecc.compiler.tuning_dir) unless the
    # options name a tuning file; the key holds their digest, not the path.
    extra_args = compiler_layer.with_tuning(extra_args)
    key_args = compiler_layer.split_tuning(extra_args)[1]
    digest = compiler_layer.tuning_digest(extra_args)
    filled_with = os.environ.get("FUSECC_TUNING_DIGEST")
    if cli is None and filled_with is not None:
        digest = "" if filled_with in ("", "none") else filled_with
    key = cache_key(text, precision, chip,
                    key_args + (["tuning:" + digest] if digest else []), ident)
    bundle = os.path.join(directory, key + ".fcb")
    error = os.path.join(directory, key + ".err")
    if os.path.exists(bundle):
        return bundle
    if os.path.exists(error):
        with open(error) as f:
            raise CompileFailed(f.read())
    if cli is None:
        # Left for a machine with the compiler (fusecc <key>.mlir -o
        # <key>.fcb with these options fills the cache).
        try:
            os.makedirs(directory, exist_ok=True)
            _write_atomic(os.path.join(directory, key + ".mlir"), text)
        except OSError:
            pass
        raise compiler_layer.CompileError(
            "no cached bundle for this graph (%s.mlir: compiler %s, tuning "
            "%s) and no compiler (set FUSECC_BIN; a cache filled elsewhere "
            "needs that machine's FUSECC_COMPILER_ID and "
            "FUSECC_TUNING_DIGEST)" % (key, ident[:12], digest[:12] or "none"))
    os.makedirs(directory, exist_ok=True)
    source = os.path.join(directory, key + ".mlir")
    _write_atomic(source, text)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".fcb")
    os.close(fd)
    command = [cli, source, "-o", tmp, "--precision=" + precision,
               "--chip=" + chip] + list(extra_args)
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        if result.returncode != 0 or not os.path.getsize(tmp):
            message = (result.stderr + result.stdout).strip() or (
                "exit status %d" % result.returncode)
            if result.returncode < 0:  # A crash: not cached.
                raise CompileFailed("the compiler crashed (signal %d): %s"
                                    % (-result.returncode, message))
            _write_atomic(error, message)
            raise CompileFailed(message)
        os.replace(tmp, bundle)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return bundle
