"""Double-dummy solving for four players (DESIGN.md layer 4).

Friendly, validating wrappers around the numba search in
:mod:`wiezen_sim.kernel.dd`. A *position* is four hands (int masks in seat order
0..3 — for a PBN deal string that is N, E, S, W), the trump suit (0..3 = S H D C, or
``None`` for no trump; :func:`wiezen_sim.vocabulary.parse_trump` reads ``"NT"`` and the
letters), the leader of the current trick and the cards already played to it. The
*side* is a set of seats (1 vs 3, or 2 vs 2 with partners in any seats). Results are in
tricks counted from the current trick on (for a fresh deal: all 13, or as many as each
hand holds).

Objectives (:class:`wiezen_sim.vocabulary.Objective`):

* ``"max"`` — the most tricks the side can force (vraag, solo, abondance, troel, solo slim);
* ``"min"`` — the fewest tricks the side can hold itself to (the misère family);
* ``"exact"`` with ``k`` (or the string ``"exact:K"``) — can the side force exactly ``k``
  tricks (pico)? The result is a ``bool``.

Example::

    >>> from wiezen_sim.solvers.dd import solve
    >>> solve("N:AKQJ... ... ...", trump="NT", leader=1, side=(0, 2))  # doctest: +SKIP
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from wiezen_sim.cards import FULL_DECK, card_name, check_disjoint, parse_card, parse_deal
from wiezen_sim.defaults import DEFAULT_TT_MB, MAX_TT_MB
from wiezen_sim.kernel import dd as _k
from wiezen_sim.kernel.playout import POLICY_HEURISTIC, rng_new
from wiezen_sim.kernel.playout import playout as _playout
from wiezen_sim.kernel.trick import trick_winner
from wiezen_sim.vocabulary import Objective, is_whole, parse_objective, parse_trump

__all__ = [
    "MAX_NODE_LIMIT",
    "DDSolver",
    "NodeLimitExceeded",
    "Replay",
    "can_force",
    "card_values",
    "check_position",
    "dd_table",
    "from_endplay",
    "parse_side",
    "process_solver",
    "replay",
    "solve",
    "solve_batch",
    "solve_kleine_miserie",
]

MAX_NODE_LIMIT = 1 << 62  # trick nodes: the kernel adds the limit to its int64 counter (beyond any run)
_ENTRY_BYTES = 8 * _k.TT_COLUMNS  # one row of the table: key, chain link, bounds (see kernel/dd/layout.py)
RACE_ROWS = 1 << 18  # rows of a solver's race-game table (kernel/dd/race.py; 12.6 MB, touched as it fills)

Hands = str | Sequence[int] | np.ndarray
TrumpLike = int | str | None
SideLike = int | str | Iterable[int]

_KERNEL_NO_TRUMP = -1  # the kernel's code for no trump (the public value is None)
_KERNEL_OBJECTIVE = {Objective.MAX: _k.OBJ_MAX, Objective.MIN: _k.OBJ_MIN, Objective.EXACT: _k.OBJ_EXACT}


def parse_side(side: SideLike) -> int:
    """Seats (an iterable of 0..3, a string like ``"02"`` / ``"0,2"``) or a seat mask → mask.

    An ``int`` is read as a bit mask (bit s = seat s). The side must hold 1 to 3 seats.

    Raises:
        ValueError: unknown seat (an empty one too, as in ``"0,,2"``), a seat given twice,
            or an empty/full side.
        TypeError: neither an int, a string nor an iterable of seats (a float, ``None``).
    """
    if isinstance(side, bool):
        raise ValueError(f"a side is its seats or a seat mask, got {side!r}")
    if isinstance(side, (int, np.integer)):
        mask = int(side)
    else:
        seats: list[str] | list[int]
        if isinstance(side, str):
            seats = [c.strip() for c in side.split(",")] if "," in side else list(side.replace(" ", ""))
        else:
            try:
                seats = list(side)
            except TypeError:
                raise TypeError(f"a side is its seats (e.g. (0, 2) or '02') or a seat mask, got {side!r}") from None
        mask = 0
        for s in seats:
            seat = -1
            if isinstance(s, str) and len(s) == 1:
                seat = "0123".find(s)
            elif is_whole(s):
                seat = int(s)
            if not 0 <= seat <= 3:
                raise ValueError(f"unknown seat {s!r} in side {side!r} (seats are 0..3, the PBN order N E S W)")
            if (mask >> seat) & 1:
                raise ValueError(f"seat {seat} given twice in side {side!r}")
            mask |= 1 << seat
    if not 0 < mask < 15:
        raise ValueError(f"a side holds one to three seats, got {side!r}")
    return mask


def _parse_hands(hands: Hands) -> np.ndarray:
    masks: tuple[int, ...]
    if isinstance(hands, str):
        masks = parse_deal(hands, cards_per_hand=None)
    else:
        try:
            given = list(hands)
        except TypeError:
            raise TypeError(f"hands are a PBN deal string or four int card masks, got {hands!r}") from None
        for h in given:
            if not is_whole(h):  # a float would be truncated or rounded into other cards
                raise TypeError(f"a hand is an int card mask, got {h!r} (a PBN deal is one string)")
        masks = tuple(int(h) for h in given)
        if len(masks) != 4:
            raise ValueError(f"a double-dummy position has four hands, got {len(masks)}")
        for h in masks:
            if h < 0 or h & ~FULL_DECK:
                raise ValueError(f"not a card mask: {h:#x}")
        check_disjoint(masks)
    return np.array(masks, dtype=np.int64)


def _cards(cards: Iterable[int | str], what: str) -> list[int]:
    """Card names or bit numbers → bit numbers (not range-checked: the callers say which cards may be).

    Raises:
        TypeError: ``cards`` is one string or not a sequence, or a card is neither a name nor a whole number.
        ValueError: a name that is not a card.
    """
    if isinstance(cards, str):
        raise TypeError(f"{what} is a sequence of cards such as ['AS', 'KS'], not the string {cards!r}")
    try:
        given = list(cards)
    except TypeError:
        raise TypeError(f"{what} is a sequence of cards such as ['AS', 'KS'], got {cards!r}") from None
    out = []
    for c in given:
        if isinstance(c, str):
            out.append(parse_card(c))
        elif is_whole(c):
            out.append(int(c))
        else:  # a float would be truncated to another card
            raise TypeError(f"a card in {what} is a name such as 'AS' or a bit number, got {c!r}")
    return out


def _parse_trick(trick: Iterable[int | str]) -> list[int]:
    cards = _cards(trick, "trick")
    if len(cards) > 3:
        raise ValueError(f"a trick in progress has at most 3 cards, got {len(cards)}")
    for c in cards:
        if not (0 <= c < 64 and (FULL_DECK >> c) & 1):
            raise ValueError(f"not a card bit number: {c}")
    if len(set(cards)) != len(cards):
        raise ValueError("a card appears twice in the trick")
    return cards


@dataclass
class _Position:
    hands: np.ndarray  # int64[4] masks, seat order
    trump: int  # the kernel's code: 0..3, or -1 for no trump
    leader: int  # leader of the current trick
    trick: np.ndarray  # int64[4]: trick[:n_trick] played from leader
    n_trick: int
    tricks_left: int  # including the trick in progress


def check_position(hands: Hands, trump: TrumpLike, leader: int, trick: Iterable[int | str] = ()) -> np.ndarray:
    """Validate a position without solving it; returns its hands (int64[4] masks, seat order).

    Raises:
        ValueError: as :meth:`DDSolver.solve` does for a bad position (cards, hand
            sizes, trump, leader, the trick in progress).
        TypeError: as :meth:`DDSolver.solve` does for a hand or card of the wrong type.
    """
    return _position(hands, trump, leader, trick).hands


@dataclass(frozen=True)
class Replay:
    """The position reached by playing cards from a whole deal (see :func:`replay`).

    Attributes:
        hands: int64[4] cards each seat still holds (seat order).
        leader: seat leading the trick in progress (the next trick when none is).
        trick: cards (bit numbers) played to the trick in progress, in order from ``leader``.
        won: tricks won so far by each seat (seat order).
    """

    hands: np.ndarray
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, int, int, int]


def replay(hands: Hands, trump: TrumpLike, leader: int, played: Iterable[int | str]) -> Replay:
    """Play ``played`` from the whole deal ``hands``, as DDS's play analysis takes them.

    Args:
        hands: the deal before any card was played (PBN string or four masks, seat order).
        trump: as in :meth:`DDSolver.solve`.
        leader: seat leading the first trick.
        played: the cards played so far, in order from the first lead (bit numbers or
            names such as ``"4S"``); each trick's winner leads the next (follow suit, no
            obligation to trump: RULES.md 1.4, the same rule as bridge).

    Returns:
        the :class:`Replay` position.

    Raises:
        ValueError: a bad deal, trump or leader (as :meth:`DDSolver.solve`), a card the seat
            to play does not hold, or a revoke (naming the card and its place in ``played``).
        TypeError: ``played`` is one string, or a card in it is neither a name nor a whole number.
    """
    pos = _position(hands, trump, leader, ())
    h = pos.hands.copy()
    won = [0, 0, 0, 0]
    leader = pos.leader
    trick: list[int] = []
    for i, card in enumerate(_cards(played, "played"), 1):
        seat = (leader + len(trick)) % 4
        if not (0 <= card < 64 and (int(h[seat]) >> card) & 1):
            name = card_name(card) if 0 <= card < 64 and (FULL_DECK >> card) & 1 else repr(card)
            raise ValueError(f"played card {i} ({name}): seat {seat} to play does not hold it")
        if trick and card >> 4 != trick[0] >> 4 and int(h[seat]) & (0x7FFC << (16 * (trick[0] >> 4))):
            raise ValueError(f"played card {i} ({card_name(card)}): seat {seat} still holds the suit led (revoke)")
        h[seat] &= ~(1 << card)
        trick.append(card)
        if len(trick) == 4:
            leader = trick_winner(np.array(trick, dtype=np.int64), 4, leader, 4, pos.trump)
            won[leader] += 1
            trick = []
    return Replay(h, leader, tuple(trick), (won[0], won[1], won[2], won[3]))


def from_endplay(deal) -> dict:
    """The position of an endplay ``Deal`` as keyword arguments of :func:`solve`,
    :func:`card_values` and :func:`can_force`: ``hands`` (the cards held), ``trump``,
    ``leader`` (endplay's ``first``) and ``trick`` (its ``curtrick``), e.g.
    ``solve(**from_endplay(d), side=(0, 2))``.

    Raises:
        ValueError: ``deal`` is not an endplay ``Deal`` (ImportError without endplay).
    """
    from endplay.types import Deal

    if not isinstance(deal, Deal):
        raise ValueError(f"not an endplay Deal: {type(deal).__name__}")
    return {
        "hands": parse_deal(deal.to_pbn(), cards_per_hand=None),
        "trump": parse_trump(deal.trump.abbr),
        "leader": int(deal.first),
        "trick": [parse_card(str(c)) for c in deal.curtrick],
    }


def _position(hands: Hands, trump: TrumpLike, leader: int, trick: Iterable[int | str],
              played: Iterable[int | str] = ()) -> _Position:  # fmt: skip
    moves = _cards(played, "played")
    if moves:
        if _cards(trick, "trick"):
            raise ValueError("give the trick in progress (trick=, cards not in the hands) or the play from the "
                             "whole deal (played=), not both")  # fmt: skip
        r = replay(hands, trump, leader, moves)
        hands, leader, trick = r.hands, r.leader, r.trick
    h = _parse_hands(hands)
    suit = parse_trump(trump)
    t = _KERNEL_NO_TRUMP if suit is None else suit
    if not is_whole(leader, 0, 3):
        raise ValueError(f"leader must be a seat 0..3 (the PBN order N E S W), got {leader!r}")
    leader = int(leader)
    cards = _parse_trick(trick)
    in_trick = 0
    for c in cards:
        in_trick |= 1 << c
    if in_trick & int(h[0] | h[1] | h[2] | h[3]):
        raise ValueError(
            f"card {card_name((in_trick & int(h[0] | h[1] | h[2] | h[3])).bit_length() - 1)} is both played and held"
        )
    n = len(cards)
    to_move = (leader + n) % 4
    tl = int(h[to_move]).bit_count()
    for i in range(4):
        seat = (leader + i) % 4
        want = tl - 1 if i < n else tl
        if int(h[seat]).bit_count() != want:
            counts = ", ".join(str(int(x).bit_count()) for x in h)
            raise ValueError(
                f"seats 0-3 hold {counts} cards: every hand must hold the same number of cards "
                f"(one less after playing to the trick in progress)"
            )
    if n and tl == 0:
        raise ValueError("a trick in progress needs cards left to complete it")
    if tl > 13:
        raise ValueError(f"at most 13 cards per hand, got {tl}")
    # follow-suit check of the cards already played
    if n:
        lead_suit = cards[0] >> 4
        lane = 0x7FFC << (16 * lead_suit)
        for i in range(1, n):
            seat = (leader + i) % 4
            if cards[i] >> 4 != lead_suit and int(h[seat]) & lane:
                raise ValueError(f"seat {seat} played {card_name(cards[i])} but still holds the suit led (revoke)")
    tr = np.zeros(4, dtype=np.int64)
    tr[:n] = cards
    return _Position(h, t, leader, tr, n, tl)


class NodeLimitExceeded(RuntimeError):
    """A question needed more trick nodes than the solver's ``node_limit`` (no answer)."""


class DDSolver:
    """A double-dummy solver with its own transposition table (reuse it across calls).

    Args:
        tt_mb: memory for the transposition table in MB (bounded; default 256). When the
            table fills up it keeps its entries with the most tricks left (at most half)
            and refills; results never depend on the size.
        use_tt: switch the table off (for testing; much slower).
        keep_table: keep the table across deals (emptied only for a new trump suit or
            on :meth:`clear`); the PIMC player asks about the sampled worlds of one
            decision, which share many positions.
        node_limit: trick nodes (:attr:`trick_nodes`) one question may visit, a whole
            number from 1 to :data:`MAX_NODE_LIMIT`; past it the question raises
            :class:`NodeLimitExceeded` (None: no limit). The count
            is deterministic, so whether a question passes the limit depends only on
            the question and the table's contents, never on timing.

    Raises:
        TypeError: ``tt_mb`` is not a number, or ``node_limit`` is not a whole number or None.
        ValueError: ``tt_mb`` outside (0, MAX_TT_MB] or ``node_limit`` outside 1..MAX_NODE_LIMIT.

    The table is kept while the positions asked about belong to the same deal (every
    hand a subset of the hand in the previous question) and the trump suit stays the
    same, as DDS does; it is emptied for a new deal (unless ``keep_table``), a new trump
    suit or on :meth:`clear`. Entries describe positions by relative ranks, so keeping
    them stays correct, but over many unrelated deals their chains grow and slow the
    lookups down.
    """

    def __init__(self, tt_mb: float = DEFAULT_TT_MB, use_tt: bool = True, keep_table: bool = False,
                 node_limit: int | None = None) -> None:  # fmt: skip
        if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float, np.integer, np.floating)):
            raise TypeError(f"tt_mb must be a number of MB, got {tt_mb!r}")
        if not 0 < tt_mb <= MAX_TT_MB:
            raise ValueError(f"tt_mb must be a number of MB in (0, {MAX_TT_MB}], got {tt_mb}")
        n = 1 << max(10, int(tt_mb * 2**20 / _ENTRY_BYTES).bit_length() - 1)
        # layout: see wiezen_sim.kernel.dd.layout
        self.tt = np.zeros((n, _k.TT_COLUMNS), dtype=np.int64)
        self.race = np.zeros((RACE_ROWS, _k.RACE_COLUMNS), dtype=np.int64)  # the race game's table (kernel.dd.race)
        self.scratch = _k.new_scratch()
        self.stats = self.scratch[_k.STATE, _k.STATS, : _k.N_STATS]  # a view: the kernel counts in the scratch array
        self.use_tt = 1 if use_tt else 0
        self.keep_table = keep_table
        if node_limit is not None and not is_whole(node_limit):  # inf or 2**63 failed only at the first question
            raise TypeError(f"node_limit must be a whole number of trick nodes or None, got {node_limit!r}")
        if node_limit is not None and not 1 <= node_limit <= MAX_NODE_LIMIT:
            raise ValueError(f"node_limit must be 1..{MAX_NODE_LIMIT} trick nodes or None, got {node_limit}")
        self.node_limit = None if node_limit is None else int(node_limit)
        self.limit_hits = 0  # questions that passed node_limit
        self._trump: int | None = None
        self._last_hands: tuple[int, ...] | None = None

    @property
    def tt_bytes(self) -> int:
        """Bytes held by the transposition table."""
        return self.tt.nbytes

    @property
    def nodes(self) -> int:
        """Search nodes visited since this solver was created."""
        return int(self.stats[_k.STAT_NODES])

    @property
    def trick_nodes(self) -> int:
        """Search nodes at the start of a trick since this solver was created (what DDS counts as nodes)."""
        return int(self.stats[_k.STAT_TRICK_NODES])

    def clear(self) -> None:
        """Empty the transposition table."""
        _k.tt_clear(self.tt, self.stats)

    def _prepare(self, trump: int, hands: np.ndarray | None = None) -> None:
        new_deal = False
        if hands is not None and not self.keep_table:
            now = tuple(int(h) for h in hands)
            last = self._last_hands
            new_deal = last is None or any(h & ~p for h, p in zip(now, last, strict=True))
            self._last_hands = now
        if trump != self._trump or new_deal:
            self.clear()
            self._trump = trump

    def _run(self, kernel, *args, extra: tuple = ()):
        """Call a kernel search with this solver's table, within ``node_limit``."""
        self.stats[_k.STAT_NODE_LIMIT] = self.stats[_k.STAT_TRICK_NODES] + self.node_limit if self.node_limit else 0
        v = kernel(*args, self.tt, self.use_tt, self.scratch, *extra)
        if self.stats[_k.STAT_LIMIT_EXCEEDED]:
            self.stats[_k.STAT_LIMIT_EXCEEDED] = 0
            self.limit_hits += 1
            raise NodeLimitExceeded(f"the search needed more than {self.node_limit} trick nodes")
        return v

    def solve(
        self,
        hands: Hands,
        trump: TrumpLike,
        leader: int,
        side: SideLike,
        objective: str | Objective = "max",
        k: int | None = None,
        trick: Iterable[int | str] = (),
        played: Iterable[int | str] = (),
    ) -> int | bool:
        """Solve a position for a side.

        Args:
            hands: a PBN deal string (``"N:... ... ... ..."``, any equal number of cards per
                hand) or four int masks in seat order 0..3.
            trump: 0..3 or ``"S" "H" "D" "C"``, or ``None``/``"NT"`` for no trump.
            leader: seat (0..3) leading the current trick.
            side: the side's seats (e.g. ``(0, 2)`` or ``"02"``) or a seat mask.
            objective: ``"max"``, ``"min"``, ``"exact:K"`` (or ``"exact"`` with ``k``).
            trick: cards already played to the current trick, in order from ``leader``
                (bit numbers or names such as ``"AS"``); those cards are not in ``hands``.
            played: instead of ``trick``, the cards played so far from the whole deal
                ``hands``, in order from ``leader``'s first lead (:func:`replay`).

        Returns:
            ``int`` tricks (from the current trick on) for max/min; ``bool`` for exact.

        Raises:
            ValueError: malformed hands, unequal card counts, bad seat/side/trump/objective,
                a revoke in the trick, a card in ``played`` its seat does not hold.
            TypeError: a hand mask that is not a whole number (a float, ``None``), a
                card that is neither a name nor a whole number, ``trick``/``played``
                given as one string instead of a sequence of cards.
            NodeLimitExceeded: the search passed ``node_limit`` (the same for every method).
        """
        pos = _position(hands, trump, leader, trick, played)
        goal, k = parse_objective(objective, k)
        side_mask = parse_side(side)
        return self._solve(pos, side_mask, goal, k)

    def _solve(self, pos: _Position, side_mask: int, goal: Objective, k: int) -> int | bool:
        self._prepare(pos.trump, pos.hands)
        guess = pos.tricks_left // 2
        if goal is Objective.MAX and pos.n_trick == 0 and pos.tricks_left > 2:
            # first zero-window target: the side's tricks in a greedy playout, then a step or two from it
            # (kernel.dd.entry.COUNT_STEPS, measured there)
            tricks = _playout(pos.hands, 4, pos.leader, pos.trump, 0, side_mask, POLICY_HEURISTIC, rng_new(0))
            guess = int(sum(tricks[s] for s in range(4) if side_mask >> s & 1))
        v = self._run(_k.dd_solve, pos.hands, pos.trump, side_mask, _KERNEL_OBJECTIVE[goal], k, pos.leader, pos.trick,
                      pos.n_trick, guess, extra=(self.race,))  # fmt: skip
        return bool(v) if goal is Objective.EXACT else int(v)

    def can_force(
        self,
        hands: Hands,
        trump: TrumpLike,
        leader: int,
        side: SideLike,
        target: int,
        objective: str | Objective = "max",
        trick: Iterable[int | str] = (),
        played: Iterable[int | str] = (),
    ) -> bool:
        """Target mode, one zero-window search.

        ``objective="max"``: can the side force at least ``target`` tricks?
        ``objective="min"``: can the side hold itself to at most ``target`` tricks?
        ``target`` is a number of tricks 0..13 (counted from the current trick on). Other
        arguments as in :meth:`solve`; raises ``ValueError`` (``TypeError``) on bad input as it does.
        """
        pos = _position(hands, trump, leader, trick, played)
        side_mask = parse_side(side)
        if not is_whole(target, 0, 13):  # 2**63 raised OverflowError in the kernel call
            raise ValueError(f"target must be a number of tricks 0..13, got {target!r}")
        goal = str(objective).strip().lower()  # as solve reads it: "MAX", Objective.MIN
        if goal not in (Objective.MAX, Objective.MIN):
            raise ValueError(f"can_force objective must be 'max' or 'min' (exact: solve), got {objective!r}")
        return self._test(pos.hands, pos.trump, pos.leader, pos.trick, pos.n_trick, side_mask, int(target),
                          goal == Objective.MAX)  # fmt: skip

    def can_force_unchecked(self, hands: np.ndarray, trump: int | None, leader: int, trick: Sequence[int],
                            side_mask: int, target: int, at_least: bool) -> bool:  # fmt: skip
        """:meth:`can_force` (``"max"`` when ``at_least``, else ``"min"``) without checking the position: for
        callers whose positions are legal by construction (the PIMC player asks about 10^5 questions per
        deal, where the checks cost a fifth of the search). ``hands``: int64[4] masks, seat order; ``trick``:
        the cards played to the trick in progress (at most 3); ``side_mask``: the side's seats as a bit mask.
        An illegal position gives a meaningless answer, not an error."""
        cards = np.zeros(4, dtype=np.int64)
        cards[: len(trick)] = trick
        code = _KERNEL_NO_TRUMP if trump is None else trump
        return self._test(hands, code, leader, cards, len(trick), side_mask, target, at_least)

    def _test(self, hands: np.ndarray, trump: int, leader: int, trick: np.ndarray, n_trick: int, side_mask: int,
              target: int, at_least: bool) -> bool:  # fmt: skip
        """One zero-window search (kernel trump code; ``trick``: int64[4], the first ``n_trick`` played)."""
        self._prepare(trump, hands)
        lo, hi = (target, _k.BIG) if at_least else (-_k.BIG, target)
        return bool(self._run(_k.dd_test, hands, trump, side_mask, side_mask, lo, hi, leader, trick, n_trick))

    def can_make(
        self,
        hands: Hands,
        trump: TrumpLike,
        leader: int,
        side: SideLike,
        objective: Objective,
        target: int,
        trick: Iterable[int | str] = (),
    ) -> bool:
        """Whether the side makes ``target`` tricks under a contract's ``objective`` (RULES.md 1.3).

        ``MAX``: at least ``target`` (:meth:`can_force`, ``"max"``); ``MIN``: at most
        ``target`` (:meth:`can_force`, ``"min"``); ``EXACT``: exactly ``target``
        (:meth:`solve`, ``"exact"``). Arguments and errors as in :meth:`solve`.
        """
        if str(objective).strip().lower() == Objective.EXACT:
            return bool(self.solve(hands, trump, leader, side, Objective.EXACT, target, trick))
        return self.can_force(hands, trump, leader, side, target, objective, trick)

    def card_values(
        self,
        hands: Hands,
        trump: TrumpLike,
        leader: int,
        side: SideLike,
        objective: str | Objective = "max",
        k: int | None = None,
        trick: Iterable[int | str] = (),
        played: Iterable[int | str] = (),
    ) -> dict[int, int | bool]:
        """Value of every legal card of the player to move.

        Returns ``{card bit number: value}`` where the value is what :meth:`solve` would
        return after that card (tricks from the current trick on, this trick included;
        ``bool`` for exact). Arguments and errors as in :meth:`solve`.
        """
        pos = _position(hands, trump, leader, trick, played)
        if pos.tricks_left == 0:
            raise ValueError("no cards left to play")
        goal, k = parse_objective(objective, k)
        side_mask = parse_side(side)
        self._prepare(pos.trump, pos.hands)
        out = np.empty(64, dtype=np.int64)
        self._run(_k.dd_card_values, pos.hands, pos.trump, side_mask, _KERNEL_OBJECTIVE[goal], k, pos.leader, pos.trick,
                  pos.n_trick, extra=(out, self.race))  # fmt: skip
        return {c: (bool(v) if goal is Objective.EXACT else int(v)) for c, v in enumerate(out) if v >= 0}

    def table(self, hands: Hands, alone: bool = False) -> np.ndarray:
        """The 20-result double-dummy table of a deal, partners opposite (0–2, 1–3).

        Returns an int64 array of shape (5, 4): ``[strain, declarer]`` = tricks the
        declarer's side takes with the declarer's left-hand opponent on lead; strains in
        the order S, H, D, C, NT (DDS's order), declarers seats 0..3. With ``alone`` the
        declarer plays alone against the other three (solo, abondance).
        """
        h = _parse_hands(hands)
        out = np.zeros((5, 4), dtype=np.int64)
        for si, trump in enumerate((0, 1, 2, 3, None)):
            for decl in range(4):
                side = (1 << decl) | (0 if alone else 1 << ((decl + 2) % 4))
                out[si, decl] = self.solve(h, trump, (decl + 1) % 4, side)
        return out


@functools.cache
def process_solver(tt_mb: float = DEFAULT_TT_MB) -> DDSolver:
    """This process's solver with a table of ``tt_mb`` MB, made at the first call and kept (one per size): the
    module's functions use the default size, and a worker process that answers many deals keeps its own
    (``wiezen-sim solve --deals``). Its table is emptied for each new deal (:class:`DDSolver`).

    Raises:
        ValueError, TypeError: ``tt_mb`` as :class:`DDSolver` refuses it.
    """
    return DDSolver(tt_mb=tt_mb)


def solve(
    hands: Hands,
    trump: TrumpLike,
    leader: int,
    side: SideLike,
    objective: str | Objective = "max",
    k: int | None = None,
    trick: Iterable[int | str] = (),
    played: Iterable[int | str] = (),
) -> int | bool:
    """Solve one deal or position with a shared module-level :class:`DDSolver`.

    See :meth:`DDSolver.solve` for the arguments, result (tricks, or ``bool`` for exact)
    and errors (``ValueError``).
    """
    return process_solver().solve(hands, trump, leader, side, objective, k, trick, played)


def can_force(
    hands: Hands,
    trump: TrumpLike,
    leader: int,
    side: SideLike,
    target: int,
    objective: str | Objective = "max",
    trick: Iterable[int | str] = (),
    played: Iterable[int | str] = (),
) -> bool:
    """Target mode ("can the side force ≥ target?"); see :meth:`DDSolver.can_force`."""
    return process_solver().can_force(hands, trump, leader, side, target, objective, trick, played)


def card_values(
    hands: Hands,
    trump: TrumpLike,
    leader: int,
    side: SideLike,
    objective: str | Objective = "max",
    k: int | None = None,
    trick: Iterable[int | str] = (),
    played: Iterable[int | str] = (),
) -> dict[int, int | bool]:
    """Per-card values for the player to move; see :meth:`DDSolver.card_values`."""
    return process_solver().card_values(hands, trump, leader, side, objective, k, trick, played)


def dd_table(hands: Hands, alone: bool = False) -> np.ndarray:
    """20-result table (int64[5, 4], strains S H D C NT × declarer); see :meth:`DDSolver.table`."""
    return process_solver().table(hands, alone)


def solve_batch(
    deals: Iterable[Hands],
    trump: TrumpLike,
    leader: int,
    side: SideLike,
    objective: str | Objective = "max",
    k: int | None = None,
    tt_mb: float = DEFAULT_TT_MB,
) -> np.ndarray:
    """Solve many deals for the same contract in one process.

    Args:
        deals: PBN deal strings or 4-tuples of masks (any equal cards per hand).
        trump, leader, side, objective, k: as in :meth:`DDSolver.solve`.
        tt_mb: transposition-table memory for the batch's solver.

    Returns:
        int64 array of shape (n_deals,): tricks (max/min) or 1/0 (exact).

    Raises:
        ValueError: a bad contract (trump, leader, side, objective), or a bad deal naming its index.
        TypeError: ``deals`` is one string, or as :meth:`DDSolver.solve` for a deal of the wrong type.
    """
    if isinstance(deals, str):
        raise TypeError("deals is a sequence of deals: put one PBN deal string in a list")
    solver = DDSolver(tt_mb=tt_mb)
    goal, k = parse_objective(objective, k)
    side_mask = parse_side(side)
    parse_trump(trump)  # the contract is checked with no deals too
    if not is_whole(leader, 0, 3):
        raise ValueError(f"leader must be a seat 0..3 (the PBN order N E S W), got {leader!r}")
    out = []
    for i, deal in enumerate(deals):
        try:
            pos = _position(deal, trump, leader, ())
        except ValueError as exc:
            raise ValueError(f"deal {i}: {exc}") from None
        out.append(int(solver._solve(pos, side_mask, goal, k)))
    return np.array(out, dtype=np.int64)


def solve_kleine_miserie(
    hands: Hands,
    discards: Sequence[int | str],
    leader: int,
    declarer: int,
    solver: DDSolver | None = None,
) -> int:
    """Kleine miserie: fewest tricks the declarer can take of the 12 played after discards.

    Args:
        hands: the four 13-card hands (PBN string or masks).
        discards: one card per seat (seat order 0..3) laid aside before play; the
            choice is the caller's.
        leader: seat leading the first trick; declarer: the declarer's seat (1 vs 3).

    Returns:
        ``int`` — the declarer's tricks under best play (0 means the contract makes).

    Raises:
        ValueError: bad hands, a discard not held by its seat, or a bad seat.
        TypeError: as :meth:`DDSolver.solve` for hands or cards of the wrong type.
    """
    h = _parse_hands(hands)
    cards = _cards(discards, "discards")
    if len(cards) != 4:
        raise ValueError(f"kleine miserie needs one discard per seat, got {len(cards)}")
    for seat, c in enumerate(cards):
        if not 0 <= c < 64 or not (int(h[seat]) >> c) & 1:
            name = card_name(c) if 0 <= c < 64 and (FULL_DECK >> c) & 1 else repr(c)
            raise ValueError(f"seat {seat} does not hold its discard {name}")
        h[seat] &= ~(1 << c)
    if not is_whole(declarer, 0, 3):
        raise ValueError(f"declarer must be a seat 0..3, got {declarer!r}")
    return int((solver or process_solver()).solve(h, None, leader, 1 << int(declarer), Objective.MIN))
