"""Success rates under double dummy, PIMC and heuristic play, per contract (issue 5).

A fixed seeded set of deals per contract (``python experiments/dd_vs_pimc.py
[--deals N] [--worlds M] [--budget MINUTES] [--seed S]``). For each contract, deals are
drawn from the seed until the declarer's hand suits the contract (a plain filter, so
the rates are not all near 0 or 1):

- vraag: proposer and the seat after it each ≥ 4 playing tricks in the turned trump;
- solo: ≥ 5.5 playing tricks in the turned trump; abondance: ≥ 8 in the best suit
  (played in that suit); solo slim: ≥ 8 in the best suit (as abondance);
- miserie, open miserie, kleine miserie, pico: ``misere_safe`` hands (pico: a hand
  with one ace allowed); troel: three aces.

Each deal is evaluated double dummy (can the declaring side make it?) and played by
four PIMC players (``worlds`` each) and by four heuristic players. Deals are
processed by 2 worker processes under a wall-clock budget; a deal whose PIMC play
has not finished by then is left out and counted in ``unfinished``. The PIMC players
leave a world out of a decision when its question passes the node limit
(``pimc_worlds_dropped`` per deal and in ``meta.json``). Writes ``results/dd_vs_pimc/success.csv``
and ``success.png`` and prints the table; ``--chart-only`` redraws ``success.png`` from
the committed ``success.csv`` and ``meta.json``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from wiezen_sim.analysis.charts import finish_figure, label
from wiezen_sim.analysis.stats import wilson
from wiezen_sim.rules.auction import Declaration, aces
from wiezen_sim.rules.bots import misere_safe, playing_tricks
from wiezen_sim.rules.contracts import contract_spec, succeeded
from wiezen_sim.rules.dealing import deal_packets, new_deck
from wiezen_sim.rules.play import setup_play
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.solvers.players import PimcPlayer, Player, highest_discard, play_deal

OUT = Path(__file__).resolve().parent.parent / "results" / "dd_vs_pimc"
CONTRACTS = ("vraag", "solo", "kleine_miserie", "pico", "abondance", "miserie", "troel", "open_miserie", "solo_slim")
METHODS = ("dd", "pimc", "heuristic")


def best_suit(hand: int) -> int:
    return max(range(4), key=lambda s: playing_tricks(hand, s))


def suits(contract: str, deal, offset: int = 1) -> Declaration | None:
    """The declaration if the hand ``offset`` seats after the dealer (1: eldest) suits the contract (module
    docstring), else None; a vraag's partner is the seat after it."""
    p = (deal.dealer + offset) % 4
    hand, trump = deal.hands[p], deal.trump
    if contract == "vraag":
        q = (p + 1) % 4
        ok = playing_tricks(hand, trump) >= 4 and playing_tricks(deal.hands[q], trump) >= 4
        return Declaration("vraag", (p, q)) if ok else None
    if contract == "solo":
        return Declaration("solo", (p,)) if playing_tricks(hand, trump) >= 5.5 else None
    if contract in ("abondance", "solo_slim"):
        s = best_suit(hand)
        need = 8
        return Declaration(contract, (p,), trump=s) if playing_tricks(hand, s) >= need else None
    if contract == "troel":
        return Declaration("troel", (p,)) if aces(hand) == 3 else None
    if contract == "pico":
        ok = misere_safe(hand & ~(sum(1 << (16 * s + 14) for s in range(4)))) and aces(hand) == 1
        return Declaration("pico", (p,)) if ok else None
    return Declaration(contract, (p,)) if misere_safe(hand) else None


def make_deals(contract: str, n: int, seed: int, offset: int = 1) -> list:
    """The first ``n`` deals of the seeded stream that suit ``contract`` in the seat ``offset`` seats after the
    dealer (:func:`suits`); each offset but eldest's has a stream of its own."""
    rng = np.random.default_rng([seed, CONTRACTS.index(contract), *([offset] if offset != 1 else [])])
    out = []
    while len(out) < n:
        deal = deal_packets(new_deck(rng), int(rng.integers(4)))
        decl = suits(contract, deal, offset)
        if decl is not None:
            out.append((deal, decl))
    return out


def dd_success(deal, decl) -> bool:
    """Double dummy: can the declaring side make the contract (RULES.md 1.3)?"""
    rules = get_rules()
    setup = setup_play([decl], deal, rules)
    spec = contract_spec(decl.contract)
    solver = DDSolver(tt_mb=32)
    hands = list(deal.hands)
    trick = ()
    if setup.n_tricks == 12:
        hands = [h & ~(1 << highest_discard(h)) for h in hands]
    if setup.forced_lead is not None:
        hands[setup.leader] &= ~(1 << setup.forced_lead)
        trick = (setup.forced_lead,)
    return solver.can_make(hands, setup.trump, setup.leader, setup.side, spec.objective, setup.target, trick)


def evaluate(task: tuple) -> dict:
    """One deal: DD success, PIMC and heuristic play success (a worker task)."""
    contract, index, deal, decl, worlds, seed = task
    spec = contract_spec(contract)
    row = {"contract": contract, "deal": index, "dd": dd_success(deal, decl)}
    for method in ("heuristic", "pimc"):
        rngs = [
            np.random.default_rng(s) for s in np.random.SeedSequence([seed, index, CONTRACTS.index(contract)]).spawn(4)
        ]
        players = [PimcPlayer(worlds, r) if method == "pimc" else Player() for r in rngs]
        record = play_deal(deal, decl, players)
        side = setup_play([decl], deal, get_rules()).side
        row[method] = succeeded(spec, record.side_tricks(side), record.target)
    pimc = [p for p in players if isinstance(p, PimcPlayer)]  # the last method played is pimc
    row["pimc_decisions"] = sum(p.decisions for p in pimc)
    row["pimc_worlds_dropped"] = sum(p.worlds_dropped for p in pimc)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30, help="deals per contract")
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--budget", type=float, default=15.0, help="wall-clock minutes for the plays")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chart-only", action="store_true", help="play nothing: redraw success.png from success.csv")
    args = parser.parse_args()
    if args.chart_only:
        meta = json.loads((OUT / "meta.json").read_text())
        chart(pd.read_csv(OUT / "success.csv"), meta).savefig(OUT / "success.png", dpi=110)
        return
    tasks = [(c, i, d, decl, args.worlds, args.seed) for c in CONTRACTS for i, (d, decl) in
             enumerate(make_deals(c, args.deals, args.seed))]  # fmt: skip
    # round-robin over contracts so that a budget cut leaves every contract with deals
    tasks.sort(key=lambda t: (t[1], CONTRACTS.index(t[0])))
    start = time.perf_counter()
    deadline = start + 60 * args.budget
    rows = []
    with mp.get_context("spawn").Pool(2) as pool:
        pending = [pool.apply_async(evaluate, (t,)) for t in tasks]
        for job in pending:
            left = deadline - time.perf_counter()
            try:
                rows.append(job.get(timeout=max(left, 0.01)))
            except mp.TimeoutError:
                continue
        pool.terminate()
    elapsed = time.perf_counter() - start
    done = pd.DataFrame(rows)
    table = []
    for c in CONTRACTS:
        part = done[done.contract == c] if len(done) else done
        entry = {"contract": c, "n": len(part), "unfinished": args.deals - len(part)}
        for m in METHODS:
            k = int(part[m].sum()) if len(part) else 0
            low, high = wilson(k, len(part))
            entry.update({f"p_{m}": k / len(part) if len(part) else float("nan"), f"{m}_low": low, f"{m}_high": high})
        entry["dd_minus_pimc"] = entry["p_dd"] - entry["p_pimc"]
        table.append(entry)
    table = pd.DataFrame(table)
    OUT.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT / "success.csv", index=False, float_format="%.4f")
    done.to_csv(OUT / "per_deal.csv", index=False)
    meta = {"deals_per_contract": args.deals, "worlds": args.worlds, "seed": args.seed, "budget_min": args.budget,
            "elapsed_s": round(elapsed, 1), "processes": 2,
            "pimc_decisions": int(done.pimc_decisions.sum()) if len(done) else 0,
            "pimc_worlds_dropped": int(done.pimc_worlds_dropped.sum()) if len(done) else 0}  # fmt: skip
    (OUT / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    chart(table, meta).savefig(OUT / "success.png", dpi=110)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(json.dumps(meta))


def chart(table: pd.DataFrame, meta: dict) -> Figure:
    """The success rate of each method per contract, with Wilson 95 % intervals and n per contract."""
    fig = Figure(figsize=(10, 4.2))
    ax = fig.subplots()
    x = np.arange(len(table))
    names = {
        "dd": "double dummy",
        "pimc": f"PIMC play ({meta['worlds']} worlds per card)",
        "heuristic": "heuristic play",
    }
    for j, (m, hatch) in enumerate(zip(METHODS, ("", "//", ".."), strict=True)):
        p = table[f"p_{m}"].to_numpy()
        err = np.vstack([p - table[f"{m}_low"], table[f"{m}_high"] - p])
        ax.bar(x + (j - 1) * 0.27, p, 0.27, yerr=err, capsize=2, label=names[m], color=f"C{j}", hatch=hatch,
               edgecolor="white")  # fmt: skip
    ticks = [f"{c.replace('_', ' ')}\n(n={n})" for c, n in zip(table.contract, table.n, strict=True)]
    ax.set_xticks(x, ticks, fontsize=8)
    ax.set_ylabel(label("p_success"))
    ax.set_ylim(0, 1.05)
    ax.grid(axis="y", alpha=0.3)
    caption = (
        f"The same n = {table.n.min()}–{table.n.max()} deals per contract (under each name) for the three methods: "
        "double dummy (can the declaring side make it with all hands seen), PIMC and heuristic players at all four "
        f"seats; error bars: Wilson 95\u00a0% interval; seed {meta['seed']}."
    )
    title = "P(contract made) per contract: double dummy vs PIMC play vs heuristic play"
    finish_figure(fig, title, caption, ax.get_legend_handles_labels()[0])
    return fig


if __name__ == "__main__":
    main()
