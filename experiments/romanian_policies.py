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

Run: ``python experiments/romanian_policies.py [--games 1200] [--jobs 2] [--seed 2026]``;
``--chart-only`` redraws the chart from the committed ``policies.csv`` and ``policies_meta.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from wiezen_sim.analysis.charts import finish_figure
from wiezen_sim.analysis.romanian import simulate

OUT = Path(__file__).resolve().parents[1] / "results" / "romanian"
POLICIES = ("random", "heuristic", "mc", "pimc")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--chart-only", action="store_true", help="play nothing: redraw from the committed CSV")
    args = ap.parse_args()
    if args.chart_only:
        meta = json.loads((OUT / "policies_meta.json").read_text())
        chart(pd.read_csv(OUT / "policies.csv"), meta).savefig(OUT / "policies.png", dpi=110)
        return
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

    chart(table, meta).savefig(OUT / "policies.png", dpi=110)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print(f"{args.games} games in {elapsed:.0f} s")


def chart(table: pd.DataFrame, meta: dict) -> Figure:
    """Mean score per game (t-interval) and the exact-bid rate (Wilson interval) of each policy."""
    fig = Figure(figsize=(10, 3.8))
    axes = fig.subplots(1, 2)
    x = range(len(table))
    colours = [f"C{i}" for i in x]
    score_err = [table.mean_score - table.score_lo, table.score_hi - table.mean_score]
    axes[0].bar(x, table.mean_score, yerr=score_err, capsize=4, color=colours)
    axes[0].set_ylabel("mean score per game (points, 24 deals)")
    axes[0].set_title("score per game", fontsize=10)
    exact_err = [table.exact_rate - table.exact_lo, table.exact_hi - table.exact_rate]
    axes[1].bar(x, table.exact_rate, yerr=exact_err, capsize=4, color=colours)
    axes[1].set_ylabel("P(bid made exactly), per deal")
    axes[1].set_title("exact bids", fontsize=10)
    for ax in axes:
        ax.set_xticks(list(x), table.policy)
        ax.axhline(0, color="black", lw=0.8)
        ax.grid(axis="y", alpha=0.3)
    caption = (
        f"n = {meta['games']} games (every policy in every game, seats rotated; {table.deals.iloc[0]} deals per "
        "policy); error bars: Student-t 95\u00a0% interval over games (score), Wilson 95\u00a0% interval over "
        "deals (exact bids). Policies: random; heuristic (expected-trick bidder, bid-aiming play); mc (Monte Carlo "
        "bidder, 128 sampled deals per bid); pimc (the same bidder, PIMC play with 16 worlds per card). "
        f"Seed {meta['seed']}."
    )
    finish_figure(fig, "Romanian whist, 4 players, 1-8-1, default scoring: four policies in complete games", caption)
    return fig


if __name__ == "__main__":
    main()
