"""Experiment: expected score of each bid against simple hand-strength measures (RULES.md Part 2).

8-card deals with 4 players (the whole 32-card deck is dealt, so there is no trump),
the first bidder (seat 0, left of the dealer, no bids before it, never restricted by
the dealer's hook). For ``--hands`` random hands the advisor (``wiezen_sim.analysis.romanian.advise``,
model ``aim``: each candidate bid played aiming at it, common random numbers) estimates
the expected score (default scoring) of every bid 0..8 from ``--samples`` sampled deals.
Strength measures: high-card points (A 4, K 3, Q 2, J 1), number of aces, and the
longest suit.

Writes ``results/romanian/bid_value_by_strength.csv`` (one row per hand: measures,
``E0..E8`` expected scores and ``p0..p8`` exact-hit probabilities, the best bid and its
expected score ``E_best``),
``results/romanian/bid_value_by_strength_summary.csv`` (mean expected score of each bid
by HCP and by aces) and ``results/romanian/bid_value_by_strength.png``.

Run: ``python experiments/romanian_bid_value.py [--hands 1500] [--samples 3000] [--seed 7]``
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from wiezen_sim.analysis.romanian import advise
from wiezen_sim.cards import cards_of, hand_name
from wiezen_sim.rules.romanian import deck_mask

OUT = Path(__file__).resolve().parents[1] / "results" / "romanian"
HCP = {14: 4, 13: 3, 12: 2, 11: 1}
PLAYERS, CARDS = 4, 8


def measures(hand: int) -> dict:
    cards = cards_of(hand)
    lengths = [sum(1 for c in cards if c >> 4 == s) for s in range(4)]
    return {
        "hcp": sum(HCP.get(c & 15, 0) for c in cards),
        "aces": sum(1 for c in cards if c & 15 == 14),
        "longest": max(lengths),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--samples", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    deck = np.array(cards_of(deck_mask(PLAYERS)))
    rows = []
    t0 = time.time()
    for i in range(args.hands):
        hand = int(sum(1 << int(c) for c in rng.choice(deck, size=CARDS, replace=False)))
        adv = advise(hand, PLAYERS, 0, None, samples=args.samples, seed=args.seed * 100_000 + i)
        row = {"hand": hand_name(hand), **measures(hand), "best_bid": adv.recommendation.bid}
        row.update({f"E{o.bid}": o.expected_score for o in adv.options})
        row.update({f"p{o.bid}": o.p_exact for o in adv.options})
        rows.append(row)
    elapsed = time.time() - t0
    df = pd.DataFrame(rows)
    df["E_best"] = df[[f"E{b}" for b in range(CARDS + 1)]].max(axis=1)  # each hand bidding its own best bid
    df.to_csv(OUT / "bid_value_by_strength.csv", index=False, float_format="%.4f")

    e_cols = [f"E{b}" for b in range(CARDS + 1)]
    summaries = []
    for measure in ("hcp", "aces"):
        g = df.groupby(measure)
        s = g[e_cols].mean()
        s.insert(0, "hands", g.size())
        s.insert(1, "mean_best_bid", g["best_bid"].mean())
        s.insert(2, "E_best", g["E_best"].mean())
        s = s.reset_index().rename(columns={measure: "value"})
        s.insert(0, "measure", measure)
        summaries.append(s)
    summary = pd.concat(summaries, ignore_index=True)
    summary.to_csv(OUT / "bid_value_by_strength_summary.csv", index=False, float_format="%.3f")

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    cmap = plt.get_cmap("viridis")
    for ax, measure, min_hands in ((axes[0], "hcp", 15), (axes[1], "aces", 5)):
        s = summary[(summary.measure == measure) & (summary.hands >= min_hands)]
        for b in range(CARDS + 1):
            if s[f"E{b}"].max() < -4:
                continue  # bids that are never close to worth making
            ax.plot(s.value, s[f"E{b}"], marker="o", ms=3, color=cmap(b / CARDS), label=f"bid {b}")
        ax.plot(s.value, s.E_best, color="black", lw=2, ls="--", label="each hand's best bid")
        ax.axhline(0, color="grey", lw=0.7)
        ax.set_xlabel({"hcp": "high-card points (A 4, K 3, Q 2, J 1)", "aces": "number of aces"}[measure])
        ax.set_title(f"mean expected score by {measure} (groups with ≥ {min_hands} hands)")
    axes[0].set_ylabel("expected score of the bid (points)")
    axes[1].legend(loc="lower right", fontsize=8, ncol=2)
    fig.suptitle(
        f"Romanian whist, 4 players, 8-card deal (no trump), first bidder: {args.hands} random hands, "
        f"{args.samples} sampled deals each"
    )
    fig.tight_layout()
    fig.savefig(OUT / "bid_value_by_strength.png", dpi=120)
    print(summary.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print(f"{args.hands} hands in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
