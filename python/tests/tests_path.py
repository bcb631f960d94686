# Lets the tests import their helpers whether they run from this directory
# (unittest discover -s python/tests) or as a package.
import samples  # noqa: F401
