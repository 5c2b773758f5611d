"""Benchmark: the wall time of the default ``wiezen-sim advise HAND --jobs 2`` itself, measured, over the hand suite
(issue 18).

    python experiments/benchmarks/advise_wall.py [--hands N] [--classes a,b] [--timeout S] [--resume]

``advise_runs.py`` projects the 2-job wall time from the CPU seconds of a one-process run (start-up plus half
the CPU), which leaves out what a user waits for besides: a worker idle at a round's end while the other
finishes its slowest deal, the start of the workers, their exit. This one runs what a user runs, the CLI in a
new process (``--jobs 2 --quiet --format json``, the default seed 1, 1000 deals as the ceiling, the stop rule
on), one hand after another, and measures its wall time from start to exit. A run past ``--timeout`` seconds
is stopped (SIGTERM, which the CLI obeys within a second; its process group killed after that) and counted
at the timeout, a lower bound. In the same run DDS (endplay ``analyse_start``, one thread; the turned suit
trump, eldest on lead) solves every deal the advice sampled, the reference, and the ratio is wall seconds
over DDS seconds. Results go to results/benchmarks/advise_wall.json after every hand (``--resume`` keeps the
hands of an earlier file with the same settings). Prints as its last lines ``advise_wall_p50_s`` and
``advise_wall_max_s``. Nothing else should run on the machine meanwhile: wall time counts it.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "advise_wall.json"
sys.path.insert(0, str(ROOT))

from experiments.benchmarks.advise_runs import SEED, dds_seconds, resumed, run_suite, suite_args  # noqa: E402
from experiments.benchmarks.hand_suite import Position  # noqa: E402
from wiezen_sim.analysis.advise.report import option_name  # noqa: E402
from wiezen_sim.analysis.provenance import git_commit, machine_info, package_versions  # noqa: E402

TIMEOUT_S = 120.0  # wall seconds per hand before its run is stopped (4 times the target)
JOBS = 2


def run_position(pos: Position, timeout: float, commit: str | None) -> dict:
    """The default CLI run of one position: wall seconds, deals, recommendation, and DDS on the same deals."""
    where = pos.describe()
    position = [*where["hand"].split(), "--seat", where["seat"], "--turned", where["turned"]]
    cmd = [sys.executable, "-m", "wiezen_sim.cli", "advise", *position, "--jobs", str(JOBS), "--seed", str(SEED),
           "--quiet", "--format", "json"]  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=5)
            obeyed = True
        except subprocess.TimeoutExpired:  # recorded, not raised: the suite goes on
            obeyed = False
        finally:
            os.killpg(proc.pid, signal.SIGKILL)  # its workers too, if they outlived it
        return {"name": pos.name, "class": pos.cls, **where, "git_commit": commit, "timed_out": True,
                "wall_s": timeout, "stopped_within_5_s": obeyed}  # fmt: skip
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {proc.returncode}: {err.strip()}")
    advice = json.loads(out)
    deals = int(advice["deals"])
    dds = dds_seconds(pos, deals)
    return {"name": pos.name, "class": pos.cls, **where, "git_commit": commit, "timed_out": False,
            "wall_s": wall, "deals": deals, "dds_s": dds, "wall_over_dds": wall / dds,
            "recommendation": option_name(advice["recommendation"])}  # fmt: skip


def summary(hands: list[dict]) -> dict:
    """Median and worst measured wall seconds over the hands (a stopped run counts at the timeout, a lower
    bound), how many are within the targets, and the slowest hands."""
    walls = sorted(hands, key=lambda h: h["wall_s"])
    return {
        "hands": len(hands),
        "commits": sorted({h["git_commit"] for h in hands}),
        "timed_out": [h["name"] for h in hands if h["timed_out"]],
        "p50_s": statistics.median(h["wall_s"] for h in hands),
        "p90_s": walls[int(0.9 * (len(walls) - 1))]["wall_s"],
        "max_s": walls[-1]["wall_s"],
        "within_8_s": sum(h["wall_s"] <= 8 for h in hands),
        "within_30_s": sum(h["wall_s"] <= 30 for h in hands),
        "slowest": [
            {k: h.get(k) for k in ("name", "hand", "seat", "turned", "deals", "wall_s", "timed_out")}
            for h in walls[-8:][::-1]
        ],
        "p50_wall_over_dds": statistics.median(h["wall_over_dds"] for h in hands if not h["timed_out"]),
    }


def main(argv: list[str] | None = None) -> int:
    args, positions = suite_args(__doc__, "timeout", TIMEOUT_S, "wall seconds", OUT, argv)
    import endplay

    settings = {"suite_seed": args.seed, "advise_seed": SEED, "jobs": JOBS, "timeout_s": args.timeout}
    done = resumed(args.out, settings, args.resume)
    commit = git_commit()
    load = os.getloadavg()
    out = {
        "command": "python experiments/benchmarks/advise_wall.py " + " ".join(argv or sys.argv[1:]),
        "git_commit": commit,
        "settings": settings,
        "machine": machine_info(load),
        "versions": {**package_versions(), "endplay": endplay.__version__},
    }

    def line(h: dict) -> str:
        return f"{h['wall_s']:7.1f} s, " + (
            "stopped" if h["timed_out"] else f"{h['deals']} deals, {h['recommendation']}"
        )

    hands = run_suite(positions, done, out, args.out, load, lambda pos: run_position(pos, args.timeout, commit), line,
                      summary)  # fmt: skip
    s = summary(hands)
    print(f"slowest: {s['slowest'][:3]}")
    print(f"advise_wall_p50_s: {s['p50_s']:.1f}")
    print(f"advise_wall_max_s: {s['max_s']:.1f}{' (stopped: a lower bound)' if s['timed_out'] else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
