"""Players (issue 5): legal cards only, reproducible records, PIMC = double dummy when nothing is hidden,
the heuristic's rules, and the advisor's --method / --compare."""

import json

import numpy as np
import pytest

from wiezen_sim import play_deal
from wiezen_sim.analysis.advise import compare
from wiezen_sim.cards import card_suit, cards_of, parse_card, parse_hand
from wiezen_sim.cli import main
from wiezen_sim.rules.auction import Declaration
from wiezen_sim.rules.dealing import deal_packets, new_deck
from wiezen_sim.rules.play import PlaySetup, PlayView, legal_cards
from wiezen_sim.solvers import players
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.solvers.players import _after, _ask, _levels, card_classes, heuristic_card, pimc_scores
from wiezen_sim.solvers.worlds import InfoSet, observe, sample_world
from wiezen_sim.vocabulary import Objective

SPADES = "S:AKQJT98765432"


def deal(seed):
    rng = np.random.default_rng(seed)
    return deal_packets(new_deck(rng), int(rng.integers(4)))


def assert_legal(record, hands, n_tricks=13):
    """Replay the record: every card was held and followed suit when it could."""
    hands = [h & ~(1 << d) for h, d in zip(hands, record.discards, strict=False)] + list(hands[len(record.discards) :])
    assert len(record.tricks) == n_tricks
    for leader, cards, _ in record.tricks:
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            led = card_suit(cards[0]) if i else None
            assert legal_cards(hands[seat], led) >> card & 1, (seat, card)
            hands[seat] &= ~(1 << card)
    assert not any(hands)


@pytest.mark.parametrize(
    "contract,kwargs",
    [
        ("solo", {}),
        ("vraag", {"partner": 2}),
        ("kleine_miserie", {}),
        ("pico", {}),
        ("abondance", {"trump": 1}),
        ("miserie", {}),
        ("open_miserie", {}),
        ("solo_slim", {}),
    ],
)
def test_random_and_heuristic_play_legal_and_reproducible(contract, kwargs):
    for seed in range(3):
        d = deal(seed)
        policies = ["random", "heuristic", "heuristic", "random"]
        a = play_deal(d, contract, policies, seed=seed, declarer=(d.dealer + 1) % 4, **kwargs)
        b = play_deal(d, contract, policies, seed=seed, declarer=(d.dealer + 1) % 4, **kwargs)
        assert a == b
        assert_legal(a, list(d.hands), 12 if contract == "kleine_miserie" else 13)


def test_pimc_play_legal_and_reproducible():
    d = deal(11)
    policies = ["pimc:2", "heuristic", "pimc:2", "random"]
    a = play_deal(d, "miserie", policies, seed=5)
    assert a == play_deal(d, "miserie", policies, seed=5)
    assert_legal(a, list(d.hands))
    k = play_deal(d, "kleine_miserie", "pimc:1", seed=5)
    assert_legal(k, list(d.hands), 12)


def test_pimc_kleine_miserie_reads_the_discard_rule_and_counts_where_the_play_breaks_it():
    """Every seat discards its highest card: the rule always fits what a player sees. A seat that discards its
    lowest card and then plays its ace breaks it; the other players then deal the discards at random, counted."""
    d = deal(11)
    by_rule = [players.PimcPlayer(2, np.random.default_rng(s)) for s in range(4)]
    play_deal(d, "kleine_miserie", by_rule, seed=5, declarer=1)
    assert sum(p.decisions for p in by_rule) > 0 and all(p.discard_rule_dropped == 0 for p in by_rule)
    lowest = [min(cards_of(h), key=lambda c: c & 15) for h in d.hands]
    assert all(max(cards_of(h), key=lambda c: c & 15) & 15 == 14 for h in d.hands[:1])  # seat 0 keeps an ace
    off_rule = [players.PimcPlayer(2, np.random.default_rng(s)) for s in range(4)]
    record = play_deal(d, "kleine_miserie", off_rule, seed=5, declarer=1, discards=lowest)
    assert_legal(record, list(d.hands), 12)
    assert sum(p.discard_rule_dropped for p in off_rule) > 0


def random_ending(rng, cards_per_hand):
    """Four hands of ``cards_per_hand`` cards, a leader and 0-3 legal cards of the trick in progress."""
    deck = [int(c) for c in rng.permutation(cards_of(parse_hand("S:AKQJT98765432 H:AKQJT98765432 D:AKQJT98765432")))]
    hands = [sum(1 << c for c in deck[i * cards_per_hand : (i + 1) * cards_per_hand]) for i in range(4)]
    leader = int(rng.integers(4))
    trick = []
    for i in range(int(rng.integers(4))):
        seat = (leader + i) % 4
        legal = cards_of(legal_cards(hands[seat], card_suit(trick[0]) if trick else None))
        card = legal[int(rng.integers(len(legal)))]
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return hands, leader, trick


@pytest.mark.parametrize("seed", range(12))
def test_pimc_with_nothing_hidden_plays_a_double_dummy_best_card(seed):
    rng = np.random.default_rng(seed)
    hands, leader, trick = random_ending(rng, 4)
    seat = (leader + len(trick)) % 4
    trump = [None, 0, 1][seed % 3]
    side = (int(rng.integers(4)),) if seed % 2 else (0, 2)
    misere = seed % 4 == 3
    goal = Objective.MIN if misere else Objective.MAX
    need = 0 if misere else int(rng.integers(1, 4))
    info = InfoSet(seat, tuple(hands), tuple(card_count_list(hands)), (0, 0, 0, 0), 0)
    legal = cards_of(legal_cards(hands[seat], card_suit(trick[0]) if trick else None))
    values = DDSolver(tt_mb=1).card_values(hands, trump, leader, side, "min" if misere else "max", trick=trick)
    sign = 1 if seat in side else -1
    best = (max if (sign > 0) != misere else min)(values.values())
    for window in (13, 1):
        scores = pimc_scores(info, trump, leader, trick, side, goal, need, legal, 8, rng, tie_window=window)
        keys = [tuple(sign * int(x) for x in row) for row in scores]
        chosen = legal[keys.index(max(keys))]
        if window == 13:  # the whole trick range counted: the double-dummy value of the best card
            assert values[chosen] == best, (values, chosen)

        def made(v):
            return v <= need if misere else v >= need

        assert made(values[chosen]) == made(best)


@pytest.mark.parametrize("seed", range(12))
def test_pimc_skipped_questions_never_change_the_choice(seed):
    """pimc_scores stops testing beaten cards and asks tie questions only for the tied ones:
    its best row is the best row of scoring every card in every world (same worlds)."""
    rng = np.random.default_rng(seed)
    hands, leader, trick = random_ending(rng, 7)
    seat = (leader + len(trick)) % 4
    trump = [None, 0, 1][seed % 3]
    side = (int(rng.integers(4)),) if seed % 2 else (0, 2)
    goal = [Objective.MAX, Objective.EXACT][seed // 2 % 2]
    # a borderline target: what the declaring side makes double dummy in the true deal
    need = int(
        DDSolver(tt_mb=1).solve(hands, trump, leader, side, "min" if goal is Objective.EXACT else "max", trick=trick)
    )
    start = [h | sum(1 << c for i, c in enumerate(trick) if (leader + i) % 4 == s) for s, h in enumerate(hands)]
    info = observe(seat, start, [(leader, trick)] if trick else [])
    legal = [c[-1] for c in card_classes(legal_cards(hands[seat], card_suit(trick[0]) if trick else None),
                                         hands[seat], 0)]  # fmt: skip
    solver = DDSolver(tt_mb=1)
    side_mask = sum(1 << s for s in side)
    sign = 1 if seat in side else -1
    for window in (0, 1, 3):
        primary, ties = _levels(goal, need, window)
        draw = np.random.default_rng(seed + 100)
        worlds = [sample_world(info, draw) for _ in range(16)]
        full = np.zeros((len(legal), 2), dtype=np.int64)
        for h in worlds:
            for i, c in enumerate(legal):
                hh, lead, t, got = _after(h, trump, leader, trick, seat, c, side_mask)
                full[i, 0] += _ask(solver, hh, trump, lead, t, side_mask, (primary[0], primary[1] - got))
                full[i, 1] += sum(_ask(solver, hh, trump, lead, t, side_mask, (k, n - got)) for k, n in ties)
        lazy = pimc_scores(info, trump, leader, trick, side, goal, need, legal, 16, np.random.default_rng(seed + 100),
                           tie_window=window)  # fmt: skip

        def best(scores):
            keys = [tuple(sign * int(x) for x in row) for row in scores]
            return {i for i, k in enumerate(keys) if k == max(keys)}

        assert best(lazy) == best(full), (window, lazy.tolist(), full.tolist())


@pytest.mark.parametrize("declarer", [True, False])
def test_pimc_keeps_testing_a_card_that_can_still_catch_up(monkeypatch, declarer):
    """Scripted answers: card A makes it in the first 4 worlds only, card B in the other 12.
    B trails 0-4 but is the declarer's choice and A the defenders'; after world 13 A can no
    longer catch up with B (4 + 3 < 10), so neither is tested further."""
    hands = list(deal(3).hands)
    seat = leader = 0
    info = observe(seat, hands, [])
    a, b = cards_of(hands[seat])[:2]
    seen: list[tuple] = []

    def scripted(solver, h, trump, lead, t, side, question):
        world = tuple(h[s] for s in range(4) if s != seat)
        if world not in seen:
            seen.append(world)
        w = len(seen) - 1
        played = a if not (h[seat] | sum(t)) >> a & 1 else b
        return (w < 4) if played == a else (w >= 4)

    monkeypatch.setattr(players, "_ask", scripted)
    side = (seat,) if declarer else ((seat + 1) % 4,)
    scores = pimc_scores(info, None, leader, [], side, Objective.MAX, 3, [a, b], 16, np.random.default_rng(0),
                         tie_window=0)  # fmt: skip
    assert scores[:, 0].tolist() == [4, 9]


def card_count_list(hands):
    return [int(h).bit_count() for h in hands]


def test_card_classes_group_touching_cards():
    hand = parse_hand("S:KQ9 H:A")
    played = 1 << parse_card("TS")
    classes = card_classes(hand, hand, played)
    assert classes == [[parse_card("KS"), parse_card("QS")], [parse_card("9S")], [parse_card("AH")]]  # JS is out
    assert len(card_classes(hand, hand, played | 1 << parse_card("JS"))) == 2


def view(contract, side, trump, seat, hand, trick, leader, history=()):
    setup = PlaySetup((Declaration(contract, side),), side, trump, 0, {"solo": 5}.get(contract, 0))
    h = parse_hand(hand)
    cards = [parse_card(c) for c in trick]
    legal = legal_cards(h, card_suit(cards[0]) if cards else None)
    return PlayView(seat, h, legal, cards, leader, setup, list(history), {})


def test_heuristic_rules():
    # second hand low
    assert heuristic_card(view("solo", (0,), 0, 1, "H:KQ3 C:2", ["5H"], 0)) == parse_card("3H")
    # cover an honour led by an opponent, with the cheapest card that beats it
    assert heuristic_card(view("solo", (0,), 0, 1, "H:AK3 C:2", ["QH"], 0)) == parse_card("KH")
    # third hand: the partner is not winning: win as cheaply as possible
    assert heuristic_card(view("solo", (1,), 0, 2, "H:AJ3 C:2", ["5H", "TH"], 0)) == parse_card("JH")
    # ... and when the partner is winning: play low
    assert heuristic_card(view("solo", (0,), 0, 2, "H:AJ3 C:2", ["5H", "TH"], 0)) == parse_card("3H")
    # misère declarer plays under: the highest card that loses
    assert heuristic_card(view("miserie", (2,), None, 2, "H:T82 C:2", ["9H", "3H"], 0)) == parse_card("8H")
    # misère declarer void: throws its highest card
    assert heuristic_card(view("miserie", (2,), None, 2, "S:A3 C:2", ["9H", "3H"], 0)) == parse_card("AS")
    # misère defender, declarer still to play: plays low
    assert heuristic_card(view("miserie", (3,), None, 1, "H:KQ2", ["9H"], 0)) == parse_card("2H")
    # misère defender, declarer winning the trick: the highest card under the declarer's
    assert heuristic_card(view("miserie", (0,), None, 2, "H:KT2", ["9H", "3H"], 0)) == parse_card("2H")
    assert heuristic_card(view("miserie", (0,), None, 2, "H:KT8", ["9H", "3H"], 0)) == parse_card("8H")


def test_play_deal_bad_input():
    d = deal(1)
    with pytest.raises(ValueError, match="unknown player"):
        play_deal(d, "solo", "grandmaster")
    with pytest.raises(ValueError, match="vraag needs partner=SEAT"):
        play_deal(d, "vraag", "random")
    with pytest.raises(ValueError, match="distinct declaring seats"):
        play_deal(d, "vraag", "random", declarer=2, partner=2)
    with pytest.raises(ValueError, match="a sequence of four, got None"):
        play_deal(d, "solo", None)
    with pytest.raises(ValueError, match="one player or four"):
        play_deal(d, "solo", ["random"] * 3)
    with pytest.raises(ValueError, match="unknown contract"):
        play_deal(d, "grand", "random")


def test_cli_method_heuristic(capsys):
    argv = ["advise", SPADES, "--turned", "2H", "--samples", "3", "--seed", "2", "--jobs", "1", "--quiet"]
    assert main([*argv, "--method", "heuristic", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {(r["contract"], r["trump"]): r for r in out["contracts"]}
    assert out["method"] == "heuristic" and rows[("solo_slim", "S")]["p_success"] == 1.0
    assert rows[("miserie", None)]["p_success"] == 0.0


@pytest.mark.slow  # about a minute (PIMC plays every option of two sampled deals)
def test_compare_same_deals_and_cli(capsys):
    table = compare(SPADES, "eldest", "2H", samples=3, seed=2, n_jobs=1, worlds=2,
                    contracts=("miserie", "solo_slim"), progress=False).table  # fmt: skip
    slim = table[(table.contract == "solo_slim") & (table.trump == "S")].iloc[0]
    assert slim.p_dd == slim.p_pimc == slim.p_heuristic == 1.0 and slim.diff_pimc == 0.0
    assert (table[table.contract == "miserie"][["p_dd", "p_pimc", "p_heuristic"]] == 0.0).all(axis=None)
    low = "S:5432 H:432 D:432 C:432"  # every option is decided within a few tricks
    argv = ["advise", low, "--turned", "AH", "--samples", "2", "--seed", "1", "--jobs", "1", "--quiet"]
    assert main([*argv, "--compare", "--worlds", "2", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["methods"] == ["dd", "pimc", "heuristic"]
    rows = {(r["contract"], r["trump"]): r for r in out["contracts"]}
    assert all(rows[("miserie", None)][f"p_{m}"] == 1.0 for m in ("dd", "pimc", "heuristic"))


def test_cli_pimc_methods_read_the_auction_or_not(capsys):
    low = "S:5432 H:432 D:432 C:432"  # miserie is decided within a few tricks
    argv = ["advise", low, "--turned", "AH", "--samples", "1", "--seed", "1", "--jobs", "1", "--quiet",
            "--contracts", "miserie", "--worlds", "2", "--format", "json"]  # fmt: skip
    for method in ("pimc", "pimc-uniform"):
        assert main([*argv, "--method", method]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["method"] == method and out["pimc_decisions"] > 0
        assert ("auction_contradicted" in out) == (method == "pimc")
    assert out["contracts"][0]["contract"] == "miserie"


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--method", "bogus"], "invalid choice"),
        (["--method", "pimc", "--worlds", "0"], "argument --worlds: must be from 1 to 4096"),
        (["--method", "pimc", "--worlds", "99999999999999999999"], "argument --worlds: must be from 1 to 4096"),
        (["--compare", "--method", "pimc"], "leave out --method"),
        (["--worlds", "x"], "argument --worlds: expected an integer"),
    ],
)
def test_cli_bad_method_values_one_line_exit_2(capsys, extra, message):
    try:
        code = main(["advise", SPADES, "--turned", "2H", "--samples", "2", "--quiet", *extra])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_advise_pimc_same_numbers_for_any_job_count():
    """PIMC play is reproducible across processes: every decision starts from an emptied
    table, so node counts (and worlds left out by the node limit) never depend on history."""
    from wiezen_sim.analysis.advise import advise

    runs = [advise(SPADES, "eldest", "2H", samples=2, seed=3, n_jobs=jobs, method="pimc", worlds=4,
                   contracts=("solo", "miserie"), progress=False) for jobs in (1, 2)]  # fmt: skip
    a, b = (r.to_dict() for r in runs)
    assert a == b
    assert a["pimc_decisions"] > 0 and a["worlds_dropped"] >= 0
