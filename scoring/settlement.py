"""Who pays whom: a ledger of payments that always balances, plus the settlements that span several results.

Every rule set records its payments here (component, payer, payee, amount); ``deltas`` is derived from the
ledger, so per-seat deltas sum to zero by construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.hand import N_SEATS, Hand, Meld, MeldType
from scoring.options import RuleOptions
from scoring.result import Payment, ScoreResult
from scoring.tiles import format_compact


class Ledger:
    """Payments of one winning hand, in the order they were made."""

    def __init__(self) -> None:
        self.payments: list[Payment] = []

    def pay(self, component: str, payer: int, payee: int, amount: int) -> None:
        if payer == payee:
            raise ValueError(f"{component}: seat {payer} cannot pay itself")
        if amount:
            self.payments.append(Payment(component=component, payer=payer, payee=payee, amount=amount))

    def total_to(self, seat: int, component: str) -> int:
        """Net points ``seat`` received for ``component``."""
        return sum(
            p.amount if p.payee == seat else -p.amount
            for p in self.payments
            if p.component == component and seat in (p.payer, p.payee)
        )

    def deltas(self) -> list[int]:
        return deltas_of(self.payments)


def deltas_of(payments: Iterable[Payment]) -> list[int]:
    deltas = [0] * N_SEATS
    for p in payments:
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    return deltas


def others(seat: int) -> tuple[int, ...]:
    return tuple(s for s in range(N_SEATS) if s != seat)


def exposed_kong_feeder(meld: Meld, winner: int) -> int:
    """The seat that fed a 明杠/放杠; a kong_exposed without a valid 'from' cannot be settled."""
    if meld.type is not MeldType.KONG_EXPOSED:
        raise ValueError(f"{meld.type.value} has no feeder")
    if meld.from_seat is None:
        raise KongFeederError(
            f"kong_exposed {format_compact(meld.tiles)}: give 'from', the seat that discarded the 4th tile"
        )
    if meld.from_seat == winner:
        raise KongFeederError(f"kong_exposed {format_compact(meld.tiles)}: 'from' is the winner's own seat "
                              f"{winner}; give the seat that discarded the 4th tile")
    return meld.from_seat


def unfed_kong(hand: Hand) -> int | None:
    """The index of the first exposed kong of ``hand`` that exposed_kong_feeder cannot settle, or None."""
    for index, meld in enumerate(hand.melds):
        if meld.type is MeldType.KONG_EXPOSED:
            try:
                exposed_kong_feeder(meld, hand.context.winner)
            except KongFeederError:
                return index
    return None


def unfed_kong_message(hand: Hand, kong: str, give_seat: str, added: str) -> str | None:
    """Why unfed_kong's kong cannot be settled, in the caller's input spelling: ``kong`` names it, ``give_seat`` says
    how to give its feeder, ``added`` how to make it an added kong (each may use {index} and {tiles}). None when
    every exposed kong can be settled."""
    index = unfed_kong(hand)
    if index is None:
        return None
    meld = hand.melds[index]
    names = {"index": index, "tiles": format_compact(meld.tiles)}
    given = "" if meld.from_seat is None else f" (not the winner's own seat {meld.from_seat})"
    return (f"{kong.format(**names)} needs the seat that discarded its 4th tile{given}: {give_seat.format(**names)}, "
            f"or {added.format(**names)} if it is an added kong (补杠)")


class KongFeederError(ValueError):
    """A claimed kong without the seat that fed it."""


def merge_same_discard_wins(results: Sequence[ScoreResult], options: RuleOptions | None = None) -> list[int]:
    """Weinan 一炮多响: net deltas of two or three wins on the same discard.

    Two winners: the discarder pays both (the per-win deltas add up). Three winners: the seed says the three
    winners pay the discarder (``3个玩家同时输分给点胡的玩家``); by default ([A14]) each winner's hand payment is
    reversed while its kong payments stand. ``weinan.multi_win_three=discarder_pays`` adds them up instead.
    """
    options = options or RuleOptions()
    if not 2 <= len(results) <= 3:
        raise ValueError(f"一炮多响 needs 2 or 3 wins, got {len(results)}")
    if any(not r.valid or r.deltas is None for r in results):
        raise ValueError("every win of a 一炮多响 must be valid")
    payments: list[Payment] = []
    reverse = len(results) == 3 and options.weinan.multi_win_three == "winners_pay_discarder"
    for result in results:
        for p in result.payments:
            if reverse and p.component == "fan":
                p = Payment(component=p.component, payer=p.payee, payee=p.payer, amount=p.amount)
            payments.append(p)
    return deltas_of(payments)
