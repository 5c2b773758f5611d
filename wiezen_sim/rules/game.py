"""One hand of Wiezen end to end: deal, auction, play, settle (RULES.md Part 1).

``play_one_hand`` drives the rules engine with bidders and card-play policies;
``settle_hand`` turns a play record into payments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wiezen_sim.cards import card_rank
from wiezen_sim.rules.auction import AuctionState, apply, start_auction
from wiezen_sim.rules.bots import Bidder
from wiezen_sim.rules.dealing import Deal
from wiezen_sim.rules.payments import add_payments, settle, settle_ronde_pas
from wiezen_sim.rules.play import (
    PlayRecord,
    PlaySetup,
    Policy,
    default_discard,
    play_hand,
    ronde_pas_setup,
    setup_play,
)
from wiezen_sim.rules.ruleset import RuleSet

__all__ = ["QUEEN", "HandResult", "play_one_hand", "settle_hand"]

QUEEN = 12


@dataclass
class HandResult:
    """Everything that happened in one hand.

    Attributes:
        deal: the dealt hands.
        auction: the finished auction state (its history is the bidding).
        setup: the play setup, or None for a redeal.
        record: the play record, or None for a redeal.
        payments: four ints, units, zero-sum.
        ronde_pas: the Ronde Pas game played (1–3) or None.
    """

    deal: Deal
    auction: AuctionState
    setup: PlaySetup | None
    record: PlayRecord | None
    payments: list[int]
    ronde_pas: int | None = None


def settle_hand(setup: PlaySetup, record: PlayRecord, rules: RuleSet, ronde_pas: int | None = None) -> list[int]:
    """Payments of a played hand (RULES.md 1.6, 1.7): four ints in units, zero-sum.

    Simultaneous misère contracts are settled separately, each as 1 vs 3.
    """
    if not setup.contracts:
        assert ronde_pas is not None
        queens = [0] * 4
        for _, cards, winner in record.tricks:
            queens[winner] += sum(card_rank(c) == QUEEN for c in cards)
        return settle_ronde_pas(ronde_pas, record.tricks_won, queens, record.tricks[-1][2], rules)
    first = setup.contracts[0]
    if len(setup.contracts) > 1:  # simultaneous misère contracts
        rows = [settle(rules, d.contract, d.declarers, record.side_tricks(d.declarers)) for d in setup.contracts]
        return add_payments(*rows)
    return settle(rules, first.contract, setup.side, record.side_tricks(setup.side), record.target, first.level)


def play_one_hand(
    deal: Deal,
    rules: RuleSet,
    bidders: Sequence[Bidder],
    policies: Sequence[Policy],
    ronde_pas: int = 1,
    discard: Callable[[int, int], int] | None = None,
) -> HandResult:
    """Run the auction and, if a contract stands, the play and settlement of ``deal``.

    Args:
        bidders: one bidder per seat.
        policies: one card-play policy per seat; a policy with a ``start(deal, discards)``
            method (the players of :mod:`wiezen_sim.solvers.players`) is told the deal and
            the kleine-miserie discards before the first trick.
        ronde_pas: the Ronde Pas game (1–3) to play if everybody passes and the
            rules say ``all_pass = "ronde_pas"`` (the cycle is the session's state).
        discard: kleine miserie: ``discard(seat, hand) -> card`` (default: see
            :func:`~wiezen_sim.rules.play.play_hand`).

    Returns:
        A :class:`HandResult`; a thrown-in hand under ``redeal`` (or after Carte Blanche)
        has no play and pays 0.
    """
    state = start_auction(deal, rules)
    while not state.done:
        seat = state.to_act
        assert seat is not None  # a seat is to act until the auction is done
        state = apply(state, bidders[seat](state))
    if state.thrown_in and (rules.all_pass != "ronde_pas" or state.carte_blanche is not None):
        return HandResult(deal, state, None, None, [0, 0, 0, 0])
    game = ronde_pas if state.thrown_in else None
    setup = ronde_pas_setup(deal) if state.thrown_in else setup_play(state.declarations, deal, rules)
    discards = None
    if setup.n_tricks == 12:
        choose = discard or default_discard
        discards = [choose(seat, deal.hands[seat]) for seat in range(len(deal.hands))]
    for policy in policies:
        start = getattr(policy, "start", None)
        if start is not None:
            start(deal, discards)
    record = play_hand(setup, deal.hands, policies, None if discards is None else lambda seat, hand: discards[seat])
    return HandResult(deal, state, setup, record, settle_hand(setup, record, rules, game), game)
