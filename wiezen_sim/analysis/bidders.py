"""Bidding bots for whole sessions (issue 8; the auction of RULES.md 1.4).

A *bidder* is a callable ``AuctionState -> Bid`` that only ever returns one of
``legal_bids(state)``; the auction engine (:mod:`wiezen_sim.rules.auction`) enforces the
whole of RULES.md 1.4 (wachten, meegaan, solo only after an unaccepted vraag, equal
misère bids, the troel obligation, overcall limits, Carte Blanche), so a bot only
chooses among the legal bids.

``ThresholdBidder`` (fast; :mod:`wiezen_sim.analysis.threshold`, re-exported here) reads hand
features and compares them with thresholds.

``AdvisorBidder`` (slow) asks :func:`wiezen_sim.analysis.advise.advise` once per hand
(``samples`` double-dummy deals; seconds per hand) and bids the legal contract of
highest expected settlement when it exceeds ``-aggression`` units (pass = 0); it
accepts a vraag when the advisor's pair success rate with the proposer reaches
``0.5 - 0.1 * aggression`` and waits (eldest) under the same rule for any partner; it
always declares Carte Blanche when it may.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from wiezen_sim.analysis.advise import Advice, advise
from wiezen_sim.analysis.threshold import (
    MISERE_ORDER,
    NEUTRAL,
    STYLES,
    ThresholdBidder,
    misere_risk,
    pass_or_lowest,
    with_aggression,
)
from wiezen_sim.rules.auction import AuctionState, Bid, legal_bids
from wiezen_sim.rules.contracts import ACCEPT, CARTE_BLANCHE, PASS, WAIT
from wiezen_sim.vocabulary import SEATS

__all__ = [
    "MAX_ADVISOR_SAMPLES",
    "MAX_AGGRESSION",
    "MISERE_ORDER",
    "NEUTRAL",
    "STYLES",
    "AdvisorBidder",
    "ThresholdBidder",
    "make_bidder",
    "misere_risk",
    "with_aggression",
]

MAX_AGGRESSION = 5.0  # threshold:A: the styles are -1, 0 and +1; beyond ±5 the bot bids everything or nothing
MAX_ADVISOR_SAMPLES = 1000  # advisor:S: sampled deals per hand and bid decision (a few seconds a hand at 8)


@dataclass
class AdvisorBidder:
    """Slow bidder: the Monte Carlo advisor's expected settlements (module docstring).

    Attributes:
        samples: sampled deals per hand (double dummy; a few seconds per hand at 8).
        aggression: bid a contract whose expected settlement exceeds ``-aggression`` units.
        rng: numpy Generator for the advisor's seeds.
        name: label in result tables.
    """

    samples: int = 8
    aggression: float = 0.0
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))
    name: str = "advisor"
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError(f"the advisor bot needs at least one sample, got {self.samples}")

    def _advice(self, state: AuctionState, seat: int) -> Advice:
        key = (state.hands[seat], state.dealer, state.turned, state.rules.name)
        if key not in self._cache:
            self._cache.clear()
            relative = (seat - state.dealer - 1) % SEATS
            self._cache[key] = advise(state.hands[seat], relative, state.turned, state.rules, self.samples,
                                      int(self.rng.integers(2**31)), n_jobs=1, progress=False, stop=False)  # fmt: skip
        return self._cache[key]

    def __call__(self, state: AuctionState) -> Bid:
        legal = legal_bids(state)
        seat = state.to_act
        assert seat is not None
        if len(legal) == 1:
            return legal[0]
        if state.phase == "carte_blanche":  # it blocks every contract but open miserie and solo slim
            return Bid(CARTE_BLANCHE)
        table = self._advice(state, seat).table
        need = 0.5 - 0.1 * self.aggression
        is_seat = table.partner.apply(lambda p: isinstance(p, int | np.integer)) if "partner" in table else False
        pairs = table[(table.contract == "vraag") & is_seat]
        if Bid(ACCEPT) in legal:
            proposer = state.holders[0]
            relative = (proposer - state.dealer - 1) % SEATS
            row = pairs[pairs.partner == relative]
            if len(row) and float(row.p_success.iloc[0]) >= need:
                return Bid(ACCEPT)
        best, best_ev = None, -self.aggression
        for bid in legal:
            rows = table[table.contract == bid.name]
            if bid.trump is not None:
                rows = rows[rows.trump == "SHDC"[bid.trump]]
            if "partner" in rows:  # vraag: the accepting-partner estimate (over all samples)
                rows = rows[rows.partner.isna() | (rows.partner == "accepting")]
            if "level" in rows and bid.level is not None:
                rows = rows[rows.level == bid.level]
            ev = float(rows.ev_units.max()) if len(rows) else math.nan
            if bid.name not in (PASS, WAIT, ACCEPT) and ev > best_ev:
                best, best_ev = bid, ev
        if best is not None:
            return best
        if Bid(WAIT) in legal and len(pairs) and float(pairs.p_success.max()) >= need:
            return Bid(WAIT)
        return pass_or_lowest(legal)


def make_bidder(spec: str, rng: np.random.Generator | None = None) -> ThresholdBidder | AdvisorBidder:
    """A bidder from its name.

    ``conservative``, ``neutral``, ``aggressive`` (threshold bot with aggression −1, 0,
    +1), ``threshold:A`` (aggression A, a float), ``advisor`` or ``advisor:S`` (the slow
    advisor bot with S samples per hand, default 8).

    Raises:
        ValueError: unknown name, an aggression outside ±:data:`MAX_AGGRESSION` or advisor samples outside
            1..:data:`MAX_ADVISOR_SAMPLES`.
    """
    name, _, arg = spec.strip().lower().partition(":")
    if name in STYLES and not arg:
        return ThresholdBidder(STYLES[name], name=name)
    if name == "threshold":
        try:
            aggression = float(arg or 0)
        except ValueError:
            aggression = math.nan
        if not -MAX_AGGRESSION <= aggression <= MAX_AGGRESSION:  # NaN fails too
            raise ValueError(f"bad bidder {spec!r}: A must be a number from -{MAX_AGGRESSION:g} to {MAX_AGGRESSION:g}")
        return ThresholdBidder(aggression, name=spec.strip().lower())
    if name == "advisor":
        samples = int(arg) if arg.isdigit() else 8 if not arg else 0
        if not 1 <= samples <= MAX_ADVISOR_SAMPLES:
            raise ValueError(f"bad bidder {spec!r}: S must be a whole number from 1 to {MAX_ADVISOR_SAMPLES}")
        return AdvisorBidder(samples, rng=rng or np.random.default_rng(0), name=spec.strip().lower())
    raise ValueError(f"unknown bidder {spec!r}; known: conservative, neutral, aggressive, threshold:A, advisor[:S]")
