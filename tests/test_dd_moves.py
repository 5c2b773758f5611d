"""The search's move ordering (:func:`wiezen_sim.kernel.dd.moves._gen_moves`): which card it tries
first in positions where the right one is clear. The order never changes an answer (the brute-force
tests check those); it decides how many nodes the search visits."""

from __future__ import annotations

import numpy as np


def test_second_hand_plays_low_when_its_neighbour_partner_takes_the_trick(compiled_kernels):
    """Two against two, East and South partners (neighbours): North leads the five of clubs, East
    holds CK and C4, South CA. South's ace beats every club West can play, so East's four is tried
    before its king; with the ace in West's hand East tries the king (it wins the trick so far)
    first. Move ordering only."""
    from wiezen_sim.cards import parse_card

    for south, west, first in (("A", "Q", "4C"), ("Q", "A", "KC")):
        _, candidates = _second_hand_order(f"N:...3 ...K4 ...{south} ...{west}", "5C", 0b0110, ducks=False)
        assert candidates[0] == parse_card(first), south


def test_misere_declarer_tries_its_highest_safe_duck_first(compiled_kernels):
    """Following suit, the declarer's card that a later seat must beat is ordered as a duck (highest first).

    North leads the five of clubs; East (the declarer) holds C6 and C2; South, after it, holds
    only clubs above the six, so the six loses as surely as the two and is tried first (it keeps
    the two for a later club trick). With a club below the six in South's hand the six may win
    and comes after the two. Move ordering only: the answers are the brute force's (above).
    """
    from wiezen_sim.cards import parse_card
    from wiezen_sim.kernel.dd.moves import _overtaken

    for south, first in (("T98", "6C"), ("T94", "2C")):
        hands, candidates = _second_hand_order(f"N:AK... .2..62 ...{south} ..432.", "5C", 1 << 1)
        assert candidates == [parse_card(first), parse_card({"6C": "2C", "2C": "6C"}[first])], south
        assert _overtaken(hands, 1, parse_card("6C"), 0) == (first == "6C")


def test_misere_defenders_play_high_in_a_trick_the_declarer_cannot_take(compiled_kernels):
    """Following suit, a defender's cards go highest first when the declarer cannot take the trick.

    North leads the queen of clubs; East, a defender, holds CA, CT and C5; West, the declarer,
    holds clubs below the queen only, so the trick is the defenders' whatever East plays: East's ace
    (it takes the lead and keeps the low cards) is tried first. With the king of clubs in West's hand
    West could be made to win, and East ducks first as before. Move ordering only.
    """
    from wiezen_sim.cards import parse_card

    for west, first in (("864", "AC"), ("K64", "TC")):
        _, candidates = _second_hand_order(f"N:...J9 ...AT5 ...32 ...{west}", "QC", 1 << 3)
        assert len(candidates) == 3 and candidates[0] == parse_card(first), west


def _second_hand_order(deal: str, lead: str, side: int, trump: int = -1, ducks: bool = True,
                       tricks_left: int = 3) -> tuple[np.ndarray, list[int]]:  # fmt: skip
    """The hands of ``deal`` (North has led ``lead``, not in it) and East's candidate cards in the
    search's order: ``side`` the maximisers' seat mask, ``ducks`` the misère family's order (a misère
    question: no trump, ``side`` one declarer)."""
    from wiezen_sim.cards import parse_card, parse_deal
    from wiezen_sim.kernel.dd.entry import new_scratch
    from wiezen_sim.kernel.dd.layout import CANDIDATES
    from wiezen_sim.kernel.dd.moves import _gen_moves, _legal

    card = parse_card(lead)
    hands = np.array(parse_deal(deal, cards_per_hand=None), dtype=np.int64)
    scratch = new_scratch()
    legal = _legal(hands[1], card >> 4)
    rem = int(hands[0] | hands[1] | hands[2] | hands[3])
    # the kernel passes the scratch array by address (kernel.dd.layout)
    n = _gen_moves(hands, 1, legal, rem | 1 << card, 1, 0, card >> 4, card, 0, trump, tricks_left, side, ducks, -1,
                   scratch.ctypes.data, 0)  # fmt: skip
    return hands, [int(c) for c in scratch[CANDIDATES, 0, :n]]
