"""PIMC cost: decisions per second for M = 16 and 32 worlds, DD solves per second on the same positions;
with ``--advise``, the wall time of ``advise --method pimc`` beside the double-dummy table (issue 19 part 5).

``python experiments/benchmarks/pimc_cost.py [--positions N] [--budget MINUTES]``

``python experiments/benchmarks/pimc_cost.py --advise [--suite K [--skip J] [--pimc-only]] [--samples 200]
[--jobs 2] [--timeout S] [--deals N --baseline DIR] [--by-contract] [--out PATH]``

Advise mode. For the README's example hand (and the first ``K`` positions of the hand suite,
``experiments/benchmarks/hand_suite.py``), times the command ``wiezen-sim advise HAND --seat S
--turned C --method pimc --samples 200 --jobs 2`` (a subprocess, wall clock with its start-up, stop
rule on, killed after ``--timeout`` seconds; ``pimc_cpu_s``: the CPU seconds of that process and the
workers it reaped, which tells a run that waited from one that worked), then the double-dummy table
(``--method dd``) on the same deals (the first ``deals`` seed words the pimc run drew, stop rule off;
the whole run's deals when pimc did not finish), and prints the ratio. With ``--baseline DIR`` (another checkout, e.g.
``git archive main``) it also plays ``--deals`` deals without the stop rule with this code and with
DIR's, back to back in the same conditions (each after a warm-up in its own process, which loads
the numba cache into the workers), and prints the before/after ratio. With ``--by-contract`` it times instead, per
position and per contract of its table, the CPU seconds of the advisor's first round (``FIRST_LOOK`` deals,
where every contract is still played) under ``pimc`` and under ``dd``, one process each, and writes
``results/benchmarks/pimc_first_round.json``. ``--skip J`` leaves out the example and the first ``J`` of the
``K`` suite positions (a long run in parts); ``--pimc-only`` times the pimc command alone (no dd table). The load
average is recorded with every figure: the machine is shared, so only the ratios timed in one run compare. Writes
``results/benchmarks/pimc_cost_advise.json`` (or ``--out``) after every position, so a run stopped part-way keeps
the positions it finished.

Positions: the non-forced decisions at tricks 1, 4 and 8 of seeded deals played by
the heuristic players (solo, abondance, miserie; eldest declares). On each position
the PIMC player's decision is timed for M = 16 and 32 (zero-window tests asked are
counted), and the true deal is solved double dummy for the declaring side (full
solve, ``DDSolver.solve``). Then full deals are played by four PIMC players (M = 16)
in 2 processes for a wall-clock budget; ``pimc_deals_per_minute`` is the deals
finished per minute. Every part runs under a deadline: the DD kernel has rare
positions that take minutes, and what did not finish is reported. Writes
``results/benchmarks/pimc_cost.json``; prints ``pimc_deals_per_minute: X`` last.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

from wiezen_sim.analysis.advise.stopping import FIRST_LOOK
from wiezen_sim.kernel.dd import STAT_SEARCHES
from wiezen_sim.rules.auction import Declaration
from wiezen_sim.rules.dealing import deal_packets, new_deck
from wiezen_sim.rules.play import PlayView, play_hand, setup_play
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.solvers.players import PimcPlayer, card_classes, heuristic_card, pimc_solver, play_deal

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "pimc_cost.json"
ADVISE_OUT = ROOT / "results" / "benchmarks" / "pimc_cost_advise.json"
FIRST_ROUND_OUT = ROOT / "results" / "benchmarks" / "pimc_first_round.json"
CONTRACTS = (("solo", None), ("abondance", 0), ("miserie", None))
CHECKPOINTS = (0, 3, 7)  # tricks already played at the sampled decisions


def seeded_deals(n: int, seed: int) -> list[tuple]:
    """``n`` (deal, declaration) pairs: eldest declares solo, abondance in spades or miserie in turn."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        deal = deal_packets(new_deck(rng), int(rng.integers(4)))
        contract, trump = CONTRACTS[i % len(CONTRACTS)]
        out.append((deal, Declaration(contract, ((deal.dealer + 1) % 4,), trump=trump)))
    return out


def positions(n: int, seed: int) -> list[tuple]:
    """(deal, declaration, view) of ``n`` non-forced decisions from heuristic play."""
    out: list[tuple] = []
    for deal, decl in seeded_deals(n, seed):
        views: list[PlayView] = []

        def spy(view: PlayView, views=views) -> int:
            if len(view.history) in CHECKPOINTS and len(card_classes(view.legal, view.hand, 0)) > 1:
                views.append(view)
            return heuristic_card(view)

        play_hand(setup_play([decl], deal, get_rules()), deal.hands, [spy] * 4)
        by_trick: dict[int, PlayView] = {}
        for v in views:
            by_trick.setdefault(len(v.history), v)
        out += [(deal, decl, v) for v in by_trick.values()]
        if len(out) >= n:
            return out[:n]
    return out


def time_position(task: tuple) -> dict:
    """Time one PIMC decision per M and one full DD solve of the true deal (a worker task)."""
    deal, decl, view = task
    row: dict = {"trick": len(view.history) + 1, "contract": decl.contract}
    for m in (16, 32):
        solver = pimc_solver()
        player = PimcPlayer(m, np.random.default_rng(1), solver=solver)
        player.start(deal, None)
        searches = int(solver.stats[STAT_SEARCHES])
        t0 = time.perf_counter()
        player(view)
        row[f"pimc{m}_s"] = time.perf_counter() - t0
        row[f"pimc{m}_tests"] = int(solver.stats[STAT_SEARCHES]) - searches
        row[f"pimc{m}_worlds_dropped"] = player.worlds_dropped
    played = {c for _, cards, _ in view.history for c in cards} | set(view.trick)
    hands = [h & ~sum(1 << c for c in played) for h in deal.hands]
    trump = view.setup.trump  # None: no trump
    objective = "min" if decl.contract == "miserie" else "max"
    t0 = time.perf_counter()
    DDSolver(tt_mb=32).solve(hands, trump, view.leader, view.setup.side, objective, trick=view.trick)
    row["dd_solve_s"] = time.perf_counter() - t0
    return row


def play_one(task: tuple) -> float:
    """Play one deal with four PIMC players (M = 16); returns seconds."""
    deal, decl = task
    t0 = time.perf_counter()
    play_deal(deal, decl, "pimc:16", seed=1)
    return time.perf_counter() - t0


def run(func, tasks: list, seconds: float) -> tuple[list, int]:
    """Run ``func`` over ``tasks`` in 2 processes until done or ``seconds`` pass: (results, unfinished)."""
    deadline = time.perf_counter() + seconds
    results = []
    with mp.get_context("spawn").Pool(2) as pool:
        jobs = [pool.apply_async(func, (t,)) for t in tasks]
        for job in jobs:
            try:
                results.append(job.get(timeout=max(deadline - time.perf_counter(), 0.01)))
            except mp.TimeoutError:
                continue
        pool.terminate()
    return results, len(tasks) - len(results)


def timed(argv: list[str], code: Path, timeout: float) -> tuple[float, float, str | None]:
    """Run ``python argv`` with ``code`` first on the import path: (wall seconds, CPU seconds of the process and
    the workers it reaped, stdout or None when killed after ``timeout``). The whole process group is killed (the
    advisor's worker processes too)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *argv], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, start_new_session=True)  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return time.perf_counter() - t0, _cpu_since(before), None
    if proc.returncode:
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}")
    return time.perf_counter() - t0, _cpu_since(before), out


def _cpu_since(before: resource.struct_rusage) -> float:
    """User and system CPU seconds of the children reaped since ``before``."""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def played(position: dict, method: str, deals: int, jobs: int) -> dict:
    """A worker run (``--played``): advise ``deals`` deals without the stop rule, after a one-deal double-dummy
    warm-up in this process (the workers load the numba cache); the advise call's wall seconds and its counts."""
    from wiezen_sim.analysis.advise import advise

    kwargs = dict(samples=deals, seed=1, n_jobs=jobs, backend="loky", method=method, progress=False, stop=False)
    advise(position["hand"], position["seat"], position["turned"], **{**kwargs, "samples": 1, "method": "dd"})
    t0 = time.perf_counter()
    meta = advise(position["hand"], position["seat"], position["turned"], **kwargs).meta
    counts = {k: meta[k] for k in meta if k in ("deals", "pimc_decisions", "worlds_dropped") or "auction" in k}
    return {"seconds": time.perf_counter() - t0, **counts}


def by_contract(position: dict, deals: int) -> dict:
    """A worker run (``--by-contract``): per contract of the position's double-dummy table, the CPU seconds of
    ``advise --method pimc`` and ``--method dd`` on that contract alone, ``deals`` deals without the stop rule,
    in this process (after a warm-up): the first round's cost by contract."""
    from wiezen_sim.analysis.advise import advise

    where = (position["hand"], position["seat"], position["turned"])
    kwargs = dict(samples=deals, seed=1, n_jobs=1, progress=False, stop=False)
    names = list(dict.fromkeys(advise(*where, **{**kwargs, "samples": 1}).table.contract))
    out = {}
    for name in names:
        row = {}
        for method in ("pimc", "dd"):
            t0 = time.process_time()
            advise(*where, **kwargs, method=method, contracts=[name])
            row[f"{method}_cpu_s"] = round(time.process_time() - t0, 2)
        out[name] = row
    return out


def first_round_mode(args: argparse.Namespace, positions: list[dict]) -> None:
    """``--by-contract`` (module docstring): writes ``FIRST_ROUND_OUT``."""
    from wiezen_sim.analysis.provenance import git_commit, machine_info, package_versions

    load_start = os.getloadavg()
    rows = []
    for pos in positions:
        load = os.getloadavg()[0]
        _, _, out = timed([__file__, "--by-contract", json.dumps(pos), str(FIRST_LOOK)], ROOT, args.timeout)
        per = None if out is None else json.loads(out)
        rows.append({**pos, "deals": FIRST_LOOK, "load_1min_before": load, "by_contract": per})
        if per:
            total = sum(r["pimc_cpu_s"] for r in per.values())
            worst = max(per, key=lambda c: per[c]["pimc_cpu_s"])
            print(f"{pos['name']}: pimc {total:.0f} CPU s on {FIRST_LOOK} deals, dd "
                  f"{sum(r['dd_cpu_s'] for r in per.values()):.1f}; most: {worst} {per[worst]['pimc_cpu_s']:.0f} s",
                  flush=True)  # fmt: skip
    report = {"command": "python experiments/benchmarks/pimc_cost.py " + " ".join(sys.argv[1:]),
              "git_commit": git_commit(), "machine": machine_info(load_start), "versions": package_versions(),
              "positions": rows}  # fmt: skip
    FIRST_ROUND_OUT.write_text(json.dumps(report, indent=2) + "\n")


def write_report(args: argparse.Namespace, load_start: tuple, rows: list[dict], before_after: dict | None) -> None:
    """Write the advise mode's JSON (``--out``, default ``ADVISE_OUT``) with the positions timed so far."""
    from wiezen_sim.analysis.provenance import git_commit, machine_info, package_versions

    timed_s = sorted(r["pimc_s"] for r in rows if r["pimc_finished"])
    report = {
        "command": "python experiments/benchmarks/pimc_cost.py " + " ".join(sys.argv[1:]),
        "git_commit": git_commit(),
        "machine": machine_info(load_start),
        "versions": package_versions(),
        "pimc_s_median": float(np.median(timed_s)) if timed_s else None,
        "pimc_s_max": max((r["pimc_s"] for r in rows), default=None),
        "positions_killed": [r["name"] for r in rows if not r["pimc_finished"]],
        "positions": rows,
        "before_after": before_after,
    }
    out = Path(args.out) if args.out else ADVISE_OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")


def advise_mode(args: argparse.Namespace) -> None:
    """The advise mode of the module docstring."""
    from experiments.benchmarks.hand_suite import suite_positions
    from wiezen_sim.analysis.advise import EXAMPLE

    load_start = os.getloadavg()
    positions = [] if args.skip else [{"name": "example", **EXAMPLE}]
    positions += [{"name": p.name, **p.describe()} for p in suite_positions(limit=args.suite)[args.skip :]]
    if args.by_contract:
        first_round_mode(args, positions)
        return
    rows = []
    for pos in positions:
        where = [pos["hand"], "--seat", pos["seat"], "--turned", pos["turned"]]
        cli = ["-m", "wiezen_sim.cli", "advise", *where, "--method", "pimc", "--samples", str(args.samples),
               "--jobs", str(args.jobs), "--format", "json", "--quiet"]  # fmt: skip
        load = os.getloadavg()[0]
        wall, cpu, out = timed(cli, ROOT, args.timeout)
        row: dict = {**pos, "command": "wiezen-sim " + " ".join(cli[2:-3]), "load_1min_before": load}
        row["pimc_s"], row["pimc_cpu_s"], row["pimc_finished"] = wall, cpu, out is not None
        if out is not None:
            meta = json.loads(out)
            row.update({k: meta[k] for k in ("deals", "pimc_decisions", "worlds_dropped", "auction_contradicted")})
        row["dd_s"] = None
        if not args.pimc_only:
            dd = [__file__, "--played", json.dumps(pos), "dd", str(row.get("deals", args.samples)), str(args.jobs)]
            _, _, out = timed(dd, ROOT, args.timeout)
            row["dd_s"] = None if out is None else json.loads(out)["seconds"]
        row["pimc_over_dd"] = wall / row["dd_s"] if row["dd_s"] else None
        rows.append(row)
        print(json.dumps(row), flush=True)
        write_report(args, load_start, rows, None)
    before_after = None
    if args.baseline:
        example, runs = positions[0], {}
        for label, code in (("baseline", Path(args.baseline).resolve()), ("this", ROOT)):
            argv = [__file__, "--played", json.dumps(example), "pimc", str(args.deals), str(args.jobs)]
            load = os.getloadavg()[0]
            _, _, out = timed(argv, code, args.timeout)
            runs[label] = {"code": str(code), "load_1min_before": load, **(json.loads(out) if out else {})}
            print(label, json.dumps(runs[label]), flush=True)
        ratio = (
            runs["baseline"]["seconds"] / runs["this"]["seconds"]
            if all("seconds" in r for r in runs.values())
            else None
        )
        before_after = {"deals": args.deals, "runs": runs, "baseline_over_this": ratio}
    write_report(args, load_start, rows, before_after)
    for r in rows:
        ratio = "" if r["pimc_over_dd"] is None else f", {r['pimc_over_dd']:.1f} x the dd table"
        print(f"{r['name']}: pimc {r['pimc_s']:.0f} s{'' if r['pimc_finished'] else ' (killed)'}{ratio}")
    if before_after and before_after["baseline_over_this"]:
        print(f"before/after on {args.deals} deals: {before_after['baseline_over_this']:.1f} x faster")


def main() -> None:
    if sys.argv[1:2] == ["--played"]:  # a worker run of the advise mode
        position, method, deals, jobs = sys.argv[2:6]
        print(json.dumps(played(json.loads(position), method, int(deals), int(jobs))))
        return
    if sys.argv[1:2] == ["--by-contract"]:  # a worker run of the advise mode
        print(json.dumps(by_contract(json.loads(sys.argv[2]), int(sys.argv[3]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--budget", type=float, default=8.0, help="wall-clock minutes in all (half per part)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--advise", action="store_true", help="time advise --method pimc beside the dd table")
    parser.add_argument("--suite", type=int, default=0, help="advise mode: also the first K suite positions")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900.0, help="advise mode: seconds before a run is killed")
    parser.add_argument("--baseline", help="advise mode: a checkout to time before/after against")
    parser.add_argument("--deals", type=int, default=4, help="advise mode: deals of the before/after runs")
    parser.add_argument("--skip", type=int, default=0, help="advise mode: leave out the example and J suite positions")
    parser.add_argument("--pimc-only", action="store_true", help="advise mode: no dd table beside each pimc run")
    parser.add_argument(
        "--out", help="advise mode: the JSON to write (default results/benchmarks/pimc_cost_advise.json)"
    )
    parser.add_argument(
        "--by-contract",
        action="store_true",
        help="advise mode: instead, the first round's CPU seconds per contract, pimc beside dd",
    )
    args = parser.parse_args()
    if args.advise:
        sys.path.insert(0, str(ROOT))
        advise_mode(args)
        return
    half = 30 * args.budget
    pos = positions(args.positions, args.seed)
    rows, pos_left = run(time_position, pos, half)
    deals = seeded_deals(60, args.seed + 1)
    t0 = time.perf_counter()
    times, deals_left = run(play_one, deals, half)
    wall = time.perf_counter() - t0
    summary: dict = {"positions_timed": len(rows), "positions_unfinished": pos_left}
    for m in (16, 32):
        total = sum(r[f"pimc{m}_s"] for r in rows)
        summary[f"pimc_decisions_per_s_M{m}"] = len(rows) / total if total else None
        summary[f"pimc_tests_per_s_M{m}"] = sum(r[f"pimc{m}_tests"] for r in rows) / total if total else None
        summary[f"pimc_decision_s_median_M{m}"] = float(np.median([r[f"pimc{m}_s"] for r in rows])) if rows else None
    dd_total = sum(r["dd_solve_s"] for r in rows)
    summary["dd_solves_per_s"] = len(rows) / dd_total if dd_total else None
    summary["dd_solve_s_median"] = float(np.median([r["dd_solve_s"] for r in rows])) if rows else None
    summary.update(
        full_deals_finished=len(times),
        full_deals_unfinished=deals_left,
        full_deal_s_median=float(np.median(times)) if times else None,
        pimc_deals_per_minute=60 * len(times) / wall,
        machine={"platform": platform.platform(), "cpus": os.cpu_count(), "processes": 2},
        versions={"python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__},
        per_position=rows,
    )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "per_position"}, indent=2))
    print(f"pimc_deals_per_minute: {summary['pimc_deals_per_minute']:.2f}")


if __name__ == "__main__":
    main()
