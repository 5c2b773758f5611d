"""``advise``: the batches of sampled deals, the option rows, the bid values and the recommendation (issues 4, 19;
RULES.md 1.3–1.6).

The recommendation is the bid of highest expected value in the context of the auction
(:mod:`~wiezen_sim.analysis.advise.bids`; pass first on a tie). Only when no bid is valued
(none of the contracts asked for is a bid the seat can make) it is the highest ``ev_units``
among the table rows a player can bid now (pass = 0 units, first on a tie; solo via a vraag nobody
accepts). With three or four aces only troel, open miserie and solo slim (the troel obligation).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from wiezen_sim.analysis.advise.bids import TROEL_ONLY, PassedDeals, needed
from wiezen_sim.analysis.advise.dd_table import PARTNER_ROWS
from wiezen_sim.analysis.advise.options import BidRows, OptionRows, bid_rows, dd_rows, play_rows, question
from wiezen_sim.analysis.advise.play import DealBatch, check_accept_tricks, default_model
from wiezen_sim.analysis.advise.report import Advice, bid_label
from wiezen_sim.analysis.advise.stopping import (
    OVERLAP_FROM,
    ROUND_FIRST,
    Option,
    contending_discards,
    in_contention,
    progress_note,
    round_ends,
    settles_alike,
)
from wiezen_sim.analysis.stats import prob_greater, wilson
from wiezen_sim.cards import card_name, hand_name
from wiezen_sim.defaults import METHODS  # the play methods: wiezen_sim.analysis.advise.play
from wiezen_sim.parallel import (
    Interrupted,
    check_batch_size,
    progress_bar,
    resolve_backend,
    resolve_seed,
    rounds_pipeline,
)
from wiezen_sim.rules.auction import OVERCALL_ONLY, aces
from wiezen_sim.rules.contracts import CONTRACTS, contract_spec
from wiezen_sim.rules.dealing import check_position
from wiezen_sim.rules.ruleset import RuleSet, get_rules
from wiezen_sim.solvers.players import check_worlds
from wiezen_sim.solvers.worlds import AuctionModel
from wiezen_sim.vocabulary import is_whole, seat_name

__all__ = ["METHODS", "TROEL_ONLY", "advise", "first_round_questions", "recommend"]


def _check_wanted(wanted: frozenset[str], rules: RuleSet, aces_held: int) -> None:
    """Refuse a ``contracts=`` list the position cannot ask: a contract these rules do not play, or troel
    without three aces (RULES.md 1.5). With three or four aces a list without troel and its overcalls is
    an experiment's question, answered by the table; the CLI refuses it
    (:func:`~wiezen_sim.rules.auction.obligation_refusal`)."""
    played = rules.contracts()
    unplayed = sorted(wanted - set(played), key=list(CONTRACTS).index)
    if unplayed:
        raise ValueError(
            f"{', '.join(unplayed)}: not played under the rules {rules.name!r}; they have {', '.join(played)}"
        )
    if "troel" in wanted and aces_held < 3:
        raise ValueError(f"troel needs three or four aces (RULES.md 1.5); this hand has {aces_held}")


def first_round_questions(rules: RuleSet, wanted: frozenset[str] | None = None,
                          partner_rows: bool = False) -> frozenset[str]:  # fmt: skip
    """The table questions :func:`advise` asks of every deal of its first round: the contracts of ``wanted``
    (``None``: every contract of ``rules``) and those their bids need (solo: vraag, someone may accept), and
    with ``partner_rows`` the rows of a vraag with each fixed partner seat
    (:data:`~wiezen_sim.analysis.advise.dd_table.PARTNER_ROWS`: information, not a bid, asked on the first
    ``ROUND_FIRST`` deals at most). Names as :func:`~wiezen_sim.analysis.advise.dd_table.asker` reads them."""
    names = needed(frozenset(rules.contracts()) if wanted is None else wanted)
    return names | {PARTNER_ROWS} if partner_rows and "vraag" in names else names


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
    backend: str | None = None,
    progress: bool | None = None,
    contracts: Sequence[str] | None = None,
    worlds: int = 16,
    stop: bool = True,
    on_progress: Callable[[int], None] | None = None,
    model: AuctionModel | None = None,
    on_round: Callable[[int, str], None] | None = None,
    partner_rows: bool = False,
) -> Advice:
    """Estimate every contract this hand could declare, and what each bid it can make now is worth, by Monte Carlo
    double dummy (issues 4, 19; RULES.md 1.3–1.7).

    The deals are sampled where the seats before this one pass (RULES.md 1.4: the seat's first turn, as
    the advisor knows no earlier bid): the other hands are dealt at random and kept when ``model`` passes
    with every hand before this seat's (:class:`~wiezen_sim.analysis.advise.bids.PassedDeals`; eldest
    keeps every deal without another seat's troel). The table ("if I declare it") holds each contract's
    success and settlement on those deals as if the other seats let it stand. Each bid the seat can make
    at its first turn (pass, vraag, solo = propose and play solo if nobody accepts, each contract) is also
    valued in the context of the auction (``Advice.bids``), and the recommendation comes from those
    values. On every sampled deal the rest of the auction is bid by ``model`` (default the neutral
    threshold bot accepting with ``accept_tricks``), while this seat follows its plan: pass when
    overcalled, never accept, after a vraag nobody accepts pass (bid ``vraag``) or play solo (bid
    ``solo``). The contract that stands is played by the method (this seat's own from the table's answers
    on that deal, another seat's solved double dummy, or played by the method's players, who with ``pimc``
    read the auction that was bid) and settled for this seat (RULES.md 1.6: declarer, partner or defender);
    all pass is the rules' all-pass outcome (redeal 0; Ronde Pas: the first game, played by heuristic players,
    RULES.md 1.7). Details: :mod:`wiezen_sim.analysis.advise.bids`.

    Args:
        hand: the player's 13 cards (any notation of ``wiezen_sim.cards``) or a mask.
        seat: ``eldest``, ``second``, ``third`` or ``dealer``, or 0..3 (relative to
            the dealer; eldest = 0 bids and leads first, dealer = 3).
        turned: the turned card (in the dealer's hand; in ``hand`` if seat is dealer).
        rules: preset name, TOML file or RuleSet; switched-off contracts are omitted.
        samples: the most deals to sample (all contracts and bids use the same deals); with
            ``stop`` fewer once the recommendation is settled
            (:mod:`~wiezen_sim.analysis.advise.stopping`), exactly these without.
        seed: seed; ``None`` draws one (reported in ``meta``). Same seed and samples →
            same numbers for any ``n_jobs``, ``batch_size`` and backend.
        n_jobs: workers (-1 = all cores).
        batch_size: sampled deals per task (the unit of progress and of a partial result);
            default adaptive (:func:`~wiezen_sim.parallel.run_batches`).
        backend: where the batches run (:func:`~wiezen_sim.parallel.run_batches`): ``loky``
            worker processes can be stopped at once, also with ``n_jobs=1``; default this
            process for ``n_jobs=1``, else ``loky``.
        method: ``dd`` (double dummy), ``pimc``, ``pimc-uniform`` or ``heuristic`` (every
            option played on the same sampled deals by four PIMC or heuristic players, issue
            5; ``pimc`` behind the auction that leads to the option, its players reading that
            auction, ``pimc-uniform`` with uniform worlds; the choices are in
            :mod:`wiezen_sim.analysis.advise.play`).
        accept_tricks: the vraag acceptance rule's threshold (package docstring).
        contracts: only these contracts (names of RULES.md 1.3): the table has only
            their rows, the solver asks only their questions and the recommendation is
            among them and pass; ``None`` = every contract of the rules.
        worlds: PIMC worlds per card decision (the pimc methods): a quarter of them first, doubled
            while the two best cards are close, up to ``ADAPTIVE_CAP`` times ``worlds``
            (:func:`~wiezen_sim.analysis.advise.bids.method_players`).
        stop: the stop rule: deals in rounds, dominated contracts no longer asked, the run
            ended once the recommendation is settled. ``meta["deals"]`` is the deals drawn.
        on_progress: called after each batch with the number of sampled deals finished.
        model: the bidding model of the other seats (:class:`~wiezen_sim.solvers.worlds.AuctionModel`;
            default the neutral threshold bot accepting with ``accept_tricks``:
            :func:`~wiezen_sim.analysis.advise.play.default_model`): ``pimc``'s players read the auction
            with it, and with ``dd`` it bids the rest of the auction for the bid values (only its
            ``__call__`` is used there).
        on_round: called after each round that the stop rule judged, with the sampled deals so far and
            how far the rule is from stopping, in words (the note the progress bar prints,
            :func:`~wiezen_sim.analysis.advise.stopping.progress_note`; ``…: settled, the run stops`` at
            the round it stops at).
        partner_rows: also ask the rows of a vraag with each fixed partner seat (``dd``: a target test per
            seat and deal, on the first ``ROUND_FIRST`` deals at most, :func:`first_round_questions`). They
            are information, not bids (the partner decides whether to accept): they never change the
            recommendation, and the report shows them only with every row (``show_all``).

    Returns:
        :class:`~wiezen_sim.analysis.advise.report.Advice`. ``table`` (pandas.DataFrame),
        one row per option: ``contract`` (str), ``trump`` (S/H/D/C or None),
        ``p_success`` (probability), ``ci_low``/``ci_high`` (Wilson 95 %), ``mean_tricks``
        (tricks of the declaring side; NaN where only a target test is run),
        ``ev_units`` (expected settlement of the declarer, units, RULES.md 1.6), ``n``
        (int; a vraag with the accepting partner: the deals someone accepted), and where they apply ``partner``
        (vraag), ``p_accept`` and ``asked`` (the deals that vraag was asked on), ``discard``
        (kleine miserie), ``level``. ``distribution`` (DataFrame, same rows, columns
        0..13) holds the trick distribution. ``bids`` (DataFrame or None): one row per bid,
        ``contract``, ``trump``, ``level``, ``ev_units`` (this seat's expected settlement, units),
        ``ev_low``/``ev_high`` (Student-t 95 %), ``n`` (deals counted), the outcome shares
        ``declares``, ``with_partner``, ``other_contract``, ``all_pass``, and the bid's table row
        ``table_ev_units``, ``table_p_success``. ``meta`` adds ``recommended_from`` (``bid
        values`` or ``table``), ``bid_model``, ``bid_questions`` (other seats' contracts solved or
        played), ``bid_trick_nodes`` (their double-dummy trick nodes, ``dd``) and
        ``bid_auction_contradicted`` (``pimc``: decisions of those plays whose worlds all have a
        seat bidding off the model).

    Raises:
        ValueError: bad hand, seat, turned card, rules, method, contract name or list, samples not a
            whole number ≥ 1, a seed not a whole number ≥ 0, accept_tricks not a number 0..13 (not a bool),
            a contract the rules do not play, troel asked of a hand without three aces, or a position where
            the seats before this one almost never pass under the model
            (:class:`~wiezen_sim.analysis.advise.bids.PassedDeals`).
        Interrupted: Ctrl-C or SIGTERM (:mod:`wiezen_sim.parallel`); its ``partial`` is the
            Advice over the deals finished (``meta["partial"]`` True), None before the first.
    """
    mask, p, card = check_position(hand, seat, turned)
    rule_set = get_rules(rules)
    if contracts is not None and (isinstance(contracts, str) or not contracts):
        raise ValueError(f"contracts must be a non-empty list of contract names, got {contracts!r}")
    wanted = None if contracts is None else frozenset(contract_spec(c).name for c in contracts)
    if wanted is not None:
        _check_wanted(wanted, rule_set, aces(mask))
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if not is_whole(samples, 1):
        raise ValueError(f"samples must be a positive whole number, got {samples!r}")
    check_accept_tricks(accept_tricks)
    check_worlds(worlds)
    check_batch_size(batch_size)
    if on_progress is not None and not callable(on_progress):
        raise ValueError(f"on_progress must be a function of the deals finished, got {on_progress!r}")
    if on_round is not None and not callable(on_round):
        raise ValueError(f"on_round must be a function of the deals finished and a note, got {on_round!r}")
    backend = resolve_backend(backend, n_jobs)
    seed = resolve_seed(seed)
    auction_model = model or default_model(accept_tricks)
    passed = PassedDeals(seed, mask, p, card, rule_set, auction_model)
    obliged = aces(mask) >= 3
    build = dd_rows if method == "dd" else play_rows
    names = frozenset(rule_set.contracts()) if wanted is None else wanted
    valued = set(names)  # the contracts whose bids are still valued (issue 19)
    shown = names | ({PARTNER_ROWS} if partner_rows and "vraag" in names else set())  # the table's rows
    names = first_round_questions(rule_set, names, partner_rows)  # solo needs vraag's questions too
    asked = set(names)  # the contracts still in contention
    rounds: list[tuple[int, frozenset[str], dict[str, np.ndarray]]] = []  # (deals so far, asked, answers)
    bounded = stop and samples > ROUND_FIRST
    bar = progress_bar(samples, "sampled deals", progress, ceiling=bounded)
    valued_first = frozenset(valued)
    hand_text = hand_name(mask)  # the hand as the report names it

    def finished(done: int) -> None:
        bar.update(done - bar.n)
        if on_progress is not None:
            on_progress(done)

    def bids_of(rows: OptionRows) -> BidRows | None:
        """The bid values so far, else None (no bid valued): then the table recommends."""
        res = _merge([answers for _, _, answers in rounds])
        bids = bid_rows(res, rows, mask, card, rule_set, valued_first)
        return bids if any(len(ev) for ev in bids.evs) else None

    def result(rows: OptionRows, partial: bool) -> Advice:
        bids = bids_of(rows)
        best, runner, p_order, ranked = recommend(rows, obliged, bids)
        if bids is not None:  # the recommendation over each bid's deals: what a bid dropped early is compared with
            for row, ev in zip(bids.rows, bids.evs, strict=True):
                row["recommendation_ev_units"] = float(np.mean(ranked[0][1][: len(ev)]))
        res = _merge([answers for _, _, answers in rounds])
        pimc_meta: dict[str, object] = {}
        if method.startswith("pimc"):
            pimc_meta = {"worlds": worlds, "pimc_decisions": int(res["pimc_decisions"].sum()),
                         "worlds_dropped": int(res["worlds_dropped"].sum())}  # fmt: skip
        if method == "pimc":
            pimc_meta.update(auction_model=getattr(auction_model, "name", type(auction_model).__name__),
                             auction_contradicted=int(res["auction_contradicted"].sum()),
                             auction_off_model=int(res["auction_off_model"].sum()))  # fmt: skip
        bid_meta = {"recommended_from": "bid values" if bids is not None else "table",
                    "bid_model": getattr(auction_model, "name", type(auction_model).__name__),
                    "bid_questions": int(res["bid_questions"].sum()),
                    "bid_trick_nodes": int(res["bid_trick_nodes"].sum()),
                    "bid_auction_contradicted": int(res["bid_auction_contradicted"].sum())}  # fmt: skip
        deals = rounds[-1][0]
        meta = {
            "hand": hand_text,
            "seat": seat_name(p),
            "turned": card_name(card),
            "rules": rule_set.name,
            "samples": samples,
            "deals": deals,
            "stopped_early": deals < samples and not partial,
            "partial": partial,
            "seed": seed,
            "method": method,
            **pimc_meta,
            **bid_meta,
            "accept_tricks": accept_tricks,
            "troel_obligation": obliged,
            "partner_rows": partner_rows,
        }
        keep = [i for i, row in enumerate(rows.rows) if question(row["contract"], row.get("partner")) in shown]
        table = pd.DataFrame([rows.rows[i] for i in keep])
        distribution = pd.DataFrame(np.array([rows.dists[i] for i in keep]), columns=range(14))
        bid_table = None if bids is None else pd.DataFrame(bids.rows)
        return Advice(table, distribution, best, runner, p_order, meta, [rows.oks[i] for i in keep], bid_table)

    ends = round_ends(samples) if stop else [samples]
    discards = None  # the kleine-miserie candidate discards asked (None: all)
    with bar, rounds_pipeline(batch_size, n_jobs, backend) as pipe:

        def submit(k: int) -> None:
            """Queue round ``k`` with the questions chosen so far (drawing its deals, the auctions before the
            seat, can be stopped too: the pipeline's signals are on)."""
            start_k = ends[k - 1] if k else 0
            pipe.submit(
                DealBatch(mask, p, card, rule_set, accept_tricks, frozenset(asked), method, worlds, auction_model,
                          discards, frozenset(valued)),
                passed.seeds(ends[k])[start_k:],
            )  # fmt: skip
            submitted.append(frozenset(asked))

        submitted: list[frozenset[str]] = []  # the contracts each round submitted asks
        start = 0
        try:
            submit(0)
            for k, end in enumerate(ends):
                if k + 1 < len(ends) and start >= OVERLAP_FROM:  # the next round asks what was chosen before this one
                    submit(k + 1)
                parts = pipe.collect(functools.partial(_shifted, finished, start))
                rounds.append((end, submitted[k], _merge(parts)))
                start = end
                rows = _rows(build, rounds, mask, p, card, rule_set)
                if end == samples:
                    break
                leader, runner, _, options = recommend(rows, obliged, bids_of(rows))
                state = in_contention(options, 0, valued_first - valued)
                valued &= state.contracts  # the bids in contention, and the table questions they need
                # the rows of a fixed partner seat go with vraag's bid (they are information about it)
                partner = {PARTNER_ROWS} if end < ROUND_FIRST and "vraag" in valued else set()
                asked = (set(needed(frozenset(valued))) | partner) & asked
                if method == "dd" and "kleine_miserie" in asked:
                    made = _merge([answers for _, _, answers in rounds])["kleine"]
                    discards = contending_discards(made, discards or (True,) * made.shape[1])
                note = progress_note(
                    bid_label(leader, hand_text), bid_label(runner, hand_text) if runner else None, state
                )
                settled = state.settled and end >= ROUND_FIRST
                note += ": settled, the run stops" if settled else ""
                bar.note(f"after {end} sampled deals: {note}")
                if on_round is not None:
                    on_round(end, note)
                if settled:
                    break
                if len(submitted) == k + 1:
                    submit(k + 1)
        except Interrupted as exc:
            if exc.results:
                rounds.append((start + exc.done, submitted[len(rounds)], _merge(exc.results)))
            exc.done, exc.total, exc.ceiling, exc.unit = start + exc.done, samples, bounded, "sampled deals"
            exc.results = []
            exc.partial = result(_rows(build, rounds, mask, p, card, rule_set), True) if rounds else None
            raise
    return result(rows, partial=False)


def recommend(
    rows: OptionRows, obliged: bool, bids: BidRows | None = None
) -> tuple[dict, dict | None, float, list[Option]]:
    """The best option to bid, the runner-up, P(the best's expected value really exceeds the runner-up's), and
    the options best first.

    With ``bids`` (the bid values, :func:`~wiezen_sim.analysis.advise.options.bid_rows`) the options
    are its rows (pass among them, first on a tie, unless the troel obligation leaves it out).
    Without, the options are the table rows one can bid (a vraag with a fixed partner seat is
    information, not a bid: the partner chooses to accept; abondance in troef only overcalls) and pass
    (0 units, first so that it wins ties); under the troel obligation (``obliged``) only :data:`TROEL_ONLY`,
    unless none of them is a row. The first three are ``{"contract", "trump", "ev_units"}`` dicts (and ``level`` for an
    abondance level). The runner-up is the best option that does not settle alike with the recommendation
    (:func:`~wiezen_sim.analysis.advise.stopping.settles_alike`, as in the stop rule), None when there is
    none; the options are
    :data:`~wiezen_sim.analysis.advise.stopping.Option` tuples for the stop rule: (contract, per-deal
    settlement, Wilson half-width of its row's P(success)), ranked by mean over their own deals. An option
    valued on fewer deals than the most was dropped by the stop rule (dominated in an earlier round): it
    keeps its row and is ranked after the options still in contention, as its mean over fewer deals is not
    comparable. So it is never the recommendation, and it is the runner-up only when no option in contention
    is one (then P compares the two on the deals both were valued on); otherwise the two are valued on the
    same deals and P is at least 0.5.
    """
    if bids is not None:
        valued = [k for k, ev in enumerate(bids.evs) if len(ev)]
        means = [bids.rows[k]["ev_units"] for k in valued]
        ranked = [(bids.rows[k]["contract"], bids.evs[k], bids.halves[k]) for k in valued]
        described = [_described(bids.rows[k]) for k in valued]
    else:
        means, ranked, described = _table_options(rows, obliged)
    most = max(len(ev) for _, ev, _ in ranked)
    # stable: options in contention first, then by mean; pass (listed first) wins a tie
    order = sorted(range(len(ranked)), key=lambda k: (len(ranked[k][1]) < most, -means[k]))
    ranked, described = [ranked[k] for k in order], [described[k] for k in order]
    best_ev = ranked[0][1]
    runner = next((k for k in range(1, len(ranked)) if not settles_alike(best_ev, ranked[k][1])), None)
    if runner is None:
        return described[0], None, 1.0, ranked
    m = min(len(best_ev), len(ranked[runner][1]))
    return described[0], described[runner], prob_greater(best_ev[:m] - ranked[runner][1][:m]), ranked


def _described(row: dict) -> dict:
    """An option as the recommendation names it: contract, trump, expected settlement (and level, if any)."""
    out = {"contract": row["contract"], "trump": row["trump"], "ev_units": row["ev_units"]}
    level = row.get("level")
    if level is not None and not (isinstance(level, float) and np.isnan(level)):
        out["level"] = int(level)
    return out


def _table_options(rows: OptionRows, obliged: bool) -> tuple[list[float], list[Option], list[dict]]:
    """The options of the table rows (:func:`recommend` without bid values), pass first where it is one: their
    expected settlements (units), the options and their descriptions."""
    n = max((len(ev) for ev in rows.evs if ev is not None), default=0)
    candidates = [
        i for i, row in enumerate(rows.rows) if row.get("partner") in (None, "accepting")
        and row["contract"] not in OVERCALL_ONLY
    ]  # fmt: skip
    options = [(float(ev.mean()), i) for i in candidates if (ev := rows.evs[i]) is not None]
    troel_options = [(ev, i) for ev, i in options if rows.rows[i]["contract"] in TROEL_ONLY]
    if obliged and troel_options:  # (none when contracts= leaves them all out: then pass stays possible)
        options = troel_options
    else:
        options.insert(0, (0.0, -1))  # pass, first so that it wins ties (recommend's sort is stable)

    def option(index: int) -> Option:
        if index < 0:
            return ("pass", np.zeros(n), 0.0)
        ev = rows.evs[index]
        assert ev is not None  # candidates have settlements
        low, high = wilson(int(rows.oks[index].sum()), len(ev))  # vraag: accepted and made, over every deal
        return (rows.rows[index]["contract"], ev, (high - low) / 2)

    pass_row = {"contract": "pass", "trump": None, "ev_units": 0.0}
    return (
        [ev for ev, _ in options],
        [option(i) for _, i in options],
        [_described(rows.rows[i] if i >= 0 else pass_row) for _, i in options],
    )


def _rows(
    build: Callable[..., OptionRows],
    rounds: list[tuple[int, frozenset[str], dict[str, np.ndarray]]],
    hand: int,
    seat: int,
    turned: int,
    rules: RuleSet,
) -> OptionRows:
    """The option rows of the rounds so far: each contract's rows over the rounds it was asked in.

    A contract asked in the first ``k`` rounds gets its rows from those rounds' deals, built
    with every contract asked that long (so a row reads the same answers it would in one run
    of that many deals); rows keep the order of a build with every contract.
    """
    asked_until = {c: max(k for k, (_, asked, _) in enumerate(rounds) if c in asked) for c in rounds[0][1]}
    rows = OptionRows(rules, seat, None)
    parts = []
    for k in sorted(set(asked_until.values())):
        wanted = frozenset(c for c, last in asked_until.items() if last >= k)
        part = build(_merge([answers for _, _, answers in rounds[: k + 1]]), hand, seat, turned, rules, wanted)
        keep = [i for i, row in enumerate(part.rows) if asked_until[question(row["contract"], row.get("partner"))] == k]
        parts.append((part, keep))
    first = parts[0][0].rows  # built with every contract: the order of a one-run build
    order = {row["contract"]: len(first) - i for i, row in enumerate(reversed(first))}
    picked = sorted(((part, i) for part, keep in parts for i in keep), key=lambda x: order[x[0].rows[x[1]]["contract"]])
    for part, i in picked:
        rows.rows.append(part.rows[i])
        rows.dists.append(part.dists[i])
        rows.evs.append(part.evs[i])
        rows.oks.append(part.oks[i])
    return rows


def _merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The answers of consecutive batches as one set of arrays (batch order)."""
    return {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}


def _shifted(report: Callable[[int], None], base: int, done: int) -> None:
    """``report(base + done)``: a round's deals finished, counted from the run's first deal."""
    report(base + done)
