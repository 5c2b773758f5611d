"""The advisor's play methods ``pimc`` and ``heuristic`` (issue 5; RULES.md 1.3–1.6).

Instead of solving each sampled deal double dummy, every biddable option is *played*
on the same sampled deals (the same seed words as ``method="dd"``, so the three
methods see the same deals) with one player per seat, all four seats alike:
``pimc`` (:class:`~wiezen_sim.solvers.players.PimcPlayer`, ``worlds`` sampled worlds
per decision) or ``heuristic`` (the plain rules of :mod:`wiezen_sim.solvers.players`).

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
"""

from __future__ import annotations

import numpy as np

from wiezen_sim.analysis.advise.dd_table import dd_batch
from wiezen_sim.analysis.advise.deals import DEALER, sample_hands
from wiezen_sim.cards import card_suit
from wiezen_sim.rules.auction import Declaration, aces
from wiezen_sim.rules.bots import playing_tricks
from wiezen_sim.rules.dealing import Deal
from wiezen_sim.rules.play import PlayRecord
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.solvers.players import DEFAULT_WORLDS, PimcPlayer, Player, play_deal
from wiezen_sim.vocabulary import SEATS

__all__ = ["FLAT", "PLAY_METHODS", "play_batch", "play_options"]

PLAY_METHODS = ("pimc", "heuristic")
FLAT = ("kleine_miserie", "pico", "abondance", "miserie", "open_miserie", "solo_slim")


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
) -> dict[str, np.ndarray]:
    """Play every option of every sampled deal of one batch (layout in the module docstring).

    Args:
        seeds: ``uint64[n]`` seed words from :func:`wiezen_sim.parallel.sample_seeds`;
            each word fixes the sampled deal and the players' random numbers.
        method: ``pimc`` or ``heuristic``; worlds: PIMC worlds per decision.
    """
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
            if contract == "vraag":
                acceptor = next((q for q in order if playing_tricks(hands[q], trump) >= accept_tricks), None)
                if acceptor is None:
                    continue
                declarers = (seat, acceptor)
                out["vraag_partner"][i] = acceptor
            flat = contract in FLAT and not (contract == "abondance" and rules.abondance_levels)
            rngs = [np.random.default_rng(s) for s in np.random.SeedSequence([int(word), k]).spawn(4)]
            players = [PimcPlayer(worlds, r, 0 if flat else 1) if method == "pimc" else Player() for r in rngs]
            record = play_deal(deal, Declaration(contract, declarers, trump=suit), players, rules=rules,
                               until_decided=flat)  # fmt: skip
            side = declarers if contract != "troel" else (seat, _troel_partner(record, seat))
            out["tricks"][i, k] = record.side_tricks(side)
            for p in players:
                if isinstance(p, PimcPlayer):
                    out["pimc_decisions"][i] += p.decisions
                    out["worlds_dropped"][i] += p.worlds_dropped
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
    (``method="dd"``) or :func:`play_batch` of the ``uint64`` seed words.
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
    ) -> None:
        self.args = (hand, seat, turned, rules, accept_tricks, wanted)
        self.method, self.worlds = method, worlds

    def __call__(self, seeds: np.ndarray) -> dict[str, np.ndarray]:
        if self.method == "dd":
            return dd_batch(seeds, *self.args)
        return play_batch(seeds, *self.args, self.method, self.worlds)
