"""The table's vocabulary (DESIGN.md layer 1): seats, trump suits and objectives.

Like the card notation of :mod:`wiezen_sim.cards`, every text form comes as a pair, a
parser and a printer, tested by round trip:

=============  ======================================  ===============================
form           examples                                pair
=============  ======================================  ===============================
seat           ``eldest`` ``second`` ``dealer`` ``2``  parse_seat / seat_name
trump          ``S`` ``H`` ``D`` ``C`` ``NT``          parse_trump / trump_name
objective      ``max`` ``min`` ``exact:1``             parse_objective / objective_name
=============  ======================================  ===============================

Seats are numbered in playing order from the dealer's left: seat 0 is *eldest* (bids
and leads first), seat ``players - 1`` is the dealer (RULES.md 1.1; Romanian whist,
RULES.md Part 2, numbers its 3 to 6 seats the same way). Wiezen has :data:`SEATS` = 4:
eldest, second, third, dealer. Where a dealer sits elsewhere (a dealt
:class:`~wiezen_sim.rules.dealing.Deal`, a PBN deal for the solver) seats are plain
numbers 0..3 in playing order.

A trump is a suit index 0..3 (S H D C, the suit order of :mod:`wiezen_sim.cards`) or
``None`` for no trump, at every public function; only the numba kernel codes no trump
as -1 (the solvers translate).

An :class:`Objective` says what a side plays for: the contract table's column
(RULES.md 1.3) and the question the double-dummy solver answers.
"""

from __future__ import annotations

from enum import StrEnum
from numbers import Integral

from wiezen_sim.cards import SUIT_SYMBOLS, SUITS

__all__ = [
    "DEALER",
    "ELDEST",
    "NO_TRUMP",
    "SEATS",
    "SEAT_NAMES",
    "Objective",
    "is_whole",
    "objective_name",
    "parse_objective",
    "parse_seat",
    "parse_trump",
    "seat_name",
    "seat_names",
    "trump_name",
]

SEATS = 4  # players at a Wiezen table
ELDEST = 0  # seats are numbered from the dealer's left: eldest bids and leads first
DEALER = SEATS - 1


def is_whole(value: object, low: int | None = None, high: int | None = None) -> bool:
    """Whether ``value`` is a whole number (an ``int`` or numpy integer, not a ``bool``) from
    ``low`` to ``high`` inclusive (None: no bound); the one test behind every "must be a
    whole number" refusal, whose message each caller words for its own argument."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        return False
    number = int(value)
    return (low is None or number >= low) and (high is None or number <= high)


_ORDINALS = ("eldest", "second", "third", "fourth", "fifth")  # seats before the dealer (up to 6 players)


def seat_names(players: int = SEATS) -> tuple[str, ...]:
    """The seat names of a table of ``players`` (3 to 6), seat 0 first: eldest, second, …, dealer.

    Raises:
        ValueError: a table of fewer than 2 or more than 6 players.
    """
    if not is_whole(players, 2, len(_ORDINALS) + 1):
        raise ValueError(f"a table has 2 to {len(_ORDINALS) + 1} players, got {players!r}")
    return (*_ORDINALS[: players - 1], "dealer")


SEAT_NAMES = seat_names(SEATS)  # ("eldest", "second", "third", "dealer")


def _seat_rule(players: int) -> str:
    names = ", ".join(seat_names(players))
    return f"seats are 0 = eldest (left of the dealer) .. {players - 1} = dealer, or the names {names}"


def parse_seat(seat: str | int, players: int = SEATS) -> int:
    """A seat number 0..players-1 from a number or a name (module docstring; RULES.md 1.1).

    Args:
        seat: ``0``..``players - 1`` (an int or its digits) or a name of
            :func:`seat_names` (any case): ``eldest`` = 0 … ``dealer`` = ``players - 1``.
        players: the table size (Wiezen 4; Romanian whist 3 to 6).

    Raises:
        ValueError: anything else; the message says what the numbers mean.
    """
    names = seat_names(players)
    number: int | None = None
    if is_whole(seat):
        number = int(seat)
    elif isinstance(seat, str):
        text = seat.strip().lower()
        if text in names:
            return names.index(text)
        if text.isascii() and text.isdigit():
            number = int(text)
    if number is None or not 0 <= number < players:
        raise ValueError(f"unknown seat {seat!r}: {_seat_rule(players)}")
    return number


def seat_name(seat: int, players: int = SEATS) -> str:
    """The name of seat ``seat`` (0 = ``eldest`` … ``players - 1`` = ``dealer``).

    Raises:
        ValueError: a seat outside 0..players-1.
    """
    names = seat_names(players)
    if isinstance(seat, bool) or not isinstance(seat, Integral) or not 0 <= seat < players:
        raise ValueError(f"unknown seat {seat!r}: {_seat_rule(players)}")
    return names[int(seat)]


NO_TRUMP = None  # the public value of "no trump" (the kernel's -1 stays inside the solvers)
_NO_TRUMP_WORDS = ("NT", "NONE", "-", "SA")  # SA: sans atout


def parse_trump(trump: int | str | None) -> int | None:
    """A trump suit 0..3 (S H D C) or ``None`` (no trump) from its number, letter or symbol.

    Accepts 0..3, ``S H D C`` (any case), ``♠ ♥ ♦ ♣``, and ``None``, ``NT``, ``none``,
    ``-`` or ``SA`` for no trump.

    Raises:
        ValueError: anything else (-1, the kernel's code, included).
    """
    if trump is None:
        return NO_TRUMP
    if isinstance(trump, Integral) and not isinstance(trump, bool):
        if 0 <= trump <= 3:
            return int(trump)
    elif isinstance(trump, str):
        text = trump.strip()
        if text.upper() in _NO_TRUMP_WORDS:
            return NO_TRUMP
        if len(text) == 1 and text.upper() in SUITS:
            return SUITS.index(text.upper())
        if text in SUIT_SYMBOLS and len(text) == 1:
            return SUIT_SYMBOLS.index(text)
    raise ValueError(f"unknown trump {trump!r}: a suit 0..3 = S, H, D, C, or None / NT for no trump")


def trump_name(trump: int | None) -> str:
    """``S`` ``H`` ``D`` ``C`` for a suit 0..3, ``NT`` for ``None``.

    Raises:
        ValueError: anything else.
    """
    if trump is NO_TRUMP:
        return "NT"
    if is_whole(trump, 0, 3):
        return SUITS[int(trump)]
    raise ValueError(f"unknown trump {trump!r}: a suit 0..3 = S, H, D, C, or None for no trump")


class Objective(StrEnum):
    """What a side plays for, in tricks, against a target (RULES.md 1.3).

    In the contract table the target is the contract's; asked of the double-dummy
    solver, ``MAX`` and ``MIN`` give a trick count and ``EXACT`` a yes/no answer.
    """

    MAX = "max"  # as many tricks as it can: made with at least the target (vraag, solo, abondance, troel, solo slim)
    MIN = "min"  # as few tricks as it can: made with at most the target (the misère family: 0)
    EXACT = "exact"  # exactly the target (pico: 1)


def parse_objective(objective: str | Objective, k: int | None = None) -> tuple[Objective, int]:
    """``"max"``, ``"min"``, ``"exact:K"`` (or ``"exact"`` with ``k``) → ``(objective, k)``.

    ``k`` is the exact trick count (0..13), 0 for ``max`` and ``min`` (which take no other ``k``).

    Raises:
        ValueError: unknown objective, ``exact`` with a missing or bad ``K``, a ``k`` other than 0 with
            ``max``/``min``, or ``exact:K`` with a different ``k``.
    """
    text = str(objective.value if isinstance(objective, Objective) else objective).strip().lower()
    if text in (Objective.MAX, Objective.MIN):
        if k is not None and (isinstance(k, bool) or k != 0):  # a target was silently ignored
            raise ValueError(f"objective {objective!r} takes no trick count, got k={k!r} (k is for exact)")
        return Objective(text), 0
    if text.startswith(Objective.EXACT):
        rest = text[len(Objective.EXACT) :]
        if rest.startswith(":"):
            digits = rest[1:]
            if not (digits.isascii() and digits.isdigit()):
                raise ValueError(f"bad objective {objective!r}: expected exact:K with a trick count K in 0..13")
            if k is not None and (isinstance(k, bool) or k != int(digits)):  # k was silently ignored
                raise ValueError(f"objective {objective!r} and k={k!r} ask for different trick counts")
            k = int(digits)
        elif rest:
            raise ValueError(f"unknown objective {objective!r} (max, min, exact:K)")
        if isinstance(k, bool) or not isinstance(k, Integral) or not 0 <= k <= 13:
            raise ValueError(f"objective {objective!r} needs a trick count K in 0..13")
        return Objective.EXACT, int(k)
    raise ValueError(f"unknown objective {objective!r} (max, min, exact:K)")


def objective_name(objective: Objective, k: int = 0) -> str:
    """``max``, ``min`` or ``exact:K``: the text :func:`parse_objective` reads back."""
    return f"{objective.value}:{k}" if objective is Objective.EXACT else objective.value
