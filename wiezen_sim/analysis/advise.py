"""``advise``: which contract should this hand bid? (issue 4; RULES.md 1.3–1.6).

Monte Carlo double dummy over deals consistent with what the player knows: its own
13 cards and the turned card, which lies in the dealer's hand. Every sampled deal is
asked every question once (common random numbers): differences between contracts
are not sampling noise.

Positions are relative to the dealer: seat 0 = eldest (bids and leads first),
seat 3 = dealer.

Per sampled deal (the arrays of ``_solve_batch``, one row per sample). Exact trick
counts where the payment needs them, one zero-window target test elsewhere:
    alone[s]    int8[4]  most tricks the declarer can force alone, trump s, eldest leads:
                         exact for the turned suit (solo, abondance in troef) and with
                         abondance levels; otherwise only the abondance test (9 or 0)
    slim[s]     bool[4]  can the declarer take all 13, trump s, declarer leads — test
    misere      bool     can the declarer lose every trick, no trump, eldest leads
                         (miserie; open miserie is the same question double dummy) — test
    pico        bool     can the declarer force exactly one trick, no trump — test
    kleine[c]   bool[k]  after the declarer discards candidate c (and each defender
                         its discard): can it lose all 12 tricks? — test
    pair_ok[q]  bool[4]  can declarer + seat q make the vraag target together — test
    accepts[q]  bool[4]  would seat q accept a vraag (the acceptance rule)
    accepted    int8     pair tricks with the accepting partner (-1: nobody) — exact
    troel       int8     troel pair tricks (three or four aces) — exact;
    troel_partner, troel_target  int8: the partner and target in that sample

Documented rules where the issue leaves a choice:
- Kleine miserie: the defenders each discard their highest card (the highest rank,
  the longest suit on a tie); the declarer's discard is the single card, among the
  highest card of each suit (a lower card of the same suit is never better to
  discard), with the highest estimated success rate over the same samples.
- Vraag acceptance: a seat accepts when its :func:`playing_tricks` in the turned trump
  reach ``accept_tricks`` (default 4: "propose only with four tricks of your own");
  the first such seat clockwise after the proposer is the partner. If nobody accepts
  the proposer passes (settlement 0). The ``vraag`` row with ``partner = "accepting"``
  is that estimate; ``p_success`` is conditional on acceptance and ``ev_units`` is
  over all samples.
- Troel: the partner and first lead follow RULES.md 1.5 in every sample; with the
  *troel free lead* variant the standard lead is evaluated.
- The recommendation is the highest ``ev_units`` among the rows a player can bid
  now (every contract row, pass = 0 units; solo via a vraag nobody accepts); with
  three or four aces only troel, open miserie and solo slim (the troel obligation).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wiezen_sim.analysis.stats import mean_interval, prob_greater, wilson
from wiezen_sim.cards import FULL_DECK, SUITS, card_count, card_name, card_suit, hand_name, parse_card
from wiezen_sim.cards import parse_hand as _parse_hand
from wiezen_sim.kernel.playout import rng_new, sample_deal
from wiezen_sim.parallel import resolve_seed, run_batches, sample_seeds
from wiezen_sim.rules.auction import aces
from wiezen_sim.rules.bots import playing_tricks
from wiezen_sim.rules.contracts import contract_spec
from wiezen_sim.rules.payments import settle
from wiezen_sim.rules.play import troel_setup
from wiezen_sim.rules.ruleset import RuleSet, get_rules
from wiezen_sim.solvers.dd import DDSolver
from wiezen_sim.solvers.players import check_worlds, highest_discard

SEAT_NAMES = ("eldest", "second", "third", "dealer")
DEALER = 3
ELDEST = 0
METHODS = ("dd", "pimc", "heuristic")  # pimc and heuristic: wiezen_sim.analysis.advise_play
_METHOD_WORDS = {"dd": "double dummy", "pimc": "played by four PIMC players", "heuristic": "heuristic play"}
TROEL_ONLY = ("troel", "open_miserie", "solo_slim")
EXAMPLE = {"hand": "S:AKQJ98 H:AK2 D:K3 C:52", "seat": "eldest", "turned": "7H"}


@dataclass
class Advice:
    """Result of :func:`advise`.

    Attributes:
        table: one row per contract option (see :func:`advise`).
        distribution: probabilities of 0..13 tricks per row (rows with exact counts).
        recommendation: the row recommended (``contract``, ``trump``, ``ev_units``).
        runner_up: the second best option, and ``p_order`` the probability that the
            recommendation's expected value really exceeds it.
        meta: hand, seat, turned card, rules, samples, seed, method; for ``pimc`` also
            ``worlds``, ``pimc_decisions`` and ``worlds_dropped`` (worlds left out of a
            decision because a double-dummy question passed the node limit).
    """

    table: pd.DataFrame
    distribution: pd.DataFrame
    recommendation: dict
    runner_up: dict | None
    p_order: float
    meta: dict = field(default_factory=dict)
    success: list[np.ndarray] = field(default_factory=list, repr=False)  # per row: bool[n] success per deal

    def to_dict(self) -> dict:
        """The JSON form (issue 4 schema): meta keys, ``contracts`` rows, ``recommendation``."""
        rows = self.table.astype(object).where(self.table.notna(), None).to_dict(orient="records")
        for row, (_, dist) in zip(rows, self.distribution.iterrows(), strict=True):
            row["trick_distribution"] = None if dist.isna().all() else [round(float(x), 6) for x in dist]
        return {
            **self.meta,
            "contracts": rows,
            "recommendation": self.recommendation,
            "runner_up": self.runner_up,
            "p_order": self.p_order,
        }

    def format_table(self) -> str:
        """A plain-text report: the position, the table, the recommendation."""
        m = self.meta
        cols = [c for c in ("contract", "trump", "partner", "level", "discard") if c in self.table]
        shown = self.table[cols].astype(object).where(self.table[cols].notna(), "")
        shown["p_success"] = self.table["p_success"].map("{:.3f}".format)
        shown["95% CI"] = [f"{lo:.3f}–{hi:.3f}" for lo, hi in zip(self.table.ci_low, self.table.ci_high, strict=True)]
        shown["mean_tricks"] = self.table["mean_tricks"].map(lambda x: "" if math.isnan(x) else f"{x:.2f}")
        shown["ev_units"] = self.table["ev_units"].map(lambda x: "" if math.isnan(x) else f"{x:+.2f}")
        shown["n"] = self.table["n"]
        rec, run = self.recommendation, self.runner_up
        worlds = f"{m['worlds']} world{'s' if m['worlds'] != 1 else ''}" if m["method"] == "pimc" else ""
        lines = [
            f"hand {m['hand']}  seat {m['seat']}  turned {m['turned']}  rules {m['rules']}",
            f"{m['samples']} sampled deals, seed {m['seed']}, method {m['method']}"
            + (f", {worlds} per card decision ({describe_pimc(m)})" if worlds else ""),
            "",
            shown.to_string(index=False),
            "",
            f"recommendation: {_option_name(rec)}  ({rec['ev_units']:+.2f} units)",
        ]
        if run is not None:
            lines.append(
                f"runner-up: {_option_name(run)}  ({run['ev_units']:+.2f} units); "
                f"P(recommendation really better) = {self.p_order:.3f}"
            )
        lines += [
            "",
            f"p_success: probability the contract is made ({_METHOD_WORDS[m['method']]}); 95% CI: Wilson interval;",
            "mean_tricks: tricks of the declaring side (blank where only a target test is run);",
            "ev_units: your expected settlement in units (chips), RULES.md 1.6; blank for a partner seat",
            "(you cannot choose it); n: deals counted.",
            "partner: the partner's seat (0 eldest … 3 dealer); 'accepting' = the first seat that accepts",
            "under the acceptance rule (its n counts those deals, its ev_units counts 0 when nobody accepts).",
        ]
        if m.get("troel_obligation"):
            lines.append("three or four aces: troel is obligatory (only open miserie or solo slim may replace it)")
        return "\n".join(lines)


def describe_pimc(meta: dict) -> str:
    """PIMC effort of a run: decisions, and the worlds left out as too deep to solve of all drawn."""
    return (f"{meta['pimc_decisions']:,} decisions; worlds left out as too deep to solve: "
            f"{meta['worlds_dropped']:,} of at most {meta['pimc_decisions'] * meta['worlds']:,} drawn")  # fmt: skip


def _option_name(option: dict) -> str:
    return option["contract"] + (f" in {option['trump']}" if option.get("trump") else "")


def seat_index(seat: str | int) -> int:
    """Seat relative to the dealer: ``eldest``/``second``/``third``/``dealer`` or 0..3.

    Raises:
        ValueError: unknown seat.
    """
    if isinstance(seat, int) and 0 <= seat < 4:
        return seat
    if isinstance(seat, str) and seat.lower() in SEAT_NAMES:
        return SEAT_NAMES.index(seat.lower())
    raise ValueError(f"unknown seat {seat!r}; use eldest, second, third or dealer")


def check_position(hand: str | int, seat: str | int, turned: str | int) -> tuple[int, int, int]:
    """Validate what the player knows; returns ``(hand mask, seat 0..3, turned card)``.

    Raises:
        ValueError: not 13 distinct cards, an unknown seat, a bad turned card, the
            turned card in the hand of a player who is not the dealer, or missing
            from the dealer's hand.
    """
    mask = _parse_hand(hand, size=13) if isinstance(hand, str) else hand
    if card_count(mask) != 13 or mask & ~FULL_DECK:
        raise ValueError(f"a hand needs 13 cards, got {card_count(mask)}")
    p = seat_index(seat)
    card = parse_card(turned) if isinstance(turned, str) else turned
    inside = bool(mask >> card & 1)
    if p == DEALER and not inside:
        raise ValueError(f"the turned card {card_name(card)} must be in the dealer's own hand")
    if p != DEALER and inside:
        raise ValueError(f"the turned card {card_name(card)} lies in the dealer's hand, not in yours")
    return mask, p, card


def sample_hands(seed_word: np.uint64, hand: int, seat: int, turned: int) -> np.ndarray:
    """One deal consistent with the player's knowledge: ``int64[4]`` hands, seat 3 = dealer.

    The unseen cards are dealt uniformly to the three others; the turned card is
    in the dealer's hand.
    """
    known = np.zeros(4, dtype=np.int64)
    known[seat] = hand
    known[DEALER] |= 1 << turned
    need = np.array([13 - card_count(int(k)) for k in known], dtype=np.int64)
    unseen = FULL_DECK & ~hand & ~(1 << turned)
    return sample_deal(rng_new(seed_word), known, need, unseen)


def kleine_candidates(hand: int) -> list[int]:
    """The declarer's candidate discards: the highest card of each suit held."""
    out = []
    for s in range(4):
        lane = (hand >> (16 * s)) & 0xFFFF
        if lane:
            out.append(16 * s + lane.bit_length() - 1)
    return out


_SOLVERS: dict[int, DDSolver] = {}
# one table per strain (a solver empties its table when the trump changes): 32 MB per suit
# and 256 MB without trump, where the misère questions search the largest trees (on low
# hands a 32 MB table, emptied whenever it filled up, made a miserie test 3-10 times slower)
TT_MB = {-1: 256, 0: 32, 1: 32, 2: 32, 3: 32}


def _solver(trump: int) -> DDSolver:
    """This process's solver for one strain (tables are reused across deals and batches)."""
    if trump not in _SOLVERS:
        _SOLVERS[trump] = DDSolver(tt_mb=TT_MB[trump])
    return _SOLVERS[trump]


def _solve_batch(
    seeds: np.ndarray,
    hand: int,
    seat: int,
    turned: int,
    rules: RuleSet,
    accept_tricks: float,
    wanted: frozenset[str] | None = None,
) -> dict:
    """Ask every question (or those of the ``wanted`` contracts) of every sampled deal of one batch.

    The layout is in the module docstring; an answer not asked keeps its initial value.
    """
    ask = _asker(wanted)
    n = len(seeds)
    p = seat
    side = 1 << p
    trump = card_suit(turned)
    need = rules.target("vraag")
    candidates = kleine_candidates(hand)
    nt = _solver(-1)
    out = {
        "alone": np.zeros((n, 4), np.int8),
        "slim": np.zeros((n, 4), bool),
        "misere": np.zeros(n, bool),
        "pico": np.zeros(n, bool),
        "kleine": np.zeros((n, len(candidates)), bool),
        "pair_ok": np.zeros((n, 4), bool),
        "accepts": np.zeros((n, 4), bool),
        "accepted": np.full(n, -1, np.int8),
        "troel": np.full(n, -1, np.int8),
        "troel_partner": np.full(n, -1, np.int8),
        "troel_target": np.zeros(n, np.int8),
    }
    order = [(p + k) % 4 for k in range(1, 4)]
    for i, word in enumerate(seeds):
        hands = sample_hands(word, hand, p, turned)
        for s in range(4) if ask("solo", "abondance", "abondance_in_troef", "solo_slim") else ():
            if _exact_alone(s, trump, rules, ask):  # solo pays per trick; levels need the count
                out["alone"][i, s] = _solver(s).solve(hands, s, ELDEST, side)
            else:  # abondance pays flat: only whether 9 can be made
                out["alone"][i, s] = 9 if _solver(s).can_force(hands, s, ELDEST, side, 9) else 0
            if ask("solo_slim"):
                out["slim"][i, s] = _solver(s).can_force(hands, s, p, side, 13)
        if ask("miserie", "open_miserie"):
            out["misere"][i] = nt.can_force(hands, -1, ELDEST, side, 0, "min")
        if rules.pico and ask("pico"):
            out["pico"][i] = nt.solve(hands, -1, ELDEST, side, "exact", k=1)
        if rules.kleine_miserie and ask("kleine_miserie"):
            after = np.array([int(h) & ~(1 << highest_discard(int(h))) for h in hands], dtype=np.int64)
            for j, c in enumerate(candidates):
                after[p] = hand & ~(1 << c)
                out["kleine"][i, j] = nt.can_force(after, -1, ELDEST, side, 0, "min")
        # what the declarer makes alone in the turned trump (the exact count, or 9 when the
        # test for 9 succeeded) is a lower bound for any pair: a partner never costs a trick
        alone = int(out["alone"][i, trump]) if ask("solo", "abondance", "abondance_in_troef", "solo_slim") else -1
        for q in order if ask("vraag") else ():
            pair_ok = alone >= need or _solver(trump).can_force(hands, trump, ELDEST, side | 1 << q, need)
            out["pair_ok"][i, q] = pair_ok
            out["accepts"][i, q] = playing_tricks(int(hands[q]), trump) >= accept_tricks
        acceptor = next((q for q in order if out["accepts"][i, q]), None)
        if acceptor is not None and ask("vraag"):
            out["accepted"][i] = _solver(trump).solve(hands, trump, ELDEST, side | 1 << acceptor)
        if aces(hand) >= 3 and ask("troel"):
            setup = troel_setup([int(h) for h in hands], p, rules)
            lead_hands = hands.copy()
            lead_hands[setup.partner] &= ~(1 << setup.lead)
            pair = side | 1 << setup.partner
            out["troel"][i] = _solver(setup.trump).solve(
                lead_hands, setup.trump, setup.partner, pair, trick=(setup.lead,)
            )
            out["troel_partner"][i] = setup.partner
            out["troel_target"][i] = setup.target
    return out


def _asker(wanted: frozenset[str] | None):
    """``ask(*contracts)``: whether any of these contracts is wanted (all are when ``wanted`` is None)."""
    return lambda *names: wanted is None or not wanted.isdisjoint(names)


def _exact_alone(suit: int, trump: int, rules: RuleSet, ask) -> bool:
    """Whether ``alone[suit]`` is an exact count: abondance levels, or the turned trump when solo or
    abondance in troef is asked (an abondance alone needs only the test for 9)."""
    return rules.abondance_levels or (suit == trump and ask("solo", "abondance_in_troef"))


def _merge(parts: list[dict]) -> dict:
    return {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}


class _Rows:
    """Builds the option rows of the advice table from the per-sample answers."""

    def __init__(self, rules: RuleSet, seat: int, wanted: frozenset[str] | None = None) -> None:
        self.rules, self.seat, self.wanted = rules, seat, wanted
        self.rows: list[dict] = []
        self.dists: list[np.ndarray] = []
        self.evs: list[np.ndarray] = []
        self.oks: list[np.ndarray] = []

    def payout(
        self, contract: str, partners: np.ndarray | None, tricks: np.ndarray, target=None, level=None
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

        Nothing is added for a contract outside ``wanted``.
        """
        if self.wanted is not None and contract not in self.wanted:
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


def _build_rows(
    res: dict, hand: int, p: int, turned: int, rules: RuleSet, wanted: frozenset[str] | None = None
) -> _Rows:
    """One row per contract option (RULES.md 1.3), settled per RULES.md 1.6."""
    rows = _Rows(rules, p, wanted)
    contracts = rules.contracts()
    trump = card_suit(turned)
    n = len(res["misere"])
    alone_t = res["alone"][:, trump]
    if "vraag" in contracts:
        need = rules.target("vraag")
        order = [(p + k) % 4 for k in range(1, 4)]
        for q in order:
            ok = res["pair_ok"][:, q]
            rows.add("vraag", trump, ok, None, partner=q)  # success only: one target test per partner seat
        partner = np.full(n, -1)
        for q in reversed(order):  # the first accepting seat clockwise after the proposer
            partner = np.where(res["accepts"][:, q], q, partner)
        accepted = partner >= 0
        tricks = res["accepted"]
        mate = np.where(accepted, partner, order[0])  # any partner where nobody accepts: masked out
        ev = np.where(accepted, rows.payout("vraag", mate, np.maximum(tricks, 0)), 0.0)
        ok = (tricks >= need)[accepted]
        rows.add("vraag", trump, ok, ev, tricks[accepted], partner="accepting", p_accept=float(accepted.mean()))
    rows.add("solo", trump, alone_t >= 5, rows.payout("solo", None, alone_t), alone_t)
    if "kleine_miserie" in contracts:
        best = int(np.argmax(res["kleine"].sum(axis=0)))
        ok = res["kleine"][:, best]
        discard = card_name(kleine_candidates(hand)[best])
        rows.add("kleine_miserie", None, ok, rows.flat_payout("kleine_miserie", ok), discard=discard)
    if "pico" in contracts:
        rows.add("pico", None, res["pico"], rows.flat_payout("pico", res["pico"]))
    for s in range(4):
        tricks = res["alone"][:, s]
        counted = tricks if _exact_alone(s, trump, rules, _asker(wanted)) else None  # where counts are exact
        if rules.abondance_levels:
            for level in (9, 10, 11, 12):
                ev = rows.payout("abondance", None, tricks, level=level)
                rows.add("abondance", s, tricks >= level, ev, counted, level=level)
        else:
            rows.add("abondance", s, tricks >= 9, rows.payout("abondance", None, tricks), counted)
    if "abondance_in_troef" in contracts:
        rows.add("abondance_in_troef", trump, alone_t >= 9, rows.payout("abondance_in_troef", None, alone_t), alone_t)
    for name in ("miserie", "open_miserie"):
        rows.add(name, None, res["misere"], rows.flat_payout(name, res["misere"]))
    if aces(hand) >= 3 and _asker(wanted)("troel"):
        tricks, target = res["troel"], res["troel_target"]
        ev = rows.payout("troel", res["troel_partner"], tricks, target)
        rows.add("troel", None, tricks >= target, ev, tricks)
    for s in range(4):
        rows.add("solo_slim", s, res["slim"][:, s], rows.flat_payout("solo_slim", res["slim"][:, s]))
    return rows


def advise(
    hand: str | int,
    seat: str | int,
    turned: str | int,
    rules: str | RuleSet = "tempelaere",
    samples: int = 1000,
    seed: int | None = None,
    n_jobs: int = -1,
    method: str = "dd",
    accept_tricks: float = 4.0,
    batch_size: int | None = None,
    backend: str = "loky",
    progress: bool | None = None,
    contracts: Sequence[str] | None = None,
    worlds: int = 16,
    on_progress: Callable[[int], None] | None = None,
) -> Advice:
    """Estimate every contract this hand could declare, by Monte Carlo double dummy.

    Args:
        hand: the player's 13 cards (any notation of ``wiezen_sim.cards``) or a mask.
        seat: ``eldest``, ``second``, ``third`` or ``dealer`` (relative to the dealer;
            eldest bids and leads first).
        turned: the turned card (in the dealer's hand; in ``hand`` if seat is dealer).
        rules: preset name, TOML file or RuleSet; switched-off contracts are omitted.
        samples: sampled deals (all contracts use the same deals).
        seed: seed; ``None`` draws one (reported in ``meta``). Same seed and samples →
            same numbers for any ``n_jobs``, ``batch_size`` and backend.
        n_jobs: joblib workers (-1 = all cores).
        batch_size: sampled deals per joblib task (the unit of progress); default 25 for
            ``dd`` and 1 for the play methods, whose deals take seconds to minutes each.
        method: ``dd`` (double dummy), ``pimc`` or ``heuristic`` (every option played
            on the same sampled deals by four PIMC or heuristic players, issue 5; the
            choices are in :mod:`wiezen_sim.analysis.advise_play`).
        accept_tricks: the vraag acceptance rule's threshold (module docstring).
        contracts: only these contracts (names of RULES.md 1.3): the table has only
            their rows, the solver asks only their questions and the recommendation is
            among them and pass; ``None`` = every contract of the rules.
        worlds: PIMC worlds sampled per card decision (``method="pimc"``).
        on_progress: called after each batch with the number of sampled deals finished.

    Returns:
        :class:`Advice`. ``table`` (pandas.DataFrame), one row per option:
        ``contract`` (str), ``trump`` (S/H/D/C or None), ``p_success`` (probability),
        ``ci_low``/``ci_high`` (Wilson 95 %), ``mean_tricks`` (tricks of the declaring
        side; NaN where only a target test is run), ``ev_units`` (expected settlement
        of the declarer, units, RULES.md 1.6) with ``ev_low``/``ev_high`` (its 95 %
        t-interval), ``n`` (int), and where they apply
        ``partner`` (vraag), ``p_accept``, ``discard`` (kleine miserie), ``level``.
        ``distribution`` (DataFrame, same rows, columns 0..13) holds the trick
        distribution.

    Raises:
        ValueError: bad hand, seat, turned card, rules, method, contract name or samples ≤ 0.
    """
    mask, p, card = check_position(hand, seat, turned)
    rule_set = get_rules(rules)
    wanted = None if contracts is None else frozenset(contract_spec(c).name for c in contracts)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if samples <= 0:
        raise ValueError(f"samples must be positive, got {samples}")
    check_worlds(worlds)
    if n_jobs == 0:
        raise ValueError("jobs must be a worker count ≥ 1, or negative for all cores (-1) and joblib's -2, …")
    seed = resolve_seed(seed)
    seeds = sample_seeds(seed, samples)
    parts = run_batches(
        _Batch(mask, p, card, rule_set, accept_tricks, wanted, method, worlds),
        seeds, batch_size or (25 if method == "dd" else 1), n_jobs, backend, progress, "deals", on_progress,
    )  # fmt: skip
    res = _merge(parts)
    if method == "dd":
        rows = _build_rows(res, mask, p, card, rule_set, wanted)
    else:
        from wiezen_sim.analysis.advise_play import build_play_rows

        rows = _Rows(rule_set, p, wanted)
        build_play_rows(res, mask, p, card, rule_set, rows)
    table = pd.DataFrame(rows.rows)
    distribution = pd.DataFrame(np.array(rows.dists), columns=range(14))
    # a vraag with a fixed partner seat is information, not a bid: the partner chooses to accept
    candidates = [i for i, row in enumerate(rows.rows) if row.get("partner") in (None, "accepting")]
    options = [(float(rows.evs[i].mean()), i) for i in candidates]
    obliged = aces(mask) >= 3
    troel_options = [(ev, i) for ev, i in options if rows.rows[i]["contract"] in TROEL_ONLY]
    if obliged and troel_options:  # (none when contracts= leaves them all out: then pass stays possible)
        options = troel_options
    else:
        options.insert(0, (0.0, -1))  # pass, first so that it wins ties (the sort is stable)
    options.sort(key=lambda x: -x[0])

    def describe(index: int) -> dict:
        if index < 0:
            return {"contract": "pass", "trump": None, "ev_units": 0.0}
        row = rows.rows[index]
        return {"contract": row["contract"], "trump": row["trump"], "ev_units": row["ev_units"]}

    def evs(index: int) -> np.ndarray:
        return np.zeros(samples) if index < 0 else rows.evs[index]

    best = options[0][1]
    second = options[1][1] if len(options) > 1 else None
    p_order = prob_greater(evs(best) - evs(second)) if second is not None else 1.0
    pimc_meta = {}
    if method == "pimc":
        pimc_meta = {"worlds": worlds, "pimc_decisions": int(res["pimc_decisions"].sum()),
                     "worlds_dropped": int(res["worlds_dropped"].sum())}  # fmt: skip
    meta = {
        "hand": hand_name(mask),
        "seat": SEAT_NAMES[p],
        "turned": card_name(card),
        "rules": rule_set.name,
        "samples": samples,
        "seed": seed,
        "method": method,
        **pimc_meta,
        "accept_tricks": accept_tricks,
        "troel_obligation": obliged,
    }
    runner = None if second is None else describe(second)
    return Advice(table, distribution, describe(best), runner, p_order, meta, rows.oks)


class _Batch:
    """Picklable batch task for joblib: the sampled deals of one batch of seed words."""

    def __init__(
        self,
        hand: int,
        seat: int,
        turned: int,
        rules: RuleSet,
        accept_tricks: float,
        wanted: frozenset[str] | None,
        method: str = "dd",
        worlds: int = 16,
    ) -> None:
        self.args = (hand, seat, turned, rules, accept_tricks, wanted)
        self.method, self.worlds = method, worlds

    def __call__(self, seeds: np.ndarray) -> dict:
        if self.method == "dd":
            return _solve_batch(seeds, *self.args)
        from wiezen_sim.analysis.advise_play import play_batch

        return play_batch(seeds, *self.args, self.method, self.worlds)
