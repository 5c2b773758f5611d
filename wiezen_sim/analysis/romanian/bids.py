"""Romanian whist: the bid advisor (RULES.md Part 2).

:func:`advise` — for a hand in a seat after some bids: for every bid 0..cards the
probability of taking exactly that many tricks, the expected score under a scoring
rule and the trick distribution; the recommended (legal) bid.

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

Hidden-hand deals (RULES.md Part 2, one-card deal variants and the special end deals):

- ``forehead`` (one-card deals): the player sees every other player's card and the
  turned card, not its own. Its card is equally likely to be any card of the deck it
  cannot see (the others' cards and the turned card excluded: the undealt cards are as
  likely as the dealt one). Play of a one-card deal is forced (seat 0 leads), so the
  trick is decided by the cards alone: the advice is exact, by enumerating the own
  card (no sampling; the intervals collapse to the point, ``samples`` is the number of
  equally likely own cards).
- ``blind`` (one-card blind deals and the 8-card blind end deal): every player bids
  before looking. The whole deal, the analysed hand included, is sampled uniformly
  (the turned card in nobody's hand); players still to bid make the heuristic blind
  bid (the nearest legal bid to ``cards / players``); the play is as above (everybody
  sees its own hand once the bids are made). The earlier bids were made blind too, so
  they say nothing about the cards (no ``bid_sigma``).

Every sampled deal has its own seed word (:func:`wiezen_sim.parallel.sample_seeds`);
the deals are solved in batches of :data:`ADVISE_BATCH` by
:func:`wiezen_sim.parallel.run_batches`, so the result depends on the seed and the
sample count only, never on ``n_jobs``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from wiezen_sim.analysis.stats import wilson
from wiezen_sim.cards import card_count, card_name, card_suit, cards_of, hand_name, parse_card, parse_hand
from wiezen_sim.kernel import romanian as _k
from wiezen_sim.kernel.trick import trick_winner
from wiezen_sim.parallel import Interrupted, resolve_seed, run_batches, sample_seeds
from wiezen_sim.rules.romanian import (
    VISIBILITIES,
    RomanianScoring,
    check_bids_so_far,
    check_cards_in_deck,
    check_players,
    check_turned,
    deal_score,
    deck_mask,
    forbidden_bid,
    get_scoring,
)
from wiezen_sim.vocabulary import is_whole, parse_seat

__all__ = [
    "ADVISE_BATCH",
    "MODELS",
    "Advice",
    "BidOption",
    "advise",
    "advise_unchecked",
    "check_bid_sigma",
    "forehead_outcomes",
    "parse_turned",
]

ADVISE_BATCH = 4096  # sampled deals per batch: fixed, so that float sums (bid_sigma > 0) never depend on n_jobs
MODELS = ("aim", "fixed")


@dataclass(frozen=True)
class BidOption:
    """One candidate bid of :class:`Advice`.

    Attributes:
        bid: tricks bid (0..cards).
        legal: False for the dealer's forbidden bid (never recommended).
        p_exact: probability of taking exactly ``bid`` tricks; ``p_exact_ci`` its 95 %
            Wilson interval (exact forehead advice: the point itself).
        expected_score: expected points under the scoring; ``expected_score_ci`` its 95 %
            t-interval (exact forehead advice: the point itself).
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
    """The result of :func:`advise` (field meanings as its arguments).

    ``hand`` is 0 when the player does not see it (``visibility`` ``forehead`` or
    ``blind``); ``others`` holds, in a forehead deal, the card mask of every seat the
    player sees (0 for its own seat), else it is empty. ``model`` is ``"exact"`` for
    forehead advice (module docstring). ``partial``: the result of a stopped run, over
    the ``samples`` finished.
    """

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
    visibility: str = "normal"
    others: tuple[int, ...] = ()
    partial: bool = False

    def partial_note(self) -> str:
        """``PARTIAL: …`` for the result of a stopped run (:attr:`partial`), else empty."""
        return "PARTIAL: the run was stopped; the numbers are over the sampled deals finished" if self.partial else ""

    def to_dict(self) -> dict:
        """JSON-ready dict (no NaN: a missing value, e.g. the interval of one sample, is None):
        hand (``None`` when not seen), visibility, others (forehead: the seen card of each
        seat, ``None`` for the own seat), players, seat, trump, bids_so_far, scoring,
        samples, partial, model, options, recommendation"""
        return {
            "hand": hand_name(self.hand, "cards") if self.visibility == "normal" else None,
            "visibility": self.visibility,
            "others": [hand_name(m, "cards") if m else None for m in self.others],
            "players": self.players,
            "seat": self.seat,
            "trump": None if self.turned is None else card_name(self.turned),
            "bids_so_far": list(self.bids_so_far),
            "scoring": self.scoring,
            "samples": self.samples,
            "partial": self.partial,
            "model": self.model,
            "bid_sigma": self.bid_sigma,
            "effective_samples": self.effective_samples,
            "options": [
                {
                    "bid": o.bid,
                    "legal": o.legal,
                    "p_exact": o.p_exact,
                    "p_exact_ci": [_finite(x) for x in o.p_exact_ci],
                    "expected_score": o.expected_score,
                    "expected_score_ci": [_finite(x) for x in o.expected_score_ci],
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


def _finite(x: float) -> float | None:
    """``x``, or None for NaN (JSON has no NaN)."""
    return None if math.isnan(x) else x


def parse_turned(trump: int | str | None) -> int | None:
    """The turned card as a bit number, or ``None`` (``None``, ``"none"``, ``"-"``, ``""``).

    Raises:
        ValueError: not a card name or a card bit number.
    """
    if trump is None:
        return None
    if isinstance(trump, str):
        if trump.strip().lower() in ("none", "-", ""):
            return None
        return parse_card(trump)
    if not is_whole(trump, 0, 63):
        raise ValueError(f"trump must be a card or None, got {trump!r}")
    card_name(trump)  # validates the bit number
    return trump


class _CountBatch:
    """Picklable batch task: the kernel's weighted trick counts over one batch of seed words."""

    def __init__(self, hand: int, seat: int, players: int, cards: int, trump_suit: int, turned_mask: int,
                 bids: np.ndarray, mode: int, sigma: float, blind: bool) -> None:  # fmt: skip
        self.args = (np.int64(hand), seat, players, cards, trump_suit, np.int64(deck_mask(players)),
                     np.int64(turned_mask), bids)  # fmt: skip
        self.mode, self.sigma, self.blind = mode, sigma, int(blind)

    def __call__(self, seeds: np.ndarray) -> tuple[np.ndarray, float]:
        return _k.advise_batch(*self.args, seeds, self.mode, self.sigma, self.blind)


def forehead_outcomes(players: int, seat: int, shown: Sequence[int], turned: int | None) -> dict[int, bool]:
    """Every card ``seat`` may hold in a forehead one-card deal and whether it wins the trick.

    Args:
        players: 3..6; seat: the forehead player's seat.
        shown: ``shown[s]`` = the card (bit number) of seat ``s``; ``shown[seat]`` is ignored.
        turned: the turned card or ``None``.

    Returns:
        ``{card: wins}`` over the deck cards the player cannot see (the deck minus the
        other seats' cards and the turned card), each equally likely to be its own; the
        play of a one-card deal is forced (seat 0 leads), so the cards decide the trick.
    """
    seen = sum(1 << c for s, c in enumerate(shown) if s != seat) | (0 if turned is None else 1 << turned)
    trump = -1 if turned is None else card_suit(turned)
    trick = np.array(shown, dtype=np.int64)
    out = {}
    for card in cards_of(deck_mask(players) & ~seen):
        trick[seat] = card
        out[card] = int(trick_winner(trick, players, 0, players, trump)) == seat
    return out


def advise(
    hand: int | str,
    players: int,
    seat: int | str,
    trump: int | str | None,
    bids_so_far: Sequence[int] = (),
    scoring: str | RomanianScoring = "default",
    samples: int = 10000,
    seed: int = 0,
    model: str = "aim",
    n_jobs: int = 1,
    bid_sigma: float = 0.0,
    visibility: str = "normal",
    others: Sequence[int | str] | None = None,
    backend: str | None = None,
    progress: bool | None = False,
) -> Advice:
    """What to bid with ``hand`` in ``seat`` after ``bids_so_far`` (RULES.md Part 2).

    Args:
        hand: the player's cards (a mask or any ``parse_hand`` text); 1..8 cards, all in
            the deck for ``players`` players; the number of cards is the deal size.
            ``None`` when the player does not see its hand (``visibility`` ``forehead``
            or ``blind``).
        players: 3..6.
        seat: 0 (left of the dealer, bids first) .. players−1 (the dealer), or a name
            (``eldest``, ``second``, …, ``dealer``; :func:`wiezen_sim.vocabulary.parse_seat`).
        trump: the turned card (``"QH"``, a bit number) or ``None``/``"none"``; an 8-card
            deal has no turned card, every smaller deal has one.
        bids_so_far: the bids of seats 0..seat−1 (exactly ``seat`` of them).
        scoring: a preset name of ``SCORING_PRESETS`` or a ``RomanianScoring``; the
            expected score is the deal score (streak bonuses depend on the game so far
            and are not included).
        samples: sampled deals (≥ 1); ``seed``: the seed, a non-negative integer (results
            depend only on ``samples``, ``seed`` and the input, never on ``n_jobs``).
        model: ``"aim"`` or ``"fixed"`` (module docstring).
        n_jobs: joblib workers for the batches of :data:`ADVISE_BATCH` samples.
        bid_sigma: 0 (default): the other hands are sampled uniformly, the earlier bids
            only set those players' aims. ``σ`` > 0: the samples are also weighted by how
            well they explain the earlier bids, ``Π exp(−(bid − E)² / 2σ²)`` over the
            earlier bidders with ``E`` the heuristic bidder's estimate for the sampled
            hand (importance sampling; intervals then use the effective sample size
            ``(Σw)² / Σw²``, reported as ``effective_samples``). Normal deals only.
        visibility: what the player sees when bidding (RULES.md Part 2): ``normal`` (its
            hand), ``forehead`` (a one-card deal: every other player's card, given as
            ``others``, not its own; the advice is exact) or ``blind`` (nothing but the
            turned card and the bids: the one-card blind deals, with a turned card, and
            the 8-card blind end deal, ``trump`` none; the deal size follows from that).
        others: forehead only: the card of every other seat in seat order (seats 0, 1,
            …, skipping ``seat``; ``players − 1`` cards, masks or card names).
        backend: where the batches run (default this process for ``n_jobs=1``, else
            loky's worker processes) and ``progress`` a bar on stderr, as
            :func:`wiezen_sim.parallel.run_batches`.

    Returns:
        :class:`Advice` with one :class:`BidOption` per bid 0..cards (p_exact, expected
        score, trick distribution: float64 probabilities) and the recommendation (the
        legal bid of highest expected score; ties to the lower bid).

    Raises:
        ValueError: players outside 3–6, a hand of 0 or more than 8 cards or with a card
            outside the deck, a bad seat, trump card missing/superfluous/in the hand/
            outside the deck, the wrong number of bids or a bid outside 0..cards,
            unknown scoring or model, samples < 1, a negative seed, a bad bid_sigma
            (:func:`check_bid_sigma`), or (with
            ``bid_sigma``) no sample consistent with the earlier bids; an unknown
            visibility, a hand given in a forehead or blind deal (or missing in a normal
            one), ``others`` not ``players − 1`` single distinct cards of the deck or given
            outside a forehead deal, a forehead deal without a turned card, ``bid_sigma``
            with forehead or blind.
        Interrupted: Ctrl-C or SIGTERM; ``partial`` the advice over the batches finished
            (``partial`` True), None before the first.
    """
    players = check_players(players)
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}, got {visibility!r}")
    seat = parse_seat(seat, players)
    turned = parse_turned(trump)
    if visibility == "normal":
        if hand is None:
            raise ValueError("give the hand (or choose the forehead or blind visibility)")
        mask = parse_hand(hand) if isinstance(hand, str) else int(hand)
        cards = card_count(mask)
        if not 1 <= cards <= 8:
            raise ValueError(f"a Romanian whist hand has 1 to 8 cards, got {cards}")
        check_cards_in_deck(mask, players, "hand")
    else:
        if hand is not None:
            raise ValueError(f"in a {visibility} deal the player does not see its own hand: give no hand")
        if bid_sigma:
            raise ValueError(f"bid_sigma weights sampled hands by the earlier bids: normal deals only, not {visibility}"
                             )  # fmt: skip
        mask, cards = 0, 1 if visibility == "forehead" or turned is not None else 8
    if (others is not None) != (visibility == "forehead"):
        raise ValueError("the others' cards are seen in forehead deals only: give them there and only there")
    shown: list[int] = []
    if others is not None:
        if len(others) != players - 1:
            raise ValueError(f"give the cards of the {players - 1} other seats (seat order, own seat skipped), "
                             f"got {len(others)}")  # fmt: skip
        for card in others:
            m = parse_hand(card) if isinstance(card, str) else int(card)
            if card_count(m) != 1:
                raise ValueError(f"each other seat holds one card in a forehead deal, got {hand_name(m, 'cards')!r}")
            check_cards_in_deck(m, players, "other seat's card")
            if m & sum(1 << c for c in shown):
                raise ValueError(f"card {card_name(m.bit_length() - 1)} is given twice")
            shown.append(m.bit_length() - 1)
        shown.insert(seat, -1)
    check_turned(turned, players, cards, mask)
    if turned is not None and turned in shown:
        raise ValueError(f"the turned card {card_name(turned)} cannot be in another seat's hand")
    check_bids_so_far(players, cards, seat, list(bids_so_far))  # before int(): 1.5 is no bid, not 1
    bids = tuple(int(b) for b in bids_so_far)
    rule = get_scoring(scoring)
    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    if not is_whole(samples, 1):
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    bid_sigma = check_bid_sigma(bid_sigma)
    seed = resolve_seed(seed)
    if visibility == "forehead":
        return _advise_forehead(players, seat, shown, turned, bids, rule)
    return advise_unchecked(mask, players, seat, cards, turned, bids, rule, samples, seed, model, n_jobs,
                            float(bid_sigma), visibility == "blind", backend, progress)  # fmt: skip


def check_bid_sigma(bid_sigma: float) -> float:
    """Validate the bid weighting σ of :func:`advise` (in bids; 0 = no weighting) and return it as ``float``.

    Raises:
        ValueError: negative, not finite, or so small that σ² is 0 in floating point
            (below about 1e-162: the weights exp(−d²/2σ²) cannot be computed).
    """
    sigma = float(bid_sigma)
    if not (sigma >= 0 and math.isfinite(sigma)):
        raise ValueError(f"bid_sigma must be a finite number ≥ 0, got {bid_sigma!r}")
    if sigma > 0 and sigma * sigma == 0:
        raise ValueError(f"bid_sigma {bid_sigma!r} is too small to weight by (its square is 0): give 0 or a larger one")
    return sigma


def _advise_forehead(
    players: int, seat: int, shown: list[int], turned: int | None, bids: tuple[int, ...], rule: RomanianScoring
) -> Advice:
    """Exact forehead advice: the own card enumerated (:func:`forehead_outcomes`, module docstring)."""
    outcomes = forehead_outcomes(players, seat, shown, turned)
    wins = sum(outcomes.values())
    counts = np.array([[len(outcomes) - wins, wins]] * 2, dtype=np.float64)
    others = tuple(0 if s == seat else 1 << c for s, c in enumerate(shown))
    return _advice(0, players, seat, 1, turned, bids, rule, len(outcomes), "exact", counts, float(len(outcomes)),
                   0.0, "forehead", others)  # fmt: skip


def advise_unchecked(
    mask: int,
    players: int,
    seat: int,
    cards: int,
    turned: int | None,
    bids: tuple[int, ...],
    rule: RomanianScoring,
    samples: int,
    seed: int,
    model: str,
    n_jobs: int = 1,
    sigma: float = 0.0,
    blind: bool = False,
    backend: str | None = None,
    progress: bool | None = False,
) -> Advice:
    """:func:`advise` on validated input (arguments as there, ``blind`` for the blind
    visibility with ``mask`` 0; the Monte Carlo bidder asks it every bid)."""
    trump_suit = -1 if turned is None else card_suit(turned)  # the kernel's code for no trump
    turned_mask = 0 if turned is None else 1 << turned
    mode = _k.MODE_AIM if model == "aim" else _k.MODE_FIXED
    task = _CountBatch(mask, seat, players, cards, trump_suit, turned_mask, np.array(bids, dtype=np.int64), mode, sigma,
                       blind)  # fmt: skip
    visibility = "blind" if blind else "normal"

    def counted(parts: list[tuple[np.ndarray, float]], n: int, partial: bool = False) -> Advice | None:
        """The advice from the batches' weighted counts; None when no deal counts (every weight 0)."""
        counts = np.sum([c for c, _ in parts], axis=0)
        total = float(counts[0].sum())
        if not total > 0:
            return None
        n_eff = total * total / float(sum(w2 for _, w2 in parts))  # = n without weights
        return _advice(mask, players, seat, cards, turned, bids, rule, n, model, counts, n_eff, sigma, visibility,
                       (), partial)  # fmt: skip

    try:
        parts = run_batches(task, sample_seeds(seed, samples), ADVISE_BATCH, n_jobs, backend, progress,
                            "sampled deals")  # fmt: skip
    except Interrupted as exc:
        exc.unit = "sampled deals"
        exc.partial = counted(exc.results, exc.done, partial=True) if exc.results else None
        raise
    advice = counted(parts, samples)
    if advice is None:
        raise ValueError(f"no sampled deal explains the bids so far {list(bids)}: raise bid_sigma or samples")
    return advice


def _advice(
    mask: int,
    players: int,
    seat: int,
    cards: int,
    turned: int | None,
    bids: tuple[int, ...],
    rule: RomanianScoring,
    samples: int,
    model: str,
    counts: np.ndarray,
    n_eff: float,
    sigma: float,
    visibility: str,
    others: tuple[int, ...],
    partial: bool = False,
) -> Advice:
    """The :class:`Advice` from the (weighted) trick counts ``counts[b, t]`` (model ``aim``:
    row ``b`` when aiming at ``b``; else row 0 for every bid); ``model`` ``"exact"``: the
    counts enumerate equally likely cases, the intervals are the points."""
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
        p = float(dist[b])
        if model == "exact":
            half = 0.0
        options.append(
            BidOption(
                bid=b,
                legal=b != hook,
                p_exact=p,
                p_exact_ci=(p, p) if model == "exact" else wilson(min(n_int, round(p * n_eff)), n_int),
                expected_score=mean,
                expected_score_ci=(mean - half, mean + half),
                tricks=tuple(float(x) for x in dist),
            )
        )
    legal = [o for o in options if o.legal]
    best = max(legal, key=lambda o: (o.expected_score, -o.bid))
    return Advice(mask, players, seat, cards, turned, bids, rule.name, samples, model, tuple(options), best, sigma,
                  n_eff, visibility, others, partial)  # fmt: skip
