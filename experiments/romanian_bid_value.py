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
expected score ``E_best``), ``bid_value_meta.json`` (the run's parameters),
``results/romanian/bid_value_by_strength_summary.csv`` (per HCP and per number of aces:
the mean expected score of each bid over the group's hands with its Student-t 95 %
interval, ``E<b>_low``/``E<b>_high``) and ``results/romanian/bid_value_by_strength.png``.

Run: ``python experiments/romanian_bid_value.py [--hands 1500] [--samples 3000] [--seed 7]``;
``--chart-only`` redraws the summary and the chart from the committed per-hand CSV.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from wiezen_sim.analysis.charts import LINESTYLES, MARKERS, finish_figure
from wiezen_sim.analysis.romanian import advise
from wiezen_sim.analysis.stats import mean_interval
from wiezen_sim.cards import cards_of, hand_name
from wiezen_sim.rules.romanian import deck_mask

OUT = Path(__file__).resolve().parents[1] / "results" / "romanian"
HCP = {14: 4, 13: 3, 12: 2, 11: 1}
PLAYERS, CARDS = 4, 8
MEASURES = {"hcp": ("high-card points (A 4, K 3, Q 2, J 1)", 15), "aces": ("number of aces", 5)}  # label, min hands


def measures(hand: int) -> dict:
    cards = cards_of(hand)
    lengths = [sum(1 for c in cards if c >> 4 == s) for s in range(4)]
    return {
        "hcp": sum(HCP.get(c & 15, 0) for c in cards),
        "aces": sum(1 for c in cards if c & 15 == 14),
        "longest": max(lengths),
    }


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    """Per measure value: hands, mean best bid, and each ``E<b>`` (and ``E_best``) mean with its t-interval."""
    rows = []
    for measure in MEASURES:
        for value, g in df.groupby(measure):
            row = {"measure": measure, "value": value, "hands": len(g), "mean_best_bid": g.best_bid.mean()}
            for col in ["E_best", *(f"E{b}" for b in range(CARDS + 1))]:
                row[col], row[f"{col}_low"], row[f"{col}_high"] = mean_interval(g[col].to_numpy())
            rows.append(row)
    return pd.DataFrame(rows)


def chart(summary: pd.DataFrame, meta: dict) -> Figure:
    """Mean expected score of each bid by HCP and by aces: one line style per bid, t-interval bands."""
    fig = Figure(figsize=(12, 4.4))
    axes = fig.subplots(1, 2, sharey=True)
    handles, shown = [], []
    for ax, (measure, (name, min_hands)) in zip(axes, MEASURES.items(), strict=True):
        s = summary[(summary.measure == measure) & (summary.hands >= min_hands)]
        shown.append(s.hands)
        for b in range(CARDS + 1):
            if s[f"E{b}"].max() < -4:
                continue  # bids that are never close to worth making
            style = {"color": f"C{b}", "marker": MARKERS[b % len(MARKERS)], "linestyle": LINESTYLES[b % 4]}
            (line,) = ax.plot(s.value, s[f"E{b}"], ms=4, label=str(b), **style)
            ax.fill_between(s.value, s[f"E{b}_low"], s[f"E{b}_high"], color=f"C{b}", alpha=0.15, lw=0)
            if measure == "hcp":
                handles.append(line)
        (best,) = ax.plot(s.value, s.E_best, color="black", lw=2, ls="--", label="each hand's best")
        ax.fill_between(s.value, s.E_best_low, s.E_best_high, color="black", alpha=0.12, lw=0)
        ax.axhline(0, color="grey", lw=0.7)
        ax.set_xlabel(name)
        ax.set_xticks(s.value)
        ax.set_title(f"by {name.split(' (')[0]} (points with ≥ {min_hands} hands)", fontsize=10)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("mean expected score of the bid (points)")
    per_point = pd.concat(shown)
    caption = (
        f"Each point: the mean over the n = {per_point.min()}–{per_point.max()} hands of the group of each hand's "
        f"expected score, itself estimated by Monte Carlo over {meta['samples']} sampled deals (heuristic play, the "
        "player aiming at its bid; default scoring); bands: Student-t 95\u00a0% interval over hands. "
        f"{meta['hands']} random hands, seed {meta['seed']}."
    )
    title = "Romanian whist, 4 players, 8-card deal (no trump), first bidder: expected score of each bid"
    finish_figure(fig, title, caption, [*handles, best], "bid")
    return fig


def redraw(df: pd.DataFrame, meta: dict) -> pd.DataFrame:
    """Write the summary CSV and the chart from the per-hand table; returns the summary."""
    summary = summarise(df)
    summary.to_csv(OUT / "bid_value_by_strength_summary.csv", index=False, float_format="%.3f")
    chart(summary, meta).savefig(OUT / "bid_value_by_strength.png", dpi=110)
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--samples", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--chart-only", action="store_true", help="solve nothing: redraw from the committed CSV")
    args = ap.parse_args()
    if args.chart_only:
        meta = json.loads((OUT / "bid_value_meta.json").read_text())
        redraw(pd.read_csv(OUT / "bid_value_by_strength.csv"), meta)
        return
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
    meta = {"hands": args.hands, "samples": args.samples, "seed": args.seed, "seconds": round(elapsed, 1)}
    (OUT / "bid_value_meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    summary = redraw(df, meta)
    print(summary.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print(f"{args.hands} hands in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
