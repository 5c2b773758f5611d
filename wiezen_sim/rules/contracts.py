"""The Wiezen contracts as one declarative table (RULES.md 1.3, 1.5).

Every contract is a row of :data:`CONTRACTS`; nothing else in the project branches
on contract names for side, target, trump, first lead or objective. Bids that are
not contracts (pass, wait, accept) are in :data:`CALLS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import overload

import numpy as np

from wiezen_sim.vocabulary import Objective

__all__ = [
    "CALLS",
    "CARTE_BLANCHE",
    "CONTRACTS",
    "ContractSpec",
    "FirstLead",
    "Side",
    "TrumpRule",
    "contract_spec",
    "succeeded",
]


class Side(StrEnum):
    """Who plays the contract: one declarer against three, or two against two."""

    ALONE = "alone"  # 1 vs 3
    PAIR = "pair"  # 2 vs 2, tricks counted together (RULES.md 1.5)


class TrumpRule(StrEnum):
    """Where the trump suit of a contract comes from (RULES.md 1.3, 1.5)."""

    TURNED = "turned"  # the turned card's suit
    CHOICE = "choice"  # named by the declarer (after the auction, or with the bid in a variant)
    NONE = "none"  # no trump (misère family)
    TROEL = "troel"  # the partner's ace suit, or hearts with four aces (RULES.md 1.5)


class FirstLead(StrEnum):
    """Who leads to the first trick (RULES.md 1.5)."""

    ELDEST = "eldest"
    DECLARER = "declarer"
    TROEL_PARTNER = "troel_partner"


@dataclass(frozen=True)
class ContractSpec:
    """One row of the contract table.

    Attributes:
        name: snake_case name used everywhere (``vraag``, ``solo``, …).
        rank: position in the auction order of RULES.md 1.3 (1 = lowest).
        side: 1 vs 3 or 2 vs 2.
        target: tricks needed (default rules; variants may change it, RULES.md 1.4/1.5).
        objective: ``MAX`` (made with at least ``target`` tricks), ``MIN`` (at most:
            the misère family, target 0) or ``EXACT`` (pico, target 1).
        trump: trump rule.
        first_lead: leader of the first trick.
        misere: member of the misère family (equal bids allowed, no trump).
        tricks: tricks played (12 in kleine miserie after the discards).
        switch: name of the ``RuleSet`` flag that must be on for the contract to
            exist, or ``None`` if always available.
    """

    name: str
    rank: int
    side: Side
    target: int
    objective: Objective
    trump: TrumpRule
    first_lead: FirstLead
    misere: bool = False
    tricks: int = 13
    switch: str | None = None


_A, _P = Side.ALONE, Side.PAIR
_MAX, _MIN, _EXACT = Objective.MAX, Objective.MIN, Objective.EXACT

CONTRACTS: dict[str, ContractSpec] = {
    c.name: c
    for c in (
        ContractSpec("vraag", 1, _P, 8, _MAX, TrumpRule.TURNED, FirstLead.ELDEST),
        ContractSpec("solo", 2, _A, 5, _MAX, TrumpRule.TURNED, FirstLead.ELDEST),
        ContractSpec(
            "kleine_miserie", 3, _A, 0, _MIN, TrumpRule.NONE, FirstLead.ELDEST, True, 12, switch="kleine_miserie"
        ),
        ContractSpec("pico", 4, _A, 1, _EXACT, TrumpRule.NONE, FirstLead.ELDEST, True, switch="pico"),
        ContractSpec("abondance", 5, _A, 9, _MAX, TrumpRule.CHOICE, FirstLead.ELDEST),
        ContractSpec("abondance_in_troef", 6, _A, 9, _MAX, TrumpRule.TURNED, FirstLead.ELDEST),
        ContractSpec("miserie", 7, _A, 0, _MIN, TrumpRule.NONE, FirstLead.ELDEST, True),
        ContractSpec("troel", 8, _P, 8, _MAX, TrumpRule.TROEL, FirstLead.TROEL_PARTNER),
        ContractSpec("open_miserie", 9, _A, 0, _MIN, TrumpRule.NONE, FirstLead.ELDEST, True),
        ContractSpec("solo_slim", 10, _A, 13, _MAX, TrumpRule.CHOICE, FirstLead.DECLARER),
    )
}

PASS, WAIT, ACCEPT = "pass", "wait", "accept"
CALLS = (PASS, WAIT, ACCEPT)  # wachten = wait, meegaan = accept (RULES.md 1.4)
CARTE_BLANCHE = "carte_blanche"  # a declaration before the auction (RULES.md 1.4 variant)


def contract_spec(name: str) -> ContractSpec:
    """The table row of a contract.

    Raises:
        ValueError: unknown contract name (lists the known ones).
    """
    try:
        return CONTRACTS[name]
    except KeyError:
        raise ValueError(f"unknown contract {name!r}; known: {', '.join(CONTRACTS)}") from None


@overload
def succeeded(spec: ContractSpec, tricks: int, target: int | None = None) -> bool: ...
@overload
def succeeded(spec: ContractSpec, tricks: np.ndarray, target: int | np.ndarray | None = None) -> np.ndarray: ...
def succeeded(spec, tricks, target=None):
    """Whether the declaring side made the contract with ``tricks`` tricks (RULES.md 1.3).

    Args:
        spec: the contract's row; its ``objective`` decides: at least (``MAX``), at
            most (``MIN``) or exactly (``EXACT``) the target.
        tricks: the declaring side's tricks: an int, or an int array (one per deal).
        target: the tricks needed when the rules or the deal change it (vraag for 9,
            a troel free lead, an abondance level; ``RuleSet.target``); default
            ``spec.target``. An int or an array broadcasting against ``tricks``.

    Returns:
        ``bool``, or a bool array of the shape of ``tricks``.
    """
    need = spec.target if target is None else target
    if spec.objective is Objective.MAX:
        return tricks >= need
    if spec.objective is Objective.MIN:
        return tricks <= need
    return tricks == need
