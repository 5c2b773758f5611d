"""One freshness stamp for the numba caches of every kernel function.

Numba checks a cached function against its own source file only, while the cached
machine code holds every kernel function it calls, from whichever file (numba's
documentation on ``cache=True`` warns of this). After an edit of
``kernel/dd/moves.py``, say, the cached search would go on running the old move
ordering. :func:`install` gives every function defined under ``wiezen_sim/kernel/`` one
stamp, a hash of all the kernel's source files, so that an edit anywhere in the kernel
recompiles all of it.

This hooks into numba's cache locators (``numba.core.caching``, not a public API);
``tests/test_kernel_cache.py`` checks that the hook is in effect, so that a numba
version that changes them fails there instead of serving stale code.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from numba.core import caching

KERNEL_DIR = Path(__file__).resolve().parent


@cache
def kernel_stamp() -> bytes:
    """SHA-256 over the paths and contents of every ``.py`` file under ``wiezen_sim/kernel/``."""
    digest = hashlib.sha256()
    for path in sorted(KERNEL_DIR.rglob("*.py")):
        digest.update(path.relative_to(KERNEL_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.digest()


class KernelCacheLocator(caching._CacheLocator):
    """Numba's own choice of cache directory for a kernel function, with the kernel's stamp."""

    def __init__(self, inner: caching._CacheLocator) -> None:
        self._inner = inner

    @classmethod
    def from_function(cls, py_func, py_file):
        """The locator for a function defined under ``wiezen_sim/kernel/``, else None."""
        if not Path(py_file).resolve().is_relative_to(KERNEL_DIR):
            return None
        for other in caching.CacheImpl._locator_classes:
            if other is not cls:
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner)
        return None

    def get_cache_path(self) -> str:
        return self._inner.get_cache_path()

    def get_source_stamp(self) -> bytes:
        return kernel_stamp()

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()


def install() -> None:
    """Put :class:`KernelCacheLocator` first among numba's cache locators (once)."""
    if KernelCacheLocator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, KernelCacheLocator)
