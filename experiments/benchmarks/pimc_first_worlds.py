"""What do fewer first worlds do to the advisor's PIMC choices, and to its time? (issue 19 part 5)

``python experiments/benchmarks/pimc_first_worlds.py [--samples 16] [--positions 150] [--tried 4]
[--out FILE]``

The advisor's PIMC players draw ``worlds // 2`` worlds first (8 of the default 16) and more, up to 64, only
when the two best cards are close (adaptive M, :mod:`wiezen_sim.solvers.players`). The script records every
decision of ``advise(HAND, method="pimc", samples=S, n_jobs=1)`` on each hand (stop rule on, as the advisor
plays: every contract on the first 8 deals, then those in contention), draws ``--positions`` of the decisions
with a choice to make (seeded, uniformly, so cheap and costly decisions count as often as the advisor makes
them), and makes each again with fresh solvers: as a reference with 64 worlds and no adaptive step (seeds 100
and 101), with the advisor's first worlds (seeds 0, 1, 2) and with ``--tried`` first worlds (seeds 0, 1, 2),
both up to 64. It counts how often each names the same class of cards as the reference (seed 100), against
how often the two reference seeds agree (the sampling's own noise at 64 worlds), and the CPU seconds.
Writes ``results/benchmarks/pimc_first_worlds.json``. The committed one was run when the advisor drew 8 first
worlds (``worlds // 2``) with ``--tried 4``, which it draws since; to compare the two again, run ``--tried 8``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from experiments.benchmarks.pimc_node_limit import record  # noqa: E402  (an advise run's decisions)
from wiezen_sim.analysis.provenance import git_commit  # noqa: E402
from wiezen_sim.solvers.dd import DDSolver  # noqa: E402
from wiezen_sim.solvers.players import ADAPTIVE_CAP, PIMC_NODE_LIMIT, PIMC_TT_MB, PimcPlayer, card_classes  # noqa: E402

OUT = ROOT / "results" / "benchmarks" / "pimc_first_worlds.json"
HANDS = (  # the README's example, and the suite's slowest PIMC hand (random_second/0, benchmarks README)
    ("S:AKQJ98 H:AK2 D:K3 C:52", "eldest", "7H"),
    ("S:T9765 H:842 D:2 C:A982", "second", "AS"),
)
REFERENCE_WORLDS = 64
SEEDS = (0, 1, 2)
REFERENCE_SEEDS = (100, 101)


def _classes(state: dict) -> dict[int, int]:
    view = state["view"]
    played = sum(1 << c for _, cards, _ in view.history for c in cards)
    return {c: i for i, cls in enumerate(card_classes(view.legal, view.hand, played)) for c in cls}


def choose(state: dict, worlds: int, max_worlds: int | None, seed: int) -> tuple[int, float]:
    """(class of cards chosen, CPU seconds) of one decision made again with these worlds."""
    solver = DDSolver(tt_mb=PIMC_TT_MB, keep_table=True, node_limit=PIMC_NODE_LIMIT)
    player = PimcPlayer(worlds, np.random.default_rng(seed), state["tie_window"], solver=solver,
                        auction=state["auction"], max_worlds=max_worlds)  # fmt: skip
    player.start(state["deal"], state["discards"])
    player.unread = set(state["unread"])
    t0 = time.process_time()
    card = player(state["view"])
    return _classes(state)[card], time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--positions", type=int, default=150, help="decisions drawn per hand")
    parser.add_argument("--tried", type=int, default=4, help="first worlds tried (the advisor's: worlds // 2)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rng = np.random.default_rng(35)
    rows = []
    for hand, seat, turned in HANDS:
        decisions = [state for _, state in record(hand, seat, turned, args.samples, stop=True)
                     if len(set(_classes(state).values())) > 1]  # fmt: skip
        for k in sorted(rng.choice(len(decisions), min(args.positions, len(decisions)), replace=False).tolist()):
            state = decisions[k]
            cap = state["max_worlds"]
            settings = {
                "reference": [(REFERENCE_WORLDS, None, s) for s in REFERENCE_SEEDS],
                "advisor": [(state["worlds"], cap, s) for s in SEEDS],
                "tried": [(args.tried, cap, s) for s in SEEDS],
            }
            row: dict = {"hand": hand, "trick": len(state["view"].history) + 1, "seat": state["view"].seat,
                         "advisor_first_worlds": state["worlds"], "cap": cap}  # fmt: skip
            for name, runs in settings.items():
                made = [choose(state, w, m, s) for w, m, s in runs]
                row[name] = {"choice": [c for c, _ in made], "cpu_s": [t for _, t in made]}
            rows.append(row)
            print(json.dumps(row), flush=True)

    def agree(name: str) -> int:
        return sum(c == r["reference"]["choice"][0] for r in rows for c in r[name]["choice"])

    report = {
        "command": f"python experiments/benchmarks/pimc_first_worlds.py --samples {args.samples} "
        f"--positions {args.positions} --tried {args.tried}",
        "git_commit": git_commit(),
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor(),
            "python": platform.python_version(),
        },
        "hands": [list(h) for h in HANDS],
        "adaptive_cap": ADAPTIVE_CAP,
        "reference_worlds": REFERENCE_WORLDS,
        "tried_first_worlds": args.tried,
        "decisions": len(rows),
        "reference_seeds_agree": f"{sum(r['reference']['choice'][0] == r['reference']['choice'][1] for r in rows)} "
        f"of {len(rows)}",
        "advisor_agrees_with_reference": f"{agree('advisor')} of {len(rows) * len(SEEDS)}",
        "tried_agrees_with_reference": f"{agree('tried')} of {len(rows) * len(SEEDS)}",
        "cpu_s_advisor": sum(sum(r["advisor"]["cpu_s"]) for r in rows),
        "cpu_s_tried": sum(sum(r["tried"]["cpu_s"]) for r in rows),
        "cpu_s_reference": sum(sum(r["reference"]["cpu_s"]) for r in rows),
        "rows": rows,
    }
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}))


if __name__ == "__main__":
    main()
