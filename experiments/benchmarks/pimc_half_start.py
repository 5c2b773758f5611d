"""Does starting a PIMC decision at half the worlds cost choices? (issue 19 part 5)

``python experiments/benchmarks/pimc_half_start.py [--positions 60]``

On the non-forced decisions of ``pimc_cost.positions`` (tricks 1, 4 and 8 of seeded solo, abondance and
miserie deals played by the heuristic players; uniform worlds), a reference choice is made twice with
512 worlds (seeds 101, 102; positions where the two differ are left out as too close to call). Then the
advisor's players choose with 4 seeds each: starting at 16 worlds and starting at 8, both doubling while
the two best cards are close, up to 64. Counts how many choices name the reference's class of cards.
Writes ``results/benchmarks/pimc_half_start.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from wiezen_sim.analysis.provenance import git_commit
from wiezen_sim.solvers.players import PimcPlayer, card_classes, pimc_solver

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "pimc_half_start.json"
sys.path.insert(0, str(ROOT))
STARTS = {"start_16": 16, "start_8": 8}
CAP = 64
SEEDS = 4


def main() -> None:
    from experiments.benchmarks.pimc_cost import positions

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args()
    rows = []
    for deal, decl, view in positions(args.positions, 7):
        played = sum(1 << c for _, cards, _ in view.history for c in cards)
        group = {c: i for i, cls in enumerate(card_classes(view.legal, view.hand, played)) for c in cls}

        def choose(worlds: int, cap: int | None, seed: int, deal=deal, decl=decl, view=view, group=group) -> int:
            window = 0 if decl.contract == "miserie" else 1
            player = PimcPlayer(worlds, np.random.default_rng(seed), window, solver=pimc_solver(), max_worlds=cap)
            player.start(deal, None)
            return group[player(view)]

        reference = [choose(512, None, s) for s in (101, 102)]
        row = {"trick": len(view.history) + 1, "contract": decl.contract, "reference": reference}
        row.update({name: [choose(m, CAP, s) for s in range(SEEDS)] for name, m in STARTS.items()})
        rows.append(row)
    stable = [r for r in rows if r["reference"][0] == r["reference"][1]]
    agree = {name: sum(c == r["reference"][0] for r in stable for c in r[name]) for name in STARTS}
    report = {"command": f"python experiments/benchmarks/pimc_half_start.py --positions {args.positions}",
              "git_commit": git_commit(), "positions": len(rows), "stable_positions": len(stable),
              "choices": SEEDS * len(stable), "agree_with_reference": agree, "rows": rows}  # fmt: skip
    OUT.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps({k: report[k] for k in ("positions", "stable_positions", "choices", "agree_with_reference")}))


if __name__ == "__main__":
    main()
