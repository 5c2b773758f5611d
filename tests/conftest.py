"""Shared fixtures: compile the numba kernels once per session; DDS reference data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).parent / "data"


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--screenshot PATH``: where the browser test saves the finished page (default a temporary folder;
    ``pytest tests/test_web_browser.py --screenshot results/web/advise.png`` refreshes the README's)."""
    parser.addoption("--screenshot", default=None, help="where test_web_browser saves its screenshot")


DDS_DATA = DATA / "dds"


def load_dds_tables(path: Path) -> list[tuple[str, list[int]]]:
    """(PBN deal, 20 TABLE trick counts) per record of a DDS hands file."""
    deals: list[tuple[str, list[int]]] = []
    pbn = None
    for line in path.read_text().splitlines():
        if line.startswith("PBN"):
            pbn = line[line.index('"') + 1 : line.rindex('"')]
        elif line.startswith("TABLE") and pbn is not None:
            deals.append((pbn, [int(x) for x in line.split()[1:21]]))
            pbn = None
    return deals


@pytest.fixture(scope="session")
def compiled_kernels() -> None:
    """Compile (or load from numba's cache) every kernel entry point once."""
    from wiezen_sim.kernel import playout, trick
    from wiezen_sim.solvers.dd import DDSolver

    s = DDSolver(tt_mb=1)
    d = "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J"
    s.solve(d, "NT", 0, (0, 2))
    s.solve(d, "NT", 0, (0, 2), "exact:2")
    s.solve(d, "S", 0, (0,), "min")
    s.card_values(d, "NT", 0, (0, 2))
    s.card_values("N:.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "NT", 0, (0, 2), trick=["AS"])
    s.can_force(d, "H", 0, (0, 1), 2)
    hands = np.array([1 << 14, 1 << 13, 1 << 12, 1 << 11], dtype=np.int64)
    trick.legal_mask(hands[0], 0, 1, 1)
    trick.trick_winner(np.array([14, 13, 12, 11], dtype=np.int64), 4, 0, 4, -1)
    state = playout.rng_new(1)
    playout.playout(hands, 4, 0, -1, 0, 5, playout.POLICY_RANDOM, state)
    playout.playout(hands, 4, 0, -1, 0, 5, playout.POLICY_HEURISTIC, state)
    playout.sample_deal(state, np.zeros(4, dtype=np.int64), np.ones(4, dtype=np.int64), int(hands.sum()))


@pytest.fixture(scope="session")
def list1000() -> list[tuple[str, list[int]]]:
    """The 1000 deals of DDS's list1000.txt with their TABLE lines."""
    deals = load_dds_tables(DDS_DATA / "list1000.txt")
    assert len(deals) == 1000
    return deals
