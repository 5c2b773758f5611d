"""Benchmark: the advisor's cost per sampled deal, in DDS single solves (issue 4).

    python experiments/benchmarks/advise_cost.py [--deals N] [--seed S] [--hand H --seat S --turned C] [--cli]

On N deals sampled for one hand exactly as ``wiezen-sim advise`` samples them, times
in one process, one thread each: (a) our whole contract table for the deal (every
question ``advise`` asks: exact tricks for solo/abondance in four suits, solo-slim,
misère, pico and kleine-miserie tests, vraag pair tests and the accepting pair, troel)
and (b) one DDS solve of the same deal (``endplay.dds.analyse_start``, the turned
trump, eldest on lead). The numba compile is done before timing. With ``--cli`` it also
times ``wiezen-sim advise --samples 1000 --jobs 2`` and its cold start (warm numba
cache) in subprocesses.

Writes results/benchmarks/advise_cost.json and prints last
``cost_per_sample_in_dds_solves: X`` = (total time of (a)) / (total time of (b)).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "advise_cost.json"
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand", default=None)
    parser.add_argument("--seat", default=None)
    parser.add_argument("--turned", default=None)
    parser.add_argument("--cli", action="store_true", help="also time the advise command (1000 samples, 2 jobs)")
    args = parser.parse_args()

    import endplay
    import numba
    from endplay import dds
    from endplay.types import Deal, Denom, Player

    from wiezen_sim.analysis.advise import EXAMPLE, sample_hands
    from wiezen_sim.analysis.advise.dd_table import dd_batch
    from wiezen_sim.cards import card_suit, deal_name
    from wiezen_sim.parallel import sample_seeds
    from wiezen_sim.rules.dealing import check_position
    from wiezen_sim.rules.ruleset import get_rules

    hand_text = args.hand or EXAMPLE["hand"]
    hand, seat, turned = check_position(hand_text, args.seat or EXAMPLE["seat"], args.turned or EXAMPLE["turned"])
    rules = get_rules()
    seeds = sample_seeds(args.seed, args.deals)
    t0 = time.perf_counter()
    dd_batch(sample_seeds(args.seed + 1, 1), hand, seat, turned, rules, 4.0)
    compile_s = time.perf_counter() - t0

    denoms = (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs)
    ours, theirs = [], []
    for word in seeds:
        t = time.perf_counter()
        dd_batch([word], hand, seat, turned, rules, 4.0)
        ours.append(time.perf_counter() - t)
        hands = sample_hands(word, hand, seat, turned)
        deal = Deal(deal_name([int(h) for h in hands]))
        deal.trump = denoms[card_suit(turned)]
        deal.first = Player.north  # seat 0 = eldest leads
        t = time.perf_counter()
        dds.analyse_start(deal, True)
        theirs.append(time.perf_counter() - t)
    cost = sum(ours) / sum(theirs)
    report = {
        "hand": hand_text,
        "deals": args.deals,
        "seed": args.seed,
        "compile_s": compile_s,
        "ours_per_deal_s": {"mean": statistics.mean(ours), "median": statistics.median(ours)},
        "dds_per_deal_s": {"mean": statistics.mean(theirs), "median": statistics.median(theirs)},
        "cost_per_sample_in_dds_solves": cost,
        "machine": {"platform": platform.platform(), "processor": platform.processor(), "cpus": os.cpu_count()},
        "versions": {"python": platform.python_version(), "numba": numba.__version__, "endplay": endplay.__version__},
    }
    if args.cli:
        cmd = [sys.executable, "-m", "wiezen_sim.cli", "advise", "--quiet", "--seed", "1"]
        t = time.perf_counter()
        subprocess.run([*cmd, "--samples", "4", "--jobs", "1"], check=True, capture_output=True)
        report["cold_start_warm_cache_s"] = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run([*cmd, "--samples", "1000", "--jobs", "2"], check=True, capture_output=True)
        report["advise_1000_samples_2_jobs_s"] = time.perf_counter() - t
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k not in ("machine", "versions")}, indent=2))
    print(f"cost_per_sample_in_dds_solves: {cost:.2f}")


if __name__ == "__main__":
    main()
