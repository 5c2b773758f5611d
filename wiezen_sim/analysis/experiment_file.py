"""An experiment file: its format, its checks and the samples of its hand classes (issue 6).

An experiment file (TOML, in ``experiments/``) names the grid::

    name = "abondance"          # results go to results/<name>/ (default: the file's stem)
    seed = 2026                  # everything below is reproducible from it
    samples = 24                 # hands per class, seat and method (scale up with --samples)
    deals = 1                    # sampled deals per hand (the other three hands)
    contracts = ["abondance"]    # names of RULES.md 1.3
    seats = ["eldest"]           # eldest, second, third, dealer
    methods = ["dd"]             # whatever advise() accepts
    rules = "tempelaere"         # preset or TOML file
    batch_size = 4               # hands per batch file (the unit of resume)
    turned = "trump"             # the turned card's suit: trump (the class's), other or any

    [defaults]                   # HandClass fields shared by every class
    trump = "H"

    [grid]                       # the classes: the product of these lists ...
    name = "{trump_length} trumps, {trump_honours}"
    trump_length = [5, 6, 7]
    trump_honours = ["", "A", "AK"]

    [[classes]]                  # ... and/or classes listed one by one
    name = "trap"
    lengths = "5-3-3-2"          # S-H-D-C, "x" = free
    lowest = { C = [6, 7] }
    contracts = ["miserie"]      # this class's own contracts (optional)
    features = { doubleton = "6-7" }  # extra table columns for the charts (optional)

    [[charts]]                   # see wiezen_sim.analysis.charts.chart_figures
    kind = "lines"
    x = "trump_length"
    hue = "trump_honours"

Loaded by :func:`load_experiment` into an :class:`Experiment`, which
:func:`~wiezen_sim.analysis.experiment.run_experiment` runs.
"""

from __future__ import annotations

import dataclasses
import itertools
import string
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from wiezen_sim.analysis.advise import METHODS
from wiezen_sim.analysis.advise.play import check_accept_tricks
from wiezen_sim.analysis.hands import HandClass, hcp, sample_hand
from wiezen_sim.cards import FULL_DECK, SUITS, card_count, cards_of, suit_holding
from wiezen_sim.parallel import resolve_seed
from wiezen_sim.rules.contracts import contract_spec
from wiezen_sim.rules.ruleset import get_rules, read_toml
from wiezen_sim.vocabulary import is_whole, parse_seat, seat_name

__all__ = [
    "CLASS_FIELDS",
    "MAX_COUNT",
    "SPEC_KEYS",
    "TURNED",
    "Experiment",
    "class_stream",
    "declared_suit",
    "hand_class",
    "load_experiment",
    "sample_position",
    "turned_card",
]

TURNED = ("trump", "other", "any")
SPEC_KEYS = {"name", "description", "seed", "samples", "deals", "contracts", "seats", "methods", "rules", "batch_size",
             "accept_tricks", "turned", "defaults", "grid", "classes", "charts"}  # fmt: skip
CLASS_FIELDS = {f.name for f in fields(HandClass)}
MAX_COUNT = 10_000_000  # the most samples, deals or hands per batch an experiment file may ask for


@dataclass
class Experiment:
    """A parsed experiment file (module docstring).

    Attributes:
        classes: the hand classes in file order (grid first, then ``[[classes]]``).
        features: per class, the values that define it (grid axes and listed fields),
            copied into the table's columns for charts.
        contracts: every contract asked; ``class_contracts`` those of each class (a
            ``[[classes]]`` entry may name its own ``contracts``).
    """

    name: str
    seed: int
    samples: int
    contracts: list[str]
    classes: list[HandClass]
    features: list[dict]
    class_contracts: list[list[str]]
    seats: list[str] = field(default_factory=lambda: ["eldest"])
    methods: list[str] = field(default_factory=lambda: ["dd"])
    deals: int = 1
    rules: str = "tempelaere"
    batch_size: int = 4
    accept_tricks: float = 4.0
    turned: str = "trump"
    description: str = ""
    charts: list[dict] = field(default_factory=list)
    source: dict = field(default_factory=dict)

    def select(self, names: Sequence[str]) -> Experiment:
        """The same experiment restricted to the named classes (file order kept).

        Raises:
            ValueError: a name that is not a class of the experiment.
        """
        known = [c.name for c in self.classes]
        missing = set(names) - set(known)
        if missing:
            raise ValueError(f"no hand class named {sorted(missing)}; known: {known}")
        keep = [i for i, name in enumerate(known) if name in names]
        return dataclasses.replace(
            self,
            classes=[self.classes[i] for i in keep],
            features=[self.features[i] for i in keep],
            class_contracts=[self.class_contracts[i] for i in keep],
            source={**self.source, "selected": list(names)},
        )

    def parameters(self) -> dict:
        """The parameters that determine the table (recorded in meta.json, checked on resume)."""
        return {**self.source, "name": self.name, "seed": self.seed, "samples": self.samples, "deals": self.deals}


def _suit(value: object) -> int:
    if isinstance(value, int) and value in range(4):
        return value
    if isinstance(value, str) and value.upper() in SUITS:
        return SUITS.index(value.upper())
    raise ValueError(f"a suit is one of S, H, D, C, got {value!r}")


def _per_suit(value: object, what: str) -> tuple:
    """``"5-3-3-2"`` / ``[5, 3, 3, 2]`` (S, H, D, C; "x" free) or ``{C = [6, 7]}`` → a 4-tuple with None."""
    if isinstance(value, dict):
        out: list = [None] * 4
        for suit, v in value.items():
            out[_suit(suit)] = tuple(v) if isinstance(v, list) else v
        return tuple(out)
    items = value.split("-") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or len(items) != 4:
        raise ValueError(f"{what} needs four entries S-H-D-C, got {value!r}")
    return tuple(None if str(x).lower() == "x" else tuple(x) if isinstance(x, list) else int(x) for x in items)


def hand_class(spec: dict) -> HandClass:
    """A :class:`HandClass` from an experiment file's table (TOML values: suits as letters, ranges as lists).

    Raises:
        ValueError: an unknown field or a bad value.
    """
    unknown = set(spec) - CLASS_FIELDS
    if unknown:
        raise ValueError(f"unknown hand-class field(s) {sorted(unknown)}; known: {sorted(CLASS_FIELDS)}")
    kwargs: dict = {}
    for key, value in spec.items():
        if key == "trump":
            value = _suit(value)
        elif key in ("lengths", "lowest"):
            value = _per_suit(value, key)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[key] = value
    try:
        return HandClass(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad hand class {spec!r}: {exc}") from None


def _listed(value: object, key: str, what: str, kinds: tuple[type, ...] = (str,)) -> list:
    """``value`` if it is a list of ``kinds`` (a TOML array), else ValueError naming ``key``."""
    if not isinstance(value, list) or not all(isinstance(v, kinds) and not isinstance(v, bool) for v in value):
        raise ValueError(f"{key} must be a list of {what}, got {value!r}")
    return value


def _table(value: object, key: str) -> dict:
    """``value`` if it is a TOML table, else ValueError naming ``key``."""
    if not isinstance(value, dict):
        raise ValueError(f"{key} must be a table, got {value!r}")
    return value


def _class_name(template: object, values: dict) -> str:
    """A grid class's name: ``grid.name`` filled in with ``values`` (its grid axes), or the axes listed without one;
    ValueError for a template that is not a text or a format string of the axes, naming key, placeholder and axes."""
    if template is None:
        return ", ".join(f"{k}={_feature(v)}" for k, v in values.items())
    allowed = ", ".join("{" + axis + "}" for axis in values)
    if not isinstance(template, str):
        raise ValueError(f"grid.name must be a text with placeholders {allowed}, got {template!r}")
    try:
        for _, name, _, _ in string.Formatter().parse(template):
            if name is not None and name not in values:
                raise ValueError(f"unknown placeholder {{{name}}}")
        return template.format(**values)
    except (ValueError, KeyError, IndexError) as exc:  # KeyError, IndexError: a placeholder in a format spec
        problem = f"unknown placeholder {{{exc.args[0]}}}" if isinstance(exc, KeyError | IndexError) else exc
        raise ValueError(f"grid.name = {template!r}: {problem}; placeholders allowed: {allowed}") from None


def _feature(value: object) -> object:
    """A class feature as a table cell: ranges ``"6-7"``, per-suit tables ``"C=6-7"``."""
    if isinstance(value, dict):
        return " ".join(f"{k}={_feature(v)}" for k, v in value.items())
    return "-".join(map(str, value)) if isinstance(value, list | tuple) else value


def load_experiment(source: str | Path | dict, samples: int | None = None) -> Experiment:
    """Parse an experiment (TOML file path, or the same content as a dict).

    Args:
        samples: overrides the file's ``samples`` (hands per class, seat and method).

    Raises:
        ValueError: a missing or unreadable file, not TOML, an unknown key, contract, seat, method or
            class field, a value of the wrong type (a text for a list), no classes, a count not from 1
            to :data:`MAX_COUNT`, a ``grid.name`` placeholder that is not a grid axis, or a ``name`` that
            is not a plain folder name (results go to ``results/<name>/``, never outside).
    """
    if isinstance(source, dict):
        raw, stem, where = dict(source), "experiment", ""
    else:
        path = Path(source)
        raw = read_toml(path, "experiment file")
        stem, where = path.stem, f"{path}: "
    unknown = set(raw) - SPEC_KEYS
    if unknown:
        raise ValueError(f"unknown experiment key(s) {sorted(unknown)}; known: {sorted(SPEC_KEYS)}")
    counts = {"samples": raw.get("samples", 16) if samples is None else samples, "deals": raw.get("deals", 1),
              "batch_size": raw.get("batch_size", 4)}  # fmt: skip
    for key, value in counts.items():
        if not is_whole(value, 1, MAX_COUNT):
            raise ValueError(f"{key} must be a whole number from 1 to {MAX_COUNT}, got {value!r}")
    defaults = _table(raw.get("defaults", {}), "defaults")
    classes, features = [], []
    grid = dict(_table(raw.get("grid", {}), "grid"))
    if grid:
        template = grid.pop("name", None)
        axes = {k: v if isinstance(v, list) else [v] for k, v in grid.items()}
        for combo in itertools.product(*axes.values()):
            values = dict(zip(axes, combo, strict=True))
            classes.append(hand_class({**defaults, **values, "name": _class_name(template, values)}))
            features.append({k: _feature(v) for k, v in values.items()})
    names_of = "contract names"
    contracts = [contract_spec(c).name for c in _listed(raw.get("contracts", []), "contracts", names_of)]
    class_contracts = [contracts] * len(classes)
    for entry in _listed(raw.get("classes", []), "classes", "tables ([[classes]])", (dict,)):
        entry = dict(entry)
        own = [contract_spec(c).name for c in _listed(entry.pop("contracts", contracts), "classes.contracts", names_of)]
        labels = _table(entry.pop("features", {}), "classes.features")  # extra table columns for charts, no constraint
        classes.append(hand_class({**defaults, **entry}))
        features.append({k: _feature(v) for k, v in {**entry, **labels}.items() if k != "name"})
        class_contracts.append(own)
    if not classes:
        raise ValueError("the experiment has no hand classes: give [grid] or [[classes]]")
    names = [c.name for c in classes]
    if len(set(names)) != len(names):
        raise ValueError(f"two hand classes share a name: {sorted({n for n in names if names.count(n) > 1})}")
    if not all(class_contracts):
        raise ValueError("the experiment names no contracts (give contracts, for all or per class)")
    seats = [seat_name(parse_seat(s)) for s in _listed(raw.get("seats", ["eldest"]), "seats", "seats", (str, int))]
    methods = list(_listed(raw.get("methods", ["dd"]), "methods", "method names"))
    bad_methods = [m for m in methods if m not in METHODS]
    if bad_methods:
        raise ValueError(f"unknown method(s) {bad_methods}; known: {', '.join(METHODS)}")
    for key, given in (("seats", seats), ("methods", methods)):  # a seat twice would count its hands twice
        if not given or len(set(given)) != len(given):
            raise ValueError(f"{key} must name at least one, each once, got {raw.get(key)!r}")
    charts = list(_listed(raw.get("charts", []), "charts", "tables ([[charts]])", (dict,)))
    for chart in charts:  # a chart is written into the results folder, never outside it
        file = chart.get("file", "chart")
        if not isinstance(file, str) or file in ("", ".", "..") or Path(file).name != file or "\\" in file:
            raise ValueError(f"{where}charts: file = {file!r} is not a file name (charts go to the results folder)")
    rules = str(raw.get("rules", "tempelaere"))
    if rules.endswith(".toml") and not isinstance(source, dict):
        rules = str(Path(source).parent / rules)  # a rules file is read from the experiment file's folder
    name = str(raw.get("name", stem))
    if name in ("", ".", "..") or Path(name).name != name or "\\" in name:
        raise ValueError(f"{where}name = {name!r} is not a folder name (results go to results/<name>/)")
    accept = check_accept_tricks(raw.get("accept_tricks", 4.0))
    turned = raw.get("turned", "trump")
    if turned not in TURNED:
        raise ValueError(f"turned must be one of {', '.join(TURNED)}, got {turned!r}")
    exp = Experiment(
        name=name,
        seed=resolve_seed(raw.get("seed", 0)),
        samples=int(counts["samples"]),
        contracts=list(dict.fromkeys(c for own in class_contracts for c in own)),
        classes=classes,
        class_contracts=class_contracts,
        features=features,
        seats=seats,
        methods=methods,
        deals=int(counts["deals"]),
        rules=rules,
        batch_size=int(counts["batch_size"]),
        accept_tricks=accept,
        turned=turned,
        description=str(raw.get("description", "")),
        charts=charts,
        source={k: v for k, v in raw.items() if k not in ("samples", "seed", "name")},
    )
    get_rules(exp.rules)
    return exp


def class_stream(hc: HandClass) -> int:
    """The seed stream of a class: a hash of its name (so adding a class changes no other class's numbers)."""
    return zlib.crc32(hc.name.encode())


def turned_card(hand: int, hc: HandClass, seat: int, rng: np.random.Generator, turned: str = "trump") -> int:
    """The turned card for a sampled hand: in the hand for the dealer, outside it otherwise, uniformly.

    ``turned`` says from which suit: ``trump`` the class's trump suit (any suit for a
    class without one), ``other`` any suit but the class's trump, ``any`` any suit.

    Raises:
        ValueError: no card can be the turned card, or an unknown ``turned``.
    """
    if turned not in TURNED:
        raise ValueError(f"turned must be one of {', '.join(TURNED)}, got {turned!r}")
    pool = hand if seat == parse_seat("dealer") else FULL_DECK & ~hand
    if hc.trump is not None and turned != "any":
        suit = 0xFFFF << (16 * hc.trump)
        pool &= suit if turned == "trump" else ~suit
    cards = cards_of(pool)
    if not cards:
        raise ValueError(f"class {hc.name!r}: no card can be turned ({turned}) for seat {seat_name(seat)}")
    return cards[int(rng.integers(len(cards)))]


def declared_suit(hand: int, hc: HandClass) -> int:
    """The suit an abondance or solo slim declarer names: the class's trump, else the longest suit (most points)."""
    if hc.trump is not None:
        return hc.trump
    return max(range(4), key=lambda s: (card_count(suit_holding(hand, s)), hcp(suit_holding(hand, s) << 16 * s), -s))


def sample_position(hc: HandClass, seat: int, word: int, turned: str = "trump") -> tuple[int, int]:
    """``(hand, turned card)`` of one sample from its seed word (:func:`turned_card`)."""
    rng = np.random.default_rng(word)
    hand = sample_hand(hc, rng)
    return hand, turned_card(hand, hc, seat, rng, turned)
