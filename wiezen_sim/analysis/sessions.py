"""Whole Wiezen sessions between bots (issue 8; RULES.md Part 1).

:func:`play_session` plays one session: the first dealer is random (RULES.md 1.2), the
first deck is shuffled, and every deal runs the full auction (:mod:`wiezen_sim.rules.auction`,
Carte Blanche and the troel obligation included), the play and the settlement
(:func:`wiezen_sim.rules.game.play_one_hand`) under the rule set's variants:

- Dealing: 4-4-5 packets and the turned card, or Vuilbakwiezen (``vuilbak``; opponents
  discard their four lowest cards). Between hands a fresh shuffle (``deck = "shuffle"``),
  or gather and cut (``deck = "gather_and_cut"``): the next deck is the played tricks in
  order (kleine-miserie discards last), cut at a random point; after a throw-in the four
  hands are stacked from eldest, each hand sorted by suit and rank (as held).
- A hand thrown in (everybody passes, or Carte Blanche with no open miserie or solo
  slim bid) is redealt by the same dealer and does not count as a hand. With
  ``all_pass = "ronde_pas"`` an all-pass hand is a Ronde Pas game instead; it counts
  and the dealer moves on. The Ronde Pas game cycles 1 → 2 → 3 → 1 over the session
  (each all-pass hand plays the next game; the cycle does not restart after a
  contract: RULES.md 1.7 is silent, this is the choice made).
- After a played hand the dealer moves one seat on (RULES.md 1.1).
- A session is ``hands`` counted hands, or (``chip_limit``) ends earlier after the hand
  in which some seat's chips reach ``+chip_limit`` or ``-chip_limit``; with
  ``tie_break`` (RULES.md 1.8) a tie for the most chips is settled by one more hand at
  a time (at most ``hands`` more).
- Kleine-miserie discards: every player discards its highest card
  (:func:`wiezen_sim.solvers.players.highest_discard`, as the advisor assumes).

Seats 0..3 are fixed people for the whole session; chips are units of the rule set's
payment table, summed per seat (zero-sum every hand). :func:`simulate_sessions` plays
many sessions in parallel (one seed word per session from ``SeedSequence(seed)``:
results do not depend on ``n_jobs``) and rotates the bots over the seats.

A bot spec is ``BIDDER`` or ``BIDDER@PLAYER``: bidders of
:func:`wiezen_sim.analysis.bidders.make_bidder` (``conservative``, ``neutral``,
``aggressive``, ``threshold:A``, ``advisor[:S]``), players of
:func:`wiezen_sim.solvers.players.make_player` (``heuristic`` default, ``pimc[:M]``,
``random``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wiezen_sim.analysis.bidders import make_bidder
from wiezen_sim.analysis.stats import mean_interval, wilson
from wiezen_sim.cards import SUITS, card_name, cards_of
from wiezen_sim.defaults import MAX_HANDS, MAX_SESSIONS
from wiezen_sim.parallel import Interrupted, resolve_seed, run_batches, sample_seeds
from wiezen_sim.rules.bots import Bidder
from wiezen_sim.rules.contracts import contract_spec, succeeded
from wiezen_sim.rules.dealing import Deal, deal_packets, deal_vuilbak, gather_and_cut, new_deck
from wiezen_sim.rules.game import HandResult, play_one_hand
from wiezen_sim.rules.play import Policy
from wiezen_sim.rules.ruleset import RuleSet, get_rules
from wiezen_sim.solvers.players import highest_discard, make_player
from wiezen_sim.vocabulary import SEATS, is_whole

__all__ = [
    "MAX_THROW_INS",
    "Bot",
    "SessionRecord",
    "SessionsResult",
    "contract_summary",
    "make_bot",
    "play_session",
    "seat_bots",
    "simulate_sessions",
    "summarise",
]

MAX_THROW_INS = 1000  # consecutive redeals before a session gives up (bots that never bid)


@dataclass
class Bot:
    """One seat's bidder and card player.

    Attributes:
        name: label in result tables (the spec it was made from).
        bidder: ``AuctionState -> Bid`` (legal bids only).
        player: a card-play policy ``PlayView -> card``.
    """

    name: str
    bidder: Bidder
    player: Policy


def make_bot(spec: str | Bot, rng: np.random.Generator) -> Bot:
    """A bot from ``BIDDER[@PLAYER]`` (module docstring), e.g. ``aggressive@pimc:8``.

    Raises:
        ValueError: unknown bidder or player.
    """
    if isinstance(spec, Bot):
        return spec
    bid_spec, _, play_spec = str(spec).partition("@")
    return Bot(str(spec).strip(), make_bidder(bid_spec, rng), make_player(play_spec or "heuristic", rng))


@dataclass
class SessionRecord:
    """One played session.

    Attributes:
        chips: four ints, the units won per seat (zero-sum).
        hands: hands counted (throw-ins excluded, tie-break hands included).
        rows: one dict per deal (the columns of :attr:`SessionsResult.log`).
    """

    chips: list[int]
    hands: int
    rows: list[dict] = field(default_factory=list)


def _gathered(result: HandResult) -> list[int]:
    """The 52 cards in the order they are gathered after the hand (module docstring)."""
    if result.record is None:
        eldest = (result.deal.dealer + 1) % SEATS
        return [c for i in range(SEATS) for c in cards_of(result.deal.hands[(eldest + i) % SEATS])]
    return [c for _, cards, _ in result.record.tricks for c in cards] + list(result.record.discards)


def _row(result: HandResult, counted: int) -> dict:
    """The per-deal log row (see :attr:`SessionsResult.log`)."""
    deal, state, setup, record = result.deal, result.auction, result.setup, result.record
    row = {
        "hand": counted,
        "dealer": deal.dealer,
        "turned": card_name(deal.turned),
        **{f"hand_{s}": deal.hands[s] for s in range(SEATS)},
        "bids": " ".join(f"{s}:{str(b).replace(' ', '_')}" for s, b in state.history),
        "carte_blanche": -1 if state.carte_blanche is None else state.carte_blanche,
        "contract": "thrown_in",
        "declarers": "",
        "declarations": 0,
        "level": 0,
        "trump": "",
        "target": -1,
        "tricks": -1,
        "made": 0,
        "ronde_pas": result.ronde_pas or 0,
        **{f"p{s}": result.payments[s] for s in range(SEATS)},
    }
    if record is None or setup is None:
        return row
    if not setup.contracts:
        return {**row, "contract": "ronde_pas"}
    first = setup.contracts[0]
    sides = [setup.side] if len(setup.contracts) == 1 else [d.declarers for d in setup.contracts]
    spec = contract_spec(first.contract)
    return {
        **row,
        "contract": first.contract,
        "declarers": "+".join(str(s) for s in setup.side),
        "declarations": len(setup.contracts),
        "level": first.level or 0,
        "trump": "" if record.trump is None else SUITS[record.trump],
        "target": record.target,
        "tricks": record.side_tricks(setup.side),
        "made": sum(succeeded(spec, record.side_tricks(side), record.target) for side in sides),
    }


def play_session(
    rules: str | RuleSet,
    bots: Sequence[Bot],
    hands: int = 16,
    rng: np.random.Generator | None = None,
    first_dealer: int | None = None,
    decks: Sequence[Sequence[int]] | None = None,
    tie_break: bool = True,
    chip_limit: int | None = None,
) -> SessionRecord:
    """Play one session of ``hands`` hands between four bots (module docstring).

    Args:
        rules: preset name, TOML file or RuleSet (all variants of RULES.md Part 1).
        bots: four :class:`Bot` (seat order; the seats are fixed for the session).
        hands: counted hands (≥ 1).
        rng: numpy Generator for the first dealer, shuffles and cuts.
        first_dealer: the first dealer seat (default random).
        decks: scripted decks (52 card bit numbers each, top first) for the first deals
            instead of shuffling or gathering; for tests and replays.
        tie_break: settle a tie for the most chips by extra hands (RULES.md 1.8).
        chip_limit: end the session after the hand in which a seat's chips reach
            ±``chip_limit`` units (RULES.md 1.8 "play until a chip threshold"); ``hands``
            is then the most hands played.

    Returns:
        A :class:`SessionRecord` (chips per seat in units; one log row per deal).

    Raises:
        ValueError: not four bots, ``hands`` < 1, ``chip_limit`` < 1, a bad deck or dealer, a bot making an
            illegal bid or play, or :data:`MAX_THROW_INS` redeals in a row.
    """
    rules = get_rules(rules)
    if len(bots) != SEATS:
        raise ValueError(f"a session needs four bots, got {len(bots)}")
    if hands < 1:
        raise ValueError(f"a session needs at least one hand, got {hands}")
    if chip_limit is not None and chip_limit < 1:
        raise ValueError(f"chip_limit must be a positive number of units, got {chip_limit}")
    rng = rng if rng is not None else np.random.default_rng(0)
    dealer = int(rng.integers(SEATS)) if first_dealer is None else first_dealer
    bidders = [b.bidder for b in bots]
    players = [b.player for b in bots]
    chips, rows = [0] * SEATS, list[dict]()
    scripted = list(decks or [])
    deck = scripted.pop(0) if scripted else new_deck(rng)
    played, target, game, throw_ins = 0, hands, 1, 0
    while played < target:
        deal: Deal = deal_vuilbak(deck, dealer) if rules.vuilbak else deal_packets(deck, dealer)
        result = play_one_hand(deal, rules, bidders, players, game, lambda seat, hand: highest_discard(hand))
        counted = result.record is not None
        played += counted
        rows.append({"deal": len(rows), **_row(result, played if counted else 0)})
        chips = [c + p for c, p in zip(chips, result.payments, strict=True)]
        if counted:
            dealer, throw_ins = (dealer + 1) % SEATS, 0
        else:
            throw_ins += 1
            if throw_ins >= MAX_THROW_INS:
                raise ValueError(f"{MAX_THROW_INS} throw-ins in a row: the bots never bid")
        if result.ronde_pas is not None:
            game = game % 3 + 1
        if chip_limit is not None and max(abs(c) for c in chips) >= chip_limit:
            target = min(target, played)
        if played == target and tie_break and chips.count(max(chips)) > 1 and target < 2 * hands:
            target += 1
        if scripted:
            deck = scripted.pop(0)
        elif rules.deck == "gather_and_cut":
            deck = gather_and_cut(_gathered(result), rng)
        else:
            deck = new_deck(rng)
    return SessionRecord(chips, played, rows)


def seat_bots(bots: Sequence[str], session: int) -> list[str]:
    """The bot spec of each seat in session ``session``: ``bots[(seat + session) % len(bots)]``."""
    return [bots[(seat + session) % len(bots)] for seat in range(SEATS)]


class _SessionBatch:
    """Picklable joblib task: the sessions with the given indices."""

    def __init__(self, rules: RuleSet, bots: Sequence[str], hands: int, words: np.ndarray, tie_break: bool,
                 chip_limit: int | None) -> None:  # fmt: skip
        self.rules, self.bots, self.hands, self.words = rules, list(bots), hands, words
        self.tie_break, self.chip_limit = tie_break, chip_limit

    def __call__(self, indices: np.ndarray) -> list[tuple[list[str], SessionRecord]]:
        out = []
        for i in indices:
            deck_seq, *seat_seqs = np.random.SeedSequence(int(self.words[int(i)])).spawn(SEATS + 1)
            names = seat_bots(self.bots, int(i))
            bots = [make_bot(name, np.random.default_rng(s)) for name, s in zip(names, seat_seqs, strict=True)]
            record = play_session(self.rules, bots, self.hands, np.random.default_rng(deck_seq),
                                  tie_break=self.tie_break, chip_limit=self.chip_limit)  # fmt: skip
            out.append((names, record))
        return out


@dataclass
class SessionsResult:
    """The result of :func:`simulate_sessions`.

    Attributes:
        chips: int64[sessions, 4], units won per seat in each session (rows sum to 0).
        hands_played: int64[sessions], counted hands per session (tie-breaks included).
        seats: per session the bot spec of each seat.
        log: one row per deal: ``session, deal, hand`` (counted hand number, 0 for a
            throw-in), ``dealer, turned``, ``hand_0..hand_3`` (int64 card masks),
            ``bids`` (``seat:bid`` in order), ``carte_blanche`` (seat or −1),
            ``contract`` (a contract name, ``ronde_pas`` or ``thrown_in``),
            ``declarers`` (``"1+3"``), ``declarations`` (simultaneous misère: several),
            ``level``, ``trump``, ``target``, ``tricks`` (the declaring side's),
            ``made`` (declarations made), ``ronde_pas`` (game 1–3 or 0),
            ``p0..p3`` (units) and ``bot_0..bot_3``.
        summary: one row per bot: ``bot, sessions, seats`` (seat-sessions), ``seat_hands``, ``chips``,
            ``chips_per_hand, ci_low, ci_high`` (mean over sessions of the bot's chips per
            hand, averaged over its seats in that session; 95 % t-interval over
            sessions), ``win_rate`` (share of the sessions won by one of its seats: the most
            chips, ties shared; sums to 1 over the bots).
        meta: ``sessions, hands, seed, rules, bots``; ``partial`` True for the result of a
            stopped run (``sessions`` then counts the sessions finished).
    """

    chips: np.ndarray
    hands_played: np.ndarray
    seats: list[list[str]]
    log: pd.DataFrame
    summary: pd.DataFrame
    meta: dict

    def to_dict(self) -> dict:
        """The JSON form of issue 8: ``partial, sessions, hands, seed, chips, summary``."""
        rows = [
            {k: (None if pd.isna(r[k]) else float(r[k])) for k in ("chips_per_hand", "ci_low", "ci_high")}
            for _, r in self.summary.iterrows()
        ]
        return {
            "partial": bool(self.meta.get("partial")),
            "sessions": self.meta["sessions"],
            "hands": self.meta["hands"],
            "seed": self.meta["seed"],
            "chips": self.chips.tolist(),
            "summary": [{"bot": b, **r} for b, r in zip(self.summary.bot, rows, strict=True)],
        }

    def format_table(self) -> str:
        """Plain text: the run, then chips per hand per bot with the interval."""
        m = self.meta
        lines = [
            *(["PARTIAL: the run was stopped; these are the sessions finished"] if m.get("partial") else []),
            f"Wiezen sessions: {m['sessions']} × {m['hands']} hands, rules {m['rules']}, seed {m['seed']}, "
            f"bots rotated over the seats: {', '.join(m['bots'])}",
            f"{'bot':24} {'sessions':>8} {'seat-hands':>10} {'chips/hand':>10}  {'95% t-interval':18} {'wins':>6}",
        ]
        for r in self.summary.to_dict(orient="records"):
            ci = "-" if pd.isna(r["ci_low"]) else f"[{r['ci_low']:+.3f}, {r['ci_high']:+.3f}]"
            lines.append(
                f"{r['bot']:24} {r['sessions']:>8} {r['seat_hands']:>10} {r['chips_per_hand']:>+10.3f}  {ci:18} "
                f"{r['win_rate']:6.3f}"
            )
        return "\n".join(lines)


def summarise(chips: np.ndarray, hands_played: np.ndarray, seats: list[list[str]], bots: Sequence[str]) -> pd.DataFrame:
    """The per-bot table of :attr:`SessionsResult.summary` from the per-session chips."""
    rows = []
    for bot in dict.fromkeys(bots):
        per_session, wins, n_seats, n_hands, total = [], 0.0, 0, 0, 0
        for chips_s, hands_s, names in zip(chips, hands_played, seats, strict=True):
            mine = [s for s in range(SEATS) if names[s] == bot]
            if not mine:
                continue
            top = [s for s in range(SEATS) if chips_s[s] == chips_s.max()]
            per_session.append(float(np.mean([chips_s[s] for s in mine])) / hands_s)
            wins += sum(s in top for s in mine) / len(top)
            n_seats, n_hands = n_seats + len(mine), n_hands + len(mine) * int(hands_s)
            total += int(chips_s[mine].sum())
        mean, low, high = mean_interval(np.array(per_session))
        sessions = len(per_session)
        rows.append({"bot": bot, "sessions": sessions, "seats": n_seats, "seat_hands": n_hands, "chips": int(total),
                     "chips_per_hand": mean, "ci_low": low, "ci_high": high,
                     "win_rate": wins / sessions if sessions else float("nan")})  # fmt: skip
    return pd.DataFrame(rows)


def simulate_sessions(
    hands: int = 16,
    sessions: int = 100,
    rules: str | RuleSet = "tempelaere",
    bots: str | Sequence[str] = ("neutral",),
    seed: int | None = None,
    n_jobs: int = 1,
    tie_break: bool = True,
    chip_limit: int | None = None,
    batch_size: int | None = None,
    progress: bool | None = None,
    backend: str | None = None,
) -> SessionsResult:
    """Play ``sessions`` whole sessions of Wiezen between bots (issue 8; RULES.md Part 1).

    Args:
        hands: counted hands per session (RULES.md 1.8: commonly 16 or 24).
        sessions: number of sessions.
        rules: preset name, TOML file or RuleSet.
        bots: bot specs ``BIDDER[@PLAYER]`` (module docstring), rotated over the seats:
            in session ``i`` seat ``p`` gets ``bots[(p + i) % len(bots)]``; a single spec
            (``"neutral"``) is that bot in every seat, as ``["neutral"]``.
        seed: seed (``None`` draws one, reported in ``meta``); each session has its own
            seed word, so the result is the same for any ``n_jobs`` and ``batch_size``.
        n_jobs: workers (-1 = all cores).
        tie_break: settle ties for the most chips by extra hands (RULES.md 1.8).
        chip_limit: end a session early once a seat's chips reach ±``chip_limit`` units.
        batch_size: sessions per task; default adaptive (:func:`~wiezen_sim.parallel.run_batches`).
        progress: a progress bar on stderr (default when stderr is a terminal).
        backend: where the batches run (:func:`~wiezen_sim.parallel.run_batches`; default
            this process for ``n_jobs=1``, else ``loky`` worker processes).

    Returns:
        :class:`SessionsResult` (chips in units of the rule set's payment table).

    Raises:
        ValueError: ``hands`` or ``sessions`` not from 1 to ``MAX_HANDS`` /
            ``MAX_SESSIONS``, no bots, an unknown bot, preset or variant, ``n_jobs`` = 0.
        Interrupted: Ctrl-C or SIGTERM; ``partial`` the result of the sessions finished
            (``meta["partial"]`` True), None before the first.
    """
    rule_set = get_rules(rules)
    names = [str(b).strip() for b in ([bots] if isinstance(bots, str) else bots)]
    if not names:
        raise ValueError("give at least one bot")
    for name in names:
        make_bot(name, np.random.default_rng(0))
    for what, value, high in (("hands", hands, MAX_HANDS), ("sessions", sessions, MAX_SESSIONS)):
        if not is_whole(value, 1, high):
            raise ValueError(f"{what} must be an integer from 1 to {high}, got {value!r}")
    if n_jobs == 0:
        raise ValueError("jobs must be a worker count ≥ 1, or negative for all cores")
    seed = resolve_seed(seed)
    words = sample_seeds(seed, sessions)
    if chip_limit is not None and chip_limit < 1:
        raise ValueError(f"chip_limit must be a positive number of units, got {chip_limit}")
    task = _SessionBatch(rule_set, names, int(hands), words, tie_break, chip_limit)
    meta = {"sessions": int(sessions), "hands": int(hands), "seed": seed, "rules": rule_set.name, "bots": names}
    try:
        parts = run_batches(task, np.arange(sessions), batch_size, n_jobs, backend, progress, "sessions")
    except Interrupted as exc:
        exc.unit = "sessions"
        if exc.results:
            exc.partial = _result(exc.results, names, {**meta, "sessions": exc.done, "partial": True})
        raise
    return _result(parts, names, meta)


def _result(parts: list[list[tuple[list[str], SessionRecord]]], names: list[str], meta: dict) -> SessionsResult:
    """The result of the sessions of the finished batches (in session order)."""
    done = [item for part in parts for item in part]
    seats = [s for s, _ in done]
    chips = np.array([r.chips for _, r in done], dtype=np.int64)
    played = np.array([r.hands for _, r in done], dtype=np.int64)
    bot_columns = [{f"bot_{p}": names_s[p] for p in range(SEATS)} for names_s in seats]
    log = pd.DataFrame([{"session": i, **row, **bot_columns[i]} for i, (_, r) in enumerate(done) for row in r.rows])
    return SessionsResult(chips, played, seats, log, summarise(chips, played, seats, names), meta)


def contract_summary(log: pd.DataFrame) -> pd.DataFrame:
    """How often each contract stood and was made, and the chips that changed hands.

    Args:
        log: :attr:`SessionsResult.log` (any subset of rows).

    Returns:
        One row per ``contract`` (including ``ronde_pas`` and ``thrown_in``):
        ``deals`` (rows), ``share`` (of all deals), ``declarations``, ``made``,
        ``p_made`` with the Wilson 95 % ``made_low``/``made_high`` (per declaration),
        ``swing`` (mean chips changing hands per deal: half the sum of |payments|, units).
    """
    payments = log[[f"p{s}" for s in range(SEATS)]].abs().sum(axis=1) / 2
    rows = []
    for contract, g in log.assign(swing=payments).groupby("contract", sort=False):
        n, k = int(g.declarations.sum()), int(g.made.sum())
        low, high = wilson(k, n)
        rows.append({"contract": contract, "deals": len(g), "share": len(g) / len(log), "declarations": n,
                     "made": k, "p_made": k / n if n else float("nan"), "made_low": low, "made_high": high,
                     "swing": float(g.swing.mean())})  # fmt: skip
    return pd.DataFrame(rows).sort_values("deals", ascending=False, ignore_index=True)
