"""The numba kernels (DESIGN.md layer 3); every kernel function's cache carries one stamp
of all the kernel's sources (:mod:`.cache`)."""

from wiezen_sim.kernel.cache import install

install()
