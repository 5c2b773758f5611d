"""Romanian whist: what a bidder sees, the bidders and the named policies (RULES.md Part 2).

A :class:`Policy` is a bidder (:data:`Bidder`: :class:`BidView` and a generator → a
legal bid) and a play policy of the kernel (``random``, ``aim`` or ``pimc``, documented
in :mod:`wiezen_sim.kernel.romanian`). :func:`make_policy` builds the named policies of
:data:`POLICIES`. Seats are positions in playing order for a deal: seat 0 is left of
the dealer (bids first, leads first), seat N−1 the dealer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from wiezen_sim.analysis.romanian.bids import advise_unchecked, forehead_outcomes
from wiezen_sim.cards import card_suit, cards_of
from wiezen_sim.kernel import romanian as _k
from wiezen_sim.rules.romanian import DealSpec, RomanianScoring, deck_mask, get_scoring, legal_bids

__all__ = [
    "PLAY_CODES",
    "POLICIES",
    "BidView",
    "Bidder",
    "Policy",
    "bid_view",
    "forehead_p_win",
    "heuristic_bidder",
    "make_policy",
    "mc_bidder",
    "random_bidder",
]


@dataclass(frozen=True)
class BidView:
    """What one player knows when bidding (RULES.md Part 2, one-card and special deal variants).

    Attributes:
        players, seat, cards: table size, bidding position (0 = left of the dealer), deal size.
        hand: the player's own cards, or ``None`` when hidden (forehead and blind deals).
        others: ``others[s]`` = the cards of seat ``s`` when visible (forehead deals:
            every other seat's card), else ``None``; ``others[seat]`` is always ``None``.
        turned: the turned card or ``None``.
        bids_so_far: bids of seats 0..seat−1.
        legal: the bids this player may make.
        visibility: ``normal``, ``forehead`` or ``blind``.
    """

    players: int
    seat: int
    cards: int
    hand: int | None
    others: tuple[int | None, ...]
    turned: int | None
    bids_so_far: tuple[int, ...]
    legal: tuple[int, ...]
    visibility: str


def bid_view(
    hands: Sequence[int], seat: int, spec: DealSpec, turned: int | None, bids_so_far: Sequence[int]
) -> BidView:
    """The :class:`BidView` of ``seat`` for dealt ``hands`` (seat order) under the deal's visibility rule.

    Forehead: the own card is hidden, all other cards are shown. Blind: nothing but the
    turned card and the bids is shown. Normal: the own hand only.
    """
    n = len(hands)
    own: int | None = hands[seat]
    others: list[int | None] = [None] * n
    if spec.visibility == "forehead":
        own = None
        others = [None if s == seat else hands[s] for s in range(n)]
    elif spec.visibility == "blind":
        own = None
    legal = tuple(legal_bids(n, spec.cards, tuple(bids_so_far), spec.forced_bid))
    return BidView(n, seat, spec.cards, own, tuple(others), turned, tuple(bids_so_far), legal, spec.visibility)


Bidder = Callable[[BidView, np.random.Generator], int]
"""A bidding rule: given a :class:`BidView` and a generator, return one of ``view.legal``."""


def _nearest_legal(view: BidView, e: float) -> int:
    return int(min(view.legal, key=lambda b: (abs(b - e), b)))


def forehead_p_win(view: BidView) -> float:
    """P(win the one trick) in a forehead deal: own card uniform over the cards the player cannot see.

    The player sees every other card and the turned card; its own card is one of the
    remaining deck cards, each equally likely. Play of a one-card deal is forced (seat 0
    leads), so the win is decided by the cards alone.
    """
    shown = [-1 if card is None else cards_of(card)[0] for card in view.others]  # every other seat's card
    outcomes = forehead_outcomes(view.players, view.seat, shown, view.turned)
    return sum(outcomes.values()) / len(outcomes)


def heuristic_bidder(view: BidView, rng: np.random.Generator) -> int:
    """The heuristic bidder (documented in ``wiezen_sim.kernel.romanian``).

    Normal deals: nearest legal bid to the expected-trick estimate. Forehead one-card
    deals: bid 1 when :func:`forehead_p_win` > 1/2, else 0 (nearest legal). Blind deals:
    nearest legal bid to ``cards / players``.
    """
    if view.visibility == "forehead":
        return _nearest_legal(view, 1.0 if forehead_p_win(view) > 0.5 else 0.0)
    if view.hand is None:
        return _nearest_legal(view, view.cards / view.players)
    turned_mask = 0 if view.turned is None else 1 << view.turned
    trump = -1 if view.turned is None else card_suit(view.turned)
    e = _k.expected_tricks(
        np.int64(view.hand),
        view.seat,
        view.players,
        view.cards,
        trump,
        np.int64(deck_mask(view.players)),
        np.int64(turned_mask),
    )
    return _nearest_legal(view, float(e))


def random_bidder(view: BidView, rng: np.random.Generator) -> int:
    """A uniformly random legal bid."""
    return int(view.legal[int(rng.integers(len(view.legal)))])


def mc_bidder(samples: int = 128, scoring: str | RomanianScoring = "default") -> Bidder:
    """A Monte Carlo bidder: the legal bid of highest expected score by :func:`advise` (model ``aim``).

    Falls back to :func:`heuristic_bidder` when the hand is hidden (forehead, blind).
    """
    rule = get_scoring(scoring)

    def bid(view: BidView, rng: np.random.Generator) -> int:
        if view.hand is None:
            return heuristic_bidder(view, rng)
        if len(view.legal) == 1:
            return view.legal[0]
        seed = int(rng.integers(2**62))
        adv = advise_unchecked(view.hand, view.players, view.seat, view.cards, view.turned, view.bids_so_far, rule,
                               samples, seed, "aim")  # fmt: skip
        legal = [o for o in adv.options if o.bid in view.legal]
        return max(legal, key=lambda o: (o.expected_score, -o.bid)).bid

    return bid


@dataclass(frozen=True)
class Policy:
    """A player: a bidder and a play policy.

    Attributes:
        name: label in result tables.
        bidder: a :data:`Bidder`.
        play: ``"random"``, ``"aim"`` (bid-aiming heuristic) or ``"pimc"`` (kernel docstring).
        worlds: sampled worlds per PIMC decision.
    """

    name: str
    bidder: Bidder
    play: str = "aim"
    worlds: int = 16

    def __post_init__(self) -> None:
        if self.play not in PLAY_CODES:
            raise ValueError(f"play must be one of {', '.join(PLAY_CODES)}, got {self.play!r}")


PLAY_CODES = {"random": _k.PLAY_RANDOM, "aim": _k.PLAY_AIM, "pimc": _k.PLAY_PIMC}


def make_policy(
    name: str, bid_samples: int = 128, worlds: int = 16, scoring: str | RomanianScoring = "default"
) -> Policy:
    """A named policy of :data:`POLICIES`.

    ``random``: random legal bid, random legal card. ``heuristic``: heuristic bidder,
    bid-aiming play. ``mc``: Monte Carlo bidder (``bid_samples`` deals per candidate,
    scoring-aware), bid-aiming play. ``pimc``: Monte Carlo bidder, PIMC play with
    ``worlds`` worlds per decision (opponents modelled as aiming at their own bids).

    Raises:
        ValueError: unknown name.
    """
    if name == "random":
        return Policy(name, random_bidder, "random")
    if name == "heuristic":
        return Policy(name, heuristic_bidder, "aim")
    if name == "mc":
        return Policy(name, mc_bidder(bid_samples, scoring), "aim")
    if name == "pimc":
        return Policy(name, mc_bidder(bid_samples, scoring), "pimc", worlds)
    raise ValueError(f"unknown Romanian policy {name!r}; known: {', '.join(POLICIES)}")


POLICIES = ("random", "heuristic", "mc", "pimc")
