"""The solver reproduces DDS's own double-dummy tables of list1000.txt (real deals).

TABLE lines give, for strains S H D C NT and declarers N E S W, the tricks of the
declarer's side (partners opposite) with the declarer's left-hand opponent on lead.
The default run checks a fixed subset of 100 deals (every tenth deal, one of the 20
results each, cycling through all strains and declarers); the slow test checks all 20
results of all 1000 deals.
"""

from __future__ import annotations

import pytest

from wiezen_sim.cards import parse_deal
from wiezen_sim.kernel.dd import STAT_TT_PRUNES
from wiezen_sim.solvers.dd import DDSolver

STRAINS = (0, 1, 2, 3, None)  # S H D C NT, TABLE order


def _check(solver, pbn, table, strain_index, declarer):
    hands = parse_deal(pbn)
    side = (1 << declarer) | (1 << ((declarer + 2) % 4))
    got = solver.solve(hands, STRAINS[strain_index], (declarer + 1) % 4, side)
    want = table[4 * strain_index + declarer]
    assert got == want, (pbn, "SHDCN"[strain_index], "NESW"[declarer], got, want)


def test_list1000_subset(compiled_kernels, list1000):
    solver = DDSolver(tt_mb=64)
    subset = list1000[::10]
    assert len(subset) == 100
    for i, (pbn, table) in enumerate(subset):
        _check(solver, pbn, table, i % 5, (i + i // 5) % 4)


def test_list1000_with_a_table_that_fills_up(compiled_kernels, list1000):
    """A table of 1024 entries fills up many times in each deal; pruning it never changes a result."""
    solver = DDSolver(tt_mb=1 / 16)
    assert solver.tt.shape[0] == 1024
    for i, (pbn, table) in enumerate(list1000[5:205:10]):
        _check(solver, pbn, table, i % 5, (i + 2 * i // 5) % 4)
    assert solver.stats[STAT_TT_PRUNES] > 20


@pytest.mark.slow
def test_list1000_all_tables(compiled_kernels, list1000):
    solver = DDSolver()
    for pbn, table in list1000:
        hands = parse_deal(pbn)
        got = solver.table(hands)
        assert [int(x) for x in got.ravel()] == table, pbn


def test_list1000_after_searches_cut_off_by_the_node_limit(compiled_kernels, list1000):
    """Questions past node_limit raise and store nothing wrong: the table they leave behind
    gives DDS's results (each deal: first every target test cut off, then solved in full)."""
    from wiezen_sim.solvers.dd import NodeLimitExceeded

    solver = DDSolver(tt_mb=16, node_limit=200)
    cut = 0
    for i, (pbn, table) in enumerate(list1000[7:207:10]):
        hands = parse_deal(pbn)
        strain, declarer = i % 5, (i + 3 * i // 5) % 4
        side = (1 << declarer) | (1 << ((declarer + 2) % 4))
        for target in range(14):
            try:
                solver.can_force(hands, STRAINS[strain], (declarer + 1) % 4, side, target)
            except NodeLimitExceeded:
                cut += 1
        solver.node_limit = None
        _check(solver, pbn, table, strain, declarer)
        solver.node_limit = 200
    assert cut > 20 and solver.limit_hits == cut
