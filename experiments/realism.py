"""The realism experiment: double dummy beside PIMC play that reads the auction (issue 19 part 6).

``python experiments/realism.py [--deals 300] [--hands 1000] [--samples 32] [--rule-hands 16]
[--worlds 16] [--budget MINUTES] [--jobs 2] [--seed 2026] [--parts contracts,bids,rules,lead]
[--resume] [--out DIR] [--label TEXT]``. Four parts, each written to ``results/realism/`` as it finishes:

1. ``contracts``: per contract, ``--deals`` deals on which the advisor's bidding model (the threshold bot,
   bidding for all four seats) declares it (:func:`bid_deals`: the players then hear an auction the model
   makes, so reading it is what is tested), topped up where the bot bids it too rarely (solo slim: never
   in four million deals) with deals whose eldest hand suits it (the filter of ``dd_vs_pimc.py``; their
   auction is off the model, counted); ``meta.json`` gives the sources. Each deal is made or not under four
   methods on the same deal: ``dd`` (can the declaring side
   make it with every hand seen), ``pimc-uniform`` (four PIMC players, worlds drawn uniformly),
   ``pimc`` (four PIMC players drawing worlds from the posterior given the auction that leads to the
   contract, :func:`~wiezen_sim.analysis.advise.play.auction_behind` under the advisor's bidding model) and
   ``heuristic``. The PIMC players are the advisor's (``worlds`` per decision, adaptive up to
   ``ADAPTIVE_CAP`` times as many, the advisor's tie window); every deal is played until the contract is
   decided. ``contracts.csv``: success per method (Wilson 95 %), and the paired differences pimc − dd,
   pimc − pimc-uniform and pimc − heuristic (Student-t 95 % interval over the per-deal differences; exact
   McNemar p from the discordant deals). ``contracts.png``.
2. ``bids``: the advisor's recommendation on ``--hands`` random positions (a random deal, a random seat,
   its turned card), from the auction-aware bid values (:func:`~wiezen_sim.analysis.advise.advise`,
   ``--samples`` sampled deals per hand, the stop rule on), under ``dd`` and under ``pimc``, on the same
   positions and sampled deals (``dd`` on every hand first, then ``pimc``, which costs about a hundred
   times more: a run cut short has ``pimc`` on the first hands). ``bids.csv``: the share of each bid per
   method (Wilson 95 %) and how often the methods agree; ``bids.png``.
3. ``rules``: the rules of thumb of ``experiments/rules_of_thumb.toml`` (four own tricks to propose;
   solo or abondance with a five-card suit and two outside winners; the 5-3-3-2 miserie trap) run by the
   experiment machinery (:mod:`wiezen_sim.analysis.experiment`) under ``dd`` and ``pimc``, ``--rule-hands``
   hands per class (``--rule-classes REGEX``: only the classes whose name matches), into
   ``results/realism/rules_of_thumb/`` (its own meta.json, resumable batches).
4. ``lead``: "as a defender, lead your longest side suit against a trump contract". Per trump contract
   (vraag, solo, abondance), ``--deals`` deals whose *second* hand suits it (so that eldest, a defender,
   leads; ``dd_vs_pimc.make_deals`` with offset 2), played twice by four ``pimc`` players: eldest's first
   lead its own choice, and eldest's first lead forced into its longest side suit (the card in it chosen by
   the same player, :class:`LongestSideSuitLead`). ``lead.csv``: success of the contract both ways, the
   paired difference forced − free (a negative one: the rule helps the defenders), and how often the free
   choice was from the longest side suit already.

Reproducible: every deal, hand and player has its seed words from ``--seed``, so the numbers do not depend
on ``--jobs``. Each part runs under ``--budget`` minutes of wall clock (the rules part excepted: it runs
to its end, and resumes by batch); what is not finished by then is counted as ``unfinished`` in
``meta.json``. Ctrl-C writes what is finished and stops; a part's records are also written every minute,
so a run killed outright keeps all but its last minute; ``--resume`` keeps the records of an earlier run
with the same settings and runs only the rest (meta.json keeps the earlier runs' figures under ``earlier``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy.stats import binomtest

from wiezen_sim.analysis.advise import advise
from wiezen_sim.analysis.advise.bids import method_players
from wiezen_sim.analysis.advise.play import auction_behind, default_model
from wiezen_sim.analysis.charts import finish_figure, label
from wiezen_sim.analysis.experiment import run_experiment
from wiezen_sim.analysis.experiment_file import Experiment, load_experiment
from wiezen_sim.analysis.provenance import git_commit, machine_info, package_versions
from wiezen_sim.analysis.stats import mean_interval, wilson
from wiezen_sim.cards import FULL_DECK, SUITS, card_name, card_suit, cards_of, hand_name
from wiezen_sim.parallel import Interrupted, progress_bar, run_tasks, sample_seeds
from wiezen_sim.rules.auction import Declaration, apply, start_auction
from wiezen_sim.rules.contracts import contract_spec, succeeded
from wiezen_sim.rules.dealing import Deal, deal_packets, new_deck
from wiezen_sim.rules.play import PlayView, longest_suit, setup_play, suit_mask
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.solvers.players import ADAPTIVE_CAP, PimcPlayer, Player, play_deal
from wiezen_sim.solvers.worlds import AuctionEvidence
from wiezen_sim.vocabulary import DEALER, SEATS, seat_name

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dd_vs_pimc import CONTRACTS, dd_success, make_deals  # a script beside this one

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "realism"
METHODS = ("dd", "pimc-uniform", "pimc", "heuristic")
PAIRS = (("pimc", "dd"), ("pimc", "pimc-uniform"), ("pimc", "heuristic"))
ADVISOR_METHODS = ("dd", "pimc")
LEAD_CONTRACTS = ("vraag", "solo", "abondance")
LEAD_OFFSET = 2  # the lead part's declarer: the second hand, so that eldest (a defender) leads
PARTS = ("contracts", "bids", "rules", "lead")
BIDS_STREAM = 19  # the bid mix's positions: sample_seeds(seed, hands, BIDS_STREAM)
FLUSH_S = 60.0  # a part's records are written to its CSV at least this often (seconds), and at its end
ACCEPT_TRICKS = 4.0  # the advisor's vraag acceptance rule (its default)
BID_DEALS_STREAM = 23  # the contracts part's deal stream (bid_deals)
BID_CHUNK = 16384  # deals drawn at once by bid_deals
BID_DEALS_LIMIT = 4_000_000  # deals bid_deals draws at most per contract


def pimc_players(worlds: int, streams: Sequence[np.random.SeedSequence], contract: str,
                 evidence: AuctionEvidence | None = None) -> list[Player]:  # fmt: skip
    """Four PIMC players as the advisor makes them (:func:`~wiezen_sim.analysis.advise.bids.method_players`),
    one per stream, reading ``evidence`` if given."""
    return method_players("pimc", worlds, [np.random.default_rng(s) for s in streams], contract, get_rules(), evidence)


def made(deal: Deal, decl: Declaration, players: list[Player]) -> tuple[bool, int]:
    """Whether the declaring side makes the contract with these players at the four seats (RULES.md 1.3),
    played until it is decided, and the card led to the first trick."""
    record = play_deal(deal, decl, players, rules=get_rules(), until_decided=True)
    side = setup_play([decl], deal, get_rules()).side
    ok = succeeded(contract_spec(decl.contract), record.side_tricks(side), record.target)
    return bool(ok), record.tricks[0][1][0]


def bid_deals(contract: str, n: int, seed: int,
              limit: int = BID_DEALS_LIMIT) -> tuple[list[tuple[Deal, Declaration]], int]:  # fmt: skip
    """The first ``n`` deals of a seeded stream on which the advisor's bidding model, bidding for all four
    seats, ends the auction with ``contract`` declared (and nothing else), with that declaration; at most
    ``limit`` deals are drawn (the bot's rarest contracts may give fewer than ``n``).

    Deals are uniform (a shuffled deck split into hands, a random dealer, the turned card the dealer's last),
    drawn ``BID_CHUNK`` at a time; the auction is run only on the deals where some seat wishes ``contract``
    (:meth:`~wiezen_sim.analysis.threshold.ThresholdBidder.wishing`: the model bids no contract it does not
    wish, so no deal is lost by this). Returns (deals with their declarations, deals drawn).
    """
    model, rules = default_model(ACCEPT_TRICKS), get_rules()
    rng = np.random.default_rng([seed, CONTRACTS.index(contract), BID_DEALS_STREAM])
    deck = np.array(cards_of(FULL_DECK), dtype=np.int64)
    found: list[tuple[Deal, Declaration]] = []
    drawn = 0
    while len(found) < n and drawn < limit:
        order = rng.permuted(np.tile(deck, (BID_CHUNK, 1)), axis=1).reshape(BID_CHUNK, SEATS, 13)
        hands = np.bitwise_or.reduce(np.left_shift(np.int64(1), order), axis=2)  # [deal, seat]
        dealers = rng.integers(SEATS, size=BID_CHUNK)
        turned = order[np.arange(BID_CHUNK), dealers, 12]
        wished = np.zeros(BID_CHUNK, dtype=bool)
        for suit in range(len(SUITS)):
            rows = np.flatnonzero(turned >> 4 == suit)
            for seat in range(SEATS):
                wished[rows] |= model.wishing(hands[rows, seat], suit, contract)
        for i in np.flatnonzero(wished).tolist():
            if drawn + i >= limit or len(found) == n:
                break
            deal = Deal(tuple(int(h) for h in hands[i]), int(dealers[i]), int(turned[i]))
            state = start_auction(deal, rules)
            while not state.done:
                state = apply(state, model(state))
            if [d.contract for d in state.declarations] == [contract]:
                found.append((deal, state.declarations[0]))
        drawn += BID_CHUNK
    return found, min(drawn, limit)


def contract_deals(contract: str, n: int, seed: int) -> tuple[list[tuple[Deal, Declaration]], int, int]:
    """Part 1's deals for a contract: those the bidding model bids it on (:func:`bid_deals`), topped up to ``n``
    with deals whose eldest hand suits it (``dd_vs_pimc.make_deals``: the bot never bids solo slim in
    millions of deals). Returns (deals with declarations, how many the model bid, deals drawn for them)."""
    found, drawn = bid_deals(contract, n, seed)
    return found + make_deals(contract, n - len(found), seed), len(found), drawn


def evidence_for(deal: Deal, decl: Declaration) -> tuple[AuctionEvidence, bool]:
    """The auction behind a declaration under the advisor's model: (AuctionEvidence, off the model?)."""
    acceptor = decl.declarers[1] if decl.contract == "vraag" else None
    model = default_model(ACCEPT_TRICKS)
    return auction_behind(deal, decl.contract, decl.trump, decl.declarers[0], acceptor, model, get_rules())


def _counted(players: list[Player]) -> dict[str, int]:
    pimc = [p for p in players if isinstance(p, PimcPlayer)]
    return {"decisions": sum(p.decisions for p in pimc), "worlds_dropped": sum(p.worlds_dropped for p in pimc),
            "auction_contradicted": sum(p.auction_contradicted for p in pimc)}  # fmt: skip


def evaluate_contract(task: tuple) -> dict:
    """One deal of part 1: made or not under each method (same deal, same players' seeds for both PIMC kinds).

    ``task``: (contract, deal index, Deal, Declaration, worlds, seed). Returns the per-deal record: the
    four methods' successes (bool), the ``pimc`` players' decisions, worlds dropped, decisions without a
    world consistent with the auction, and whether the model's own bids do not lead to the contract.
    """
    contract, index, deal, decl, worlds, seed = task
    streams = np.random.SeedSequence([seed, index, CONTRACTS.index(contract)]).spawn(SEATS)
    row: dict = {"contract": contract, "deal": index, "dd": dd_success(deal, decl)}
    row["heuristic"] = made(deal, decl, [Player() for _ in range(SEATS)])[0]
    row["pimc-uniform"] = made(deal, decl, pimc_players(worlds, streams, contract))[0]
    evidence, off = evidence_for(deal, decl)
    players = pimc_players(worlds, streams, contract, evidence)
    row["pimc"] = made(deal, decl, players)[0]
    return row | {f"pimc_{k}": v for k, v in _counted(players).items()} | {"auction_off_model": bool(off)}


class LongestSideSuitLead(Player):
    """Plays as ``inner``, but leads to the first trick from its longest side suit (the longest suit but
    trumps, ties by the higher holding: :func:`~wiezen_sim.rules.play.longest_suit`); ``inner`` chooses the
    card in it, shown only that suit of its hand for that decision (a PIMC player still draws its worlds from
    the whole deal). Without trumps, or without a side suit, the first lead is ``inner``'s own."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner

    def start(self, deal: Deal, discards: Sequence[int] | None) -> None:
        self.inner.start(deal, discards)

    def __call__(self, view: PlayView) -> int:
        trump = view.setup.trump
        side = view.hand & ~suit_mask(trump) if trump is not None else 0
        if not view.history and not view.trick and side:
            suit = suit_mask(longest_suit(side))
            view = dataclasses.replace(view, hand=view.hand & suit, legal=view.legal & suit)
        return self.inner(view)


def evaluate_lead(task: tuple) -> dict:
    """One deal of part 4: the contract played by four ``pimc`` players with eldest's first lead free and
    forced into its longest side suit (same players' seeds: paired). ``task`` as :func:`evaluate_contract`."""
    contract, index, deal, decl, worlds, seed = task
    streams = np.random.SeedSequence([seed, index, CONTRACTS.index(contract), LEAD_OFFSET]).spawn(SEATS)
    evidence, off = evidence_for(deal, decl)
    leader = (deal.dealer + 1) % SEATS
    trump = setup_play([decl], deal, get_rules()).trump
    longest = longest_suit(deal.hands[leader] & ~suit_mask(trump))
    row: dict = {"contract": contract, "deal": index, "leader": leader, "longest_side_suit": SUITS[longest]}
    for way in ("free", "forced"):
        players = pimc_players(worlds, streams, contract, evidence)
        if way == "forced":
            players[leader] = LongestSideSuitLead(players[leader])
        row[way], first = made(deal, decl, players)
        row[f"{way}_lead"] = card_name(first)
        row[f"{way}_in_longest"] = card_suit(first) == longest
    return row | {"auction_off_model": bool(off)}


def position(word: int) -> tuple[int, int, int]:
    """A random position of the bid mix from its seed word: (hand, seat relative to the dealer, turned card)."""
    rng = np.random.default_rng(word)
    deal = deal_packets(new_deck(rng), DEALER)
    seat = int(rng.integers(SEATS))
    return deal.hands[seat], seat, deal.turned


def evaluate_bids(task: tuple) -> dict:
    """One hand of part 2: the advisor's recommendation by ``method`` (its auction-aware bid values).
    ``task``: (hand index, seed word, method, samples, worlds)."""
    index, word, method, samples, worlds = task
    hand, seat, turned = position(word)
    advice = advise(hand, seat, turned, samples=samples, seed=word, n_jobs=1, method=method, worlds=worlds,
                    progress=False)  # fmt: skip
    best = advice.recommendation
    bid = best["contract"] + (f" {best['trump']}" if best.get("trump") else "")
    return {"hand_index": index, "method": method, "hand": hand_name(hand), "seat": seat_name(seat),
            "turned": card_name(turned), "bid": best["contract"], "bid_named": bid,
            "ev_units": float(best["ev_units"]), "runner_up": (advice.runner_up or {}).get("contract"),
            "p_order": advice.p_order, "deals": advice.meta["deals"],
            "recommended_from": advice.meta["recommended_from"]}  # fmt: skip


def run_part(name: str, fn: Callable[[tuple], dict], tasks: list[tuple], keys: list[tuple], key_cols: list[str],
             args: argparse.Namespace) -> tuple[pd.DataFrame, dict]:  # fmt: skip
    """Run ``fn`` over ``tasks`` under the budget (module docstring), records sorted by ``key_cols``.

    ``keys[i]`` is task i's record key; with ``--resume`` the records of ``<name>_records.csv`` are kept
    and their tasks not run again. Returns the records and the part's run figures (for meta.json);
    ``interrupted`` is True after Ctrl-C or SIGTERM.
    """
    path = args.out / f"{name}_records.csv"
    kept = pd.read_csv(path) if args.resume and path.exists() else pd.DataFrame(columns=key_cols)
    finished = set(map(tuple, kept[key_cols].itertuples(index=False)))
    todo = [t for t, k in zip(tasks, keys, strict=True) if k not in finished]
    rows: list[dict] = []

    def write_records() -> pd.DataFrame:
        frames = [frame for frame in (kept, pd.DataFrame(rows)) if len(frame)]
        records = pd.concat(frames, ignore_index=True).convert_dtypes() if frames else kept  # counts stay integers
        records = records.sort_values(key_cols, ignore_index=True)
        records.to_csv(path, index=False)
        return records

    start = time.perf_counter()
    deadline, interrupted = start + 60 * args.budget, False
    written = start
    try:
        with (
            progress_bar(len(tasks), f"realism {name}", initial=len(tasks) - len(todo)) as bar,
            contextlib.closing(run_tasks(fn, todo, args.jobs)) as results,
        ):
            for _, row in results:
                rows.append(row)
                bar.update(1)
                now = time.perf_counter()
                if now > deadline:
                    break
                if now - written > FLUSH_S:  # a killed run (no Ctrl-C) keeps what was finished
                    write_records()
                    written = now
    except Interrupted:
        interrupted = True
    records = write_records()
    elapsed = time.perf_counter() - start
    run = {"tasks": len(tasks), "finished": len(records), "unfinished": len(tasks) - len(records),
           "resumed": len(kept), "elapsed_s": round(elapsed, 1),
           "seconds_per_task": round(elapsed / len(rows), 1) if rows else None,
           "interrupted": interrupted}  # fmt: skip
    return records, run


def paired(a: np.ndarray, b: np.ndarray) -> dict:
    """Paired comparison of two methods' successes on the same deals (``bool[n]`` each): the mean of
    ``a − b`` with its Student-t 95 % interval (of zero width when no deal is discordant: then read the
    Wilson intervals of each method), the discordant counts and the exact McNemar p (binomial test of
    ``a_only`` among the discordant deals; 1.0 when there are none)."""
    a, b = np.asarray(a, bool), np.asarray(b, bool)
    diff, low, high = mean_interval(a.astype(float) - b.astype(float))
    a_only, b_only = int((a & ~b).sum()), int((b & ~a).sum())
    p = binomtest(a_only, a_only + b_only).pvalue if a_only + b_only else 1.0
    return {"diff": diff, "low": low, "high": high, "a_only": a_only, "b_only": b_only, "mcnemar_p": float(p)}


def contract_table(records: pd.DataFrame, deals: int, contracts: Sequence[str] = CONTRACTS) -> pd.DataFrame:
    """Part 1's table: per contract ``n``, ``unfinished``, per method ``p_<m>``, ``<m>_low``/``<m>_high``
    (Wilson 95 %) and ``k_<m>`` (deals made), per pair ``<a>_minus_<b>`` (paired: :func:`paired`), the deals
    whose auction is off the model, and the ``pimc`` players' decisions with those of them in which some
    seat's bids were left unread (its hands drawn from the play alone, as ``pimc-uniform`` draws them) or
    every world drawn had a seat bidding off the model (``pimc_auction_contradicted``, and its share of the
    decisions ``contradicted_share``)."""
    table = []
    for c in contracts:
        part = records[records.contract == c]
        n = len(part)
        entry: dict = {"contract": c, "n": n, "unfinished": deals - n}
        for m in METHODS:
            k = int(part[m].astype(bool).sum()) if n else 0
            low, high = wilson(k, n)
            entry |= {f"k_{m}": k, f"p_{m}": k / n if n else np.nan, f"{m}_low": low, f"{m}_high": high}
        for a, b in PAIRS:
            name = f"{a}_minus_{b}".replace("-", "_")
            stats = paired(part[a].to_numpy(bool), part[b].to_numpy(bool)) if n else {}
            entry |= {f"{name}{'' if k == 'diff' else '_' + k}": v for k, v in stats.items()}
        entry["auction_off_model"] = int(part["auction_off_model"].astype(bool).sum()) if n else 0
        for k in ("pimc_decisions", "pimc_auction_contradicted"):
            entry[k] = int(part[k].sum()) if n else 0
        entry["contradicted_share"] = entry["pimc_auction_contradicted"] / max(entry["pimc_decisions"], 1)
        table.append(entry)
    return pd.DataFrame(table)


def bid_table(records: pd.DataFrame) -> pd.DataFrame:
    """Part 2's table: per method and recommended bid, ``hands`` (of the method), ``count``, ``share`` and its
    Wilson 95 % interval; every bid recommended by some method has a row for each method."""
    bids = sorted(records.bid.unique(), key=lambda b: (b != "pass", b))
    rows = []
    for m in ADVISOR_METHODS:
        part = records[records.method == m]
        for bid in bids:
            k, n = int((part.bid == bid).sum()), len(part)
            low, high = wilson(k, n)
            rows.append({"method": m, "bid": bid, "hands": n, "count": k, "share": k / n if n else np.nan,
                         "share_low": low, "share_high": high})  # fmt: skip
    return pd.DataFrame(rows)


def bid_agreement(records: pd.DataFrame) -> dict:
    """On the hands both methods finished: how many, on how many they recommend the same bid (with Wilson
    95 %), and the dd → pimc changes counted (``"vraag → pass": 3``)."""
    wide = records.pivot(index="hand_index", columns="method", values="bid").dropna()
    if not set(ADVISOR_METHODS) <= set(wide.columns):
        return {"hands": 0}
    same = int((wide.dd == wide.pimc).sum())
    low, high = wilson(same, len(wide))
    changes = (wide.dd + " → " + wide.pimc)[wide.dd != wide.pimc].value_counts()
    return {"hands": len(wide), "same_bid": same, "same_low": low, "same_high": high,
            "changes": {str(k): int(v) for k, v in changes.items()}}  # fmt: skip


def lead_table(records: pd.DataFrame, deals: int) -> pd.DataFrame:
    """Part 4's table: per contract ``n``, ``unfinished``, ``p_free``/``p_forced`` (contract made; Wilson 95 %),
    the paired ``forced_minus_free`` (:func:`paired`), ``share_free_in_longest``."""
    rows = []
    for c in LEAD_CONTRACTS:
        part = records[records.contract == c]
        n = len(part)
        entry: dict = {"contract": c, "n": n, "unfinished": deals - n}
        for way in ("free", "forced"):
            k = int(part[way].astype(bool).sum()) if n else 0
            low, high = wilson(k, n)
            entry |= {f"p_{way}": k / n if n else np.nan, f"{way}_low": low, f"{way}_high": high}
        stats = paired(part.forced.to_numpy(bool), part.free.to_numpy(bool)) if n else {}
        entry |= {f"forced_minus_free{'' if k == 'diff' else '_' + k}": v for k, v in stats.items()}
        entry["share_free_in_longest"] = float(part.free_in_longest.astype(bool).mean()) if n else np.nan
        entry["auction_off_model"] = int(part["auction_off_model"].astype(bool).sum()) if n else 0
        rows.append(entry)
    return pd.DataFrame(rows)


def rule_charts(exp: Experiment) -> Experiment:
    """The rules-of-thumb experiment with its charts for two methods: a chart without lines by ``hue`` gets
    one line per method, one with them a chart per method (file ``<file>_<method>``); a chart whose contract
    or ``x`` no class selected has is left out."""
    features = {k for f in exp.features for k in f}
    charts = []
    for chart in exp.charts:
        if chart["x"] not in features or chart.get("contract", exp.contracts[0]) not in exp.contracts:
            continue
        if "hue" not in chart:
            charts.append(chart | {"hue": "method"})
        else:
            charts += [chart | {"method": m, "file": f"{chart['file']}_{m}", "title": f"{chart['title']} ({m})"}
                       for m in exp.methods]  # fmt: skip
    return dataclasses.replace(exp, charts=charts)


def contract_chart(table: pd.DataFrame, meta: dict) -> Figure:
    """Part 1: P(made) per contract and method, Wilson 95 % intervals, n under each contract."""
    fig = Figure(figsize=(11, 4.4))
    ax = fig.subplots()
    x = np.arange(len(table))
    names = {"dd": "double dummy", "pimc-uniform": "PIMC, uniform worlds",
             "pimc": "PIMC reading the auction", "heuristic": "heuristic play"}  # fmt: skip
    width = 0.8 / len(METHODS)
    for j, m in enumerate(METHODS):
        p = table[f"p_{m}"].to_numpy(float)
        err = np.vstack([p - table[f"{m}_low"], table[f"{m}_high"] - p])
        ax.bar(x + (j - 1.5) * width, p, width, yerr=err, capsize=2, label=names[m], color=f"C{j}")
    ticks = [f"{c.replace('_', ' ')}\n(n={n})" for c, n in zip(table.contract, table.n, strict=True)]
    ax.set_xticks(x, ticks, fontsize=8)
    ax.set_ylabel(label("p_success"))
    ax.set_ylim(0, 1.05)
    ax.grid(axis="y", alpha=0.3)
    caption = (f"The same deals for the four methods (n under each contract; deals on which the threshold bot "
               f"declares the contract, topped up by a hand filter where it rarely does: meta.json); "
               f"PIMC players: {meta['worlds']} worlds per card (adaptive up to {ADAPTIVE_CAP}×); error bars: "
               f"Wilson 95\u00a0% interval; seed {meta['seed']}. {meta['label']}")  # fmt: skip
    finish_figure(fig, "P(contract made): double dummy vs PIMC (uniform, reading the auction) vs heuristic",
                  caption, ax.get_legend_handles_labels()[0])  # fmt: skip
    return fig


def bid_chart(table: pd.DataFrame, meta: dict) -> Figure:
    """Part 2: the share of each recommended bid, per method, Wilson 95 % intervals."""
    bids = list(dict.fromkeys(table.bid))
    fig = Figure(figsize=(9, 4))
    ax = fig.subplots()
    x = np.arange(len(bids))
    for j, m in enumerate(ADVISOR_METHODS):
        part = table[table.method == m].set_index("bid").reindex(bids)
        p = part.share.to_numpy(float)
        err = np.vstack([p - part.share_low, part.share_high - p])
        ax.bar(x + (j - 0.5) * 0.4, p, 0.4, yerr=err, capsize=2, label=f"advisor, {m}", color=f"C{j}")
    ax.set_xticks(x, [b.replace("_", " ") for b in bids], fontsize=8)
    ax.set_ylabel("share of hands")
    ax.set_ylim(0, 1.05)
    ax.grid(axis="y", alpha=0.3)
    hands = table.groupby("method").hands.max()
    n = ", ".join(f"{m} on {int(hands.get(m, 0))}" for m in ADVISOR_METHODS)
    caption = (f"The advisor's recommended bid (auction-aware bid values) on random positions ({n}, the first "
               f"ones; random seat, its turned card), {meta['samples']} sampled deals per hand (stop rule on); "
               f"error bars: Wilson 95\u00a0% interval; seed {meta['seed']}. {meta['label']}")  # fmt: skip
    finish_figure(fig, "The advisor's bid mix: double dummy vs PIMC reading the auction", caption,
                  ax.get_legend_handles_labels()[0])  # fmt: skip
    return fig


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per contract (parts contracts and lead)")
    parser.add_argument("--hands", type=int, default=1000, help="random positions of the bid mix")
    parser.add_argument("--samples", type=int, default=32, help="the advisor's sampled deals per hand (bid mix)")
    parser.add_argument("--rule-hands", type=int, default=16, help="hands per class of the rules of thumb")
    parser.add_argument("--rule-classes", default="", help="only the rules' classes whose name matches (regex)")
    parser.add_argument("--worlds", type=int, default=16, help="PIMC worlds per decision")
    parser.add_argument("--budget", type=float, default=600.0, help="wall-clock minutes per part")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--parts", default=",".join(PARTS), help="comma-separated, of " + ", ".join(PARTS))
    parser.add_argument("--resume", action="store_true", help="keep the records of an earlier run, same settings")
    parser.add_argument("--out", type=Path, default=OUT, help="results folder (default results/realism)")
    parser.add_argument("--label", default="", help="a note for meta.json and the charts (e.g. a pilot)")
    args = parser.parse_args()
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        parser.error(f"unknown part(s) {bad}; known: {', '.join(PARTS)}")
    for what in ("deals", "hands", "samples", "rule_hands", "worlds", "jobs"):
        if getattr(args, what) <= 0 and not (what == "jobs" and args.jobs < 0):
            parser.error(f"--{what.replace('_', '-')} must be positive")
    if args.budget <= 0:
        parser.error("--budget must be positive (minutes)")
    try:
        re.compile(args.rule_classes)
    except re.error as exc:
        parser.error(f"--rule-classes: not a regular expression ({exc})")
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    meta_path = out / "meta.json"
    settings = {"seed": args.seed, "deals": args.deals, "hands": args.hands, "samples": args.samples,
                "rule_hands": args.rule_hands, "rule_classes": args.rule_classes, "worlds": args.worlds}  # fmt: skip
    meta = json.loads(meta_path.read_text()) if args.resume and meta_path.exists() else {}
    if meta and meta.get("settings") != settings:
        parser.error(f"--resume: {meta_path} holds a run with other settings {meta.get('settings')}")
    meta |= {"label": args.label, "settings": settings, "git_commit": git_commit(), "jobs": args.jobs,
             "budget_min_per_part": args.budget, "versions": package_versions(),
             "methods": {"dd": "double dummy (DDSolver): can the declaring side make it",
                         "pimc-uniform": f"PIMC players, {args.worlds} worlds per decision (adaptive up to "
                                         f"{ADAPTIVE_CAP}x), worlds uniform given the play",
                         "pimc": "the same, worlds from the posterior given the auction behind the contract "
                                 f"(threshold bot, accept {ACCEPT_TRICKS:g})",
                         "heuristic": "the plain players of wiezen_sim.solvers.players"},
             "parts": meta.get("parts", {})}  # fmt: skip
    load_start = os.getloadavg()
    interrupted = False
    for part in parts:
        if interrupted:
            break
        run: dict
        if part == "contracts":
            picked = {c: contract_deals(c, args.deals, args.seed) for c in CONTRACTS}
            tasks = [(c, i, d, decl, args.worlds, args.seed) for c in CONTRACTS
                     for i, (d, decl) in enumerate(picked[c][0])]  # fmt: skip
            tasks.sort(key=lambda t: (t[1], CONTRACTS.index(t[0])))  # round-robin: a budget cut leaves every contract
            records, run = run_part(part, evaluate_contract, tasks, [(t[0], t[1]) for t in tasks],
                                    ["contract", "deal"], args)  # fmt: skip
            run["deal_sources"] = {c: {"bid_by_the_model": picked[c][1], "deals_drawn": picked[c][2],
                                       "by_hand_filter": args.deals - picked[c][1]} for c in CONTRACTS}  # fmt: skip
            table = contract_table(records, args.deals)
            table.to_csv(out / "contracts.csv", index=False, float_format="%.4f")
            contract_chart(table, meta | settings).savefig(out / "contracts.png", dpi=110)
            print(table[["contract", "n"] + [f"p_{m}" for m in METHODS] + ["pimc_minus_dd", "pimc_minus_dd_low",
                  "pimc_minus_dd_high", "auction_off_model"]].to_string(index=False, float_format="%.3f"))  # fmt: skip
        elif part == "bids":
            words = [int(w) for w in sample_seeds(args.seed, args.hands, BIDS_STREAM)]
            # dd on every hand first (hours), then pimc (days): a run cut by its budget or a session's end
            # leaves pimc on the first hands, a random subset, compared with dd on those (bid_agreement)
            tasks = [(i, w, m, args.samples, args.worlds) for m in ADVISOR_METHODS for i, w in enumerate(words)]
            records, run = run_part(part, evaluate_bids, tasks, [(t[0], t[2]) for t in tasks],
                                    ["hand_index", "method"], args)  # fmt: skip
            table = bid_table(records)
            table.to_csv(out / "bids.csv", index=False, float_format="%.4f")
            bid_chart(table, meta | settings).savefig(out / "bids.png", dpi=110)
            run["agreement"] = bid_agreement(records)
            print(table.to_string(index=False, float_format="%.3f"))
            print(json.dumps(run["agreement"]))
        elif part == "rules":
            exp = load_experiment(ROOT / "experiments" / "rules_of_thumb.toml", samples=args.rule_hands)
            exp = dataclasses.replace(exp, methods=list(ADVISOR_METHODS), seed=args.seed)
            picked = [c.name for c in exp.classes if re.search(args.rule_classes, c.name)]
            if not picked:
                parser.error(f"--rule-classes {args.rule_classes!r} matches no class of rules_of_thumb.toml")
            exp = rule_charts(exp.select(picked))
            start = time.perf_counter()
            try:
                result = run_experiment(
                    exp, out=out / "rules_of_thumb", n_jobs=args.jobs, resume=args.resume, overwrite=not args.resume
                )
                run = {"hands": result.meta["hands"], "elapsed_s": round(time.perf_counter() - start, 1),
                       "interrupted": False}  # fmt: skip
                cols = ["class", "method", "contract", "n", "p_success", "ci_low", "ci_high", "ev_units"]
                print(result.table[cols].to_string(index=False, float_format="%.3f"))
            except Interrupted as exc:
                run = {"hands_finished": exc.done, "hands": exc.total, "interrupted": True,
                       "elapsed_s": round(time.perf_counter() - start, 1)}  # fmt: skip
        else:
            tasks = [(c, i, d, decl, args.worlds, args.seed) for c in LEAD_CONTRACTS
                     for i, (d, decl) in enumerate(make_deals(c, args.deals, args.seed, LEAD_OFFSET))]  # fmt: skip
            tasks.sort(key=lambda t: (t[1], LEAD_CONTRACTS.index(t[0])))
            records, run = run_part(part, evaluate_lead, tasks, [(t[0], t[1]) for t in tasks],
                                    ["contract", "deal"], args)  # fmt: skip
            table = lead_table(records, args.deals)
            table.to_csv(out / "lead.csv", index=False, float_format="%.4f")
            print(table.to_string(index=False, float_format="%.3f"))
        interrupted = run["interrupted"]
        run["git_commit"] = git_commit()
        if part in meta["parts"]:  # resumed: the earlier runs' figures are kept
            run["earlier"] = meta["parts"][part]
        meta["parts"][part] = run
        meta["machine"] = machine_info(load_start)
        meta["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        meta_path.write_text(json.dumps(meta, indent=1, default=str) + "\n")
        print(f"{part}: {json.dumps({k: v for k, v in run.items() if k != 'agreement'})}")
    if interrupted:
        print("stopped: what was finished is written (--resume continues)", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
