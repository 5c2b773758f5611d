"""Experiments over whole Wiezen sessions (issue 8), played by the fast threshold bots.

Every session is 16 hands between four bots (``wiezen_sim.simulate_sessions``): the fast
threshold bidder (``wiezen_sim.analysis.bidders.ThresholdBidder``) with heuristic card
play (``wiezen_sim.solvers.players.heuristic_card``) at every seat, so a run takes
minutes, not days; the slow advisor bot is not used here. Chips are units of the
``tempelaere`` payment table unless the preset says otherwise.

Parts (each writes ``results/sessions_<part>/``: ``table.csv``, the per-hand log
``log.parquet``, charts as PNG and SVG, ``meta.json``):

- ``tournament`` (a): conservative vs neutral vs aggressive (aggression −1, 0, +1),
  rotated over the seats, chips per hand with 95 % t-intervals over sessions; and an
  aggression sweep: one ``threshold:A`` bot against three neutral bots, A from −1.5 to
  +3, the bot rotated over the four seats.
- ``house_rules`` (b): four neutral bots under the presets ``tempelaere`` (kleine
  miserie and pico on), ``classic`` (both off), ``vraag9`` (vraag and troel need 9),
  ``levels`` (abondance 9–12 with suit ranking and rising payments) and ``ronde_pas``
  (all-pass hands play Ronde Pas): how often each contract stands and is made, and the
  chips that change hands per hand.
- ``shuffle`` (c): four neutral bots, ``tempelaere`` with a fresh shuffle every hand
  against gather and cut: suit-length distribution of the dealt hands and contract
  frequencies.

Run: ``nice -n 10 python experiments/sessions.py {tournament,house_rules,shuffle,all} [--sessions N] [--jobs 2]``;
``--chart-only`` redraws a part's chart from its committed CSVs and ``meta.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from wiezen_sim import simulate_sessions
from wiezen_sim.analysis.charts import finish_figure
from wiezen_sim.analysis.provenance import git_commit, machine_info, package_versions
from wiezen_sim.analysis.sessions import contract_summary
from wiezen_sim.analysis.stats import mean_interval
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.vocabulary import SEATS

ROOT = Path(__file__).resolve().parents[1] / "results"
HANDS = 16
SWEEP = (-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
PRESETS = ("tempelaere", "classic", "vraag9", "levels", "ronde_pas")
DEFAULT_SESSIONS = {"tournament": 3000, "house_rules": 1500, "shuffle": 2000}
SWEEP_SESSIONS = 600
PLAYERS = "threshold bidders with heuristic card play"
HATCHES = ("", "//", "..", "\\\\", "xx")
LOG_SESSIONS = 50  # sessions per run kept in the committed log.parquet (the full logs are tens of MB)
DESCRIPTIONS = {
    "tournament": "(a) conservative vs neutral vs aggressive threshold bots rotated over the seats, and one "
    "threshold:A bot vs three neutral bots for A in SWEEP; tempelaere; chips per hand, 95 % t-interval over sessions",
    "house_rules": "(b) four neutral bots under each preset of PRESETS: contract frequencies, made rates, chip swing",
    "shuffle": "(c) four neutral bots, tempelaere, fresh shuffle vs gather and cut: suit lengths and contracts",
}


def _save(fig: Figure, out: Path, name: str) -> list[str]:
    for ext in ("png", "svg"):
        fig.savefig(out / f"{name}.{ext}", dpi=120)
    return [f"{name}.png", f"{name}.svg"]


def _meta(out: Path, part: str, params: dict, wall: float, load: tuple, charts: list[str]) -> None:
    meta = {
        "experiment": f"sessions_{part}",
        "description": DESCRIPTIONS[part],
        "git_commit": git_commit(),
        "parameters": params,
        "players": "threshold bidders (wiezen_sim.analysis.bidders) with heuristic card play",
        "wall_time_s": round(wall, 1),
        "charts": charts,
        "versions": package_versions(),
        "machine": machine_info(load),
        "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")


def _write_logs(out: Path, logs: list[pd.DataFrame], sessions: list[pd.DataFrame]) -> None:
    """``log.parquet``: the per-hand log of the first LOG_SESSIONS sessions of each run; ``sessions.csv``: all chips."""
    pd.concat([log[log.session < LOG_SESSIONS] for log in logs], ignore_index=True).to_parquet(
        out / "log.parquet", index=False
    )
    pd.concat(sessions, ignore_index=True).to_csv(out / "sessions.csv", index=False)


def _per_session(res, **labels) -> pd.DataFrame:
    """One row per session: the run's labels, hands played, bot and chips per seat."""
    frame = pd.DataFrame({"session": range(len(res.chips)), "hands": res.hands_played})
    for p in range(SEATS):
        frame[f"bot_{p}"] = [names[p] for names in res.seats]
        frame[f"chips_{p}"] = res.chips[:, p]
    return frame.assign(**labels)


def _errorbars(ax, x, table: pd.DataFrame, y: str, lo: str, hi: str, **kw) -> None:
    err = np.vstack([table[y] - table[lo], table[hi] - table[y]]).clip(min=0)
    ax.bar(x, table[y], yerr=err, capsize=4, **kw)


def tournament(sessions: int, jobs: int, seed: int, out: Path) -> None:
    bots = ["conservative", "neutral", "aggressive"]
    res = simulate_sessions(HANDS, sessions, "tempelaere", bots, seed, jobs)
    table = res.summary.assign(field="conservative, neutral, aggressive (rotated)")
    sweep_sessions = _sweep_sessions(sessions)
    rows, logs, per = [], [res.log.assign(run="tournament")], [_per_session(res, run="tournament")]
    for k, a in enumerate(SWEEP):
        name = f"threshold:{a:g}"
        sweep = simulate_sessions(HANDS, sweep_sessions, "tempelaere", [name, "neutral", "neutral", "neutral"],
                                  seed + 1 + k, jobs)  # fmt: skip
        row = sweep.summary[sweep.summary.bot == name].assign(field="one bot vs three neutral", aggression=a)
        rows.append(row)
        logs.append(sweep.log.assign(run=name))
        per.append(_per_session(sweep, run=name))
    table = pd.concat([table, *rows], ignore_index=True)
    table.to_csv(out / "table.csv", index=False, float_format="%.4f")
    _write_logs(out, logs, per)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))


def tournament_chart(out: Path, params: dict) -> Figure:
    """Chips per hand of the three bots, and of one bot by its aggression (from ``table.csv``)."""
    table = pd.read_csv(out / "table.csv")
    t, sweep_table = table[table.aggression.isna()], table[table.aggression.notna()]
    fig = Figure(figsize=(11, 3.8))
    ax1, ax2 = fig.subplots(1, 2)
    _errorbars(ax1, range(len(t)), t, "chips_per_hand", "ci_low", "ci_high", color=["C0", "C1", "C2"])
    ax1.set_xticks(range(len(t)), t.bot)
    ax1.set_ylabel("chips per hand (units)")
    ax1.set_title(f"Tournament: {params['sessions']} sessions × {params['hands']} hands", fontsize=10)
    ax2.errorbar(sweep_table.aggression, sweep_table.chips_per_hand,
                 yerr=np.vstack([sweep_table.chips_per_hand - sweep_table.ci_low,
                                 sweep_table.ci_high - sweep_table.chips_per_hand]),
                 marker="o", capsize=3, color="C4")  # fmt: skip
    ax2.set_xlabel("aggression of the one bot (threshold shift, tricks / ranks)")
    ax2.set_ylabel("its chips per hand (units)")
    ax2.set_title(f"One bot vs three neutral: {params['sweep_sessions']} sessions per point", fontsize=10)
    for ax in (ax1, ax2):
        ax.axhline(0, color="grey", lw=0.8)
        ax.grid(axis="y", alpha=0.3)
    caption = (
        f"{PLAYERS[:1].upper() + PLAYERS[1:]}, tempelaere rules; n = {params['sessions']} sessions (left) and "
        f"{params['sweep_sessions']} sessions per point (right) of {params['hands']} hands, bots rotated over the "
        "seats; error bars: Student-t 95\u00a0% interval over sessions."
    )
    finish_figure(fig, "Wiezen sessions: chips per hand by bidding aggression", caption)
    return fig


def _swing(log: pd.DataFrame) -> tuple[float, float, float]:
    """Chips changing hands per counted hand: mean over sessions with a t-interval."""
    played = log[log.hand > 0]
    swing = played[[f"p{s}" for s in range(SEATS)]].abs().sum(axis=1) / 2
    return mean_interval(swing.groupby(played.session).mean().to_numpy())


def house_rules(sessions: int, jobs: int, seed: int, out: Path) -> None:
    tables, logs, swings, per = [], [], [], []
    for k, preset in enumerate(PRESETS):
        res = simulate_sessions(HANDS, sessions, preset, ["neutral"], seed + k, jobs)
        table = contract_summary(res.log).assign(preset=preset)
        mean, lo, hi = _swing(res.log)
        swings.append({"preset": preset, "swing_per_hand": mean, "swing_low": lo, "swing_high": hi})
        tables.append(table)
        logs.append(res.log.assign(preset=preset))
        per.append(_per_session(res, preset=preset))
    table = pd.concat(tables, ignore_index=True)
    swing = pd.DataFrame(swings)
    table = table.merge(swing, on="preset")
    table.to_csv(out / "table.csv", index=False, float_format="%.4f")
    _write_logs(out, logs, per)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))


def house_rules_chart(out: Path, params: dict) -> Figure:
    """Contract frequencies, made rates, throw-ins and chip swing per preset (from ``table.csv``)."""
    table = pd.read_csv(out / "table.csv")
    table["share"] = table.deals / table.groupby("preset").deals.transform("sum")  # the CSV's share is rounded
    presets = list(dict.fromkeys(table.preset))
    contracts = [c for c in dict.fromkeys(table.sort_values("deals", ascending=False).contract) if c != "thrown_in"]
    fig = Figure(figsize=(13, 8))
    (ax1, ax2), (ax3, ax4) = fig.subplots(2, 2)
    width = 0.8 / len(presets)
    for k, preset in enumerate(presets):
        part = table[table.preset == preset].set_index("contract").reindex(contracts)
        x = np.arange(len(contracts)) + (k - (len(presets) - 1) / 2) * width
        style = {"color": f"C{k}", "hatch": HATCHES[k % len(HATCHES)], "edgecolor": "white", "label": preset}
        ax1.bar(x, part.share, width, **style)
        made = part.dropna(subset=["p_made"])
        xm = x[[contracts.index(c) for c in made.index]]
        ax2.bar(xm, made.p_made, width, yerr=np.vstack([made.p_made - made.made_low, made.made_high - made.p_made]),
                capsize=2, **style)  # fmt: skip
    for ax, ylabel in ((ax1, "share of deals (log scale)"), (ax2, "P(contract made) per declaration")):
        ax.set_xticks(range(len(contracts)), [c.replace("_", " ") for c in contracts], rotation=25, ha="right",
                      fontsize=8)  # fmt: skip
        ax.set_ylabel(ylabel)
        ax.grid(axis="y", alpha=0.3)
    ax1.set_yscale("log")
    ax1.set_title("How often each contract stands", fontsize=10)
    ax2.set_title("How often it is made", fontsize=10)
    swing = table.drop_duplicates("preset").set_index("preset").reindex(presets)
    thrown = table[table.contract == "thrown_in"].set_index("preset").reindex(presets).share.fillna(0)
    ax3.bar(range(len(presets)), thrown, color=[f"C{k}" for k in range(len(presets))])
    ax3.set_xticks(range(len(presets)), presets)
    ax3.set_ylabel("share of deals thrown in (redealt)")
    ax3.set_title("Throw-ins", fontsize=10)
    _errorbars(ax4, range(len(presets)), swing, "swing_per_hand", "swing_low", "swing_high",
               color=[f"C{k}" for k in range(len(presets))])  # fmt: skip
    ax4.set_xticks(range(len(presets)), presets)
    ax4.set_ylabel("chips changing hands per hand (units)")
    ax4.set_title("Chip swing per played hand", fontsize=10)
    caption = (
        f"Four neutral {PLAYERS}; n = {params['sessions']} sessions × {params['hands']} hands per preset. "
        "Error bars: Wilson 95\u00a0% interval over the declarations of the contract (made), Student-t 95\u00a0% "
        "interval over sessions (swing); shares of deals without interval."
    )
    handles = ax1.get_legend_handles_labels()[0]
    finish_figure(fig, "House rules: what each preset changes", caption, handles, "preset")
    return fig


def suit_lengths(log: pd.DataFrame) -> pd.DataFrame:
    """One row per dealt hand (four per deal): ``longest``, ``shortest``, ``shape`` (e.g. ``5-4-3-1``), ``source``.

    ``source``: ``first`` (the session's shuffled first deck), ``after_play`` or ``after_throw_in``.
    """
    prev = log.groupby("session").contract.shift(1)
    source = np.where(prev.isna(), "first", np.where(prev == "thrown_in", "after_throw_in", "after_play"))
    rows = []
    for s in range(SEATS):
        masks = log[f"hand_{s}"].to_numpy(np.int64)
        lengths = np.stack([[int(m >> (16 * suit) & 0xFFFF).bit_count() for m in masks] for suit in range(4)], axis=1)
        lengths.sort(axis=1)
        shape = ["-".join(str(x) for x in row[::-1]) for row in lengths]
        rows.append(pd.DataFrame({"session": log.session, "deal": log.deal, "seat": s, "source": source,
                                  "longest": lengths[:, 3], "shortest": lengths[:, 0], "shape": shape}))  # fmt: skip
    return pd.concat(rows, ignore_index=True)


def shuffle(sessions: int, jobs: int, seed: int, out: Path) -> None:
    modes = {
        "shuffle": get_rules("tempelaere"),
        "gather_and_cut": get_rules().replace(name="gather", deck="gather_and_cut"),
    }
    tables, logs, lengths, per = [], [], [], []
    for k, (mode, rules) in enumerate(modes.items()):
        res = simulate_sessions(HANDS, sessions, rules, ["neutral"], seed + k, jobs)
        tables.append(contract_summary(res.log).assign(deck=mode))
        logs.append(res.log.assign(deck=mode))
        per.append(_per_session(res, deck=mode))
        lengths.append(suit_lengths(res.log).assign(deck=mode))
    contracts = pd.concat(tables, ignore_index=True)
    hands = pd.concat(lengths, ignore_index=True)
    _write_logs(out, logs, per)
    contracts.to_csv(out / "contracts.csv", index=False, float_format="%.4f")
    groups = [("all", hands), *((src, hands[hands.source == src]) for src in ("after_play", "after_throw_in"))]
    dist = []
    for label, part in groups:
        for mode, g in part.groupby("deck", sort=False):
            counts = g.longest.value_counts().reindex(range(4, 14), fill_value=0)
            voids = int((g.shortest == 0).sum())
            for length, n in counts.items():
                dist.append({"deals": label, "deck": mode, "longest": length, "hands": int(n),
                             "share": n / len(g), "void_share": voids / len(g), "mean_longest": g.longest.mean(),
                             "n_hands": len(g)})  # fmt: skip
    table = pd.DataFrame(dist)
    table.to_csv(out / "table.csv", index=False, float_format="%.5f")
    summary = table.drop_duplicates(["deals", "deck"])[["deals", "deck", "n_hands", "mean_longest", "void_share"]]
    print(summary.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(contracts.to_string(index=False, float_format=lambda v: f"{v:.4f}"))


def shuffle_chart(out: Path, params: dict) -> Figure:
    """Longest-suit distribution and contract frequencies, fresh shuffle vs gather and cut (from the CSVs)."""
    table, contracts = pd.read_csv(out / "table.csv"), pd.read_csv(out / "contracts.csv")
    table["share"] = table.hands / table.n_hands  # the CSVs' shares are rounded
    contracts["share"] = contracts.deals / contracts.groupby("deck").deals.transform("sum")
    modes = list(dict.fromkeys(table.deck))
    fig = Figure(figsize=(12, 4.2))
    ax1, ax2 = fig.subplots(1, 2)
    for k, mode in enumerate(modes):
        part = table[(table.deals == "all") & (table.deck == mode)]
        style = {"color": f"C{k}", "hatch": HATCHES[k], "edgecolor": "white", "label": mode.replace("_", " ")}
        ax1.bar(part.longest + (k - 0.5) * 0.4, part.share, 0.4, **style)
    ax1.set_yscale("log")
    ax1.set_xlabel("longest suit of a dealt hand (cards)")
    ax1.set_ylabel("share of hands (log scale)")
    ax1.set_title("Suit lengths", fontsize=10)
    names = list(dict.fromkeys(contracts.sort_values("deals", ascending=False).contract))
    for k, mode in enumerate(modes):
        part = contracts[contracts.deck == mode].set_index("contract").reindex(names).share.fillna(0)
        style = {"color": f"C{k}", "hatch": HATCHES[k], "edgecolor": "white"}
        ax2.bar(np.arange(len(names)) + (k - 0.5) * 0.4, part, 0.4, **style)
    ax2.set_xticks(range(len(names)), [c.replace("_", " ") for c in names], rotation=25, ha="right", fontsize=8)
    ax2.set_yscale("log")
    ax2.set_ylabel("share of deals (log scale)")
    ax2.set_title("Contracts that stand", fontsize=10)
    hands = table[table.deals == "all"].drop_duplicates("deck").n_hands
    caption = (
        f"Four neutral {PLAYERS}, tempelaere rules; n = {params['sessions']} sessions × {params['hands']} hands per "
        f"deck rule ({hands.min()}–{hands.max()} dealt hands); shares without interval (under gather and cut the "
        "deals of a session are not independent)."
    )
    finish_figure(fig, "Fresh shuffle vs gather and cut", caption, ax1.get_legend_handles_labels()[0], "deck")
    return fig


PARTS = {"tournament": tournament, "house_rules": house_rules, "shuffle": shuffle}
CHARTS = {"tournament": ("chips_per_hand", tournament_chart), "house_rules": ("house_rules", house_rules_chart),
          "shuffle": ("shuffle", shuffle_chart)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=[*PARTS, "all"])
    ap.add_argument("--sessions", type=int, help="sessions per run (default per part)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20268)
    ap.add_argument("--root", type=Path, default=ROOT, help="results root (default results/)")
    ap.add_argument("--chart-only", action="store_true", help="play nothing: redraw the charts from the CSVs")
    args = ap.parse_args()
    for part in PARTS if args.part == "all" else [args.part]:
        out = args.root / f"sessions_{part}"
        name, chart = CHARTS[part]
        if args.chart_only:
            _save(chart(out, json.loads((out / "meta.json").read_text())["parameters"]), out, name)
            continue
        out.mkdir(parents=True, exist_ok=True)
        sessions = args.sessions or DEFAULT_SESSIONS[part]
        load, start = os.getloadavg(), time.perf_counter()
        PARTS[part](sessions, args.jobs, args.seed, out)
        wall = time.perf_counter() - start
        params = {"sessions": sessions, "hands": HANDS, "seed": args.seed, "jobs": args.jobs, "sweep": list(SWEEP),
                  "sweep_sessions": _sweep_sessions(sessions), "presets": list(PRESETS)}  # fmt: skip
        _meta(out, part, params, wall, load, _save(chart(out, params), out, name))
        print(f"{part}: {sessions} sessions in {wall:.0f} s → {out}")


def _sweep_sessions(sessions: int) -> int:
    """Sessions per point of the aggression sweep: SWEEP_SESSIONS scaled with the tournament's sessions."""
    return max(SWEEP_SESSIONS * sessions // DEFAULT_SESSIONS["tournament"], 4)


if __name__ == "__main__":
    main()
