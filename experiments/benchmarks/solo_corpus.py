"""Benchmark: one declarer against three defenders (solo, abondance, solo slim), as advise asks.

    python experiments/benchmarks/solo_corpus.py [--deals 10] [--out FILE] [--compare OLD.json]

A fixed corpus of advise positions (hand, seat, turned card): the two solo hands issue 18
reported as slow, solo and abondance candidates drawn by class (5–8 card suits with and
without the ace and king, 0–2 outside aces) and random hands, at every seat. For each
position ``--deals`` seeded sampled deals (``advise.sample_hands``), and per deal the
questions ``advise`` asks of the declarer alone (``_solve_batch``, default rules) in its
order, with one solver per strain reused across deals as advise does:

* ``exact``: the exact count in the turned trump (``solve(hands, trump, eldest, side)``);
* ``test9``: can the declarer make 9 tricks in each other suit (abondance);
* ``slim``: can the declarer make 13 tricks in every suit, the declarer on lead;
* and the same three questions in no trump (``exact_nt``, ``test9_nt``, ``slim_nt``),
  which advise does not ask but which the kernel answers for other games.

Per question: the answer, the trick nodes (deterministic: the solvers see the same
questions in the same order) and the time; per deal one DDS solve (endplay
``analyse_start``, the turned suit trump, eldest on lead, one thread) timed in the same
run, so that times read as DDS solves. Writes the records to ``--out`` (default
results/benchmarks/solo_corpus.json) and prints per question kind the median and worst
trick nodes and DDS solves. ``--compare OLD.json`` checks that every answer is the same
as in an older run and prints the node ratios.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "solo_corpus.json"
sys.path.insert(0, str(ROOT))

from wiezen_sim.analysis.advise.dd_table import solver_for  # noqa: E402
from wiezen_sim.analysis.advise.deals import sample_hands  # noqa: E402
from wiezen_sim.analysis.hands import HandClass, sample_hand  # noqa: E402
from wiezen_sim.analysis.provenance import git_commit  # noqa: E402
from wiezen_sim.cards import FULL_DECK, card_name, card_suit, cards_of, deal_name, hand_name  # noqa: E402
from wiezen_sim.parallel import sample_seeds  # noqa: E402
from wiezen_sim.rules.dealing import check_position  # noqa: E402
from wiezen_sim.vocabulary import (  # noqa: E402
    ELDEST,
    NO_TRUMP,
    SEAT_NAMES,
)

SEED = 18
REPORTED = (
    ("S:J6 H:JT973 D:KT97 C:J5", "eldest", "KH"),
    ("H:AQJ95 S:A73 D:A8 C:962", "eldest", "4H"),
)
KINDS = ("exact", "test9", "slim", "exact_nt", "test9_nt", "slim_nt")


def _candidate(rng: np.random.Generator, length: tuple[int, int], top: bool) -> HandClass:
    s = int(rng.integers(4))
    honours = "AK" if top else str(rng.choice(["", "Q", "KQ", "K"]))
    return HandClass("solo", trump=s, trump_length=length, trump_honours=honours, outside_aces=(0, 2))


def positions(seed: int) -> list[tuple[str, int, int, int]]:
    """``(name, hand, seat, turned)``: the reported hands, 8 candidates (the long suit turned) and 4 random hands."""
    out = []
    for i, (h, s, t) in enumerate(REPORTED):
        out.append((f"reported/{i}", *check_position(h, s, t)))
    rng = np.random.default_rng(seed)
    kinds = [((5, 6), True), ((5, 6), False), ((7, 8), True), ((7, 8), False)] * 2
    for i, (length, top) in enumerate(kinds):
        hc = _candidate(rng, length, top)
        seat = i % 4
        hand = sample_hand(hc, rng)
        allowed = hand if seat == 3 else FULL_DECK & ~hand
        suit_cards = allowed & (0x7FFC << (16 * hc.trump))
        turned = int(rng.choice(cards_of(suit_cards if suit_cards else allowed)))
        out.append((f"cand{length[0]}{'top' if top else 'low'}/{i}", hand, seat, turned))
    for seat in range(4):
        hand = sample_hand(HandClass("random"), rng)
        allowed = hand if seat == 3 else FULL_DECK & ~hand
        out.append((f"random/{seat}", hand, seat, int(rng.choice(cards_of(allowed)))))
    return out


def dds_solve_s(hands: np.ndarray, trump: int) -> float:
    """Seconds of one DDS solve of the deal (``trump``, seat 0 = North = eldest on lead)."""
    from endplay.dds import analyse_start
    from endplay.types import Deal, Denom, Player

    deal = Deal(deal_name([int(h) for h in hands]))
    deal.trump = (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs)[trump]
    deal.first = Player.north
    t0 = time.perf_counter()
    analyse_start(deal, True)
    return time.perf_counter() - t0


def questions(hands: np.ndarray, p: int, trump: int):
    """``(kind, strain, call)`` in the order advise asks them (no trump last)."""
    side = 1 << p
    for s in range(4):
        sv = solver_for(s)
        if s == trump:
            yield "exact", s, sv, lambda sv=sv, s=s: sv.solve(hands, s, ELDEST, side)
        else:
            yield "test9", s, sv, lambda sv=sv, s=s: sv.can_force(hands, s, ELDEST, side, 9)
        yield "slim", s, sv, lambda sv=sv, s=s: sv.can_force(hands, s, p, side, 13)
    nt = solver_for(NO_TRUMP)
    yield "exact_nt", NO_TRUMP, nt, lambda: nt.solve(hands, NO_TRUMP, ELDEST, side)
    yield "test9_nt", NO_TRUMP, nt, lambda: nt.can_force(hands, NO_TRUMP, ELDEST, side, 9)
    yield "slim_nt", NO_TRUMP, nt, lambda: nt.can_force(hands, NO_TRUMP, p, side, 13)


def run(deals: int, seed: int) -> list[dict]:
    records = []
    for name, hand, p, turned in positions(seed):
        trump = card_suit(turned)
        print(f"{name}: {hand_name(hand)} {SEAT_NAMES[p]} {card_name(turned)}", flush=True)
        for d, word in enumerate(sample_seeds(seed, deals)):
            hands = sample_hands(word, hand, p, turned)
            dds_s = dds_solve_s(hands, trump)
            for kind, strain, sv, call in questions(hands, p, trump):
                n0 = sv.trick_nodes
                t0 = time.perf_counter()
                answer = call()
                dt = time.perf_counter() - t0
                records.append({"position": name, "deal": d, "pbn": deal_name([int(h) for h in hands]),
                                "kind": kind, "strain": strain, "answer": int(answer),
                                "trick_nodes": sv.trick_nodes - n0, "seconds": dt, "dds_s": dds_s})  # fmt: skip
    return records


def summary(records: list[dict]) -> dict:
    out = {}
    for kind in KINDS:
        rs = [r for r in records if r["kind"] == kind]
        worst = max(rs, key=lambda r: r["trick_nodes"])
        out[kind] = {
            "questions": len(rs),
            "nodes_total": sum(r["trick_nodes"] for r in rs),
            "nodes_median": statistics.median(r["trick_nodes"] for r in rs),
            "nodes_max": worst["trick_nodes"],
            "worst": f"{worst['position']} deal {worst['deal']}",
            "dds_median": statistics.median(r["seconds"] / r["dds_s"] for r in rs),
            "dds_max": max(r["seconds"] / r["dds_s"] for r in rs),
        }
    per_deal: dict = {}
    for r in records:
        if r["kind"] in ("exact", "test9", "slim"):
            key = (r["position"], r["deal"])
            per_deal[key] = per_deal.get(key, 0) + r["seconds"] / r["dds_s"]
    worst_deal = max(per_deal, key=per_deal.get)
    out["advise_per_deal"] = {
        "dds_median": statistics.median(per_deal.values()),
        "dds_max": per_deal[worst_deal],
        "worst": f"{worst_deal[0]} deal {worst_deal[1]}",
    }
    return out


def _key(r: dict) -> tuple:
    return r["position"], r["deal"], r["kind"], r["strain"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--compare", type=Path, default=None, help="an older run's JSON: same answers? node ratios")
    args = ap.parse_args(argv)

    import endplay._dds as _dds

    _dds.SetMaxThreads(1)
    for s in (*range(4), NO_TRUMP):  # compile outside the timed loop
        solver_for(s).solve("N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", s, 0, 1)
    records = run(args.deals, args.seed)
    summ = summary(records)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"commit": git_commit(), "deals": args.deals, "seed": args.seed,
                                    "summary": summ, "records": records}, indent=1))  # fmt: skip
    dds = statistics.median(r["dds_s"] for r in records)
    n_deals = len({(r["position"], r["deal"]) for r in records})
    print(f"DDS solve median {dds * 1e3:.1f} ms over {n_deals} deals")
    head = ("kind", "n", "nodes total", "median", "max", "DDS med", "DDS max")
    print("{:10s} {:>4s} {:>12s} {:>8s} {:>9s} {:>8s} {:>8s}  worst".format(*head))
    for kind in KINDS:
        k = summ[kind]
        print(f"{kind:10s} {k['questions']:4d} {k['nodes_total']:12d} {k['nodes_median']:8.0f} {k['nodes_max']:9d} "
              f"{k['dds_median']:8.2f} {k['dds_max']:8.1f}  {k['worst']}")  # fmt: skip
    a = summ["advise_per_deal"]
    print(f"advise's 1-vs-3 questions per deal: median {a['dds_median']:.2f} DDS solves, "
          f"max {a['dds_max']:.1f} ({a['worst']})")  # fmt: skip
    if args.compare:
        old = {_key(r): r for r in json.loads(args.compare.read_text())["records"]}
        diff = [r for r in records if old[_key(r)]["answer"] != r["answer"]]
        for r in diff:
            print("ANSWER CHANGED:", r["position"], r["deal"], r["kind"], r["strain"], r["pbn"])
        for kind in KINDS:
            rs = [r for r in records if r["kind"] == kind]
            o = sum(old[_key(r)]["trick_nodes"] for r in rs)
            n = sum(r["trick_nodes"] for r in rs)
            print(f"{kind:10s} nodes {o} -> {n} ({n / max(o, 1):.3f})")
        print(f"answers changed: {len(diff)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
