"""Romanian whist: the bid advisor and whole-game simulation (rules: RULES.md Part 2).

Public API:

- :func:`advise` — for a hand in a seat after some bids: for every bid 0..cards the
  probability of taking exactly that many tricks, the expected score under a scoring
  rule and the trick distribution; the recommended (legal) bid.
- :func:`simulate` — complete games between bidding/playing policies
  (:data:`POLICIES`); mean score per game per policy with t-intervals.
- :func:`play_game` — one complete game with explicit :class:`Policy` objects (custom
  bidders allowed); :func:`bid_view` — what a player sees when bidding.

Seats are positions in playing order for a deal: seat 0 is left of the dealer (bids
first, leads first), seat N−1 the dealer. Units: tricks (counts), points (the chosen
scoring), probabilities in [0, 1].

The estimator (see ``wiezen_sim.kernel.romanian`` for the exact policies): the unseen
cards — the deck for N players minus the hand and the turned card, which is in nobody's
hand — are dealt uniformly, ``cards`` to each other player, the rest stays undealt.
Players still to bid bid with the heuristic bidder (hearing the bids before them, the
dealer's hook applied). Every player, the analysed one included, then plays the
bid-aiming heuristic towards its own bid. Model ``"aim"`` (default): the analysed
player's bid changes its play, so each candidate bid is played out separately, aiming
at that bid, on the same sampled deals (common random numbers); each bid then has its
own trick distribution and ``p_exact(b)`` is the chance of hitting ``b`` when aiming at
it — these need not sum to 1 over the bids (for one-card deals, where play is forced,
they do). Model ``"fixed"``: the analysed player bids and plays like the heuristic bots;
one trick distribution serves every bid, so ``p_exact`` sums to 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import stats

from wiezen_sim.analysis.stats import mean_interval, wilson
from wiezen_sim.cards import card_count, card_name, card_suit, cards_of, hand_name, parse_card, parse_hand
from wiezen_sim.kernel import romanian as _k
from wiezen_sim.kernel.trick import trick_winner
from wiezen_sim.rules.romanian import (
    DealSpec,
    RomanianRules,
    RomanianScoring,
    StreakCounter,
    check_bids,
    check_cards_in_deck,
    check_players,
    counts_for_streak,
    deal_score,
    deck_mask,
    forbidden_bid,
    game_winners,
    get_scoring,
    legal_bids,
)

ADVISE_BATCH = 4096  # samples per batch: fixed, so results never depend on n_jobs
MODELS = ("aim", "fixed")


def _kernel_seed(seq: np.random.SeedSequence) -> int:
    return int(seq.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


# ----------------------------------------------------------------------------- advisor


@dataclass(frozen=True)
class BidOption:
    """One candidate bid of :class:`Advice`.

    Attributes:
        bid: tricks bid (0..cards).
        legal: False for the dealer's forbidden bid (never recommended).
        p_exact: probability of taking exactly ``bid`` tricks; ``p_exact_ci`` its 95 %
            Wilson interval.
        expected_score: expected points under the scoring; ``expected_score_ci`` its 95 %
            t-interval.
        tricks: trick distribution, ``tricks[t]`` = P(t tricks), t = 0..cards (sums to 1).
    """

    bid: int
    legal: bool
    p_exact: float
    p_exact_ci: tuple[float, float]
    expected_score: float
    expected_score_ci: tuple[float, float]
    tricks: tuple[float, ...]


@dataclass(frozen=True)
class Advice:
    """The result of :func:`advise` (field meanings as its arguments)."""

    hand: int
    players: int
    seat: int
    cards: int
    turned: int | None
    bids_so_far: tuple[int, ...]
    scoring: str
    samples: int
    model: str
    options: tuple[BidOption, ...]
    recommendation: BidOption
    bid_sigma: float = 0.0
    effective_samples: float = 0.0

    def to_dict(self) -> dict:
        """JSON-ready dict: hand, players, seat, trump, bids_so_far, scoring, samples, model, options, recommendation"""
        return {
            "hand": hand_name(self.hand, "cards"),
            "players": self.players,
            "seat": self.seat,
            "trump": None if self.turned is None else card_name(self.turned),
            "bids_so_far": list(self.bids_so_far),
            "scoring": self.scoring,
            "samples": self.samples,
            "model": self.model,
            "bid_sigma": self.bid_sigma,
            "effective_samples": self.effective_samples,
            "options": [
                {
                    "bid": o.bid,
                    "legal": o.legal,
                    "p_exact": o.p_exact,
                    "p_exact_ci": list(o.p_exact_ci),
                    "expected_score": o.expected_score,
                    "expected_score_ci": list(o.expected_score_ci),
                    "tricks": list(o.tricks),
                }
                for o in self.options
            ],
            "recommendation": {"bid": self.recommendation.bid, "expected_score": self.recommendation.expected_score},
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per bid: bid, legal, p_exact (+ lo/hi), expected_score (+ lo/hi), P(t tricks) columns ``t0..``."""
        rows = []
        for o in self.options:
            row = {
                "bid": o.bid,
                "legal": o.legal,
                "p_exact": o.p_exact,
                "p_exact_lo": o.p_exact_ci[0],
                "p_exact_hi": o.p_exact_ci[1],
                "expected_score": o.expected_score,
                "expected_score_lo": o.expected_score_ci[0],
                "expected_score_hi": o.expected_score_ci[1],
            }
            row.update({f"t{t}": p for t, p in enumerate(o.tricks)})
            rows.append(row)
        return pd.DataFrame(rows)


def _parse_turned(trump: int | str | None) -> int | None:
    if trump is None:
        return None
    if isinstance(trump, str):
        if trump.strip().lower() in ("none", "-", ""):
            return None
        return parse_card(trump)
    if isinstance(trump, bool) or not isinstance(trump, int) or not 0 <= trump < 64:
        raise ValueError(f"trump must be a card or None, got {trump!r}")
    card_name(trump)  # validates the bit number
    return trump


def _advise_counts(hand, seat, players, cards, trump_suit, deck, turned_mask, bids, samples, mode, sigma, seed, n_jobs):
    """Sums of kernel batches (counts, sum of squared weights); batches depend only on (samples, seed)."""
    n_batches = max(1, math.ceil(samples / ADVISE_BATCH))
    seeds = [_kernel_seed(s) for s in np.random.SeedSequence(seed).spawn(n_batches)]
    sizes = [min(ADVISE_BATCH, samples - i * ADVISE_BATCH) for i in range(n_batches)]
    args = (np.int64(hand), seat, players, cards, trump_suit, np.int64(deck), np.int64(turned_mask), bids)
    if n_jobs == 1 or n_batches == 1:
        parts = [_k.advise_batch(*args, size, mode, sigma, s) for size, s in zip(sizes, seeds, strict=True)]
    else:
        parts = Parallel(n_jobs=n_jobs)(
            delayed(_k.advise_batch)(*args, size, mode, sigma, s) for size, s in zip(sizes, seeds, strict=True)
        )
    return np.sum([c for c, _ in parts], axis=0), float(sum(w2 for _, w2 in parts))


def advise(
    hand: int | str,
    players: int,
    seat: int,
    trump: int | str | None,
    bids_so_far: Sequence[int] = (),
    scoring: str | RomanianScoring = "default",
    samples: int = 10000,
    seed: int = 0,
    model: str = "aim",
    n_jobs: int = 1,
    bid_sigma: float = 0.0,
) -> Advice:
    """What to bid with ``hand`` in ``seat`` after ``bids_so_far`` (RULES.md Part 2).

    Args:
        hand: the player's cards (a mask or any ``parse_hand`` text); 1..8 cards, all in
            the deck for ``players`` players; the number of cards is the deal size.
        players: 3..6.
        seat: 0 (left of the dealer, bids first) .. players−1 (the dealer).
        trump: the turned card (``"QH"``, a bit number) or ``None``/``"none"``; an 8-card
            deal has no turned card, every smaller deal has one.
        bids_so_far: the bids of seats 0..seat−1 (exactly ``seat`` of them).
        scoring: a preset name of ``SCORING_PRESETS`` or a ``RomanianScoring``; the
            expected score is the deal score (streak bonuses depend on the game so far
            and are not included).
        samples: sampled deals (≥ 1); ``seed``: the seed (results depend only on
            ``samples``, ``seed`` and the input, never on ``n_jobs``).
        model: ``"aim"`` or ``"fixed"`` (module docstring).
        n_jobs: joblib workers for the batches of 4096 samples.
        bid_sigma: 0 (default): the other hands are sampled uniformly, the earlier bids
            only set those players' aims. ``σ`` > 0: the samples are also weighted by how
            well they explain the earlier bids, ``Π exp(−(bid − E)² / 2σ²)`` over the
            earlier bidders with ``E`` the heuristic bidder's estimate for the sampled
            hand (importance sampling; intervals then use the effective sample size
            ``(Σw)² / Σw²``, reported as ``effective_samples``).

    Returns:
        :class:`Advice` with one :class:`BidOption` per bid 0..cards (p_exact, expected
        score, trick distribution: float64 probabilities) and the recommendation (the
        legal bid of highest expected score; ties to the lower bid).

    Raises:
        ValueError: players outside 3–6, a hand of 0 or more than 8 cards or with a card
            outside the deck, a bad seat, trump card missing/superfluous/in the hand/
            outside the deck, the wrong number of bids or a bid outside 0..cards,
            unknown scoring or model, samples < 1, bid_sigma < 0, or (with
            ``bid_sigma``) no sample consistent with the earlier bids.
    """
    players = check_players(players)
    mask = parse_hand(hand) if isinstance(hand, str) else int(hand)
    cards = card_count(mask)
    if not 1 <= cards <= 8:
        raise ValueError(f"a Romanian whist hand has 1 to 8 cards, got {cards}")
    check_cards_in_deck(mask, players, "hand")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(
            f"seat must be 0..{players - 1} (0 = left of the dealer, {players - 1} = dealer), got {seat!r}"
        )
    turned = _parse_turned(trump)
    if cards == 8 and turned is not None:
        raise ValueError("8-card deals use the whole deck: there is no turned card (give trump none)")
    if cards < 8 and turned is None:
        raise ValueError(f"a {cards}-card deal has a turned card: give it as trump (e.g. 'QH')")
    if turned is not None:
        check_cards_in_deck(1 << turned, players, "trump")
        if mask >> turned & 1:
            raise ValueError(f"the turned card {card_name(turned)} cannot be in the hand")
    bids = tuple(int(b) if not isinstance(b, bool) else b for b in bids_so_far)
    if len(bids) != seat:
        raise ValueError(f"seat {seat} bids after {seat} players: give {seat} bids so far, got {len(bids)}")
    check_bids(players, cards, bids)
    rule = get_scoring(scoring)
    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    if not bid_sigma >= 0:
        raise ValueError(f"bid_sigma must be ≥ 0, got {bid_sigma!r}")
    return _advise(mask, players, seat, cards, turned, bids, rule, samples, seed, model, n_jobs, float(bid_sigma))


def _advise(mask, players, seat, cards, turned, bids, rule, samples, seed, model, n_jobs, sigma=0.0) -> Advice:
    trump_suit = -1 if turned is None else card_suit(turned)
    turned_mask = 0 if turned is None else 1 << turned
    mode = _k.MODE_AIM if model == "aim" else _k.MODE_FIXED
    counts, sum_w2 = _advise_counts(
        mask,
        seat,
        players,
        cards,
        trump_suit,
        deck_mask(players),
        turned_mask,
        np.array(bids, dtype=np.int64),
        samples,
        mode,
        sigma,
        seed,
        n_jobs,
    )
    total = float(counts[0].sum())
    if not total > 0:
        raise ValueError(f"no sampled deal explains the bids so far {list(bids)}: raise bid_sigma or samples")
    n_eff = total * total / sum_w2  # = samples without weights
    n_int = max(1, round(n_eff))
    hook = forbidden_bid(players, cards, bids) if seat == players - 1 else None
    options = []
    for b in range(cards + 1):
        row = counts[b] if model == "aim" else counts[0]
        dist = row / row.sum()
        scores = np.array([deal_score(rule, b, t, cards) for t in range(cards + 1)], dtype=np.float64)
        mean = float(dist @ scores)
        var = float(dist @ (scores - mean) ** 2) * n_eff / max(n_eff - 1, 1)
        half = float(stats.t.ppf(0.975, max(n_eff - 1, 1)) * math.sqrt(var / n_eff)) if n_eff > 1 else math.nan
        options.append(
            BidOption(
                bid=b,
                legal=b != hook,
                p_exact=float(dist[b]),
                p_exact_ci=wilson(min(n_int, round(float(dist[b]) * n_eff)), n_int),
                expected_score=mean,
                expected_score_ci=(mean - half, mean + half),
                tricks=tuple(float(x) for x in dist),
            )
        )
    legal = [o for o in options if o.legal]
    best = max(legal, key=lambda o: (o.expected_score, -o.bid))
    return Advice(
        mask, players, seat, cards, turned, bids, rule.name, samples, model, tuple(options), best, sigma, n_eff
    )


# ----------------------------------------------------------------------------- bidding views and policies


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


def _hook(view: BidView) -> int:
    h = forbidden_bid(view.players, view.cards, view.bids_so_far)
    return -1 if h is None else h


def _nearest_legal(view: BidView, e: float) -> int:
    return int(min(view.legal, key=lambda b: (abs(b - e), b)))


def forehead_p_win(view: BidView) -> float:
    """P(win the one trick) in a forehead deal: own card uniform over the cards the player cannot see.

    The player sees every other card and the turned card; its own card is one of the
    remaining deck cards, each equally likely. Play of a one-card deal is forced (seat 0
    leads), so the win is decided by the cards alone.
    """
    deck = deck_mask(view.players)
    seen = sum(c for c in view.others if c is not None) | (0 if view.turned is None else 1 << view.turned)
    pool = cards_of(deck & ~seen)
    trump = -1 if view.turned is None else card_suit(view.turned)
    trick = np.zeros(view.players, dtype=np.int64)
    wins = 0
    for c in pool:
        for s in range(view.players):
            trick[s] = c if s == view.seat else cards_of(view.others[s])[0]
        wins += int(trick_winner(trick, view.players, 0, view.players, trump)) == view.seat
    return wins / len(pool)


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
        adv = _advise(
            view.hand, view.players, view.seat, view.cards, view.turned, view.bids_so_far, rule, samples, seed, "aim", 1
        )
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
        if self.play not in _PLAY_CODES:
            raise ValueError(f"play must be one of {', '.join(_PLAY_CODES)}, got {self.play!r}")


_NO_TRACE = np.zeros(0, dtype=np.int64)
_PLAY_CODES = {"random": _k.PLAY_RANDOM, "aim": _k.PLAY_AIM, "pimc": _k.PLAY_PIMC}


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


# ----------------------------------------------------------------------------- a game


@dataclass
class GameRecord:
    """One played game (players indexed 0..N−1 as fixed people; the dealer rotates).

    Attributes:
        cards: cards per player of each deal (length D).
        dealers: dealer (player index) of each deal.
        bids, tricks, points: int64[D, N] per deal and player; ``points`` include streak
            bonuses and penalties.
        deals: with ``record=True``, per deal ``{"dealer", "hands", "turned", "bids"}``
            (hands as masks and bids in seat order, seat 0 = left of the dealer).
    """

    cards: list[int]
    dealers: list[int]
    bids: np.ndarray
    tricks: np.ndarray
    points: np.ndarray
    deals: list[dict] = field(default_factory=list)

    @property
    def totals(self) -> np.ndarray:
        """int64[N] final points per player."""
        return self.points.sum(axis=0)


def play_game(
    rules: RomanianRules,
    policies: Sequence[Policy],
    rng: np.random.Generator,
    first_dealer: int = 0,
    record: bool = False,
) -> GameRecord:
    """Play one complete game (every deal of ``rules.deals()``) with one policy per player.

    Each deal: a fresh uniform shuffle of the 8×N deck, ``cards`` to each player starting
    left of the dealer, the next card turned (not for 8-card deals); bids in order from
    the left of the dealer (each checked against the legal bids); play by the kernel
    (seat 0 leads, follow suit, else trump, else any); scoring with streaks per
    RULES.md Part 2. The dealer moves one seat on after each deal.

    Raises:
        ValueError: not one policy per player, or a bidder returning an illegal bid.
    """
    n = rules.players
    if len(policies) != n:
        raise ValueError(f"need one policy per player ({n}), got {len(policies)}")
    specs = rules.deals()
    deck = deck_mask(n)
    deck_cards = np.array(cards_of(deck), dtype=np.int64)
    d_count = len(specs)
    bids = np.zeros((d_count, n), dtype=np.int64)
    tricks = np.zeros((d_count, n), dtype=np.int64)
    points = np.zeros((d_count, n), dtype=np.int64)
    counters = [StreakCounter() for _ in range(n)]
    dealers = []
    deals = []
    for d, spec in enumerate(specs):
        dealer = (first_dealer + d) % n
        dealers.append(dealer)
        order = [(dealer + 1 + pos) % n for pos in range(n)]  # player at each seat (position)
        shuffled = deck_cards[rng.permutation(len(deck_cards))]
        hands = [
            int(np.bitwise_or.reduce(1 << shuffled[pos * spec.cards : (pos + 1) * spec.cards])) for pos in range(n)
        ]
        turned = int(shuffled[n * spec.cards]) if spec.trump else None
        seat_bids: list[int] = []
        for pos in range(n):
            view = bid_view(hands, pos, spec, turned, seat_bids)
            b = policies[order[pos]].bidder(view, rng)
            if b not in view.legal:
                raise ValueError(f"{policies[order[pos]].name} bid {b!r}, legal: {list(view.legal)}")
            seat_bids.append(int(b))
        pol = np.array([_PLAY_CODES[policies[order[pos]].play] for pos in range(n)], dtype=np.int64)
        worlds = max(policies[p].worlds for p in range(n))
        won = _k.play_deal(
            np.array(hands, dtype=np.int64),
            -1 if turned is None else card_suit(turned),
            np.int64(deck),
            np.int64(0 if turned is None else 1 << turned),
            np.array(seat_bids, dtype=np.int64),
            pol,
            worlds,
            int(rng.integers(2**62)),
            _NO_TRACE,
        )
        for pos in range(n):
            p = order[pos]
            bids[d, p] = seat_bids[pos]
            tricks[d, p] = won[pos]
            pts = deal_score(rules.scoring, seat_bids[pos], int(won[pos]), spec.cards)
            if counts_for_streak(rules.scoring, rules.sequence, spec.cards):
                pts += counters[p].update(rules.scoring, seat_bids[pos] == int(won[pos]))
            points[d, p] = pts
        if record:
            deals.append({"dealer": dealer, "hands": list(hands), "turned": turned, "bids": list(seat_bids)})
    return GameRecord([s.cards for s in specs], dealers, bids, tricks, points, deals)


@dataclass(frozen=True)
class SimulationResult:
    """The result of :func:`simulate`.

    Attributes:
        table: one row per policy: ``policy, games, mean_score, score_lo, score_hi``
            (mean points per game per player with that policy, 95 % t-interval over
            games), ``exact_rate, exact_lo, exact_hi`` (share of deals bid exactly,
            Wilson interval), ``win_rate`` (a player's chance of winning the game with
            that policy: highest total, ties share the win; for ``N`` equal policies
            1/N) and ``deals`` (player-deals counted).
        per_game: one row per game and policy: ``game, policy, score, win`` (mean over
            the players with that policy in that game).
    """

    table: pd.DataFrame
    per_game: pd.DataFrame


def _game_job(rules, names, bid_samples, worlds, seq, g):
    rng = np.random.default_rng(seq)
    n = rules.players
    seat_names = [names[(p + g) % len(names)] for p in range(n)]
    policies = [make_policy(nm, bid_samples, worlds, rules.scoring) for nm in seat_names]
    rec = play_game(rules, policies, rng, first_dealer=int(rng.integers(n)))
    return seat_names, rec.totals.tolist(), (rec.bids == rec.tricks).sum(axis=0).tolist(), len(rec.cards)


def simulate(
    players: int = 4,
    games: int = 100,
    sequence: str = "1-8-1",
    scoring: str | RomanianScoring = "default",
    policies: Sequence[str] = ("heuristic", "mc", "random"),
    seed: int = 0,
    one_card: str = "normal",
    special_end_deals: Sequence[str] = (),
    bid_samples: int = 128,
    worlds: int = 16,
    n_jobs: int = 1,
) -> SimulationResult:
    """Play ``games`` complete games between policies and compare their scores.

    Policies are assigned to players in rotation: in game ``g`` player ``p`` uses
    ``policies[(p + g) % len(policies)]`` (so every policy sits in every place), and the
    first dealer is random. Each game has its own seed from
    ``numpy.random.SeedSequence(seed).spawn(games)``: results do not depend on ``n_jobs``.

    Returns:
        :class:`SimulationResult` (points per game: the scoring's units).

    Raises:
        ValueError: players outside 3–6, games < 1, unknown sequence, scoring, policy or
            variant names.
    """
    check_players(players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    names = list(policies)
    if not names:
        raise ValueError("give at least one policy")
    for nm in names:
        make_policy(nm)
    rules = RomanianRules.make(players, sequence, scoring, one_card, special_end_deals)
    seqs = np.random.SeedSequence(seed).spawn(games)
    if n_jobs == 1:
        results = [_game_job(rules, names, bid_samples, worlds, seqs[g], g) for g in range(games)]
    else:
        results = Parallel(n_jobs=n_jobs)(
            delayed(_game_job)(rules, names, bid_samples, worlds, seqs[g], g) for g in range(games)
        )
    per_game = []
    exact: dict[str, list[int]] = {nm: [0, 0] for nm in names}
    for g, (seat_names, totals, exacts, n_deals) in enumerate(results):
        winners = game_winners(rules.scoring, totals)
        for nm in dict.fromkeys(seat_names):
            idx = [p for p, s in enumerate(seat_names) if s == nm]
            win = sum(1 / len(winners) for p in idx if p in winners) / len(idx)
            score = float(np.mean([totals[p] for p in idx]))
            per_game.append({"game": g, "policy": nm, "score": score, "win": win})
            exact[nm][0] += sum(exacts[p] for p in idx)
            exact[nm][1] += n_deals * len(idx)
    per_game_df = pd.DataFrame(per_game)
    rows = []
    for nm in dict.fromkeys(names):
        scores = per_game_df.loc[per_game_df.policy == nm, "score"].to_numpy()
        mean, lo, hi = mean_interval(scores)
        k, m = exact[nm]
        elo, ehi = wilson(k, m)
        rows.append(
            {
                "policy": nm,
                "games": len(scores),
                "mean_score": mean,
                "score_lo": lo,
                "score_hi": hi,
                "exact_rate": k / m if m else math.nan,
                "exact_lo": elo,
                "exact_hi": ehi,
                "win_rate": float(per_game_df.loc[per_game_df.policy == nm, "win"].mean()),
                "deals": m,
            }
        )
    return SimulationResult(pd.DataFrame(rows), per_game_df)
