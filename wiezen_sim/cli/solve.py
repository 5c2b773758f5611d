"""``wiezen-sim solve``: double-dummy results of deals.

    wiezen-sim solve {--deal PBN | --deals FILE} --trump {S,H,D,C,NT} --leader SEAT --side SEATS
                     [--objective max|min|exact:K] [--played "CARD …"] [--cards]
                     [--format table|json|csv] [--out FILE] [--tt-mb MB] [--jobs N]
    wiezen-sim solve {--deal PBN | --deals FILE} --table [--alone] [--format table|json|csv|pbn] [--jobs N]

Seats are PBN seats: 0..3 = N, E, S, W, or the letters. ``--deals`` reads a PBN file (the ``Deal`` tag of
every game) or one PBN deal per line (blank lines and # comments skipped).

* Without ``--cards`` or ``--table``: the side's result (``max``/``min`` tricks, or whether it
  can take exactly K). ``--played`` gives the cards played so far from the whole deal, in
  order from the first lead (``--deal`` only); tricks then count from the trick in progress
  on, as DDS counts them, and ``won`` gives the side's tricks already taken.
* ``--cards``: every legal card of the player to move, with the side's result after it.
* ``--table``: the 20 results declarer × strain (S H D C NT; the declarer's left-hand
  opponent leads), partners opposite as DDS gives them, or with ``--alone`` the declarer
  against the other three. ``--format pbn`` writes the games back as PBN with a
  ``DoubleDummyTricks`` tag (partners opposite only).

``--format json`` prints one JSON object per deal (JSON Lines), each with its ``deal``; ``csv`` one table
with a header. Bad
input raises ``ValueError``: one line on stderr and exit 2. One ``--deal`` is solved in this process; a
file's deals in ``--jobs`` worker processes (all cores by default; the same results for any count), with
a progress bar on a terminal; a run stopped (Ctrl-C, SIGTERM) ends within a second, prints the results of
the deals finished and says how many they are.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from wiezen_sim.cards import PBN_SEATS, card_name, card_rank, card_suit, deal_name, parse_card, parse_deal
from wiezen_sim.cli.args import PBN_SEAT_HELP, add_jobs, add_output, add_verb, emit, float_range, pbn_seat
from wiezen_sim.defaults import DEFAULT_TT_MB, MAX_TT_MB
from wiezen_sim.pbn import PbnGame, read_pbn, write_pbn
from wiezen_sim.vocabulary import Objective, parse_objective, parse_trump

if TYPE_CHECKING:
    from wiezen_sim.solvers.dd import Replay

__all__ = ["add", "run"]

STRAINS = ("S", "H", "D", "C", "NT")  # rows of a table, DDS's order
_SEAT_DIGITS = str.maketrans(PBN_SEATS, "0123")  # --side NS = 02


@dataclass(frozen=True)
class _Deal:
    where: str  # prefix of an error about this deal: "" or "line N of FILE: "
    text: str  # the deal as given, on one line
    hands: tuple[int, int, int, int]
    game: PbnGame | None  # the PBN game it came from (``--deals`` with a PBN file)


def _read_deals(args: argparse.Namespace) -> tuple[list[_Deal], list[PbnGame]]:
    """Every deal asked for, parsed (errors name the file line), and every game of a PBN file
    (with the blocks that hold no deal; none for other input)."""
    if (args.deal is None) == (args.deals is None):
        raise ValueError("give exactly one of --deal PBN or --deals FILE")
    if args.deal is not None:
        return [_Deal("", " ".join(args.deal.split()), parse_deal(args.deal, cards_per_hand=None), None)], []
    try:
        with open(args.deals, encoding="utf-8-sig") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {args.deals}: {getattr(exc, 'strerror', None) or exc}") from None
    lines = [line.strip() for line in text.splitlines()]
    games: list[PbnGame] = []
    if any(line.startswith("[") for line in lines):  # a PBN file of tagged games
        try:
            games = read_pbn(text)
        except ValueError as exc:
            raise ValueError(f"{args.deals}: {exc}") from None
        deals = [_Deal(f"line {g.line_no} of {args.deals}: ", deal_name(g.deal), g.deal, g) for g in games if g.deal]
    else:
        deals = []
        for n, line in enumerate(lines, 1):
            if line and not line.startswith("#"):
                try:
                    deals.append(_Deal(f"line {n} of {args.deals}: ", " ".join(line.split()),
                                       parse_deal(line, cards_per_hand=None), None))  # fmt: skip
                except ValueError as exc:
                    raise ValueError(f"line {n} of {args.deals}: {exc}") from None
    if not deals:
        raise ValueError(f"no deals in {args.deals}")
    return deals, games


def _check_options(args: argparse.Namespace) -> None:
    """Refuse option combinations that do not go together (before any deal is read)."""
    contract = [f"--{name}" for name in ("trump", "leader", "side", "objective") if getattr(args, name) is not None]
    if args.table:
        extra = contract + [o for o, on in (("--played", args.played is not None), ("--cards", args.cards)) if on]
        if extra:
            raise ValueError(f"--table solves every declarer and strain of the whole deal: drop {', '.join(extra)}")
    else:
        missing = [f"--{name}" for name in ("trump", "leader", "side") if getattr(args, name) is None]
        if missing:
            raise ValueError(f"missing {', '.join(missing)} (or --table for every declarer and strain)")
        if args.alone:
            raise ValueError("--alone is for --table (every seat alone against three)")
    if args.format == "pbn" and (not args.table or args.alone):
        raise ValueError("--format pbn writes the DoubleDummyTricks of --table (partners opposite, without --alone)")
    if args.played is not None and args.deals is not None:
        raise ValueError("--played is the play of one deal: use it with --deal")


def _parse_played(text: str) -> list[int]:
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("--played needs the cards played so far, e.g. --played '4S QS AS 2S KH'")
    try:
        return [parse_card(w) for w in words]
    except ValueError as exc:
        raise ValueError(f"--played: {exc}") from None


def _card_order(card: int) -> tuple[int, int]:
    return card_suit(card), -card_rank(card)  # as a hand reads: S H D C, high to low


def _render(records: list[dict], fmt: str, text_lines) -> str:
    """The records as JSON lines, CSV (header from the first record) or the plain text lines."""
    if fmt == "json":
        return "\n".join(json.dumps(r) for r in records)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return out.getvalue().rstrip("\n")
    return "\n".join(text_lines)


def _table_output(args: argparse.Namespace, deals: list[_Deal], games: list[PbnGame], tables: list[np.ndarray]) -> str:
    if args.format == "pbn":  # a PBN file's games as read (blocks without a deal too), else one game per deal
        if games:
            by_game = {id(d.game): t for d, t in zip(deals, tables, strict=True)}
            return write_pbn(games, [by_game.get(id(g)) for g in games]).rstrip("\n")
        return write_pbn([PbnGame((f'[Deal "{d.text}"]',), 0, d.hands) for d in deals], tables).rstrip("\n")
    records, lines = [], []
    for d, t in zip(deals, tables, strict=True):
        rows = {STRAINS[s]: dict(zip(PBN_SEATS, (int(x) for x in t[s]), strict=True)) for s in range(5)}
        if args.format == "json":
            records.append({"deal": d.text, "alone": args.alone, "table": rows})
        elif args.format == "csv":
            records += [{"deal": d.text, "strain": strain, **row} for strain, row in rows.items()]
        else:
            lines.append(d.text + ("\tdeclarer alone against three" if args.alone else "\tpartners opposite"))
            lines.append("      " + "".join(f"{seat:>4}" for seat in PBN_SEATS))
            lines += [f"{strain:<6}" + "".join(f"{x:>4}" for x in row.values()) for strain, row in rows.items()]
    return _render(records, args.format, lines)


def _describe(goal: Objective, k: int) -> str:
    return f"exactly {k}" if goal is Objective.EXACT else f"{goal.value} tricks"


def run(args: argparse.Namespace) -> None:
    """Solve every deal asked for and print the results (everything is validated before any solving)."""
    _check_options(args)
    played = _parse_played(args.played) if args.played is not None else None
    deals, games = _read_deals(args)
    from wiezen_sim.solvers.dd import check_position, parse_side, replay  # numba: after the checks

    if args.table:
        for d in deals:
            try:
                check_position(d.hands, "NT", 0)
            except ValueError as exc:
                raise ValueError(f"{d.where}{exc}") from None

        def tables_output(done: dict[int, Any]) -> str:
            return _table_output(args, [deals[i] for i in done], games, list(done.values()))

        tables = _answers(args, _Question("table", args.tt_mb, args.alone), [(d.hands, 0, ()) for d in deals],
                          tables_output)  # fmt: skip
        emit(args, _table_output(args, deals, games, tables))
        return
    trump, seats = parse_trump(args.trump), args.side.upper().translate(_SEAT_DIGITS)
    try:
        side = parse_side(seats)
    except ValueError as exc:  # name the side as typed (NSEW, not 0213)
        raise ValueError(str(exc).replace(repr(seats), repr(args.side))) from None
    goal, k = parse_objective(args.objective or "max")
    positions: list[Replay] = []
    for d in deals:
        try:
            r = replay(d.hands, trump, args.leader, played or ())
            to_play = int(r.hands[(r.leader + len(r.trick)) % 4]).bit_count()
            if goal is Objective.EXACT and k > to_play:
                raise ValueError(f"exact:{k} asks for more tricks than the {to_play} to play")
            if args.cards and to_play == 0:
                raise ValueError("every card has been played: no card left to choose")
            positions.append(r)
        except ValueError as exc:
            raise ValueError(f"{d.where}{exc}") from None

    def output(answered: dict[int, object]) -> str:
        records: list[dict] = []
        lines: list[str] = []
        for i, answer in answered.items():
            _report_one(args, deals[i], positions[i], side, goal, k, played, answer, records, lines)
        return _render(records, args.format, lines)

    question = _Question("cards" if args.cards else "solve", args.tt_mb, False, trump, side, goal, k)
    answers = _answers(args, question, [(r.hands, r.leader, tuple(r.trick)) for r in positions], output)
    emit(args, output(dict(enumerate(answers))))


@dataclass(frozen=True)
class _Question:
    """What is asked of every deal (picklable: a worker process answers it with a solver of its own)."""

    kind: str  # "table", "solve" or "cards"
    tt_mb: float
    alone: bool = False
    trump: int | None = None
    side: int = 0
    goal: Objective = Objective.MAX
    k: int = 0

    def __call__(self, position: tuple) -> object:
        """The answer for ``(hands, leader, trick)``: a table, a result, or the result after each card."""
        from wiezen_sim.solvers.dd import process_solver

        hands, leader, trick = position
        solver = process_solver(self.tt_mb)
        if self.kind == "table":
            return solver.table(hands, self.alone)
        if self.kind == "cards":
            return solver.card_values(hands, self.trump, leader, self.side, self.goal, self.k, trick=list(trick))
        return solver.solve(hands, self.trump, leader, self.side, self.goal, self.k, trick=list(trick))


def _answers(args: argparse.Namespace, question: _Question, positions: list[tuple],
             finished: Callable[[dict[int, Any]], str]) -> list[Any]:  # fmt: skip
    """``question`` of every position, in order. One deal (``--deal``) is answered in this process; a file's deals
    in ``--jobs`` worker processes, with a progress bar on a terminal. Stopped (Ctrl-C, SIGTERM), the output over
    the deals finished (``finished`` of their answers by index, in file order) is printed or written and their
    count said."""
    from wiezen_sim.parallel import Interrupted, progress_bar, run_tasks

    if args.deals is None:
        return [question(positions[0])]
    answered: dict[int, Any] = {}
    try:
        with progress_bar(len(positions), "solve: deals", False if args.quiet else None) as bar:
            for index, answer in run_tasks(question, positions, args.jobs, "loky"):
                answered[index] = answer
                bar.update()
    except KeyboardInterrupt as exc:
        stop = exc if isinstance(exc, Interrupted) else Interrupted()
        stop.done, stop.total, stop.unit = len(answered), len(positions), "deals"
        if answered:
            emit(args, finished(dict(sorted(answered.items()))))
            stop.hint = f"the results of those deals are {'in ' + args.out if args.out else 'printed'}"
        raise stop from None
    return [answered[i] for i in range(len(positions))]


def _report_one(args: argparse.Namespace, d: _Deal, r: Replay, side: int, goal: Objective, k: int,
                played: list[int] | None, answer: Any, records: list[dict], lines: list[str]) -> None:  # fmt: skip
    """Add one deal's records and text lines from its answer."""
    seat = (r.leader + len(r.trick)) % 4
    trick_no = 1 + sum(r.won)
    head: dict[str, object] = {"deal": d.text} if args.format != "table" else {}
    if played is not None:
        won = sum(w for s, w in enumerate(r.won) if side >> s & 1)
        head |= {"played": len(played), "won": won, "trick": trick_no, "to_play": seat}
    label = _describe(goal, k) + ("" if played is None else f" from trick {trick_no}")
    prefix = d.text + ("" if played is None else f"\tplayed {len(played)}, side won {head['won']}")
    if args.cards:
        values = answer
        cards = sorted(values, key=_card_order)
        if args.format == "csv":
            records += [{**head, "to_play": seat, "card": card_name(c), "result": values[c]}
                        for c in cards]  # fmt: skip
        else:
            records.append({**head, "to_play": seat,
                            "cards": {card_name(c): values[c] for c in cards}})  # fmt: skip
            lines.append(f"{prefix}\tseat {seat} to play, {label} after each card:")
            lines += [f"  {card_name(c)}\t{_fmt(values[c])}" for c in cards]
    else:
        records.append({**head, ("success" if goal is Objective.EXACT else "tricks"): answer})
        lines.append(f"{prefix}\t{label}: {_fmt(answer)}")


def _fmt(value: int | bool) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def add(sub: argparse._SubParsersAction) -> None:
    """Register ``solve``."""
    p = add_verb(
        sub,
        "solve",
        "double-dummy results of deals: a side's tricks, the result per card, or the table",
        'wiezen-sim solve --deal "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3" '
        "--trump NT --leader E --side NS",
        f"Seats are {PBN_SEAT_HELP} (a PBN deal starts with the seat of its first hand).",
    )
    p.add_argument("--deal", help='one PBN deal, e.g. "N:AKQ.T98..AK5432 ... ... ..."')
    p.add_argument("--deals", metavar="FILE", help="a PBN file ([Deal] tags) or one PBN deal per line")
    p.add_argument("--trump", choices=("S", "H", "D", "C", "NT"), type=str.upper)
    p.add_argument("--leader", type=pbn_seat, help=f"seat leading the first trick ({PBN_SEAT_HELP})")
    p.add_argument("--side", help="the side's seats, e.g. NS, 02 or 0,2 (1 to 3 seats)")
    p.add_argument("--objective", help="max (default), min or exact:K")
    p.add_argument("--played", metavar="CARDS", help='cards played so far from the first lead, e.g. "4S QS AS 2S"')
    p.add_argument("--cards", action="store_true", help="the result after each legal card of the player to move")
    p.add_argument("--table", action="store_true", help="every declarer x strain (partners opposite, as DDS)")
    p.add_argument("--alone", action="store_true", help="with --table: each declarer alone against three")
    add_jobs(p, what="a file's deals are solved in worker processes; one --deal in this process")
    p.add_argument("--tt-mb", type=float_range(0, MAX_TT_MB, above=True), default=DEFAULT_TT_MB,
                   help=f"transposition-table memory in MB (default {DEFAULT_TT_MB})")  # fmt: skip
    add_output(p, ("table", "json", "csv", "pbn"))
    p.set_defaults(func=run)
