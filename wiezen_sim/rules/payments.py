"""Settlement of a played hand in units (RULES.md 1.6, 1.7). Always zero-sum.

Payments are lists of four ints in seat order (units/chips, positive = receives).
"""

from __future__ import annotations

from collections.abc import Sequence

from wiezen_sim.rules.contracts import Side, contract_spec, succeeded
from wiezen_sim.rules.ruleset import RuleSet
from wiezen_sim.vocabulary import SEATS, is_whole

__all__ = ["ALL_TRICKS", "add_payments", "contract_value", "settle", "settle_ronde_pas"]

ALL_TRICKS = 13


def contract_value(
    rules: RuleSet, contract: str, tricks: int, target: int | None = None, level: int | None = None
) -> tuple[bool, int]:
    """Whether the declaring side made ``contract`` and the value per opponent in units.

    Args:
        rules: the rule set (payment table and variants).
        contract: contract name (RULES.md 1.3).
        tricks: tricks taken by the declaring side (the pair together in 2 vs 2).
        target: tricks needed, if a variant changed it for this hand (troel free
            lead: 9); default ``rules.target(contract)``, or ``level`` for abondance.
        level: announced abondance level 9–12 (*abondance levels* variant).

    Returns:
        ``(success, value)``: value per opponent in units, over- and undertricks
        and the 13-trick doubling included (RULES.md 1.6).

    Raises:
        TypeError: ``rules`` not a RuleSet.
        ValueError: unknown contract or one these rules do not play, tricks not a whole number from 0
            to the contract's tricks (13; 12 in kleine miserie), a target below the contract's own under
            these rules or above its tricks (a misère contract's cannot change), or a level outside
            abondance under the *abondance levels* variant or outside 9..12.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules: a RuleSet (get_rules('tempelaere'), wiezen_sim.rules.ruleset), got {rules!r}")
    spec = contract_spec(contract)
    if spec.name not in rules.contracts():
        raise ValueError(
            f"{spec.name} is not played under the rules {rules.name!r}; they have {', '.join(rules.contracts())}"
        )
    if not is_whole(tricks, 0, spec.tricks):
        raise ValueError(f"{contract}: tricks must be a whole number from 0 to {spec.tricks}, got {tricks!r}")
    own = rules.target(contract)
    high = own if spec.misere else spec.tricks  # a variant may raise a target (troel free lead: 9), never lower it
    if target is not None and not is_whole(target, own, high):
        span = f"{own}" if spec.misere else f"a whole number from {own} to {high}"
        raise ValueError(f"{contract}: target must be {span} under the rules {rules.name!r}, got {target!r}")
    if level is not None and (not rules.abondance_levels or not contract.startswith("abondance")
                              or not is_whole(level, 9, 12)):  # fmt: skip
        raise ValueError(f"level {level!r}: only for abondance under abondance levels rules, 9..12")
    need = target if target is not None else level if level is not None else rules.target(contract)
    rule = rules.payments.contracts[contract]
    ok = succeeded(spec, tricks, need)
    if ok:
        value = rule.win + rule.win_per_trick * (tricks - need)
    else:
        value = rule.lose + rule.lose_per_trick * abs(need - tricks)
    if level is not None and rules.abondance_level_payment == "rising":
        value = rules.payments.abondance_rising[level]
    if rule.double_on_all and tricks == ALL_TRICKS:
        value *= 2
    return ok, value


def settle(
    rules: RuleSet,
    contract: str,
    declarers: Sequence[int],
    tricks: int,
    target: int | None = None,
    level: int | None = None,
) -> list[int]:
    """Payments of one contract (RULES.md 1.6).

    Args:
        declarers: one seat (1 vs 3) or the two seats of the pair (2 vs 2: proposer
            and acceptor, or troel holder and partner).
        tricks: tricks of the declaring side.

    Returns:
        Four ints (units, seat order): in 1 vs 3 the declarer wins or loses 3 × value;
        in 2 vs 2 each loser pays the value to each winner.

    Raises:
        ValueError: wrong number of declarers for the contract, a seat outside 0..3,
            or a bad trick count (see :func:`contract_value`).
    """
    spec = contract_spec(contract)
    need = 2 if spec.side is Side.PAIR else 1
    if len(declarers) != need or len(set(declarers)) != need or any(not 0 <= s < SEATS for s in declarers):
        raise ValueError(f"{contract} needs {need} distinct declarer seat(s) in 0..3, got {list(declarers)}")
    ok, value = contract_value(rules, contract, tricks, target, level)
    sign = 1 if ok else -1
    defenders = [s for s in range(SEATS) if s not in declarers]
    payments = [0] * SEATS
    for d in declarers:
        for o in defenders:
            payments[d] += sign * value
            payments[o] -= sign * value
    return payments


def add_payments(*rows: Sequence[int]) -> list[int]:
    """Sum settlements seat by seat (simultaneous misère contracts, RULES.md 1.6)."""
    return [sum(col) for col in zip(*rows, strict=True)] if rows else [0] * SEATS


def _pay_group(losers: Sequence[int], stake: int) -> list[int]:
    """Each loser pays ``stake`` to each player not among the losers."""
    payments = [0] * SEATS
    for loser in losers:
        for other in range(SEATS):
            if other not in losers:
                payments[loser] -= stake
                payments[other] += stake
    return payments


def settle_ronde_pas(
    game: int, tricks: Sequence[int], queens: Sequence[int], last_trick: int, rules: RuleSet
) -> list[int]:
    """Payments of a Ronde Pas / Totale Miserie game (RULES.md 1.7).

    Args:
        game: 1 = last trick, 2 = no queens, 3 = fewest tricks.
        tricks: tricks won per seat (four ints summing to 13).
        queens: queens among the won tricks per seat (four ints summing to 4).
        last_trick: seat that won the 13th trick.

    Returns:
        Four ints (units), zero-sum.

    Raises:
        ValueError: a bad game number, counts that do not sum up, or a bad seat.
    """
    stake = rules.payments.ronde_pas_stake
    if game not in (1, 2, 3):
        raise ValueError(f"Ronde Pas game must be 1, 2 or 3, got {game}")
    if len(tricks) != SEATS or sum(tricks) != ALL_TRICKS or min(tricks) < 0:
        raise ValueError(f"tricks per seat must be four counts summing to 13, got {list(tricks)}")
    if len(queens) != SEATS or sum(queens) != 4 or min(queens) < 0:
        raise ValueError(f"queens per seat must be four counts summing to 4, got {list(queens)}")
    if not 0 <= last_trick < SEATS:
        raise ValueError(f"last_trick must be a seat 0..3, got {last_trick}")
    if game == 1:
        return _pay_group([last_trick], stake)
    if game == 2:
        most = max(queens)
        return _pay_group([s for s in range(SEATS) if queens[s] == most], stake)
    fewest = min(tricks)
    winners = [s for s in range(SEATS) if tricks[s] == fewest]
    return [-p for p in _pay_group(winners, stake)]
