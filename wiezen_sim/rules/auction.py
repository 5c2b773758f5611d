"""The Wiezen auction as a state machine (RULES.md 1.4).

``start_auction`` → ``legal_bids(state)`` → ``apply(state, bid)`` … until
``state.done``; then ``state.declarations`` holds the contract(s) that stand (empty:
the hand is thrown in). States are immutable; ``apply`` returns a new one.

Design choices where the rules page is silent (documented here, tested):
- Seats are 0..3 in playing order; eldest = dealer + 1 speaks first.
- A player whose only legal bid is pass (the waiter when no unaccepted vraag stands,
  anyone below an unbeatable bid) passes automatically; the pass is in the history.
- The troel obligation allows troel or a higher contract, never pass or wait.
- With *abondance levels*, every level sits in abondance's place in the order
  (above pico, below miserie); level first, then the suit ranking ♥ > ♦ > ♣ > ♠.
- With *troel before the auction*, the holder's troel is recorded as its first bid
  before eldest speaks; the others may only pass or overcall with open miserie or
  solo slim. Carte Blanche is declared before that, by the first qualifying player
  in turn order who wants to, and cancels the troel.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field

from wiezen_sim.cards import SUITS, card_count
from wiezen_sim.rules.contracts import ACCEPT, CARTE_BLANCHE, CONTRACTS, PASS, WAIT, contract_spec
from wiezen_sim.rules.dealing import Deal
from wiezen_sim.rules.ruleset import RuleSet, get_rules
from wiezen_sim.vocabulary import SEATS

__all__ = [
    "ACES_MASK",
    "FACES_MASK",
    "LEVELS",
    "OVERCALL_ONLY",
    "SUIT_RANKING",
    "TROEL_OVERCALLS",
    "AuctionState",
    "Bid",
    "Declaration",
    "aces",
    "apply",
    "legal_bids",
    "obligation_refusal",
    "parse_bid",
    "start_auction",
]

ACES_MASK = sum(1 << (16 * s + 14) for s in range(4))
FACES_MASK = sum(0b111 << (16 * s + 11) for s in range(4))  # J, Q, K of every suit
# suit ranking for abondance levels: hearts > diamonds > clubs > spades (index = S H D C)
SUIT_RANKING = (0, 3, 2, 1)
LEVELS = (9, 10, 11, 12)
TROEL_OVERCALLS = ("open_miserie", "solo_slim")
# contracts that may only overcall another seat's abondance (RULES.md 1.3): never a bid after passes
OVERCALL_ONLY = ("abondance_in_troef",)


@dataclass(frozen=True, order=False)
class Bid:
    """A call or a contract bid.

    Attributes:
        name: ``pass``, ``wait``, ``accept``, ``carte_blanche`` or a contract name.
        level: announced abondance level 9–12 (*abondance levels* variant) or None.
        trump: suit 0..3 (S H D C) named with an abondance bid (variant) or None.
    """

    name: str
    level: int | None = None
    trump: int | None = None

    def __str__(self) -> str:
        parts = [self.name]
        if self.level is not None:
            parts.append(str(self.level))
        if self.trump is not None:
            parts.append(SUITS[self.trump])
        return " ".join(parts)


def parse_bid(text: str) -> Bid:
    """Parse ``"pass"``, ``"miserie"``, ``"abondance 10 H"``, ``"abondance H"`` into a Bid.

    Raises:
        ValueError: unknown bid name, level or suit.
    """
    parts = text.strip().lower().replace("_", " ").split()
    if not parts:
        raise ValueError("empty bid")
    name_parts = [p for p in parts if not p.isdigit() and p.upper() not in SUITS]
    name = "_".join(name_parts)
    if name not in CONTRACTS and name not in (PASS, WAIT, ACCEPT, CARTE_BLANCHE):
        raise ValueError(f"unknown bid {text!r}")
    level = next((int(p) for p in parts if p.isdigit()), None)
    suit = next((SUITS.index(p.upper()) for p in parts if p.upper() in SUITS and len(p) == 1), None)
    if level is not None and level not in LEVELS:
        raise ValueError(f"abondance level must be 9..12 in {text!r}")
    return Bid(name, level, suit)


@dataclass(frozen=True)
class Declaration:
    """A contract that stands after the auction.

    Attributes:
        contract: contract name.
        declarers: the declaring seat, or (proposer, acceptor) for vraag. The troel
            partner is found from the cards when play starts (RULES.md 1.5).
        level: abondance level (levels variant) or None.
        trump: trump named with the bid (variant) or None.
    """

    contract: str
    declarers: tuple[int, ...]
    level: int | None = None
    trump: int | None = None


@dataclass(frozen=True)
class AuctionState:
    """Immutable auction state (RULES.md 1.4).

    ``history`` is every (seat, bid) in order; the other fields are derived by
    ``apply`` and kept for speed. ``holders`` are the seats holding ``highest``
    (several for equal misère bids; proposer and acceptor for an accepted vraag).
    """

    hands: tuple[int, int, int, int]
    dealer: int
    turned: int
    rules: RuleSet
    history: tuple[tuple[int, Bid], ...] = ()
    to_act: int | None = None
    phase: str = "auction"  # "carte_blanche", "auction" or "done"
    passed: frozenset[int] = frozenset()
    spoken: frozenset[int] = frozenset()
    highest: Bid | None = None
    holders: tuple[int, ...] = ()
    acceptor: int | None = None
    waiter: int | None = None
    carte_blanche: int | None = None
    cb_pending: tuple[int, ...] = field(default=())  # qualifiers still to declare or decline

    @property
    def eldest(self) -> int:
        """The seat after the dealer (RULES.md 1.1)."""
        return (self.dealer + 1) % SEATS

    @property
    def done(self) -> bool:
        """True once a contract stands or the hand is thrown in."""
        return self.phase == "done"

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        """The contract(s) that stand; empty when thrown in (only when ``done``).

        Raises:
            ValueError: the auction is not finished.
        """
        if not self.done:
            raise ValueError("the auction is not finished")
        if self.highest is None:
            return ()
        bid = self.highest
        if contract_spec(bid.name).misere:
            return tuple(Declaration(bid.name, (s,)) for s in self.holders)
        return (Declaration(bid.name, self.holders, bid.level, bid.trump),)

    @property
    def thrown_in(self) -> bool:
        """True when the auction ended with no contract (redeal or Ronde Pas)."""
        return self.done and self.highest is None


def aces(hand: int) -> int:
    """Number of aces in a hand."""
    return card_count(hand & ACES_MASK)


def obligation_refusal(contracts: list[str] | tuple[str, ...], rules: RuleSet, hand: int) -> str:
    """Why a player holding ``hand`` can bid none of ``contracts`` under the troel obligation (three or four
    aces: troel, or only an overcall of it, RULES.md 1.4), or "" when it can bid one of them."""
    allowed = [c for c in ("troel", *TROEL_OVERCALLS) if c in rules.contracts()]
    if aces(hand) < 3 or {contract_spec(c).name for c in contracts} & set(allowed):
        return ""
    return f"with {aces(hand)} aces troel is obligatory (RULES.md 1.4): only {', '.join(allowed)} can be bid"


def _key(bid: Bid, rules: RuleSet) -> tuple[int, int, int]:
    """Auction order of a contract bid (RULES.md 1.3, 1.4 abondance levels)."""
    level = bid.level or 0
    suit = SUIT_RANKING[bid.trump] if rules.abondance_suit_ranking and bid.trump is not None else 0
    return (contract_spec(bid.name).rank, level, suit)


@functools.cache
def _contract_bids(rules: RuleSet) -> tuple[tuple[Bid, tuple[int, int, int], bool], ...]:
    """Every contract bid the rules allow, before any auction-state filter, in auction order, each with its
    :func:`_key` and whether it is a misère contract (built once per RuleSet: the advisor's bid values walk
    about 90 auctions' bids per sampled deal)."""
    bids = []
    for name in rules.contracts():
        if name == "abondance":
            levels = LEVELS if rules.abondance_levels else (None,)
            suits = range(4) if rules.trump_with_bid else (None,)
            bids += [Bid(name, level, suit) for level in levels for suit in suits]
        else:
            bids.append(Bid(name))
    return tuple((bid, _key(bid, rules), contract_spec(bid.name).misere) for bid in bids)


def start_auction(deal: Deal, rules: RuleSet | str = "tempelaere") -> AuctionState:
    """Start the auction of a dealt hand (eldest = dealer + 1 speaks first).

    Raises:
        ValueError: an unknown preset.
    """
    rules = get_rules(rules)
    hands = deal.hands
    state = AuctionState(hands, deal.dealer, deal.turned, rules)
    order = [(state.eldest + i) % SEATS for i in range(SEATS)]
    if rules.carte_blanche:
        qualifiers = tuple(s for s in order if not hands[s] & FACES_MASK)
        if qualifiers:
            return _next_carte_blanche(dataclasses.replace(state, phase="carte_blanche", cb_pending=qualifiers))
    return _open_auction(state)


def _open_auction(state: AuctionState) -> AuctionState:
    """Enter the main auction (after any Carte Blanche phase), with a troel declared first if the variant says so."""
    state = dataclasses.replace(state, phase="auction", cb_pending=())
    if state.rules.troel_before_auction and state.carte_blanche is None:
        holder = next((s for s in range(SEATS) if aces(state.hands[s]) >= 3), None)
        if holder is not None:
            troel = Bid("troel")
            state = dataclasses.replace(
                state,
                history=(*state.history, (holder, troel)),
                spoken=frozenset({holder}),
                highest=troel,
                holders=(holder,),
            )
    return _advance(state, start=state.eldest)


def _open_vraag(state: AuctionState) -> bool:
    return state.highest is not None and state.highest.name == "vraag" and state.acceptor is None


def legal_bids(state: AuctionState) -> list[Bid]:
    """Every legal bid of the seat to act (``state.to_act``), RULES.md 1.4.

    Returns:
        A list of Bids; empty once the auction is done.
    """
    if state.done:
        return []
    seat = state.to_act
    assert seat is not None
    if state.phase == "carte_blanche":
        return [Bid(CARTE_BLANCHE), Bid(PASS)]
    rules, highest = state.rules, state.highest
    if seat == state.waiter:  # the waiter's second turn: accept or pass only
        return [Bid(ACCEPT), Bid(PASS)] if _open_vraag(state) else [Bid(PASS)]
    first_turn = seat not in state.spoken
    holds_troel = aces(state.hands[seat]) >= 3 and state.carte_blanche is None
    troel_key = _key(Bid("troel"), rules)
    obliged = first_turn and holds_troel and (highest is None or _key(highest, rules) < troel_key)
    bids = [] if obliged else [Bid(PASS)]
    if first_turn and seat == state.eldest and highest is None and not obliged and state.carte_blanche is None:
        bids.append(Bid(WAIT))
    if _open_vraag(state) and seat not in state.holders:
        bids.append(Bid(ACCEPT))
    top = _key(highest, rules) if highest is not None else (0, 0, 0)
    for bid, key, misere in _contract_bids(rules):
        name = bid.name
        higher = key > top
        joins = highest is not None and misere and name == highest.name and seat not in state.holders
        if not (higher or joins):
            continue
        if state.carte_blanche is not None and name not in TROEL_OVERCALLS:
            continue
        if obliged and key < troel_key:
            continue
        if name == "vraag" and highest is not None:
            continue
        if name == "solo" and not (_open_vraag(state) and seat in state.holders):
            continue
        if name == "troel" and not holds_troel:
            continue
        if name in OVERCALL_ONLY and (highest is None or highest.name != "abondance"):
            continue
        bids.append(bid)
    return bids


def apply(state: AuctionState, bid: Bid | str) -> AuctionState:
    """The state after the seat to act makes ``bid`` (a Bid or text such as ``"abondance 10 H"``).

    Raises:
        ValueError: the auction is over, or the bid is not legal now (the message
            lists the legal bids).
    """
    if isinstance(bid, str):
        bid = parse_bid(bid)
    if state.done:
        raise ValueError("the auction is over")
    legal = legal_bids(state)
    if bid not in legal:
        raise ValueError(f"illegal bid {str(bid)!r} for seat {state.to_act}; legal: {', '.join(str(b) for b in legal)}")
    seat = state.to_act
    assert seat is not None
    history = (*state.history, (seat, bid))
    if state.phase == "carte_blanche":
        pending = state.cb_pending[1:]
        if bid.name == CARTE_BLANCHE:
            return _open_auction(dataclasses.replace(state, history=history, carte_blanche=seat))
        nxt = dataclasses.replace(state, history=history, cb_pending=pending)
        return _next_carte_blanche(nxt) if pending else _open_auction(nxt)
    changes: dict = {"history": history, "spoken": state.spoken | {seat}}
    if bid.name == PASS:
        changes["passed"] = state.passed | {seat}
        if _open_vraag(state) and seat in state.holders:  # the unaccepted vraag is withdrawn
            changes.update(highest=None, holders=())
    elif bid.name == WAIT:
        changes["waiter"] = seat
    elif bid.name == ACCEPT:
        changes.update(acceptor=seat, holders=(*state.holders, seat), waiter=None)
    elif state.highest is not None and bid.name == state.highest.name and contract_spec(bid.name).misere:
        changes["holders"] = (*state.holders, seat)
    else:
        changes.update(highest=bid, holders=(seat,), acceptor=None)
    return _advance(dataclasses.replace(state, **changes), start=(seat + 1) % SEATS)


def _next_carte_blanche(state: AuctionState) -> AuctionState:
    """The next qualifying seat to declare Carte Blanche or not (RULES.md 1.4 variant)."""
    return dataclasses.replace(state, to_act=state.cb_pending[0])


def _advance(state: AuctionState, start: int) -> AuctionState:
    """Find the next seat to act from ``start`` on; finish the auction when nobody is left; auto-pass forced passes."""
    standing = not _open_vraag(state)
    for i in range(SEATS):
        seat = (start + i) % SEATS
        if seat in state.passed or (standing and seat in state.holders):
            continue
        nxt = dataclasses.replace(state, to_act=seat)
        if legal_bids(nxt) == [Bid(PASS)]:
            return apply(nxt, Bid(PASS))
        return nxt
    return dataclasses.replace(state, to_act=None, phase="done")
