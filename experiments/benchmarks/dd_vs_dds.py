"""Benchmark: our double-dummy solver against DDS (endplay) on the same deals, one thread each.

    python experiments/benchmarks/dd_vs_dds.py [--deals N] [--seed S] [--thomas-timeout SEC]

For N deals of DDS's list1000.txt (the first N, or a random sample with --seed), one
strain and one leader per deal (strain i % 5, declarer i % 4, leader on declarer's
left), both solvers answer (a) the exact trick count (DDS: SolveBoard with target -1 and
one solution) and (b) the target question "can the declarer's side take at least 9
tricks?" (DDS: SolveBoard with target and one solution for the leader's side). Both
results are checked against each other and the TABLE line. DDS reports the trick starts
its search reached below the root (``futureTricks.nodes`` is its ``trickNodes``), so the
exact question's time ratio is also given as a ratio of trick nodes and a time per trick
node. The numba compile is done and timed before the timed loop; compile times with an
empty and with a warm numba cache are measured in subprocesses. The 20-result table of
thomas1.txt is timed for both solvers in subprocesses with a time limit.

Writes results/benchmarks/dd_vs_dds.json and prints, as its last line,
``ratio_vs_dds: X.XX`` = median over deals of (our exact time / DDS exact time).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "dds"
OUT = ROOT / "results" / "benchmarks" / "dd_vs_dds.json"
STRAINS = (0, 1, 2, 3, None)

sys.path.insert(0, str(ROOT))

from tests.conftest import load_dds_tables as load  # noqa: E402  (one parser of DDS hands files)
from wiezen_sim.analysis.provenance import git_commit  # noqa: E402

_COMPILE_SNIPPET = """
import time
t0 = time.perf_counter()
from wiezen_sim.solvers.dd import DDSolver
s = DDSolver(tt_mb=8)
s.solve("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "NT", 1, (0, 2))
s.can_force("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "S", 1, (0, 2), 9)
print(time.perf_counter() - t0)
"""

_OUR_TABLE_SNIPPET = """
import resource, sys, time
from wiezen_sim.solvers.dd import DDSolver
s = DDSolver(tt_mb={tt_mb})
s.solve("N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "NT", 0, (0, 2))
t0 = time.perf_counter()
table = s.table(sys.argv[1])
print(time.perf_counter() - t0, " ".join(str(int(x)) for x in table.ravel()), s.nodes,
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

_DDS_TABLE_SNIPPET = """
import sys, time
import endplay._dds as _dds
from endplay.types import Deal
from endplay.dds import calc_dd_table
_dds.SetMaxThreads(1)
d = Deal(sys.argv[1])
t0 = time.perf_counter()
t = calc_dd_table(d)
print(time.perf_counter() - t0, " ".join(str(x) for row in t.to_list() for x in row))
"""


def _run(snippet: str, args: list[str], timeout: float, env: dict | None = None) -> tuple[str | None, float]:
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-c", snippet, *args], capture_output=True, text=True, timeout=timeout,
                             env=env, cwd=ROOT, check=True)  # fmt: skip
        return out.stdout.strip(), time.perf_counter() - t0
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0


def compile_times() -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        cold, _ = _run(_COMPILE_SNIPPET, [], 1800, env)
        warm, _ = _run(_COMPILE_SNIPPET, [], 1800, env)
    return {"cold_cache_s": float(cold) if cold else None, "warm_cache_s": float(warm) if warm else None,
            "what": "import + first solve + first target test in a fresh process"}  # fmt: skip


def thomas(timeout: float, tt_mb: float) -> dict:
    pbn = load(DATA / "thomas1.txt")[0][0]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result: dict = {"deal": pbn, "timeout_s": timeout}
    out, _wall = _run(_OUR_TABLE_SNIPPET.format(tt_mb=tt_mb), [pbn], timeout, env)
    if out is None:
        result["ours_s"] = None
        result["ours_note"] = f"did not finish within {timeout:.0f} s (killed)"
    else:
        parts = out.split()
        result["ours_s"] = float(parts[0])
        result["ours_table"] = [int(x) for x in parts[1:21]]
        result["ours_nodes"] = int(parts[21])
        result["ours_peak_rss_mb"] = int(parts[22]) / 1024
    out, _wall = _run(_DDS_TABLE_SNIPPET, [pbn], timeout, env)
    if out is None:
        result["dds_s"] = None
        result["dds_note"] = f"did not finish within {timeout:.0f} s (killed)"
    else:
        parts = out.split()
        result["dds_s"] = float(parts[0])
        result["dds_table"] = [int(x) for x in parts[1:21]]
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="number of list1000 deals (default 200)")
    ap.add_argument("--seed", type=int, default=None, help="sample the deals at random with this seed")
    ap.add_argument("--tt-mb", type=float, default=256, help="our transposition table (MB)")
    ap.add_argument("--thomas-timeout", type=float, default=900, help="limit per solver for thomas1 (s)")
    ap.add_argument("--skip-thomas", action="store_true")
    ap.add_argument("--largest", action="store_true", help="also time the 21 deals of largest.txt")
    ap.add_argument("--skip-compile", action="store_true", help="do not measure cold/warm compile times")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)

    import endplay
    import endplay._dds as _dds
    import numba
    import numpy as np
    from endplay.types import Deal, Denom, Player

    from wiezen_sim.cards import parse_deal
    from wiezen_sim.solvers.dd import DDSolver

    _dds.SetMaxThreads(1)
    deals = load(DATA / "list1000.txt")
    if args.seed is not None:
        idx = sorted(np.random.default_rng(args.seed).choice(len(deals), size=args.deals, replace=False).tolist())
    else:
        idx = list(range(args.deals))

    report: dict = {
        "machine": {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                    "cpu_count": os.cpu_count(), "python": platform.python_version()},
        "versions": {"numba": numba.__version__, "numpy": np.__version__, "endplay": endplay.__version__},
        "git_commit": git_commit(),
        "threads": 1,
        "deals_file": "tests/data/dds/list1000.txt",
        "deal_indices": idx,
    }  # fmt: skip
    if not args.skip_compile:
        report["compile"] = compile_times()
        print(f"compile (fresh process, import + first solves): cold cache {report['compile']['cold_cache_s']:.2f} s, "
              f"warm cache {report['compile']['warm_cache_s']:.2f} s", flush=True)  # fmt: skip

    solver = DDSolver(tt_mb=args.tt_mb)
    t0 = time.perf_counter()
    solver.solve("N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "NT", 0, (0, 2))
    solver.can_force("N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "S", 0, (0, 2), 2)
    report["first_call_in_process_s"] = time.perf_counter() - t0

    denoms = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]

    def dds_solve(deal: Deal, target: int) -> tuple[int, int, float]:
        """DDS's SolveBoard for the leader's side, one solution (target -1: the exact count):
        (score, DDS's trick nodes, seconds). DDS counts the trick starts its search reaches below
        the root (our trick nodes also count the root); a new deal empties its table."""
        fut = _dds.futureTricks()
        t = time.perf_counter()
        _dds.SolveBoard(deal._data, target, 1, 1, fut, 0)
        return fut.score[0], int(fut.nodes), time.perf_counter() - t

    def dds_exact(deal: Deal) -> tuple[int, int, float]:
        """DDS's exact count for the declarer's side: (tricks, DDS's trick nodes, seconds)."""
        score, trick_nodes, seconds = dds_solve(deal, -1)
        return 13 - score, trick_nodes, seconds

    rows = []
    for n, i in enumerate(idx):
        pbn, table = deals[i]
        strain, declarer = n % 5, n % 4
        leader = (declarer + 1) % 4
        side = (1 << declarer) | (1 << ((declarer + 2) % 4))
        hands = parse_deal(pbn)
        trump = STRAINS[strain]
        deal = Deal(pbn)
        deal.first = Player(leader)
        deal.trump = denoms[strain]

        solver.clear()
        nodes0, trick0 = solver.nodes, solver.trick_nodes
        t = time.perf_counter()
        ours = solver.solve(hands, trump, leader, side)
        t_ours = time.perf_counter() - t
        nodes_exact, trick_exact = solver.nodes - nodes0, solver.trick_nodes - trick0

        theirs, dds_trick_nodes, t_dds = dds_exact(deal)

        want = table[4 * strain + declarer]
        rows.append({"index": i, "strain": "SHDCN"[strain], "declarer": declarer, "leader": leader,
                     "tricks": ours, "dds_tricks": theirs, "table": want,
                     "ours_s": t_ours, "dds_s": t_dds, "nodes": nodes_exact, "trick_nodes": trick_exact,
                     "dds_trick_nodes": dds_trick_nodes})  # fmt: skip
        if ours != theirs or ours != want:
            print(f"MISMATCH deal {i}: ours {ours}, DDS {theirs}, table {want}", flush=True)
        if (n + 1) % 20 == 0:
            print(f"exact: {n + 1}/{len(idx)} deals", flush=True)

    # second pass, target question (a separate pass so that neither solver reuses a table
    # built for the same deal by the exact question)
    for n, i in enumerate(idx):
        pbn, table = deals[i]
        strain, declarer = n % 5, n % 4
        leader = (declarer + 1) % 4
        side = (1 << declarer) | (1 << ((declarer + 2) % 4))
        hands = parse_deal(pbn)
        trump = STRAINS[strain]
        deal = Deal(pbn)
        deal.first = Player(leader)
        deal.trump = denoms[strain]
        solver.clear()
        nodes0, trick0 = solver.nodes, solver.trick_nodes
        t = time.perf_counter()
        ours9 = solver.can_force(hands, trump, leader, side, 9)
        t_ours9 = time.perf_counter() - t
        nodes_target, trick_target = solver.nodes - nodes0, solver.trick_nodes - trick0

        score, dds_nodes9, t_dds9 = dds_solve(deal, 13 - 9 + 1)  # can the leader's side take >= 5?
        dds9 = not score >= 13 - 9 + 1

        want = table[4 * strain + declarer]
        rows[n].update({"target9": ours9, "dds_target9": dds9, "ours_target_s": t_ours9, "dds_target_s": t_dds9,
                        "nodes_target": nodes_target, "trick_nodes_target": trick_target,
                        "dds_nodes_target": dds_nodes9})  # fmt: skip
        if ours9 != dds9 or ours9 != (want >= 9):
            print(f"MISMATCH (target 9) deal {i}: ours {ours9}, DDS {dds9}, table {want}", flush=True)
        if (n + 1) % 20 == 0:
            print(f"target: {n + 1}/{len(idx)} deals", flush=True)

    ratio = statistics.median(r["ours_s"] / r["dds_s"] for r in rows)
    ratio9 = statistics.median(r["ours_target_s"] / r["dds_target_s"] for r in rows)
    report["deals"] = rows
    report["exact"] = {
        "median_ours_s": statistics.median(r["ours_s"] for r in rows),
        "median_dds_s": statistics.median(r["dds_s"] for r in rows),
        "total_ours_s": sum(r["ours_s"] for r in rows),
        "total_dds_s": sum(r["dds_s"] for r in rows),
        "median_nodes": statistics.median(r["nodes"] for r in rows),
        "median_trick_nodes": statistics.median(r["trick_nodes"] for r in rows),
        "median_dds_trick_nodes": statistics.median(r["dds_trick_nodes"] for r in rows),
        # the time ratio split in two: how many more trick nodes we search, and how much longer each takes
        "trick_node_ratio": sum(r["trick_nodes"] for r in rows) / sum(r["dds_trick_nodes"] for r in rows),
        "ns_per_trick_node_ours": 1e9 * sum(r["ours_s"] for r in rows) / sum(r["trick_nodes"] for r in rows),
        "ns_per_trick_node_dds": 1e9 * sum(r["dds_s"] for r in rows) / sum(r["dds_trick_nodes"] for r in rows),
        "ratio_median_of_per_deal": ratio,
    }
    report["target9"] = {
        "median_ours_s": statistics.median(r["ours_target_s"] for r in rows),
        "median_dds_s": statistics.median(r["dds_target_s"] for r in rows),
        "median_nodes": statistics.median(r["nodes_target"] for r in rows),
        "median_trick_nodes": statistics.median(r["trick_nodes_target"] for r in rows),
        "median_dds_nodes": statistics.median(r["dds_nodes_target"] for r in rows),
        "ratio_median_of_per_deal": ratio9,
    }
    report["mismatches"] = sum(
        1
        for r in rows
        if r["tricks"] != r["dds_tricks"] or r["tricks"] != r["table"] or r["target9"] != r["dds_target9"]
    )
    report["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report["tt_bytes"] = solver.tt_bytes
    if args.largest:
        big = []
        for n, (pbn, table) in enumerate(load(DATA / "largest.txt")):
            strain, declarer = n % 5, n % 4
            leader = (declarer + 1) % 4
            side = (1 << declarer) | (1 << ((declarer + 2) % 4))
            deal = Deal(pbn)
            deal.first = Player(leader)
            deal.trump = denoms[strain]
            solver.clear()
            t = time.perf_counter()
            ours = solver.solve(parse_deal(pbn), STRAINS[strain], leader, side)
            t_ours = time.perf_counter() - t
            theirs, _, t_dds = dds_exact(deal)
            big.append({"strain": "SHDCN"[strain], "declarer": declarer, "tricks": ours, "dds_tricks": theirs,
                        "table": table[4 * strain + declarer], "ours_s": t_ours, "dds_s": t_dds})  # fmt: skip
            print(f"largest {n}: ours {t_ours:.2f} s, DDS {t_dds:.3f} s, {ours}/{theirs}", flush=True)
        report["largest"] = {"deals": big, "median_ratio": statistics.median(b["ours_s"] / b["dds_s"] for b in big),
                             "total_ours_s": sum(b["ours_s"] for b in big),
                             "total_dds_s": sum(b["dds_s"] for b in big)}  # fmt: skip
    if not args.skip_thomas:
        print("thomas1 table (both solvers, subprocesses) ...", flush=True)
        report["thomas1_table"] = thomas(args.thomas_timeout, args.tt_mb)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))

    e, g = report["exact"], report["target9"]
    print(f"deals: {len(rows)}, mismatches: {report['mismatches']}")
    print(
        f"exact: median ours {e['median_ours_s'] * 1e3:.1f} ms, DDS {e['median_dds_s'] * 1e3:.1f} ms; "
        f"totals ours {e['total_ours_s']:.1f} s, DDS {e['total_dds_s']:.1f} s; median nodes {e['median_nodes']:.0f} "
        f"(at a trick's start {e['median_trick_nodes']:.0f}, DDS {e['median_dds_trick_nodes']:.0f}); all deals: "
        f"{e['trick_node_ratio']:.2f} times DDS's trick nodes, {e['ns_per_trick_node_ours']:.0f} ns a trick node "
        f"(DDS {e['ns_per_trick_node_dds']:.0f})"
    )
    print(
        f"target >= 9: median ours {g['median_ours_s'] * 1e3:.1f} ms, DDS {g['median_dds_s'] * 1e3:.1f} ms, "
        f"ratio {g['ratio_median_of_per_deal']:.2f}; median trick nodes ours {g['median_trick_nodes']:.0f}, "
        f"DDS {g['median_dds_nodes']:.0f}"
    )
    print(
        f"first call in process (cache loaded): {report['first_call_in_process_s']:.2f} s; "
        f"peak RSS {report['peak_rss_mb']:.0f} MB (table {solver.tt_bytes / 2**20:.0f} MB)"
    )
    if "thomas1_table" in report:
        th = report["thomas1_table"]
        ours_t = f"{th['ours_s']:.1f} s" if th.get("ours_s") is not None else th["ours_note"]
        dds_t = f"{th['dds_s']:.1f} s" if th.get("dds_s") is not None else th["dds_note"]
        print(f"thomas1 20-result table: ours {ours_t}, DDS {dds_t}")
    if "largest" in report:
        lg = report["largest"]
        print(
            f"largest.txt (one result per deal): ours {lg['total_ours_s']:.1f} s, DDS {lg['total_dds_s']:.1f} s, "
            f"median ratio {lg['median_ratio']:.2f}"
        )
    print(f"wrote {args.out}")
    print(f"ratio_vs_dds: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
