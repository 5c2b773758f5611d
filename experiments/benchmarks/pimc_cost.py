"""PIMC cost: decisions per second for M = 16 and 32 worlds, DD solves per second on the same positions.

``python experiments/benchmarks/pimc_cost.py [--positions N] [--budget MINUTES]``

Positions: the non-forced decisions at tricks 1, 4 and 8 of seeded deals played by
the heuristic players (solo, abondance, miserie; eldest declares). On each position
the PIMC player's decision is timed for M = 16 and 32 (zero-window tests asked are
counted), and the true deal is solved double dummy for the declaring side (full
solve, ``DDSolver.solve``). Then full deals are played by four PIMC players (M = 16)
in 2 processes for a wall-clock budget; ``pimc_deals_per_minute`` is the deals
finished per minute. Every part runs under a deadline: the DD kernel has rare
positions that take minutes, and what did not finish is reported. Writes
``results/benchmarks/pimc_cost.json``; prints ``pimc_deals_per_minute: X`` last.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import time
from pathlib import Path

import numba
import numpy as np

from wiezen_sim.kernel.dd import STAT_SEARCHES
from wiezen_sim.rules.auction import Declaration
from wiezen_sim.rules.dealing import deal_packets, new_deck
from wiezen_sim.rules.play import PlayView, play_hand, setup_play
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.solvers.players import PimcPlayer, card_classes, heuristic_card, pimc_solver, play_deal

OUT = Path(__file__).resolve().parents[2] / "results" / "benchmarks" / "pimc_cost.json"
CONTRACTS = (("solo", None), ("abondance", 0), ("miserie", None))
CHECKPOINTS = (0, 3, 7)  # tricks already played at the sampled decisions


def seeded_deals(n: int, seed: int) -> list[tuple]:
    """``n`` (deal, declaration) pairs: eldest declares solo, abondance in spades or miserie in turn."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        deal = deal_packets(new_deck(rng), int(rng.integers(4)))
        contract, trump = CONTRACTS[i % len(CONTRACTS)]
        out.append((deal, Declaration(contract, ((deal.dealer + 1) % 4,), trump=trump)))
    return out


def positions(n: int, seed: int) -> list[tuple]:
    """(deal, declaration, view) of ``n`` non-forced decisions from heuristic play."""
    out: list[tuple] = []
    for deal, decl in seeded_deals(n, seed):
        views: list[PlayView] = []

        def spy(view: PlayView, views=views) -> int:
            if len(view.history) in CHECKPOINTS and len(card_classes(view.legal, view.hand, 0)) > 1:
                views.append(view)
            return heuristic_card(view)

        play_hand(setup_play([decl], deal, get_rules()), deal.hands, [spy] * 4)
        by_trick: dict[int, PlayView] = {}
        for v in views:
            by_trick.setdefault(len(v.history), v)
        out += [(deal, decl, v) for v in by_trick.values()]
        if len(out) >= n:
            return out[:n]
    return out


def time_position(task: tuple) -> dict:
    """Time one PIMC decision per M and one full DD solve of the true deal (a worker task)."""
    deal, decl, view = task
    row: dict = {"trick": len(view.history) + 1, "contract": decl.contract}
    for m in (16, 32):
        solver = pimc_solver()
        player = PimcPlayer(m, np.random.default_rng(1), solver=solver)
        player.start(deal, None)
        searches = int(solver.stats[STAT_SEARCHES])
        t0 = time.perf_counter()
        player(view)
        row[f"pimc{m}_s"] = time.perf_counter() - t0
        row[f"pimc{m}_tests"] = int(solver.stats[STAT_SEARCHES]) - searches
        row[f"pimc{m}_worlds_dropped"] = player.worlds_dropped
    played = {c for _, cards, _ in view.history for c in cards} | set(view.trick)
    hands = [h & ~sum(1 << c for c in played) for h in deal.hands]
    trump = view.setup.trump  # None: no trump
    objective = "min" if decl.contract == "miserie" else "max"
    t0 = time.perf_counter()
    DDSolver(tt_mb=32).solve(hands, trump, view.leader, view.setup.side, objective, trick=view.trick)
    row["dd_solve_s"] = time.perf_counter() - t0
    return row


def play_one(task: tuple) -> float:
    """Play one deal with four PIMC players (M = 16); returns seconds."""
    deal, decl = task
    t0 = time.perf_counter()
    play_deal(deal, decl, "pimc:16", seed=1)
    return time.perf_counter() - t0


def run(func, tasks: list, seconds: float) -> tuple[list, int]:
    """Run ``func`` over ``tasks`` in 2 processes until done or ``seconds`` pass: (results, unfinished)."""
    deadline = time.perf_counter() + seconds
    results = []
    with mp.get_context("spawn").Pool(2) as pool:
        jobs = [pool.apply_async(func, (t,)) for t in tasks]
        for job in jobs:
            try:
                results.append(job.get(timeout=max(deadline - time.perf_counter(), 0.01)))
            except mp.TimeoutError:
                continue
        pool.terminate()
    return results, len(tasks) - len(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--budget", type=float, default=8.0, help="wall-clock minutes in all (half per part)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    half = 30 * args.budget
    pos = positions(args.positions, args.seed)
    rows, pos_left = run(time_position, pos, half)
    deals = seeded_deals(60, args.seed + 1)
    t0 = time.perf_counter()
    times, deals_left = run(play_one, deals, half)
    wall = time.perf_counter() - t0
    summary: dict = {"positions_timed": len(rows), "positions_unfinished": pos_left}
    for m in (16, 32):
        total = sum(r[f"pimc{m}_s"] for r in rows)
        summary[f"pimc_decisions_per_s_M{m}"] = len(rows) / total if total else None
        summary[f"pimc_tests_per_s_M{m}"] = sum(r[f"pimc{m}_tests"] for r in rows) / total if total else None
        summary[f"pimc_decision_s_median_M{m}"] = float(np.median([r[f"pimc{m}_s"] for r in rows])) if rows else None
    dd_total = sum(r["dd_solve_s"] for r in rows)
    summary["dd_solves_per_s"] = len(rows) / dd_total if dd_total else None
    summary["dd_solve_s_median"] = float(np.median([r["dd_solve_s"] for r in rows])) if rows else None
    summary.update(
        full_deals_finished=len(times),
        full_deals_unfinished=deals_left,
        full_deal_s_median=float(np.median(times)) if times else None,
        pimc_deals_per_minute=60 * len(times) / wall,
        machine={"platform": platform.platform(), "cpus": os.cpu_count(), "processes": 2},
        versions={"python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__},
        per_position=rows,
    )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "per_position"}, indent=2))
    print(f"pimc_deals_per_minute: {summary['pimc_deals_per_minute']:.2f}")


if __name__ == "__main__":
    main()
