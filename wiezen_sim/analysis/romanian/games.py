"""Romanian whist: complete games between policies (RULES.md Part 2).

:func:`play_game` plays one game with explicit :class:`~wiezen_sim.analysis.romanian.policies.Policy`
objects (custom bidders allowed); :func:`simulate` plays many between named policies
and compares their scores. Every game has its own seed word
(:func:`wiezen_sim.parallel.sample_seeds`) and the games run through
:func:`wiezen_sim.parallel.run_batches`: the result depends on the seed and the game
count only, never on ``n_jobs``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wiezen_sim.analysis.romanian.policies import PLAY_CODES, Policy, bid_view, make_policy
from wiezen_sim.analysis.stats import mean_interval, wilson
from wiezen_sim.cards import card_suit, cards_of
from wiezen_sim.kernel import romanian as _k
from wiezen_sim.parallel import resolve_seed, run_batches, sample_seeds
from wiezen_sim.rules.romanian import (
    RomanianRules,
    RomanianScoring,
    StreakCounter,
    check_players,
    counts_for_streak,
    deal_score,
    deck_mask,
    game_winners,
)

__all__ = ["GameRecord", "SimulationResult", "play_game", "simulate"]

_NO_TRACE = np.zeros(0, dtype=np.int64)  # play_deal records no trace


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
        pol = np.array([PLAY_CODES[policies[order[pos]].play] for pos in range(n)], dtype=np.int64)
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


class _GameBatch:
    """Picklable batch task: the games with the given indices (game ``g`` plays with seed word ``words[g]``)."""

    def __init__(self, rules: RomanianRules, names: Sequence[str], bid_samples: int, worlds: int,
                 words: np.ndarray) -> None:  # fmt: skip
        self.rules, self.names, self.words = rules, list(names), words
        self.bid_samples, self.worlds = bid_samples, worlds

    def __call__(self, games: np.ndarray) -> list[tuple[list[str], list[int], list[int], int]]:
        """Per game: the policy of each player, final points, exact bids per player, deals played."""
        out = []
        n = self.rules.players
        for g in (int(i) for i in games):
            rng = np.random.default_rng(int(self.words[g]))
            seat_names = [self.names[(p + g) % len(self.names)] for p in range(n)]
            policies = [make_policy(nm, self.bid_samples, self.worlds, self.rules.scoring) for nm in seat_names]
            rec = play_game(self.rules, policies, rng, first_dealer=int(rng.integers(n)))
            out.append((seat_names, rec.totals.tolist(), (rec.bids == rec.tricks).sum(axis=0).tolist(), len(rec.cards)))
        return out


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
    first dealer is random. Each game has its own seed word
    (``sample_seeds(seed, games)``): results do not depend on ``n_jobs``.

    Returns:
        :class:`SimulationResult` (points per game: the scoring's units).

    Raises:
        ValueError: players outside 3–6, games < 1, a negative seed, unknown sequence,
            scoring, policy or variant names.
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
    words = sample_seeds(resolve_seed(seed), games)
    task = _GameBatch(rules, names, bid_samples, worlds, words)
    parts = run_batches(task, np.arange(games), 1, n_jobs, progress=False, desc="games")
    results = [game for part in parts for game in part]
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
