"""The advisor's double-dummy table: every solver question of every sampled deal (issue 4; RULES.md 1.3).

Every sampled deal is asked every question once (common random numbers): differences
between contracts are not sampling noise. Targets and objectives come from the contract
table (:func:`~wiezen_sim.solvers.dd.DDSolver.can_make` asks a contract's question).

Per sampled deal (the arrays of :func:`dd_batch`, one row per sample). Exact trick
counts where the payment needs them, one zero-window target test elsewhere:
    alone[s]    int8[4]  most tricks the declarer can force alone, trump s, eldest leads:
                         exact for the turned suit (solo, abondance in troef) and with
                         abondance levels; otherwise only the abondance test (its target, or 0)
    slim[s]     bool[4]  can the declarer take all 13, trump s, declarer leads — test
    misere      bool     can the declarer lose every trick, no trump, eldest leads
                         (miserie; open miserie is the same question double dummy) — test
    pico        bool     can the declarer force exactly one trick, no trump — test
    kleine[c]   bool[k]  after the declarer discards candidate c (and each defender
                         its discard): can it lose all 12 tricks? — test (False where
                         the candidate is not asked)
    accepts[q]  bool[4]  would seat q accept a vraag (the acceptance rule)
    accepted    int8     pair tricks with the accepting partner (-1: nobody) — exact
    pair_ok[q]  bool[4]  can declarer + seat q make the vraag target together — test (the
                         accepting seat's from its exact count); asked with
                         :data:`PARTNER_ROWS`, the rows of a vraag with a fixed partner seat
    troel       int8     troel pair tricks (three or four aces) — exact;
    troel_partner, troel_target  int8: the partner and target in that sample
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from wiezen_sim.analysis.advise.deals import sample_hands
from wiezen_sim.cards import card_suit
from wiezen_sim.rules.auction import aces
from wiezen_sim.rules.bots import playing_tricks
from wiezen_sim.rules.contracts import contract_spec, succeeded
from wiezen_sim.rules.play import troel_setup
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.solvers.players import highest_discard
from wiezen_sim.vocabulary import ELDEST, NO_TRUMP, SEATS

__all__ = ["PARTNER_ROWS", "TT_MB", "Asker", "asker", "dd_batch", "exact_alone", "kleine_candidates", "solver_for"]

Asker = Callable[..., bool]  # ask(*contracts): whether any of these contracts is wanted
# The questions of the rows of a vraag with a fixed partner seat (information, not a bid:
# the partner decides), named apart from "vraag" so that the stop rule can drop them
# after its first 32 deals (:mod:`~wiezen_sim.analysis.advise.stopping`)
PARTNER_ROWS = "vraag_partner_rows"

_SOLVERS: dict[int | None, DDSolver] = {}
# one table per strain (a solver empties its table when the trump changes): 128 MB per suit
# and 1024 MB without trump, where the misère questions search the largest trees (on low
# hands a 32 MB table, emptied whenever it filled up, made a miserie test 3-10 times slower;
# the solo counts of the 1,250 advise_suite deals, session 22: 32 MB 199.4 M trick nodes,
# 82.7 CPU s; 128 MB 188.3 M, 69.6 s). The rare escape proof of a misère declarer who must shed
# a high card outgrows 256 MB: another seat's miserie in the bid values of session 46's two-suiter
# (results/benchmarks/README.md, session 48) took 1,078 M trick nodes and 690 s with 256 MB, 459 M with
# 512 MB, 392 M and 285 s with 1024 MB (the same with 4096). Pages are touched only as entries fill
# them, so a process holds what its largest search stored, not the sum of the sizes
TT_MB: dict[int | None, int] = {NO_TRUMP: 1024, 0: 128, 1: 128, 2: 128, 3: 128}
_ALONE = ("solo", "abondance", "abondance_in_troef", "solo_slim")  # the contracts of the alone[s] questions


def solver_for(trump: int | None) -> DDSolver:
    """This process's solver for one strain (tables are reused across deals and batches)."""
    if trump not in _SOLVERS:
        _SOLVERS[trump] = DDSolver(tt_mb=TT_MB[trump])
    return _SOLVERS[trump]


def kleine_candidates(hand: int) -> list[int]:
    """The declarer's candidate discards for kleine miserie: the highest card of each suit held."""
    out = []
    for s in range(4):
        lane = (hand >> (16 * s)) & 0xFFFF
        if lane:
            out.append(16 * s + lane.bit_length() - 1)
    return out


def asker(wanted: frozenset[str] | None) -> Asker:
    """``ask(*contracts)``: whether any of these contracts is wanted (all are when ``wanted`` is None)."""
    return lambda *names: wanted is None or not wanted.isdisjoint(names)


def exact_alone(suit: int, trump: int, rules: RuleSet, ask: Asker) -> bool:
    """Whether ``alone[suit]`` is an exact count: abondance levels, or the turned trump when solo or
    abondance in troef is asked (an abondance alone needs only the test for its target)."""
    return rules.abondance_levels or (suit == trump and ask("solo", "abondance_in_troef"))


def _makes(solver: DDSolver, hands: np.ndarray, trump: int | None, leader: int, side: int, contract: str,
           rules: RuleSet) -> bool:  # fmt: skip
    """Whether ``side`` makes ``contract``'s target under these rules (its objective, RULES.md 1.3)."""
    return solver.can_make(hands, trump, leader, side, contract_spec(contract).objective, rules.target(contract))


def dd_batch(
    seeds: np.ndarray,
    hand: int,
    seat: int,
    turned: int,
    rules: RuleSet,
    accept_tricks: float,
    wanted: frozenset[str] | None = None,
    discards: tuple[bool, ...] | None = None,
) -> dict[str, np.ndarray]:
    """Ask every question (or those of the ``wanted`` contracts) of every sampled deal of one batch.

    Args:
        seeds: ``uint64[n]`` seed words (:func:`wiezen_sim.parallel.sample_seeds`), one per deal.
        hand, seat, turned: the position (:func:`~wiezen_sim.rules.dealing.check_position`).
        rules: the variant switches (targets: ``RuleSet.target``).
        accept_tricks: the vraag acceptance rule's threshold (playing tricks).
        wanted: contract names whose questions are asked (None: all).
        discards: per kleine-miserie candidate (:func:`kleine_candidates`), whether it is
            asked (None: all; the stop rule drops dominated ones).

    Returns:
        The arrays of the module docstring; an answer not asked keeps its initial value.
    """
    ask = asker(wanted)
    n = len(seeds)
    p = seat
    side = 1 << p
    trump = card_suit(turned)
    vraag, need = contract_spec("vraag"), rules.target("vraag")
    candidates = kleine_candidates(hand)
    nt = solver_for(NO_TRUMP)
    out: dict[str, np.ndarray] = {
        "alone": np.zeros((n, 4), np.int8),
        "slim": np.zeros((n, 4), bool),
        "misere": np.zeros(n, bool),
        "pico": np.zeros(n, bool),
        "kleine": np.zeros((n, len(candidates)), bool),
        "pair_ok": np.zeros((n, 4), bool),
        "accepts": np.zeros((n, 4), bool),
        "accepted": np.full(n, -1, np.int8),
        "troel": np.full(n, -1, np.int8),
        "troel_partner": np.full(n, -1, np.int8),
        "troel_target": np.zeros(n, np.int8),
    }
    order = [(p + k) % SEATS for k in range(1, SEATS)]
    for i, word in enumerate(seeds):
        hands = sample_hands(word, hand, p, turned)
        for s in range(4) if ask(*_ALONE) else ():
            if exact_alone(s, trump, rules, ask):  # solo pays per trick; levels need the count
                out["alone"][i, s] = solver_for(s).solve(hands, s, ELDEST, side)
            else:  # abondance pays flat: only whether its target can be made
                made = _makes(solver_for(s), hands, s, ELDEST, side, "abondance", rules)
                out["alone"][i, s] = rules.target("abondance") if made else 0
            if ask("solo_slim"):
                out["slim"][i, s] = _makes(solver_for(s), hands, s, p, side, "solo_slim", rules)
        if ask("miserie", "open_miserie"):
            out["misere"][i] = _makes(nt, hands, NO_TRUMP, ELDEST, side, "miserie", rules)
        if rules.pico and ask("pico"):
            out["pico"][i] = _makes(nt, hands, NO_TRUMP, ELDEST, side, "pico", rules)
        if rules.kleine_miserie and ask("kleine_miserie"):
            after = np.array([int(h) & ~(1 << highest_discard(int(h))) for h in hands], dtype=np.int64)
            try:
                for j, c in enumerate(candidates):
                    if discards is not None and not discards[j]:
                        continue
                    after[p] = hand & ~(1 << c)
                    out["kleine"][i, j] = _makes(nt, after, NO_TRUMP, ELDEST, side, "kleine_miserie", rules)
                    # the candidates' positions share most of their subpositions, so the table is kept from the
                    # first candidate on (it would be emptied, as each candidate takes back a card the one before
                    # discarded); entries are keyed on positions, so no answer changes. The kleine questions of the
                    # 1,250 deals of advise_suite (session 21): 247 M -> 182 M trick nodes, 143 -> 114 CPU s
                    nt.keep_table = True
            finally:
                nt.keep_table = False
        # what the declarer makes alone in the turned trump (the exact count, or the abondance
        # target when its test succeeded) is a lower bound for any pair: a partner never costs a trick
        alone = int(out["alone"][i, trump]) if ask(*_ALONE) else -1
        acceptor = None
        if ask("vraag"):
            for q in order:
                out["accepts"][i, q] = playing_tricks(int(hands[q]), trump) >= accept_tricks
            acceptor = next((q for q in order if out["accepts"][i, q]), None)
        if acceptor is not None:
            out["accepted"][i] = solver_for(trump).solve(hands, trump, ELDEST, side | 1 << acceptor)
        for q in order if ask(PARTNER_ROWS) else ():
            if q == acceptor:
                out["pair_ok"][i, q] = succeeded(vraag, int(out["accepted"][i]), need)
            else:
                out["pair_ok"][i, q] = succeeded(vraag, alone, need) or _makes(
                    solver_for(trump), hands, trump, ELDEST, side | 1 << q, "vraag", rules
                )
        if aces(hand) >= 3 and ask("troel"):
            setup = troel_setup([int(h) for h in hands], p, rules)
            lead_hands = hands.copy()
            lead_hands[setup.partner] &= ~(1 << setup.lead)
            pair = side | 1 << setup.partner
            out["troel"][i] = solver_for(setup.trump).solve(
                lead_hands, setup.trump, setup.partner, pair, trick=(setup.lead,)
            )
            out["troel_partner"][i] = setup.partner
            out["troel_target"][i] = setup.target
    return out
