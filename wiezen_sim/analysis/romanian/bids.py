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
from wiezen_sim.cards import card_count, card_name, card_suit, hand_name, parse_card, parse_hand
from wiezen_sim.kernel import romanian as _k
from wiezen_sim.parallel import resolve_seed, run_batches, sample_seeds
from wiezen_sim.rules.romanian import (
    RomanianScoring,
    check_bids,
    check_cards_in_deck,
    check_players,
    deal_score,
    deck_mask,
    forbidden_bid,
    get_scoring,
)
from wiezen_sim.vocabulary import parse_seat

__all__ = ["ADVISE_BATCH", "MODELS", "Advice", "BidOption", "advise", "advise_unchecked"]

ADVISE_BATCH = 4096  # sampled deals per batch: fixed, so that float sums (bid_sigma > 0) never depend on n_jobs
MODELS = ("aim", "fixed")


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


class _CountBatch:
    """Picklable batch task: the kernel's weighted trick counts over one batch of seed words."""

    def __init__(self, hand: int, seat: int, players: int, cards: int, trump_suit: int, turned_mask: int,
                 bids: np.ndarray, mode: int, sigma: float) -> None:  # fmt: skip
        self.args = (np.int64(hand), seat, players, cards, trump_suit, np.int64(deck_mask(players)),
                     np.int64(turned_mask), bids)  # fmt: skip
        self.mode, self.sigma = mode, sigma

    def __call__(self, seeds: np.ndarray) -> tuple[np.ndarray, float]:
        return _k.advise_batch(*self.args, seeds, self.mode, self.sigma)


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
) -> Advice:
    """What to bid with ``hand`` in ``seat`` after ``bids_so_far`` (RULES.md Part 2).

    Args:
        hand: the player's cards (a mask or any ``parse_hand`` text); 1..8 cards, all in
            the deck for ``players`` players; the number of cards is the deal size.
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
            ``(Σw)² / Σw²``, reported as ``effective_samples``).

    Returns:
        :class:`Advice` with one :class:`BidOption` per bid 0..cards (p_exact, expected
        score, trick distribution: float64 probabilities) and the recommendation (the
        legal bid of highest expected score; ties to the lower bid).

    Raises:
        ValueError: players outside 3–6, a hand of 0 or more than 8 cards or with a card
            outside the deck, a bad seat, trump card missing/superfluous/in the hand/
            outside the deck, the wrong number of bids or a bid outside 0..cards,
            unknown scoring or model, samples < 1, a negative seed, bid_sigma < 0, or (with
            ``bid_sigma``) no sample consistent with the earlier bids.
    """
    players = check_players(players)
    mask = parse_hand(hand) if isinstance(hand, str) else int(hand)
    cards = card_count(mask)
    if not 1 <= cards <= 8:
        raise ValueError(f"a Romanian whist hand has 1 to 8 cards, got {cards}")
    check_cards_in_deck(mask, players, "hand")
    seat = parse_seat(seat, players)
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
    seed = resolve_seed(seed)
    return advise_unchecked(mask, players, seat, cards, turned, bids, rule, samples, seed, model, n_jobs,
                            float(bid_sigma))  # fmt: skip


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
) -> Advice:
    """:func:`advise` on validated input (arguments as there; the Monte Carlo bidder asks it every bid)."""
    trump_suit = -1 if turned is None else card_suit(turned)  # the kernel's code for no trump
    turned_mask = 0 if turned is None else 1 << turned
    mode = _k.MODE_AIM if model == "aim" else _k.MODE_FIXED
    task = _CountBatch(mask, seat, players, cards, trump_suit, turned_mask, np.array(bids, dtype=np.int64), mode, sigma)
    parts = run_batches(task, sample_seeds(seed, samples), ADVISE_BATCH, n_jobs, progress=False, desc="deals")
    counts = np.sum([c for c, _ in parts], axis=0)
    sum_w2 = float(sum(w2 for _, w2 in parts))
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
