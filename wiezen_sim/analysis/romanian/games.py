"""Romanian whist: one deal and complete games between policies (RULES.md Part 2).

:func:`play_deal` plays one given deal with given bids and policies and returns the
tricks (per seat and trick by trick) and the scores; :func:`play_game` plays one game
with explicit :class:`~wiezen_sim.analysis.romanian.policies.Policy` objects (custom
bidders allowed); :func:`simulate` plays many between named policies and compares
their scores. Every game has its own seed word
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

from wiezen_sim.analysis.romanian.bids import parse_turned
from wiezen_sim.analysis.romanian.policies import PLAY_CODES, Policy, bid_view, make_policy
from wiezen_sim.analysis.stats import mean_interval, wilson
from wiezen_sim.cards import card_count, card_name, card_suit, cards_of, parse_hand
from wiezen_sim.kernel import romanian as _k
from wiezen_sim.kernel.trick import trick_winner
from wiezen_sim.parallel import Interrupted, resolve_seed, run_batches, sample_seeds
from wiezen_sim.rules.romanian import (
    RomanianRules,
    RomanianScoring,
    StreakCounter,
    check_bids,
    check_cards_in_deck,
    check_players,
    check_turned,
    counts_for_streak,
    deal_score,
    deck_mask,
    game_winners,
    get_scoring,
)
from wiezen_sim.vocabulary import is_whole

__all__ = ["DealRecord", "GameRecord", "SimulationResult", "Trick", "play_deal", "play_game", "simulate"]

_NO_TRACE = np.zeros(0, dtype=np.int64)  # the kernel records no trace


def _play_kernel(
    hands: Sequence[int], turned: int | None, bids: Sequence[int], policies: Sequence[Policy], seed: int,
    trace: np.ndarray = _NO_TRACE,
) -> np.ndarray:  # fmt: skip
    """The kernel's ``play_deal`` on validated input: int64[n] tricks per seat (``trace`` filled in place)."""
    return _k.play_deal(
        np.array(hands, dtype=np.int64),
        -1 if turned is None else card_suit(turned),
        np.int64(deck_mask(len(hands))),
        np.int64(0 if turned is None else 1 << turned),
        np.array(bids, dtype=np.int64),
        np.array([PLAY_CODES[p.play] for p in policies], dtype=np.int64),
        max(p.worlds for p in policies),
        seed,
        trace,
    )


@dataclass(frozen=True)
class Trick:
    """One trick of a played deal.

    Attributes:
        leader: the seat that led (seat 0 leads the first trick, the winner the next).
        cards: the cards (bit numbers) in playing order, ``cards[i]`` played by seat
            ``(leader + i) % players``.
        winner: the seat that won it (highest trump, else highest card of the suit led).
    """

    leader: int
    cards: tuple[int, ...]
    winner: int

    def by_seat(self, players: int) -> tuple[int, ...]:
        """The cards indexed by seat: ``out[s]`` = the card seat ``s`` played."""
        return tuple(self.cards[(s - self.leader) % players] for s in range(players))


@dataclass(frozen=True)
class DealRecord:
    """The result of :func:`play_deal` (seats in playing order, seat 0 left of the dealer).

    Attributes:
        hands: the dealt hands (card masks), ``hands[seat]``.
        turned: the turned card (its suit is trump) or ``None`` (8-card deals).
        bids: ``bids[seat]``, tricks bid.
        policies: the play policy name of each seat (``random``, ``aim``, ``pimc``).
        tricks: ``tricks[seat]``, tricks taken (they add up to the cards per hand).
        played: the tricks in order (:class:`Trick`).
        scores: ``scores[seat]``, points of the deal under ``scoring`` (no streak bonus).
        scoring: the scoring preset name.
        seed: the seed the deal was played with.
    """

    hands: tuple[int, ...]
    turned: int | None
    bids: tuple[int, ...]
    policies: tuple[str, ...]
    tricks: tuple[int, ...]
    played: tuple[Trick, ...]
    scores: tuple[int, ...]
    scoring: str
    seed: int

    def to_dict(self) -> dict:
        """JSON-ready dict: cards by name, tricks as ``{"leader", "cards", "winner"}``."""
        return {
            "hands": [" ".join(card_name(c) for c in cards_of(h)) for h in self.hands],
            "trump": None if self.turned is None else card_name(self.turned),
            "bids": list(self.bids),
            "policies": list(self.policies),
            "tricks": list(self.tricks),
            "played": [
                {"leader": t.leader, "cards": [card_name(c) for c in t.cards], "winner": t.winner} for t in self.played
            ],
            "scores": list(self.scores),
            "scoring": self.scoring,
            "seed": self.seed,
        }


def _check_deal(hands: Sequence[int | str], trump: int | str | None) -> tuple[list[int], int | None]:
    """Parsed and validated hands (masks) and turned card of one deal (RULES.md Part 2)."""
    players = check_players(len(hands))
    masks = [parse_hand(h) if isinstance(h, str) else int(h) for h in hands]
    cards = card_count(masks[0])
    seen = 0
    for seat, mask in enumerate(masks):
        if card_count(mask) != cards:
            raise ValueError(f"every hand must have the same number of cards: seat 0 has {cards}, "
                             f"seat {seat} has {card_count(mask)}")  # fmt: skip
        check_cards_in_deck(mask, players, f"hand of seat {seat}")
        if mask & seen:
            raise ValueError(f"card {card_name((mask & seen).bit_length() - 1)} is dealt twice (seat {seat})")
        seen |= mask
    if not 1 <= cards <= 8:
        raise ValueError(f"a Romanian whist deal has 1 to 8 cards per player, got {cards}")
    turned = parse_turned(trump)
    check_turned(turned, players, cards, seen)
    return masks, turned


def _named_policy(spec: str) -> Policy:
    """``make_policy`` for a name of ``POLICIES`` or ``pimc:M`` (PIMC with M worlds per card)."""
    name, colon, worlds = spec.partition(":")
    if not colon:
        return make_policy(name)
    if name != "pimc" or not (worlds.isascii() and worlds.isdigit()) or int(worlds) < 1:
        raise ValueError(f"policy {spec!r}: only pimc takes a world count, as pimc:M with M ≥ 1")
    return make_policy(name, worlds=int(worlds))


def play_deal(
    hands: Sequence[int | str],
    trump: int | str | None,
    bids: Sequence[int],
    policies: str | Policy | Sequence[str | Policy] = "heuristic",
    seed: int = 0,
    scoring: str | RomanianScoring = "default",
) -> DealRecord:
    """Play one given deal of Romanian whist with given bids and players (RULES.md Part 2).

    Seat 0 (left of the dealer) leads the first trick; every player follows suit if
    possible, else plays a trump if possible (must-trump), else any card; the highest
    trump wins, else the highest card of the suit led; the winner leads next. The cards
    are chosen by each seat's play policy (``wiezen_sim.kernel.romanian``: ``random``,
    ``aim`` bid-aiming heuristic, ``pimc`` aiming at its own exact bid); the bids are
    given, not asked from the policies' bidders.

    Args:
        hands: one hand per seat in playing order (3 to 6 seats; seat N−1 is the
            dealer), each a card mask or ``parse_hand`` text, 1 to 8 cards each, all the
            same size, disjoint and in the 8 × N deck for N players.
        trump: the turned card (``"QH"``, a bit number) or ``None``/``"none"``: an 8-card
            deal has none, every smaller deal has one (not in any hand).
        bids: one bid per seat (0..cards), the dealer off the hook (the total may not
            equal the cards per hand).
        policies: one per seat, or one for all: a name of ``POLICIES`` (``random``,
            ``heuristic``, ``mc`` play ``random``, ``aim``, ``aim``; ``pimc`` plays PIMC
            with 16 worlds per card, ``pimc:M`` with M) or a :class:`Policy` (its
            ``play`` and ``worlds`` are used).
        seed: a non-negative integer; the same seed, deal and policies give the same play.
        scoring: a preset name of ``SCORING_PRESETS`` or a ``RomanianScoring`` for
            ``scores`` (deal score only: streak bonuses depend on the game).

    Returns:
        :class:`DealRecord`: ``tricks[seat]`` (ints summing to the cards per hand), the
        tricks in order with leader, cards and winner, and ``scores[seat]`` in points.

    Raises:
        ValueError: not 3 to 6 hands, hands of different or bad sizes, a card twice or
            outside the deck, trump missing/superfluous/in a hand/outside the deck, not
            one bid per seat or a bid outside 0..cards or the dealer's forbidden total,
            not one policy per seat, an unknown policy name or a bad ``pimc:M``, unknown scoring, a
            negative seed.
    """
    masks, turned = _check_deal(hands, trump)
    players, cards = len(masks), card_count(masks[0])
    bid_list = list(bids)
    if len(bid_list) != players:
        raise ValueError(f"give one bid per seat ({players}), got {len(bid_list)}")
    check_bids(players, cards, bid_list)
    if isinstance(policies, (str, Policy)):
        given = [policies]
    elif isinstance(policies, Sequence):
        given = list(policies)
    else:
        raise ValueError(f"policies: a policy (name or Policy) or one per seat, got {policies!r}")
    if len(given) == 1:
        given = given * players
    if len(given) != players:
        raise ValueError(f"give one policy per seat ({players}) or one for all, got {len(given)}")
    seat_policies = [p if isinstance(p, Policy) else _named_policy(p) for p in given]
    rule = get_scoring(scoring)
    seed = resolve_seed(seed)
    trace = np.zeros(players * cards, dtype=np.int64)
    won = _play_kernel(masks, turned, bid_list, seat_policies, seed, trace)
    trump_suit = -1 if turned is None else card_suit(turned)
    played = []
    leader = 0
    for t in range(cards):
        trick = trace[t * players : (t + 1) * players]
        winner = int(trick_winner(trick, players, leader, players, trump_suit))
        played.append(Trick(leader, tuple(int(c) for c in trick), winner))
        leader = winner
    tricks = tuple(int(w) for w in won)
    return DealRecord(
        hands=tuple(masks),
        turned=turned,
        bids=tuple(bid_list),
        policies=tuple(p.play for p in seat_policies),
        tricks=tricks,
        played=tuple(played),
        scores=tuple(deal_score(rule, b, t, cards) for b, t in zip(bid_list, tricks, strict=True)),
        scoring=rule.name,
        seed=seed,
    )


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
        won = _play_kernel(hands, turned, seat_bids, [policies[order[pos]] for pos in range(n)],
                           int(rng.integers(2**62)))  # fmt: skip
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
        partial: True for the result of a stopped run (over the games finished).
    """

    table: pd.DataFrame
    per_game: pd.DataFrame
    partial: bool = False

    def to_dict(self) -> dict:
        """JSON-ready dict: ``partial`` (True: a stopped run, the games finished) and the
        table's ``rows`` (NaN, e.g. the interval of a single game, as None)."""
        rows = self.table.astype(object).where(self.table.notna(), None).to_dict(orient="records")
        return {"partial": self.partial, "rows": rows}


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
    backend: str | None = None,
    progress: bool | None = False,
) -> SimulationResult:
    """Play ``games`` complete games between policies and compare their scores.

    Policies are assigned to players in rotation: in game ``g`` player ``p`` uses
    ``policies[(p + g) % len(policies)]`` (so every policy sits in every place), and the
    first dealer is random. Each game has its own seed word
    (``sample_seeds(seed, games)``): results do not depend on ``n_jobs``.

    ``backend`` (default this process for ``n_jobs=1``, else loky's worker processes)
    and ``progress`` (a bar on stderr) as :func:`wiezen_sim.parallel.run_batches`.

    Returns:
        :class:`SimulationResult` (points per game: the scoring's units).

    Raises:
        ValueError: players outside 3–6, games < 1, a negative seed, unknown sequence,
            scoring, policy or variant names, or a policy that the rotation never seats in
            so few games (more policies than players).
        Interrupted: Ctrl-C or SIGTERM; ``partial`` the result of the games finished
            (``partial`` True), None before the first.
    """
    check_players(players)
    if not is_whole(games, 1):
        raise ValueError(f"games must be a positive integer, got {games!r}")
    names = list(policies)
    if not names:
        raise ValueError("give at least one policy")
    for nm in names:
        make_policy(nm)
    seated = {names[(p + g) % len(names)] for g in range(min(games, len(names))) for p in range(players)}
    if idle := [nm for nm in dict.fromkeys(names) if nm not in seated]:
        raise ValueError(f"{len(names)} policies rotated over {players} players: in {games} games "
                         f"{', '.join(idle)} never play{'s' if len(idle) == 1 else ''} (give at least "
                         f"{len(names) - players + 1} games, or at most {players} policies)")  # fmt: skip
    rules = RomanianRules.make(players, sequence, scoring, one_card, special_end_deals)
    words = sample_seeds(resolve_seed(seed), games)
    task = _GameBatch(rules, names, bid_samples, worlds, words)
    try:
        parts = run_batches(task, np.arange(games), 1, n_jobs, backend, progress, "games")
    except Interrupted as exc:
        exc.unit = "games"
        if exc.results:
            exc.partial = _result(exc.results, names, rules, partial=True)
        raise
    return _result(parts, names, rules)


def _result(parts: list, names: list[str], rules: RomanianRules, partial: bool = False) -> SimulationResult:
    """The result of the games of the finished batches (in game order)."""
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
    return SimulationResult(pd.DataFrame(rows), per_game_df, partial)
