"""The threshold bidding bot (issue 8) and its reading as an auction model (issue 19; RULES.md 1.4).

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

As an auction model (:class:`wiezen_sim.solvers.worlds.AuctionModel`, the default model
of the advisor's ``pimc`` method) the bot is deterministic: the likelihood of a bid is 1
for a hand with which the bot makes it and 0 otherwise. Both readings go through one
computation: a hand's *wish code* (:meth:`ThresholdBidder.codes`, every feature the
decision reads, a numba loop over many hands at once (`kernel.wishes`), from per-suit tables of
:func:`~wiezen_sim.rules.bots.playing_tricks` and :func:`misere_risk`, which are sums over
the suits), then one decision per distinct code.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from wiezen_sim.cards import SUITS, card_suit, suit_holding
from wiezen_sim.kernel.wishes import FLAG_BIT, HOLDINGS, NEEDS, wish_codes
from wiezen_sim.rules.auction import AuctionState, Bid, legal_bids
from wiezen_sim.rules.bots import playing_tricks
from wiezen_sim.rules.contracts import ACCEPT, CARTE_BLANCHE, CONTRACTS, PASS, WAIT, contract_spec

__all__ = ["MISERE_ORDER", "NEUTRAL", "STYLES", "ThresholdBidder", "misere_risk", "pass_or_lowest", "with_aggression"]

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

_KEPT_STATES = 256  # auction states whose decisions by wish code likelihood() keeps
_KEPT_HANDS = 4096  # hands whose wishes __call__ keeps (the advisor's bid values ask the same few hands often)


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


@functools.lru_cache(maxsize=8)
def _risk_table(step: float) -> np.ndarray:
    """int64[8192]: :func:`misere_risk` of every holding of one suit."""
    return np.array([misere_risk(h << 2, step) for h in range(HOLDINGS)], dtype=np.int64)


@functools.lru_cache(maxsize=1)
def _trick_tables() -> tuple[np.ndarray, np.ndarray]:
    """int64[8192] twice :func:`playing_tricks` of every holding of one suit: as a side suit,
    and the extra it counts as the trump suit."""
    side = np.array([2 * playing_tricks(h << 2, None) for h in range(HOLDINGS)], dtype=np.int64)
    trump = np.array([2 * playing_tricks(h << 2, 0) for h in range(HOLDINGS)], dtype=np.int64)
    return side, trump - side


_NO_HOLDING = -(1 << 20)  # the tricks of a suit length no holding can have


def _holdings(held: int, cards: int) -> list[np.ndarray]:
    """Per suit, every holding (``int64``, ranks 2..14 at bits 0..12) that holds the suit's cards of ``held`` and
    only cards of ``cards``."""
    out = []
    for suit in range(len(SUITS)):
        must, may = held >> (16 * suit + 2) & (HOLDINGS - 1), cards >> (16 * suit + 2) & (HOLDINGS - 1)
        free = np.array([1 << b for b in range(13) if (may & ~must) >> b & 1], dtype=np.int64)
        picks = (np.arange(1 << len(free))[:, None] >> np.arange(len(free)) & 1).astype(bool)
        out.append(must | (picks * free).sum(axis=1))
    return out


def _most_by_length(holdings: list[np.ndarray], table: np.ndarray) -> np.ndarray:
    """``int64[4, 14]``: per suit and length, the largest ``table`` value (indexed by holding) of the suit's
    ``holdings`` of that length (:data:`_NO_HOLDING` where none has it)."""
    most = np.full((len(SUITS), 14), _NO_HOLDING, dtype=np.int64)
    for suit, h in enumerate(holdings):
        np.maximum.at(most[suit], np.bitwise_count(h).astype(np.int64), table[h])
    return most


def pass_or_lowest(legal: list[Bid]) -> Bid:
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
    # (public state, bid) → {wish code: the bid is made}: the decisions of likelihood(), kept for a few states
    _made: dict = field(default_factory=dict, init=False, compare=False, repr=False)
    # (hand, turned suit) → wishes: the decisions of __call__, kept for a few hands
    _wished: dict = field(default_factory=dict, init=False, compare=False, repr=False)

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

    def codes(self, hands: np.ndarray, turned_suit: int) -> np.ndarray:
        """The wish codes of many hands (:mod:`wiezen_sim.kernel.wishes`): two hands with one code get one
        decision.

        Args:
            hands: ``int64[n]`` card masks of 13 cards; turned_suit: 0..3.

        Returns:
            ``int64[n]``.
        """
        side, extra = _trick_tables()
        need = np.array([2 * self.threshold(name) for name in NEEDS], dtype=np.float64)
        return wish_codes(
            np.ascontiguousarray(hands, dtype=np.int64),
            turned_suit,
            side,
            extra,
            _risk_table(self.threshold("misere_step")),
            _risk_table(self.threshold("open_step")),
            need,
        )

    def wishing(self, hands: np.ndarray, turned_suit: int, contract: str) -> np.ndarray:
        """Whether each hand would declare ``contract`` when it may (:meth:`wishes`; abondance: at level 9
        in its best suit; troel: the hand holds three or four aces, RULES.md 1.5).

        Args:
            hands: ``int64[n]`` card masks of 13 cards; turned_suit: 0..3; contract: a contract name.

        Returns:
            ``bool[n]``.

        Raises:
            ValueError: an unknown contract.
        """
        codes = self.codes(hands, turned_suit)
        if contract == "abondance":
            return (codes & 63) >= 2 * self.threshold("abondance")
        name = "holds_troel" if contract == "troel" else contract
        if name not in FLAG_BIT:
            raise ValueError(f"unknown contract {contract!r}; known: {', '.join(CONTRACTS)}")
        return (codes >> FLAG_BIT[name] & 1).astype(bool)

    @staticmethod
    def _wishes_of(code: int) -> dict[str, object]:
        """The :meth:`wishes` dict of a wish code."""
        wish: dict[str, object] = {"troel": True, "abondance": ((code & 63) / 2, code >> 6 & 3)}
        wish.update({name: bool(code >> bit & 1) for name, bit in FLAG_BIT.items() if name != "holds_troel"})
        return wish

    def wishes(self, hand: int, turned_suit: int) -> dict[str, object]:
        """What the hand would declare: contract name → True, or (level, suit) for abondance.

        Returns:
            ``{"troel": bool, "solo_slim": bool, "open_miserie": bool, "miserie": bool,
            "pico": bool, "kleine_miserie": bool, "abondance": (tricks, suit),
            "abondance_in_troef": bool, "solo": bool, "vraag": bool, "accept": bool,
            "wait": bool}`` (abondance: playing tricks in the best suit and that suit).
        """
        return self._wishes_of(int(self.codes(np.array([hand], dtype=np.int64), turned_suit)[0]))

    def __call__(self, state: AuctionState) -> Bid:
        seat = state.to_act
        assert seat is not None
        key = (state.hands[seat], card_suit(state.turned))
        if key not in self._wished:
            if len(self._wished) >= _KEPT_HANDS:
                self._wished.clear()
            self._wished[key] = self.wishes(*key)
        return self._decide(state, self._wished[key])

    def likelihood(self, state: AuctionState, bid: Bid, hands: np.ndarray) -> np.ndarray:
        """Whether the bot makes ``bid`` in ``state`` with each of ``hands`` as the hand of the seat to act
        (:class:`~wiezen_sim.solvers.worlds.AuctionModel`; deterministic: 1.0 or 0.0).

        Args:
            state: the auction before the bid (its hand of the seat to act is not read).
            hands: ``int64[n]`` masks of 13 dealt cards.

        Returns:
            ``float64[n]``.
        """
        seat = state.to_act
        assert seat is not None
        codes = self.codes(hands, card_suit(state.turned))
        unique, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        # the decisions are kept per public state (no hand: a bid reads only the hand of the seat to act,
        # through its wish code), so the sampled deals of one position share them
        public = dataclasses.replace(state, hands=(0, 0, 0, 0))
        if len(self._made) > _KEPT_STATES and (public, bid) not in self._made:
            self._made.clear()
        known = self._made.setdefault((public, bid), {})
        for code, i in zip(unique.tolist(), first.tolist(), strict=True):
            if code not in known:
                seated = [0, 0, 0, 0]
                seated[seat] = int(hands[i])
                placed = dataclasses.replace(public, hands=(seated[0], seated[1], seated[2], seated[3]))
                known[code] = self._decide(placed, self._wishes_of(code)) == bid
        return np.array([known[code] for code in unique.tolist()], dtype=np.float64)[inverse.ravel()]

    def length_bound(self, state: AuctionState, bid: Bid, lengths: np.ndarray, held: int, cards: int) -> np.ndarray:
        """Whether some hand with each of these dealt suit lengths could make ``bid`` in ``state``: False only
        where no hand of those lengths that holds every card of ``held`` and only cards of ``cards`` makes it
        (:class:`~wiezen_sim.solvers.worlds.AuctionModel`): the bids that need playing tricks (abondance, solo
        slim, abondance in troef, solo, vraag, accept, wait) and the misère family (miserie and open miserie: no
        risky card, pico and kleine miserie: at most one); True for the others.

        The most playing tricks such a hand can count is the sum over the suits of the most each suit's holding
        of its length can count, and the fewest risky cards (:func:`misere_risk`) the sum of the fewest (the
        holdings of the suits are independent).

        Args:
            state: the auction before the bid; lengths: ``int64[n, 4]`` dealt cards per suit (S, H, D, C);
            held, cards: card masks (``held`` within ``cards``).

        Returns:
            ``bool[n]``.
        """
        lengths = np.asarray(lengths, dtype=np.int64)
        turned, suits = card_suit(state.turned), np.arange(len(SUITS))
        if bid.name in MISERE_ORDER:
            step = self.threshold("open_step" if bid.name == "open_miserie" else "misere_step")
            least = -_most_by_length(_holdings(held, cards), -_risk_table(step))  # the fewest risky cards
            risk = least[suits, lengths].sum(axis=1)
            return risk <= (0 if bid.name in ("miserie", "open_miserie") else 1)
        if bid.name == "abondance":
            need, trumps = (
                self.threshold("abondance") + (bid.level or 9) - 9,
                [bid.trump] if bid.trump is not None else suits,
            )
        elif bid.name == "solo_slim":
            need, trumps = self.threshold("solo_slim"), suits
        elif bid.name in ("abondance_in_troef", "solo", "vraag", ACCEPT, WAIT):
            need, trumps = self.threshold("abondance" if bid.name == "abondance_in_troef" else bid.name), [turned]
        else:
            return np.ones(len(lengths), dtype=bool)
        side_table, extra = _trick_tables()
        holdings = _holdings(held, cards)
        side, trump = _most_by_length(holdings, side_table), _most_by_length(holdings, side_table + extra)
        sides = side[suits, lengths].sum(axis=1)  # [n]
        best = np.max([sides - side[t, lengths[:, t]] + trump[t, lengths[:, t]] for t in trumps], axis=0)
        return best >= 2 * need

    def _decide(self, state: AuctionState, wish: dict[str, object]) -> Bid:
        """The bid of the seat to act with these wishes (the order of the module docstring)."""
        legal = legal_bids(state)
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
        return pass_or_lowest(legal)

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


def with_aggression(bidder: ThresholdBidder, aggression: float, name: str | None = None) -> ThresholdBidder:
    """A copy of a threshold bidder with another aggression (and name)."""
    return dataclasses.replace(bidder, aggression=aggression, name=name or f"threshold:{aggression:g}")
