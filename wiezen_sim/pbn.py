"""PBN files: the deals they hold and their double-dummy results (DESIGN.md layer 1, notation).

Portable Bridge Notation (PBN 2.1, https://www.tistis.nl/pbn/pbn_v21.txt) stores games
separated by empty lines; a game is tag pairs ``[Name "value"]``, one per line, with
``;`` comments to the end of a line, ``{…}`` commentary (possibly over several lines)
and ``%`` directive lines. Only the ``Deal`` tag is read here
(``[Deal "N:<hand> <hand> <hand> <hand>"]``, hands clockwise from the seat named, seats
N E S W = 0..3); everything else is kept as written.

Double-dummy results go in Bridge Composer's ``DoubleDummyTricks`` tag (the one PBN
tools such as Bridge Composer, BSOL and bridge-solver exchange; not part of PBN 2.1
itself): 20 hexadecimal digits, the tricks of declarer N in notrump, spades, hearts,
diamonds and clubs, then the same for declarers S, E and W (partners opposite, the
declarer's left-hand opponent on lead). :func:`parse_dd_tricks` and
:func:`dd_tricks_name` convert it from and to the solver's table layout: int64[5, 4],
``[strain, declarer]`` with strains S H D C NT (DDS's order) and declarers N E S W.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from wiezen_sim.cards import parse_deal

DD_TAG = "DoubleDummyTricks"
_TAG = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_STRAINS = (4, 0, 1, 2, 3)  # tag order NT S H D C → table rows (S H D C NT)
_DECLARERS = (0, 2, 1, 3)  # tag order N S E W → table columns (N E S W)


@dataclass(frozen=True)
class PbnGame:
    """One game of a PBN file.

    Attributes:
        lines: the game's lines as read (without line ends).
        line_no: number (1-based) of its first line in the file.
        deal: the four hands (int masks, seats N E S W) of its ``Deal`` tag, or None
            (a block without one, such as the file's header of ``%`` directives).
    """

    lines: tuple[str, ...]
    line_no: int
    deal: tuple[int, int, int, int] | None

    def tag(self, name: str) -> str | None:
        """The value of tag ``name`` in this game (escapes resolved), or None."""
        for line in self.lines:
            m = _TAG.match(line)
            if m and m.group(1) == name:
                return re.sub(r"\\(.)", r"\1", m.group(2))
        return None


def _blocks(text: str) -> list[tuple[int, list[str]]]:
    """(first line number, lines) of each block of lines between empty lines (outside ``{…}``)."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start, in_brace = 1, False
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() and not in_brace:
            if current:
                blocks.append((start, current))
            current = []
            continue
        if not current:
            start = n
        current.append(line)
        if not line.lstrip().startswith("%"):
            code = line if in_brace else _TAG.sub("", line).split(";", 1)[0]
            for ch in code:
                if ch == "{":
                    in_brace = True
                elif ch == "}":
                    in_brace = False
    if current:
        blocks.append((start, current))
    return blocks


def _is_deal(line: str) -> bool:
    """Whether the line is a whole deal (``N:<hand> <hand> <hand> <hand>``)."""
    try:
        parse_deal(line, cards_per_hand=None)
    except ValueError:
        return False
    return True


def read_pbn(text: str) -> list[PbnGame]:
    """The games of a PBN file's text (blocks without a ``Deal`` tag included, ``deal`` None).

    Raises:
        ValueError: a ``Deal`` tag that is not a full deal (naming its line), a second ``Deal``
            tag in one game, a deal copied from the previous game (``"#"``, not supported), or
            a line that is a whole deal outside a ``Deal`` tag (it would be skipped without a word).
    """
    games = []
    for start, lines in _blocks(text):
        deal = None
        for offset, line in enumerate(lines):
            m = _TAG.match(line)
            if not m and not line.lstrip().startswith(("%", ";", "{")) and _is_deal(line):
                raise ValueError(
                    f'line {start + offset}: a deal outside a Deal tag: write it as [Deal "{line.strip()}"]'
                )
            if m and m.group(1) == "Deal":
                if deal is not None:  # the first would be lost without a word
                    where = f"line {start + offset}"
                    raise ValueError(f"{where}: a second Deal tag in one game (an empty line ends a game)")
                value = m.group(2)
                if value.startswith("#"):
                    raise ValueError(f"line {start + offset}: a Deal copied from the game before (#) is not supported")
                try:
                    deal = parse_deal(value, cards_per_hand=None)
                except ValueError as exc:
                    raise ValueError(f"line {start + offset}: {exc}") from None
        games.append(PbnGame(tuple(lines), start, deal))
    return games


def dd_tricks_name(table: np.ndarray) -> str:
    """A ``DoubleDummyTricks`` value from a table int[5, 4] (strains S H D C NT × declarers N E S W).

    Raises:
        ValueError: a table of another shape or a count outside 0..13.
    """
    t = np.asarray(table)
    if t.shape != (5, 4) or t.min() < 0 or t.max() > 13:
        raise ValueError(f"a double-dummy table is 5 × 4 trick counts 0..13, got shape {t.shape}")
    return "".join(f"{int(t[s, d]):x}" for d in _DECLARERS for s in _STRAINS)


def parse_dd_tricks(text: str) -> np.ndarray:
    """The table int64[5, 4] (strains S H D C NT × declarers N E S W) of a ``DoubleDummyTricks`` value.

    Raises:
        ValueError: not 20 hexadecimal digits 0..d.
    """
    if len(text) != 20 or any(c not in "0123456789abcdABCD" for c in text):
        raise ValueError(f"{DD_TAG} must be 20 hexadecimal digits 0..d, got {text!r}")
    out = np.zeros((5, 4), dtype=np.int64)
    for i, c in enumerate(text):
        out[_STRAINS[i % 5], _DECLARERS[i // 5]] = int(c, 16)
    return out


def write_pbn(games: Sequence[PbnGame], tables: Sequence[np.ndarray | None]) -> str:
    """The games as PBN text, each with its table in a ``DoubleDummyTricks`` tag.

    The tag goes after the ``Deal`` tag (replacing an earlier ``DoubleDummyTricks``);
    every other line is written as read. ``tables[i]`` is the table of ``games[i]``
    (None for a game left as it is).

    Raises:
        ValueError: a table for a game without a ``Deal`` tag, or a bad table.
    """
    out = []
    for game, table in zip(games, tables, strict=True):
        lines = list(game.lines)
        if table is not None:
            if game.deal is None:
                raise ValueError(f"the game at line {game.line_no} has no Deal tag")
            tag = f'[{DD_TAG} "{dd_tricks_name(table)}"]'
            lines = [x for x in lines if not ((m := _TAG.match(x)) and m.group(1) == DD_TAG)]
            at = next(i for i, x in enumerate(lines) if (m := _TAG.match(x)) and m.group(1) == "Deal")
            lines.insert(at + 1, tag)
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"
