"""The advisor's results and their reports: a verdict, a plain-text table, CSV and JSON (issues 4, 5, 23).

:class:`Advice` is what :func:`~wiezen_sim.analysis.advise.advise` returns,
:class:`Comparison` what :func:`~wiezen_sim.analysis.advise.compare` returns; each
prints itself as a table (``format_table``), CSV (``to_csv``) and a JSON-ready dict
(``to_dict``).

The advice reads as a verdict: first the options one may bid now, best first (the
recommendation "yes", the others "no", with the probability of making them and the
expected settlement), then the table: the biddable rows sorted by expected value, a
``pass`` row, and the other rows (a vraag with a fixed partner seat, which the partner
decides; rows the troel obligation forbids; options never made) only with ``show_all``.
CSV starts with ``#`` comment lines (hand, seat, turned card, rules, samples, seed,
method, recommendation): ``pandas.read_csv(path, comment="#")`` reads the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wiezen_sim.analysis.advise.stopping import DECIDED
from wiezen_sim.cards import SUIT_SYMBOLS, SUITS, parse_card, parse_hand
from wiezen_sim.rules.auction import OVERCALL_ONLY, TROEL_OVERCALLS
from wiezen_sim.rules.contracts import contract_spec
from wiezen_sim.solvers.worlds import PILOT
from wiezen_sim.vocabulary import DEALER, ELDEST, parse_seat, seat_name

__all__ = ["METHOD_WORDS", "Advice", "Comparison", "bid_label", "describe_pimc", "option_name", "partner_words"]

CSV_DIGITS = 4  # decimals of the floats in CSV
VERDICT_OPTIONS = 3  # options in the verdict line besides pass
# said under the verdict with three or four aces: why the other contracts are neither bid values nor the runner-up
OBLIGED = ("three or four aces: troel is obligatory (RULES.md 1.4); only open miserie or solo slim may replace it, "
           "so no other bid is valued")  # fmt: skip
# below this P(recommendation better than the runner-up) the verdict says it is a close call: what the stop rule
# asks for (a fresh user read a run that ended at its ceiling at P 0.936, two bids 0.14 units apart, as settled)
CLOSE_CALL = DECIDED

METHOD_WORDS = {
    "dd": "double dummy",
    "pimc": "played by four PIMC players reading the auction",
    "pimc-uniform": "played by four PIMC players, uniform worlds",
    "heuristic": "heuristic play",
}


def describe_pimc(meta: dict) -> str:
    """PIMC effort of a run in words: decisions, the worlds left out as too deep to solve, and (players reading the
    auction) the options whose auction the model would not bid and the decisions where every world drawn has a seat
    bidding off the model or a seat's bids were left unread (that seat's hand guessed from the play alone; a bid
    is left unread when the model makes it with none of the :data:`~wiezen_sim.solvers.worlds.PILOT` hands drawn)."""
    n = meta["pimc_decisions"]
    text = (f"{n:,} card decisions; worlds left out as too deep to solve (each from one decision, which then chooses "
            f"on its other worlds): {meta['worlds_dropped']:,} worlds")  # fmt: skip
    if "auction_contradicted" in meta:
        text += (f"; guesses read the auction as bid by the {meta['auction_model']}; options whose auction that bot "
                 f"would not bid: {meta['auction_off_model']:,} (the other players still guess hands the bot bids "
                 "with, and may be misled, as at a table); decisions that could not read some seat's bids and "
                 "guessed its hand from the play alone (the bot makes those bids with no hand the play allows, or "
                 f"with none of the {PILOT:,} hands drawn, as with a rare bid such as abondance; or every world "
                 "drawn had that seat bidding off the bot): "
                 f"{meta['auction_contradicted']:,} of {n:,}")  # fmt: skip
    return text


def option_name(option: dict) -> str:
    """``solo in H``, ``miserie``: an option (a row's ``contract`` and ``trump``) in words."""
    return option["contract"] + (f" in {option['trump']}" if option.get("trump") else "")


def partner_words(partner: object) -> str:
    """A vraag row's ``partner`` in words: ``accepting`` → the first seat that accepts, 2 → ``third seat (2)``."""
    if _missing(partner):
        return ""
    if partner == "accepting":
        return "the first seat that accepts"
    seat = parse_seat(int(partner))  # type: ignore[call-overload]
    return f"{seat_name(seat)} seat ({seat})"


def _deal_counts(rows: pd.DataFrame) -> list[str]:
    """The ``n`` column of a contract table: the deals each row counts, and for the vraag with the accepting partner
    the deals it was asked on (``18 of 160``); blank where ``n`` is missing (None or NaN)."""
    asked = rows["asked"] if "asked" in rows else [None] * len(rows)
    return ["" if _missing(x) else f"{int(x)}" + ("" if _missing(a) else f" of {int(a)}")
            for x, a in zip(rows["n"], asked, strict=True)]  # fmt: skip


def _missing(x: object) -> bool:
    """None or NaN (a cell of a table row that has no value)."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def _troel_trump(hand: str) -> str:
    """Troel's trump as the hand tells it (RULES.md 1.5): three aces, the missing ace's suit; four aces, hearts
    (the rules' *four-ace troel partner* variant: the suit of the highest card the declarer lacks)."""
    mask = parse_hand(hand)
    missing = [s for s in range(4) if not mask >> parse_card("A" + SUITS[s]) & 1]  # a card is a bit index
    return SUIT_SYMBOLS[missing[0]] if len(missing) == 1 else SUIT_SYMBOLS[SUITS.index("H")]


def _label(row: dict, hand: str | None) -> str:
    """An option (a row's ``contract`` and ``trump``) in words with its trump as a suit symbol, troel's as ``hand``
    tells it (needed for troel only): ``abondance ♠``, ``troel ♥``, ``miserie``, ``pass``."""
    trump = row.get("trump")
    if row["contract"] == "troel":
        assert hand is not None, "troel's trump is read from the hand"
        trump = _troel_trump(hand)
    elif isinstance(trump, str) and trump in SUITS:
        trump = SUIT_SYMBOLS[SUITS.index(trump)]
    return row["contract"] + (f" {trump}" if isinstance(trump, str) and trump else "")


def bid_label(row: dict, hand: str | None) -> str:
    """A bid (a row's ``contract``, ``trump`` and ``level``) in words: the option's label (``_label``) with its
    abondance level: ``abondance 10 ♠``, ``vraag ♥``, ``pass``; ``hand`` as in ``_label``."""
    level = row.get("level")
    name = row["contract"] if level is None or level != level else f"{row['contract']} {int(level)}"
    return _label({**row, "contract": name}, hand)


def _position_line(meta: dict) -> str:
    """The position of a run's meta as the CSV's first comment line says it."""
    return f"hand {meta['hand']}, seat {meta['seat']}, turned {meta['turned']}, rules {meta['rules']}"


def _commented_csv(lines: list[str], bids: pd.DataFrame | None, bid_model: str | None, table: pd.DataFrame) -> str:
    """``table`` as CSV (floats to :data:`CSV_DIGITS` decimals, no trailing newline) after ``lines`` and the bid
    values (if any, as CSV lines after their title) as ``#`` comment lines."""
    if bids is not None:
        lines = [*lines, f"bid values (the other seats bid by the {bid_model}):",
                 *bids.round(CSV_DIGITS).to_csv(index=False).rstrip("\n").splitlines()]  # fmt: skip
    head = "".join(f"# {line}\n" for line in lines)
    return head + table.round(CSV_DIGITS).to_csv(index=False).rstrip("\n")


def _records(table: pd.DataFrame) -> list[dict]:
    """The table's rows as dicts, NaN as None (JSON null)."""
    return table.astype(object).where(table.notna(), None).to_dict(orient="records")


def _sampled_deals(n: int) -> str:
    """``1 sampled deal``, ``160 sampled deals``."""
    return f"{n} sampled deal{'' if n == 1 else 's'}"


def _verdict_units(ev: float) -> str:
    """An expected settlement as the verdict gives it: one decimal, a true minus sign, and no
    "−0.0" for a loss that rounds to nothing."""
    return f"{(ev if round(ev, 1) else 0.0):+.1f}".replace("-", "−")


def _yes(ev: str) -> str:
    """The recommendation's word in the verdict, given its value as :func:`_verdict_units` shows it: "yes", or
    "yes, the smallest loss" when every option loses (a player read a plain "yes" on a loss as a sure thing)."""
    return "yes, the smallest loss" if ev.startswith("−") else "yes"


def _made_yet_losing(rows: list[dict], label: Callable[[dict], str]) -> list[str]:
    """A line for each contract row made on more than half of the deals it is played on that still loses on average
    (a player asked why a solo made 60 % of the time was worth −0.52 units; a vraag is played only where someone
    accepts, so its share is of those deals, not of all)."""
    return [
        f"{label(r)} is made on {r['p_success']:.0%} of the deals it is played on and still loses "
        f"{-r['ev_units']:.2f} units on "
        "average: its failures cost more than its successes pay (the payment grows with each trick over or under "
        "its target, RULES.md 1.6)"
        for r in rows
        if r["contract"] != "pass" and r["p_success"] > 0.5 and r["ev_units"] < 0
    ]


def _more(options: int, where: str) -> list[str]:
    """``["2 more in the bid table"]`` when the verdict names fewer than ``options`` (it names at most
    :data:`VERDICT_OPTIONS` + 1), else empty: a player read a bid left out as forgotten."""
    hidden = options - VERDICT_OPTIONS - 1
    return [f"{hidden} more in the {where}"] if hidden > 0 else []


def _better_than(runner_up: str, p_order: float) -> str:
    """``better than vraag ♥ with probability 0.62 only`` (rounded down: 0.898 must not print as 0.90 "only")."""
    return f"better than {runner_up} with probability {math.floor(p_order * 100) / 100:.2f} only"


def _close_call_note(rec: dict) -> str:
    """``, a close call (better than …)`` for one method's recommendation of a comparison (``meta["recommendations"]``
    entry) that beats its runner-up with probability below :data:`CLOSE_CALL`, else empty."""
    if rec.get("runner_up") is None or rec["p_order"] >= CLOSE_CALL:
        return ""
    return f", a close call ({_better_than(rec['runner_up'], rec['p_order'])})"


@dataclass
class Advice:
    """Result of :func:`~wiezen_sim.analysis.advise.advise`.

    Attributes:
        table: one row per contract option (see ``advise``).
        distribution: probabilities of 0..13 tricks per row (rows with exact counts).
        recommendation: the row recommended (``contract``, ``trump``, ``ev_units``).
        runner_up: the second best option, and ``p_order`` the probability that the
            recommendation's expected value really exceeds it.
        meta: hand, seat, turned card, rules, samples (asked for), deals (counted), partial (True
            for the result of a stopped run, :meth:`partial_note`), seed, method; for ``pimc`` also
            ``worlds``, ``pimc_decisions`` and ``worlds_dropped`` (worlds left out of a
            decision because a double-dummy question passed the node limit).
        success: per row, ``bool[n]`` success per deal counted.
        bids: the bid values (None when no deal was counted): one row per
            bid the seat can make now, valued in the context of the auction (columns of
            :class:`~wiezen_sim.analysis.advise.options.BidRows`, and ``recommendation_ev_units``: the
            recommendation's expected settlement over the bid's ``n`` deals, a prefix of all, in units); the
            recommendation then comes from them (``meta["recommended_from"]``).
    """

    table: pd.DataFrame
    distribution: pd.DataFrame
    recommendation: dict
    runner_up: dict | None
    p_order: float
    meta: dict = field(default_factory=dict)
    success: list[np.ndarray] = field(default_factory=list, repr=False)
    bids: pd.DataFrame | None = None

    def to_dict(self) -> dict:
        """The JSON form (issue 4 schema): meta keys, ``contracts`` rows, ``bids`` rows (the bid values, or
        None), ``recommendation``."""
        rows = _records(self.table)
        for row, (_, dist) in zip(rows, self.distribution.iterrows(), strict=True):
            row["trick_distribution"] = None if dist.isna().all() else [round(float(x), 6) for x in dist]
        return {
            **self.meta,
            "contracts": rows,
            "bids": None if self.bids is None else _records(self.bids),
            "recommendation": self.recommendation,
            "runner_up": self.runner_up,
            "p_order": self.p_order,
        }

    def fixed_partner(self) -> pd.Series:
        """Per row (bool): a vraag with a fixed partner seat (the partner decides; not played by the play methods)."""
        if "partner" not in self.table:
            return pd.Series(False, index=self.table.index)
        partner = self.table["partner"]
        return partner.notna() & (partner != "accepting")

    def biddable(self) -> pd.Series:
        """Per row (bool): an option one may bid now, as the recommendation counts them.

        A contract row with an expected settlement (a vraag with a fixed partner seat is
        information, not a bid), but not abondance in troef (only an overcall of another seat's
        abondance, RULES.md 1.3, and the seats before this one passed); with three or four aces only
        troel, open miserie and solo slim (the troel obligation, RULES.md 1.4), if any of them is a row.
        """
        t = self.table
        ok = ~self.fixed_partner() & t["ev_units"].notna() & ~t["contract"].isin(OVERCALL_ONLY)
        obliged = ok & t["contract"].isin(("troel", *TROEL_OVERCALLS))
        return obliged if self.meta.get("troel_obligation") and obliged.any() else ok

    def label(self, row: dict) -> str:
        """An option in words with its trump as a suit symbol: ``abondance ♠``, ``troel ♥``, ``miserie``, ``pass``."""
        return _label(row, self.meta.get("hand"))

    def _ranked(self) -> list[dict]:
        """The options one may bid now (and pass where it is allowed), best expected value first."""
        rows = self.table[self.biddable()].to_dict(orient="records")
        if not (self.meta.get("troel_obligation") and rows):
            rows.append({"contract": "pass", "trump": None, "p_success": math.nan, "ev_units": 0.0})
        return sorted(rows, key=lambda r: -r["ev_units"])  # stable: pass after a contract worth 0

    def bid_label(self, row: dict) -> str:
        """A bid in words: :meth:`label` with its abondance level: ``abondance 10 ♠``, ``vraag ♥``, ``pass``."""
        return bid_label(row, self.meta.get("hand"))

    def verdict(self) -> str:
        """The short answer: the recommendation (``yes``; ``yes, the smallest loss`` when it loses), then the other
        best options by expected value, e.g.
        ``abondance ♠: yes, 0.97, +23 units · miserie: no, 0.05, −27 units · pass: no, +0.0 units``; from
        the bid values (where there are some) ``vraag ♥: yes, +1.7 units · pass: no, +0.0 units``; a bid that
        settles as the recommendation, or as pass, on every deal says so:
        ``pass: yes, +0.0 units · vraag ♣: pays as pass, +0.0 units``, and on how many when the stop rule dropped it
        (its value is over those deals): ``vraag ♣: pays as pass over its 8 deals, +0.6 units on them``; a bid it
        dropped that pays otherwise gives the recommendation's value on its deals: ``solo ♥: no, −1.9 units over its
        16 deals (vraag ♥: +2.3 on them)``."""
        return " · ".join(self._verdict_parts() + self._close_call())

    def _close_call(self) -> list[str]:
        """``close call: …`` when the recommendation beats the runner-up with probability below :data:`CLOSE_CALL`:
        more ``--samples`` narrow it, or, for a stopped run (``meta["partial"]``), running it to its end may."""
        if self.runner_up is None or self.p_order >= CLOSE_CALL:
            return []
        hint = "the run was stopped before it settled" if self.meta.get("partial") else "more --samples narrow it"
        return [f"close call: {_better_than(self.bid_label(self.runner_up), self.p_order)} ({hint})"]

    def _verdict_parts(self) -> list[str]:
        """The verdict's options, the recommendation first (an option dropped by the stop rule may show a higher mean
        over its fewer deals), then by expected value: from the bid values where there are some (those the stop rule
        dropped after the others, with their deals and the recommendation's value on those deals:
        ``kleine_miserie: no, +9.2 units over its 8 deals (pico: +12.5 on them)``), else from the table; at most
        :data:`VERDICT_OPTIONS` + 1 of them, and how many more there are."""
        best = self.label(self.recommendation)
        parts = []
        if self.bids is not None:
            best = self.bid_label(self.recommendation)
            shown = self._shown_bids(show_all=False)
            ranked = shown.sort_values("ev_units", ascending=False, kind="stable").to_dict(orient="records")
            most = max((row["n"] for row in ranked), default=0)
            # stable: the recommendation, then the bids valued on every deal, then those the stop rule dropped
            ranked.sort(key=lambda row: (self.bid_label(row) != best, row["n"] < most))
            alike = self._alike_bids()
            for row in ranked[: VERDICT_OPTIONS + 1]:
                label = self.bid_label(row)
                ev = _verdict_units(row["ev_units"])
                said = (
                    _yes(ev) if label == best
                    else f"pays as {best}" if label in alike
                    else "pays as pass" if row["pays_as_pass"]
                    else "no"
                )  # fmt: skip
                n = int(row["n"])
                if n >= most:
                    parts.append(f"{label}: {said}, {ev} units")
                elif said == "no":  # against the recommendation on the same deals: its mean over all is not comparable
                    on_them = _verdict_units(row["recommendation_ev_units"])
                    parts.append(f"{label}: no, {ev} units over its {n} deals ({best}: {on_them} on them)")
                else:  # "pays as pass" with pass's value on those deals, not overall
                    parts.append(f"{label}: {said} over its {n} deals, {ev} units on them")
            return parts + _more(len(ranked), "bid table")
        options = self._ranked()
        for row in sorted(options, key=lambda row: self.label(row) != best)[: VERDICT_OPTIONS + 1]:
            ev = _verdict_units(row["ev_units"])
            said = _yes(ev) if self.label(row) == best else "no"
            if row["contract"] == "pass":
                parts.append(f"pass: {said}, {ev} units")
            else:
                p = "no deal counted" if math.isnan(row["p_success"]) else f"{row['p_success']:.2f}"  # vraag: n = 0
                parts.append(f"{self.label(row)}: {said}, {p}, {ev} units")
        return parts + _more(len(options), "contract table (--all shows every row)")

    def _alike_bids(self) -> list[str]:
        """The bids still in contention (valued on the most deals; a bid valued on fewer was dropped by the stop
        rule) ranked between the recommendation and the runner-up: they settle as the recommendation on every
        deal (the runner-up is the best such bid that does not, :func:`~.recommend.recommend`); with no runner-up
        among them, every other such bid."""
        if self.bids is None:
            return []
        best = self.bid_label(self.recommendation)
        most = self.bids["n"].max()
        contending = [b for b in self.bids.to_dict(orient="records") if b["n"] == most]
        runner = None if self.runner_up is None else self.bid_label(self.runner_up)
        below = next((b["ev_units"] for b in contending if self.bid_label(b) == runner), -math.inf)
        return [self.bid_label(b) for b in contending if below < b["ev_units"] and self.bid_label(b) != best]

    def _shown_bids(self, show_all: bool) -> pd.DataFrame:
        """The bid values shown (by the verdict and the bid table): without ``show_all``, not the bids whose
        contract was never made in these deals (as in the contract table), unless it is the recommendation."""
        assert self.bids is not None
        best = self.bid_label(self.recommendation)
        recommended = [self.bid_label(row) == best for row in self.bids.to_dict(orient="records")]
        hopeless = (self.bids["table_p_success"] == 0) & ~np.array(recommended, dtype=bool)
        return self.bids if show_all else self.bids[~hopeless]

    def _bid_lines(self, show_all: bool) -> list[str]:
        """The bid-value table and its title (none without bid values), then the title of the contract table."""
        if self.bids is None:
            return []
        bids = self._shown_bids(show_all)
        hidden = len(self.bids) - len(bids)
        m, b = self.meta, bids.astype(object).where(bids.notna(), None)
        shown = pd.DataFrame({"bid": [self.bid_label(r) for r in b.to_dict(orient="records")]})
        shown["ev_units"] = [f"{x:+.2f}" for x in bids["ev_units"]]
        shown["ev 95% CI"] = ["" if math.isnan(lo) else f"{lo:+.1f} … {hi:+.1f}"
                              for lo, hi in zip(bids["ev_low"], bids["ev_high"], strict=True)]  # fmt: skip
        shown["n"] = [str(int(x)) for x in bids["n"]]
        for col, title in (("declares", "you declare"), ("with_partner", "with partner"),
                           ("other_contract", "another's contract"), ("all_pass", "all pass")):  # fmt: skip
            shown[title] = [f"{x:.2f}" for x in bids[col]]
        order = np.argsort(-bids["ev_units"].to_numpy(), kind="stable")
        passed = self.bids[self.bids["contract"] == "pass"]
        why_pass = [
            f"pass is worth {ev:+.2f} units, not 0: after your pass another seat's contract stands on {other:.0%} "
            "of the deals, and you settle with its declarer (you defend; RULES.md 1.6)"
            for ev, other in zip(passed["ev_units"], passed["other_contract"], strict=True)
            if other > 0 and round(ev, 2) != 0
        ]
        best = self.bid_label(self.recommendation)
        why_best = [  # a player asked why a vraag made on 98.6 % of the deals was worth −0.06 units as a bid
            f"{best} is worth {row['ev_units']:+.2f} units as a bid: after it another seat's contract stands on "
            f"{row['other_contract']:.0%} of the deals, and you settle with its declarer (RULES.md 1.6); the table "
            "below values each contract as if the other seats let it stand"
            for row in self.bids.to_dict(orient="records")
            if self.bid_label(row) == best and row["contract"] != "pass" and row["other_contract"] > 0
        ]
        return [
            f"bid values (the recommendation comes from these): the rest of the auction by the {m['bid_model']}, "
            f"the contract that stands: {METHOD_WORDS[m['method']]}"
            + (
                f" (other seats' contracts played: {m['bid_questions']:,}; their decisions whose worlds all have a "
                f"seat bidding off the model: {m['bid_auction_contradicted']:,})"
                if m["method"] == "pimc"
                else ""
            ),
            shown.iloc[order].to_string(index=False),
            *(
                [
                    f"{hidden} bid{'s' if hidden > 1 else ''} whose contract was never made in "
                    "these deals not shown (--all shows every bid)"
                ]
                if hidden
                else []
            ),
            *why_pass,
            *why_best,
            "",
            "if you declare it (each contract as if the other seats let it stand):",
        ]

    def misere_hint(self, pimc: str = "--method pimc") -> str:
        """Under double dummy, a sentence that points to the PIMC method (named ``pimc``: the CLI's option by
        default) when a misère-family contract one may bid was made on some sampled deal (double-dummy defenders
        see the declarer's cards, which flatters them; the misère family: RULES.md 1.3), naming those of the
        family never made (hidden from the table, they may be the best bid at a table); else empty."""
        misere = self.table[self.biddable() & self.table["contract"].map(lambda c: contract_spec(c).misere)]
        if self.meta["method"] != "dd" or not (misere["p_success"] > 0).any():
            return ""
        never = [self.label(r) for r in _records(misere[misere["p_success"] == 0])]
        return (
            "Double dummy lets the defenders see your cards, so a misère contract is made less often here than at a "
            "table (open miserie aside: its cards are shown anyway)."
            + (f" Never made here, so not in the table: {', '.join(never)}." if never else "")
            + f" {pimc} plays the misère contracts with players who guess the unseen cards from the auction (slower)."
        )

    def partial_note(self) -> str:
        """``PARTIAL: …`` for the result of a stopped run (``meta["partial"]``), else empty."""
        m = self.meta
        if not m.get("partial"):
            return ""
        return (f"PARTIAL: the run was stopped after {m['deals']:,} of the (at most) {m['samples']:,} sampled deals "
                f"asked for; every number is over the {m['deals']:,} finished")  # fmt: skip

    def _comment(self) -> list[str]:
        m, rec = self.meta, self.recommendation
        lines = [
            *([self.partial_note()] if m.get("partial") else []),
            _position_line(m),
            f"samples {m.get('deals', m['samples'])}, seed {m['seed']}, method {m['method']}",
            f"recommendation {option_name(rec)} ({rec['ev_units']:+.2f} units), "
            f"from the {m.get('recommended_from', 'table')}",
        ]
        return lines

    def to_csv(self) -> str:
        """The table as CSV, one line per row (floats to :data:`CSV_DIGITS` decimals, no trailing newline),
        after ``#`` comment lines with the position, the run, the recommendation and the bid values."""
        return _commented_csv(self._comment(), self.bids, self.meta.get("bid_model"), self.table)

    def format_table(self, show_all: bool = False, key: bool = True) -> str:
        """A plain-text report: the position, the verdict, the table (biddable rows by expected value, pass,
        and with ``show_all`` every other row), the recommendation and, with ``key``, a key to the columns."""
        m, t = self.meta, self.table
        ranked = self._ranked()
        # never made: a contract that always failed, or a vraag that nobody accepted (n = 0, no P(success))
        never = [r for r in ranked if r["contract"] != "pass" and (r["p_success"] == 0 or r["n"] == 0)]
        others = self.table[~self.biddable()].to_dict(orient="records")
        if show_all:
            listed, never, hidden = ranked + others, [], 0
        else:
            listed, hidden = [r for r in ranked if not any(r is x for x in never)], len(others)
        rows = pd.DataFrame(listed, columns=list(t.columns)).astype(object)
        rows = rows.where(rows.notna(), None)
        shown = pd.DataFrame({"contract": [self.label(r) for r in rows.to_dict(orient="records")]})
        if "partner" in rows and rows["partner"].notna().any():
            shown["partner"] = rows["partner"].map(partner_words)
        for col in ("level", "discard"):
            if col in rows and rows[col].notna().any():
                shown[col] = rows[col].map(lambda x: "" if x is None else x)

        def num(col: str, form: str) -> list[str]:
            return ["" if x is None or math.isnan(x) else form.format(x) for x in rows[col]]

        def interval(low: str, high: str, form: str) -> list[str]:
            return ["" if a is None or math.isnan(a) else f"{form.format(a)} … {form.format(b)}"
                    for a, b in zip(rows[low], rows[high], strict=True)]  # fmt: skip

        shown["p_success"] = num("p_success", "{:.3f}")
        shown["95% CI"] = interval("ci_low", "ci_high", "{:.3f}")
        shown["ev_units"] = [x or "" for x in num("ev_units", "{:+.2f}")]
        shown["ev 95% CI"] = interval("ev_low", "ev_high", "{:+.1f}")
        shown["mean_tricks"] = num("mean_tricks", "{:.2f}")
        shown["n"] = _deal_counts(rows)
        shown = shown.loc[:, [c == "contract" or shown[c].astype(bool).any() for c in shown.columns]]  # no blank column
        rec, run = self.recommendation, self.runner_up
        hint = self.misere_hint()
        worlds = f"{m['worlds']} world{'s' if m['worlds'] != 1 else ''}" if m["method"].startswith("pimc") else ""
        lines = [
            *([self.partial_note(), ""] if m.get("partial") else []),
            f"hand {m['hand']}  seat {m['seat']} ({parse_seat(m['seat'])})  turned {m['turned']}  rules {m['rules']}",
            _sampled_deals(m.get("deals", m["samples"]))
            + (" where the seats before you pass" if parse_seat(m["seat"]) != ELDEST else "")
            + f", seed {m['seed']} (the same seed reproduces these numbers), method {METHOD_WORDS[m['method']]}"
            + (f", {worlds} per card decision" if worlds else ""),
            *([f"PIMC effort: {describe_pimc(m)}"] if worlds else []),
            "",
            "verdict: " + self.verdict(),
            *([f"({hint})"] if hint else []),
            *([f"({OBLIGED})"] if m.get("troel_obligation") else []),
            "",
            *self._bid_lines(show_all),
            shown.to_string(index=False) if len(shown) else "(no contract row shown)",
            *_made_yet_losing(listed, self.label),
        ]
        unaccepted = [r for r in never if r["n"] == 0]  # a vraag nobody accepted: not asked, so not "never made"
        if unaccepted:
            last = " (after you nobody is left to accept)" if parse_seat(m["seat"]) == DEALER else ""
            names = ", ".join(self.label(r) for r in unaccepted)
            lines.append(f"nobody accepted in these deals, not shown: {names}{last}")
        if made_never := [r for r in never if r["n"] != 0]:
            names = ", ".join(f"{self.label(r)} ({int(r['n'])})" for r in made_never)
            lines.append(f"never made in these deals, not shown: {names} (in brackets the deals it was asked on: a "
                         "contract that cannot beat the best stops being asked; --all shows every row)")  # fmt: skip
        fixed_asked = self.fixed_partner().any()  # the rows of a fixed partner seat were asked (partner_rows)
        if hidden:
            names = ", ".join(dict.fromkeys(self.label(r) for r in others))  # a fixed partner's rows share a label
            lines.append(("a vraag with a fixed partner seat (the partner decides) or " if fixed_asked else "")
                         + f"not biddable now, not shown: {names} (--all shows every row)")  # fmt: skip
        if m["method"] == "dd" and not fixed_asked and (t["contract"] == "vraag").any():
            lines.append("not asked: a vraag with a fixed partner seat (the partner decides, not you); --all asks "
                         "and shows it")  # fmt: skip
        if m["method"] != "dd" and (t["contract"] == "vraag").any():
            lines.append(f"not shown: a vraag with a fixed partner seat (the partner decides): the {m['method']} "
                         "method plays only the first seat that accepts; --method dd --all shows them")  # fmt: skip
        lines += [
            "",
            f"recommendation: {self.bid_label(rec)}  ({rec['ev_units']:+.2f} units), "
            f"from the {m.get('recommended_from', 'table')}, {METHOD_WORDS[m['method']]}"
            + (" (the default method)" if m["method"] == "dd" else ""),
        ]
        if run is not None:
            unseen = self.bids is not None and self.bid_label(run) not in {
                self.bid_label(b) for b in self._shown_bids(show_all).to_dict(orient="records")
            }
            lines.append(
                f"runner-up: {self.bid_label(run)}  ({run['ev_units']:+.2f} units"
                + (
                    "; its contract was never made in these deals, so the bid table leaves it out: --all shows it"
                    if unseen
                    else ""
                )
                + f"); P(recommendation really better, deal by deal) = {self.p_order:.3f}"
            )
            if between := self._alike_bids():
                lines.append(f"({', '.join(between)}: pays exactly as the recommendation on every deal, so "
                             "not the runner-up)")  # fmt: skip
        if not key:
            return "\n".join(lines)
        lines += [
            "",
            f"p_success: probability the contract is made ({METHOD_WORDS[m['method']]}), with its 95% Wilson interval;",
            "ev_units: your expected settlement in units (chips), RULES.md 1.6, with its 95% Student-t interval;",
        ]
        if "mean_tricks" in shown:  # a column shown only where some row has it
            lines += [
                "mean_tricks: tricks of the declaring side (blank where only success is settled: double dummy asks",
                "a flat-paying contract, such as an abondance outside the turned suit, one target test; a played",
                "deal stops once the contract is made or broken);",
            ]
        lines += [
            "n: the deals that row counts, at most the sampled deals: a contract that cannot beat the best stops",
            "being asked after a round, and a vraag counts only the deals where someone accepts ('6 of 64').",
            "partner (vraag): the seat that goes with you; 'the first seat that accepts' counts only the deals where",
            "someone accepts (its ev_units counts 0 for the others, where you pass).",
        ]
        if "discard" in shown:
            lines.append("discard (kleine miserie): the card you lay aside before play (double dummy: the highest card "
                         "of a suit that made it most often; played: your highest card)")  # fmt: skip
        if self.bids is not None:
            lines += [
                "bid values: your expected settlement if you make this bid now, the seats before you having passed;",
                f"the others bid by the {m['bid_model']}; you pass when overcalled, never accept; vraag: pass if",
                "nobody accepts; solo: propose, then solo if nobody accepts. Shares: you declare, you play with the",
                "partner who accepted, another seat's contract stands (you defend), all pass (redeal: 0).",
            ]
        return "\n".join(lines)


@dataclass
class Comparison:
    """Result of :func:`~wiezen_sim.analysis.advise.compare`: ``table`` has one row per option played by every method.

    Columns: ``contract``, ``trump``, ``partner``, ``level`` (where they apply), ``n`` (deals
    counted), ``p_<method>`` (success probability per method), ``ev_<method>`` (the declarer's
    expected settlement per method, units, RULES.md 1.6), and for every method but the first
    ``diff_<method>`` = ``p_<method> - p_<first>`` with ``diff_<method>_low`` / ``_high``, its
    95 % interval for paired proportions (same deals; Newcombe's hybrid score interval:
    :func:`~wiezen_sim.analysis.stats.paired_difference`).

    ``bids`` (None when a method has no bid values): one row per bid the seat can make now, ``bid``
    (in words), per method its bid value in the context of the auction ``ev_<method>`` with
    ``ev_<method>_low`` / ``_high`` (Student-t 95 %), ``made_<method>`` (P(success) of the bid's own
    contract, NaN for pass), and ``recommended_by`` (the methods whose recommendation it is).
    """

    table: pd.DataFrame
    meta: dict = field(default_factory=dict)
    bids: pd.DataFrame | None = None

    def to_dict(self) -> dict:
        """JSON form: meta keys, ``contracts`` rows and ``bids`` rows (None without bid values)."""
        return {**self.meta, "contracts": _records(self.table),
                "bids": None if self.bids is None else _records(self.bids)}  # fmt: skip

    def to_csv(self) -> str:
        """The table as CSV, one line per row (floats to :data:`CSV_DIGITS` decimals, no trailing newline), after
        ``#`` comment lines with the position, the run, each method's recommendation and the bid values (as
        :meth:`Advice.to_csv`)."""
        m = self.meta
        lines = [
            _position_line(m),
            f"samples {m.get('deals', m['samples'])}, seed {m['seed']}, methods {','.join(m['methods'])}",
            *(f"recommendation {method} {r['bid']} ({r['ev_units']:+.2f} units), from the {r['from']}"
              for method, r in m.get("recommendations", {}).items()),
        ]  # fmt: skip
        return _commented_csv(lines, self.bids, m.get("bid_model"), self.table)

    def _verdict_lines(self) -> list[str]:
        """``recommended by each method: dd: vraag ♥ (+2.1 units) · pimc: pass (+0.0 units), a close call (better
        than vraag ♥ with probability 0.62 only)``, then a blank line (none without ``recommendations`` in the
        meta); each method's recommendation comes from its own run."""
        recs = self.meta.get("recommendations")
        if not recs:
            return []
        said = " · ".join(
            f"{m}: {r['bid']} ({r['ev_units']:+.1f} units)".replace("(-", "(−") + _close_call_note(r)
            for m, r in recs.items()
        )
        return [f"recommended by each method (from its {next(iter(recs.values()))['from']}): {said}", ""]

    def _bid_lines(self, show_all: bool) -> list[str]:
        """The bid values per method, best first by the first method (without ``show_all``, not the bids whose
        contract was never made under any method unless a method recommends them), then the contract table's
        title; none without bid values."""
        if self.bids is None:
            return []
        methods = self.meta["methods"]
        made = self.bids[[f"made_{m}" for m in methods]].fillna(1)  # pass (NaN) is never hopeless
        keep = show_all | (made > 0).any(axis=1) | (self.bids["recommended_by"] != "")
        bids = self.bids[keep].sort_values(f"ev_{methods[0]}", ascending=False, kind="stable")
        shown = pd.DataFrame({"bid": bids["bid"].to_numpy()})
        for m in methods:
            shown[f"ev_{m} (95% CI)"] = [
                "" if math.isnan(x) else f"{x:+.2f}" + ("" if math.isnan(lo) else f" ({lo:+.1f} … {hi:+.1f})")
                for x, lo, hi in zip(bids[f"ev_{m}"], bids[f"ev_{m}_low"], bids[f"ev_{m}_high"], strict=True)
            ]
        shown["recommended by"] = bids["recommended_by"].to_numpy()
        hidden = len(self.bids) - len(bids)
        note = f"{hidden} bid{'s' if hidden > 1 else ''} whose contract no method made in these deals not shown"
        return [
            f"bid values per method (each method's recommendation comes from its own): the rest of the auction by "
            f"the {self.meta['bid_model']}, the contract that stands played by that method",
            shown.to_string(index=False),
            *([f"{note} (--all shows every bid)"] if hidden else []),
            "",
            "each contract as if the other seats let it stand:",
        ]

    def hopeless(self) -> pd.Series:
        """Per row (bool): no deal counted (``n`` = 0, a vraag nobody accepted) or never made under any method."""
        p = self.table[[f"p_{m}" for m in self.meta["methods"]]]
        return (self.table["n"] == 0) | (p.fillna(0) == 0).all(axis=1)

    def format_table(self, show_all: bool = False, key: bool = True) -> str:
        """A plain-text report: the position and the run, the table (without ``show_all``, not the rows of
        :meth:`hopeless`, named in a note), what is not compared, and with ``key`` a key to the columns."""
        m, methods = self.meta, self.meta["methods"]
        first = methods[0]
        hidden = pd.Series(False, index=self.table.index) if show_all else self.hopeless()
        rows = self.table[~hidden]
        shown = pd.DataFrame({"contract": [_label(r, m["hand"]) for r in _records(rows)]})
        if "partner" in rows and rows["partner"].notna().any():
            shown["partner"] = rows["partner"].map(partner_words).to_numpy()
        if "level" in rows and rows["level"].notna().any():
            shown["level"] = ["" if x != x else str(int(x)) for x in rows["level"]]
        shown["n"] = _deal_counts(rows)
        for method in methods:
            shown[f"p_{method}"] = ["" if math.isnan(x) else f"{x:.3f}" for x in rows[f"p_{method}"]]
        for method in methods:
            shown[f"ev_{method}"] = ["" if math.isnan(x) else f"{x:+.2f}" for x in rows[f"ev_{method}"]]
        for method in methods[1:]:
            shown[f"{method} − {first} (95% CI)"] = [
                "" if math.isnan(d) else f"{d:+.3f} ({lo:+.3f} … {hi:+.3f})"
                for d, lo, hi in zip(rows[f"diff_{method}"], rows[f"diff_{method}_low"], rows[f"diff_{method}_high"],
                                     strict=True)
            ]  # fmt: skip
        efforts = [f"{method}: {describe_pimc(e)}" for method, e in m.get("pimc_effort", {}).items()]
        lines = [
            f"hand {m['hand']}  seat {m['seat']} ({parse_seat(m['seat'])})  turned {m['turned']}  rules {m['rules']}",
            f"{m['samples']} sampled deals (the same for every method, every contract played on each: no stop rule in"
            f" a comparison), seed {m['seed']}, methods "
            + ", ".join(f"{x} ({METHOD_WORDS[x]})" for x in methods)
            + (f"; {m['worlds']} PIMC worlds per card decision" if efforts else ""),
            *[f"  {line}" for line in efforts],
            "",
            *self._verdict_lines(),
            *self._bid_lines(show_all),
            shown.to_string(index=False) if len(rows) else "(no option shown)",
        ]
        if hidden.any():
            names = ", ".join(_label(r, m["hand"]) for r in _records(self.table[hidden]))
            lines.append(f"never made under any method or no deal counted, not shown: {names} (--all shows every row)")
        if fixed := m.get("fixed_partner_rows"):
            lines.append(f"{fixed} row{'s' if fixed > 1 else ''} not compared: a vraag with a fixed partner seat (the "
                         "partner decides; only --method dd asks it, the play methods play the first seat that "
                         "accepts)")  # fmt: skip
        if not key:
            return "\n".join(lines)
        lines += [
            "",
            "p_<method>: probability the contract is made ("
            + ", ".join(f"{x}: {METHOD_WORDS[x]}" for x in methods)
            + "); ev_<method>: your expected settlement in units (chips), RULES.md 1.6;",
            f"<method> − {first}: the difference of p_<method> and p_{first} with a 95% interval for paired "
            "proportions",
            "(Newcombe's hybrid score interval: the same deals under both methods).",
        ]
        if "partner" in rows and rows["partner"].notna().any():
            lines.append("n of a vraag: the deals where someone accepts ('6 of 64'); its ev counts 0 for the others, "
                         "where you pass.")  # fmt: skip
        return "\n".join(lines)
