"""Benchmark: the advisor's cost over a suite of hands, in DDS solves per sampled deal (issue 18).

    python experiments/benchmarks/advise_suite.py [--hands N] [--deals K] [--seed S] [--classes a,b]
                                                  [--node-limit T] [--corpus N]
    python experiments/benchmarks/advise_suite.py --replay experiments/benchmarks/slow_questions.json

For every position of the suite (``hand_suite.py``: random hands at every seat, solo,
abondance, misère, pico, troel and two-suiter candidates, the hands issue 18 reported),
it samples K deals exactly as ``wiezen-sim advise HAND --seed S`` samples its first K,
and per deal, in one process and one thread:

* asks the whole default contract table (every question ``advise`` asks of a deal in its
  first round, where no contract has been dropped yet by the stop rule, in its order,
  with its solvers and tables), timing each question and attributing it to
  a family: exact counts (the declarer alone, turned trump), target tests (abondance
  for 9, solo slim), misère, kleine miserie, pico, vraag pairs (the accepting
  pair's count; the target tests of a vraag with each fixed partner seat only with advise's
  ``partner_rows``, which the default run leaves out), troel; then the bid values of the same deal as ``advise``
  computes them (``bids.bid_batch``: the rest of the auction after each bid, and the
  contract another seat ends up holding, double dummy), whose questions are the family
  ``bid_values``; what no question accounts for (sampling, the auctions, Python) is
  ``overhead``;
* times one DDS solve of the same deal (endplay ``analyse_start``, the turned suit
  trump, eldest on lead, ``SetMaxThreads(1)``), so that costs are in DDS solves: a
  hand's cost is (our time over its K deals) / (DDS time over the same deals).

Every question runs under a node limit (``--node-limit`` trick nodes); a question that
passes it is *capped*: its time is a lower bound, and so is the cost of its deal and
hand, which are reported as capped (never as fast).

Writes results/benchmarks/advise_suite.json (per hand and family: times, DDS solves,
node counts and the kernel's counters; machine, versions, git commit) and the slowest
questions (at most one per hand and kind) beside it (``--out``'s name with
``_slow_questions``, or ``--corpus-out``), each not capped in the run re-solved with a
fresh solver (deterministic node counts; ``--replay`` re-runs them all). The corpus kept
with the code, experiments/benchmarks/slow_questions.json, changes only when
``--corpus-out`` names it.
Prints as its last three lines ``advise_suite_p50_dds_solves: X`` (median over hands),
``advise_suite_max_dds_solves: Y`` (same-deal units) and
``advise_suite_max_s: Z`` (issue 18), Z the projected wall time of
``wiezen-sim advise HAND`` with 2 jobs on an otherwise idle 2-core machine
(:func:`projected_wall_s`, :func:`startup_s`) if it took its ceiling of deals
(``samples``, default 1000) with the whole table on each: an upper bound, since the
stop rule may end the run after any round of 32, 64, 128, … deals and drops dominated
contracts' questions after a round, from the first look at 8 deals on (:func:`samples_used`;
``advise_wall.py`` measures the default run itself).
The line before them, ``advise_suite_max_s_first_round_lower_bound``, is the lower bound: the
first round alone (8 deals before the first look, every question asked).

Times are CPU seconds of this process (``time.process_time``), for our questions and for
DDS alike, so that other processes on a shared machine do not inflate them; the wall time
of each deal's table is recorded beside it. Node counts are deterministic. Costs are
given in two units: DDS solves of the same deals (the hand's own ratio) and the run's
median DDS solve (one unit for every hand; DDS is far faster on some deals than on
others, e.g. with a long trump suit, which inflates the same-deal ratio).
"""

from __future__ import annotations

import argparse
import heapq
import inspect
import itertools
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "advise_suite.json"
CORPUS = ROOT / "experiments" / "benchmarks" / "slow_questions.json"
sys.path.insert(0, str(ROOT))

from experiments.benchmarks.hand_suite import DEFAULT_SEED, Position, suite_positions  # noqa: E402
from wiezen_sim.analysis.provenance import git_commit  # noqa: E402
from wiezen_sim.cards import card_count, card_name, card_suit, deal_name, parse_card, parse_deal  # noqa: E402
from wiezen_sim.kernel import dd as _k  # noqa: E402
from wiezen_sim.rules.ruleset import RuleSet, get_rules  # noqa: E402
from wiezen_sim.solvers.dd import DDSolver, NodeLimitExceeded, parse_side  # noqa: E402
from wiezen_sim.vocabulary import NO_TRUMP, Objective, objective_name, parse_objective, parse_trump, trump_name  # noqa: E402

JOBS = 2  # the projection's workers (the machine of issue 18: 2 cores)
DEFAULT_NODE_LIMIT = 4_000_000  # trick nodes per question: a few CPU seconds, hundreds of DDS solves
# the kernel's counters (wiezen_sim/kernel/dd.py, module docstring: ``stats``) reported per question
COUNTERS = {"nodes": _k.STAT_NODES, "tt_hits": _k.STAT_TT_HITS, "tt_stores": _k.STAT_TT_STORES,
            "quick_trick_cutoffs": _k.STAT_QUICK_TRICKS, "top_trump_cutoffs": _k.STAT_TOP_TRUMPS,
            "searches": _k.STAT_SEARCHES, "tt_probes": _k.STAT_TT_PROBES, "trick_nodes": _k.STAT_TRICK_NODES,
            "tt_prunes": _k.STAT_TT_PRUNES}  # fmt: skip
KIND_FAMILY = {
    "alone_exact": "exact_counts",  # the declarer alone in the turned trump: solo, abondance in troef
    "abondance_test": "target_tests",  # can the declarer alone take 9 (abondance in a suit)
    "slim_test": "target_tests",  # can the declarer alone take 13 (solo slim)
    "misere": "misere",
    "kleine": "kleine_miserie",
    "pico": "pico",
    "vraag_test": "vraag_pairs",  # can declarer + a partner seat take 8
    "vraag_exact": "vraag_pairs",  # the accepting pair's trick count
    "troel": "troel",
    "bid_values": "bid_values",  # the bid values' questions (another seat's contract standing), whatever their kind
    "other": "other",  # a question this benchmark does not recognise (advise changed: re-point question_kind)
}
FAMILIES = (*dict.fromkeys(KIND_FAMILY.values()), "overhead")
SLOW_KEPT = 400  # costliest questions kept during the run, for the corpus
WORST_KEYS = ("name", "hand", "seat", "turned", "dds_solves", "median_dds_units", "projected_s_first_round",
              "projected_s_ceiling", "capped")  # fmt: skip
_SEQ = itertools.count()  # tie-breaker of the kept questions (arrival order)


# ---------------------------------------------------------------- the coupling with advise


class AdviseInternals(NamedTuple):
    """Everything this benchmark takes from ``wiezen_sim.analysis.advise`` (:func:`advise_internals`).

    Attributes:
        sample_deal: ``(word, position)`` → ``int64[4]`` hands (seat 3 = dealer) as ``advise`` samples them.
        ask_table: ``(word, position, rules, solvers)`` asks every question of the default contract
            table of that deal as ``advise``'s first round does (``dd_table.dd_batch``, every contract
            wanted), through ``solvers`` (strain → solver, ``None`` = no trump), and returns its answers.
        ask_bids: ``(word, position, rules, solvers, answers)`` values every bid of that deal from the
            table's ``answers`` as ``advise`` does (``bids.bid_batch``, double dummy, every bid valued),
            through ``solvers``, and returns its arrays.
        tt_mb: the table size (MB) ``advise`` gives each strain's solver (``None`` = no trump).
        default_samples: ``advise``'s default sample count (the ceiling of the stop rule).
        deal_seeds: ``(position, k, seed, rules)`` → ``uint64[k]``, the seed words of the first ``k`` deals
            ``advise --seed seed`` samples (those where the seats before the position's pass, ``bids.PassedDeals``).
    """

    sample_deal: Callable[[np.uint64, Position], np.ndarray]
    ask_table: Callable[[np.uint64, Position, RuleSet, dict[int | None, DDSolver]], dict]
    ask_bids: Callable[[np.uint64, Position, RuleSet, dict[int | None, DDSolver], dict], dict]
    tt_mb: dict[int | None, int]
    default_samples: int
    deal_seeds: Callable[[Position, int, int, RuleSet], np.ndarray]


def advise_internals() -> AdviseInternals:
    """The coupling with ``advise`` (:class:`AdviseInternals`); re-point here after a refactor."""
    from wiezen_sim.analysis.advise import advise, dd_table, sample_hands
    from wiezen_sim.analysis.advise.bids import PassedDeals, bid_batch
    from wiezen_sim.analysis.advise.play import default_model
    from wiezen_sim.analysis.advise.recommend import first_round_questions

    defaults = inspect.signature(advise).parameters
    accept = defaults["accept_tricks"].default

    def sample_deal(word: np.uint64, pos: Position) -> np.ndarray:
        return sample_hands(word, pos.hand, pos.seat, pos.turned)

    def through(solvers: dict[int | None, DDSolver], ask: Callable[[], dict]) -> dict:
        own = dict(dd_table._SOLVERS)  # this process's solvers, given back afterwards: the timed ones
        dd_table._SOLVERS.clear()  # carry a node limit that must not reach later advise calls
        dd_table._SOLVERS.update(solvers)  # dd_table.solver_for(strain) hands these out
        try:
            return ask()
        finally:
            dd_table._SOLVERS.clear()
            dd_table._SOLVERS.update(own)

    def ask_table(word: np.uint64, pos: Position, rules: RuleSet, solvers: dict[int | None, DDSolver]) -> dict:
        words = np.array([word], dtype=np.uint64)
        wanted = first_round_questions(rules)  # the default run's (no rows of a fixed partner seat: partner_rows)
        return through(solvers, lambda: dd_table.dd_batch(words, pos.hand, pos.seat, pos.turned, rules, accept, wanted))

    def ask_bids(word: np.uint64, pos: Position, rules: RuleSet, solvers: dict[int | None, DDSolver],
                 answers: dict) -> dict:  # fmt: skip
        words = np.array([word], dtype=np.uint64)
        return through(solvers, lambda: bid_batch(words, answers, pos.hand, pos.seat, pos.turned, rules, None,
                                                  default_model(accept)))  # fmt: skip

    def deal_seeds(pos: Position, k: int, seed: int, rules: RuleSet) -> np.ndarray:
        return PassedDeals(seed, pos.hand, pos.seat, pos.turned, rules, default_model(accept)).seeds(k)

    return AdviseInternals(sample_deal, ask_table, ask_bids, dict(dd_table.TT_MB), defaults["samples"].default,
                           deal_seeds)  # fmt: skip


def question_kind(q: Question) -> str:
    """Which of advise's questions ``q`` is, from its arguments (see ``dd_table.dd_batch``)."""
    goal, _ = parse_objective(q.objective)
    if card_count(q.side) == 2:
        if q.trick:
            return "troel"
        return "vraag_exact" if q.method == "solve" else "vraag_test"
    if q.trump is NO_TRUMP:
        if goal is Objective.EXACT:
            return "pico"
        if q.method == "can_force" and goal is Objective.MIN and q.target == 0:
            return "kleine" if card_count(q.hands[q.leader]) == 12 else "misere"
        return "other"
    if q.method == "solve" and goal is Objective.MAX:
        return "alone_exact"
    if q.method == "can_force" and goal is Objective.MAX:
        return "slim_test" if q.target == 13 else "abondance_test"
    return "other"


def samples_used(default_samples: int) -> tuple[int, int]:
    """Bounds on the sampled deals of the default ``wiezen-sim advise HAND`` run: ``(fewest, most)``.

    ``advise`` stops by its stop rule (``wiezen_sim/analysis/advise/stopping.py``) after a
    round of 32, 64, 128, … deals, at the latest at its ceiling ``samples``, and drops
    dominated contracts' questions from its first look (8 deals) on. Where a hand stops
    depends on its rows' estimates over hundreds of deals, which a few timed deals cannot
    tell, so this gives bounds, not an estimate: the first round (the deals before the
    first look, every question asked on each) and the ceiling (an upper bound: later deals
    cost at most a whole table).
    """
    from wiezen_sim.analysis.advise.stopping import round_ends

    return round_ends(default_samples)[0], default_samples


def projected_wall_s(per_deal_s: float, samples: int, startup_s: float, jobs: int = JOBS) -> float:
    """Wall time of an advise run on ``jobs`` idle cores: start-up plus ``samples`` deals of
    ``per_deal_s`` CPU seconds shared by the workers (the tail of the last batches is left out)."""
    return startup_s + samples * per_deal_s / jobs


# ---------------------------------------------------------------- timed questions


@dataclass
class Question:
    """One solver call: its arguments, answer, seconds and the kernel's counters during it."""

    method: str  # "solve" or "can_force"
    hands: tuple[int, ...]
    trump: int | None  # None: no trump
    leader: int
    side: int  # seat mask
    objective: str  # "max", "min" or "exact:K" (vocabulary.objective_name)
    target: int | None  # can_force's target
    trick: tuple[int, ...]
    answer: int | bool | None = None  # None: capped
    seconds: float = 0.0
    counters: dict = field(default_factory=dict)

    @property
    def capped(self) -> bool:
        return self.answer is None

    def to_dict(self) -> dict:
        """The question in text form (a PBN deal of the hands as asked, seats, card names)."""
        return {
            "pbn": deal_name(self.hands),
            "trump": trump_name(self.trump),
            "leader": self.leader,
            "side": [s for s in range(4) if self.side >> s & 1],
            "method": self.method,
            "objective": self.objective,
            "target": self.target,
            "trick": [card_name(c) for c in self.trick],
            "answer": self.answer,
        }


class TimedSolver(DDSolver):
    """A :class:`DDSolver` that logs every ``solve``/``can_force`` as a :class:`Question`.

    A question past ``node_limit`` is logged with ``answer=None`` and answered 0/False,
    so that the rest of the table is still asked.
    """

    def __init__(self, tt_mb: float, node_limit: int, log: list[Question]) -> None:
        super().__init__(tt_mb=tt_mb, node_limit=node_limit)
        self.log = log

    def solve(self, hands, trump, leader, side, objective="max", k=None, trick=()):
        q = solve_question(hands, trump, leader, side, objective, k, trick)
        return self._timed(q, lambda: super(TimedSolver, self).solve(hands, trump, leader, side, objective, k, trick))

    def can_force(self, hands, trump, leader, side, target, objective="max", trick=()):
        q = can_force_question(hands, trump, leader, side, target, objective, trick)
        return self._timed(q, lambda: super(TimedSolver, self).can_force(hands, trump, leader, side, target,
                                                                         objective, trick))  # fmt: skip

    def _timed(self, q: Question, ask):
        before = self.stats.copy()
        t0 = time.process_time()
        try:
            q.answer = ask()
        except NodeLimitExceeded:
            q.answer = None
        q.seconds = time.process_time() - t0
        q.counters = {name: int(self.stats[i] - before[i]) for name, i in COUNTERS.items()}
        self.log.append(q)
        if q.answer is None:
            return False if q.method == "can_force" or q.objective.startswith("exact") else 0
        return q.answer


def solve_question(hands, trump, leader, side, objective="max", k=None, trick=()) -> Question:
    """The :class:`Question` of a ``DDSolver.solve`` call with these arguments (not yet answered)."""
    goal, k = parse_objective(objective, k)
    return Question("solve", _hands(hands), parse_trump(trump), leader, parse_side(side), objective_name(goal, k),
                    None, _trick(trick))  # fmt: skip


def can_force_question(hands, trump, leader, side, target, objective="max", trick=()) -> Question:
    """The :class:`Question` of a ``DDSolver.can_force`` call with these arguments (not yet answered)."""
    return Question("can_force", _hands(hands), parse_trump(trump), leader, parse_side(side),
                    objective_name(parse_objective(objective)[0]), int(target), _trick(trick))  # fmt: skip


def _hands(hands) -> tuple[int, ...]:
    return tuple(int(h) for h in hands)


def _trick(trick) -> tuple[int, ...]:
    return tuple(parse_card(c) if isinstance(c, str) else int(c) for c in trick)


# ---------------------------------------------------------------- DDS


def dds_solve_s(hands: np.ndarray, trump: int) -> tuple[float, int]:
    """Seconds of one DDS solve of the deal (``trump`` suit, seat 0 = North = eldest on lead) and its tricks."""
    from endplay.dds import analyse_start
    from endplay.types import Deal, Denom, Player

    deal = Deal(deal_name([int(h) for h in hands]))
    deal.trump = (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs)[trump]
    deal.first = Player.north
    t0 = time.process_time()
    tricks = analyse_start(deal, True)
    return time.process_time() - t0, int(tricks)


# ---------------------------------------------------------------- the run


def _sum_counters(questions: list[Question]) -> dict:
    return {name: sum(q.counters[name] for q in questions) for name in COUNTERS}


def run_hand(pos: Position, deals: int, seed: int, rules: RuleSet, solvers: dict, log: list[Question],
             internals: AdviseInternals, slow: list) -> dict:  # fmt: skip
    """Time the whole table and one DDS solve on each of the hand's ``deals`` sampled deals."""
    sample_deal, ask_table, deal_seeds = internals.sample_deal, internals.ask_table, internals.deal_seeds
    ask_bids = internals.ask_bids
    trump = card_suit(pos.turned)
    rows = []
    by_family: dict[str, list[Question]] = {f: [] for f in FAMILIES}
    overhead = 0.0
    for d, word in enumerate(deal_seeds(pos, deals, seed, rules)):
        log.clear()
        t0, w0 = time.process_time(), time.perf_counter()
        answers = ask_table(word, pos, rules, solvers)
        table_questions = len(log)
        ask_bids(word, pos, rules, solvers, answers)
        total, wall = time.process_time() - t0, time.perf_counter() - w0
        hands = sample_deal(word, pos)
        dds_s, dds_tricks = dds_solve_s(hands, trump)
        family_s = dict.fromkeys(FAMILIES, 0.0)
        for i, q in enumerate(log):
            kind = question_kind(q) if i < table_questions else "bid_values"
            by_family[KIND_FAMILY[kind]].append(q)
            family_s[KIND_FAMILY[kind]] += q.seconds
            entry = (q.seconds / dds_s, next(_SEQ), pos, d, kind, q, dds_s)
            if len(slow) < SLOW_KEPT:
                heapq.heappush(slow, entry)
            else:
                heapq.heappushpop(slow, entry)
        family_s["overhead"] = max(0.0, total - sum(q.seconds for q in log))
        overhead += family_s["overhead"]
        rows.append({"deal": d, "pbn": deal_name([int(h) for h in hands]), "cpu_s": total, "wall_s": wall,
                     "dds_s": dds_s, "dds_tricks": dds_tricks, "capped": any(q.capped for q in log),
                     "family_s": {f: round(x, 6) for f, x in family_s.items() if x}})  # fmt: skip
    our = sum(r["cpu_s"] for r in rows)
    dds = sum(r["dds_s"] for r in rows)
    families = {}
    for f in FAMILIES:
        s = overhead if f == "overhead" else sum(q.seconds for q in by_family[f])
        families[f] = {
            "s_per_deal": s / len(rows),
            "dds_solves": s / dds,
            "questions_per_deal": len(by_family[f]) / len(rows),
            "capped_questions": sum(q.capped for q in by_family[f]),
            **_sum_counters(by_family[f]),
        }
    return {
        "name": pos.name,
        "class": pos.cls,
        **pos.describe(),
        "deals": rows,
        "s_per_deal": our / len(rows),
        "dds_s_per_deal": dds / len(rows),
        "dds_solves": our / dds,
        "capped": any(r["capped"] for r in rows),
        "capped_deals": sum(r["capped"] for r in rows),
        "median_deal_s": statistics.median(r["cpu_s"] for r in rows),  # the mean is carried by a few deals
        "families": families,
    }


def startup_s(seed: int) -> float:
    """Start-up of ``wiezen-sim advise`` on an idle machine, in CPU seconds.

    The CPU time of ``wiezen-sim advise`` on the example with 2 samples and 1 job (imports,
    numba cache, two deals), counted twice: with 2 jobs the loky workers repeat the imports
    and the cache load, in parallel, before their first deal. CPU time, not wall time, so
    that other processes on the machine do not inflate it.
    """
    cmd = [sys.executable, "-m", "wiezen_sim.cli", "advise", "--quiet", "--samples", "2", "--jobs", "1",
           "--seed", str(seed)]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 2 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def corpus(slow: list, n: int, tt_mb: dict, node_limit: int) -> list[dict]:
    """The ``n`` costliest questions (in DDS solves of their deal), at most one per hand and kind,
    each re-solved with a fresh solver (node counts that do not depend on earlier questions)."""
    out = []
    seen = set()
    for cost, _, pos, d, kind, q, dds_s in sorted(slow, key=lambda e: (-e[0], e[1])):
        if (pos.name, kind) in seen:
            continue
        seen.add((pos.name, kind))
        # a question capped in the run is not asked again (it would only pass the limit again)
        fresh = None if q.capped else replay_question(q.to_dict(), tt_mb, node_limit)
        out.append({"position": pos.name, **pos.describe(), "deal": d, "kind": kind, "family": KIND_FAMILY[kind],
                    **q.to_dict(), "dds_s": dds_s,
                    "run": {"seconds": q.seconds, "dds_solves": cost, "capped": q.capped, **q.counters},
                    "fresh": fresh})  # fmt: skip
        if len(out) == n:
            break
    return out


def replay_question(entry: dict, tt_mb: dict, node_limit: int | None) -> dict:
    """Ask one corpus question with a fresh solver; its answer, seconds and the kernel's counters."""
    hands = parse_deal(entry["pbn"], cards_per_hand=None)
    trump = parse_trump(entry["trump"])  # "NT" → None
    solver = DDSolver(tt_mb=tt_mb[trump], node_limit=node_limit)
    t0 = time.process_time()
    try:
        if entry["method"] == "solve":
            answer = solver.solve(hands, trump, entry["leader"], entry["side"], entry["objective"],
                                  trick=entry["trick"])  # fmt: skip
        else:
            answer = solver.can_force(hands, trump, entry["leader"], entry["side"], entry["target"],
                                      entry["objective"], entry["trick"])  # fmt: skip
    except NodeLimitExceeded:
        answer = None
    seconds = time.process_time() - t0
    return {"answer": answer, "seconds": seconds, "capped": answer is None,
            **{name: int(solver.stats[i]) for name, i in COUNTERS.items()}}  # fmt: skip


def replay(path: Path, node_limit: int) -> int:
    """Re-ask every question of a corpus file with fresh solvers; compare answers and node counts."""
    tt_mb = advise_internals().tt_mb
    entries = json.loads(path.read_text())["questions"]
    bad = 0
    for e in entries:
        r = replay_question(e, tt_mb, node_limit)
        same = r["answer"] is None or e["answer"] is None or r["answer"] == e["answer"]
        bad += not same
        recorded = "capped in the run" if e["fresh"] is None else f"recorded {e['fresh']['trick_nodes']:,}"
        print(f"{e['position']:<20} {e['kind']:<15} {r['seconds']:8.3f} s CPU  trick nodes {r['trick_nodes']:>11,} "
              f"({recorded})  answer {'capped' if r['capped'] else r['answer']}"
              + ("" if same else f"  MISMATCH (recorded {e['answer']})"))  # fmt: skip
    return 1 if bad else 0


def _quantiles(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {f"p{q}": float(np.quantile(xs, q / 100)) for q in (25, 50, 75, 90)} | {"max": xs[-1]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=None, help="only the first N positions (classes interleaved)")
    ap.add_argument("--deals", type=int, default=10, help="sampled deals per hand (default 10)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="suite seed, also advise's --seed for the deals")
    ap.add_argument("--classes", default=None, help="comma-separated class names (default all)")
    ap.add_argument("--node-limit", type=int, default=DEFAULT_NODE_LIMIT,
                    help=f"trick nodes per question before it is capped (default {DEFAULT_NODE_LIMIT:,})")  # fmt: skip
    ap.add_argument("--corpus", type=int, default=20, help="slowest questions saved to --corpus-out (default 20)")
    ap.add_argument("--corpus-out", type=Path, default=None,
                    help="where the slowest questions go (default: beside --out, named after it with "
                         f"_slow_questions; the corpus kept with the code: {CORPUS.relative_to(ROOT)})")  # fmt: skip
    ap.add_argument("--skip-startup", action="store_true", help="project without the measured start-up time")
    ap.add_argument("--replay", type=Path, default=None, help="re-solve a corpus file's questions and stop")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if args.replay:
        return replay(args.replay, args.node_limit)
    if args.corpus_out is None:
        args.corpus_out = args.out.with_name(f"{args.out.stem}_slow_questions.json")
    if args.deals < 1 or (args.hands is not None and args.hands < 1) or args.node_limit < 1:
        ap.error("--deals, --hands and --node-limit must be positive")

    import endplay
    import endplay._dds as _dds
    import numba

    _dds.SetMaxThreads(1)
    classes = None if args.classes is None else [c.strip() for c in args.classes.split(",")]
    try:
        positions = suite_positions(args.seed, classes, args.hands)
    except ValueError as exc:
        ap.error(str(exc))
    internals = advise_internals()
    tt_mb, default_samples = internals.tt_mb, internals.default_samples
    fewest, most = samples_used(default_samples)
    rules = get_rules()
    log: list[Question] = []
    solvers = {t: TimedSolver(mb, args.node_limit, log) for t, mb in tt_mb.items()}

    # warm-up (numba cache load, endplay): a troel hand asks every kind of question
    t0 = time.perf_counter()
    warm = suite_positions(args.seed + 1, ["troel_3_aces", "random_eldest"], 2)
    for pos in warm:
        run_hand(pos, 1, args.seed + 1, rules, solvers, log, internals, [])
    warmup_s = time.perf_counter() - t0
    start = 0.0 if args.skip_startup else startup_s(args.seed)
    print(f"{len(positions)} hands x {args.deals} deals; warm-up {warmup_s:.1f} s; advise start-up {start:.1f} s",
          flush=True)  # fmt: skip

    load_before = os.getloadavg()
    t_run = time.perf_counter()
    slow: list = []
    hands = []
    for i, pos in enumerate(positions):
        rec = run_hand(pos, args.deals, args.seed, rules, solvers, log, internals, slow)
        # bounds, not an estimate (samples_used): the stop rule's first round and its ceiling
        rec["projected_s_first_round"] = projected_wall_s(rec["s_per_deal"], fewest, start)
        rec["projected_s_ceiling"] = projected_wall_s(rec["s_per_deal"], most, start)
        hands.append(rec)
        worst = max(FAMILIES, key=lambda f: rec["families"][f]["dds_solves"])
        capped = f" ({rec['capped_deals']} deals capped)" if rec["capped"] else ""
        print(f"[{i + 1}/{len(positions)}] {pos.name:<20} {rec['hand']:<28} {rec['seat']:<6} {rec['turned']:<3} "
              f"{rec['s_per_deal']:7.3f} s/deal {rec['dds_solves']:8.1f} DDS"
              f"{capped}"
              f"  worst {worst} {rec['families'][worst]['dds_solves']:.1f}", flush=True)  # fmt: skip
    run_s = time.perf_counter() - t_run

    costs = [h["dds_solves"] for h in hands]
    per_family = {f: _quantiles([h["families"][f]["dds_solves"] for h in hands]) for f in FAMILIES}
    # a second unit, the same for every hand: the run's median DDS solve (DDS is much faster on
    # some deals than on others, e.g. with a long trump suit, which inflates a same-deal ratio)
    unit_s = statistics.median(r["dds_s"] for h in hands for r in h["deals"])
    for h in hands:
        h["median_dds_units"] = h["s_per_deal"] / unit_s
        for f in FAMILIES:
            h["families"][f]["median_dds_units"] = h["families"][f]["s_per_deal"] / unit_s
    per_family_units = {f: _quantiles([h["families"][f]["median_dds_units"] for h in hands]) for f in FAMILIES}
    share = {f: sum(h["families"][f]["s_per_deal"] for h in hands) / sum(h["s_per_deal"] for h in hands)
             for f in FAMILIES}  # fmt: skip
    by_class = {}
    for h in hands:
        by_class.setdefault(h["class"], []).append(h["dds_solves"])
    questions = corpus(slow, args.corpus, tt_mb, args.node_limit)
    report = {
        "command": " ".join(["python", "experiments/benchmarks/advise_suite.py", *(argv or sys.argv[1:])]),
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": os.cpu_count(),
            "load_average_before": load_before,
            "load_average_after": os.getloadavg(),
        },
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "numba": numba.__version__,
            "endplay": endplay.__version__,
        },
        "git_commit": git_commit(),
        "threads": 1,
        "seed": args.seed,
        "deals_per_hand": args.deals,
        "node_limit_trick_nodes": args.node_limit,
        "default_samples": default_samples,
        "projection": {
            "first_round_deals": fewest,
            "ceiling_deals": most,
            "note": f"advise stops by its stop rule after a round of {fewest}, {2 * fewest}, {4 * fewest}, ... "
            "deals, at the latest at "
            "its ceiling (samples); these deals cannot tell where, so projected_s_first_round is a lower "
            "bound and projected_s_ceiling an upper bound of the default run's wall time",
        },
        "jobs_projected": JOBS,
        "advise_startup_s": start,
        "warmup_s": warmup_s,
        "run_s": run_s,
        "dds_solve_s": {
            "median": statistics.median(r["dds_s"] for h in hands for r in h["deals"]),
            "mean": statistics.mean(r["dds_s"] for h in hands for r in h["deals"]),
        },
        "summary": {
            "hands": len(hands),
            "capped_hands": [h["name"] for h in hands if h["capped"]],
            "dds_solves_per_deal": _quantiles(costs),
            "median_dds_units_per_deal": _quantiles([h["median_dds_units"] for h in hands]),
            "projected_s_first_round": _quantiles([h["projected_s_first_round"] for h in hands]),
            "projected_s_ceiling": _quantiles([h["projected_s_ceiling"] for h in hands]),
            "per_family_dds_solves": per_family,
            "per_family_median_dds_units": per_family_units,
            "time_share_by_family": share,
            "per_class_median_dds_solves": {c: statistics.median(v) for c, v in by_class.items()},
            "worst_hands": [{k: h[k] for k in WORST_KEYS} for h in sorted(hands, key=lambda h: -h["dds_solves"])[:10]],
        },
        "hands": hands,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    args.corpus_out.parent.mkdir(parents=True, exist_ok=True)
    args.corpus_out.write_text(json.dumps({"made_by": report["command"], "git_commit": report["git_commit"],
                                           "node_limit_trick_nodes": args.node_limit,
                                           # this file's own code for no trump is -1 (JSON keys are text)
                                           "tt_mb": {-1 if t is NO_TRUMP else t: mb for t, mb in tt_mb.items()},
                                           "questions": questions}, indent=1) + "\n")  # fmt: skip

    print(f"\nrun {run_s:.0f} s; DDS solve median {report['dds_solve_s']['median'] * 1e3:.1f} ms; "
          f"load {load_before[0]:.1f} -> {os.getloadavg()[0]:.1f}")  # fmt: skip
    print("per family: DDS solves of the same deals p50 / p90 / max, in median DDS solves p50 / p90 / max, time share")
    for f in FAMILIES:
        q, u = per_family[f], per_family_units[f]
        print(f"{f:<15} {q['p50']:8.2f} {q['p90']:8.2f} {q['max']:8.1f}   {u['p50']:8.2f} {u['p90']:8.2f} "
              f"{u['max']:8.1f}   {share[f]:6.1%}")  # fmt: skip
    u = report["summary"]["median_dds_units_per_deal"]
    print(f"whole table in median DDS solves: p50 {u['p50']:.2f}, p90 {u['p90']:.2f}, max {u['max']:.1f}")
    print("class medians: " + ", ".join(f"{c} {statistics.median(v):.1f}" for c, v in by_class.items()))
    for h in report["summary"]["worst_hands"][:5]:
        print(f"worst: {h['name']} {h['hand']} {h['seat']} {h['turned']}: {h['dds_solves']:.1f} DDS solves/deal "
              f"({h['median_dds_units']:.1f} median DDS solves), projected {h['projected_s_first_round']:.0f}"
              f"-{h['projected_s_ceiling']:.0f} s ({fewest}-{most} deals)"
              f"{' (capped: lower bound)' if h['capped'] else ''}")  # fmt: skip
    capped = report["summary"]["capped_hands"]
    print(f"capped hands (costs are lower bounds): {len(capped)}" + (f" ({', '.join(capped)})" if capped else ""))
    print(f"wrote {args.out} and {args.corpus_out}")
    print(f"advise_suite_max_s_first_round_lower_bound: {max(h['projected_s_first_round'] for h in hands):.1f}")
    print(f"advise_suite_p50_dds_solves: {statistics.median(costs):.2f}")
    print(f"advise_suite_max_dds_solves: {max(costs):.2f}")
    print(f"advise_suite_max_s: {max(h['projected_s_ceiling'] for h in hands):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
