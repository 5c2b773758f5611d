"""Card-play players for Wiezen: ``random``, ``heuristic`` and ``pimc`` (issue 5; RULES.md 1.5).

A *player* is a card-play policy ``PlayView -> card`` (see :mod:`wiezen_sim.rules.play`)
that may also be told, before play, the deal it sits at (:meth:`Player.start`); a
player only ever uses what its seat knows (:func:`wiezen_sim.solvers.worlds.observe`).
:func:`play_deal` plays one deal with any mix of players per seat.

Roles. In an *at-least* contract (vraag, solo, abondance, troel, solo slim) both sides
want tricks: the declaring side to reach the target, the defenders to stop it. In
the misère family the declarer avoids tricks (pico: wants exactly one) and the
defenders try to make the declarer win one.

``heuristic`` — plain rules, one set per role (``_heuristic_card``):

* trick takers (either side of an at-least contract)
    - lead: the declaring side draws trumps with the top trump while opponents may
      hold trumps; anyone cashes a master (the highest unplayed card of a suit,
      side suits first); otherwise lead low from the longest side suit;
    - second hand low, but cover an honour (J, Q, K led by an opponent) with the
      cheapest card that beats it;
    - third and fourth hand: if the partner is winning play low, else win as
      cheaply as possible (ruffing if void), else play low;
    - low = the lowest-ranked card, side suits before trumps.
* misère declarer (kleine miserie, miserie, open miserie; pico after its one trick)
    - lead the lowest card, from the suit where the most unplayed cards outrank it;
    - follow: play under — the highest card that does not win the trick; if every
      card wins, the highest; when void, throw the highest card;
    - pico without a trick yet: last to play, win the trick with the highest
      winning card; otherwise as in miserie.
* misère defenders
    - lead the lowest card of a suit the declarer has not shown void in;
    - declarer still to play: play low (leave the trick to the declarer);
    - declarer winning the trick: play the highest card below the declarer's card;
    - declarer already beaten or void: throw the highest card.

``pimc(worlds=M)`` — perfect-information Monte Carlo: sample ``M`` deals uniformly
from the seat's information set, and for every legal card (one per class of
equivalent cards) ask the double-dummy solver, in each world, whether the declaring
side still makes the contract after that card (one zero-window test). The
declaring side plays the card with the most successful worlds, the defenders the
card with the fewest. Ties are broken by the expected tricks of the declaring side
counted within ``tie_window`` tricks of its target (the same tests one level up and
down; ``tie_window=13`` is the plain expected tricks), then by the heuristic's card.
A single legal card (or class) is played without sampling. With nothing hidden and
``tie_window`` covering the tricks left, the choice is a double-dummy best card.
Questions that cannot change the choice are not asked (a card already sure to score
worse than another, on the count or on the tie-break; tie questions for cards not tied on the count; a tie question
whose answer the card's primary answer in that world implies, such as "at least k - 1" after "at least k" held:
``_implied``), and a world whose
question passes ``PIMC_NODE_LIMIT`` trick nodes is left out for every card (mostly deep
misère defences in the first tricks, where one question can take minutes; there, often).

Dominance across the worlds: a card that is never better than another in any sampled world
(and worse in one) is never chosen. No step is needed for it: the choice maximises sums over
the same worlds, so such a card has the lower count on column 0, or the same count (then the
same answer in every world) and the lower tie-break count; a card stops being tested only
when another is sure to score better, which a card it dominates is too, at the same world or
earlier.

Adaptive M (``max_worlds``, off by default): when the two best cards are close after the
``M`` worlds (the lead of the best under two standard deviations of a sign test over the
worlds where their answers differ), twice as many worlds are drawn for the cards still
tested, and so on up to ``max_worlds`` (the cap; the advisor's players, given ``worlds``,
start at ``worlds // 4`` and stop at :data:`ADAPTIVE_CAP` times ``worlds``). Closeness is
judged only when the worlds planned are done; until the cap the runners-up (the cards of the
second best count) are never dropped as sure to lose, another card sure to lose within the
worlds planned stays out.

Reading the auction (issue 19): a player given :class:`~wiezen_sim.solvers.worlds.AuctionEvidence`
draws its worlds from the posterior given the auction, read with a tremble
(:class:`~wiezen_sim.solvers.worlds.PosteriorWorlds`): there is always a world, and a
decision in which every world drawn has a hidden seat bidding off the model, or in which a
seat's bids are left unread (the auction as the model reads it contradicts what the seat
sees), is counted (``auction_contradicted``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from wiezen_sim.cards import FULL_DECK, card_count, card_rank, card_suit, cards_of, suit_holding
from wiezen_sim.defaults import DEFAULT_WORLDS, MAX_WORLDS
from wiezen_sim.kernel.worlds import highest_card
from wiezen_sim.rules.auction import Declaration
from wiezen_sim.rules.contracts import contract_spec
from wiezen_sim.rules.dealing import Deal
from wiezen_sim.rules.play import PlayRecord, PlayView, play_hand, setup_play, suit_mask, trick_winner
from wiezen_sim.rules.ruleset import RuleSet, get_rules
from wiezen_sim.solvers.dd import DDSolver, NodeLimitExceeded
from wiezen_sim.solvers.worlds import AuctionEvidence, InfoSet, PosteriorWorlds, observe, sample_world
from wiezen_sim.vocabulary import SEATS, Objective, is_whole

__all__ = [
    "ADAPTIVE_CAP",
    "DEFAULT_WORLDS",
    "HONOURS",
    "MAX_WORLDS",
    "PIMC_NODE_LIMIT",
    "PIMC_TT_MB",
    "PLAYERS",
    "PimcPlayer",
    "Player",
    "RandomPlayer",
    "card_classes",
    "check_worlds",
    "decided",
    "heuristic_card",
    "highest_discard",
    "make_player",
    "pimc_scores",
    "pimc_solver",
    "play_deal",
]

HONOURS = (11, 12, 13)  # J Q K: "cover an honour"
PLAYERS = ("random", "heuristic", "pimc")
ADAPTIVE_CAP = 4  # adaptive M of the advisor's PIMC players: at most this many times M worlds
PIMC_TT_MB = 32  # emptied for every decision; smaller tables make rare positions take minutes
# trick nodes one question may take (a few milliseconds; a world with a question past it is left out of the
# decision): the costliest questions are misère defences in the first tricks. Down from 1,000,000 (session
# 32): on the 40 costliest decisions of two advise runs 6.5 times less CPU, the same card as under the old
# limit with the same seed in 96 of 120 choices, where two seeds under the old limit agree in 75
# (experiments/benchmarks/pimc_node_limit.py, results/benchmarks/README.md). Down from 100,000 (session 35,
# with 4 first worlds): on the same 40 decisions 1.34 times less CPU, the same card in 118 of 120, where two
# seeds under 100,000 agree in 108 (pimc_node_limit_25000.json); the two slowest suite hands of
# `advise --method pimc --samples 200` 238.7 -> 173.5 s and 212.1 -> 173.0 s, with about twice as many
# worlds left out. Down from 25,000 (session 36): on the 40 costliest decisions 1.58 times less CPU, the same
# card in 117 of 120, where two seeds under 25,000 agree in 110 (pimc_node_limit_10000.json); worlds left out
# 196 -> 307. Down from 10,000 (session 37): on the 40 costliest decisions 1.38 times less CPU, the same card
# in 119 of 120, where two seeds under 10,000 agree in 114 (pimc_node_limit_5000.json); worlds left out 197 -> 254
PIMC_NODE_LIMIT = 5_000


# ----------------------------------------------------------------- what a seat can see


def _trump_and_target(view: PlayView) -> tuple[int | None, int]:
    """Trump and target now: a troel free lead makes the led suit trump, target 9 (RULES.md 1.5)."""
    setup = view.setup
    first = view.history[0][1][0] if view.history else view.trick[0] if view.trick else None
    if setup.free_lead and first is not None and first != setup.forced_lead:
        return card_suit(first), 9
    return setup.trump, setup.target


def _played(view: PlayView) -> int:
    """Cards played in finished tricks (mask)."""
    return sum(1 << c for _, cards, _ in view.history for c in cards)


def _side_tricks(view: PlayView) -> int:
    """Tricks the declaring side has won so far."""
    return sum(winner in view.setup.side for _, _, winner in view.history)


def _goal(view: PlayView) -> Objective | None:
    """The declaring side's objective (None for a Ronde Pas game)."""
    if not view.setup.contracts:
        return None
    return contract_spec(view.setup.contracts[0].contract).objective


def _winning(view: PlayView, trump: int | None) -> tuple[int, int]:
    """(seat, card) currently winning the trick in progress (which must not be empty)."""
    i = trick_winner(view.trick, trump)
    return (view.leader + i) % SEATS, view.trick[i]


def _beats(card: int, best: int, trump: int | None) -> bool:
    return trick_winner([best, card], trump) == 1


def _low(cards: Sequence[int], trump: int | None) -> int:
    """Lowest-ranked card, side suits before trumps."""
    return min(cards, key=lambda c: (card_suit(c) == trump, card_rank(c), c))


# ------------------------------------------------------------------------ heuristic


def heuristic_card(view: PlayView) -> int:
    """The ``heuristic`` player's card (rules per role in the module docstring).

    Args:
        view: what the seat sees (``view.legal`` non-empty).

    Returns:
        A card bit number from ``view.legal``.
    """
    trump, _ = _trump_and_target(view)
    legal = cards_of(view.legal)
    if len(legal) == 1:
        return legal[0]
    goal = _goal(view)
    declarer = view.seat in view.setup.side
    misere = goal in (Objective.MIN, Objective.EXACT)
    if misere and declarer:
        return _misere_declarer(view, legal, trump)
    if misere:
        return _misere_defender(view, legal, trump)
    return _trick_taker(view, legal, trump, declarer)


def _trick_taker(view: PlayView, legal: list[int], trump: int | None, declarer: bool) -> int:
    played = _played(view)
    outside = FULL_DECK & ~played & ~view.hand & ~sum(1 << c for c in view.trick)
    if not view.trick:
        masters = [c for c in legal if not outside & suit_mask(card_suit(c)) & ~((2 << c) - 1)]
        if declarer and trump is not None and outside & suit_mask(trump):
            top = [c for c in masters if card_suit(c) == trump]
            if top:
                return top[0]
        side_masters = [c for c in masters if card_suit(c) != trump]
        if side_masters:
            return side_masters[0]
        suits = [s for s in range(4) if suit_holding(view.hand, s) and s != trump] or ([] if trump is None else [trump])
        longest = max(suits, key=lambda s: (card_count(suit_holding(view.hand, s)), -s))
        return _low([c for c in legal if card_suit(c) == longest], trump)
    side = view.setup.side
    win_seat, win_card = _winning(view, trump)
    partner_wins = (win_seat in side) == (view.seat in side)
    winners = [c for c in legal if _beats(c, win_card, trump)]
    if len(view.trick) == 1:  # second hand low, but cover an honour
        led = view.trick[0]
        follows = [c for c in winners if card_suit(c) == card_suit(led)]
        if not partner_wins and card_rank(led) in HONOURS and follows:
            return min(follows, key=card_rank)
        return _low(legal, trump)
    if partner_wins or not winners:
        return _low(legal, trump)
    return _low(winners, trump)


def _misere_declarer(view: PlayView, legal: list[int], trump: int | None) -> int:
    played = _played(view)
    outside = FULL_DECK & ~played & ~view.hand
    mine = sum(winner == view.seat for _, _, winner in view.history)
    wants_one = view.setup.target - mine > 0
    if not view.trick:

        def danger(c: int) -> tuple[int, int]:
            above = card_count(outside & suit_mask(card_suit(c)) & ~((2 << c) - 1))
            return card_rank(c), -above

        return min(legal, key=danger)
    _, win_card = _winning(view, trump)
    winners = [c for c in legal if _beats(c, win_card, trump)]
    losers = [c for c in legal if c not in winners]
    if wants_one and winners and len(view.trick) == SEATS - 1:
        return max(winners, key=card_rank)
    if losers:
        return max(losers, key=lambda c: (card_rank(c), card_suit(c) != card_suit(view.trick[0])))
    return max(legal, key=card_rank)


def _misere_defender(view: PlayView, legal: list[int], trump: int | None) -> int:
    side = view.setup.side
    if not view.trick:
        void = 0
        for leader, cards, _ in view.history:
            for i, c in enumerate(cards[1:], start=1):
                if (leader + i) % SEATS in side and card_suit(c) != card_suit(cards[0]):
                    void |= 1 << card_suit(cards[0])
        open_suits = [c for c in legal if not void >> card_suit(c) & 1] or legal
        return min(open_suits, key=card_rank)
    to_play = {(view.leader + i) % SEATS for i in range(len(view.trick) + 1, SEATS)}
    win_seat, win_card = _winning(view, trump)
    follows = [c for c in legal if card_suit(c) == card_suit(view.trick[0])]
    if not follows:
        return max(legal, key=card_rank)
    if to_play & set(side):
        return min(follows, key=card_rank)
    if win_seat in side:
        under = [c for c in follows if not _beats(c, win_card, trump)]
        if under:
            return max(under, key=card_rank)
        return min(follows, key=card_rank)
    return max(follows, key=card_rank)


# ----------------------------------------------------------------------------- PIMC


def card_classes(legal: int, hand: int, played: int) -> list[list[int]]:
    """Legal cards grouped into classes of equivalent cards (highest first in a class).

    Two legal cards of a suit are equivalent when every card ranked between them is
    in the same hand or already played in a finished trick: in every world they win
    and lose the same tricks.

    Args:
        legal: mask of the legal cards; hand: the seat's cards; played: cards of the
            finished tricks (a card on the table in the current trick separates).
    """
    classes: list[list[int]] = []
    for card in cards_of(legal):
        if classes:
            top = classes[-1][-1]
            between = (1 << top) - (2 << card)
            if card_suit(top) == card_suit(card) and not between & ~(hand | played):
                classes[-1].append(card)
                continue
        classes.append([card])
    return classes


def check_worlds(worlds: int) -> int:
    """``worlds`` as an int if it is a PIMC world count from 1 to ``MAX_WORLDS``.

    Raises:
        ValueError: anything else.
    """
    if not is_whole(worlds, 1, MAX_WORLDS):
        raise ValueError(f"worlds must be a whole number from 1 to {MAX_WORLDS}, got {worlds!r}")
    return int(worlds)


def _levels(goal: Objective, need: int, tie_window: int) -> tuple[tuple[str, int], list[tuple[str, int]]]:
    """The primary question and the tie-break questions, as (kind, tricks) pairs.

    kind ``ge``: the declaring side can still take ≥ tricks more; ``le``: it can hold
    itself to ≤ tricks more; ``eq``: exactly.
    """
    if goal is Objective.MAX:
        kind = "ge"
    elif need == 0 or need < 0:
        kind = "le"  # the misère family (and a pico already made or broken): avoid tricks
    else:
        return ("eq", need), [("le", need), ("ge", need)] if tie_window else []
    ties = [(kind, need + d) for w in range(1, tie_window + 1) for d in (w, -w)]
    return (kind, need), ties


def _ask(solver: DDSolver, hands: list[int], trump: int | None, leader: int, trick: list[int], side: int,
         question: tuple[str, int]) -> bool:  # fmt: skip
    """One double-dummy question about the declaring side's further tricks (trick in progress counted)."""
    kind, tricks = question
    left = card_count(hands[(leader + len(trick)) % SEATS])
    if kind != "eq":  # the positions are legal by construction (a world and a legal card): no checks
        at_least = kind == "ge"
        if (tricks <= 0) if at_least else (tricks >= left):
            return True
        if (tricks > left) if at_least else (tricks < 0):
            return False
        return solver.can_force_unchecked(np.array(hands, dtype=np.int64), trump, leader, trick, side, tricks, at_least)
    if tricks < 0 or tricks > left:
        return False
    return tricks == 0 if left == 0 else bool(solver.solve(hands, trump, leader, side, "exact", tricks, trick))


def _after(hands: Sequence[int], trump: int | None, leader: int, trick: Sequence[int], seat: int, card: int,
           side: int) -> tuple[list[int], int, list[int], int]:  # fmt: skip
    """Play ``card``: (hands, leader, trick in progress, tricks the side just won (0/1))."""
    h = [int(x) for x in hands[:SEATS]]
    h[seat] &= ~(1 << card)
    t = [*trick, card]
    if len(t) < SEATS:
        return h, leader, t, 0
    winner = (leader + trick_winner(t, trump)) % SEATS
    return h, winner, [], side >> winner & 1


def pimc_scores(
    info: InfoSet,
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    side: Sequence[int],
    goal: Objective,
    need: int,
    candidates: Sequence[int],
    worlds: int,
    rng: np.random.Generator,
    solver: DDSolver | None = None,
    tie_window: int = 1,
    draw: Callable[[], list[int]] | None = None,
    max_worlds: int | None = None,
) -> np.ndarray:
    """Score candidate cards of the seat to move over sampled worlds (PIMC, module docstring).

    A world in which a question needs more than the solver's ``node_limit`` trick
    nodes is left out of the counts for every card (the default solver allows
    ``PIMC_NODE_LIMIT``; ``solver.limit_hits`` counts such worlds). Only what can
    change the choice is asked: a candidate stops being tested once
    another is sure to score better on column 0 (its count then stays below the best
    card's; with one candidate left no more worlds are drawn), and the tie-break
    questions are asked only for the candidates tied on the best column 0, until another is sure to
    score better on column 1. The card
    chosen by the best (sign-adjusted) row is the one full scoring would choose.

    Args:
        info: the seat's information set (``info.seat`` is to move; cards of the
            trick in progress are not in any hand).
        trump: trump suit 0..3 or None; leader: leader of the trick in progress;
            trick: its cards in play order.
        side: seats of the declaring side; goal, need: its objective and the tricks
            still needed from the trick in progress on (``target - tricks won``).
        candidates: card bit numbers to score (one per class of equivalent cards).
        worlds: sampled deals ``M``; one world is used when nothing is hidden.
        rng: numpy Generator for the sampling.
        tie_window: tricks either side of the target counted for the tie-break.
        draw: where the worlds come from (default: uniform from ``info`` with ``rng``).
        max_worlds: adaptive M: the most worlds (default ``worlds``: no more are drawn).

    Returns:
        int64 array of shape (len(candidates), 2): column 0 = worlds in which the
        declaring side makes the contract after that card (of the worlds the card was
        tested in); column 1 = the tie-break count (questions one, two, … tricks from
        the target answered yes, over the worlds until the card is sure to lose the tie-break; 0 where
        not asked). The seat to move prefers high
        rows if it declares, low rows if it defends.

    Raises:
        ValueError: ``worlds`` or ``max_worlds`` outside 1..``MAX_WORLDS`` or a candidate the seat
            does not hold.
    """
    check_worlds(worlds)
    seat = info.seat
    if any(not info.hands_known[seat] >> c & 1 for c in candidates):
        raise ValueError("a candidate card is not in the hand of the seat to move")
    solver = solver or _solver()
    solver.clear()
    side_mask = sum(1 << s for s in side)
    sign = 1 if seat in side else -1
    primary, ties = _levels(goal, need, tie_window)
    n_worlds = worlds if info.unseen else 1
    scores = np.zeros((len(candidates), 2), dtype=np.int64)
    alive = list(range(len(candidates)))
    sampled: list[list[int]] = []

    def ask(hands: list[int], card: int, question: tuple[str, int]) -> bool:
        h, lead, t, got = _after(hands, trump, leader, trick, seat, card, side_mask)
        return _ask(solver, h, trump, lead, t, side_mask, (question[0], question[1] - got))

    def tie_answer(hands: list[int], answer: bool, i: int, question: tuple[str, int]) -> bool:
        known = _implied(primary, answer, question)  # not asked when the primary answer implies it
        return ask(hands, candidates[i], question) if known is None else known

    cap = n_worlds if max_worlds is None or not info.unseen else max(n_worlds, check_worlds(max_worlds))
    answered: list[dict[int, bool]] = []  # per world kept: candidate → primary answer
    planned, done = n_worlds, 0
    while True:
        for w in range(done, planned):
            hands = (draw() if draw else sample_world(info, rng)) if info.unseen else list(info.hands_known)
            try:
                answers = {i: ask(hands, candidates[i], primary) for i in alive}
            except NodeLimitExceeded:
                continue  # the world is left out for every card
            sampled.append(hands)
            answered.append(answers)
            for i, yes in answers.items():
                scores[i, 0] += yes
            kept = _may_win(scores, 0, alive, sign, planned - 1 - w)
            if len(kept) == 1 and planned < cap:  # adaptive M: the runners-up stay until the stage's end
                second = max(sign * scores[i, 0] for i in alive if i != kept[0])
                kept = [i for i in alive if i == kept[0] or sign * scores[i, 0] == second]
            alive = kept
            if len(alive) == 1:
                return scores
        done = planned
        if planned >= cap or not _close(scores, alive, answered, sign):
            break
        planned = min(2 * planned, cap)
    best = max(sign * scores[i, 0] for i in alive)
    tied = [i for i in alive if sign * scores[i, 0] == best]
    if len(tied) > 1 and ties:
        for w, hands in enumerate(sampled):
            try:
                counts = [sum(tie_answer(hands, answered[w][i], i, q) for q in ties) for i in tied]
            except NodeLimitExceeded:
                continue
            scores[tied, 1] += counts
            tied = _may_win(scores, 1, tied, sign, len(ties) * (len(sampled) - 1 - w))
            if len(tied) == 1:
                break
    return scores


def _implied(primary: tuple[str, int], answer: bool, question: tuple[str, int]) -> bool | None:
    """The answer to ``question`` that the ``primary`` question's ``answer`` in the same world and after the same card
    implies, or None. Double-dummy values are monotone: a side that can take at least k tricks can take at least any
    fewer, one that cannot cannot take more; one that can hold itself to at most k can to any more, one that cannot
    cannot to fewer; exactly k is at least k and at most k."""
    kind, need = primary
    q_kind, k = question
    at_least = q_kind == "ge"
    if kind == "eq":
        return True if answer and q_kind != "eq" and (k <= need if at_least else k >= need) else None
    if q_kind != kind:
        return None
    if answer and (k <= need if at_least else k >= need):
        return True
    if not answer and (k >= need if at_least else k <= need):
        return False
    return None


def _may_win(scores: np.ndarray, column: int, alive: list[int], sign: int, left: int) -> list[int]:
    """The candidates of ``alive`` that can still have the best sign-adjusted count in ``column`` when each
    count may yet grow by up to ``left`` (a key ``sign * count`` ends within [key - left, key] or
    [key, key + left]): the others are sure to score worse."""
    low = max(sign * scores[i, column] - (left if sign < 0 else 0) for i in alive)
    return [i for i in alive if sign * scores[i, column] + (left if sign > 0 else 0) >= low]


def _close(scores: np.ndarray, alive: list[int], answered: list[dict[int, bool]], sign: int) -> bool:
    """Adaptive M: whether the two best cards of ``alive`` (tested in every world of ``answered``) are close,
    their lead on column 0 under two standard deviations of a sign test over the worlds where their answers differ."""
    if len(alive) < 2:
        return False
    a, b = sorted(alive, key=lambda i: -sign * scores[i, 0])[:2]
    differ = sum(world[a] != world[b] for world in answered)
    lead = int(abs(scores[a, 0] - scores[b, 0]))
    return lead * lead < 4 * differ


_SOLVERS: list[DDSolver] = []


def pimc_solver() -> DDSolver:
    """A new solver set up as the sampling players' own (``PIMC_TT_MB``, table kept across the
    worlds of a decision, ``PIMC_NODE_LIMIT``)."""
    return DDSolver(tt_mb=PIMC_TT_MB, keep_table=True, node_limit=PIMC_NODE_LIMIT)


def _solver() -> DDSolver:
    """This process's solver for the sampling players (results never depend on its table)."""
    if not _SOLVERS:
        _SOLVERS.append(pimc_solver())
    return _SOLVERS[0]


# -------------------------------------------------------------------------- players


class Player:
    """A card-play policy that may be told the deal before play (base class: plays the heuristic)."""

    name = "heuristic"

    def start(self, deal: Deal, discards: Sequence[int] | None) -> None:
        """Called by :func:`play_deal` before the first trick (the dealt hands, the
        kleine-miserie discards); a player must only use what its seat may see."""

    def __call__(self, view: PlayView) -> int:
        return heuristic_card(view)


class RandomPlayer(Player):
    """Plays a uniformly random legal card (numpy Generator ``rng``)."""

    name = "random"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, view: PlayView) -> int:
        cards = cards_of(view.legal)
        return cards[int(self.rng.integers(len(cards)))]


class PimcPlayer(Player):
    """Perfect-information Monte Carlo over ``worlds`` sampled deals (module docstring).

    Args:
        worlds: sampled worlds per decision (M ≥ 1).
        rng: numpy Generator for the world sampling.
        tie_window: tricks either side of the target counted in the tie-break.
        solver: a :class:`DDSolver` (default: one per process, with ``PIMC_NODE_LIMIT``).
        auction: the auction heard, read under its model (default None: uniform worlds).
        max_worlds: adaptive M up to this many worlds (default None: always ``worlds``).

    Attributes:
        decisions: decisions made by sampling; worlds_dropped: worlds left out of them
            (a question past the solver's node limit); auction_contradicted: decisions in which
            every world drawn has a seat bidding off the model or a seat's bids are left unread
            (module docstring); discard_rule_dropped: kleine-miserie decisions in which the play
            left no deal with every other seat discarding its highest card, so the discards were
            dealt at random (``solvers.worlds``).
    """

    name = "pimc"

    def __init__(self, worlds: int = DEFAULT_WORLDS, rng: np.random.Generator | None = None, tie_window: int = 1,
                 solver: DDSolver | None = None, auction: AuctionEvidence | None = None,
                 max_worlds: int | None = None) -> None:  # fmt: skip
        check_worlds(worlds)
        if max_worlds is not None:
            check_worlds(max_worlds)
        self.worlds, self.tie_window, self.solver = worlds, tie_window, solver
        self.auction, self.max_worlds = auction, max_worlds
        self.decisions = 0
        self.worlds_dropped = 0
        self.auction_contradicted = 0
        self.discard_rule_dropped = 0
        self.rng = rng or np.random.default_rng(0)
        self.deal: Deal | None = None
        self.discards: list[int] | None = None
        self.unread: set[int] = set()  # seats whose bids were left unread at an earlier decision of this deal

    def start(self, deal: Deal, discards: Sequence[int] | None) -> None:
        self.deal = deal
        self.discards = None if discards is None else list(discards)
        self.unread = set()

    def __call__(self, view: PlayView) -> int:
        if self.deal is None:
            raise ValueError("a pimc player must be started with the deal (use play_deal)")
        goal = _goal(view)
        fallback = heuristic_card(view)
        classes = card_classes(view.legal, view.hand, _played(view))
        if len(classes) == 1 or goal is None:
            return fallback
        history = [(leader, cards) for leader, cards, _ in view.history]
        if view.trick:
            history.append((view.leader, list(view.trick)))
        dealt_known = [view.setup.declarer_cards if view.setup.side[:1] == (s,) else 0 for s in range(SEATS)]
        info = observe(view.seat, self.deal.hands, history, self.deal.dealer, self.deal.turned, tuple(view.exposed),
                       self.discards, dealt_known)  # fmt: skip
        self.discard_rule_dropped += self.discards is not None and not info.dealt
        trump, target = _trump_and_target(view)
        solver = self.solver or _solver()
        hits = solver.limit_hits
        posterior = (
            None
            if self.auction is None or not info.unseen
            else PosteriorWorlds(info, history, self.auction, self.rng, unread=frozenset(self.unread))
        )
        scores = pimc_scores(info, trump, view.leader, view.trick, view.setup.side, goal,
                             target - _side_tricks(view), [c[-1] for c in classes], self.worlds, self.rng,
                             solver, self.tie_window, posterior.draw if posterior else None,
                             self.max_worlds)  # fmt: skip
        self.decisions += 1
        self.worlds_dropped += solver.limit_hits - hits
        if posterior is not None:
            self.unread |= posterior.unread
            self.auction_contradicted += bool(posterior.unread) or posterior.off_model == posterior.drawn
        sign = 1 if view.seat in view.setup.side else -1
        keys = [tuple(sign * int(x) for x in row) for row in scores]
        best = [cls for cls, key in zip(classes, keys, strict=True) if key == max(keys)]
        for cls in best:
            if fallback in cls:
                return fallback
        return best[0][-1]


def make_player(spec: str | Player, rng: np.random.Generator) -> Player:
    """A player from its name: ``random``, ``heuristic``, ``pimc`` or ``pimc:M`` (M worlds).

    Raises:
        ValueError: unknown name or a bad world count.
    """
    if isinstance(spec, Player):
        return spec
    name, _, arg = str(spec).strip().lower().partition(":")
    if name == "random" and not arg:
        return RandomPlayer(rng)
    if name == "heuristic" and not arg:
        return Player()
    if name == "pimc":
        try:
            worlds = int(arg) if arg else DEFAULT_WORLDS
        except ValueError:
            raise ValueError(f"bad world count in {spec!r} (pimc:M with an integer M)") from None
        return PimcPlayer(worlds, rng)
    raise ValueError(f"unknown player {spec!r}; known: random, heuristic, pimc, pimc:M")


def highest_discard(hand: int) -> int:
    """Kleine-miserie discard rule: the highest card, the first suit in S H D C order on a tie (RULES.md 1.3
    leaves the choice to the player; ``kernel.worlds.highest_card``, which the world sampler assumes every
    other seat follows: a total order on the cards, so its worlds are counted exactly)."""
    return int(highest_card(hand))


def decided(record_tricks: Sequence[tuple[int, list[int], int]], side: Sequence[int], goal: Objective, target: int,
            n_tricks: int) -> bool:  # fmt: skip
    """Whether the finished tricks already decide success or failure of the contract."""
    won = sum(winner in side for _, _, winner in record_tricks)
    left = n_tricks - len(record_tricks)
    if goal is Objective.MAX:
        return won >= target or won + left < target
    return won > target or won + left < target


class _UntilDecided(Player):
    """Plays ``inner`` until the contract is decided, then the lowest legal card (fast finish)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner

    def start(self, deal: Deal, discards: Sequence[int] | None) -> None:
        self.inner.start(deal, discards)

    def __call__(self, view: PlayView) -> int:
        s = view.setup
        _, target = _trump_and_target(view)
        if decided(view.history, s.side, _goal(view) or Objective.MAX, target, s.n_tricks):
            return cards_of(view.legal)[0]
        return self.inner(view)


def play_deal(
    deal: Deal,
    contract: str | Declaration,
    policies: str | Player | Sequence[str | Player],
    seed: int = 0,
    *,
    declarer: int | None = None,
    partner: int | None = None,
    trump: int | None = None,
    rules: str | RuleSet = "tempelaere",
    discards: Sequence[int] | None = None,
    until_decided: bool = False,
) -> PlayRecord:
    """Play one deal of a contract with a player per seat (RULES.md 1.3, 1.5).

    Args:
        deal: the dealt hands, dealer and turned card.
        contract: a contract name (``solo``, ``miserie``, …) or a
            :class:`~wiezen_sim.rules.auction.Declaration`.
        policies: one player for all seats or four (seat order): ``random``,
            ``heuristic``, ``pimc``, ``pimc:M`` or :class:`Player` instances.
        seed: seed of the players' random numbers (per seat, from
            ``numpy.random.SeedSequence(seed).spawn(4)``): same seed → same record.
        declarer: the declaring seat for a contract name (default eldest);
            partner: the accepting seat of a vraag; trump: the suit (0..3) named for
            abondance or solo slim (default the declarer's longest suit).
        rules: preset name, TOML file or RuleSet.
        discards: kleine miserie: one discard per seat (default :func:`highest_discard`).
        until_decided: once success or failure is certain, every seat plays its
            lowest legal card (fast; the later tricks then mean nothing).

    Returns:
        The :class:`~wiezen_sim.rules.play.PlayRecord` (every trick, tricks per seat,
        discards, trump, target).

    Raises:
        ValueError: unknown contract or player, a bad seat, a vraag without partner,
            troel without three aces, or simultaneous contracts.
    """
    if not isinstance(deal, Deal):
        raise ValueError("deal must be a wiezen_sim.rules.dealing.Deal")
    rule_set = get_rules(rules)
    if isinstance(contract, Declaration):
        declaration = contract
    else:
        spec = contract_spec(contract)
        first = (deal.dealer + 1) % SEATS if declarer is None else declarer
        seats: tuple[int, ...] = (first,)
        if spec.side.value == "pair" and spec.name != "troel":
            if partner is None:
                raise ValueError(f"{spec.name} needs partner=SEAT (the seat that accepts, 0..3)")
            seats = (first, partner)
        if any(not 0 <= s < SEATS for s in seats) or len(set(seats)) != len(seats):
            raise ValueError(f"{spec.name} needs distinct declaring seats 0..3, got {seats}")
        declaration = Declaration(spec.name, seats, trump=trump)
    setup = setup_play([declaration], deal, rule_set)
    if isinstance(policies, (str, Player)):
        specs = [policies] * SEATS
    elif isinstance(policies, Sequence):
        specs = list(policies)
    else:
        raise ValueError(f"policies: a player (name or Player) or a sequence of four, got {policies!r}")
    if len(specs) != SEATS:
        raise ValueError(f"give one player or four, got {len(specs)}")
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(SEATS)]
    players = [make_player(p, r) for p, r in zip(specs, rngs, strict=True)]
    chosen: list[int] | None = None
    if setup.n_tricks == 12:
        chosen = list(discards) if discards is not None else [highest_discard(h) for h in deal.hands]
    if until_decided:
        players = [_UntilDecided(p) for p in players]
    for p in players:
        p.start(deal, chosen)
    return play_hand(setup, deal.hands, players, None if chosen is None else lambda s, h: chosen[s])
