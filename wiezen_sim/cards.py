"""Card notation and the card encoding (DESIGN.md layer 1).

A set of cards is one signed ``int64`` bit mask with a 16-bit lane per suit:
card bit = ``16 * suit + rank`` with suit 0..3 = S H D C and rank 2..14 (14 = ace).
Bits 0, 1 and 15 of every lane stay 0, so a mask is never negative, a higher bit
is a higher card of the same suit, and ``(mask >> 16 * s) & 0xFFFF`` is one suit's
holding in the layout DDS uses for its rank masks.

A single card is its bit number (``int`` 2..62). Every text form comes as a pair,
a parser and a printer, tested by round trip:

=================  ============================================  ==================
form               example                                       pair
=================  ============================================  ==================
card               ``AS``, ``10H``, ``TH``, ``♥10``, ``1S RS``   parse_card / card_name
hand (suits)       ``S:AKQ H:T98 D:- C:AK5432``                  parse_hand / hand_name
hand (symbols)     ``♠AKQ ♥T98 ♦— ♣AK5432``                      parse_hand / hand_name
hand (cards)       ``AS KS QS 10H 9H 8H ...``                    parse_hand / hand_name
hand (PBN)         ``AKQ.T98..AK5432``                           parse_hand / hand_name
deal (PBN)         ``N:AKQ.T98..AK5432 ... ... ...``              parse_deal / deal_name
=================  ============================================  ==================

Belgian players write A K Q J as 1 R D V (RULES.md, card notation); the parsers
accept that spelling. Bad input raises ``ValueError`` naming the offending token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

__all__ = [
    "ALL_RANKS",
    "BELGIAN_RANKS",
    "FULL_DECK",
    "PBN_SEATS",
    "RANKS",
    "RANK_CHARS",
    "SUITS",
    "SUIT_LANE",
    "SUIT_SYMBOLS",
    "VOID_MARKS",
    "CardSet",
    "card_bit",
    "card_count",
    "card_name",
    "card_rank",
    "card_suit",
    "cards_of",
    "check_disjoint",
    "deal_name",
    "hand_name",
    "parse_card",
    "parse_deal",
    "parse_hand",
    "suit_holding",
]

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_CHARS = "..23456789TJQKA"  # index = rank; '.' are unused slots 0 and 1
ALL_RANKS = range(2, 15)
BELGIAN_RANKS = {"1": 14, "R": 13, "D": 12, "V": 11}
VOID_MARKS = {"-", "—", "–"}
PBN_SEATS = "NESW"

# one full suit lane (ranks 2..14) and the 52-card deck
SUIT_LANE = 0x7FFC
FULL_DECK = sum(SUIT_LANE << (16 * s) for s in range(4))


def _rank_map() -> dict[str, int]:
    ranks = {RANK_CHARS[r]: r for r in ALL_RANKS}
    ranks.update(BELGIAN_RANKS)
    ranks["10"] = 10
    return ranks


RANKS = _rank_map()
_SUIT_OF = {**{c: i for i, c in enumerate(SUITS)}, **{c: i for i, c in enumerate(SUIT_SYMBOLS)}}
# some terminals emit the text-style variant selector after suit symbols
_SUIT_OF.update({c + "\ufe0f": i for i, c in enumerate(SUIT_SYMBOLS)})
# a suit symbol that starts a holding right after another one (``♠QJ4♥K96``): split there; a symbol after a
# rank and before a space or the end (the card ``A♠``) is not the start of a holding
_HOLDING_START = re.compile(f"(?<=\\S)(?=[{SUIT_SYMBOLS}]\ufe0f?[0-9TJQKARDV—-])", re.IGNORECASE)


def card_bit(suit: int, rank: int) -> int:
    """Bit number of the card of ``suit`` (0..3 = S H D C) and ``rank`` (2..14)."""
    if not 0 <= suit < 4 or not 2 <= rank <= 14:
        raise ValueError(f"no card with suit {suit} and rank {rank}")
    return 16 * suit + rank


def card_suit(card: int) -> int:
    """Suit (0..3 = S H D C) of a card bit number."""
    return card >> 4


def card_rank(card: int) -> int:
    """Rank (2..14, 14 = ace) of a card bit number."""
    return card & 15


def _split_ranks(text: str, token: str) -> list[int]:
    """Ranks of a holding string such as ``AKT98`` or ``A1032``; ``-`` is a void."""
    if text in VOID_MARKS or text == "":
        return []
    ranks = []
    i = 0
    while i < len(text):
        if text.startswith("10", i):
            ranks.append(10)
            i += 2
            continue
        ch = text[i].upper()
        if ch not in RANKS:
            raise ValueError(f"unknown rank {text[i]!r} in {token!r}")
        ranks.append(RANKS[ch])
        i += 1
    return ranks


def _suit_index(text: str, token: str) -> int:
    key = text if text in _SUIT_OF else text.upper()
    if key not in _SUIT_OF:
        raise ValueError(f"unknown suit {text!r} in {token!r}")
    return _SUIT_OF[key]


def parse_card(text: str) -> int:
    """Parse one card and return its bit number (``int``).

    Accepts rank then suit (``AS``, ``10H``, ``TH``, ``10♥``, Belgian ``1S RS DS VS``)
    or suit then rank (``♥10``, ``SA``, ``H10``, the DDS play-record order).

    Raises:
        ValueError: the token is not one card of a 52-card deck (names the token).
    """
    token = text.strip()
    for rank_part, suit_part in ((token[:-1], token[-1:]), (token[1:], token[:1])):
        if rank_part.upper() in RANKS and (suit_part in _SUIT_OF or suit_part.upper() in _SUIT_OF):
            return card_bit(_suit_index(suit_part, token), RANKS[rank_part.upper()])
    # a symbol with a variant selector is two characters long
    if len(token) > 2 and token[:2] in _SUIT_OF and token[2:].upper() in RANKS:
        return card_bit(_SUIT_OF[token[:2]], RANKS[token[2:].upper()])
    raise ValueError(f"not a card: {text!r} (expected e.g. 'AS', '10H', '♥10', 'RS')")


def card_name(card: int, symbols: bool = False) -> str:
    """Print a card bit number as ``AS``/``TH`` (or ``♠A``/``♥T`` with ``symbols``)."""
    suit, rank = card_suit(card), card_rank(card)
    if not 0 <= suit < 4 or not 2 <= rank <= 14:
        raise ValueError(f"not a card bit number: {card}")
    return SUIT_SYMBOLS[suit] + RANK_CHARS[rank] if symbols else RANK_CHARS[rank] + SUITS[suit]


def cards_of(mask: int) -> list[int]:
    """Card bit numbers of a mask, highest first within each suit, suits S H D C."""
    return [16 * s + r for s in range(4) for r in range(14, 1, -1) if mask >> (16 * s + r) & 1]


def card_count(mask: int) -> int:
    """Number of cards in a mask."""
    return int(mask).bit_count()


def suit_holding(mask: int, suit: int) -> int:
    """One suit's holding: a 16-bit rank mask (bit r = rank r), the DDS layout."""
    return (mask >> (16 * suit)) & 0xFFFF


def _add(mask: int, card: int, token: str | None = None) -> int:
    """``mask`` with ``card`` added; ``token``: the holding it was read from (None: the card alone)."""
    if mask >> card & 1:
        raise ValueError(f"duplicated card {card_name(card)}" + (f" in {token!r}" if token else " (listed twice)"))
    return mask | (1 << card)


def _parse_pbn_hand(text: str) -> int:
    parts = text.split(".")
    if len(parts) != 4:
        raise ValueError(f"a PBN hand has four suits separated by '.': {text!r}")
    mask = 0
    for suit, holding in enumerate(parts):
        for rank in _split_ranks(holding, text):
            mask = _add(mask, card_bit(suit, rank), text)
    return mask


def _parse_token(token: str, mask: int) -> tuple[int, int]:
    """Add the cards of one whitespace-separated token of a hand string: ``(mask, suit)``, the suit of a
    holding (``S:AKQ``, ``♠AKQ``), -1 for a single card."""
    if ":" in token:
        suit_part, _, ranks = token.partition(":")
        suit = _suit_index(suit_part, token)
    elif token[0] in SUIT_SYMBOLS:
        offset = 2 if token[1:2] == "\ufe0f" else 1
        suit, ranks = _SUIT_OF[token[0]], token[offset:]
        if ranks == "":
            raise ValueError(f"no ranks after the suit in {token!r}")
    else:
        return _add(mask, parse_card(token)), -1
    for rank in _split_ranks(ranks, token):
        mask = _add(mask, card_bit(suit, rank), token)
    return mask, suit


def parse_hand(text: str, size: int | None = None) -> int:
    """Parse a hand (any of the forms in the module docstring) into a mask.

    Args:
        text: the hand; ``S:AKQ H:T98 D:- C:AK5432``, ``♠AKQ ♥T98 ♦— ♣AK5432`` (or ``♠AKQ♥T98♦—♣AK5432``),
            ``AS KS QS 10H …`` (commas allowed) or PBN ``AKQ.T98..AK5432``.
        size: the number of cards the hand must hold (13 for a full Wiezen hand);
            ``None`` accepts any number.

    Returns:
        The hand as an ``int`` mask (fits a signed int64).

    Raises:
        ValueError: unknown rank or suit, a duplicated card or suit, or a wrong card count;
            the message names the token.
    """
    stripped = text.strip()
    if not stripped:
        raise ValueError("empty hand")
    if "." in stripped and " " not in stripped and ":" not in stripped:
        mask = _parse_pbn_hand(stripped)
    else:
        mask = 0
        held: set[int] = set()  # the suits given as holdings: each once (``D:K3 … D:-`` is a slip, not a void)
        for token in _HOLDING_START.sub(" ", stripped.replace(",", " ")).split():
            mask, suit = _parse_token(token, mask)
            if suit in held:
                raise ValueError(f"suit {SUITS[suit]} given twice in {text!r}: give each suit's cards once")
            if suit >= 0:
                held.add(suit)
    if size is not None and card_count(mask) != size:
        raise ValueError(f"hand {text!r} has {card_count(mask)} cards, expected {size}")
    return mask


def hand_name(mask: int, style: str = "suits") -> str:
    """Print a hand mask.

    ``style``: ``"suits"`` → ``S:AKQ H:T98 D:- C:AK5432``; ``"symbols"`` →
    ``♠AKQ ♥T98 ♦— ♣AK5432``; ``"cards"`` → ``AS KS QS TH …``; ``"pbn"`` →
    ``AKQ.T98..AK5432``.

    Raises:
        ValueError: unknown style.
    """
    holdings = ["".join(RANK_CHARS[r] for r in range(14, 1, -1) if mask >> (16 * s + r) & 1) for s in range(4)]
    if style == "suits":
        return " ".join(f"{SUITS[s]}:{h or '-'}" for s, h in enumerate(holdings))
    if style == "symbols":
        return " ".join(f"{SUIT_SYMBOLS[s]}{h or '—'}" for s, h in enumerate(holdings))
    if style == "cards":
        return " ".join(card_name(c) for c in cards_of(mask))
    if style == "pbn":
        return ".".join(holdings)
    raise ValueError(f"unknown hand style {style!r} (suits, symbols, cards, pbn)")


def check_disjoint(hands: Iterable[int]) -> None:
    """Raise ``ValueError`` naming the first card found in two hands."""
    seen = 0
    for hand in hands:
        both = seen & hand
        if both:
            raise ValueError(f"card {card_name(cards_of(both)[0])} is in two hands")
        seen |= hand


def parse_deal(text: str, cards_per_hand: int | None = 13) -> tuple[int, int, int, int]:
    """Parse a PBN deal ``"N:<hand> <hand> <hand> <hand>"`` (any first seat).

    Hands are PBN hands (``AKQ.T98..AK5432``) listed clockwise from the seat before
    the colon. Returns the four masks in PBN seat order N, E, S, W (seats 0..3).

    Args:
        cards_per_hand: cards each hand must hold (13 for a full deal); ``None``
            accepts any counts (endings, a trick in progress).

    Raises:
        ValueError: bad seat letter, not four hands, a bad hand, a card in two
            hands or a wrong card count (names the token).
    """
    first, sep, rest = text.strip().strip('"').partition(":")
    if not sep or first.upper() not in PBN_SEATS or len(first) != 1:
        raise ValueError(f"a PBN deal starts with N:, E:, S: or W:, got {text!r}")
    hands_text = rest.split()
    if len(hands_text) != 4:
        raise ValueError(f"a PBN deal has four hands, got {len(hands_text)} in {text!r}")
    start = PBN_SEATS.index(first.upper())
    hands = [0, 0, 0, 0]
    for i, hand_text in enumerate(hands_text):
        hands[(start + i) % 4] = parse_hand(hand_text, cards_per_hand)
    check_disjoint(hands)
    return (hands[0], hands[1], hands[2], hands[3])


def deal_name(hands: Iterable[int], first: int = 0) -> str:
    """Print four hands (seat order N E S W) as a PBN deal starting at seat ``first``."""
    hands = list(hands)
    if len(hands) != 4:
        raise ValueError(f"a deal has four hands, got {len(hands)}")
    order = [(first + i) % 4 for i in range(4)]
    return PBN_SEATS[first] + ":" + " ".join(hand_name(hands[s], "pbn") for s in order)


class CardSet:
    """A friendly, immutable view over a card mask.

    ``CardSet("S:AKQ H:T98 D:- C:AK5432")`` or ``CardSet(mask)``; iterates over card
    bit numbers, supports ``len``, ``in`` (a card bit number or a card string), set
    operators ``| & -`` and prints as ``S:AKQ H:T98 D:- C:AK5432``.
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | str | Iterable[int] | CardSet = 0) -> None:
        if isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, str):
            mask = parse_hand(cards)
        elif isinstance(cards, int):
            if cards < 0 or cards & ~FULL_DECK:
                raise ValueError(f"not a card mask: {cards:#x}")
            mask = cards
        else:
            mask = 0
            for card in cards:
                mask = _add(mask, card)
        self.mask = mask

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return card_count(self.mask)

    def __contains__(self, card: object) -> bool:
        bit = parse_card(card) if isinstance(card, str) else card
        return isinstance(bit, int) and 0 <= bit < 64 and bool(self.mask >> bit & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def suit(self, suit: int | str) -> list[int]:
        """Ranks held in one suit (index 0..3 or a letter/symbol), highest first."""
        s = suit if isinstance(suit, int) else _suit_index(suit, suit)
        return [r for r in range(14, 1, -1) if self.mask >> (16 * s + r) & 1]

    def lengths(self) -> tuple[int, int, int, int]:
        """Suit lengths in the order S H D C."""
        return tuple(card_count(suit_holding(self.mask, s)) for s in range(4))  # type: ignore[return-value]

    def __str__(self) -> str:
        return hand_name(self.mask)

    def __repr__(self) -> str:
        return f"CardSet({hand_name(self.mask)!r})"
