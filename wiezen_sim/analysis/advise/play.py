"""The advisor's play methods ``pimc``, ``pimc-uniform`` and ``heuristic`` (issues 5, 19; RULES.md 1.3–1.6).

Instead of solving each sampled deal double dummy, every biddable option is *played*
on the same sampled deals (the same seed words as ``method="dd"``, so the methods see
the same deals) with one player per seat, all four seats alike:
``pimc`` and ``pimc-uniform`` (:class:`~wiezen_sim.solvers.players.PimcPlayer`, a quarter of
``worlds`` sampled worlds per decision first, adaptive M up to ``ADAPTIVE_CAP`` times ``worlds``;
:func:`~wiezen_sim.analysis.advise.bids.method_players`) or
``heuristic`` (the plain rules of :mod:`wiezen_sim.solvers.players`).

``pimc`` plays each option behind the auction that leads to it, and its players draw
their worlds from the posterior given that auction under a bidding model (by default
:func:`default_model`, the neutral threshold bot of :mod:`wiezen_sim.analysis.threshold`
accepting a vraag with ``accept_tricks``); ``pimc-uniform`` draws them uniformly from the
deals consistent with the play (the players of issue 5). The auction
(:func:`auction_behind`) is run by the auction engine on the sampled deal: the advised
seat bids the option at its first turn (solo: it proposes, and bids solo once nobody has
accepted; vraag: the accepting seat of the acceptance rule accepts, and waits first if it
is eldest), every other seat bids as the model does, except that a bid that would keep
the option from standing (a bid above it, or one made after it, or an acceptance the
option does not have) becomes a pass: the table asks "if I declare it", as for every
method. When a pass is not legal (the troel obligation) or the option's own bid is not,
the auction stops there and the players read it up to that point. A deal on which the
model's own bids do not lead to the option (a bid replaced, an acceptor's bid that is not
the model's, the auction stopped, or the option not standing) is counted
(``auction_off_model``): there the real hands are not what the model expects: the
players read such a seat's bids with the model's tremble
(:data:`~wiezen_sim.solvers.worlds.TREMBLE`), and leave them unread once the play rules out
the hands the model makes them with (:class:`~wiezen_sim.solvers.worlds.PosteriorWorlds`).

Choices, beside those of :mod:`wiezen_sim.analysis.advise`:
- Only the options one can bid are played: the vraag with the accepting partner
  (no rows per fixed partner seat), solo, kleine miserie, pico, abondance in each
  suit (abondance in troef is the same game as abondance in the turned suit: one
  play serves both rows), miserie, open miserie, troel, solo slim in each suit.
- Kleine miserie: every seat, the declarer too, discards its highest card
  (:func:`~wiezen_sim.solvers.players.highest_discard`).
- Contracts that pay a flat amount (abondance without levels, the misère family,
  solo slim) stop being searched once their success is decided: the rest of the hand
  is played with the lowest legal cards, so their ``mean_tricks`` is not reported.
  PIMC breaks ties there by the heuristic (``tie_window`` 0); vraag, solo, troel and
  abondance levels are played to the end with ``tie_window`` 1.
- With *abondance levels*, each suit is played once for the lowest level (9) and the
  rows of the levels 9–12 read its trick count.

Per sampled deal (the arrays of :func:`play_batch`, one row per sample):
    tricks[o]      int8[n_options]  tricks of the declaring side in option o (-1: not played)
    vraag_partner  int8             the accepting seat (-1: nobody accepts)
    troel_partner  int8             troel partner seat (-1: no troel)
    troel_target   int8             tricks the troel needs (the record's target)
    pimc_decisions int32            PIMC decisions made by sampling (all options)
    worlds_dropped int32            of their worlds, those left out (a double-dummy question
                                    past ``PIMC_NODE_LIMIT`` trick nodes)
    auction_contradicted int32      ``pimc``: decisions whose worlds all have a seat bidding off
                                    the model or with a seat's bids left unread (the auction
                                    contradicts the play, :mod:`wiezen_sim.solvers.worlds`)
    auction_off_model int32         ``pimc``: options whose auction the model's bids do not make
"""

from __future__ import annotations

import numpy as np

from wiezen_sim.analysis.advise.bids import FLAT, BidOption, bid_batch, first_bid, flat, method_players
from wiezen_sim.analysis.advise.dd_table import dd_batch
from wiezen_sim.analysis.advise.deals import sample_hands
from wiezen_sim.analysis.threshold import ThresholdBidder
from wiezen_sim.cards import card_suit
from wiezen_sim.rules.auction import AuctionState, Bid, Declaration, aces, apply, legal_bids, start_auction
from wiezen_sim.rules.bots import playing_tricks
from wiezen_sim.rules.contracts import ACCEPT, CONTRACTS, PASS, WAIT, contract_spec
from wiezen_sim.rules.dealing import Deal
from wiezen_sim.rules.payments import ALL_TRICKS
from wiezen_sim.rules.play import PlayRecord
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.solvers.players import DEFAULT_WORLDS, PimcPlayer, play_deal
from wiezen_sim.solvers.worlds import AuctionEvidence, AuctionModel
from wiezen_sim.vocabulary import DEALER, SEATS

__all__ = ["FLAT", "PLAY_METHODS", "auction_behind", "default_model", "play_batch", "play_options"]

PLAY_METHODS = ("pimc", "pimc-uniform", "heuristic")


def play_options(rules: RuleSet, hand: int) -> list[tuple[str, int | None]]:
    """The played options in table order: (contract, trump suit or None)."""
    contracts = rules.contracts()
    out: list[tuple[str, int | None]] = [("vraag", None), ("solo", None)]
    out += [(c, None) for c in ("kleine_miserie", "pico") if c in contracts]
    out += [("abondance", s) for s in range(4)]
    out += [("miserie", None), ("open_miserie", None)]
    out += [("troel", None)] if aces(hand) >= 3 else []
    out += [("solo_slim", s) for s in range(4)]
    return out


def check_accept_tricks(accept_tricks: object) -> float:
    """``accept_tricks`` (the vraag acceptance rule's threshold in playing tricks) as a float.

    Raises:
        ValueError: not a number from 0 to 13 (a bool is not one; NaN fails the range).
    """
    if (
        isinstance(accept_tricks, bool)
        or not isinstance(accept_tricks, int | float | np.number)
        or not 0 <= float(accept_tricks) <= ALL_TRICKS
    ):
        raise ValueError(
            f"accept_tricks must be a number of playing tricks from 0 to {ALL_TRICKS}, got {accept_tricks!r}"
        )
    return float(accept_tricks)


def default_model(accept_tricks: float) -> ThresholdBidder:
    """The ``pimc`` method's bidding model: the neutral threshold bot, accepting a vraag with
    ``accept_tricks`` playing tricks in the turned suit (the advisor's acceptance rule)."""
    name = f"threshold bot that accepts a vraag with {accept_tricks:g}+ playing tricks"
    return ThresholdBidder(thresholds={"accept": accept_tricks}, name=name)


def auction_behind(deal: Deal, contract: str, suit: int | None, seat: int, acceptor: int | None,
                   model: AuctionModel, rules: RuleSet) -> tuple[AuctionEvidence, bool]:  # fmt: skip
    """The auction that leads to an option, as its players hear it (rules in the module docstring; RULES.md 1.4).

    Args:
        deal: the sampled deal; contract, suit: the option (suit: abondance's trump);
        seat: the advised, declaring seat; acceptor: the seat that accepts a vraag (else None);
        model: the bidding model: it makes the other seats' bids and the players read them.

    Returns:
        The evidence (every bid chosen, with the state before it) and whether the model's
        bids do not lead to the option on this deal.
    """
    level = 9 if contract == "abondance" and rules.abondance_levels else None  # played for the lowest level
    mine = first_bid(BidOption(contract, suit, level), rules)
    rank = contract_spec(mine.name).rank
    state, off, declared = start_auction(deal, rules), False, False
    turns: list[tuple[AuctionState, Bid]] = []
    while not state.done:
        legal, to_act = legal_bids(state), state.to_act
        if to_act == seat:
            bid = Bid(PASS) if declared else mine
            bid = Bid("solo") if contract == "solo" and Bid("solo") in legal else bid
            declared = True
        elif to_act == acceptor:
            bid = next((b for b in (Bid(WAIT), Bid(ACCEPT)) if b in legal), Bid(PASS))
            off |= bid != model(state)
        else:
            bid = model(state)
            below = bid.name == ACCEPT or (bid.name in CONTRACTS and contract_spec(bid.name).rank < rank)
            kept = bid.name in (PASS, WAIT) or (not declared and below)
            off |= not kept
            bid = bid if kept else Bid(PASS)
        if bid not in legal:
            return AuctionEvidence(tuple(turns), model), True
        turns.append((state, bid))
        state = apply(state, bid)
    declarers = (seat,) if acceptor is None else (seat, acceptor)
    stands = [(d.contract, d.declarers) for d in state.declarations] == [(contract, declarers)]
    return AuctionEvidence(tuple(turns), model), off or not stands


def play_batch(
    seeds: np.ndarray,
    hand: int,
    seat: int,
    turned: int,
    rules: RuleSet,
    accept_tricks: float,
    wanted: frozenset[str] | None,
    method: str,
    worlds: int = DEFAULT_WORLDS,
    model: AuctionModel | None = None,
) -> dict[str, np.ndarray]:
    """Play every option of every sampled deal of one batch (layout in the module docstring).

    Args:
        seeds: ``uint64[n]`` seed words from :func:`wiezen_sim.parallel.sample_seeds`;
            each word fixes the sampled deal and the players' random numbers.
        method: ``pimc``, ``pimc-uniform`` or ``heuristic``; worlds: PIMC worlds per decision.
        model: ``pimc``'s bidding model (default :func:`default_model` of ``accept_tricks``).
    """
    model = model or default_model(accept_tricks)
    options = play_options(rules, hand)
    n = len(seeds)
    trump = card_suit(turned)
    out: dict[str, np.ndarray] = {
        "tricks": np.full((n, len(options)), -1, np.int8),
        "vraag_partner": np.full(n, -1, np.int8),
        "troel_partner": np.full(n, -1, np.int8),
        "troel_target": np.zeros(n, np.int8),
        "pimc_decisions": np.zeros(n, np.int32),
        "worlds_dropped": np.zeros(n, np.int32),
        "auction_contradicted": np.zeros(n, np.int32),
        "auction_off_model": np.zeros(n, np.int32),
    }
    order = [(seat + k) % SEATS for k in range(1, SEATS)]
    for i, word in enumerate(seeds):
        hands = [int(h) for h in sample_hands(word, hand, seat, turned)]  # the same deals as the dd method
        deal = Deal((hands[0], hands[1], hands[2], hands[3]), DEALER, turned)
        for k, (contract, suit) in enumerate(options):
            if wanted is not None and contract not in wanted and not (contract == "abondance" and suit == trump
                                                                      and "abondance_in_troef" in wanted):  # fmt: skip
                continue
            declarers: tuple[int, ...] = (seat,)
            acceptor = None
            if contract == "vraag":
                acceptor = next((q for q in order if playing_tricks(hands[q], trump) >= accept_tricks), None)
                if acceptor is None:
                    continue
                declarers = (seat, acceptor)
                out["vraag_partner"][i] = acceptor
            decided = flat(contract, rules)
            rngs = [np.random.default_rng(s) for s in np.random.SeedSequence([int(word), k]).spawn(4)]
            evidence = None
            if method == "pimc":
                evidence, off = auction_behind(deal, contract, suit, seat, acceptor, model, rules)
                out["auction_off_model"][i] += off
            players = method_players(method, worlds, rngs, contract, rules, evidence)
            record = play_deal(deal, Declaration(contract, declarers, trump=suit), players, rules=rules,
                               until_decided=decided)  # fmt: skip
            side = declarers if contract != "troel" else (seat, _troel_partner(record, seat))
            out["tricks"][i, k] = record.side_tricks(side)
            for p in players:
                if isinstance(p, PimcPlayer):
                    out["pimc_decisions"][i] += p.decisions
                    out["worlds_dropped"][i] += p.worlds_dropped
                    out["auction_contradicted"][i] += p.auction_contradicted
            if contract == "troel":
                out["troel_partner"][i], out["troel_target"][i] = side[1], record.target
    return out


def _troel_partner(record: PlayRecord, seat: int) -> int:
    """The troel partner: the leader of the first trick (RULES.md 1.5)."""
    leader = record.tricks[0][0]
    assert leader != seat
    return leader


class DealBatch:
    """The advisor's task for a worker: the answers of one batch of sampled deals, by any method.

    Picklable, and in this module (not with :func:`~wiezen_sim.analysis.advise.advise`) so
    that a worker process imports only the solvers it runs, not pandas or scipy.
    ``DealBatch(...)(seeds)`` is :func:`~wiezen_sim.analysis.advise.dd_table.dd_batch`
    (``method="dd"``) or :func:`play_batch` of the ``uint64`` seed words, with the bid values
    of the ``valued`` contracts (:func:`~wiezen_sim.analysis.advise.bids.bid_batch`, the other
    seats bidding by ``model``, default :func:`default_model`; their contracts played by the
    same method). Each deal's bid values are asked right after its table, deal by deal: a solver keeps its
    table for the questions of one deal, so a bid's question finds that deal's table answers whatever the
    batch (its trick nodes, ``bid_trick_nodes``, then do not depend on how the deals were grouped, so on
    ``n_jobs``; with the table of the batch's last deal only, they did).
    """

    def __init__(
        self,
        hand: int,
        seat: int,
        turned: int,
        rules: RuleSet,
        accept_tricks: float,
        wanted: frozenset[str] | None,
        method: str = "dd",
        worlds: int = 16,
        model: AuctionModel | None = None,
        discards: tuple[bool, ...] | None = None,
        valued: frozenset[str] | None = None,
    ) -> None:
        self.args = (hand, seat, turned, rules, accept_tricks, wanted)
        self.method, self.worlds, self.model, self.discards, self.valued = method, worlds, model, discards, valued

    def __call__(self, seeds: np.ndarray) -> dict[str, np.ndarray]:
        parts = [self._deal(seeds[i : i + 1]) for i in range(len(seeds))]
        return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}

    def _deal(self, seeds: np.ndarray) -> dict[str, np.ndarray]:
        """The answers of one deal (``seeds``: its one seed word)."""
        hand, seat, turned, rules, accept_tricks, _ = self.args
        if self.method == "dd":
            answers = dd_batch(seeds, *self.args, self.discards)
        else:
            answers = play_batch(seeds, *self.args, self.method, self.worlds, self.model)
        model = self.model or default_model(accept_tricks)
        return answers | bid_batch(seeds, answers, hand, seat, turned, rules, self.valued, model, self.method,
                                   self.worlds)  # fmt: skip
