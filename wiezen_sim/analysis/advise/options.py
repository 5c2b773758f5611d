"""The advice table's option rows: success and settlement per sampled deal (RULES.md 1.3, 1.6).

One row per contract option, built from the per-deal answers of the double-dummy
table (:mod:`~wiezen_sim.analysis.advise.dd_table`) or of the play methods
(:mod:`~wiezen_sim.analysis.advise.play`). Success is decided by the contract table
(:func:`~wiezen_sim.rules.contracts.succeeded` with the target of the rules, a level
or the deal), the settlement by :func:`~wiezen_sim.rules.payments.settle`.
"""

from __future__ import annotations

import math

import numpy as np

from wiezen_sim.analysis.advise.bids import (
    NOT_ASKED,
    OUTCOMES,
    OWN_OPTION,
    OWN_VRAAG,
    BidOption,
    bid_options,
)
from wiezen_sim.analysis.advise.dd_table import PARTNER_ROWS, asker, exact_alone, kleine_candidates
from wiezen_sim.analysis.advise.play import play_options
from wiezen_sim.analysis.advise.stopping import settles_alike
from wiezen_sim.analysis.stats import mean_interval, wilson
from wiezen_sim.cards import SUITS, card_name, card_suit
from wiezen_sim.rules.auction import LEVELS, aces
from wiezen_sim.rules.contracts import PASS, contract_spec, succeeded
from wiezen_sim.rules.payments import settle
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.solvers.players import highest_discard
from wiezen_sim.vocabulary import SEATS

__all__ = ["BidRows", "OptionRows", "bid_rows", "dd_rows", "play_rows", "question"]


def question(contract: str, partner: object = None) -> str:
    """The name under which a row's questions are asked: its contract, or
    :data:`~wiezen_sim.analysis.advise.dd_table.PARTNER_ROWS` for a vraag with a fixed partner seat."""
    return PARTNER_ROWS if contract == "vraag" and isinstance(partner, int) else contract


class OptionRows:
    """The option rows of one advice, with their per-deal success and settlement.

    Attributes:
        rows: one dict per row (the table's columns, see :func:`~wiezen_sim.analysis.advise.advise`).
        dists: per row, ``float64[14]`` probabilities of 0..13 tricks (NaN where counts are not exact).
        evs: per row, ``float64[n]`` the declarer's settlement per deal in units, or None (a
            partner seat's row: not a bid).
        oks: per row, ``bool[n]`` success per deal counted.
    """

    def __init__(self, rules: RuleSet, seat: int, wanted: frozenset[str] | None = None) -> None:
        self.rules, self.seat, self.wanted = rules, seat, wanted
        self.rows: list[dict] = []
        self.dists: list[np.ndarray] = []
        self.evs: list[np.ndarray | None] = []
        self.oks: list[np.ndarray] = []

    def payout(
        self,
        contract: str,
        partners: np.ndarray | None,
        tricks: np.ndarray,
        target: np.ndarray | None = None,
        level: int | None = None,
    ) -> np.ndarray:
        """Declarer's settlement (units) per sample; ``partners`` int[n] for 2 vs 2 contracts."""
        p = self.seat
        cache: dict = {}
        out = np.empty(len(tricks), dtype=float)
        targets = np.broadcast_to(np.asarray(-1 if target is None else target), tricks.shape)
        mates = np.broadcast_to(np.asarray(-1 if partners is None else partners), tricks.shape)
        for i, (t, q, g) in enumerate(zip(tricks.tolist(), mates.tolist(), targets.tolist(), strict=True)):
            key = (t, q, g)
            if key not in cache:
                declarers = (p,) if q < 0 else (p, q)
                cache[key] = settle(self.rules, contract, declarers, t, None if g < 0 else g, level)[p]
            out[i] = cache[key]
        return out

    def flat_payout(self, contract: str, success: np.ndarray) -> np.ndarray:
        """Settlement of a flat-paying contract known only by success (solo slim, pico, kleine miserie)."""
        spec = contract_spec(contract)
        fail = spec.target + 1 if spec.target < spec.tricks else spec.target - 1
        return self.payout(contract, None, np.where(success, spec.target, fail))

    def add(
        self,
        contract: str,
        trump: int | None,
        success: np.ndarray,
        ev: np.ndarray | None,
        tricks: np.ndarray | None = None,
        **extra: object,
    ) -> None:
        """One row: p_success (Wilson interval), mean tricks, ev_units (t-interval; NaN if ``ev`` is None), n.

        Nothing is added for a contract outside ``wanted`` (a vraag row with a fixed partner
        seat: when :data:`~wiezen_sim.analysis.advise.dd_table.PARTNER_ROWS` is outside it).
        """
        if self.wanted is not None and question(contract, extra.get("partner")) not in self.wanted:
            return
        n = len(success)
        low, high = wilson(int(success.sum()), n)
        ev_mean, ev_low, ev_high = (math.nan,) * 3 if ev is None else mean_interval(ev)
        self.rows.append(
            {
                "contract": contract,
                "trump": None if trump is None else SUITS[trump],
                "p_success": float(success.mean()) if n else math.nan,
                "ci_low": low,
                "ci_high": high,
                "mean_tricks": float(tricks.mean()) if tricks is not None and n else math.nan,
                "ev_units": ev_mean,
                "ev_low": ev_low,
                "ev_high": ev_high,
                "n": n,
                **extra,
            }
        )
        self.evs.append(ev)
        self.oks.append(np.asarray(success, dtype=bool))
        if tricks is not None and n:
            self.dists.append(np.bincount(tricks.astype(np.int64), minlength=14)[:14] / n)
        else:
            self.dists.append(np.full(14, math.nan))

    def add_accepted_vraag(self, trump: int, tricks: np.ndarray, partner: np.ndarray) -> None:
        """The vraag row with the first seat that accepts (RULES.md 1.3), from the deals it was asked on.

        Args:
            trump: the turned suit 0..3.
            tricks: ``int[n]`` tricks of the pair per deal, −1 where nobody accepted (the proposer passes: 0 units).
            partner: ``int[n]`` the seat that accepted (read only where someone did).

        Its ``n`` counts the deals someone accepted, ``asked`` the deals it was asked on, ``p_accept`` their ratio;
        ``ev_units`` is over every deal asked.
        """
        accepted = tricks >= 0
        mate = np.where(accepted, partner, (self.seat + 1) % SEATS)  # any partner where nobody accepts: masked out
        ev = np.where(accepted, self.payout("vraag", mate, np.maximum(tricks, 0)), 0.0)
        self.add("vraag", trump, self.made("vraag", tricks)[accepted], ev, tricks[accepted], partner="accepting",
                 p_accept=float(accepted.mean()), asked=len(accepted))  # fmt: skip

    def made(self, contract: str, tricks: np.ndarray, target: int | np.ndarray | None = None) -> np.ndarray:
        """``bool[n]``: whether ``tricks`` make ``contract`` (target: the rules', unless given)."""
        return succeeded(contract_spec(contract), tricks, self.rules.target(contract) if target is None else target)


def dd_rows(
    res: dict[str, np.ndarray], hand: int, p: int, turned: int, rules: RuleSet, wanted: frozenset[str] | None = None
) -> OptionRows:
    """One row per contract option (RULES.md 1.3) from the double-dummy table, settled per RULES.md 1.6."""
    rows = OptionRows(rules, p, wanted)
    contracts = rules.contracts()
    trump = card_suit(turned)
    n = len(res["misere"])
    alone_t = res["alone"][:, trump]
    if "vraag" in contracts:
        order = [(p + k) % SEATS for k in range(1, SEATS)]
        for q in order:
            ok = res["pair_ok"][:, q]
            rows.add("vraag", trump, ok, None, partner=q)  # success only: one target test per partner seat
        partner = np.full(n, -1)
        for q in reversed(order):  # the first accepting seat clockwise after the proposer
            partner = np.where(res["accepts"][:, q], q, partner)
        rows.add_accepted_vraag(trump, res["accepted"], partner)
    rows.add("solo", trump, rows.made("solo", alone_t), rows.payout("solo", None, alone_t), alone_t)
    if "kleine_miserie" in contracts:
        best = int(np.argmax(res["kleine"].sum(axis=0)))
        ok = res["kleine"][:, best]
        discard = card_name(kleine_candidates(hand)[best])
        rows.add("kleine_miserie", None, ok, rows.flat_payout("kleine_miserie", ok), discard=discard)
    if "pico" in contracts:
        rows.add("pico", None, res["pico"], rows.flat_payout("pico", res["pico"]))
    for s in range(4):
        tricks = res["alone"][:, s]
        counted = tricks if exact_alone(s, trump, rules, asker(wanted)) else None  # where counts are exact
        if rules.abondance_levels:
            for level in LEVELS:
                ev = rows.payout("abondance", None, tricks, level=level)
                rows.add("abondance", s, rows.made("abondance", tricks, level), ev, counted, level=level)
        else:
            rows.add("abondance", s, rows.made("abondance", tricks), rows.payout("abondance", None, tricks), counted)
    if "abondance_in_troef" in contracts:
        ok = rows.made("abondance_in_troef", alone_t)
        rows.add("abondance_in_troef", trump, ok, rows.payout("abondance_in_troef", None, alone_t), alone_t)
    for name in ("miserie", "open_miserie"):
        rows.add(name, None, res["misere"], rows.flat_payout(name, res["misere"]))
    if aces(hand) >= 3 and asker(wanted)("troel"):
        tricks, target = res["troel"], res["troel_target"]
        ev = rows.payout("troel", res["troel_partner"], tricks, target)
        rows.add("troel", None, rows.made("troel", tricks, target), ev, tricks)
    for s in range(4):
        rows.add("solo_slim", s, res["slim"][:, s], rows.flat_payout("solo_slim", res["slim"][:, s]))
    return rows


def play_rows(
    res: dict[str, np.ndarray], hand: int, p: int, turned: int, rules: RuleSet, wanted: frozenset[str] | None = None
) -> OptionRows:
    """One row per played option (:func:`~wiezen_sim.analysis.advise.play.play_batch`), settled per RULES.md 1.6."""
    rows = OptionRows(rules, p, wanted)
    trump = card_suit(turned)
    contracts = rules.contracts()
    options = play_options(rules, hand)
    ask = asker(wanted)
    for k, (contract, suit) in enumerate(options):
        tricks = res["tricks"][:, k]
        if not ask(contract):
            pass  # not asked for (contracts=), or not in every round of these deals: no trick counts to settle
        elif contract == "vraag":
            rows.add_accepted_vraag(trump, tricks, res["vraag_partner"])
        elif contract == "solo":
            rows.add("solo", trump, rows.made("solo", tricks), rows.payout("solo", None, tricks), tricks)
        elif contract == "abondance" and rules.abondance_levels:
            for level in LEVELS:
                rows.add("abondance", suit, rows.made("abondance", tricks, level),
                         rows.payout("abondance", None, tricks, level=level), tricks, level=level)  # fmt: skip
        elif contract == "troel":
            target = res["troel_target"]
            ev = rows.payout("troel", res["troel_partner"], tricks, target)
            rows.add("troel", None, rows.made("troel", tricks, target), ev, tricks)
        elif contract == "kleine_miserie":
            ok, ev = rows.made(contract, tricks), rows.payout(contract, None, tricks)
            rows.add(contract, suit, ok, ev, discard=card_name(highest_discard(hand)))
        else:
            rows.add(contract, suit, rows.made(contract, tricks), rows.payout(contract, None, tricks))
        if contract == "abondance" and suit == 3 and "abondance_in_troef" in contracts and ask("abondance_in_troef"):
            tricks = res["tricks"][:, options.index(("abondance", trump))]  # played for abondance in troef too
            ok = rows.made("abondance_in_troef", tricks)
            rows.add("abondance_in_troef", trump, ok, rows.payout("abondance_in_troef", None, tricks))
    return rows


class BidRows:
    """The bid values of one advice (:mod:`~wiezen_sim.analysis.advise.bids`): one row per bid valued.

    Attributes:
        rows: one dict per bid: ``contract`` (``pass``, ``vraag``, ``solo``, a contract), ``trump``
            (S/H/D/C or None; the turned suit for vraag and solo), ``level`` (abondance levels, else
            None), ``ev_units``, ``ev_low``, ``ev_high`` (the seat's expected settlement in units with
            its Student-t 95 % interval, RULES.md 1.6), ``n`` (deals counted), the outcome shares
            ``declares``, ``with_partner``, ``other_contract``, ``all_pass`` (they sum to 1) and
            ``table_ev_units``, ``table_p_success`` (the table's "if I declare it" row of the bid: its
            expected settlement and P(success); NaN for pass), ``pays_as_pass`` (a bid other than pass that
            settles as pass on every deal both were valued on, such as a dealer's vraag nobody is left to
            accept).
        evs: per row, ``float64[n]`` the seat's settlement per counted deal (units).
        halves: per row, the Wilson 95 % half-width of the bid's table row's P(success) (0 for pass).
    """

    def __init__(self) -> None:
        self.rows: list[dict] = []
        self.evs: list[np.ndarray] = []
        self.halves: list[float] = []


def _row_index(rows: OptionRows, option: BidOption) -> int:
    """The table row of a bid's own contract: the vraag with the accepting partner, solo, or the contract in its
    suit and level."""
    for i, row in enumerate(rows.rows):
        if row["contract"] != option.contract or rows.evs[i] is None:
            continue
        if option.contract in ("vraag", "solo"):
            return i
        trump = None if option.trump is None else SUITS[option.trump]
        if row["trump"] == trump and row.get("level") == option.level:
            return i
    raise ValueError(f"no table row for the bid {option}")  # the bid's questions were not asked (bids.needed)


def bid_rows(
    res: dict[str, np.ndarray], rows: OptionRows, hand: int, turned: int, rules: RuleSet,
    valued: frozenset[str] | None = None,
) -> BidRows:  # fmt: skip
    """The bid values from the per-deal auctions (:func:`~wiezen_sim.analysis.advise.bids.bid_batch`) and the table.

    A bid's value on a deal is its ``bid_units`` plus, where the seat's own contract stands
    (``bid_own``), the table row's settlement on that deal (:class:`OptionRows` ``evs``). A bid not valued on
    every deal was dropped by the stop rule: it is valued on the deals it was asked on (a prefix).
    Under the troel obligation pass is not valued (no row).
    """
    out = BidRows()
    trump = card_suit(turned)
    outcome, own, units = res["bid_outcome"], res["bid_own"], res["bid_units"]
    for j, option in enumerate(bid_options(rules, hand)):
        m = int((outcome[:, j] != NOT_ASKED).sum())  # the deals it was asked on: a prefix
        if m == 0:
            continue
        value = units[:m, j].copy()
        half, table_ev, table_p = 0.0, math.nan, math.nan
        if option.contract != PASS:
            i = _row_index(rows, option)
            ev = rows.evs[i]
            assert ev is not None and len(ev) >= m  # asked on at least the bid's deals (bids.needed)
            value += np.where(own[:m, j] == OWN_OPTION, ev[:m], 0.0)
            low, high = wilson(int(rows.oks[i].sum()), len(ev))
            half, table_ev, table_p = (high - low) / 2, rows.rows[i]["ev_units"], rows.rows[i]["p_success"]
        if option.contract in ("vraag", "solo"):  # a vraag accepted by the table's partner: the vraag row
            vraag = rows.evs[_row_index(rows, BidOption("vraag"))]
            assert vraag is not None
            value += np.where(own[:m, j] == OWN_VRAAG, vraag[:m], 0.0)
        _add_bid(out, option, trump, value, outcome[:m, j], half, (table_ev, table_p))
    passing = next((ev for row, ev in zip(out.rows, out.evs, strict=True) if row["contract"] == PASS), None)
    for row, ev in zip(out.rows, out.evs, strict=True):
        row["pays_as_pass"] = row["contract"] != PASS and passing is not None and settles_alike(ev, passing)
    return out


def _add_bid(
    out: BidRows,
    option: BidOption,
    trump: int,
    value: np.ndarray,
    outcome: np.ndarray,
    half: float,
    table: tuple[float, float],
) -> None:
    """One bid row (:class:`BidRows`)."""
    n = len(value)
    ev_mean, ev_low, ev_high = mean_interval(value) if n else (math.nan,) * 3
    shares = np.bincount(outcome.astype(np.int64), minlength=len(OUTCOMES))[: len(OUTCOMES)] / max(n, 1)
    suit = trump if option.contract in ("vraag", "solo") else option.trump
    out.rows.append({
        "contract": option.contract,
        "trump": None if suit is None else SUITS[suit],
        "level": option.level,
        "ev_units": ev_mean,
        "ev_low": ev_low,
        "ev_high": ev_high,
        "n": n,
        **{name: float(share) for name, share in zip(OUTCOMES, shares, strict=True)},
        "table_ev_units": table[0],
        "table_p_success": table[1],
    })  # fmt: skip
    out.evs.append(value)
    out.halves.append(half)
