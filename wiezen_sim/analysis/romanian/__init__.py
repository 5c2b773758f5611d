"""Romanian whist analysis: the bid advisor and whole-game simulation (rules: RULES.md Part 2).

- :mod:`~wiezen_sim.analysis.romanian.bids` — :func:`advise`: for a hand in a seat
  after some bids, every bid's probability of being made exactly, expected score and
  trick distribution; the recommended (legal) bid.
- :mod:`~wiezen_sim.analysis.romanian.policies` — :func:`bid_view` (what a player
  knows when bidding), the bidders and :func:`make_policy` (:data:`POLICIES`).
- :mod:`~wiezen_sim.analysis.romanian.games` — :func:`play_deal` (one given deal with
  given bids and policies: tricks per seat and trick by trick, scores), :func:`play_game` (one complete game with
  explicit policies) and :func:`simulate` (mean score per game per policy, t-intervals).

Seats are positions in playing order for a deal: seat 0 is left of the dealer (bids
first, leads first), seat N−1 the dealer. Units: tricks (counts), points (the chosen
scoring), probabilities in [0, 1]. Seeds and batches come from :mod:`wiezen_sim.parallel`
(one seed word per sampled deal or game), so results never depend on ``n_jobs``.
"""

from wiezen_sim.analysis.romanian.bids import MODELS, Advice, BidOption, advise, check_bid_sigma
from wiezen_sim.analysis.romanian.games import (
    DealRecord,
    GameRecord,
    SimulationResult,
    Trick,
    play_deal,
    play_game,
    simulate,
)
from wiezen_sim.analysis.romanian.policies import (
    POLICIES,
    Bidder,
    BidView,
    Policy,
    bid_view,
    forehead_p_win,
    heuristic_bidder,
    make_policy,
    mc_bidder,
    random_bidder,
)

__all__ = [
    "MODELS",
    "POLICIES",
    "Advice",
    "BidOption",
    "BidView",
    "Bidder",
    "DealRecord",
    "GameRecord",
    "Policy",
    "SimulationResult",
    "Trick",
    "advise",
    "bid_view",
    "check_bid_sigma",
    "forehead_p_win",
    "heuristic_bidder",
    "make_policy",
    "mc_bidder",
    "play_deal",
    "play_game",
    "random_bidder",
    "simulate",
]
