"""Bid values in the context of the auction: what each bid the seat can make now is worth (issue 19; RULES.md 1.4-1.7).

The per-contract table asks "what if I declare it"; a bid is worth more or less than that,
because the other three seats bid too. For each bid of the advised seat at its first turn
(:func:`bid_options`), the rest of the auction is run by the auction engine
(:mod:`wiezen_sim.rules.auction`) on every sampled deal (the same deals as the table), and
the contract that stands is settled for the advised seat (RULES.md 1.6). Every choice:

- **Where the seat stands.** The advisor knows the seat, its hand and the turned card, not
  any earlier bid, so a bid is valued where every seat before it passed (RULES.md 1.4:
  eldest speaks first). The seats before it bid by the bidding model on each sampled deal;
  the deals are only those on which they all pass (:class:`PassedDeals`: rejection, so the
  deals are drawn from the posterior given those passes), and the table is over the same
  deals. Eldest's wait is not among the bids valued.
- **The other seats** bid by the bidding model (``model``, an
  :class:`~wiezen_sim.solvers.worlds.AuctionModel`; the advisor's default is the neutral
  threshold bot accepting a vraag with ``accept_tricks``: ``play.default_model``).
- **The seat's own plan.** ``pass``: out for good. ``vraag``: propose; if nobody accepts,
  pass (the hand is thrown in). ``solo``: propose; if nobody accepts, bid solo (the only way
  to bid solo, RULES.md 1.4); if someone accepts, play the vraag with that partner. Any other
  contract: bid it. Overcalled or displaced, the seat passes; it never accepts a vraag. With
  three or four aces the bids are troel, open miserie and solo slim (the troel obligation).
  Abondance and solo slim name the row's suit after the auction (or with the bid under the
  *abondance trump with the bid* variant).
- **Settlement.** The seat's own contract (alone, or its vraag with the partner the table
  counts) is read from the table's row on that deal: nothing is solved or played twice (with
  ``pimc`` the table's players heard the auction the table builds for that contract, not the
  one bid here). A vraag accepted by another seat than the table's partner, and every contract
  another seat declares (the seat defending, or the troel partner), is played here by the
  method: ``dd`` asks the double-dummy solver, an exact count where the payment counts
  tricks, else one target test (flat payments); ``pimc``, ``pimc-uniform`` and ``heuristic``
  play it with four such players (``pimc``'s reading the auction that was bid); another
  declarer names its longest suit (:func:`~wiezen_sim.rules.play.longest_suit`) and discards
  its highest card in kleine miserie, as every defender does. Simultaneous misère contracts
  are settled each as 1 vs 3 (RULES.md 1.6). All pass: the rules' all-pass outcome (RULES.md
  1.7): a redeal pays 0; with Ronde Pas the first game (the last trick pays) is played by the
  heuristic players of :mod:`wiezen_sim.solvers.players`.

Per sampled deal (the arrays of :func:`bid_batch`; ``k`` indexes :func:`bid_options`):
    bid_outcome[k]  int8     OUTCOMES index (declares, with_partner, other_contract, all_pass),
                             or NOT_ASKED (-1)
    bid_own[k]      int8     whose table row to add: OWN_NONE, OWN_OPTION (the bid's row),
                             OWN_VRAAG (the vraag row, with the table's partner)
    bid_units[k]    float64  the seat's settlement (units) outside that row: others'
                             contracts, a vraag with another partner, Ronde Pas
    bid_questions   int32    contracts of other seats solved (dd) or played (the play methods) for
                             these values, over all bids (dd: each contract once a deal, though several
                             bids lead to it: a troel after a pass and after an unaccepted vraag)
    bid_trick_nodes int64    their trick nodes (dd)
    bid_auction_contradicted int32  ``pimc``: decisions of those plays whose worlds all have a seat
                             bidding off the model or with a seat's bids left unread
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from wiezen_sim.analysis.advise.dd_table import asker, solver_for
from wiezen_sim.analysis.advise.deals import sample_hands
from wiezen_sim.parallel import sample_seeds
from wiezen_sim.rules.auction import (
    LEVELS,
    OVERCALL_ONLY,
    AuctionState,
    Bid,
    Declaration,
    aces,
    apply,
    legal_bids,
    start_auction,
)
from wiezen_sim.rules.contracts import PASS, contract_spec, succeeded
from wiezen_sim.rules.dealing import Deal
from wiezen_sim.rules.game import settle_hand
from wiezen_sim.rules.payments import ALL_TRICKS, settle
from wiezen_sim.rules.play import play_hand, ronde_pas_setup, setup_play
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.solvers.players import ADAPTIVE_CAP, DEFAULT_WORLDS, MAX_WORLDS, PimcPlayer, Player, highest_discard
from wiezen_sim.solvers.players import play_deal as play_with
from wiezen_sim.solvers.worlds import AuctionEvidence, AuctionModel
from wiezen_sim.vocabulary import DEALER, SEATS, Objective, seat_name

__all__ = [
    "FLAT",
    "NOT_ASKED",
    "OUTCOMES",
    "OWN_NONE",
    "OWN_OPTION",
    "OWN_VRAAG",
    "RONDE_PAS_GAME",
    "TROEL_ONLY",
    "BidOption",
    "PassedDeals",
    "auction_to_seat",
    "bid_batch",
    "bid_options",
    "first_bid",
    "flat",
    "method_players",
    "needed",
]

OUTCOMES = ("declares", "with_partner", "other_contract", "all_pass")
DECLARES, WITH_PARTNER, OTHER_CONTRACT, ALL_PASS = range(len(OUTCOMES))
NOT_ASKED = -1
OWN_NONE, OWN_OPTION, OWN_VRAAG = 0, 1, 2
RONDE_PAS_GAME = 1  # the Ronde Pas game valued after all pass (RULES.md 1.7: the cycle starts with the last trick)
TROEL_ONLY = ("troel", "open_miserie", "solo_slim")
FLAT = ("kleine_miserie", "pico", "abondance", "miserie", "open_miserie", "solo_slim")  # contracts that pay flat
OTHERS_STREAM = 1 << 20  # the players' random numbers of an auction's contract: stream [seed word, this + bid index]


@dataclass(frozen=True)
class BidOption:
    """A bid of the advised seat at its first turn, with its plan (module docstring).

    Attributes:
        contract: ``pass``, ``vraag``, ``solo`` (propose, solo if nobody accepts) or a contract name.
        trump: the suit 0..3 named for abondance or solo slim, else None.
        level: the announced abondance level (*abondance levels*), else None.
    """

    contract: str
    trump: int | None = None
    level: int | None = None


def bid_options(rules: RuleSet, hand: int) -> list[BidOption]:
    """The bids the seat can make at its first turn after passes (RULES.md 1.3, 1.4), in the table's order.

    ``pass`` first (listed always, so that an option's index never changes; not a bid with three or
    four aces, the troel obligation), ``vraag`` and ``solo`` (both propose), then every
    contract of the rules but abondance in troef (only an overcall of abondance): abondance and
    solo slim once per suit, abondance once per level with *abondance levels*; with three or
    four aces only troel, open miserie and solo slim.
    """
    three_aces = aces(hand) >= 3
    out = [BidOption(PASS)]
    for name in rules.contracts():
        if (name in TROEL_ONLY) if three_aces else name not in ("troel", *OVERCALL_ONLY):
            if name == "abondance":
                levels = LEVELS if rules.abondance_levels else (None,)
                out += [BidOption(name, s, level) for s in range(4) for level in levels]
            elif name == "solo_slim":
                out += [BidOption(name, s) for s in range(4)]
            else:
                out.append(BidOption(name))
    return out


def needed(wanted: frozenset[str]) -> frozenset[str]:
    """The table's questions the bid values of ``wanted`` need: solo also needs vraag (someone may accept)."""
    return wanted | {"vraag"} if "solo" in wanted else wanted


def first_bid(option: BidOption, rules: RuleSet) -> Bid:
    """The seat's first bid for an option: a vraag for solo (RULES.md 1.4); abondance with its level, and
    with its suit where the rules name it with the bid (*abondance trump with the bid*, or the suit ranking of
    *abondance levels*: ``RuleSet.trump_with_bid``)."""
    if option.contract == "abondance":
        return Bid("abondance", option.level, option.trump if rules.trump_with_bid else None)
    return Bid("vraag" if option.contract == "solo" else option.contract)


def _finish(
    state: AuctionState, option: BidOption, seat: int, model: AuctionModel, turns: list[tuple[AuctionState, Bid]]
) -> AuctionState:
    """The auction after the seat's first bid: the others by the model, the seat by its plan (module docstring).
    Every bid chosen is appended to ``turns`` with the state before it (the evidence the PIMC players read)."""
    while not state.done:
        if state.to_act != seat:
            bid = model(state)
        else:
            highest = state.highest
            open_vraag = highest is not None and highest.name == "vraag" and state.holders == (seat,)
            solo = open_vraag and option.contract == "solo" and Bid("solo") in legal_bids(state)
            bid = Bid("solo") if solo else Bid(PASS)
        turns.append((state, bid))
        state = apply(state, bid)
    return state


def _side_mask(seats: tuple[int, ...]) -> int:
    return sum(1 << s for s in seats)


def _exact(rules: RuleSet, contract: str) -> bool:
    """Whether a contract's payment counts tricks (RULES.md 1.6): then an exact count is needed."""
    rule = rules.payments.contracts[contract]
    return bool(rule.win_per_trick or rule.lose_per_trick or rule.double_on_all)


def flat(contract: str, rules: RuleSet) -> bool:
    """Whether a contract pays flat (its play may stop once decided): :data:`FLAT`, but abondance with levels."""
    return contract in FLAT and not (contract == "abondance" and rules.abondance_levels)


def method_players(method: str, worlds: int, rngs: Sequence[np.random.Generator], contract: str, rules: RuleSet,
                   evidence: AuctionEvidence | None = None) -> list[Player]:  # fmt: skip
    """The four players of a play method as the advisor makes them, one per generator in ``rngs`` (seat order).

    ``pimc`` and ``pimc-uniform``: PIMC players that draw a quarter of ``worlds`` first (at least one)
    and, while the two best cards are close, twice as many at each stage, up to ``ADAPTIVE_CAP`` times
    ``worlds`` (at most ``MAX_WORLDS``): a clear decision stops at ``worlds // 4``. Starting at
    ``worlds // 2`` instead of ``worlds`` was 1.7 times less CPU on the advisor's example hand, with as many
    choices agreeing with a 512-world PIMC choice (192 and 191 of 212 on 60 positions); ``worlds // 4``
    instead of ``worlds // 2`` is 1.8 times less CPU on 300 decisions drawn from two advise runs, agreeing
    with a 64-world choice in 797 of 900 against 803 (two 64-world seeds agree in 281 of 300;
    ``worlds // 8``: 788; ``experiments/benchmarks/pimc_first_worlds.py``, results/benchmarks/README.md). Tie window 0
    for a contract that pays flat (:func:`flat`) else 1, reading ``evidence`` (the auction; None: uniform
    worlds). ``heuristic``: the heuristic players (``rngs`` only sets how many).
    """
    if not method.startswith("pimc"):
        return [Player() for _ in rngs]
    window, cap = (0 if flat(contract, rules) else 1), min(ADAPTIVE_CAP * worlds, MAX_WORLDS)
    first = max(1, worlds // 4)
    return [PimcPlayer(first, rng, window, auction=evidence, max_worlds=cap) for rng in rngs]


def _played_tricks(
    d: Declaration, deal: Deal, rules: RuleSet, players: list[Player]
) -> tuple[int, tuple[int, ...], int]:
    """A declaration another seat holds, played by ``players`` (the play methods): (side's tricks, side, target).

    Flat-paying contracts stop being searched once decided (as in the table's play,
    :mod:`~wiezen_sim.analysis.advise.play`).
    """
    side = setup_play((d,), deal, rules).side
    record = play_with(deal, d, players, rules=rules, until_decided=flat(d.contract, rules))
    return record.side_tricks(side), side, record.target


def _others_tricks(d: Declaration, deal: Deal, rules: RuleSet) -> tuple[int, tuple[int, ...], int, int]:
    """Double-dummy result of a declaration another seat holds: (tricks of its side, side, target, trick nodes).

    Flat payments get one target test; the tricks are then the target (made) or a count that
    fails it under the contract's objective.
    """
    setup = setup_play((d,), deal, rules)
    hands = np.array(deal.hands, dtype=np.int64)
    spec = contract_spec(d.contract)
    trick: tuple[int, ...] = ()
    if setup.n_tricks < ALL_TRICKS:  # kleine miserie: every seat discards its highest card first
        hands = np.array([h & ~(1 << highest_discard(int(h))) for h in deal.hands], dtype=np.int64)
    if setup.forced_lead is not None:  # troel: the partner's lead to the first trick
        hands[setup.leader] &= ~(1 << setup.forced_lead)
        trick = (setup.forced_lead,)
    solver = solver_for(setup.trump)
    solver.clear()  # an empty table: the node count must not depend on the deals this process solved before
    before = solver.trick_nodes
    side = _side_mask(setup.side)
    if _exact(rules, d.contract):
        tricks = int(solver.solve(hands, setup.trump, setup.leader, side, trick=trick))
    else:
        made = solver.can_make(hands, setup.trump, setup.leader, side, spec.objective, setup.target, trick)
        fail = setup.target - 1 if spec.objective is Objective.MAX else setup.target + 1
        tricks = setup.target if made else fail
        assert succeeded(spec, tricks, setup.target) == made
    return tricks, setup.side, setup.target, solver.trick_nodes - before


def _ronde_pas_units(deal: Deal, rules: RuleSet, seat: int) -> float:
    """The seat's settlement of the Ronde Pas game played after all pass (RULES.md 1.7), by heuristic players."""
    players = [Player() for _ in range(SEATS)]
    for player in players:
        player.start(deal, None)
    setup = ronde_pas_setup(deal)
    record = play_hand(setup, deal.hands, players, None)
    return float(settle_hand(setup, record, rules, RONDE_PAS_GAME)[seat])


def _deal(word: np.uint64, hand: int, seat: int, turned: int) -> Deal:
    hands = sample_hands(word, hand, seat, turned)
    return Deal((int(hands[0]), int(hands[1]), int(hands[2]), int(hands[3])), DEALER, turned)


def auction_to_seat(
    deal: Deal, seat: int, rules: RuleSet, model: AuctionModel
) -> tuple[AuctionState, list[tuple[AuctionState, Bid]]] | None:
    """The auction on ``deal`` up to the seat's first turn, every seat before it passing (RULES.md 1.4).

    The seats before it bid by ``model`` (the seat itself declines Carte Blanche). Returns the state at the
    seat's first turn and the turns before it (``(state, bid)`` pairs), or None when a seat before it makes
    any call but pass (a vraag, a wait, a contract, a troel or Carte Blanche) or the auction ends first:
    the advisor's deals are the ones on which the seat speaks after passes (:class:`PassedDeals`).
    """
    state = start_auction(deal, rules)
    before: list[tuple[AuctionState, Bid]] = []
    while not state.done and not (state.phase == "auction" and state.to_act == seat):
        bid = Bid(PASS) if state.to_act == seat else model(state)
        before.append((state, bid))
        state = apply(state, bid)
    if state.done or any(bid.name != PASS for _, bid in state.history):
        return None
    return state, before


class PassedDeals:
    """The advisor's sampled deals: those on which every seat before the advised one passes (RULES.md 1.4).

    The candidates are the seed words of :func:`~wiezen_sim.parallel.sample_seeds` ``(seed, ·)`` in order,
    each dealt by :func:`~wiezen_sim.analysis.advise.deals.sample_hands`; a candidate is kept when
    :func:`auction_to_seat` reaches the seat with passes only, under the bidding ``model``. So the deals
    are drawn from the posterior given those passes (rejection), the same for any ``n_jobs``, and the
    first ``n`` kept do not depend on how many are asked for later. Eldest keeps every deal but those
    with another seat's troel announcement.

    Args:
        seed: the run's seed; hand, seat, turned: the position (trusted:
            :func:`~wiezen_sim.rules.dealing.check_position`); rules; model: the other seats' bidding.
    """

    MAX_DRAWS = 200  # candidates drawn per kept deal at most, before the position counts as unreachable

    def __init__(self, seed: int, hand: int, seat: int, turned: int, rules: RuleSet, model: AuctionModel) -> None:
        self._args = (hand, seat, turned)
        self._seed, self._rules, self._model = seed, rules, model
        self._kept: list[np.uint64] = []
        self.drawn = 0  # candidates looked at so far

    def seeds(self, n: int) -> np.ndarray:
        """The first ``n`` kept seed words (``uint64[n]``).

        Raises:
            ValueError: ``n`` < 1, or the seats before the advised one bid on all but a few candidates
                (fewer than one kept in :data:`MAX_DRAWS`), so the deals cannot be sampled.
        """
        if n < 1:
            raise ValueError(f"the sample count must be positive, got {n}")
        hand, seat, turned = self._args
        while len(self._kept) < n:
            if self.drawn >= self.MAX_DRAWS * n:
                raise ValueError(
                    f"the seats before {seat_name(seat)} pass on only {len(self._kept)} of {self.drawn:,} sampled "
                    "deals under the bidding model: too few to advise on"
                )
            more = max(64, 2 * (n - len(self._kept)))
            for word in sample_seeds(self._seed, self.drawn + more)[self.drawn :]:
                if auction_to_seat(_deal(word, hand, seat, turned), seat, self._rules, self._model) is not None:
                    self._kept.append(word)
            self.drawn += more
        return np.array(self._kept[:n], dtype=np.uint64)


def bid_batch(
    seeds: np.ndarray,
    answers: dict[str, np.ndarray],
    hand: int,
    seat: int,
    turned: int,
    rules: RuleSet,
    valued: frozenset[str] | None,
    model: AuctionModel,
    method: str = "dd",
    worlds: int = DEFAULT_WORLDS,
) -> dict[str, np.ndarray]:
    """The auctions of every bid on every sampled deal of one batch (layout in the module docstring).

    Args:
        seeds: ``uint64[n]`` seed words of :class:`PassedDeals` (every seat before the advised one passes):
            the table's deals.
        answers: the table's answers of the same deals (:func:`~wiezen_sim.analysis.advise.dd_table.dd_batch`,
            or :func:`~wiezen_sim.analysis.advise.play.play_batch`): ``accepts`` (or ``vraag_partner``) names
            the partner whose vraag the table holds.
        hand, seat, turned, rules: the position (trusted: :func:`~wiezen_sim.rules.dealing.check_position`).
        valued: contracts whose bids are valued (None: all; pass always, but under the troel obligation);
            their table questions must have been asked (:func:`needed`).
        model: the other seats' bidding model.
        method: how another seat's contract is played: ``dd`` (double dummy), ``pimc`` (PIMC players
            reading the auction that was bid, under ``model``), ``pimc-uniform`` or ``heuristic``;
            worlds: PIMC worlds per decision (up to ``ADAPTIVE_CAP`` times as many).

    Returns:
        The arrays of the module docstring.

    Raises:
        ValueError: a seed word's deal on which a seat before the advised one calls (not a :class:`PassedDeals` word).
    """
    options = bid_options(rules, hand)
    ask = asker(valued)
    no_pass = aces(hand) >= 3  # pass is not a bid (the troel obligation, RULES.md 1.4), whatever is valued
    n, k = len(seeds), len(options)
    out: dict[str, np.ndarray] = {
        "bid_outcome": np.full((n, k), NOT_ASKED, np.int8),
        "bid_own": np.zeros((n, k), np.int8),
        "bid_units": np.zeros((n, k), np.float64),
        "bid_questions": np.zeros(n, np.int32),
        "bid_trick_nodes": np.zeros(n, np.int64),
        "bid_auction_contradicted": np.zeros(n, np.int32),
    }
    asked = [j for j, o in enumerate(options) if ((not no_pass) if o.contract == PASS else ask(o.contract))]
    order = [(seat + step) % SEATS for step in range(1, SEATS)]
    for i, word in enumerate(seeds):
        deal = _deal(word, hand, seat, turned)
        turn = auction_to_seat(deal, seat, rules, model)
        if turn is None:
            raise ValueError(f"on the deal of seed word {int(word)} a seat before {seat_name(seat)} calls: "
                             "the bid values take PassedDeals' seed words")  # fmt: skip
        state, before = turn
        if "accepts" in answers:
            table_partner = next((q for q in order if answers["accepts"][i, q]), None)
        else:
            table_partner = int(answers["vraag_partner"][i]) if answers["vraag_partner"][i] >= 0 else None
        all_pass = _ronde_pas_units(deal, rules, seat) if rules.all_pass == "ronde_pas" else 0.0
        solved: dict[Declaration, tuple[int, tuple[int, ...], int, int]] = {}  # dd: the deal's answers
        for j in asked:
            option = options[j]
            bid = first_bid(option, rules)
            turns = [*before, (state, bid)]
            end = _finish(apply(state, bid), option, seat, model, turns)
            if not end.declarations:
                out["bid_outcome"][i, j], out["bid_units"][i, j] = ALL_PASS, all_pass
                continue
            outcome, own, units = OTHER_CONTRACT, OWN_NONE, 0.0
            for d in end.declarations:
                if d.declarers == (seat,):  # its own bid (troel: the holder alone, RULES.md 1.5)
                    outcome, own = DECLARES, OWN_OPTION
                    continue
                if d.contract == "vraag" and d.declarers[0] == seat:
                    outcome = WITH_PARTNER
                    if d.declarers[1] == table_partner:
                        own = OWN_VRAAG
                        continue
                if method == "dd":
                    if d not in solved:
                        solved[d] = _others_tricks(d, deal, rules)
                        *_, nodes = solved[d]
                        out["bid_questions"][i] += 1
                        out["bid_trick_nodes"][i] += nodes
                    tricks, side, target, _ = solved[d]
                else:
                    out["bid_questions"][i] += 1
                    evidence = AuctionEvidence(tuple(turns), model) if method == "pimc" else None
                    streams = np.random.SeedSequence([int(word), OTHERS_STREAM + j]).spawn(SEATS)
                    rngs = [np.random.default_rng(r) for r in streams]
                    players = method_players(method, worlds, rngs, d.contract, rules, evidence)
                    tricks, side, target = _played_tricks(d, deal, rules, players)
                    out["bid_auction_contradicted"][i] += sum(getattr(pl, "auction_contradicted", 0) for pl in players)
                units += settle(rules, d.contract, side, tricks, target, d.level)[seat]
            out["bid_outcome"][i, j], out["bid_own"][i, j], out["bid_units"][i, j] = outcome, own, units
    return out
