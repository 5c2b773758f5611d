"""When the advisor has sampled enough deals: the stop rule (issue 18).

``samples`` is a ceiling. Deals are drawn in rounds whose ends are fixed by the sample
count alone (:func:`round_ends`: 8, 16, 32, 64, 128 deals, then a quarter more each round, 160, 200,
250, 312, …, and the ceiling), so the same
seed and ceiling give the same rounds, the same deals and the same numbers for any
``n_jobs``, batch size or backend. After every round the rows built so far are judged
(the run itself may stop from :data:`ROUND_FIRST` deals on; the two earlier looks, after
:data:`FIRST_LOOK` and twice as many deals, only stop dominated contracts, so that a
hopeless contract's costly questions, a 1-vs-3 exact count or a misère test, are asked on 8
deals instead of 32).

The options judged are the bids valued in the context of the auction with ``method="dd"``
(:mod:`~wiezen_sim.analysis.advise.bids`, pass among them; issue 19), else the biddable table
rows and pass. A bid's P(success) interval is its contract's table row's. After each round:

* **Dominated contracts stop.** A biddable option whose expected settlement is below
  the best option's with probability at least :data:`DOMINATED` (the paired Student-t test of
  :func:`p_better` over the deals both were asked on; from :data:`FIRST_LOOK` deals on, where
  the normal approximation would claim too much) is out of contention; once every biddable
  row of a contract is out,
  its questions are no longer asked (with the bid values: once every bid of a contract is
  out; solo's bid keeps vraag's questions, as someone may accept its proposal). Its rows
  keep the deals they were asked on and show their own ``n``.
* **Dominated discards stop.** Kleine miserie's row uses the discard made most often
  (:func:`~wiezen_sim.analysis.advise.options.dd_rows`); a candidate discard made less
  often than the best one with probability at least :data:`DOMINATED` (paired over the
  same deals) is no longer asked (:func:`contending_discards`).
* **Rows that are not bids** (a vraag with a fixed partner seat: the partner decides
  whether to accept) cannot change the recommendation: their questions are asked on the
  first :data:`ROUND_FIRST` deals only, fewer once vraag's own bid is out of contention
  (they are information about it), and the rows show that ``n``.
* **The run stops** (from :data:`ROUND_FIRST` deals on) once the recommendation beats the
  runner-up with probability at least :data:`DECIDED` (the paired normal approximation of
  :func:`~wiezen_sim.analysis.stats.prob_greater`, as the recommendation reports it) and
  every biddable row still in contention has a Wilson 95 % interval of P(success) within
  ±:data:`HALF_WIDTH` — or at the ceiling. An option with
  the recommendation's settlement on every deal so far is no runner-up: which of the two
  is bid makes no difference (without this, two such options never settle). An option
  whose contract stopped being asked in an earlier round is out for good: it is neither
  the runner-up nor a row still in contention, as its interval can no longer narrow
  (without this, a contract dropped on 8 deals against one leader kept the run of a later
  leader going to the ceiling: an all-low hand took 1000 deals and 188 s instead of about
  200 deals).

A contract's rows are asked on a prefix of the rounds (it never comes back), so every
row is exact double dummy over the first ``n`` sampled deals.

From :data:`OVERLAP_FROM` deals on, the questions of a round are chosen one round earlier: the
round after the next is judged with what the rule says after this one, so that the next round
can be handed to the workers before this one is judged (:class:`~wiezen_sim.parallel.Pipeline`)
and a worker left without work at a round's end, waiting for its slowest deal, starts on the
next round instead. A contract the rule stops asking there is asked one round more (its ``n``
shows it). Which round asks what depends only on the rounds' answers, never on the timing or
``n_jobs``: the same seed gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy.special import stdtr

from wiezen_sim.analysis.stats import prob_greater

__all__ = [
    "DECIDED",
    "DOMINATED",
    "FINE_FROM",
    "FIRST_LOOK",
    "HALF_WIDTH",
    "OVERLAP_FROM",
    "ROUND_FIRST",
    "Contention",
    "Option",
    "contending_discards",
    "in_contention",
    "p_better",
    "progress_note",
    "round_ends",
    "settles_alike",
]

FIRST_LOOK = 8  # deals of the first round (enough to drop a clearly dominated contract); later ones double the deals
# deals from which a round adds a quarter instead of doubling: a row at P(success) 0.5 needs 385 deals to reach
# ±HALF_WIDTH, which doubling rounds overshoot to 512
FINE_FROM = 128
# deals from which the next round is handed out before this one is judged (module docstring): the early rounds,
# where hopeless contracts' costly questions stop, keep the rule's choice at once
OVERLAP_FROM = FINE_FROM
ROUND_FIRST = 32  # deals before the run may stop (the rows of a fixed partner seat are asked on these)
DECIDED = 0.99  # P(recommendation better than the runner-up) needed to stop (issue 18)
HALF_WIDTH = 0.05  # largest half-width of a contending row's 95 % interval of P(success) (issue 18)
# P(best better than an option) above which the option stops being asked: surer than the run's own stop asks of
# the runner-up (DECIDED), by a test stricter than the stop's at few deals (p_better); 0.999 kept misère
# candidates' kleine miserie, at 3 s a deal, on for a round more (issue 18's user hands)
DOMINATED = 0.995

Option = tuple[str, np.ndarray, float]  # (contract, per-deal settlement float[n], Wilson half-width)


def round_ends(samples: int) -> list[int]:
    """Cumulative deal counts after each round (ints, ascending): doubling from :data:`FIRST_LOOK` up to
    :data:`FINE_FROM`, then a quarter more each round (rounded down), then ``samples``:
    ``[8, 16, 32, 64, 128, 160, 200, 250, 312, 390, 487, 608, 760, 950, 1000]`` for 1000.

    Raises:
        ValueError: ``samples`` < 1.
    """
    if samples < 1:
        raise ValueError(f"samples must be positive, got {samples}")
    ends = []
    end = FIRST_LOOK
    while end < samples:
        ends.append(end)
        end = end * 2 if end < FINE_FROM else end + end // 4
    return [*ends, samples]


def p_better(a: np.ndarray, b: np.ndarray) -> float:
    """P(mean of ``a`` > mean of ``b``) by the paired Student-t test (``n - 1`` degrees of freedom), over the deals
    both were asked on (a prefix of each): the one-sided confidence that ``a`` is better.

    ``a``, ``b``: ``float64`` per-deal values (units). With no spread in the differences the answer is 1, 0 or
    0.5 by the sign of their mean (as :func:`~wiezen_sim.analysis.stats.prob_greater`); on fewer than
    :data:`FIRST_LOOK` deals it is 0.5: too few to tell.
    """
    n = min(len(a), len(b))
    if n < FIRST_LOOK:
        return 0.5
    diff = a[:n] - b[:n]
    sd = float(np.std(diff, ddof=1))
    if sd == 0.0:
        return prob_greater(diff)
    return float(stdtr(n - 1, float(np.mean(diff)) / (sd / np.sqrt(n))))


def settles_alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two options' per-deal settlements (``float64``, units) are equal on every deal both were valued
    on (a prefix of each): then which of the two is bid makes no difference (a dealer's vraag nobody is left
    to accept settles as pass), so neither is the other's runner-up."""
    n = min(len(a), len(b))
    return bool(np.array_equal(a[:n], b[:n]))


class Contention(NamedTuple):
    """What the stop rule found after a round (:func:`in_contention`).

    Attributes:
        contracts: the contract names with at least one option that is not dominated (the best one's
            included): the contracts still asked.
        settled: whether the stop rule is met (module docstring).
        p_decided: the least P(recommendation better) over the other options still in contention (the
            paired normal approximation; 1.0 when there is none): the run may stop once it reaches
            :data:`DECIDED`.
        widest: the widest Wilson 95 % half-width of P(success) among the rows still in contention: the run
            may stop once it is at most :data:`HALF_WIDTH`.
    """

    contracts: set[str]
    settled: bool
    p_decided: float
    widest: float


def in_contention(options: Sequence[Option], best: int, dropped: frozenset[str] = frozenset()) -> Contention:
    """The contracts still worth asking, and whether the run may stop.

    Args:
        options: the biddable options (pass included, as ``("pass", zeros, 0.0)``);
            each option's settlement per deal it was asked on (``float64[n]``, units)
            and its Wilson 95 % half-width of P(success).
        best: index of the recommended option in ``options``.
        dropped: contracts no longer asked (out of contention in an earlier round): their
            options stay out (module docstring), unless one is the recommendation.

    Returns:
        The contracts still asked, whether the stop rule is met and how far it is (:class:`Contention`).
    """
    best_ev = options[best][1]
    keep: set[str] = set()
    widest = 0.0
    runner_p = 1.0
    for i, (contract, ev, half) in enumerate(options):
        if i != best:
            if contract in dropped:
                continue
            if not settles_alike(best_ev, ev):
                n = min(len(best_ev), len(ev))
                runner_p = min(runner_p, prob_greater(best_ev[:n] - ev[:n]))
                if p_better(best_ev, ev) >= DOMINATED:
                    continue
        keep.add(contract)
        widest = max(widest, half)
    return Contention(keep, widest <= HALF_WIDTH and runner_p >= DECIDED, runner_p, widest)


def progress_note(best: str, runner: str | None, state: Contention) -> str:
    """The stop rule's progress after a round, in words, for the progress bar: the leading bid and the next
    one, with how sure the lead is and how narrow the intervals are against what the rule needs, e.g.
    ``pico leads vraag ♥ at P 0.953 (needs 0.99), intervals ±0.07 (needs ±0.05)``. ``best``, ``runner``: the
    two options in words (``runner`` None: no runner-up); the P is ``state.p_decided``, over every option
    still in contention (mostly the runner-up's)."""
    lead = f"{best} leads"
    if runner:
        lead += f" {runner} at P {state.p_decided:.3f}" + (f" (needs {DECIDED})" if state.p_decided < DECIDED else "")
    if state.widest > HALF_WIDTH:
        widest = f"±{state.widest:.2f}"
        if float(widest[1:]) <= HALF_WIDTH:  # rounded to the rule's own figure it would read as met
            widest = f"just over ±{HALF_WIDTH}"
        lead += f", intervals {widest} (needs ±{HALF_WIDTH})"
    return lead


def contending_discards(made: np.ndarray, asked: tuple[bool, ...]) -> tuple[bool, ...]:
    """The kleine-miserie candidate discards still worth asking.

    Args:
        made: ``bool[n, k]`` whether kleine miserie is made with candidate discard ``j`` on
            each deal so far (False where ``j`` was not asked).
        asked: ``k`` flags, the candidates asked so far (a dropped one never comes back).

    Returns:
        ``k`` flags: the candidates asked whose success rate is not below the best one's with
        probability :data:`DOMINATED` or more (paired over the deals; the best is kept).
    """
    best = int(np.argmax(made.sum(axis=0)))
    top = made[:, best].astype(float)
    return tuple(
        bool(ask) and (j == best or p_better(top, made[:, j].astype(float)) < DOMINATED) for j, ask in enumerate(asked)
    )
