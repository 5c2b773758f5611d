"""The page's forms checked field by field with the package's parsers (issue 22).

A form arrives as text fields (a query string or a JSON object of strings). Each
``check_*`` function returns the keyword arguments of the advisor and a message per
bad field, worded by the package's own checks (the parsers, ``check_position``, the
Romanian rules' ``check_*``); the page shows each message next to its field. An error
that only a run can find (the Romanian advisor's "no sampled deal explains the bids")
comes back from the job and is shown above the Run button.

The web layer adds limits of its own: rules are preset names only (a rules file would
be a path on the server's disk), at most :data:`MAX_SAMPLES` sampled deals, seeds below
2**53 (the largest integer a browser's JavaScript numbers hold exactly), and field texts
of at most :data:`MAX_TEXT` characters (the parsers' messages quote what they read).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import wiezen_sim.analysis.romanian as romanian_api  # the one import of the Romanian advisor
from wiezen_sim.analysis.advise import METHODS
from wiezen_sim.cards import card_name, cards_of, parse_card, parse_hand
from wiezen_sim.defaults import MAX_PIMC_SAMPLES
from wiezen_sim.rules.dealing import check_position
from wiezen_sim.rules.romanian import (
    SCORING_PRESETS,
    check_bids,
    check_bids_so_far,
    check_cards,
    check_cards_in_deck,
    check_players,
    check_turned,
)
from wiezen_sim.rules.ruleset import PRESETS
from wiezen_sim.solvers.players import check_worlds
from wiezen_sim.vocabulary import SEAT_NAMES, parse_seat

MAX_SAMPLES = {"wiezen": 100_000, "romanian": 1_000_000}
MAX_SEED = 2**53 - 1
# characters per field: 13 cards in the longest spelling (``10♥️``, commas) fit the hand easily, any other answer
# (a card, a seed, five bids) the other fields
MAX_TEXT = {"hand": 300, "other": 40}
DEFAULTS = {
    "wiezen": {"seat": "eldest", "rules": "tempelaere", "method": "dd", "samples": "200", "worlds": "16"},
    "romanian": {"players": "4", "seat": "0", "scoring": "default", "model": "aim", "samples": "10000", "sigma": "0"},
}
NO_TRUMP = ("", "none", "-")
WHOLE = re.compile(r"[+-]?[0-9]+")

METHOD_WORDS = {  # the method menu of the page, as a player reads it
    "dd": "double dummy",
    "pimc": "PIMC play (four players reading the auction)",
    "pimc-uniform": "PIMC play (four players, uniform worlds)",
    "heuristic": "heuristic play",
}


@dataclass
class Checked:
    """A checked form.

    Attributes:
        kwargs: the advisor's keyword arguments (complete only when ``errors`` is empty).
        errors: field name → one-line message.
        cards: the hand's cards as names (``AS``, ``TH``, …) when the hand text parses,
            whatever its size (the page marks them in its card grid); None when it does not.
        turned: the turned card's name when it parses, else None.
    """

    kwargs: dict = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    cards: list[str] | None = None
    turned: str | None = None

    def to_dict(self) -> dict:
        """The JSON answer of the check endpoint."""
        return {"errors": self.errors, "cards": self.cards, "turned": self.turned}

    def fail(self, name: str, message: str) -> None:
        """Note ``message`` as the error of field ``name``, unless the field has one already (the first one says it)."""
        self.errors.setdefault(name, message)


def _text(checked: Checked, form: Mapping[str, str], kind: str, name: str) -> str:
    """A field's text, stripped; its default when blank, or when longer than :data:`MAX_TEXT` (an error)."""
    value = form.get(name)
    text = "" if value is None else str(value).strip()
    limit = MAX_TEXT.get(name, MAX_TEXT["other"])
    if len(text) > limit:
        checked.fail(name, f"{len(text):,} characters are too many here (at most {limit})")
        text = ""
    return text or DEFAULTS[kind].get(name, "")


def _whole(text: str, what: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number, from ``low`` to ``high`` where given.

    Raises:
        ValueError: anything else (names ``what``).
    """
    if not WHOLE.fullmatch(text):  # int() would also take '1_000' and non-ASCII digits
        raise ValueError(f"{what} must be a whole number, got {text!r}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{what} must be from {low:,} to {high:,}, got {value:,}")
    return value


def _seed(text: str) -> int | None:
    return None if text == "" else _whole(text, "the seed", 0, MAX_SEED)


def _hand(checked: Checked, text: str) -> int | None:
    """The hand mask (any size), its cards noted in ``checked``; None with an error if it does not parse."""
    try:
        mask = parse_hand(text)
    except ValueError as exc:
        checked.fail("hand", str(exc))
        return None
    checked.cards = [card_name(c) for c in cards_of(mask)]
    return mask


def _card(checked: Checked, text: str, name: str) -> int | None:
    if not text:
        checked.fail(name, "give the turned card: it sets the trump")
        return None
    try:
        card = parse_card(text)
    except ValueError as exc:
        checked.fail(name, str(exc))
        return None
    checked.turned = card_name(card)
    return card


def _run(checked: Checked, name: str, check, *args):
    """``check(*args)``, or None with its message as the error of field ``name``."""
    try:
        return check(*args)
    except ValueError as exc:
        checked.fail(name, str(exc))
        return None


def check_wiezen(form: Mapping[str, str]) -> Checked:
    """Check a Wiezen position: hand, seat, turned, rules, method, samples, seed (blank: drawn), worlds.

    Returns:
        :class:`Checked` with ``kwargs`` for :func:`wiezen_sim.analysis.advise.advise`
        (``worlds`` only with the pimc methods).
    """
    checked = Checked()
    kind = "wiezen"
    hand_text = _text(checked, form, kind, "hand")
    mask = _hand(checked, hand_text)
    if mask is not None:
        _run(checked, "hand", parse_hand, hand_text, 13)
    seat = _run(checked, "seat", parse_seat, _text(checked, form, kind, "seat"))
    card = _card(checked, _text(checked, form, kind, "turned"), "turned")
    if not checked.errors:  # the turned card against the hand and the seat (RULES.md 1.2)
        _run(checked, "turned", check_position, mask, seat, card)
    rules = _text(checked, form, kind, "rules")
    if rules not in PRESETS:
        checked.fail("rules", f"unknown rules preset {rules!r}; known: {', '.join(PRESETS)}")
    method = _text(checked, form, kind, "method")
    if method not in METHODS:
        checked.fail("method", f"unknown method {method!r}; known: {', '.join(METHODS)}")
    most = MAX_PIMC_SAMPLES if method.startswith("pimc") else MAX_SAMPLES[kind]  # as the CLI's advise
    samples = _run(checked, "samples", _whole, _text(checked, form, kind, "samples"), "samples", 1, most)
    seed = _run(checked, "seed", _seed, _text(checked, form, kind, "seed"))
    extra = {}
    if method.startswith("pimc"):
        worlds = _run(checked, "worlds", _whole, _text(checked, form, kind, "worlds"), "worlds")
        extra["worlds"] = worlds if worlds is None else _run(checked, "worlds", check_worlds, worlds)
    if not checked.errors and seat is not None and card is not None:
        checked.kwargs = {"hand": hand_text, "seat": SEAT_NAMES[seat], "turned": card_name(card), "rules": rules,
                          "method": method, "samples": samples, "seed": seed, **extra}  # fmt: skip
    return checked


def check_romanian(form: Mapping[str, str]) -> Checked:
    """Check a Romanian whist position: players, hand, seat, trump, bids, scoring, model, samples, seed, sigma.

    Returns:
        :class:`Checked` with ``kwargs`` for the Romanian advisor (``hand``, ``players``,
        ``seat``, ``trump``, ``bids_so_far``, ``scoring``, ``samples``, ``seed``,
        ``model``, ``bid_sigma``).
    """
    checked = Checked()
    kind = "romanian"
    players = _run(checked, "players", _whole, _text(checked, form, kind, "players"), "players")
    players = players if players is None else _run(checked, "players", check_players, players)
    mask = _hand(checked, _text(checked, form, kind, "hand"))
    cards = None if mask is None else _run(checked, "hand", check_cards, mask.bit_count())
    if cards and players:
        _run(checked, "hand", check_cards_in_deck, mask, players, "hand")
    seat_text = _text(checked, form, kind, "seat")
    seat = _run(checked, "seat", parse_seat, seat_text, players) if players else None  # a number or a name, as the CLI
    trump_text = _text(checked, form, kind, "trump")
    no_trump = trump_text.lower() in NO_TRUMP
    trump = None if no_trump else _card(checked, trump_text, "trump")
    if (trump is not None or no_trump) and cards and players:  # against the deal's size and the hand
        _run(checked, "trump", check_turned, trump, players, cards, mask)
    bids = _run(checked, "bids", _bids, _text(checked, form, kind, "bids"))
    if bids is not None and cards and players:  # one bid per seat before yours (the count first, as the CLI)
        if seat is not None:
            _run(checked, "bids", check_bids_so_far, players, cards, seat, bids)
        else:
            _run(checked, "bids", check_bids, players, cards, bids)
    scoring = _text(checked, form, kind, "scoring")
    if scoring not in SCORING_PRESETS:
        checked.fail("scoring", f"unknown scoring {scoring!r}; known: {', '.join(SCORING_PRESETS)}")
    model = _text(checked, form, kind, "model")
    if model not in romanian_api.MODELS:
        checked.fail("model", f"unknown model {model!r}; known: {', '.join(romanian_api.MODELS)}")
    samples = _run(checked, "samples", _whole, _text(checked, form, kind, "samples"), "samples", 1, MAX_SAMPLES[kind])
    seed = _run(checked, "seed", _seed, _text(checked, form, kind, "seed"))
    sigma = _run(checked, "sigma", _sigma, _text(checked, form, kind, "sigma"))
    if not checked.errors:
        checked.kwargs = {"hand": mask, "players": players, "seat": seat, "trump": trump, "bids_so_far": bids,
                          "scoring": scoring, "samples": samples, "seed": seed, "model": model,
                          "bid_sigma": sigma}  # fmt: skip
    return checked


def _bids(text: str) -> list[int]:
    """The bids so far, comma- or space-separated whole numbers (``1,0,2``); blank = none."""
    parts = text.replace(",", " ").split()
    if not all(WHOLE.fullmatch(p) for p in parts):
        raise ValueError(f"bids are whole numbers separated by commas, like 1,0,2; got {text!r}")
    return [int(p) for p in parts]


def _sigma(text: str) -> float:
    """The bid weighting σ: a number, checked by the advisor's own :func:`check_bid_sigma`."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"the bid weighting σ must be a number ≥ 0, got {text!r}") from None
    return romanian_api.check_bid_sigma(value)
