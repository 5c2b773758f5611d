"""Information sets and world sampling for the sampling players (issues 5, 19).

An :class:`InfoSet` is what one seat knows at a decision: its own cards, the cards it
knows other seats hold (the turned card in the dealer's hand, an exposed open-miserie
hand), the suits each seat has shown void in, and how many cards each seat holds. An
optional fifth "seat" holds the cards out of play that the observer has not seen (the
others' kleine-miserie discards).
:func:`sample_world` deals the unseen cards uniformly over every deal consistent with
it, with the exact sampler both games share (``wiezen_sim.kernel.worlds``: the consistent
deals are counted exactly by dynamic programming, no rejection).

Kleine miserie. Every player of this package discards its highest card
(``kernel.worlds.highest_card``: the highest rank, the first suit in S H D C order on a tie), and every
seat knows it: a discard outranks every card its seat was dealt. :func:`observe` then
records the cards known to have been dealt to each seat (``InfoSet.dealt``: the cards it
played, and the dealer's turned card), and the worlds are drawn uniformly from the deals
in which each hidden seat's discard is its highest card (``kernel.worlds.discard_table``:
an exact count over the ranks, with no rejection). Where the play leaves
no such deal (a seat discarded otherwise), :func:`observe` leaves the rule out: the
discards are then dealt at random among the unseen cards, and :attr:`InfoSet.dealt` is
empty (the sampling player counts those decisions).

Reading the auction (issue 19). Every bid a seat chose is evidence about its hand under a
bidding model (:class:`AuctionModel`, pluggable; the advisor passes the threshold bot of
``wiezen_sim.analysis.threshold``, which lives above this layer). :class:`PosteriorWorlds`
draws worlds from the posterior: uniform over the deals consistent with the information
set, weighted by the likelihood of the bids the other seats chose. The model is read with a
tremble (ε-contamination, :data:`TREMBLE`): each hidden seat bids by the model with
probability 1 − ε, and otherwise off the model, making the same bids as the model but for a
hand of its own (its bids then say nothing about its hand, and are as likely as the model
makes them over random hands: :func:`bid_rate`, at least 1 / :data:`RATE_HANDS`). The
likelihood of a world is the product over the hidden seats of
(1 − ε) · P(the model makes every bid of that seat | its hand) + ε · rate(those bids).
So a seat whose bids are rare is off the model with posterior probability about ε, not
about ε / rate: the defenders of a miserie the bot bids draw declarer hands the bot would
bid miserie with (before this rate factor, a flat ε gave 95 % of their worlds an ordinary
declarer hand, since the bot bids miserie with about 1 % of hands). The tremble is per seat,
not per bid: a seat whose several bids are all off the model counts once.

A seat's bids may be ones the model makes with no hand consistent with the play (the advisor's
own bids "if I declare it", a bid replaced by a pass, a played card that rules out every hand
the model would bid with). Such a seat's bids are left *unread* at that decision: its hands are
drawn from the play alone, and the decision is counted (:attr:`PosteriorWorlds.unread`). Where
at most :data:`ENUMERATE_WORLDS` deals are consistent with the information set they are
enumerated, the posterior is exact and a seat is unread exactly when no consistent deal gives it
the model's bids. Otherwise worlds are drawn by rejection from the exact sampler (a candidate
kept with probability its likelihood over the largest likelihood, one test per seat read, the
rarest bids first), which is exact for the seats read. A seat is read only if the model makes
its bids in at least one of up to :data:`PILOT` candidates drawn first, and not drawn from
afterwards (the stated bound: a seat left unread has, with 95 % confidence, the model's bids in
less than 3 / PILOT of the consistent deals; the limited seat below gets PILOT more within its
lengths). A world costs about 1 / ((1 − ε)·Q + ε·rate) candidates for a seat read, Q the share
of the consistent deals in which the model makes its bids: a few thousand for open miserie (the
bot bids it with about 1 hand in 2000), about 25,000 for abondance (Q down to 0.00003), and the
product over the seats read when several are. So a model may say which suit lengths could make a
bid (``length_bound``, optional; the threshold bot has it for the bids that count playing
tricks, abondance, solo slim, solo, vraag and the like, and for the misère family, from the
risky cards). Each read seat's splits (the hidden cards per suit it may receive) are then
checked against it: a seat that could make its bids with none of the consistent deals is unread
at once (exactly, with no pilot), and the seat whose possible splits hold the smallest share
``f`` of the consistent deals is *limited*: each candidate is drawn, with probability ``α = f /
(f + e)`` (``e`` the factor of a hand off the model), uniformly among the consistent deals in
which that seat receives a possible split (``kernel.worlds.sample_worlds_within``, counted
exactly), and otherwise among all of them. Its test then divides its likelihood factor by the
proposal's density (``1 − α + α / f`` inside the splits, ``1 − α`` outside) and by the largest
such ratio, so the worlds kept are still exact for the seats read, off-model hands outside the
splits included; a heard abondance then costs a few hundred candidates a world instead of tens
of thousands (``tests/test_auction_worlds.py``). A model that makes a bid with a split its bound
ruled out is an error, not a bias. A world that takes more than :data:`WORLD_BUDGET` candidates
leaves unread, from then on, the read seat with the rarest bids (the smallest rate), and the
next after that budget again (two rare bids of two seats would otherwise cost tens of millions
of candidates a world): the seats still read are drawn exactly, the one left unread is counted
as above. :attr:`PosteriorWorlds.off_model` counts the worlds drawn in which some hidden seat's
bids are not the model's. Bids left out of the evidence: a pass the rules force (the only legal
bid: it says nothing about the hand, whatever the hand, RULES.md 1.4), and the bids of a seat
whose cards the observer sees (its own, an exposed hand) add nothing.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from wiezen_sim.cards import FULL_DECK, card_count, cards_of, suit_holding
from wiezen_sim.kernel import worlds as _kw
from wiezen_sim.kernel.playout import rng_new
from wiezen_sim.rules.auction import AuctionState, Bid
from wiezen_sim.vocabulary import SEATS

__all__ = [
    "ENUMERATE_WORLDS",
    "PILOT",
    "RATE_HANDS",
    "TREMBLE",
    "WORLD_BUDGET",
    "AuctionEvidence",
    "AuctionModel",
    "InfoSet",
    "PosteriorWorlds",
    "bid_rate",
    "count_worlds",
    "enumerate_worlds",
    "observe",
    "sample_world",
    "sample_worlds",
]

ENUMERATE_WORLDS = 2000  # consistent deals up to which the posterior is enumerated (exact)
TREMBLE = 0.05  # ε: the prior probability that a seat bids off the bidding model (module docstring)
RATE_HANDS = 4096  # random hands over which bid_rate counts how often the model makes a seat's bids
# rejection: candidates in which the model must make a seat's bids at least once for them to be read. The bot
# bids abondance with 1 hand in 5,000-30,000 of those its defenders cannot rule out: at 2,048 their decisions
# left the declarer's bid unread 67 % of the time on 10 abondance deals of the realism experiment (2 % at 131,072),
# 15 % at 65,536 for 2.6 times the CPU of those defenders (0.6 -> 1.6 s a deal); miserie 16 % -> 0 for +15 %,
# solo 0 % either way (session 26, results/README.md; since session 33 a long-suit or misère bidder, limited, is
# drawn within the suit lengths its bids need, and its pilot too: module docstring)
PILOT = 65536
# rejection: candidates one world may take before the read seat with the rarest bids is left unread (16 times
# PILOT: a single seat read costs at most 1 / (ε / RATE_HANDS) = 81,920 on average, so a world of one read seat
# exceeds it with probability below 3e-6; 1.2 s of candidates on the project's machine for a heard open miserie)
WORLD_BUDGET = 16 * PILOT
_RATE_SEED = 19  # the random hands of bid_rate (fixed: the rate is part of the model's reading)
_KEPT_RATES = 256  # bid rates kept (one auction's seats are read at every decision of a deal)
_rates: dict[tuple[int, tuple], tuple[object, float]] = {}
_FIRST_BATCH, _MAX_BATCH = 64, 4096  # candidates drawn at once: 64 first, at most 4096
# rejection: worlds a batch of candidates is sized to keep, from the share kept so far in the decision (a decision
# uses about 9 worlds; batches that grew fourfold whatever was kept threw away 4 of every 5 worlds kept on the
# example's first 8 deals under --method pimc)
_BATCH_WORLDS = 8


@dataclass(frozen=True)
class InfoSet:
    """What ``seat`` knows about the current deal.

    Attributes:
        seat: the observer.
        hands_known: int masks per seat: the observer's own cards, and for the others
            the cards known to be in their hands now (turned card, exposed hand).
        counts: cards each seat holds now.
        voids: per seat a 4-bit mask of suits it cannot hold (shown void).
        unseen: the cards the observer has not seen (to be dealt to the others).
        dealt: kleine miserie, every seat discarding its highest card (module docstring): per
            seat, the cards known to have been dealt to it that it does not hold now (played),
            and the dealer's turned card while unseen (held or discarded); empty: no such rule
            (the unseen discards go to the fifth place at random).
    """

    seat: int
    hands_known: tuple[int, ...]
    counts: tuple[int, ...]
    voids: tuple[int, ...]
    unseen: int
    dealt: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.counts)
        if n not in (SEATS, SEATS + 1) or len(self.hands_known) != n or len(self.voids) != n:
            raise ValueError("an information set has 4 seats (and optionally the unseen discards)")
        need = [self.counts[s] - card_count(self.hands_known[s]) for s in range(n)]
        if min(need) < 0 or sum(need) != card_count(self.unseen):
            raise ValueError(f"inconsistent information set: needs {need} for {card_count(self.unseen)} unseen cards")
        if need[self.seat] != 0:
            raise ValueError("the observer's own hand must be fully known")
        if self.dealt and (n != SEATS + 1 or len(self.dealt) != SEATS):
            raise ValueError("the discard rule needs 4 seats and the unseen discards, and the cards dealt to each seat")
        for s in range(n):
            for suit in range(4):
                if self.voids[s] >> suit & 1 and suit_holding(self.hands_known[s], suit):
                    raise ValueError(f"seat {s} is void in suit {suit} but is known to hold a card of it")

    def consistent(self, hands: tuple[int, ...] | list[int]) -> bool:
        """Whether a full deal (masks per seat, and the unseen discards) agrees with everything known."""
        if len(hands) != len(self.counts) or sum(int(h) for h in hands) != sum(self.hands_known) + self.unseen:
            return False
        for s in range(len(self.counts)):
            h = int(hands[s])
            if card_count(h) != self.counts[s] or h & self.hands_known[s] != self.hands_known[s]:
                return False
            if h & ~self.hands_known[s] & ~self.unseen:
                return False
            if any(self.voids[s] >> suit & 1 and suit_holding(h, suit) for suit in range(4)):
                return False
        return True


def _places(info: InfoSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(known cards, cards needed, voids) per place: int64 arrays for ``kernel.worlds``."""
    need = [info.counts[s] - card_count(info.hands_known[s]) for s in range(len(info.counts))]
    return (np.array(info.hands_known, dtype=np.int64), np.array(need, dtype=np.int64),
            np.array(info.voids, dtype=np.int64))  # fmt: skip


def count_worlds(info: InfoSet) -> float:
    """Number of deals consistent with the information set (float: exact below 2**53; kleine miserie:
    the unseen discards as one place, before the discard rule)."""
    _, need, voids = _places(info)
    return float(_kw.count_worlds(need, np.int64(info.unseen), voids))


def sample_world(info: InfoSet, rng: np.random.Generator) -> list[int]:
    """One deal drawn uniformly from the deals consistent with ``info`` (masks per seat; a fifth
    mask for the unseen discards when the information set has that pseudo-seat).

    The kernel's generator is seeded with one draw from ``rng`` (``kernel.worlds``).

    Raises:
        ValueError: no consistent deal exists.
    """
    return [int(h) for h in sample_worlds(info, 1, rng)[0]]


def sample_worlds(info: InfoSet, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` deals drawn independently and uniformly from those consistent with ``info``.

    Returns:
        ``int64[n, places]``: the masks per seat (and the unseen discards' pseudo-seat).

    Raises:
        ValueError: no consistent deal exists.
    """
    if info.dealt:
        return _rule_worlds(info, n, rng)[0]
    known, need, voids = _places(info)
    return _kw.sample_worlds(rng_new(int(rng.integers(2**63))), known, need, np.int64(info.unseen), voids, n)


@functools.lru_cache(maxsize=16)
def _discard_tables(info: InfoSet) -> tuple[list[int], np.ndarray, np.ndarray, tuple]:
    """Kleine miserie under the discard rule: the hidden seats (seat order), their needs (``int64[3]``), and
    ``kernel.worlds.discard_table`` (kept for the worlds of one decision)."""
    hidden = [s for s in range(SEATS) if s != info.seat]
    _, needs, all_voids = _places(info)
    need, voids = needs[hidden], all_voids[hidden]
    kept = np.array([info.dealt[s] & ~info.unseen | info.hands_known[s] for s in hidden], dtype=np.int64)
    only = np.array([info.dealt[s] & info.unseen for s in hidden], dtype=np.int64)
    ways, moves = _kw.discard_table(need, np.int64(info.unseen), voids, kept, only)
    return hidden, need, ways, moves


def _rule_worlds(info: InfoSet, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Kleine miserie under the discard rule: ``n`` worlds (``int64[n, 5]``) and, per world, the hidden seat
    (0..2 in seat order) that discarded the ``j``-th lowest unseen discard (``int64[n, 3]``)."""
    hidden, need, ways, moves = _discard_tables(info)
    state = rng_new(int(rng.integers(2**63)))
    hands, discards = _kw.sample_discard_worlds(state, need, np.int64(info.unseen), ways, moves, n)
    worlds = np.tile(np.array(info.hands_known, dtype=np.int64), (n, 1))
    worlds[:, hidden] |= hands
    worlds[:, SEATS] = np.bitwise_or.reduce(np.left_shift(np.int64(1), discards), axis=1)
    return worlds, np.argsort(discards, axis=1)


def enumerate_worlds(info: InfoSet) -> np.ndarray:
    """Every deal consistent with ``info``, in a fixed order (meant for :data:`ENUMERATE_WORLDS` or fewer).

    Returns:
        ``int64[count_worlds(info), places]``.
    """
    known, need, voids = _places(info)
    return _kw.enumerate_worlds(known, need, np.int64(info.unseen), voids)


class AuctionModel(Protocol):
    """A bidding model: it bids (to simulate an auction) and says how likely each hand is to make a bid
    (to read an auction as evidence).

    ``likelihood`` must read only the public auction and the hand it is given (the hand in
    ``state.hands`` of the seat to act is a placeholder) and return probabilities that sum
    to 1 over a seat's legal bids, in agreement with the bids the model makes. A
    deterministic bot returns 1.0 or 0.0.

    A model may also have ``length_bound(state, bid, lengths, held, cards) -> bool[n]``: False only
    where no hand with those dealt suit lengths (``int64[n, 4]``, S H D C) that holds every card of
    ``held`` and only cards of ``cards`` makes ``bid`` (a bound: True says nothing). The rejection
    then draws a rare bidder's hand among the lengths that can make its bids (module docstring).
    """

    def __call__(self, state: AuctionState) -> Bid:
        """The bid of the seat to act in ``state`` (one of ``legal_bids(state)``)."""
        ...

    def likelihood(self, state: AuctionState, bid: Bid, hands: np.ndarray) -> np.ndarray:
        """P(the seat to act in ``state`` bids ``bid``) for each of ``hands`` (``int64[n]``
        masks of its 13 dealt cards) as its hand: ``float64[n]`` in [0, 1]."""
        ...


@dataclass(frozen=True)
class AuctionEvidence:
    """The auction every seat heard, to be read under a bidding model.

    Attributes:
        turns: each bid a seat chose, with the auction state just before it (a pass
            the rules force is left out: see the module docstring).
        model: the bidding model that reads them.
    """

    turns: tuple[tuple[AuctionState, Bid], ...]
    model: AuctionModel


def _bids_made(model: AuctionModel, turns: tuple[tuple[AuctionState, Bid], ...], hands: np.ndarray) -> np.ndarray:
    """P(the model makes every bid of one seat's ``turns``) with each of ``hands`` (``int64[n]`` dealt hands as
    that seat's): ``float64[n]`` (the likelihood asked only for hands still possible)."""
    made = np.ones(len(hands))
    for state, bid in turns:
        live = np.flatnonzero(made > 0)
        if live.size:
            made[live] *= model.likelihood(state, bid, hands[live])
    return made


@functools.lru_cache(maxsize=1)
def reference_hands() -> np.ndarray:
    """``int64[RATE_HANDS]``: random 13-card hands from the full deck, the same in every process
    (seeded by ``_RATE_SEED``): the hands over which :func:`bid_rate` counts."""
    rng = np.random.default_rng(_RATE_SEED)
    deck = np.array(cards_of(FULL_DECK), dtype=np.int64)
    picks = rng.permuted(np.tile(deck, (RATE_HANDS, 1)), axis=1)[:, :13]
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), picks), axis=1)


def bid_rate(model: AuctionModel, turns: tuple[tuple[AuctionState, Bid], ...]) -> float:
    """How often the model makes one seat's bids: the mean over :func:`reference_hands` of
    P(the model makes every bid of ``turns`` | that hand), at least 1 / :data:`RATE_HANDS`.

    The off-model part of the tremble (module docstring): a seat off the model makes these
    bids this often, whatever its hand. Kept per (model, turns) for the decisions of a deal.

    Args:
        model: the bidding model; turns: the seat's bids with the auction state before each.

    Returns:
        A probability in [1 / RATE_HANDS, 1].
    """
    key = (id(model), turns)
    if key not in _rates:
        if len(_rates) >= _KEPT_RATES:
            _rates.clear()
        made = _bids_made(model, turns, reference_hands())
        _rates[key] = (model, max(float(made.mean()), 1 / RATE_HANDS))  # the model kept: its id stays its own
    return _rates[key][1]


@dataclass(frozen=True)
class _Limit:
    """The limited seat of a rejection (module docstring): the splits its hidden cards may take
    (``bool[kernel.worlds.SPLITS]``), their share of the consistent deals, and the probability that a
    candidate is drawn within them."""

    seat: int
    allowed: np.ndarray
    share: float
    within: float


@functools.lru_cache(maxsize=14)
def _all_splits(need: int) -> np.ndarray:
    """``int64[n, 4]``: every split of ``need`` cards over the four suits (at most 13 a suit)."""
    grid = np.stack(np.meshgrid(*[np.arange(14)] * 4, indexing="ij"), axis=-1).reshape(-1, 4)
    return grid[grid.sum(axis=1) == need]


def _splits_of(need: int, unseen: int, voids: int) -> np.ndarray:
    """``int64[n, 4]``: every split of ``need`` hidden cards over the suits (S, H, D, C) that ``unseen`` can give a
    seat with these void suits."""
    most = np.array([0 if voids >> s & 1 else card_count(suit_holding(unseen, s)) for s in range(4)])
    splits = _all_splits(need)
    return splits[(splits <= most).all(axis=1)]


def _split_codes(splits: np.ndarray) -> np.ndarray:
    """``int64[n]``: the index of each split (``int64[n, 4]``) in a ``kernel.worlds`` allowed table."""
    return _kw.split_code(*np.ascontiguousarray(splits.T))


class PosteriorWorlds:
    """Worlds drawn one at a time from the posterior given the play and the auction, read with a tremble
    (module docstring).

    Args:
        info: the observer's information set (:func:`observe`).
        history: the tricks played, as for :func:`observe` (each seat's dealt hand is its
            cards in a world plus the cards it played, plus its kleine-miserie discard).
        evidence: the auction and the model.
        rng: numpy Generator for every draw.
        tremble: ε, the prior probability that a seat bids off the model (0 < ε ≤ 1).
        enumerate_up_to: enumerate the consistent deals when there are at most this many.
        unread: seats whose bids are left unread from the start (found unread at an earlier decision of the
            same observer in the same deal: the consistent deals only shrink as cards are seen).

    Attributes:
        consistent: the number of deals consistent with ``info`` (:func:`count_worlds`).
        exact: whether the posterior is enumerated (False: rejection); worlds, p: then the
            consistent deals (``int64[W, places]``) and their posterior probabilities
            (``float64[W]``, all positive).
        unread: the hidden seats whose bids are left unread at this decision (no consistent
            deal found in which the model makes them, or a world drawn past :data:`WORLD_BUDGET`
            candidates: module docstring).
        drawn, off_model: worlds drawn so far, and those of them in which the model does not
            make every bid of some hidden seat (with the unseen discards' owners drawn with them).

    Raises:
        ValueError: ``tremble`` outside (0, 1].
    """

    def __init__(self, info: InfoSet, history: list[tuple[int, list[int]]], evidence: AuctionEvidence,
                 rng: np.random.Generator, tremble: float = TREMBLE,
                 enumerate_up_to: int = ENUMERATE_WORLDS, unread: frozenset[int] = frozenset()) -> None:  # fmt: skip
        if not 0 < tremble <= 1:
            raise ValueError(f"the tremble must be in (0, 1], got {tremble!r}")
        self.info, self.model, self.rng, self.tremble = info, evidence.model, rng, tremble
        hidden = [s for s in range(SEATS) if info.counts[s] > card_count(info.hands_known[s])]
        turns = {s: tuple((state, bid) for state, bid in evidence.turns if state.to_act == s) for s in hidden}
        self.turns = {s: t for s, t in turns.items() if t}
        self.unread = {s for s in self.turns if s in unread}
        self.rate = {s: bid_rate(self.model, t) for s, t in self.turns.items()}
        self.played = np.zeros(SEATS, dtype=np.int64)
        for leader, cards in history:
            for i, card in enumerate(cards):
                self.played[(leader + i) % SEATS] |= 1 << card
        self.owners = np.array([s for s in range(SEATS) if s != info.seat], dtype=np.int64)  # of the discards
        self.n_discards = info.counts[SEATS] if len(info.counts) > SEATS else 0  # the others' kleine-miserie discards
        self.queue: list[tuple[list[int], bool]] = []
        self.tried = self.kept = 0  # rejection: candidates drawn and kept by draw() (the pilot's not counted)
        self.drawn = self.off_model = 0
        self.consistent = count_worlds(info)
        self.exact = self.consistent <= enumerate_up_to
        self.limit: _Limit | None = None
        if not self.exact:
            self.worlds = np.zeros((0, len(info.counts)), dtype=np.int64)
            self._limit_lengths()
            self._pilot()
            return
        self.worlds = enumerate_worlds(info)
        n = len(self.worlds)
        orders = list(itertools.permutations(range(self.n_discards)))
        dealt = [self._dealt(self.worlds, np.tile(np.array(order, dtype=np.int64), (n, 1))) for order in orders]
        rule = [self._follows_rule(d, self.worlds) for d in dealt]
        made = [{s: self._seat_made(d[:, s], s) * ok for s in self.turns} for d, ok in zip(dealt, rule, strict=True)]
        self.unread |= {s for s in self.turns if not any(m[s].any() for m in made)}
        weight = np.stack([self._weight(m, n) * ok for m, ok in zip(made, rule, strict=True)], axis=1)
        self.on = np.stack([self._on(m, n) for m in made], axis=1)
        self.joint = weight.ravel() / weight.sum()
        self.p = weight.sum(axis=1) / weight.sum()

    def _pilot(self) -> None:
        """Rejection: leave unread the seats whose bids the model makes in none of up to :data:`PILOT` candidates
        (drawn 64, 256, … at a time until every seat read has one; they are not drawn from afterwards): candidates
        of the consistent deals, then, for the limited seat if they did not show its bids, up to :data:`PILOT`
        more as :meth:`_sample` draws them (mostly within its lengths, where every deal with its bids is: each
        shows them at least as often as a candidate of the consistent deals does)."""
        found: set[int] = set()
        limited = set() if self.limit is None else {self.limit.seat}
        for within in (False, True):
            tried, n = 0, _FIRST_BATCH
            while tried < PILOT and (left := (limited if within else set(self.turns) - limited) - self.unread - found):
                n = min(n, PILOT - tried)
                dealt = self._dealt(*self._sample(n, within))
                found |= {s for s in left | limited - found if self._seat_made(dealt[:, s], s).any()}
                tried, n = tried + n, 4 * n
        self.unread |= set(self.turns) - found

    def _limit_lengths(self) -> None:
        """Rejection: ask the model's ``length_bound`` (if it has one) which suit lengths each read seat could
        make its bids with; a seat with none in any consistent deal is unread (exactly), and the seat whose
        lengths are the rarest share of the consistent deals becomes the limited seat (module docstring)."""
        bound = getattr(self.model, "length_bound", None)
        if bound is None or len(self.info.counts) > SEATS:
            return
        _, need, voids = _places(self.info)
        for seat in sorted(set(self.turns) - self.unread):
            held = int(self.played[seat]) | self.info.hands_known[seat]
            splits = _splits_of(int(need[seat]), self.info.unseen, self.info.voids[seat])
            lengths = splits + [card_count(suit_holding(held, s)) for s in range(4)]
            ok = np.ones(len(splits), dtype=bool)
            for state, bid in self.turns[seat]:
                ok &= bound(state, bid, lengths, held, held | self.info.unseen)
            if ok.all():
                continue
            allowed = np.zeros(_kw.SPLITS, dtype=np.bool_)
            allowed[_split_codes(splits[ok])] = True
            share = (
                float(_kw.count_worlds_within(need, np.int64(self.info.unseen), voids, seat, allowed)) / self.consistent
            )
            if share == 0:
                self.unread.add(seat)
            elif share < 1 and (self.limit is None or share < self.limit.share):
                e = self.tremble * self.rate[seat] / (1 - self.tremble + self.tremble * self.rate[seat])
                self.limit = _Limit(seat, allowed, share, share / (share + e))

    def _sample(self, n: int, within: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``n`` worlds of the information set and which of the other seats (in seat order) discarded the
        ``j``-th lowest unseen discard in each (``int64[n, discards]``; at random without the discard rule).
        With a limited seat still read (and ``within``), each world is drawn within its lengths with probability
        ``limit.within``, else from the consistent deals."""
        if self.info.dealt:
            return _rule_worlds(self.info, n, self.rng)
        limit = self.limit
        if limit is None or limit.seat in self.unread or not within:  # a seat left unread: from the play alone
            return sample_worlds(self.info, n, self.rng), np.argsort(self.rng.random((n, self.n_discards)), axis=1)
        assert self.n_discards == 0  # no limit with the others' kleine-miserie discards (_limit_lengths)
        inside = int(self.rng.binomial(n, limit.within))
        known, need, voids = _places(self.info)
        state = rng_new(int(self.rng.integers(2**63)))
        worlds = np.concatenate([
            _kw.sample_worlds_within(state, known, need, np.int64(self.info.unseen), voids, inside, limit.seat,
                                     limit.allowed),
            sample_worlds(self.info, n - inside, self.rng),
        ])  # fmt: skip
        return worlds[self.rng.permutation(n)], np.zeros((n, 0), dtype=np.int64)

    def _limited_factor(self, worlds: np.ndarray, made: np.ndarray) -> np.ndarray:
        """The limited seat's acceptance: its likelihood factor over the proposal's density (relative to the
        consistent deals: 1 − within + within / share inside its lengths, 1 − within outside), over the
        largest value of that ratio (module docstring).

        Raises:
            ValueError: the model makes the seat's bids with lengths its ``length_bound`` ruled out.
        """
        limit = self.limit
        assert limit is not None
        received = worlds[:, limit.seat] & ~self.info.hands_known[limit.seat]
        per_suit = [np.bitwise_count(received >> (16 * s) & 0xFFFF).astype(np.int64) for s in range(4)]
        inside = limit.allowed[_split_codes(np.stack(per_suit, axis=1))]
        if (made[~inside] > 0).any():
            raise ValueError(f"the auction model's length_bound ruled out a hand it bids with (seat {limit.seat})")
        inside_density = 1 - limit.within + limit.within / limit.share  # of the proposal, over the consistent deals'
        off = self._factor(limit.seat, np.zeros(1))[0]  # the factor of a hand off the model
        density = np.where(inside, inside_density, 1 - limit.within)
        return self._factor(limit.seat, made) / (density * max(1 / inside_density, off / (1 - limit.within)))

    def _follows_rule(self, dealt: np.ndarray, worlds: np.ndarray) -> np.ndarray:
        """``bool[n]``: whether every other seat discarded its highest card, given each seat's dealt hands in
        ``worlds`` (:meth:`_dealt`: one unseen discard given to each other seat). A seat's dealt hand holds one
        of the unseen discards, its own, so its highest card is one of them exactly when it is that one (True
        everywhere without the discard rule)."""
        ok = np.ones(len(dealt), dtype=bool)
        if self.info.dealt:
            for seat in self.owners:
                ok &= np.left_shift(np.int64(1), _kw.highest_cards(dealt[:, seat])) & worlds[:, SEATS] != 0
        return ok

    def _dealt(self, worlds: np.ndarray, owners: np.ndarray) -> np.ndarray:
        """``int64[n, SEATS]``: each seat's dealt hand in each world (its cards, the cards it played, and under
        kleine miserie the unseen discards given back by ``owners``)."""
        dealt = worlds[:, :SEATS] | self.played
        if worlds.shape[1] > SEATS:  # kleine miserie: give each unseen discard back to a seat
            rest = worlds[:, SEATS].copy()
            rows = np.arange(len(worlds))
            for j in range(owners.shape[1]):
                low = rest & -rest
                rest ^= low
                dealt[rows, self.owners[owners[:, j]]] |= low
        return dealt

    def _seat_made(self, hands: np.ndarray, seat: int) -> np.ndarray:
        """P(the model makes every bid of ``seat``) with each of ``hands`` (``int64[n]`` dealt): ``float64[n]``."""
        return _bids_made(self.model, self.turns[seat], hands)

    def _factor(self, seat: int, made: np.ndarray) -> np.ndarray:
        """A read seat's likelihood factor over its largest value: ((1 − ε)·made + ε·rate) / (1 − ε + ε·rate)."""
        e = self.tremble * self.rate[seat]
        return ((1 - self.tremble) * made + e) / (1 - self.tremble + e)

    def _weight(self, made: dict[int, np.ndarray], n: int) -> np.ndarray:
        """The likelihood of the auction in each of ``n`` worlds over its largest value (``float64[n]`` in
        (0, 1]); the seats left unread count 1."""
        weight = np.ones(n)
        for seat, p in made.items():
            if seat not in self.unread:
                weight = weight * self._factor(seat, p)
        return weight

    def _on(self, made: dict[int, np.ndarray], n: int) -> np.ndarray:
        """Whether the model makes every bid of every hidden seat in each of ``n`` worlds (``bool[n]``; unread
        seats too)."""
        on = np.ones(n, dtype=bool)
        for p in made.values():
            on = on & (p > 0)
        return on

    def _candidates(self, n: int) -> list[tuple[list[int], bool]]:
        """Rejection: ``n`` candidates drawn, the kept ones with whether they are on the model. A candidate is
        kept with probability its weight, as one test per read seat (the product), the seats with the rarest
        bids first, so that the other seats' bids are read only in the candidates still kept."""
        worlds, owners = self._sample(n)
        dealt = self._dealt(worlds, owners)
        keep, on = np.arange(n), np.ones(n, dtype=bool)  # on: aligned with keep
        for seat in sorted(set(self.turns) - self.unread, key=lambda s: self.rate[s]):
            made = self._seat_made(dealt[keep, seat], seat)
            limited = self.limit is not None and seat == self.limit.seat  # read: its worlds drawn by the limit
            factor = self._limited_factor(worlds[keep], made) if limited else self._factor(seat, made)
            kept = self.rng.random(len(keep)) < factor
            keep, on = keep[kept], on[kept] & (made[kept] > 0)
        for seat in self.unread:
            on = on & (self._seat_made(dealt[keep, seat], seat) > 0)
        return [(worlds[k].tolist(), bool(o)) for k, o in zip(keep.tolist(), on.tolist(), strict=True)]

    def _batch_size(self) -> int:
        """Rejection: candidates in the next batch, enough for about :data:`_BATCH_WORLDS` worlds at the share
        kept so far (while none is kept: 64, then three times the candidates drawn, so that they grow fourfold),
        within 64..4096. Every candidate is drawn and tested alike whatever the batch, so the worlds kept are the
        same i.i.d. draws from the posterior."""
        wanted = -(-_BATCH_WORLDS * self.tried // self.kept) if self.kept else 3 * self.tried
        return min(max(wanted, _FIRST_BATCH), _MAX_BATCH)

    def draw(self) -> list[int]:
        """One world (masks per place, as :func:`sample_world`)."""
        self.drawn += 1
        if self.exact:
            k = int(self.rng.choice(len(self.joint), p=self.joint))
            world, on = self.worlds[k // self.on.shape[1]].tolist(), bool(self.on.ravel()[k])
        else:
            spent = 0
            while not self.queue:
                if spent >= WORLD_BUDGET:  # a seat is still read here: with none, every candidate is kept
                    self.unread.add(min(set(self.turns) - self.unread, key=lambda s: self.rate[s]))
                    spent = 0
                n = self._batch_size()
                self.queue = self._candidates(n)
                self.tried, self.kept = self.tried + n, self.kept + len(self.queue)
                spent += n
            world, on = self.queue.pop()
        self.off_model += not on
        return [int(h) for h in world]


def observe(
    seat: int,
    start_hands: tuple[int, ...] | list[int],
    history: list[tuple[int, list[int]]],
    dealer: int | None = None,
    turned: int | None = None,
    exposed: tuple[int, ...] = (),
    discards: list[int] | None = None,
    dealt_known: Sequence[int] = (),
) -> InfoSet:
    """The information set of ``seat`` after the cards in ``history`` were played.

    Args:
        start_hands: the four hands as dealt (masks; before any kleine-miserie discard).
        history: tricks in order, each ``(leader, cards in play order)``; the last one
            may be incomplete (the trick in progress).
        dealer, turned: the turned card is known to be in the dealer's hand until played
            (not with discards: the dealer may have discarded it face down).
        exposed: seats whose hands lie face up now (open miserie after the first trick).
        discards: kleine miserie: each seat's face-down discard; the observer knows only
            its own, the others' go to the fifth pseudo-seat, with the discard rule (module
            docstring) unless the play leaves no deal under it.
        dealt_known: per seat, cards the rules show to be in its dealt hand (a troel holder's
            aces: ``rules.play.PlaySetup.declarer_cards``); those it has not played are in its hand.

    Raises:
        ValueError: a card played by a seat that did not hold it, or ``dealt_known`` with discards
            (no contract has both).
    """
    played = [0] * SEATS
    voids = [0] * SEATS
    for leader, cards in history:
        for i, card in enumerate(cards):
            s = (leader + i) % SEATS
            if not start_hands[s] >> card & 1:
                raise ValueError(f"seat {s} played a card it was not dealt")
            played[s] |= 1 << card
            if i and card >> 4 != cards[0] >> 4:
                voids[s] |= 1 << (cards[0] >> 4)
    gone = [0] * SEATS if discards is None else [1 << d for d in discards]
    current = [start_hands[s] & ~played[s] & ~gone[s] for s in range(SEATS)]
    known = [0] * SEATS
    known[seat] = current[seat]
    if turned is not None and dealer is not None and discards is None and current[dealer] >> turned & 1:
        known[dealer] |= 1 << turned
    for s in exposed:
        known[s] = current[s]
    if any(dealt_known) and discards is not None:
        raise ValueError("cards known to be dealt to a seat and kleine-miserie discards do not go together")
    for s, mask in enumerate(dealt_known):
        known[s] |= mask & ~played[s]
    counts = [card_count(h) for h in current]
    seen = sum(played) | known[seat] | sum(known) | gone[seat]
    unseen = ((1 << 64) - 1) & sum(start_hands) & ~seen
    if discards is None:
        return InfoSet(seat, tuple(known), tuple(counts), tuple(voids), unseen)
    dealt = list(played)
    if turned is not None and dealer is not None:
        dealt[dealer] |= 1 << turned
    info = InfoSet(seat, (*known, 0), (*counts, SEATS - 1), (*voids, 0), unseen, tuple(dealt))
    try:  # a world under the discard rule exists (one drawn with a generator of its own)
        _rule_worlds(info, 1, np.random.default_rng(0))
    except ValueError:
        return InfoSet(seat, (*known, 0), (*counts, SEATS - 1), (*voids, 0), unseen)
    return info
