"""Romanian whist (Oh Hell family) as data (RULES.md Part 2).

Pure Python, no numba. Everything here follows RULES.md Part 2; where that page is
silent the choice made is written down in the docstring that makes it.

- Deck by player count (:func:`deck_mask`): 8 × N cards, the highest ranks
  (3 players 9–A, 4 players 7–A, 5 players 5–A, 6 players 3–A).
- Deal sequences (:func:`deal_sequence`): ``1-8-1`` (**default**), ``8-1-8`` and
  ``each`` ("each count N times").
- Trump (:func:`has_trump`): the card after the deal is turned; deals of 8 cards use
  the whole deck and have no trump.
- Bidding (:func:`legal_bids`, :func:`forbidden_bid`): seat 0 (left of the dealer)
  bids first, the dealer (seat N−1) last; the dealer may not make the total of the
  bids equal to the number of cards each player holds (the "hook").
- Play: follow suit, else trump if possible (must-trump), else any card — the kernel
  primitives ``wiezen_sim.kernel.trick.legal_mask(..., must_trump=1)``; seat 0 leads.
- Scoring (:class:`RomanianScoring`, :data:`SCORING_PRESETS`, :func:`deal_score`,
  :class:`StreakCounter`, :func:`score_game`): the default and variants (a)–(e).
- One-card deal variants (``normal``, ``forehead``, ``blind``) and the optional special
  end deals (``blind``, ``zero``, ``eight``) in :class:`RomanianRules` /
  :class:`DealSpec`.

Seats are numbered in playing order from the player left of the dealer: seat 0
bids first and leads the first trick, seat N−1 is the dealer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from wiezen_sim.cards import SUIT_LANE, card_name
from wiezen_sim.vocabulary import is_whole

__all__ = [
    "MAX_CARDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ONE_CARD_MODES",
    "SCORING_PRESETS",
    "SEQUENCES",
    "SPECIAL_DEALS",
    "VISIBILITIES",
    "DealSpec",
    "RomanianRules",
    "RomanianScoring",
    "StreakCounter",
    "check_bids",
    "check_bids_so_far",
    "check_cards",
    "check_cards_in_deck",
    "check_players",
    "check_turned",
    "counts_for_streak",
    "deal_score",
    "deal_sequence",
    "deck_mask",
    "forbidden_bid",
    "game_winners",
    "get_scoring",
    "has_trump",
    "legal_bids",
    "lowest_rank",
    "score_game",
]

MIN_PLAYERS = 3
MAX_PLAYERS = 6
MAX_CARDS = 8
SEQUENCES = ("1-8-1", "8-1-8", "each")
ONE_CARD_MODES = ("normal", "forehead", "blind")
SPECIAL_DEALS = ("blind", "zero", "eight")
VISIBILITIES = ("normal", "forehead", "blind")


def check_players(players: int) -> int:
    """Validate a player count (3–6, RULES.md Part 2) and return it as ``int``.

    Raises:
        ValueError: not an integer in 3..6.
    """
    if not is_whole(players, MIN_PLAYERS, MAX_PLAYERS):
        raise ValueError(f"Romanian whist is played by 3 to 6 players, got {players!r}")
    return players


def lowest_rank(players: int) -> int:
    """Lowest rank (2..14) in the deck for ``players`` players: 9, 7, 5 or 3."""
    return 15 - 2 * check_players(players)


def deck_mask(players: int) -> int:
    """The deck for ``players`` players as a card mask: 8 × N cards, the highest ranks (RULES.md Part 2).

    Raises:
        ValueError: players outside 3–6.
    """
    low = lowest_rank(players)
    lane = SUIT_LANE & ~((1 << low) - 1)
    return sum(lane << (16 * s) for s in range(4))


def check_cards_in_deck(mask: int, players: int, what: str = "hand") -> None:
    """Raise ``ValueError`` naming the first card of ``mask`` outside the deck for ``players`` players."""
    outside = mask & ~deck_mask(players)
    if outside:
        card = (outside & -outside).bit_length() - 1
        raise ValueError(
            f"{what}: card {card_name(card)} is not in the {8 * players}-card deck for {players} players "
            f"(ranks {'..23456789TJQKA'[lowest_rank(players)]} to A)"
        )


def check_turned(turned: int | None, players: int, cards: int, hand: int = 0) -> None:
    """Validate the turned card (the trump) of a deal of ``cards`` per player (RULES.md Part 2).

    Args:
        turned: the card's bit number, or None for no turned card.
        players: 3..6.
        cards: cards per player (1..8).
        hand: the player's own cards (a card mask), which cannot hold it.

    Raises:
        ValueError: a turned card in an 8-card deal (the deck is used up), none in a shorter
            deal, one outside the deck for ``players`` players, or one in ``hand``.
    """
    if cards == MAX_CARDS and turned is not None:
        raise ValueError("8-card deals use the whole deck: there is no turned card (give trump none)")
    if cards < MAX_CARDS and turned is None:
        raise ValueError(f"a {cards}-card deal has a turned card: give it as trump (e.g. 'QH')")
    if turned is not None:
        check_cards_in_deck(1 << turned, players, "trump")
        if hand >> turned & 1:
            raise ValueError(f"the turned card {card_name(turned)} cannot be in the hand")


def deal_sequence(players: int, sequence: str = "1-8-1") -> tuple[int, ...]:
    """Cards per player in each deal of a game (RULES.md Part 2).

    ``1-8-1`` (default): N deals of 1, one each of 2..7, N of 8, one each of 7..2, N of 1.
    ``8-1-8``: N of 8, one each of 7..2, N of 1, one each of 2..7, N of 8.
    ``each``: each count N times, 1×N, 2×N, …, 8×N.

    Raises:
        ValueError: players outside 3–6 or an unknown sequence name.
    """
    n = check_players(players)
    up = tuple(range(2, MAX_CARDS))  # 2..7
    down = tuple(reversed(up))
    if sequence == "1-8-1":
        return (1,) * n + up + (8,) * n + down + (1,) * n
    if sequence == "8-1-8":
        return (8,) * n + down + (1,) * n + up + (8,) * n
    if sequence == "each":
        return tuple(c for c in range(1, MAX_CARDS + 1) for _ in range(n))
    raise ValueError(f"unknown deal sequence {sequence!r}; known: {', '.join(SEQUENCES)}")


def has_trump(players: int, cards: int) -> bool:
    """Whether a deal of ``cards`` per player has a turned trump card.

    The card after the deal is turned; with 8 cards each the deck (8 × N) is used up,
    so 8-card deals are played without trump (RULES.md Part 2).

    Raises:
        ValueError: players outside 3–6 or cards outside 1..8.
    """
    check_players(players)
    check_cards(cards)
    return players * cards < 8 * players


def check_cards(cards: int) -> int:
    """Validate a number of cards per player (1..8) and return it."""
    if not is_whole(cards, 1, MAX_CARDS):
        raise ValueError(f"a Romanian whist deal has 1 to 8 cards per player, got {cards!r}")
    return cards


# ----------------------------------------------------------------------------- bidding


def forbidden_bid(players: int, cards: int, bids_so_far: Sequence[int]) -> int | None:
    """The bid the next player may not make, or ``None``.

    Only the dealer (the last to bid, seat N−1) is restricted: the total of all bids may
    not equal ``cards`` (RULES.md Part 2). Returns ``cards − sum(bids_so_far)`` when the
    next bidder is the dealer and that number is a possible bid (0..cards), else ``None``.
    """
    if len(bids_so_far) != players - 1:
        return None
    hook = cards - sum(bids_so_far)
    return hook if 0 <= hook <= cards else None


def legal_bids(players: int, cards: int, bids_so_far: Sequence[int], forced: int | None = None) -> list[int]:
    """The bids the next player may make, ascending (RULES.md Part 2).

    Args:
        players: 3..6.
        cards: cards per player in this deal (1..8).
        bids_so_far: bids of seats 0, 1, … already made (fewer than ``players``).
        forced: in the special end deals *zero bid* / *eight bid* every player must bid
            this number (0 or 8); the dealer's restriction does not apply there (the
            total N × 0 or N × 8 can never equal 8 cards for 3 or more players anyway).

    Raises:
        ValueError: bad player count or card count, a finished or invalid bid list.
    """
    check_players(players)
    check_cards(cards)
    check_bids(players, cards, bids_so_far)
    if len(bids_so_far) >= players:
        raise ValueError(f"all {players} players have bid already")
    if forced is not None:
        return [forced]
    hook = forbidden_bid(players, cards, bids_so_far)
    return [b for b in range(cards + 1) if b != hook]


def check_bids(players: int, cards: int, bids: Sequence[int]) -> None:
    """Validate a list of bids in bidding order (each 0..cards, the dealer off the hook).

    Raises:
        ValueError: too many bids, a bid outside 0..cards, or a complete bid list whose
            total equals ``cards`` (the dealer made the forbidden bid).
    """
    if len(bids) > players:
        raise ValueError(f"{len(bids)} bids given for {players} players")
    for i, b in enumerate(bids):
        if not is_whole(b, 0, cards):
            raise ValueError(f"bid of seat {i} must be 0..{cards}, got {b!r}")
    if len(bids) == players and sum(bids) == cards:
        raise ValueError(f"the dealer may not bring the total of the bids to {cards} (the number of cards dealt)")


def check_bids_so_far(players: int, cards: int, seat: int, bids: Sequence[int]) -> None:
    """Validate the bids made before ``seat`` bids: one per earlier seat (seat 0 bids first), each valid.

    Raises:
        ValueError: not ``seat`` bids, or a bad bid (:func:`check_bids`).
    """
    if len(bids) != seat:
        raise ValueError(f"seat {seat} bids after {seat} players: give {seat} bids so far, got {len(bids)}")
    check_bids(players, cards, bids)


# ----------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class RomanianScoring:
    """A scoring rule of RULES.md Part 2 (default and variants (a)–(e)).

    Attributes:
        name: preset name (informative).
        exact: points for an exact bid ``n``: ``"five_plus_bid"`` (default, 5 + n),
            ``"bid_plus_cards"`` (variant (a), n + cards dealt this deal) or
            ``"triangular"`` (variant (b), 5 + n(n+1)/2).
        miss: points when off by ``d`` tricks: ``"linear"`` (−d, default) or
            ``"triangular"`` (−d(d+1)/2, variant (b)).
        streak_length, streak_bonus: variant (c): +``streak_bonus`` each time a player
            has ``streak_length`` consecutive exact bids; the counter resets after the
            bonus (0 = no streak bonus). RULES.md names +10 per 5, +5 per 5, +30 per 10.
        miss_streak_length, miss_streak_penalty: variant (d): −``miss_streak_penalty``
            per ``miss_streak_length`` consecutive misses (counter resets after it).
        one_card_streaks: whether one-card deals count toward streaks. ``None`` (default)
            follows RULES.md: in the 1-8-1 sequence they do not, otherwise they do. A deal
            that does not count neither extends nor breaks a streak (our reading).
        zero_play: variant (e) "0-play": a player who declared in advance that they will
            finish the game on exactly 0 points, and does, wins the game
            (:func:`game_winners`).
    """

    name: str = "default"
    exact: str = "five_plus_bid"
    miss: str = "linear"
    streak_length: int = 0
    streak_bonus: int = 0
    miss_streak_length: int = 0
    miss_streak_penalty: int = 0
    one_card_streaks: bool | None = None
    zero_play: bool = False

    def __post_init__(self) -> None:
        if self.exact not in ("five_plus_bid", "bid_plus_cards", "triangular"):
            raise ValueError(f"exact must be five_plus_bid, bid_plus_cards or triangular, got {self.exact!r}")
        if self.miss not in ("linear", "triangular"):
            raise ValueError(f"miss must be linear or triangular, got {self.miss!r}")
        for f in ("streak_length", "streak_bonus", "miss_streak_length", "miss_streak_penalty"):
            if getattr(self, f) < 0:
                raise ValueError(f"{f} must be ≥ 0")

    def replace(self, **changes: Any) -> RomanianScoring:
        """A copy with some fields changed (validated)."""
        return dataclasses.replace(self, **changes)


def _scoring_presets() -> dict[str, RomanianScoring]:
    base = RomanianScoring()
    return {
        "default": base,
        "bid_plus_cards": base.replace(name="bid_plus_cards", exact="bid_plus_cards"),  # (a)
        "triangular": base.replace(name="triangular", exact="triangular", miss="triangular"),  # (b)
        "streak10": base.replace(name="streak10", streak_length=5, streak_bonus=10),  # (c) +10 per 5
        "streak5": base.replace(name="streak5", streak_length=5, streak_bonus=5),  # (c) +5 per 5
        "streak30": base.replace(name="streak30", streak_length=10, streak_bonus=30),  # (c) +30 per 10
        "streak5_penalty": base.replace(  # (d) with the +5 variant of (c)
            name="streak5_penalty", streak_length=5, streak_bonus=5, miss_streak_length=5, miss_streak_penalty=5
        ),
        "zero_play": base.replace(name="zero_play", zero_play=True),  # (e)
    }


SCORING_PRESETS: Mapping[str, RomanianScoring] = MappingProxyType(_scoring_presets())


def get_scoring(scoring: str | RomanianScoring = "default") -> RomanianScoring:
    """Resolve a preset name (:data:`SCORING_PRESETS`) or pass a ``RomanianScoring`` through.

    Raises:
        ValueError: unknown preset name.
    """
    if isinstance(scoring, RomanianScoring):
        return scoring
    if scoring not in SCORING_PRESETS:
        raise ValueError(f"unknown Romanian scoring {scoring!r}; known: {', '.join(SCORING_PRESETS)}")
    return SCORING_PRESETS[scoring]


def deal_score(scoring: RomanianScoring, bid: int, tricks: int, cards: int) -> int:
    """Points for one deal, before streak bonuses (RULES.md Part 2).

    Default: exact → 5 + bid, else −|tricks − bid| (bid 3: +8; 2 or 4 → −1; 1 or 5 → −2).
    (a) exact → bid + cards; (b) exact → 5 + n(n+1)/2, off by d → −d(d+1)/2.
    """
    d = abs(tricks - bid)
    if d == 0:
        if scoring.exact == "five_plus_bid":
            return 5 + bid
        if scoring.exact == "bid_plus_cards":
            return bid + cards
        return 5 + bid * (bid + 1) // 2
    return -d if scoring.miss == "linear" else -d * (d + 1) // 2


@dataclass
class StreakCounter:
    """Running streak state of one player for variants (c) and (d).

    ``exact_run`` counts consecutive exact bids, ``miss_run`` consecutive misses; each
    resets to 0 when its bonus (penalty) is paid or when the other kind of result
    breaks the run.
    """

    exact_run: int = 0
    miss_run: int = 0

    def update(self, scoring: RomanianScoring, exact: bool) -> int:
        """Record one counted deal; return the bonus (> 0), penalty (< 0) or 0 it triggers."""
        if exact:
            self.miss_run = 0
            self.exact_run += 1
            if scoring.streak_length and self.exact_run == scoring.streak_length:
                self.exact_run = 0
                return scoring.streak_bonus
            return 0
        self.exact_run = 0
        self.miss_run += 1
        if scoring.miss_streak_length and self.miss_run == scoring.miss_streak_length:
            self.miss_run = 0
            return -scoring.miss_streak_penalty
        return 0


def counts_for_streak(scoring: RomanianScoring, sequence: str, cards: int) -> bool:
    """Whether a deal of ``cards`` counts toward streaks (RULES.md Part 2 (c): not the one-card deals in 1-8-1)."""
    if cards != 1:
        return True
    if scoring.one_card_streaks is None:
        return sequence != "1-8-1"
    return scoring.one_card_streaks


def score_game(
    scoring: RomanianScoring,
    cards_per_deal: Sequence[int],
    bids: Sequence[Sequence[int]],
    tricks: Sequence[Sequence[int]],
    sequence: str = "1-8-1",
) -> list[list[int]]:
    """Points of every player in every deal of a game, streak bonuses included.

    Args:
        scoring: the scoring rule.
        cards_per_deal: cards per player of each deal (length D).
        bids, tricks: ``[deal][player]`` bids and tricks taken (D × N).
        sequence: the deal sequence name (decides whether one-card deals count toward
            streaks, RULES.md Part 2 (c)).

    Returns:
        ``[deal][player]`` points (deal score plus any bonus or penalty paid that deal).
    """
    if not (len(cards_per_deal) == len(bids) == len(tricks)):
        raise ValueError("cards_per_deal, bids and tricks need one entry per deal")
    n = len(bids[0]) if bids else 0
    counters = [StreakCounter() for _ in range(n)]
    out = []
    for cards, row_b, row_t in zip(cards_per_deal, bids, tricks, strict=True):
        row = []
        for p in range(n):
            pts = deal_score(scoring, row_b[p], row_t[p], cards)
            if counts_for_streak(scoring, sequence, cards):
                pts += counters[p].update(scoring, row_b[p] == row_t[p])
            row.append(pts)
        out.append(row)
    return out


def game_winners(scoring: RomanianScoring, totals: Sequence[int], zero_play: Sequence[int] = ()) -> list[int]:
    """Seats that win a game with final ``totals`` (highest total; ties share).

    Variant (e) "0-play": with ``scoring.zero_play``, a seat in ``zero_play`` (those that
    declared it in advance) that finishes on exactly 0 points wins instead; if several
    do, they share the win.
    """
    if scoring.zero_play:
        zero = [s for s in zero_play if totals[s] == 0]
        if zero:
            return sorted(zero)
    best = max(totals)
    return [s for s, t in enumerate(totals) if t == best]


# ----------------------------------------------------------------------------- a game


@dataclass(frozen=True)
class DealSpec:
    """One deal of a game.

    Attributes:
        cards: cards per player (1..8).
        trump: whether a card is turned for trump (False for 8-card deals).
        visibility: what a player sees when bidding: ``normal`` (own hand),
            ``forehead`` (everybody's card but their own; one-card deals) or ``blind``
            (bid before looking; the hand is seen for play).
        forced_bid: ``0`` (zero-bid deal), ``8`` (eight-bid deal) or ``None``.
        special: name of the special end deal (``blind``, ``zero``, ``eight``) or ``""``.
    """

    cards: int
    trump: bool
    visibility: str = "normal"
    forced_bid: int | None = None
    special: str = ""


@dataclass(frozen=True)
class RomanianRules:
    """The variant switches of a Romanian whist game (RULES.md Part 2).

    Attributes:
        players: 3..6.
        sequence: ``1-8-1`` (default), ``8-1-8`` or ``each``.
        scoring: the scoring rule (a preset name is resolved by :meth:`make`).
        one_card: ``normal`` (default), ``forehead`` or ``blind`` for one-card deals.
        special_end_deals: optional special deals appended at the end, any of
            ``blind`` (8 cards, bid before looking), ``zero`` (everyone must bid 0),
            ``eight`` (everyone must bid 8). RULES.md gives no card count for *zero* and
            *eight*: we deal 8 cards (no trump) for all three, eight bid being only
            possible with 8 cards.
    """

    players: int = 4
    sequence: str = "1-8-1"
    scoring: RomanianScoring = dataclasses.field(default_factory=RomanianScoring)
    one_card: str = "normal"
    special_end_deals: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_players(self.players)
        if self.sequence not in SEQUENCES:
            raise ValueError(f"unknown deal sequence {self.sequence!r}; known: {', '.join(SEQUENCES)}")
        if self.one_card not in ONE_CARD_MODES:
            raise ValueError(f"one_card must be one of {', '.join(ONE_CARD_MODES)}, got {self.one_card!r}")
        for s in self.special_end_deals:
            if s not in SPECIAL_DEALS:
                raise ValueError(f"unknown special deal {s!r}; known: {', '.join(SPECIAL_DEALS)}")

    @classmethod
    def make(
        cls,
        players: int = 4,
        sequence: str = "1-8-1",
        scoring: str | RomanianScoring = "default",
        one_card: str = "normal",
        special_end_deals: Sequence[str] = (),
    ) -> RomanianRules:
        """Build rules from names (the scoring may be a preset name)."""
        return cls(players, sequence, get_scoring(scoring), one_card, tuple(special_end_deals))

    @property
    def deck(self) -> int:
        """The deck as a card mask."""
        return deck_mask(self.players)

    def deals(self) -> tuple[DealSpec, ...]:
        """Every deal of a game in order, special end deals last."""
        out = []
        for cards in deal_sequence(self.players, self.sequence):
            vis = self.one_card if cards == 1 else "normal"
            out.append(DealSpec(cards, has_trump(self.players, cards), vis))
        for s in self.special_end_deals:
            forced = {"zero": 0, "eight": 8}.get(s)
            out.append(DealSpec(8, False, "blind" if s == "blind" else "normal", forced, s))
        return tuple(out)
