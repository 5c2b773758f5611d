"""Fresh random deals against DDS itself (through endplay), inside the test run.

The deals are new each run (the seed is printed in any failure message and can be
fixed with WIEZEN_DD_SEED); 50 deals, ten per strain, random leader and partnership.
Ten deals (two per strain) are full 13-card deals; the others hold 6–10 cards per hand (DDS
solves any equal hand size), which keeps the run short while covering many deals (the
full-deal regression against DDS's own tables is tests/test_dd_list1000.py).
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from wiezen_sim.cards import deal_name
from wiezen_sim.kernel.playout import rng_new, sample_deal
from wiezen_sim.solvers.dd import DDSolver

dds = pytest.importorskip("endplay.dds")
endplay_types = pytest.importorskip("endplay.types")

N_DEALS = 50
FULL = sum(0x7FFC << (16 * s) for s in range(4))


def _random_deal(seed: int, n_cards: int) -> np.ndarray:
    cards = np.random.default_rng(seed).choice([16 * s + r for s in range(4) for r in range(2, 15)], 4 * n_cards,
                                               replace=False)  # fmt: skip
    unseen = sum(1 << int(c) for c in cards)
    return sample_deal(rng_new(seed), np.zeros(4, np.int64), np.full(4, n_cards, np.int64), unseen)


def test_random_deals_match_dds(compiled_kernels):
    seed = int(os.environ.get("WIEZEN_DD_SEED", random.SystemRandom().randrange(2**31)))
    solver = DDSolver(tt_mb=64)
    denoms = [endplay_types.Denom.spades, endplay_types.Denom.hearts, endplay_types.Denom.diamonds,
              endplay_types.Denom.clubs, endplay_types.Denom.nt]  # fmt: skip
    rng = np.random.default_rng(seed)
    for i in range(N_DEALS):
        n_cards = 13 if (i // 5) % 5 == i % 5 else int(rng.integers(6, 11))  # 10 full deals, 2 per strain
        hands = _random_deal(seed * 1000 + i, n_cards)
        strain = i % 5
        trump = strain if strain < 4 else None
        leader = int(rng.integers(4))
        pbn = deal_name([int(h) for h in hands])
        deal = endplay_types.Deal(pbn)
        deal.first = endplay_types.Player(leader)
        deal.trump = denoms[strain]
        want = dds.analyse_start(deal)  # tricks of the declarer (leader's right) and partner
        declarer = (leader + 3) % 4
        side = (1 << declarer) | (1 << ((declarer + 2) % 4))
        got = solver.solve(hands, trump, leader, side)
        assert got == want, f"seed {seed}: {pbn} trump {trump} leader {leader}: ours {got}, DDS {want}"
