"""The solver's whole interface against DDS itself (through endplay), on fresh random deals:
positions reached by a play history (``played=``, :func:`replay`), per-card results
(``solve_board``), the 20-result table (``calc_dd_table``), endplay ``Deal`` objects, and PBN
files with ``DoubleDummyTricks`` (issue 21). The deals are new each run; the seed is in every
failure message and can be fixed with WIEZEN_DD_SEED.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from dd_reference import ref_value

from wiezen_sim.cards import cards_of, deal_name, parse_card, parse_deal
from wiezen_sim.pbn import PbnGame, dd_tricks_name, parse_dd_tricks, read_pbn, write_pbn
from wiezen_sim.solvers.dd import DDSolver, from_endplay, replay

dds = pytest.importorskip("endplay.dds")
ep = pytest.importorskip("endplay.types")
pbn_parser = pytest.importorskip("endplay.parsers.pbn")

SEED = int(os.environ.get("WIEZEN_DD_SEED", random.SystemRandom().randrange(2**31)))
DENOMS = ("spades", "hearts", "diamonds", "clubs", "nt")  # trump 0..3, then no trump (-1)


def random_deal(rng, n_cards: int) -> list[int]:
    cards = rng.permutation([16 * s + r for s in range(4) for r in range(2, 15)])[: 4 * n_cards]
    return [sum(1 << int(c) for c in cards[i * n_cards : (i + 1) * n_cards]) for i in range(4)]


def random_play(rng, hands: list[int], trump: int, leader: int, n: int) -> list[int]:
    """``n`` random legal cards (follow suit when possible), each trick's winner leading the next."""
    held = [set(cards_of(h)) for h in hands]
    played, trick = [], []
    for _ in range(n):
        seat = (leader + len(trick)) % 4
        follow = [c for c in held[seat] if trick and c >> 4 == trick[0] >> 4]
        card = int(rng.choice(sorted(follow or held[seat])))
        held[seat].remove(card)
        played.append(card)
        trick.append(card)
        if len(trick) == 4:
            best = max(trick, key=lambda c: (c >> 4 == trump, c >> 4 == trick[0] >> 4, c))
            leader = (leader + trick.index(best)) % 4
            trick = []
    return played


def endplay_deal(hands: list[int], trump: int, leader: int, played: list[int]):
    deal = ep.Deal(deal_name(hands))
    deal.first = ep.Player(leader)
    deal.trump = getattr(ep.Denom, DENOMS[trump])
    for c in played:
        deal.play("SHDC"[c >> 4] + "--23456789TJQKA"[c & 15])
    return deal


def test_mid_play_positions_match_solve_board(compiled_kernels):
    """After a random play history: the position (hands, leader, trick in progress) is endplay's,
    every legal card's result is DDS's ``solve_board`` score, and the best of them is ``solve``'s."""
    rng = np.random.default_rng(SEED)
    solver = DDSolver(tt_mb=64)
    for i in range(30):
        n_cards = 13 if i % 6 == 0 else int(rng.integers(5, 10))
        hands = random_deal(rng, n_cards)
        trump, leader = int(rng.integers(-1, 4)), int(rng.integers(4))
        played = random_play(rng, hands, trump, leader, int(rng.integers(1, 4 * n_cards - 4)))
        deal = endplay_deal(hands, trump, leader, played)
        where = f"seed {SEED}: {deal_name(hands)} trump {trump} leader {leader} played {played}"
        strain = None if trump < 0 else trump  # the solver's no trump
        r = replay(hands, strain, leader, played)
        assert tuple(int(h) for h in r.hands) == parse_deal(deal.to_pbn(), cards_per_hand=None), where
        assert (r.leader, list(r.trick)) == (int(deal.first), [parse_card(str(c)) for c in deal.curtrick]), where
        assert sum(r.won) == len(played) // 4
        mover = (r.leader + len(r.trick)) % 4
        side = (1 << mover) | (1 << ((mover + 2) % 4))
        want = {parse_card(str(c)): t for c, t in dds.solve_board(deal)}
        assert solver.card_values(hands, strain, leader, side, played=played) == want, where
        assert solver.card_values(**from_endplay(deal), side=side) == want, where
        assert solver.solve(hands, strain, leader, side, played=played) == max(want.values()), where


def test_full_deal_tables_match_calc_dd_table(compiled_kernels):
    rng = np.random.default_rng(SEED + 1)
    solver = DDSolver(tt_mb=64)
    for _ in range(3):
        hands = random_deal(rng, 13)
        want = dds.calc_dd_table(ep.Deal(deal_name(hands))).to_list()  # [S H D C NT][N E S W]
        assert solver.table(hands).tolist() == want, f"seed {SEED + 1}: {deal_name(hands)}"


def test_alone_table_matches_brute_force(compiled_kernels):
    """``alone``: each declarer against the other three, left-hand opponent on lead (plain minimax)."""
    rng = np.random.default_rng(SEED + 2)
    solver = DDSolver(tt_mb=16)
    for _ in range(3):
        hands = random_deal(rng, 3)
        table = solver.table(hands, alone=True)
        cards = [tuple((c >> 4, c & 15) for c in cards_of(h)) for h in hands]
        for row, trump in enumerate((0, 1, 2, 3, -1)):
            for decl in range(4):
                want = ref_value(tuple(cards), trump, (decl + 1) % 4, (), frozenset({decl}))
                assert table[row, decl] == want, f"seed {SEED + 2}: {deal_name(hands)}"


def test_replay_errors_name_the_card():
    deal = "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J"
    with pytest.raises(ValueError, match=r"played card 1 \(KS\): seat 0 to play does not hold it"):
        replay(deal, "NT", 0, ["KS"])
    with pytest.raises(ValueError, match=r"played card 2 \(KH\): seat 1 still holds the suit led"):
        replay(deal, "NT", 0, ["AS", "KH"])
    with pytest.raises(ValueError, match="not both"):
        DDSolver(tt_mb=1).solve("N:.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "NT", 0, (0, 2), trick=["AS"], played=["AH"])
    with pytest.raises(ValueError, match="not an endplay Deal"):
        from_endplay(deal)


# Three boards of a PBN file written by Dealer4 4.82 for a bridge club (stored as
# Tests/ContractBridgeTests/Resources/MultiGame.pbn in github.com/RalphLipe/ContractBridge,
# commit cc344a7). That program writes only making results in DoubleDummyTricks: a 1 stands
# for fewer than 7 tricks (its OptimumResultTable rows say the same).
DEALER4 = [
    ("N:97.AQ83.KQT4.K92 KQ3.KT5.763.AJ43 AJT8.976.A852.T6 6542.J42.J9.Q875", "99897998911111111111"),
    ("N:Q95.K2.T7642.J97 JT632.AT764.8.84 A87.9.AQ93.AKQ32 K4.QJ853.KJ5.T65", "71199711991791117911"),
    ("E:987.A3.AT984.A72 T63.654.Q653.T65 AKQJ2.KT2.J72.Q3 54.QJ987.K.KJ984", "1111111111ab7b7cc8c8"),
]


def test_double_dummy_tricks_order_of_a_real_file():
    """The tag's order (declarers N S E W, strains NT S H D C) read back against DDS's tables."""
    for deal, tag in DEALER4:
        got = parse_dd_tricks(tag)
        want = np.array(dds.calc_dd_table(ep.Deal(deal)).to_list())
        making = got != 1
        assert (got[making] == want[making]).all() and (want[~making] < 7).all(), deal


def test_pbn_round_trip_with_endplay():
    rng = np.random.default_rng(SEED + 3)
    deals = [random_deal(rng, 13) for _ in range(4)]
    tables = [rng.integers(0, 14, size=(5, 4)) for _ in deals]
    games = [PbnGame((f'[Board "{i + 1}"]', f'[Deal "{deal_name(h, i % 4)}"]', "{a note}"), 0, tuple(h))
             for i, h in enumerate(deals)]  # fmt: skip
    text = "% PBN 2.1\n\n" + write_pbn(games, tables)
    back = read_pbn(text)
    assert back[0].deal is None and back[0].lines == ("% PBN 2.1",)
    assert [list(g.deal) for g in back[1:]] == deals
    assert [parse_dd_tricks(g.tag("DoubleDummyTricks")).tolist() for g in back[1:]] == [t.tolist() for t in tables]
    assert write_pbn(back, [None] * len(back)) == text  # nothing else changes
    boards = pbn_parser.loads(text)  # an independent reader
    assert [parse_deal(b.deal.to_pbn()) for b in boards] == [tuple(h) for h in deals]
    assert [b.info["DoubleDummyTricks"] for b in boards] == [dd_tricks_name(t) for t in tables]
    again = read_pbn(pbn_parser.dumps(boards))  # endplay's writer, read back here
    assert [parse_dd_tricks(g.tag("DoubleDummyTricks")).tolist() for g in again if g.deal] == [
        t.tolist() for t in tables
    ]


def test_pbn_reader_keeps_commentary_and_refuses_bad_deals():
    text = '[Event "a {b"]\n{first line\n\nstill a comment}\n[Deal "N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J"]\n'
    (game,) = read_pbn(text)
    assert game.deal == parse_deal("N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", None) and game.tag("Event") == "a {b"
    with pytest.raises(ValueError, match="line 3: a PBN deal has four hands"):
        read_pbn('[Event "x"]\n\n[Deal "N:A.A.A.A K.K.K.K"]\n')
    with pytest.raises(ValueError, match="line 1: a Deal copied"):
        read_pbn('[Deal "#"]\n')
    for bad in ("123", "0123456789abcdef0123", "0123456789abcde"):
        with pytest.raises(ValueError, match="20 hexadecimal digits"):
            parse_dd_tricks(bad)
    with pytest.raises(ValueError, match="5 × 4"):
        dd_tricks_name(np.full((5, 4), 14))
