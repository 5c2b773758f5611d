"""Play reference (RULES.md 1.5): pure Python, slow and plain, the oracle for the kernel.

Covers legal cards (follow suit, no obligation to trump in Wiezen; the must-trump
flag is Romanian whist's rule), the trick winner, the first leader and trump of
every contract (both troel cases and their variants, solo slim), kleine-miserie
discards (12 tricks), the open-miserie exposure, and partners counting together.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from wiezen_sim.cards import SUITS, card_rank, card_suit, cards_of, suit_holding
from wiezen_sim.rules.auction import Declaration, aces
from wiezen_sim.rules.contracts import FirstLead, Side, TrumpRule, contract_spec
from wiezen_sim.rules.dealing import Deal
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.vocabulary import SEATS

__all__ = [
    "HEARTS",
    "MISSING_CARD_ORDER",
    "PlayRecord",
    "PlaySetup",
    "PlayView",
    "Policy",
    "TroelSetup",
    "default_discard",
    "legal_cards",
    "longest_suit",
    "play_hand",
    "ronde_pas_setup",
    "setup_play",
    "suit_mask",
    "trick_winner",
    "troel_setup",
]

HEARTS = 1
# highest card the four-ace declarer lacks: kings in the order ♥ ♦ ♣ ♠, then queens, …
MISSING_CARD_ORDER = [16 * s + r for r in range(13, 1, -1) for s in (1, 2, 3, 0)]


def suit_mask(suit: int) -> int:
    """Mask of every card of one suit."""
    return 0xFFFF << (16 * suit)


def legal_cards(hand: int, led_suit: int | None, trump: int | None = None, must_trump: bool = False) -> int:
    """Mask of the cards ``hand`` may play (RULES.md 1.5; Part 2 for ``must_trump``).

    Args:
        hand: the player's cards (mask).
        led_suit: suit of the trick's first card, or None when leading.
        trump: trump suit or None (only used with ``must_trump``).
        must_trump: Romanian whist: a player who cannot follow must trump if able.
    """
    if led_suit is None:
        return hand
    follow = hand & suit_mask(led_suit)
    if follow:
        return follow
    if must_trump and trump is not None and hand & suit_mask(trump):
        return hand & suit_mask(trump)
    return hand


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """Index (into ``cards``, in play order) of the card that wins the trick.

    The highest trump wins; with no trump in the trick, the highest card of the
    suit led (RULES.md 1.5).
    """
    led = card_suit(cards[0])
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        b = cards[best]
        if card_suit(card) == card_suit(b):
            if card_rank(card) > card_rank(b):
                best = i
        elif card_suit(card) == trump or (card_suit(b) != trump and card_suit(card) == led):
            best = i
    return best


@dataclass(frozen=True)
class TroelSetup:
    """Partner, trump and first lead of a troel (RULES.md 1.5).

    Attributes:
        partner: the partner seat.
        trump: trump suit when the partner leads ``lead``.
        lead: the card the partner must lead (the fourth ace, or the called card).
        free_lead: *troel free lead* variant: the partner may lead another card;
            its suit becomes trump and the target rises to 9.
        target: tricks needed with the standard lead.
        holder_cards: the cards the troel holder is known to hold once the called card is known (mask):
            with three aces the other three; with four, the aces and every card called before the one
            called (the cards before it in the partner order are the holder's, or it would be called).
    """

    partner: int
    trump: int
    lead: int
    free_lead: bool
    target: int
    holder_cards: int


def troel_setup(hands: Sequence[int], holder: int, rules: RuleSet) -> TroelSetup:
    """Find the troel partner, trump and lead from the cards (RULES.md 1.5).

    Raises:
        ValueError: the holder does not have three or four aces.
    """
    n_aces = aces(hands[holder])
    all_aces = sum(1 << (16 * s + 14) for s in range(len(SUITS)))
    if n_aces == 3:
        ace = next(16 * s + 14 for s in range(len(SUITS)) if not hands[holder] >> (16 * s + 14) & 1)
        target, known = rules.target("troel"), all_aces & ~(1 << ace)
    elif n_aces == 4:
        if rules.four_ace_partner == "highest_heart":
            order = [16 * HEARTS + r for r in range(13, 1, -1)]
        else:
            order = MISSING_CARD_ORDER
        ace = next(c for c in order if not hands[holder] >> c & 1)
        target = 9 if rules.troel_free_lead else rules.target("troel")
        known = all_aces | sum(1 << c for c in order[: order.index(ace)])
    else:
        raise ValueError(f"troel needs three or four aces; seat {holder} has {n_aces}")
    partner = next(s for s in range(SEATS) if hands[s] >> ace & 1)
    return TroelSetup(partner, card_suit(ace), ace, rules.troel_free_lead, target, known)


@dataclass(frozen=True)
class PlaySetup:
    """Everything the card play of one hand needs (RULES.md 1.3, 1.5).

    Attributes:
        contracts: the declarations played (several for simultaneous misère; empty
            for a Ronde Pas game).
        side: seats of the declaring side (declarer, or the pair); for simultaneous
            misère contracts each declarer is settled alone.
        trump: trump suit or None.
        leader: leader of the first trick.
        target: tricks the side needs (see ``contract_spec``).
        n_tricks: 13, or 12 in kleine miserie.
        forced_lead: a card the leader must lead to the first trick (troel) or None.
        free_lead: *troel free lead*: the partner may lead another card (RULES.md 1.5).
        exposed: open miserie: the declarer's hand is shown after the first trick.
        declarer_cards: cards the rules show to be in the declarer's dealt hand (a troel holder's aces,
            :class:`TroelSetup`; 0 for the other contracts).
    """

    contracts: tuple[Declaration, ...]
    side: tuple[int, ...]
    trump: int | None
    leader: int
    target: int
    n_tricks: int = 13
    forced_lead: int | None = None
    free_lead: bool = False
    exposed: bool = False
    declarer_cards: int = 0


def longest_suit(hand: int) -> int:
    """Default declarer trump choice: the longest suit, ties by the higher holding."""
    return max(range(len(SUITS)), key=lambda s: (suit_holding(hand, s).bit_count(), suit_holding(hand, s)))


def setup_play(
    declarations: Sequence[Declaration],
    deal: Deal,
    rules: RuleSet,
    trump_choice: Callable[[int], int] = longest_suit,
) -> PlaySetup:
    """Trump, first leader, side and target for the contract(s) that stand (RULES.md 1.3, 1.5).

    Args:
        declarations: the auction's result (all the same contract if several).
        deal: the hands, dealer and turned card.
        trump_choice: the declarer's trump choice for abondance/solo slim when the
            trump was not named with the bid; called with the declarer's hand.

    Raises:
        ValueError: no declaration (a throw-in), or mixed contracts.
    """
    if not declarations:
        raise ValueError("nothing to play: the hand was thrown in")
    first = declarations[0]
    if any(d.contract != first.contract for d in declarations):
        raise ValueError("simultaneous contracts must be the same misère contract")
    spec = contract_spec(first.contract)
    eldest = (deal.dealer + 1) % SEATS
    declarer = first.declarers[0]
    target = first.level if first.level is not None else rules.target(first.contract)
    side = tuple(s for d in declarations for s in d.declarers)
    forced, free, declarer_cards = None, False, 0
    if spec.trump is TrumpRule.TURNED:
        trump: int | None = deal.trump
    elif spec.trump is TrumpRule.CHOICE:
        trump = first.trump if first.trump is not None else trump_choice(deal.hands[declarer])
    elif spec.trump is TrumpRule.TROEL:
        troel = troel_setup(deal.hands, declarer, rules)
        trump, forced, target, free = troel.trump, troel.lead, troel.target, troel.free_lead
        side, declarer_cards = (declarer, troel.partner), troel.holder_cards
    else:
        trump = None
    if spec.first_lead is FirstLead.DECLARER:
        leader = declarer
    elif spec.first_lead is FirstLead.TROEL_PARTNER:
        leader = side[1]
    else:
        leader = eldest
    assert spec.side is Side.PAIR or len(side) == len(declarations)
    return PlaySetup(
        tuple(declarations),
        side,
        trump,
        leader,
        target,
        spec.tricks,
        forced,
        free,
        exposed=first.contract == "open_miserie",
        declarer_cards=declarer_cards,
    )


def ronde_pas_setup(deal: Deal) -> PlaySetup:
    """The no-trump game played when everybody passes (RULES.md 1.7): eldest leads."""
    return PlaySetup((), (), None, (deal.dealer + 1) % SEATS, 0)


@dataclass
class PlayView:
    """What a policy sees when asked for a card (the reference engine passes it)."""

    seat: int
    hand: int
    legal: int
    trick: list[int]  # cards of the current trick in play order
    leader: int  # leader of the current trick
    setup: PlaySetup
    history: list[tuple[int, list[int], int]]  # finished tricks: (leader, cards in play order, winner)
    exposed: dict[int, int]  # open miserie: seat -> remaining cards of each exposed declarer


Policy = Callable[[PlayView], int]
"""A card-play policy: returns a card bit number from ``view.legal``."""


@dataclass
class PlayRecord:
    """The full record of a played hand.

    Attributes:
        tricks: (leader, cards in play order, winner) per trick.
        tricks_won: tricks per seat.
        discards: kleine miserie discard per seat (bit number) or empty.
        trump: the trump the hand was played with (a troel free lead may set it).
        target: the tricks needed (a troel free lead may raise it to 9).
    """

    tricks: list[tuple[int, list[int], int]] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=lambda: [0] * SEATS)
    discards: list[int] = field(default_factory=list)
    trump: int | None = None
    target: int = 0

    def side_tricks(self, seats: Sequence[int]) -> int:
        """Tricks of a side, partners counting together (RULES.md 1.5)."""
        return sum(self.tricks_won[s] for s in seats)


def default_discard(seat: int, hand: int) -> int:
    """The reference engine's kleine-miserie discard: the highest-ranked card (lowest suit on a tie)."""
    return max(cards_of(hand), key=card_rank)


def play_hand(
    setup: PlaySetup,
    hands: Sequence[int],
    policies: Sequence[Policy],
    discard: Callable[[int, int], int] | None = None,
) -> PlayRecord:
    """Play a hand card by card with one policy per seat (reference engine).

    Args:
        setup: from :func:`setup_play` or :func:`ronde_pas_setup`.
        hands: four masks; 13 cards each.
        policies: four policies (seat order).
        discard: kleine miserie only: ``discard(seat, hand) -> card`` chooses each
            player's face-down discard (RULES.md 1.3); default the highest card.

    Raises:
        ValueError: a policy returns a card that is not legal (names it).
    """
    hands = list(hands)
    record = PlayRecord(trump=setup.trump, target=setup.target)
    if setup.n_tricks == 12:
        choose = discard or default_discard
        for seat in range(SEATS):
            card = choose(seat, hands[seat])
            if not hands[seat] >> card & 1:
                raise ValueError(f"seat {seat} discards a card it does not hold")
            hands[seat] &= ~(1 << card)
            record.discards.append(card)
    leader = setup.leader
    for n in range(setup.n_tricks):
        trick: list[int] = []
        for i in range(SEATS):
            seat = (leader + i) % SEATS
            led = card_suit(trick[0]) if trick else None
            legal = legal_cards(hands[seat], led)
            if n == 0 and setup.forced_lead is not None:
                legal = _troel_first_trick(setup, seat, hands[seat], trick, legal)
            shown = {s: hands[s] for s in setup.side} if setup.exposed and n > 0 else {}
            view = PlayView(seat, hands[seat], legal, list(trick), leader, setup, list(record.tricks), shown)
            card = policies[seat](view)
            if not legal >> card & 1:
                raise ValueError(f"seat {seat} played an illegal card {card}")
            if n == 0 and i == 0 and setup.free_lead and card != setup.forced_lead:
                record.trump = card_suit(card)  # troel free lead: the led suit is trump, target 9
                record.target = 9
            hands[seat] &= ~(1 << card)
            trick.append(card)
        winner = (leader + trick_winner(trick, record.trump)) % SEATS
        record.tricks.append((leader, trick, winner))
        record.tricks_won[winner] += 1
        leader = winner
    return record


def _troel_first_trick(setup: PlaySetup, seat: int, hand: int, trick: list[int], legal: int) -> int:
    """Legal cards in the first trick of a troel (RULES.md 1.5).

    The partner leads the called card. With *troel free lead* the partner may lead
    another suit instead (with four aces: any card); the declarer must then play
    the ace of the led suit.
    """
    lead = setup.forced_lead
    assert lead is not None
    if not trick:
        if not setup.free_lead:
            return 1 << lead
        if card_rank(lead) == 14:  # three aces: the ace, or any card of another suit
            return (1 << lead) | (hand & ~suit_mask(card_suit(lead)))
        return hand
    ace = 16 * card_suit(trick[0]) + 14
    if setup.free_lead and seat == setup.side[0] and hand >> ace & 1:
        return 1 << ace
    return legal
