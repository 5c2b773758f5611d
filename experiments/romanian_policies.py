"""Experiment: four Romanian whist policies in complete games (RULES.md Part 2).

4 players, the default 1-8-1 sequence (24 deals), default scoring (exact → 5 + bid, else
−|tricks − bid|). Policies (``wiezen_sim.analysis.romanian.make_policy``): ``random`` (random
legal bid and card), ``heuristic`` (expected-trick bidder, bid-aiming play), ``mc``
(Monte Carlo bidder: the advisor with 128 sampled deals per bid, bid-aiming play) and
``pimc`` (the same bidder, PIMC play with 16 worlds per card). Every game seats all
four policies; the seats rotate from game to game and the first dealer is random.

Writes ``results/romanian/policies.csv`` (mean score per game with 95 % t-interval,
exact-bid rate with Wilson interval), ``results/romanian/policies_per_game.csv`` and
``results/romanian/policies.png``.

Run: ``python experiments/romanian_policies.py [--games 1200] [--jobs 2] [--seed 2026]``
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from wiezen_sim.analysis.romanian import simulate

OUT = Path(__file__).resolve().parents[1] / "results" / "romanian"
POLICIES = ("random", "heuristic", "mc", "pimc")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    res = simulate(players=4, games=args.games, sequence="1-8-1", scoring="default", policies=POLICIES,
                   seed=args.seed, bid_samples=128, worlds=16, n_jobs=args.jobs)  # fmt: skip
    elapsed = time.time() - t0
    table = res.table.copy()
    table.insert(1, "players", 4)
    table.insert(2, "sequence", "1-8-1")
    table.insert(3, "scoring", "default")
    table.to_csv(OUT / "policies.csv", index=False, float_format="%.4f")
    res.per_game.to_csv(OUT / "policies_per_game.csv", index=False)
    meta = {
        "games": args.games,
        "seed": args.seed,
        "jobs": args.jobs,
        "seconds": round(elapsed, 1),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    (OUT / "policies_meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    x = range(len(table))
    axes[0].bar(x, table.mean_score, yerr=[table.mean_score - table.score_lo, table.score_hi - table.mean_score],
                capsize=4, color="#4477aa")  # fmt: skip
    axes[0].set_ylabel("mean points per game (24 deals)")
    axes[0].set_title("score per game, 95 % t-interval")
    axes[1].bar(x, table.exact_rate, yerr=[table.exact_rate - table.exact_lo, table.exact_hi - table.exact_rate],
                capsize=4, color="#66aa55")  # fmt: skip
    axes[1].set_ylabel("share of deals bid exactly")
    axes[1].set_title("exact bids, 95 % Wilson interval")
    for ax in axes:
        ax.set_xticks(list(x), table.policy)
        ax.axhline(0, color="black", lw=0.8)
    fig.suptitle(f"Romanian whist, 4 players, 1-8-1, default scoring: {args.games} games, seats rotated")
    fig.tight_layout()
    fig.savefig(OUT / "policies.png", dpi=120)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print(f"{args.games} games in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
