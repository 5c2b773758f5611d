"""The advisor's play methods ``pimc`` and ``heuristic``, and ``compare`` (issue 5; RULES.md 1.3–1.6).

Instead of solving each sampled deal double dummy, every biddable option is *played*
on the same sampled deals (the same seed words as ``method="dd"``, so the three
methods see the same deals) with one player per seat, all four seats alike:
``pimc`` (:class:`~wiezen_sim.solvers.players.PimcPlayer`, ``worlds`` sampled worlds
per decision) or ``heuristic`` (the plain rules of :mod:`wiezen_sim.solvers.players`).

Choices, beside those of :mod:`wiezen_sim.analysis.advise`:
- Only the options one can bid are played: the vraag with the accepting partner
  (no rows per fixed partner seat), solo, kleine miserie, pico, abondance in each
  suit (abondance in troef is the same game as abondance in the turned suit: one
  play serves both rows), miserie, open miserie, troel, solo slim in each suit.
- Kleine miserie: every seat, the declarer too, discards its highest card
  (:func:`~wiezen_sim.solvers.players.highest_discard`).
- Contracts that pay a flat amount (abondance without levels, the misère family,
  solo slim) stop being searched once their success is decided: the rest of the hand
  is played with the lowest legal cards, so their ``mean_tricks`` is not reported.
  PIMC breaks ties there by the heuristic (``tie_window`` 0); vraag, solo, troel and
  abondance levels are played to the end with ``tie_window`` 1.
- With *abondance levels*, each suit is played once for the lowest level (9) and the
  rows of the levels 9–12 read its trick count.

Per sampled deal (the arrays of :func:`play_batch`, one row per sample):
    tricks[o]      int8[n_options]  tricks of the declaring side in option o (-1: not played)
    vraag_partner  int8             the accepting seat (-1: nobody accepts)
    troel_partner  int8             troel partner seat (-1: no troel)
    troel_target   int8             tricks the troel needs (the record's target)
    pimc_decisions int32            PIMC decisions made by sampling (all options)
    worlds_dropped int32            of their worlds, those left out (a double-dummy question
                                    past ``PIMC_NODE_LIMIT`` trick nodes)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wiezen_sim.cards import card_name, card_suit
from wiezen_sim.rules.auction import Declaration, aces
from wiezen_sim.rules.bots import playing_tricks
from wiezen_sim.rules.dealing import Deal
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.solvers.players import DEFAULT_WORLDS, PimcPlayer, Player, highest_discard, play_deal

PLAY_METHODS = ("pimc", "heuristic")
DEALER = 3
FLAT = ("kleine_miserie", "pico", "abondance", "miserie", "open_miserie", "solo_slim")


def play_options(rules: RuleSet, hand: int) -> list[tuple[str, int | None]]:
    """The played options in table order: (contract, trump suit or None)."""
    contracts = rules.contracts()
    out: list[tuple[str, int | None]] = [("vraag", None), ("solo", None)]
    out += [(c, None) for c in ("kleine_miserie", "pico") if c in contracts]
    out += [("abondance", s) for s in range(4)]
    out += [("miserie", None), ("open_miserie", None)]
    out += [("troel", None)] if aces(hand) >= 3 else []
    out += [("solo_slim", s) for s in range(4)]
    return out


def play_batch(
    seeds: np.ndarray,
    hand: int,
    seat: int,
    turned: int,
    rules: RuleSet,
    accept_tricks: float,
    wanted: frozenset[str] | None,
    method: str,
    worlds: int = DEFAULT_WORLDS,
) -> dict:
    """Play every option of every sampled deal of one batch (layout in the module docstring).

    Args:
        seeds: ``uint64[n]`` seed words from :func:`wiezen_sim.parallel.sample_seeds`;
            each word fixes the sampled deal and the players' random numbers.
        method: ``pimc`` or ``heuristic``; worlds: PIMC worlds per decision.
    """
    from wiezen_sim.analysis.advise import sample_hands  # the same deals as the dd method

    options = play_options(rules, hand)
    n = len(seeds)
    trump = card_suit(turned)
    out = {
        "tricks": np.full((n, len(options)), -1, np.int8),
        "vraag_partner": np.full(n, -1, np.int8),
        "troel_partner": np.full(n, -1, np.int8),
        "troel_target": np.zeros(n, np.int8),
        "pimc_decisions": np.zeros(n, np.int32),
        "worlds_dropped": np.zeros(n, np.int32),
    }
    order = [(seat + k) % 4 for k in range(1, 4)]
    for i, word in enumerate(seeds):
        hands = [int(h) for h in sample_hands(word, hand, seat, turned)]
        deal = Deal((hands[0], hands[1], hands[2], hands[3]), DEALER, turned)
        for k, (contract, suit) in enumerate(options):
            if wanted is not None and contract not in wanted and not (contract == "abondance" and suit == trump
                                                                      and "abondance_in_troef" in wanted):  # fmt: skip
                continue
            declarers: tuple[int, ...] = (seat,)
            if contract == "vraag":
                acceptor = next((q for q in order if playing_tricks(hands[q], trump) >= accept_tricks), None)
                if acceptor is None:
                    continue
                declarers = (seat, acceptor)
                out["vraag_partner"][i] = acceptor
            flat = contract in FLAT and not (contract == "abondance" and rules.abondance_levels)
            rngs = [np.random.default_rng(s) for s in np.random.SeedSequence([int(word), k]).spawn(4)]
            players = [PimcPlayer(worlds, r, 0 if flat else 1) if method == "pimc" else Player() for r in rngs]
            record = play_deal(deal, Declaration(contract, declarers, trump=suit), players, rules=rules,
                               until_decided=flat)  # fmt: skip
            side = declarers if contract != "troel" else (seat, _troel_partner(record, seat))
            out["tricks"][i, k] = record.side_tricks(side)
            for p in players:
                if isinstance(p, PimcPlayer):
                    out["pimc_decisions"][i] += p.decisions
                    out["worlds_dropped"][i] += p.worlds_dropped
            if contract == "troel":
                out["troel_partner"][i], out["troel_target"][i] = side[1], record.target
    return out


def _troel_partner(record, seat: int) -> int:
    """The troel partner: the leader of the first trick (RULES.md 1.5)."""
    leader = record.tricks[0][0]
    assert leader != seat
    return leader


def build_play_rows(res: dict, hand: int, p: int, turned: int, rules: RuleSet, rows) -> None:
    """Add one row per played option to ``rows`` (an ``advise._Rows``), settled per RULES.md 1.6."""
    trump = card_suit(turned)
    contracts = rules.contracts()
    for k, (contract, suit) in enumerate(play_options(rules, hand)):
        tricks = res["tricks"][:, k]
        if contract != "vraag" and (tricks < 0).all():
            pass  # not asked for (contracts=)
        elif contract == "vraag":
            accepted = tricks >= 0
            mate = np.where(accepted, res["vraag_partner"], (p + 1) % 4)  # any partner where nobody accepts
            ev = np.where(accepted, rows.payout("vraag", mate, np.maximum(tricks, 0)), 0.0)
            ok = (tricks >= rules.target("vraag"))[accepted]
            rows.add("vraag", trump, ok, ev, tricks[accepted], partner="accepting", p_accept=float(accepted.mean()))
        elif contract == "solo":
            rows.add("solo", trump, tricks >= 5, rows.payout("solo", None, tricks), tricks)
        elif contract == "abondance" and rules.abondance_levels:
            for level in (9, 10, 11, 12):
                rows.add("abondance", suit, tricks >= level, rows.payout("abondance", None, tricks, level=level),
                         tricks, level=level)  # fmt: skip
        elif contract == "troel":
            target = res["troel_target"]
            rows.add(
                "troel", None, tricks >= target, rows.payout("troel", res["troel_partner"], tricks, target), tricks
            )
        else:
            ok = tricks == 1 if contract == "pico" else tricks == 13 if contract == "solo_slim" else tricks >= 9
            ok = tricks == 0 if contract in ("kleine_miserie", "miserie", "open_miserie") else ok
            extra = {"discard": card_name(highest_discard(hand))} if contract == "kleine_miserie" else {}
            rows.add(contract, suit, ok, rows.payout(contract, None, tricks), **extra)
        if contract == "abondance" and suit == 3 and "abondance_in_troef" in contracts:
            tricks = res["tricks"][:, play_options(rules, hand).index(("abondance", trump))]
            if (tricks >= 0).any():
                rows.add("abondance_in_troef", trump, tricks >= 9, rows.payout("abondance_in_troef", None, tricks))


@dataclass
class Comparison:
    """Result of :func:`compare`: ``table`` has one row per option played by every method.

    Columns: ``contract``, ``trump``, ``partner``, ``level``, ``n`` (deals counted),
    ``p_<method>`` (success probability per method), and for every method but the
    first ``diff_<method>`` = ``p_<method> - p_<first>`` with ``diff_<method>_low`` /
    ``_high``, a 95 % normal interval of the paired difference (same deals), clipped to [-1, 1].
    """

    table: pd.DataFrame
    meta: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON form: meta keys and ``contracts`` rows."""
        rows = self.table.astype(object).where(self.table.notna(), None).to_dict(orient="records")
        return {**self.meta, "contracts": rows}

    def format_table(self) -> str:
        """A plain-text report."""
        from wiezen_sim.analysis.advise import describe_pimc

        m = self.meta
        shown = self.table.astype(object).where(self.table.notna(), "")
        for col in self.table.columns:
            if col.startswith(("p_", "diff_")):
                form = "{:+.3f}" if col.startswith("diff_") else "{:.3f}"
                shown[col] = self.table[col].map(lambda x, form=form: "" if math.isnan(x) else form.format(x))
        return "\n".join([
            f"hand {m['hand']}  seat {m['seat']}  turned {m['turned']}  rules {m['rules']}",
            f"{m['samples']} sampled deals (the same for every method), seed {m['seed']}, pimc worlds {m['worlds']}"
            + (f" ({describe_pimc(m)})" if "pimc_decisions" in m else ""),
            "",
            shown.to_string(index=False),
            "",
            "p_<method>: probability the contract is made: dd = double dummy, pimc / heuristic = four such players;",
            "diff_<method>: p_<method> - p_dd with a 95% interval of the paired difference (same deals).",
        ])  # fmt: skip


def compare(
    hand: str | int,
    seat: str | int,
    turned: str | int,
    rules: str | RuleSet = "tempelaere",
    samples: int = 200,
    seed: int | None = None,
    n_jobs: int = -1,
    worlds: int = DEFAULT_WORLDS,
    methods: tuple[str, ...] = ("dd", "pimc", "heuristic"),
    **kwargs,
) -> Comparison:
    """Success probabilities of every biddable option under several methods, on the same sampled deals.

    Runs :func:`wiezen_sim.analysis.advise.advise` once per method with the same
    seed (so the same deals; kleine miserie: the dd row uses its best discard, the
    play rows the highest card). Arguments as there; ``kwargs`` go to ``advise``.

    Returns:
        :class:`Comparison` (table columns in its docstring).

    Raises:
        ValueError: as :func:`~wiezen_sim.analysis.advise.advise`, or fewer than two methods.
    """
    from wiezen_sim.analysis.advise import advise
    from wiezen_sim.parallel import resolve_seed

    if len(methods) < 2 or len(set(methods)) != len(methods):
        raise ValueError(f"compare needs two or more distinct methods, got {methods}")
    seed = resolve_seed(seed)
    runs = {m: advise(hand, seat, turned, rules, samples, seed, n_jobs, m, worlds=worlds, **kwargs) for m in methods}

    def keyed(advice) -> dict:
        out = {}
        for (_, row), ok in zip(advice.table.iterrows(), advice.success, strict=True):
            if row.get("partner") in (None, "accepting") or _isnan(row.get("partner")):
                key = (row.contract, row.trump, row.get("partner"), row.get("level"))
                out[tuple(None if _isnan(x) else x for x in key)] = ok
        return out

    per = {m: keyed(a) for m, a in runs.items()}
    first = methods[0]
    rows = []
    for key in per[methods[1]]:
        if not all(key in per[m] for m in methods):
            continue
        oks = {m: per[m][key] for m in methods}
        row = dict(zip(("contract", "trump", "partner", "level"), key, strict=True), n=len(oks[first]))
        row.update({f"p_{m}": float(oks[m].mean()) if len(oks[m]) else math.nan for m in methods})
        for m in methods[1:]:
            d = oks[m].astype(float) - oks[first].astype(float)
            half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.nan
            mean = float(d.mean()) if len(d) else math.nan
            row.update(
                {f"diff_{m}": mean, f"diff_{m}_low": max(mean - half, -1.0), f"diff_{m}_high": min(mean + half, 1.0)}
            )
        rows.append(row)
    table = pd.DataFrame(rows).dropna(axis=1, how="all")
    meta = {k: v for k, v in runs[first].meta.items() if k != "method"}
    meta.update(methods=list(methods), worlds=worlds)
    if "pimc" in runs:
        meta.update({k: runs["pimc"].meta[k] for k in ("pimc_decisions", "worlds_dropped")})
    return Comparison(table, meta)


def _isnan(x: object) -> bool:
    return isinstance(x, float) and math.isnan(x)
