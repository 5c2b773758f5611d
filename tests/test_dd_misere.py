"""The misère family (no trump, one declarer that wants few tricks) against the brute force.

Miserie (can the declarer lose every trick), the one-sided "at most one trick" test, pico
(exactly one trick), the declarer's fewest tricks and its per-card values, on random
no-trump endings of 3–4 cards per hand (5 in the slow test: the plain-Python brute force
takes about 10 s for one such ending) with the declarer at every seat, mostly holding
low cards (the positions the misère bounds of ``wiezen_sim.kernel.dd.bounds`` are about); one
solver answers every question of an ending in a row without emptying its table, as
``advise`` asks them.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from tests.dd_reference import check_misere_ending, misere_ending, ref_args, ref_exact, ref_value
from wiezen_sim.kernel.bits import address
from wiezen_sim.kernel.dd.entry import new_scratch
from wiezen_sim.kernel.dd.misere import PLAIN, _misere_exit, _never_wins
from wiezen_sim.solvers.dd import DDSolver


# not cached: numba checks a cached function against its own file only, and these call the kernel's
# (wiezen_sim.kernel.cache stamps the kernel's own functions, not the tests')
@njit
def _never_wins_alone(hands, declarer, scratch, game):
    """``misere._never_wins`` of a lone misère declarer not on lead, with the one-suit game (its cache in
    ``scratch``, a scratch array of ``kernel.dd.entry.new_scratch``) when ``game``, else the closed forms alone."""
    return _never_wins(hands, -1, 1 << declarer, True, -1, address(scratch) if game else 0)


@njit
def _exit(hands, declarer, scratch, game):
    """``misere._misere_exit`` of a misère declarer on lead (``hands`` is restored), the one-suit game as above."""
    return _misere_exit(hands, declarer, address(scratch) if game else 0)


_SCRATCH = new_scratch()  # the one-suit game's cache of these tests (kept across them, as a solver keeps it)


@pytest.fixture(scope="module")
def solver(compiled_kernels):
    return DDSolver(tt_mb=16, keep_table=True)


@pytest.mark.parametrize("seed", range(3))
def test_misere_questions_match_brute_force(solver, seed):
    rng = np.random.default_rng(1800 + seed)
    for i in range(50):
        n = int(rng.choice([3, 4], p=[0.4, 0.6]))
        declarer = i % 4
        hands, leader, trick = misere_ending(rng, n, declarer, in_progress=i % 3 == 0)
        check_misere_ending(solver, hands, leader, trick, declarer)


@pytest.mark.parametrize("seed", range(2))
def test_misere_card_values_match_brute_force(solver, seed):
    rng = np.random.default_rng(1900 + seed)
    for _ in range(25):
        declarer = int(rng.integers(4))
        hands, leader, trick = misere_ending(rng, int(rng.choice([3, 4])), declarer, in_progress=True)
        side = 1 << declarer
        seat = (leader + len(trick)) % 4
        for objective, k in (("min", None), ("exact", 1)):
            values = solver.card_values(hands, None, leader, side, objective, k=k, trick=trick)
            for card, v in values.items():
                if len(trick) == 3:
                    continue  # the trick ends: checked through the questions of the next trick
                h2 = hands.copy()
                h2[seat] &= ~(1 << card)
                args = ref_args(h2, None, leader, [*trick, card], side)
                want = ref_exact(*args, k) if objective == "exact" else ref_value(*args, minimise=True)
                assert v == want, (hands.tolist(), leader, trick, declarer, objective, card)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_misere_questions_larger_endings_slow(solver, seed):
    rng = np.random.default_rng(2000 + seed)
    for i in range(8):
        declarer = i % 4
        hands, leader, trick = misere_ending(rng, 5, declarer, in_progress=i % 4 == 1)
        check_misere_ending(solver, hands, leader, trick, declarer)


def _escapes(hands, leader: int, declarer: int) -> bool:
    """The brute force: can ``declarer`` lose every trick from this trick's start (no trump)?"""
    return ref_exact(*ref_args(hands, None, leader, (), 1 << declarer), 0)


def _guarded(hands, declarer: int, s: int) -> int:
    """``misere._guarded_suit`` of the declarer's suit ``s`` (``PLAIN`` where the ducks condition holds already)."""
    from wiezen_sim.kernel.dd.misere import _ducks_top, _guarded_suit

    lanes = [int(h) >> (16 * s) & 0xFFFF for h in hands]
    others = [lanes[q] for q in range(4) if q != declarer]
    top = _ducks_top(lanes[declarer], others[0] | others[1] | others[2], max(bin(x).count("1") for x in others))
    return _guarded_suit(hands, declarer, s, -1, top) if top else PLAIN


def _check_static_misere_proofs(seed: int, n_cards: int, count: int) -> tuple[int, int, int, int]:
    """The static misère proofs of ``wiezen_sim.kernel.dd.misere`` on random trick starts against the
    brute force: the declarer not on lead, "it never wins a trick" (``_never_wins``, the ducks condition,
    guarded suits, raced ones, and the one-suit game of ``kernel.dd.suit_game``); on lead, "it exits and
    never wins" or "it must win this trick" (``_misere_exit``). The declarer is void in a random suit in
    most endings (a raced suit needs one). Where only the one-suit game proves it, so must it the
    positions the table takes for the same (the cards below the decisive ones dealt again). Returns how
    many proofs fired: never wins (of which with a suit that only racing guards), of which only with the
    one-suit game, and safe exits or forced wins."""
    rng = np.random.default_rng(seed)
    never = raced = game = exits = 0
    for i in range(count):
        declarer = i % 4
        void = int(rng.integers(4)) if rng.random() < 0.7 else None
        hands, leader, _ = misere_ending(rng, n_cards, declarer, in_progress=False, void_suit=void)
        where = (hands.tolist(), leader, declarer)
        if leader != declarer:
            decisive = _never_wins_alone(hands, declarer, _SCRATCH, True)
            if decisive < 0:
                continue
            never += 1
            held = [s for s in range(4) if int(hands[declarer]) >> (16 * s) & 0xFFFF]
            raced += any(0 <= _guarded(hands, declarer, s) < PLAIN for s in held)
            assert _escapes(hands, leader, declarer), where
            if _never_wins_alone(hands, declarer, _SCRATCH, False) < 0:
                game += 1
                same = _same_owners_above(hands, decisive, rng)
                assert _escapes(same, leader, declarer), (same.tolist(), leader, declarer)
        else:
            answer, _ = _exit(hands, declarer, _SCRATCH, True)
            if answer == 0:
                continue
            exits += 1
            assert _escapes(hands, leader, declarer) == (answer > 0), where
    return never, raced, game, exits


def test_static_misere_proofs_match_brute_force(compiled_kernels):
    never, raced, game, exit_proofs = _check_static_misere_proofs(2100, 4, 400)
    assert never >= 40 and raced >= 20 and game >= 3 and exit_proofs >= 20, (never, raced, game, exit_proofs)


def test_the_one_suit_game_proves_what_the_closed_forms_do_not(compiled_kernels):
    """``kernel.dd.suit_game``: East (the declarer) holds only spades, J873, against North's K5 and West's
    6, North to lead. The seven fails the ducks condition (North's five and West's six lie below it) and
    no seat holds only spades above it, so the closed forms do not prove it; but a spade trick takes a
    card from each of North and West, and East, playing under the card that wins at its turn, never wins
    one: the one-suit game proves it, and the brute force agrees. In the second ending North (the
    declarer) holds D43 against East's ace, South's two and West's Q9: the two traps it once East and
    West have discarded their diamonds, and they can, both in one trick in which North discards too (a
    game that gave North a discard of its own for each of theirs proved it safe). Not proved; the brute
    force finds that line."""
    from wiezen_sim.cards import parse_deal

    hands = np.array(parse_deal("N:K5..J.9 J873... .4.Q.K6 6.T3.K.", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 0, 1)
    assert _never_wins_alone(hands, 1, _SCRATCH, False) < 0
    assert _never_wins_alone(hands, 1, _SCRATCH, True) >= 0
    hands = np.array(parse_deal("N:73..43.3 4.82.A.5 J..2.JT4 .Q5.Q9.K", cards_per_hand=None), dtype=np.int64)
    assert not _escapes(hands, 2, 0)
    assert _never_wins_alone(hands, 0, _SCRATCH, True) < 0


def test_a_guard_discards_only_after_its_head_start(compiled_kernels):
    """The head start of ``suit_game.discard_budgets``: North (the declarer, void in spades and hearts) holds
    D65 CQ7, South leads.
    The seven fails the closed forms (South's C4 lies below it): it is trapped once East's eight and West's
    king are gone. East can discard its eight in a diamond trick, but West's first discard comes in a
    second spade trick, and North, void in spades, discarded in the first (West followed): its queen, so in
    West's trick it discards the seven. A game that let West discard in North's first discard trick (session
    57's) did not prove it; with the head start it does, and the brute force agrees."""
    from wiezen_sim.cards import parse_deal

    hands = np.array(parse_deal("N:..65.Q7 AK.7..8 T.4.Q.4 5.K.9.K", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 2, 0)
    assert _never_wins_alone(hands, 0, _SCRATCH, False) < 0
    assert _never_wins_alone(hands, 0, _SCRATCH, True) >= 0


def test_a_discard_alone_shortens_the_head_start_beside_the_declarer(compiled_kernels):
    """``suit_game.discard_budgets``' head start with the declarer: North (the declarer, void in spades) holds
    H76 D53 C3, East leads. Its hearts fail the closed forms (West's H4 lies below the six). In session 58's game
    East throws its HA in a club trick (North follows: East's one discard alone), its HQ beside North's first
    discard (the seven), South its HT, and West's four leads to North's six. But East holds the S6: its first
    discard beside one of North's comes in a spade trick after the six is gone, that is after the first spade
    trick, in which North, void in spades, discarded; or earlier only if East threw the six in its one trick
    alone, and then not its ace there too. With that head start the game proves it; the brute force agrees."""
    from wiezen_sim.cards import parse_deal

    hands = np.array(parse_deal("N:.76.53.3 6.AQ.74. T85.T..A K.4.AK.6", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 1, 0)
    assert _never_wins_alone(hands, 0, _SCRATCH, False) < 0
    assert _never_wins_alone(hands, 0, _SCRATCH, True) >= 0


def test_a_race_counts_the_guards_head_start(compiled_kernels):
    """``misere._guarded_suit``: North (the declarer, void in diamonds) holds ST H7 C96, West leads. West's
    SK guards the ten, its HJ the seven (South's H6 lies below it); each suit is safe only raced (North
    discards it when void in the suit led), and without head starts neither suit left room for the other's
    discard first. West holds the DK, so it first discards in a second diamond trick, and North, void in
    diamonds, discards in the first: with that head start the spades' slack is 1, North races hearts, then
    spades, and the closed forms prove it (the brute force agrees)."""
    from wiezen_sim.cards import parse_deal

    hands = np.array(parse_deal("N:T.7..96 9..Q86. AQ8.6.. K.J.K.J", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 3, 0)
    assert [_guarded(hands, 0, s) for s in (0, 1)] == [1, 0]
    assert _never_wins_alone(hands, 0, _SCRATCH, False) >= 0


def test_one_suit_game_proofs_match_brute_force(compiled_kernels):
    """Where only the one-suit game (``kernel.dd.suit_game``) proves a misère declarer safe, not on lead or
    exiting on lead, the brute force agrees, also in positions the table takes for the same. Random
    5-card endings, mostly with a void (which gives the others discards); the brute force is asked only
    where the game made the difference (the closed forms alone are checked above)."""
    rng = np.random.default_rng(2400)
    never = exits = 0
    for i in range(6000):
        declarer = i % 4
        void = int(rng.integers(4)) if rng.random() < 0.7 else None
        hands, leader, _ = misere_ending(rng, 5, declarer, in_progress=False, void_suit=void)
        if leader != declarer:
            decisive = _never_wins_alone(hands, declarer, _SCRATCH, True)
            if decisive < 0 or _never_wins_alone(hands, declarer, _SCRATCH, False) >= 0:
                continue
            never += 1
            for same in (hands, _same_owners_above(hands, decisive, rng)):
                assert _escapes(same, leader, declarer), (same.tolist(), leader, declarer)
        else:
            answer, decisive = _exit(hands, declarer, _SCRATCH, True)
            if answer <= 0 or _exit(hands, declarer, _SCRATCH, False)[0] > 0:
                continue
            exits += 1
            for same in (hands, _same_owners_above(hands, decisive, rng)):
                assert _escapes(same, leader, declarer), (same.tolist(), leader, declarer)
    assert never >= 10 and exits >= 40, (never, exits)


def test_raced_suit_guards_count_only_the_tricks_the_declarer_follows_in(compiled_kernels):
    """The raced budget of ``misere._guarded_suit``: a guard discards the suit in a trick the declarer
    follows in only after its own last card of the suit led, before the declarer's.

    East (the declarer, void in spades) holds H4 D32 C9 and North leads. North's CT and West's CK
    guard the nine; North's one heart goes with East's four, so North can shed its club only on a
    spade lead, where East discards the nine first: East escapes (the brute force), and the rule
    proves it. In the second ending South, void in clubs, exits on lead; North follows the exit's
    suit, so a trick led in it after the exit is one more in which North may be void: counting
    North's cards of that suit before the exit would claim a safe exit that the brute force refutes.
    """
    from wiezen_sim.cards import parse_deal

    hands = np.array(parse_deal("N:.9.64.T .4.32.9 .AJT..5 Q4..K.K", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 0, 1)
    assert _never_wins_alone(hands, 1, _SCRATCH, False) >= 0
    hands = np.array(parse_deal("N:85..JT.T7 AJ..K76.A 97.85.95. KQ.J6.Q.5", cards_per_hand=None), dtype=np.int64)
    assert not _escapes(hands, 2, 2)
    assert _exit(hands, 2, _SCRATCH, True)[0] <= 0


def test_the_seat_before_the_declarer_guards_it_card_by_card(compiled_kernels):
    """``misere._guarded_suit``: North (the declarer) holds S73 against East's S84, South's S52 and West's
    S96, South to lead. The three fails the ducks condition (South's two) and no seat holds only spades
    above the seven; but West plays before North to every trick, and West's spades, sorted, lie above
    North's one by one (6 over 3, 9 over 7): North plays its highest spade below the card winning at
    its turn, which is at least West's. The brute force agrees; the suit is proved safe (the close
    call of issue 18, S:73 H:A3 D:632 C:AK8432, escapes this way after cashing its ace of hearts).
    With West holding S64 and East no spade, West no longer covers the seven: not proved, and the
    brute force finds the defenders' line (South's two under West's four, then West's six and South's
    five under the seven)."""
    from wiezen_sim.cards import parse_deal

    hands = np.array(parse_deal("N:73.2.. 84.A.. 52.K.. 96.Q..", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 2, 0)
    assert _guarded(hands, 0, 0) == PLAIN
    assert _never_wins_alone(hands, 0, _SCRATCH, False) >= 0
    hands = np.array(parse_deal("N:73.2.. .AJ.A. 52.K.. 64.Q..", cards_per_hand=None), dtype=np.int64)
    assert not _escapes(hands, 2, 0)
    assert _guarded(hands, 0, 0) < 0
    assert _never_wins_alone(hands, 0, _SCRATCH, True) < 0


def test_guards_above_the_declarers_top_cards_take_them_first(compiled_kernels):
    """``misere._guarded_suit``: East (the declarer) holds C92 against North's CJT3, South's CA8 and
    West's CKQ, South to lead. The nine fails the ducks condition (the others' second lowest club is
    the eight) and no guard of the nine lasts the second club trick; but West's clubs are all above
    East's, and West keeps one at least through the first club trick (its one discard in a trick East
    follows in is on North's diamond, since East discards the nine on South's first heart): East plays
    the nine to the first club trick and keeps the two, below North's three. The brute force agrees.
    In the second ending East's C7 and C4 both fail the ducks condition, each with its own guard."""
    from wiezen_sim.cards import parse_deal

    hands = np.array(parse_deal("N:..6.JT3 ..52.92 .J5..A8 AJ...KQ", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 2, 1)
    assert 0 <= _guarded(hands, 1, 3) < PLAIN  # clubs: only raced
    assert _never_wins_alone(hands, 1, _SCRATCH, False) >= 0
    # two guards: West's queen covers East's C7 (the first club trick), North's CJ5 its C4 (the second)
    hands = np.array(parse_deal("N:T.4.5.J5 7.52..74 ..3.AT93 9.6.76.Q", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 3, 1)
    assert 0 <= _guarded(hands, 1, 3) < PLAIN
    assert _never_wins_alone(hands, 1, _SCRATCH, False) >= 0


def test_the_declarer_races_two_suits_one_after_the_other(compiled_kernels):
    """``misere._never_wins`` with two suits that only a race guards (``misere._races_fit``): East (the
    declarer, void in clubs) holds S9 HQ8 DT, North to lead. The nine of spades (North's seven below it)
    has one guard, West's lone king, which allows no discard of East's on another suit first (slack 0);
    the ten of diamonds (North's eight) has South's ace and West's KJ, which allow one (slack 1). East
    discards the nine on the first club led, the ten on the second: it escapes (the brute force), and
    the rule proves it. In the second ending South (void in clubs) holds S6 H87 D8, and its seven of
    hearts and eight of diamonds each allow no discard before them: either alone could be raced, not
    both; not proved, and the brute force finds the defenders' line."""
    from wiezen_sim.cards import parse_deal

    hands = np.array(parse_deal("N:J7..8.K 9.Q8.T. T8..A.Q K.9.KJ.", cards_per_hand=None), dtype=np.int64)
    assert _escapes(hands, 0, 1)
    assert [_guarded(hands, 1, s) for s in range(4)] == [0, PLAIN, 1, PLAIN]
    assert _never_wins_alone(hands, 1, _SCRATCH, False) >= 0
    hands = np.array(parse_deal("N:.K4.6.8 J..K.T4 6.87.8. K.JT.A.", cards_per_hand=None), dtype=np.int64)
    assert not _escapes(hands, 0, 2)
    assert [_guarded(hands, 2, s) for s in range(4)] == [PLAIN, 0, 0, PLAIN]
    assert _never_wins_alone(hands, 2, _SCRATCH, True) < 0


def _same_owners_above(hands, decisive: int, rng: np.random.Generator):
    """A position the table takes for the same as ``hands`` given the decisive cards ``decisive``: in
    each suit the cards below its lowest decisive card (all of them in a suit without one) dealt again
    at random among their holders, each keeping its number of them."""
    out = hands.copy()
    for s in range(4):
        lanes = [int(h) >> (16 * s) & 0xFFFF for h in hands]
        seg = int(decisive) >> (16 * s) & 0xFFFF
        below = ((seg & -seg) - 1) if seg else 0xFFFF
        small = [c for c in range(16) if below >> c & 1 and any(lane >> c & 1 for lane in lanes)]
        owners = [p for c in small for p in range(4) if lanes[p] >> c & 1]
        for p in range(4):
            out[p] = int(out[p]) & ~(below << (16 * s))
        for p, c in zip(rng.permutation(owners), small, strict=True):
            out[p] = int(out[p]) | (1 << (16 * s + c))
    return out


@pytest.mark.parametrize("seed", range(2))
def test_forced_wins_match_brute_force(compiled_kernels, seed):
    """``misere._forced_win`` (a defender on lead, the declarer must win this trick): wherever it fires the
    brute force finds no escape, also in positions with the same owners of the cards at or above its
    decisive ones (those the table takes for the same position)."""
    from wiezen_sim.kernel.dd.misere import _forced_win

    rng = np.random.default_rng(2300 + seed)
    fired = 0
    for i in range(600):
        declarer = i % 4
        void = int(rng.integers(4)) if rng.random() < 0.5 else None
        hands, leader, _ = misere_ending(rng, int(rng.choice([3, 4])), declarer, in_progress=False, void_suit=void)
        if leader == declarer:
            continue
        dec = _forced_win(hands, leader, 1 << declarer)
        if dec < 0:
            continue
        fired += 1
        for same in (hands, _same_owners_above(hands, dec, rng), _same_owners_above(hands, dec, rng)):
            assert not _escapes(same, leader, declarer), (same.tolist(), leader, declarer, hex(dec))
    assert fired >= 40, fired


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_static_misere_proofs_larger_endings_slow(compiled_kernels, seed):
    never, raced, _, exit_proofs = _check_static_misere_proofs(2200 + seed, 6, 400)
    assert never >= 40 and raced >= 10 and exit_proofs >= 20, (never, raced, exit_proofs)
