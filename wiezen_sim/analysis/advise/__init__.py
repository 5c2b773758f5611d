"""``advise``: which contract should this hand bid? (issues 4, 5; RULES.md 1.3–1.6).

Monte Carlo double dummy over deals consistent with what the player knows: its own
13 cards, the turned card, which lies in the dealer's hand, and that it is the seat's first
turn to bid, every seat before it having passed (the bidding model's passes: the deals where
it bids otherwise are not drawn, :class:`~wiezen_sim.analysis.advise.bids.PassedDeals`).
Seats are relative to the dealer: seat 0 = eldest (bids and leads first), seat 3 = dealer.

The modules, each importing only those above it:

- :mod:`~wiezen_sim.analysis.advise.deals` — the position and the deals consistent with it;
- :mod:`~wiezen_sim.analysis.advise.dd_table` — every double-dummy question of a sampled deal;
- :mod:`~wiezen_sim.analysis.advise.bids` — each bid valued in the context of the auction;
- :mod:`~wiezen_sim.analysis.advise.play` — the play methods ``pimc`` and ``heuristic``;
- :mod:`~wiezen_sim.analysis.advise.options` — one row per contract option: success and settlement;
- :mod:`~wiezen_sim.analysis.advise.report` — :class:`Advice`, :class:`Comparison`: table, CSV, JSON;
- :mod:`~wiezen_sim.analysis.advise.recommend` — :func:`advise`: batches, rows, the recommendation;
- :mod:`~wiezen_sim.analysis.advise.compare` — :func:`compare`: the methods on the same deals.

Documented rules where the issue leaves a choice:

- Kleine miserie: the defenders each discard their highest card (the highest rank,
  the first suit in S H D C order on a tie); the declarer's discard is the single card, among the
  highest card of each suit (a lower card of the same suit is never better to
  discard), with the highest estimated success rate over the same samples.
- Vraag acceptance: a seat accepts when its :func:`~wiezen_sim.rules.bots.playing_tricks`
  in the turned trump reach ``accept_tricks`` (default 4: "propose only with four tricks
  of your own"); the first such seat clockwise after the proposer is the partner. If
  nobody accepts the proposer passes (settlement 0). The ``vraag`` row with
  ``partner = "accepting"`` is that estimate; ``p_success`` is conditional on
  acceptance and ``ev_units`` is over all samples.
- Troel: the partner and first lead follow RULES.md 1.5 in every sample; with the
  *troel free lead* variant the standard lead is evaluated.
- The recommendation is the bid of highest expected value in the context of the auction
  (issue 19): for each bid the seat can make now, the rest of the auction is bid on the
  same sampled deals by the bidding model (default the neutral threshold bot accepting
  with ``accept_tricks``) and by the seat's plan, and the contract that stands is played
  by the method (double dummy, or PIMC or heuristic players) and settled for the seat (the
  plan, the model and every choice: :mod:`~wiezen_sim.analysis.advise.bids`). With three
  or four aces only troel, open miserie and solo slim (the troel obligation).

The names below are imported from their modules when first used (a module
``__getattr__``, PEP 562): a worker process that runs one batch
(:class:`~wiezen_sim.analysis.advise.play.DealBatch`) imports only what it needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wiezen_sim.analysis.advise.compare import compare
    from wiezen_sim.analysis.advise.deals import EXAMPLE, sample_hands
    from wiezen_sim.analysis.advise.recommend import METHODS, advise
    from wiezen_sim.analysis.advise.report import Advice, Comparison

_HOMES = {
    "compare": "compare",
    "EXAMPLE": "deals",
    "sample_hands": "deals",
    "METHODS": "recommend",
    "advise": "recommend",
    "Advice": "report",
    "Comparison": "report",
}
__all__ = ["EXAMPLE", "METHODS", "Advice", "Comparison", "advise", "compare", "sample_hands"]


def __getattr__(name: str) -> object:
    """The public names, each imported from its module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
