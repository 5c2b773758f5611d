"""Benchmark: the default ``wiezen-sim advise HAND`` run itself, stop rule and all, over the hand suite (issue 18).

    python experiments/benchmarks/advise_runs.py [--hands N] [--classes a,b] [--budget CPU_S] [--resume]

``advise_suite.py`` times the whole contract table on a few deals per hand, so it can only bound the
default run's wall time (the first round below, the ceiling of 1000 deals with every question above).
This one runs what a player runs: ``advise(hand, seat, turned)`` with the defaults (1000 sampled deals
as the ceiling, the stop rule on, seed 1), in this process (``n_jobs=1``), per position of the same
suite (``hand_suite.py``, interleaved by class), and records the deals it took, its recommendation and
its CPU seconds (``time.process_time``: other processes on a shared machine do not inflate it). In the
same run DDS (endplay ``analyse_start``, one thread; the turned suit trump, eldest on lead) solves every
deal the run sampled, so the cost is also given per sampled deal in DDS solves of those deals.

The wall time of the default run with 2 jobs on a 2-core machine is projected as the start-up plus the
CPU seconds shared by the 2 workers (``advise_suite.projected_wall_s``; the rounds' ends, where one worker
may wait for the other, are left out). The start-up is measured, not modelled: the wall time of
``wiezen-sim advise --samples 2 --jobs 2`` (imports, the workers' start, numba's cache, two deals), the
fastest of :data:`STARTUP_RUNS`, at the start of the run (the load average is recorded beside it: on a
busy machine it is an overestimate).

A hand whose run passes ``--budget`` CPU seconds is stopped (a CPU-time timer, which acts only between two
solver questions: a single long question runs on past it) and reported as
``over_budget`` with its time as a lower bound (never as fast); its deals are then unknown.
Every double-dummy question of the run is timed by who asked it (the contract table or the bid values) and by
kind (:class:`QuestionClock`), per hand and as shares of the CPU over the hands (``question_share_of_cpu``).
Results go to results/benchmarks/advise_runs.json after every hand, each hand with the commit it was run at
(``--resume`` keeps the hands of an earlier file with the same settings, whatever their commit: resume only
across commits that leave the advisor's numbers and costs alone; ``commits`` in the summary lists them).
Prints as its last lines ``advise_runs_p50_s``, ``advise_runs_max_s`` (projected 2-job wall seconds,
median and worst hand) and ``advise_runs_p50_dds_solves`` / ``advise_runs_max_dds_solves`` (CPU per sampled
deal in DDS solves).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "advise_runs.json"
sys.path.insert(0, str(ROOT))

from experiments.benchmarks.advise_suite import (  # noqa: E402
    Question,
    can_force_question,
    dds_solve_s,
    projected_wall_s,
    question_kind,
    solve_question,
)
from experiments.benchmarks.hand_suite import DEFAULT_SEED, Position, suite_positions  # noqa: E402
from wiezen_sim.analysis.advise import advise  # noqa: E402
from wiezen_sim.analysis.advise.bids import PassedDeals  # noqa: E402
from wiezen_sim.analysis.advise.deals import sample_hands  # noqa: E402
from wiezen_sim.analysis.advise.play import default_model  # noqa: E402
from wiezen_sim.analysis.advise.report import option_name  # noqa: E402
from wiezen_sim.analysis.provenance import git_commit, machine_info, package_versions  # noqa: E402
from wiezen_sim.cards import card_suit  # noqa: E402
from wiezen_sim.rules.ruleset import get_rules  # noqa: E402
from wiezen_sim.solvers.dd import DDSolver  # noqa: E402

SEED = 1  # advise's default seed
# advise's default accept_tricks: its bidding model's, which decides the deals it samples
ACCEPT = inspect.signature(advise).parameters["accept_tricks"].default
STARTUP_RUNS = 3  # start-up timings, the fastest kept
BUDGET_S = 600.0  # CPU seconds per hand before its run is stopped (300 s of 2-job wall: 10 times the target)


class OverBudget(Exception):
    """The hand's run passed its CPU budget."""


def _over_budget(signum, frame) -> None:
    raise OverBudget


def startup_wall_s() -> float:
    """Wall seconds of ``wiezen-sim advise --quiet --samples 2 --jobs 2 --seed 1`` on the example, the fastest of
    :data:`STARTUP_RUNS`."""
    cmd = [sys.executable, "-m", "wiezen_sim.cli", "advise", "--quiet", "--samples", "2", "--jobs", "2", "--seed", "1"]
    times = []
    for _ in range(STARTUP_RUNS):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
    return min(times)


class QuestionClock:
    """CPU seconds and counts of the run's double-dummy questions, by who asked them (``table``: the contract
    table, ``dd_table.py``; ``bid_values``: the rest of the auction, ``bids.py``) and by kind
    (``advise_suite.question_kind``), from wrappers around ``DDSolver.solve`` and ``can_force`` while inside.
    The whole run is seen, every round and every rare question (another seat's misère in the bid values),
    where advise_suite.py's family split sees the whole table on a few deals."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.counts: dict[str, int] = {}

    def __enter__(self) -> QuestionClock:
        self.saved = DDSolver.solve, DDSolver.can_force
        solve, can_force = self.saved
        clock = self

        def timed_solve(solver, hands, trump, leader, side, objective="max", k=None, trick=(), played=()):
            t0 = time.process_time()
            answer = solve(solver, hands, trump, leader, side, objective, k, trick, played)
            seconds = time.process_time() - t0
            clock.add(solve_question(hands, trump, leader, side, objective, k, trick), seconds)
            return answer

        def timed_can_force(solver, hands, trump, leader, side, target, objective="max", trick=()):
            t0 = time.process_time()
            answer = can_force(solver, hands, trump, leader, side, target, objective, trick)
            seconds = time.process_time() - t0
            clock.add(can_force_question(hands, trump, leader, side, target, objective, trick), seconds)
            return answer

        DDSolver.solve, DDSolver.can_force = timed_solve, timed_can_force
        return self

    def __exit__(self, *exc: object) -> None:
        DDSolver.solve, DDSolver.can_force = self.saved

    def add(self, q: Question, seconds: float) -> None:
        frame, source = sys._getframe(2), "other"
        while frame is not None:
            name = Path(frame.f_code.co_filename).name
            if name in ("bids.py", "dd_table.py"):
                source = "bid_values" if name == "bids.py" else "table"
                break
            frame = frame.f_back
        key = f"{source}:{question_kind(q)}"
        self.seconds[key] = self.seconds.get(key, 0.0) + seconds
        self.counts[key] = self.counts.get(key, 0) + 1


def run_position(pos: Position, budget_s: float, commit: str | None) -> dict:
    """The default advise run of one position: CPU seconds, deals, recommendation, and DDS on the same deals.

    ``commit`` is the code's commit as imported at the run's start (HEAD may move during a long run)."""
    signal.signal(signal.SIGPROF, _over_budget)
    signal.setitimer(signal.ITIMER_PROF, budget_s)
    t0 = time.process_time()
    clock = QuestionClock()
    try:
        with clock:
            advice = advise(pos.hand, pos.seat, pos.turned, seed=SEED, n_jobs=1, progress=False)
    except OverBudget:
        return {"name": pos.name, "class": pos.cls, **pos.describe(), "git_commit": commit, "over_budget": True,
                "cpu_s": time.process_time() - t0, **_questions(clock)}  # fmt: skip
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    cpu = time.process_time() - t0
    deals = int(advice.meta["deals"])
    dds = dds_seconds(pos, deals)
    return {
        "name": pos.name,
        "class": pos.cls,
        **pos.describe(),
        "git_commit": commit,
        "over_budget": False,
        "cpu_s": cpu,
        "deals": deals,
        "cpu_s_per_deal": cpu / deals,
        "dds_s": dds,
        "dds_solves": cpu / dds,
        "recommendation": option_name(advice.recommendation),
        **_questions(clock),
    }


def _shares(hands: list[dict]) -> dict[str, float]:
    """Each source and kind of question's share of the hands' CPU seconds together (the rest: Python around
    the questions, the auctions, sampling), costliest first."""
    total = sum(h["cpu_s"] for h in hands)
    seconds: dict[str, float] = {}
    for h in hands:
        for k, x in h.get("question_cpu_s", {}).items():
            seconds[k] = seconds.get(k, 0.0) + x
    return {k: round(x / total, 4) for k, x in sorted(seconds.items(), key=lambda kx: -kx[1])} if total else {}


def _questions(clock: QuestionClock) -> dict:
    """The run's questions by source and kind, costliest first: CPU seconds and counts."""
    keys = sorted(clock.seconds, key=lambda k: -clock.seconds[k])
    return {"question_cpu_s": {k: round(clock.seconds[k], 4) for k in keys},
            "question_counts": {k: clock.counts[k] for k in keys}}  # fmt: skip


def summary(hands: list[dict], start_s: float) -> dict:
    """Median and worst over the hands: projected 2-job wall seconds and DDS solves per deal (over-budget hands
    count with their budget's time, a lower bound, and are named)."""
    for h in hands:
        h["projected_wall_s"] = projected_wall_s(h["cpu_s"], 1, start_s)
    walls = sorted(hands, key=lambda h: h["projected_wall_s"])
    timed = sorted((h for h in hands if not h["over_budget"]), key=lambda h: h["dds_solves"])
    return {
        "hands": len(hands),
        "commits": sorted({h["git_commit"] for h in hands}),
        "over_budget": [h["name"] for h in hands if h["over_budget"]],
        "p50_s": statistics.median(h["projected_wall_s"] for h in hands),
        "max_s": walls[-1]["projected_wall_s"],
        "worst_hand": {k: walls[-1].get(k) for k in ("name", "hand", "seat", "turned", "deals", "over_budget")},
        "p50_dds_solves": statistics.median(h["dds_solves"] for h in timed) if timed else None,
        "max_dds_solves": timed[-1]["dds_solves"] if timed else None,
        "p50_deals": statistics.median(h["deals"] for h in timed) if timed else None,
        "question_share_of_cpu": _shares(hands),
    }


def suite_args(doc: str, limit: str, default: float, unit: str, out: Path, argv: list[str] | None) -> tuple:
    """The suite benchmarks' command line (``--hands``, ``--classes``, ``--seed``, ``--LIMIT`` per hand in ``unit``,
    ``--resume``, ``--out``): the parsed arguments and the positions; DDS set to one thread."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--hands", type=int, default=None, help="only the first N positions (classes interleaved)")
    ap.add_argument("--classes", default=None, help="comma-separated class names (default all)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="suite seed (which hands)")
    ap.add_argument(f"--{limit}", type=float, default=default, help=f"{unit} per hand (default {default:g})")
    ap.add_argument("--resume", action="store_true", help="keep the hands of --out with these settings (any commit)")
    ap.add_argument("--out", type=Path, default=out)
    args = ap.parse_args(argv)
    if (args.hands is not None and args.hands < 1) or getattr(args, limit) <= 0:
        ap.error(f"--hands and --{limit} must be positive")
    classes = None if args.classes is None else [c.strip() for c in args.classes.split(",")]
    try:
        positions = suite_positions(args.seed, classes, args.hands)
    except ValueError as exc:
        ap.error(str(exc))
    import endplay._dds as _dds

    _dds.SetMaxThreads(1)
    return args, positions


def resumed(out: Path, settings: dict, resume: bool) -> dict[str, dict]:
    """The hands of an earlier ``out`` run with the same settings, by name (``resume``), else none."""
    if resume and out.exists():
        old = json.loads(out.read_text())
        if old.get("settings") == settings:
            return {h["name"]: h for h in old["hands"]}
    return {}


def dds_seconds(pos: Position, deals: int) -> float:
    """DDS's seconds (one thread) to solve the first ``deals`` deals the default advise run samples for ``pos``."""
    trump = card_suit(pos.turned)
    seeds = PassedDeals(SEED, pos.hand, pos.seat, pos.turned, get_rules(), default_model(ACCEPT)).seeds(deals)
    return sum(dds_solve_s(sample_hands(word, pos.hand, pos.seat, pos.turned), trump)[0] for word in seeds)


def run_suite(positions: list[Position], done: dict[str, dict], header: dict, path: Path, load: tuple,
              run: Callable[[Position], dict], line: Callable[[dict], str],
              summarise: Callable[[list[dict]], dict]) -> list[dict]:  # fmt: skip
    """Each position's result (``done``'s, else ``run``), printed with its ``line`` and written to ``path`` after
    every hand with ``header`` (its machine facts renewed, ``load`` the load average at the start) and
    ``summarise`` of the hands so far; returns the hands."""
    path.parent.mkdir(parents=True, exist_ok=True)
    hands = []
    for pos in positions:
        h = done.get(pos.name) or run(pos)
        hands.append(h)
        print(f"{pos.name:22s} {h['hand']:28s} {h['seat']:7s} {h['turned']:3s} {line(h)}", flush=True)
        header["machine"] = machine_info(load)
        path.write_text(json.dumps({**header, "summary": summarise(hands), "hands": hands}, indent=1) + "\n")
    return hands


def main(argv: list[str] | None = None) -> int:
    args, positions = suite_args(__doc__, "budget", BUDGET_S, "CPU seconds", OUT, argv)
    import endplay

    settings = {"suite_seed": args.seed, "advise_seed": SEED, "budget_cpu_s": args.budget}
    done = resumed(args.out, settings, args.resume)
    commit = git_commit()  # before anything runs: the code imported is the code of this commit
    load = os.getloadavg()
    start = startup_wall_s()
    advise("S:AKQJ98 H:AK2 D:K3 C:52", "eldest", "7H", samples=2, n_jobs=1, progress=False)  # numba cache load
    out = {
        "command": "python experiments/benchmarks/advise_runs.py " + " ".join(argv or sys.argv[1:]),
        "git_commit": commit,
        "settings": settings,
        "machine": machine_info(load),
        "versions": {**package_versions(), "endplay": endplay.__version__},
        "advise_startup_wall_s": start,
    }

    def line(h: dict) -> str:
        cost = "over budget" if h["over_budget"] else f"{h['deals']} deals, {h['dds_solves']:.1f} DDS solves a deal"
        return f"{h['cpu_s']:7.1f} CPU s, {cost}"

    hands = run_suite(positions, done, out, args.out, load, lambda pos: run_position(pos, args.budget, commit), line,
                      lambda hands: summary(hands, start))  # fmt: skip
    s = summary(hands, start)
    print(f"worst: {s['worst_hand']}")
    print("share of the CPU by question (source:kind): " + ", ".join(f"{k} {x:.1%}" for k, x in
                                                                      s["question_share_of_cpu"].items()))  # fmt: skip
    print(f"advise_runs_p50_s: {s['p50_s']:.1f}")
    print(f"advise_runs_max_s: {s['max_s']:.1f}")
    print(f"advise_runs_p50_dds_solves: {s['p50_dds_solves']}")
    print(f"advise_runs_max_dds_solves: {s['max_dds_solves']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
