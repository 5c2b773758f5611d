"""Bidding bots for whole sessions (issue 8; the auction of RULES.md 1.4).

A *bidder* is a callable ``AuctionState -> Bid`` that only ever returns one of
``legal_bids(state)``; the auction engine (:mod:`wiezen_sim.rules.auction`) enforces the
whole of RULES.md 1.4 (wachten, meegaan, solo only after an unaccepted vraag, equal
misère bids, the troel obligation, overcall limits, Carte Blanche), so a bot only
chooses among the legal bids.

``ThresholdBidder`` (fast) reads hand features and compares them with thresholds:

* trick strength = :func:`wiezen_sim.rules.bots.playing_tricks` (A 1, guarded K ½,
  each trump beyond the third 1) in the turned suit, or in the best suit for abondance
  and solo slim;
* misère risk = :func:`misere_risk`, the cards that rise above a staircase of low ranks.

The neutral thresholds (:data:`NEUTRAL`) come from the committed experiments over hand
classes (README, experiments (a), (c), (e)): solo's expected value turns positive from
about five playing tricks; abondance needs about eight trumps and two outside aces
(8½ playing tricks); "propose only with four tricks of your own". ``aggression`` moves
every threshold at once: trick thresholds drop by ``aggression`` tricks and the misère
staircase rises by ``aggression`` ranks (conservative −1, neutral 0, aggressive +1).

Decisions, in order (the first wished legal bid wins):

1. Carte Blanche phase: declare, unless the hand wishes miserie, pico or kleine miserie
   (which Carte Blanche would rule out) and not open miserie.
2. The highest wished contract that is legal now (solo slim, open miserie, troel,
   miserie, abondance in troef, abondance at the highest level the hand reaches,
   pico, kleine miserie, solo); equal misère bids join when the hand wishes that
   contract. The troel holder bids troel when obliged (nothing else is legal).
3. Accept an open vraag with ``accept`` tricks in the turned suit.
4. Propose (vraag) with ``vraag`` tricks; eldest waits with ``wait`` tricks.
5. Pass.

``AdvisorBidder`` (slow) asks :func:`wiezen_sim.analysis.advise.advise` once per hand
(``samples`` double-dummy deals; seconds per hand) and bids the legal contract of
highest expected settlement when it exceeds ``-aggression`` units (pass = 0); it
accepts a vraag when the advisor's pair success rate with the proposer reaches
``0.5 - 0.1 * aggression`` and waits (eldest) under the same rule for any partner; it
always declares Carte Blanche when it may.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from wiezen_sim.analysis.advise import Advice, advise
from wiezen_sim.cards import SUITS, card_suit, suit_holding
from wiezen_sim.rules.auction import ACES_MASK, AuctionState, Bid, legal_bids
from wiezen_sim.rules.bots import playing_tricks
from wiezen_sim.rules.contracts import ACCEPT, CARTE_BLANCHE, CONTRACTS, PASS, WAIT, contract_spec
from wiezen_sim.vocabulary import SEATS

__all__ = [
    "MISERE_ORDER",
    "NEUTRAL",
    "STYLES",
    "AdvisorBidder",
    "ThresholdBidder",
    "make_bidder",
    "misere_risk",
    "with_aggression",
]

NEUTRAL: Mapping[str, float] = {
    "vraag": 4.0,  # propose with this many playing tricks in the turned suit
    "accept": 3.5,  # accept (meegaan) with this many
    "wait": 3.0,  # eldest waits with this many (below "vraag")
    "solo": 5.0,  # solo after an unaccepted vraag
    "abondance": 8.5,  # abondance 9 in the best suit; level L needs L - 0.5
    "solo_slim": 12.5,
    "misere_step": 4.0,  # misère staircase: the j-th lowest card of a suit must be <= step + 2j
    "open_step": 3.0,  # the stricter staircase for open miserie
}
STYLES: Mapping[str, float] = {"conservative": -1.0, "neutral": 0.0, "aggressive": 1.0}
MISERE_ORDER = ("open_miserie", "miserie", "pico", "kleine_miserie")


def misere_risk(hand: int, step: float = NEUTRAL["misere_step"]) -> int:
    """Cards a misère declarer may be forced to win with (count, 0 = none).

    In every suit the ``j``-th lowest card (``j = 0, 1, …``) is risky when its rank
    (2..14) is above ``step + 2j``: the lowest card should be a 4 or lower, the second
    a 6 or lower, and so on (neutral step 4). A plain rule of thumb, not a solver.
    """
    risky = 0
    for suit in range(len(SUITS)):
        holding = suit_holding(hand, suit)
        ranks = [r for r in range(2, 15) if holding >> r & 1]
        risky += sum(rank > step + 2 * j for j, rank in enumerate(ranks))
    return risky


def _pass_or_lowest(legal: list[Bid]) -> Bid:
    """Pass when legal, else the lowest legal contract (troel under the troel obligation)."""
    if Bid(PASS) in legal:
        return Bid(PASS)
    return min((b for b in legal if b.name in CONTRACTS), key=lambda b: contract_spec(b.name).rank)


def _best_level(tricks: float, need: float, levels: list[int]) -> int | None:
    """The highest abondance level (9..12) the hand reaches: level L needs ``need + L - 9`` tricks."""
    reached = [level for level in levels if tricks >= need + level - 9]
    return max(reached) if reached else None


@dataclass(frozen=True)
class ThresholdBidder:
    """Fast threshold bidder (module docstring); deterministic, picklable.

    Attributes:
        aggression: shift of every threshold (tricks for trick thresholds, ranks for
            the misère staircase); −1 conservative, 0 neutral, +1 aggressive.
        thresholds: overrides of :data:`NEUTRAL` (same keys).
        name: label in result tables.
    """

    aggression: float = 0.0
    thresholds: Mapping[str, float] = field(default_factory=dict)
    name: str = "neutral"

    def __post_init__(self) -> None:
        unknown = set(self.thresholds) - set(NEUTRAL)
        if unknown:
            raise ValueError(f"unknown threshold(s) {sorted(unknown)}; known: {', '.join(NEUTRAL)}")
        if not math.isfinite(self.aggression):
            raise ValueError(f"aggression must be a finite number, got {self.aggression}")

    def threshold(self, key: str) -> float:
        """A threshold after the aggression shift (tricks, or a rank step for the misère keys)."""
        base = self.thresholds.get(key, NEUTRAL[key])
        return base + self.aggression if key.endswith("_step") else base - self.aggression

    def wishes(self, hand: int, turned_suit: int) -> dict[str, object]:
        """What the hand would declare: contract name → True, or (level, suit) for abondance.

        Returns:
            ``{"troel": bool, "solo_slim": bool, "open_miserie": bool, "miserie": bool,
            "pico": bool, "kleine_miserie": bool, "abondance": (tricks, suit),
            "abondance_in_troef": bool, "solo": bool, "vraag": bool, "accept": bool,
            "wait": bool}`` (abondance: playing tricks in the best suit and that suit).
        """
        trump = playing_tricks(hand, turned_suit)
        best = max(range(len(SUITS)), key=lambda s: (playing_tricks(hand, s), s == turned_suit))
        best_tricks = playing_tricks(hand, best)
        step = self.threshold("misere_step")
        risk = misere_risk(hand, step)
        aces = hand & ACES_MASK
        without_ace = [hand & ~(1 << a) for a in range(64) if aces >> a & 1]
        return {
            "troel": True,
            "solo_slim": best_tricks >= self.threshold("solo_slim"),
            "open_miserie": misere_risk(hand, self.threshold("open_step")) == 0,
            "miserie": risk == 0,
            "pico": risk == 1 and any(misere_risk(h, step) == 0 for h in without_ace),
            "kleine_miserie": risk <= 1,
            "abondance": (best_tricks, best),
            "abondance_in_troef": trump >= self.threshold("abondance"),
            "solo": trump >= self.threshold("solo"),
            "vraag": trump >= self.threshold("vraag"),
            "accept": trump >= self.threshold("accept"),
            "wait": trump >= self.threshold("wait"),
        }

    def __call__(self, state: AuctionState) -> Bid:
        legal = legal_bids(state)
        seat = state.to_act
        assert seat is not None
        wish = self.wishes(state.hands[seat], card_suit(state.turned))
        if state.phase == "carte_blanche":
            low = any(wish[name] for name in ("miserie", "pico", "kleine_miserie"))
            return Bid(CARTE_BLANCHE) if not low or wish["open_miserie"] else Bid(PASS)
        contracts = [b for b in legal if b.name not in (PASS, WAIT, ACCEPT)]
        chosen = self._contract(contracts, wish)
        if chosen is not None:
            return chosen
        for call in (ACCEPT, "vraag", WAIT):
            if wish[call] and Bid(call) in legal:
                return Bid(call)
        return _pass_or_lowest(legal)

    def _contract(self, contracts: list[Bid], wish: dict[str, object]) -> Bid | None:
        """The highest wished contract among the legal contract bids (troel first when obliged)."""
        abondance = wish["abondance"]
        assert isinstance(abondance, tuple)  # (playing tricks, suit): see wishes()
        tricks, suit = abondance
        for bid in sorted(contracts, key=lambda b: (contract_spec(b.name).rank, b.level or 0), reverse=True):
            if bid.name == "abondance":
                level = _best_level(tricks, self.threshold("abondance"), [bid.level or 9])
                if level is not None and bid.trump in (None, suit):
                    return bid
            elif bid.name not in ("vraag",) and wish.get(bid.name):
                return bid
        return None


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
        return _pass_or_lowest(legal)


def make_bidder(spec: str, rng: np.random.Generator | None = None) -> ThresholdBidder | AdvisorBidder:
    """A bidder from its name.

    ``conservative``, ``neutral``, ``aggressive`` (threshold bot with aggression −1, 0,
    +1), ``threshold:A`` (aggression A, a float), ``advisor`` or ``advisor:S`` (the slow
    advisor bot with S samples per hand, default 8).

    Raises:
        ValueError: unknown name or a bad number.
    """
    name, _, arg = spec.strip().lower().partition(":")
    try:
        if name in STYLES and not arg:
            return ThresholdBidder(STYLES[name], name=name)
        if name == "threshold":
            return ThresholdBidder(float(arg or 0), name=spec.strip().lower())
        if name == "advisor":
            return AdvisorBidder(int(arg) if arg else 8, rng=rng or np.random.default_rng(0), name=spec.strip().lower())
    except ValueError as exc:
        raise ValueError(f"bad bidder {spec!r}: {exc}") from None
    raise ValueError(f"unknown bidder {spec!r}; known: conservative, neutral, aggressive, threshold:A, advisor[:S]")


def with_aggression(bidder: ThresholdBidder, aggression: float, name: str | None = None) -> ThresholdBidder:
    """A copy of a threshold bidder with another aggression (and name)."""
    return replace(bidder, aggression=aggression, name=name or f"threshold:{aggression:g}")
