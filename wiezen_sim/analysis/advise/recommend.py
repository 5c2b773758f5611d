"""``advise``: the batches of sampled deals, the option rows and the recommendation (issue 4; RULES.md 1.3–1.6).

The recommendation is the highest ``ev_units`` among the rows a player can bid now
(every contract row, pass = 0 units, first on a tie; solo via a vraag nobody accepts);
with three or four aces only troel, open miserie and solo slim (the troel obligation).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from wiezen_sim.analysis.advise.dd_table import dd_batch
from wiezen_sim.analysis.advise.deals import check_position
from wiezen_sim.analysis.advise.options import OptionRows, dd_rows, play_rows
from wiezen_sim.analysis.advise.play import play_batch
from wiezen_sim.analysis.advise.report import Advice
from wiezen_sim.analysis.stats import prob_greater
from wiezen_sim.cards import card_name, hand_name
from wiezen_sim.parallel import resolve_seed, run_batches, sample_seeds
from wiezen_sim.rules.auction import aces
from wiezen_sim.rules.contracts import contract_spec
from wiezen_sim.rules.ruleset import RuleSet, get_rules
from wiezen_sim.solvers.players import check_worlds
from wiezen_sim.vocabulary import seat_name

__all__ = ["METHODS", "TROEL_ONLY", "advise", "recommend"]

METHODS = ("dd", "pimc", "heuristic")  # pimc and heuristic: wiezen_sim.analysis.advise.play
TROEL_ONLY = ("troel", "open_miserie", "solo_slim")


def advise(
    hand: str | int,
    seat: str | int,
    turned: str | int,
    rules: str | RuleSet = "tempelaere",
    samples: int = 1000,
    seed: int | None = None,
    n_jobs: int = -1,
    method: str = "dd",
    accept_tricks: float = 4.0,
    batch_size: int | None = None,
    backend: str = "loky",
    progress: bool | None = None,
    contracts: Sequence[str] | None = None,
    worlds: int = 16,
    on_progress: Callable[[int], None] | None = None,
) -> Advice:
    """Estimate every contract this hand could declare, by Monte Carlo double dummy.

    Args:
        hand: the player's 13 cards (any notation of ``wiezen_sim.cards``) or a mask.
        seat: ``eldest``, ``second``, ``third`` or ``dealer``, or 0..3 (relative to
            the dealer; eldest = 0 bids and leads first, dealer = 3).
        turned: the turned card (in the dealer's hand; in ``hand`` if seat is dealer).
        rules: preset name, TOML file or RuleSet; switched-off contracts are omitted.
        samples: sampled deals (all contracts use the same deals).
        seed: seed; ``None`` draws one (reported in ``meta``). Same seed and samples →
            same numbers for any ``n_jobs``, ``batch_size`` and backend.
        n_jobs: joblib workers (-1 = all cores).
        batch_size: sampled deals per joblib task (the unit of progress); default 25 for
            ``dd`` and 1 for the play methods, whose deals take seconds to minutes each.
        method: ``dd`` (double dummy), ``pimc`` or ``heuristic`` (every option played
            on the same sampled deals by four PIMC or heuristic players, issue 5; the
            choices are in :mod:`wiezen_sim.analysis.advise.play`).
        accept_tricks: the vraag acceptance rule's threshold (package docstring).
        contracts: only these contracts (names of RULES.md 1.3): the table has only
            their rows, the solver asks only their questions and the recommendation is
            among them and pass; ``None`` = every contract of the rules.
        worlds: PIMC worlds sampled per card decision (``method="pimc"``).
        on_progress: called after each batch with the number of sampled deals finished.

    Returns:
        :class:`~wiezen_sim.analysis.advise.report.Advice`. ``table`` (pandas.DataFrame),
        one row per option: ``contract`` (str), ``trump`` (S/H/D/C or None),
        ``p_success`` (probability), ``ci_low``/``ci_high`` (Wilson 95 %), ``mean_tricks``
        (tricks of the declaring side; NaN where only a target test is run),
        ``ev_units`` (expected settlement of the declarer, units, RULES.md 1.6), ``n``
        (int), and where they apply ``partner`` (vraag), ``p_accept``, ``discard``
        (kleine miserie), ``level``. ``distribution`` (DataFrame, same rows, columns
        0..13) holds the trick distribution.

    Raises:
        ValueError: bad hand, seat, turned card, rules, method, contract name or samples ≤ 0.
    """
    mask, p, card = check_position(hand, seat, turned)
    rule_set = get_rules(rules)
    wanted = None if contracts is None else frozenset(contract_spec(c).name for c in contracts)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if samples <= 0:
        raise ValueError(f"samples must be positive, got {samples}")
    check_worlds(worlds)
    if n_jobs == 0:
        raise ValueError("jobs must be a worker count ≥ 1, or negative for all cores (-1) and joblib's -2, …")
    seed = resolve_seed(seed)
    seeds = sample_seeds(seed, samples)
    parts = run_batches(
        _Batch(mask, p, card, rule_set, accept_tricks, wanted, method, worlds),
        seeds, batch_size or (25 if method == "dd" else 1), n_jobs, backend, progress, "deals", on_progress,
    )  # fmt: skip
    res = {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}
    build = dd_rows if method == "dd" else play_rows
    rows = build(res, mask, p, card, rule_set, wanted)
    obliged = aces(mask) >= 3
    best, runner, p_order = recommend(rows, samples, obliged)
    pimc_meta = {}
    if method == "pimc":
        pimc_meta = {"worlds": worlds, "pimc_decisions": int(res["pimc_decisions"].sum()),
                     "worlds_dropped": int(res["worlds_dropped"].sum())}  # fmt: skip
    meta = {
        "hand": hand_name(mask),
        "seat": seat_name(p),
        "turned": card_name(card),
        "rules": rule_set.name,
        "samples": samples,
        "seed": seed,
        "method": method,
        **pimc_meta,
        "accept_tricks": accept_tricks,
        "troel_obligation": obliged,
    }
    table = pd.DataFrame(rows.rows)
    distribution = pd.DataFrame(np.array(rows.dists), columns=range(14))
    return Advice(table, distribution, best, runner, p_order, meta, rows.oks)


def recommend(rows: OptionRows, samples: int, obliged: bool) -> tuple[dict, dict | None, float]:
    """The best option to bid, the runner-up and P(the best's expected value really exceeds the runner-up's).

    Options are the rows one can bid (a vraag with a fixed partner seat is information,
    not a bid: the partner chooses to accept) and pass (0 units, first so that it wins
    ties); under the troel obligation (``obliged``) only :data:`TROEL_ONLY`, unless none
    of them is a row. Options are ``{"contract", "trump", "ev_units"}`` dicts.
    """
    candidates = [i for i, row in enumerate(rows.rows) if row.get("partner") in (None, "accepting")]
    options = [(float(ev.mean()), i) for i in candidates if (ev := rows.evs[i]) is not None]
    troel_options = [(ev, i) for ev, i in options if rows.rows[i]["contract"] in TROEL_ONLY]
    if obliged and troel_options:  # (none when contracts= leaves them all out: then pass stays possible)
        options = troel_options
    else:
        options.insert(0, (0.0, -1))  # pass, first so that it wins ties (the sort is stable)
    options.sort(key=lambda x: -x[0])

    def describe(index: int) -> dict:
        if index < 0:
            return {"contract": "pass", "trump": None, "ev_units": 0.0}
        row = rows.rows[index]
        return {"contract": row["contract"], "trump": row["trump"], "ev_units": row["ev_units"]}

    def evs(index: int) -> np.ndarray:
        ev = rows.evs[index] if index >= 0 else None
        return np.zeros(samples) if ev is None else ev

    best = options[0][1]
    second = options[1][1] if len(options) > 1 else None
    p_order = prob_greater(evs(best) - evs(second)) if second is not None else 1.0
    return describe(best), None if second is None else describe(second), p_order


class _Batch:
    """Picklable batch task for joblib: the sampled deals of one batch of seed words."""

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
