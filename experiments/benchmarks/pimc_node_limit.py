"""What does a lower node limit per question do to the advisor's PIMC choices? (issue 19 part 5)

``python experiments/benchmarks/pimc_node_limit.py [--samples 8] [--positions 20] [--limits 1000000 100000]
[--out FILE]``

A PIMC player leaves a world out of a decision when one of its questions needs more than the
solver's node limit (``PIMC_NODE_LIMIT``); the time such a question took is lost. Only decisions with a
question past the lower limit can choose differently under it, so the script looks at the costliest
decisions: it runs ``advise(HAND, method="pimc", samples=S, stop=False, n_jobs=1)`` on each hand (the
players read the auction, as the advisor's do; under the limit in force), keeps the ``--positions``
decisions of each hand that took the most CPU, and makes each again with fresh solvers and seeds 0, 1, 2,
once under each of the two ``--limits`` (a reference, then the one tried). It counts how often the one
tried names the same class of cards as the reference with the same seed, against how often two seeds
agree under the reference (the sampling's own noise), and the CPU seconds of both. Writes
``results/benchmarks/pimc_node_limit.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import time
from pathlib import Path

import numpy as np

from wiezen_sim.analysis.advise.recommend import advise
from wiezen_sim.analysis.provenance import git_commit
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.solvers.players import PIMC_NODE_LIMIT, PIMC_TT_MB, PimcPlayer, card_classes

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "pimc_node_limit.json"
HANDS = (  # the README's example, and a miserie candidate whose PIMC run is slow (benchmarks README)
    ("S:AKQJ98 H:AK2 D:K3 C:52", "eldest", "7H"),
    ("S:7432 H:952 D:632 C:T82", "second", "KH"),
)
SEEDS = (0, 1, 2)


def record(hand: str, seat: str, turned: str, samples: int, stop: bool = False) -> list[tuple[float, dict]]:
    """Every PIMC decision of one advise run (every contract on every deal, or with ``stop`` as the advisor plays:
    only the contracts in contention after the first round), with the CPU seconds it took (the class's
    ``__call__`` wrapped)."""
    decisions: list[tuple[float, dict]] = []
    call = PimcPlayer.__call__

    def spy(self: PimcPlayer, view):  # type: ignore[no-untyped-def]
        state = {"deal": self.deal, "discards": self.discards, "auction": self.auction, "view": view,
                 "unread": set(self.unread), "worlds": self.worlds, "tie_window": self.tie_window,
                 "max_worlds": self.max_worlds}  # fmt: skip
        t0 = time.process_time()
        card = call(self, view)
        decisions.append((time.process_time() - t0, state))
        return card

    PimcPlayer.__call__ = spy  # type: ignore[method-assign]
    try:
        advise(hand, seat=seat, turned=turned, samples=samples, seed=1, n_jobs=1, method="pimc", stop=stop,
               progress=False)  # fmt: skip
    finally:
        PimcPlayer.__call__ = call  # type: ignore[method-assign]
    return decisions


def choose(state: dict, limit: int, seed: int) -> tuple[int, float, int]:
    """(class of cards chosen, CPU seconds, worlds left out) of one decision made again."""
    view = state["view"]
    played = sum(1 << c for _, cards, _ in view.history for c in cards)
    group = {c: i for i, cls in enumerate(card_classes(view.legal, view.hand, played)) for c in cls}
    solver = DDSolver(tt_mb=PIMC_TT_MB, keep_table=True, node_limit=limit)
    player = PimcPlayer(state["worlds"], np.random.default_rng(seed), state["tie_window"], solver=solver,
                        auction=state["auction"], max_worlds=state["max_worlds"])  # fmt: skip
    player.start(state["deal"], state["discards"])
    player.unread = set(state["unread"])
    t0 = time.process_time()
    card = player(view)
    return group[card], time.process_time() - t0, player.worlds_dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--positions", type=int, default=20, help="costliest decisions kept per hand")
    parser.add_argument("--limits", type=int, nargs=2, default=(1_000_000, 100_000), metavar=("REFERENCE", "TRIED"),
                        help="trick nodes a question may take: the reference limit, then the one tried")  # fmt: skip
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rows = []
    for hand, seat, turned in HANDS:
        decisions = sorted(record(hand, seat, turned, args.samples), key=lambda d: -d[0])
        for spent, state in decisions[: args.positions]:
            row: dict = {"hand": hand, "trick": len(state["view"].history) + 1, "recorded_s": spent}
            for name, limit in zip(("reference", "tried"), args.limits, strict=True):
                made = [choose(state, limit, seed) for seed in SEEDS]
                row[name] = {"choice": [m[0] for m in made], "cpu_s": [m[1] for m in made],
                             "worlds_dropped": [m[2] for m in made]}  # fmt: skip
            rows.append(row)
            print(json.dumps(row), flush=True)
    same_seed = sum(a == b for r in rows for a, b in zip(r["reference"]["choice"], r["tried"]["choice"], strict=True))
    seed_pairs = sum(a == b for r in rows for a, b in itertools.combinations(r["reference"]["choice"], 2))
    report = {
        "command": f"python experiments/benchmarks/pimc_node_limit.py --samples {args.samples} "
        f"--positions {args.positions} --limits {args.limits[0]} {args.limits[1]}",
        "git_commit": git_commit(),
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor(),
            "python": platform.python_version(),
        },
        "limit_in_force": PIMC_NODE_LIMIT,
        "limit_reference": args.limits[0],
        "limit_tried": args.limits[1],
        "decisions": len(rows),
        "tried_agrees_same_seed": f"{same_seed} of {len(rows) * len(SEEDS)}",
        "seeds_agree_reference": f"{seed_pairs} of {len(rows) * 3}",
        "cpu_s_reference": sum(sum(r["reference"]["cpu_s"]) for r in rows),
        "cpu_s_tried": sum(sum(r["tried"]["cpu_s"]) for r in rows),
        "worlds_dropped_reference": sum(sum(r["reference"]["worlds_dropped"]) for r in rows),
        "worlds_dropped_tried": sum(sum(r["tried"]["worlds_dropped"]) for r in rows),
        "rows": rows,
    }
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}))


if __name__ == "__main__":
    main()
