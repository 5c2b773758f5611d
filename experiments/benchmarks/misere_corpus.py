"""Benchmark: the misère-family questions of ``advise`` on a fixed corpus (issue 18).

    python experiments/benchmarks/misere_corpus.py [--deals N] [--hands 0,3] [--kinds le0,pico]
        [--node-limit N] [--out FILE] [--compare FILE]

For every hand of ``HANDS`` (low hands, low hands with one or two high cards, 5-3-3-2
shapes, voids, pico candidates; the declarer at every seat, eldest = seat 0 leads) and
``N`` deals sampled as ``advise`` samples them (seed 7, ``sample_seeds``), asks with an
emptied table before every question (so the node counts do not depend on the order):

    le0     can the declarer lose every trick (miserie)          can_force(..., 0, "min")
    ge1     can the declarer force at least one trick            can_force(..., 1)
    le1     can the declarer hold itself to at most one trick     can_force(..., 1, "min")
    pico    can the declarer force exactly one trick               solve(..., "exact", k=1)
    kleine  after each candidate discard (and the defenders' discards, as ``advise``
            makes them): can the declarer lose all 12 tricks      can_force(..., 0, "min")

and records every answer, its trick nodes (deterministic) and its time (under load only
comparable within one run). Writes a JSON list of records to ``--out``; with
``--compare`` it checks that every answer equals the one of the same question in an
earlier run and prints the node ratios. Prints per question kind the median and the
worst trick nodes and time (with the worst deal).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# (hand, seat, turned card): the declarer's position as advise is given it
HANDS = [
    ("S:73 H:A3 D:632 C:AK8432", "eldest", "6S"),  # pico candidate with three top cards (issue 18)
    ("S:T5 H:8432 D:7532 C:642", "third", "QD"),  # miserie candidate (issue 18)
    ("S:8642 H:732 D:53 C:9432", "second", "KH"),  # low 4-3-2-4
    ("S:K6432 H:852 D:743 C:52", "dealer", "5C"),  # low with one high card, 5-3-3-2
    ("S:A5 H:K742 D:8643 C:532", "second", "9D"),  # two high cards
    ("S:97532 H:642 D:853 C:72", "eldest", "TH"),  # low 5-3-3-2
    ("S:6432 H: D:876432 C:532", "third", "JS"),  # void
    ("S:A H:T8642 D:7532 C:643", "dealer", "3C"),  # one sure winner (pico)
    ("S:Q73 H:J52 D:9643 C:T84", "second", "AD"),  # middling cards
]
KINDS = ("le0", "ge1", "le1", "pico", "kleine")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--hands", default=None, help="comma-separated indices into HANDS (default all)")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--node-limit", type=int, default=None, help="trick nodes per question (None: no limit)")
    parser.add_argument("--out", default=None)
    parser.add_argument("--compare", default=None)
    args = parser.parse_args()

    import numpy as np

    from wiezen_sim.analysis.advise import sample_hands
    from wiezen_sim.analysis.advise.dd_table import kleine_candidates
    from wiezen_sim.parallel import sample_seeds
    from wiezen_sim.rules.dealing import check_position
    from wiezen_sim.solvers.dd import DDSolver, NodeLimitExceeded
    from wiezen_sim.solvers.players import highest_discard
    from wiezen_sim.vocabulary import NO_TRUMP

    kinds = args.kinds.split(",")
    hand_ids = [int(x) for x in args.hands.split(",")] if args.hands else list(range(len(HANDS)))
    nt = DDSolver(tt_mb=256, node_limit=args.node_limit)
    warm = sample_hands(sample_seeds(7, 1)[0], *check_position(*HANDS[0]))
    nt.can_force(warm, NO_TRUMP, 0, 1, 0, "min")
    nt.solve(warm, NO_TRUMP, 0, 1, "exact", k=1)
    records = []

    def answer(kind, hands, side):
        if kind in ("le0", "kleine"):
            return nt.can_force(hands, NO_TRUMP, 0, side, 0, "min")
        if kind == "ge1":
            return nt.can_force(hands, NO_TRUMP, 0, side, 1)
        if kind == "le1":
            return nt.can_force(hands, NO_TRUMP, 0, side, 1, "min")
        if kind == "pico":
            return nt.solve(hands, NO_TRUMP, 0, side, "exact", k=1)
        raise SystemExit(f"unknown kind {kind!r}")

    def ask(hid, deal, kind, hands, side, extra=""):
        nt.clear()
        n0 = nt.trick_nodes
        t0 = time.perf_counter()
        try:
            got = bool(answer(kind, hands, side))
        except NodeLimitExceeded:
            got = None
        dt = time.perf_counter() - t0
        rec = {"hand": hid, "deal": deal, "kind": kind + extra, "answer": got, "nodes": nt.trick_nodes - n0,
               "s": round(dt, 4)}  # fmt: skip
        records.append(rec)
        return rec

    for hid in hand_ids:
        hand, seat, turned = HANDS[hid]
        mask, p, card = check_position(hand, seat, turned)
        side = 1 << p
        for deal, word in enumerate(sample_seeds(7, args.deals)):
            hands = sample_hands(word, mask, p, card)
            line = []
            for kind in kinds:
                if kind != "kleine":
                    r = ask(hid, deal, kind, hands, side)
                    line.append(f"{kind}={r['answer']} {r['nodes']} {r['s']:.2f}s")
                    continue
                after = np.array([int(h) & ~(1 << highest_discard(int(h))) for h in hands], dtype=np.int64)
                for c in kleine_candidates(mask):
                    after[p] = mask & ~(1 << c)
                    r = ask(hid, deal, kind, after.copy(), side, f":{c}")
                    line.append(f"{r['kind']}={r['answer']} {r['nodes']}")
            print(hid, deal, " | ".join(line), flush=True)

    if args.out:
        Path(args.out).write_text(json.dumps(records, indent=0))
    print("kind      n  median_nodes  worst_nodes (hand,deal)  median_s  worst_s  total_nodes")
    for kind in kinds:
        rs = [r for r in records if r["kind"].split(":")[0] == kind]
        if not rs:
            continue
        worst = max(rs, key=lambda r: r["nodes"])
        print(f"{kind:7s} {len(rs):4d} {statistics.median(r['nodes'] for r in rs):12.0f} {worst['nodes']:12d} "
              f"({worst['hand']},{worst['deal']}) {statistics.median(r['s'] for r in rs):9.3f} "
              f"{max(r['s'] for r in rs):8.2f} {sum(r['nodes'] for r in rs):12d}")  # fmt: skip
    if args.compare:
        old = {(r["hand"], r["deal"], r["kind"]): r for r in json.loads(Path(args.compare).read_text())}
        bad = 0
        for r in records:
            o = old.get((r["hand"], r["deal"], r["kind"]))
            if o is None:
                continue
            if o["answer"] is not None and r["answer"] is not None and o["answer"] != r["answer"]:
                bad += 1
                print("DIFFERENT ANSWER", r, o)
        for kind in kinds:
            pairs = [(old[(r["hand"], r["deal"], r["kind"])]["nodes"], r["nodes"]) for r in records
                     if r["kind"].split(":")[0] == kind and (r["hand"], r["deal"], r["kind"]) in old]  # fmt: skip
            if pairs:
                print(f"{kind}: nodes before {sum(a for a, _ in pairs)} after {sum(b for _, b in pairs)}")
        print("answers_differ:", bad)


if __name__ == "__main__":
    main()
