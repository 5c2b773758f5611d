"""The numba caches of the kernel go stale together: every kernel function carries the
stamp of all the kernel's sources (wiezen_sim/kernel/cache.py)."""

from __future__ import annotations

from wiezen_sim.kernel.cache import KernelCacheLocator, kernel_stamp
from wiezen_sim.kernel.dd import dd_solve
from wiezen_sim.kernel.dd.search import _search
from wiezen_sim.kernel.playout import playout


def test_kernel_functions_carry_the_kernel_stamp():
    """Numba's own cache locator would stamp each function with its own file only; the
    cached search then keeps the code of an edited moves.py or table.py."""
    for dispatcher in (_search, dd_solve, playout):
        locator = dispatcher._cache._impl.locator
        assert isinstance(locator, KernelCacheLocator)
        assert locator.get_source_stamp() == kernel_stamp()
        assert dispatcher._cache._cache_file._source_stamp == kernel_stamp()


def test_the_stamp_covers_every_kernel_file(tmp_path, monkeypatch):
    """A change of any kernel file (here a weight of the move ordering) changes the stamp."""
    import wiezen_sim.kernel.cache as kc

    src = kc.KERNEL_DIR
    copy = tmp_path / "kernel"
    for path in src.rglob("*.py"):
        (copy / path.relative_to(src)).parent.mkdir(parents=True, exist_ok=True)
        (copy / path.relative_to(src)).write_bytes(path.read_bytes())
    monkeypatch.setattr(kc, "KERNEL_DIR", copy)
    kc.kernel_stamp.cache_clear()
    try:
        same = kc.kernel_stamp()
        moves = copy / "dd" / "moves.py"
        moves.write_text(moves.read_text().replace("TT_LEAD = 1000", "TT_LEAD = 999"))
        kc.kernel_stamp.cache_clear()
        changed = kc.kernel_stamp()
    finally:
        monkeypatch.undo()
        kc.kernel_stamp.cache_clear()
    assert same == kernel_stamp()
    assert changed != same
