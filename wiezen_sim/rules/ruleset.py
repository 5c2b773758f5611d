"""Variant switches and payment tables (RULES.md 1.2–1.7) as data.

A :class:`RuleSet` is a frozen dataclass of every variant switch the rules page
names; :data:`PRESETS` holds the named presets and :func:`get_rules` resolves a
preset name, a ``RuleSet`` or a TOML file into one. Payment tables are TOML files
(``wiezen_sim/rules/payments/*.toml``); a user can load their own.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from wiezen_sim.rules.contracts import CONTRACTS, contract_spec
from wiezen_sim.vocabulary import is_whole

__all__ = ["MAX_UNITS", "PAYMENTS_DIR", "PRESETS", "PaymentRule", "PaymentTable", "RuleSet", "get_rules", "read_toml"]

PAYMENTS_DIR = Path(__file__).with_name("payments")
MAX_UNITS = 1_000_000  # the largest payment value: sessions sum chips as 64-bit integers (the shipped tables: 24)


@dataclass(frozen=True)
class PaymentRule:
    """Value per opponent of one contract, in units (RULES.md 1.6).

    Success pays ``win + win_per_trick * overtricks``, failure
    ``lose + lose_per_trick * undertricks`` (tricks relative to the target); both are
    doubled when the declaring side took all 13 tricks and ``double_on_all`` is set.
    """

    win: int
    lose: int
    win_per_trick: int = 0
    lose_per_trick: int = 0
    double_on_all: bool = False

    def __post_init__(self) -> None:
        for name in ("win", "lose", "win_per_trick", "lose_per_trick"):
            _units(getattr(self, name), name)
        _flag(self.double_on_all, "double_on_all")


@dataclass(frozen=True, eq=False)
class PaymentTable:
    """A named payment table: one :class:`PaymentRule` per contract.

    Attributes:
        contracts: contract name → rule; must cover every contract of RULES.md 1.3.
        abondance_rising: announced abondance level (9–12) → value, for the
            *abondance levels* variant with rising payments (RULES.md 1.4, 1.6).
        ronde_pas_stake: units each loser pays each winner in Ronde Pas (RULES.md 1.7).
    """

    name: str
    contracts: Mapping[str, PaymentRule]
    abondance_rising: Mapping[int, int]
    ronde_pas_stake: int = 4

    def __post_init__(self) -> None:
        missing = set(CONTRACTS) - set(self.contracts)
        unknown = set(self.contracts) - set(CONTRACTS)
        if missing or unknown:
            raise ValueError(
                f"payment table {self.name!r}: missing {sorted(missing)}, unknown {sorted(unknown)} contracts"
            )
        if set(self.abondance_rising) != {9, 10, 11, 12}:
            raise ValueError(f"payment table {self.name!r}: abondance_rising needs levels 9, 10, 11, 12")

    @classmethod
    def from_mapping(cls, data: Mapping, source: str = "<mapping>") -> PaymentTable:
        """Build a table from the TOML schema of ``payments/tempelaere.toml``.

        Raises:
            ValueError: a missing or unknown contract, a bad field (names ``source``).
        """
        for key in ("contracts", "abondance_rising"):
            if not isinstance(data.get(key), Mapping):
                raise ValueError(f"bad payment table {source}: it needs a [{key}] table")
        fields = {f.name for f in dataclasses.fields(PaymentRule)}
        rules = {}
        for name, row in data["contracts"].items():
            if not isinstance(row, Mapping) or not {"win", "lose"} <= set(row) or set(row) - fields:
                raise ValueError(f"bad payment table {source}: contract {name!r} needs win and lose, and may have "
                                 f"win_per_trick, lose_per_trick, double_on_all; got {row!r}")  # fmt: skip
            try:
                rules[name] = PaymentRule(**row)
            except ValueError as exc:
                raise ValueError(f"bad payment table {source}: contract {name!r}: {exc}") from None
        try:
            rising = {int(level): _units(value, f"abondance_rising {level}") for level, value in
                      data["abondance_rising"].items()}  # fmt: skip
            stake = _units(data.get("ronde_pas_stake", 4), "ronde_pas_stake")
        except ValueError as exc:
            raise ValueError(f"bad payment table {source}: {exc}") from None
        return cls(name=str(data.get("name", source)), contracts=rules, abondance_rising=rising, ronde_pas_stake=stake)

    @classmethod
    def load(cls, name_or_path: str | Path) -> PaymentTable:
        """Load a shipped table by name (``tempelaere``, ``italian``) or a TOML file.

        Raises:
            ValueError: unknown name, unreadable file or bad schema.
        """
        path = Path(name_or_path)
        if path.suffix != ".toml":
            path = PAYMENTS_DIR / f"{name_or_path}.toml"
            if not path.exists():
                known = sorted(p.stem for p in PAYMENTS_DIR.glob("*.toml"))
                raise ValueError(f"unknown payment table {name_or_path!r}; known: {', '.join(known)}")
        return cls.from_mapping(read_toml(path, "payment table"), str(path))


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The TOML file ``path`` as a dict (a UTF-8 byte-order mark, as Windows Notepad writes, is skipped); an
    error names the file and what it is for (``what``, e.g. ``rules file``).

    Raises:
        ValueError: no such file, an unreadable one, one that is not UTF-8 text or not valid TOML.
    """
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ValueError(f"no {what} {path}") from None
    except OSError as exc:
        raise ValueError(f"cannot read the {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a TOML file (not UTF-8 text)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML ({exc})") from None


def _units(value: Any, what: str) -> int:
    """``value`` if it is a whole number of units from 0 to :data:`MAX_UNITS` (a payment), else ValueError
    naming ``what``."""
    if not is_whole(value, 0, MAX_UNITS):
        raise ValueError(f"{what} must be a whole number of units from 0 to {MAX_UNITS}, got {value!r}")
    return value


def _flag(value: Any, what: str) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, got {value!r}")


def _choice(value: str, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(allowed)}, got {value!r}")


@dataclass(frozen=True)
class RuleSet:
    """Every variant switch of RULES.md Part 1; the defaults are the page's defaults.

    Attributes:
        name: preset name (informative).
        payments: the payment table (RULES.md 1.6).
        kleine_miserie, pico: optional contracts on/off (RULES.md 1.3).
        vraag_tricks: 8, or 9 for the *vraag for 9* variant (troel then also needs 9).
        troel_before_auction: troel is declared before the auction (RULES.md 1.4).
        troel_free_lead: the troel partner may lead another suit, which becomes
            trump; the contract is then 9 tricks (RULES.md 1.5).
        four_ace_partner: ``highest_heart`` (default) or ``highest_missing`` (kings
            ♥ ♦ ♣ ♠, then queens …; RULES.md 1.5).
        abondance_levels: abondance 9–12 instead of abondance in troef (RULES.md 1.4).
        abondance_suit_ranking: with levels, ♥ > ♦ > ♣ > ♠ at the same level
            (implies the trump is named with the bid).
        abondance_level_payment: ``same`` or ``rising`` (RULES.md 1.6).
        abondance_trump_with_bid: the abondance trump is named with the bid.
        carte_blanche: the Carte Blanche declaration (RULES.md 1.4).
        all_pass: ``redeal`` or ``ronde_pas`` (Ronde Pas / Totale Miserie, RULES.md 1.7).
        vuilbak: Vuilbakwiezen dealing (RULES.md 1.2).
        clockwise: orientation only; seats are always numbered in playing order, so
            this changes how seats are named, never who plays next (RULES.md 1.1).
        deck: ``shuffle`` (a fresh shuffle every hand, default for simulation) or
            ``gather_and_cut`` (RULES.md 1.2).
    """

    name: str = "tempelaere"
    payments: PaymentTable = field(default_factory=lambda: PaymentTable.load("tempelaere"))
    kleine_miserie: bool = True
    pico: bool = True
    vraag_tricks: int = 8
    troel_before_auction: bool = False
    troel_free_lead: bool = False
    four_ace_partner: str = "highest_heart"
    abondance_levels: bool = False
    abondance_suit_ranking: bool = False
    abondance_level_payment: str = "same"
    abondance_trump_with_bid: bool = False
    carte_blanche: bool = False
    all_pass: str = "redeal"
    vuilbak: bool = False
    clockwise: bool = True
    deck: str = "shuffle"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a text, got {self.name!r}")
        for f in dataclasses.fields(self):
            if f.type == "bool":
                _flag(getattr(self, f.name), f.name)
        if not is_whole(self.vraag_tricks, 8, 9):  # 8.0 is not a trick count
            raise ValueError(f"vraag_tricks must be 8 or 9, got {self.vraag_tricks!r}")
        _choice(self.four_ace_partner, ("highest_heart", "highest_missing"), "four_ace_partner")
        _choice(self.abondance_level_payment, ("same", "rising"), "abondance_level_payment")
        _choice(self.all_pass, ("redeal", "ronde_pas"), "all_pass")
        _choice(self.deck, ("shuffle", "gather_and_cut"), "deck")
        if self.abondance_suit_ranking and not self.abondance_levels:
            raise ValueError("abondance_suit_ranking needs abondance_levels")

    @property
    def trump_with_bid(self) -> bool:
        """Whether an abondance bid names its trump (variant, or implied by suit ranking)."""
        return self.abondance_trump_with_bid or self.abondance_suit_ranking

    def contracts(self) -> list[str]:
        """Contract names that exist under these rules, in auction order (RULES.md 1.3, 1.4)."""
        names = [c.name for c in CONTRACTS.values() if c.switch is None or getattr(self, c.switch)]
        if self.abondance_levels:
            names.remove("abondance_in_troef")
        return names

    def target(self, contract: str) -> int:
        """Tricks the declaring side needs under these rules (vraag for 9 raises vraag and troel)."""
        spec = contract_spec(contract)
        return self.vraag_tricks if contract in ("vraag", "troel") else spec.target

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some switches changed (validated)."""
        return dataclasses.replace(self, **changes)


def _presets() -> dict[str, RuleSet]:
    base = RuleSet()
    return {
        "tempelaere": base,
        "italian": base.replace(name="italian", payments=PaymentTable.load("italian")),
        "classic": base.replace(name="classic", kleine_miserie=False, pico=False),
        "levels": base.replace(
            name="levels", abondance_levels=True, abondance_suit_ranking=True, abondance_level_payment="rising"
        ),
        "vraag9": base.replace(name="vraag9", vraag_tricks=9),
        "ronde_pas": base.replace(name="ronde_pas", all_pass="ronde_pas"),
    }


PRESETS: Mapping[str, RuleSet] = MappingProxyType(_presets())


def get_rules(rules: str | Path | RuleSet = "tempelaere") -> RuleSet:
    """Resolve a preset name, a ``RuleSet`` or a TOML rules file into a ``RuleSet``.

    A rules file holds ``RuleSet`` fields at top level; ``preset = "name"`` picks the
    base (default ``tempelaere``) and ``payments`` is a table name, a path (relative to
    the rules file's folder), or an inline table in the schema of ``payments/tempelaere.toml``.

    Raises:
        ValueError: unknown preset, unknown field or bad value (names it).
        TypeError: ``rules`` neither text, a path nor a RuleSet.
    """
    if isinstance(rules, RuleSet):
        return rules
    if not isinstance(rules, (str, Path)):
        raise TypeError(f"rules: a preset name, a .toml rules file or a RuleSet, got {rules!r}")
    path = Path(rules)
    if path.suffix != ".toml":
        if rules not in PRESETS:
            raise ValueError(
                f"unknown rules preset {rules!r} (neither a preset nor a .toml rules file); known: {', '.join(PRESETS)}"
            )
        return PRESETS[str(rules)]
    data = read_toml(path, "rules file")
    base = get_rules(data.pop("preset", "tempelaere"))
    payments = data.pop("payments", None)
    if isinstance(payments, str):  # a table's file path is read from the rules file's folder
        data["payments"] = PaymentTable.load(path.parent / payments if payments.endswith(".toml") else payments)
    elif isinstance(payments, dict):
        data["payments"] = PaymentTable.from_mapping(payments, str(path))
    elif payments is not None:
        raise ValueError(f"payments in {path} must be a table name, a .toml path or an inline table, got {payments!r}")
    known = {f.name for f in dataclasses.fields(RuleSet)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown rules field(s) {sorted(unknown)} in {path}")
    data.setdefault("name", path.stem)
    return base.replace(**data)
