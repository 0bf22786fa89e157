"""What every 息 item may look at: the hand, the options, facts read off the cards, and the decisions so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from scoring.weimaque.cards import Card
from scoring.weimaque.hand import Group, WeimaqueHand
from scoring.weimaque.options import WeimaqueOptions
from scoring.weimaque.result import XiItem


class NotAWin(Exception):
    """The hand does not win; ``reason`` is the machine code, ``items`` what it scored so far."""

    def __init__(self, reason: str, message: str, items: list[XiItem] | None = None, hard_xi: int | None = None):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.items = items or []
        self.hard_xi = hard_xi


@dataclass
class XiSituation:
    hand: WeimaqueHand
    options: WeimaqueOptions
    decisions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    warning_codes: list[str] = field(default_factory=list)  # one stable code per warning, for the app's 中文/English

    def decide(self, option: str) -> None:
        """Record that an option decided something in this result (once)."""
        text = self.options.describe(option)
        if text not in self.decisions:
            self.decisions.append(text)

    def warn(self, message: str, code: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
            self.warning_codes.append(code)

    @property
    def pair(self) -> Group:
        return self.hand.pairs[0]

    @cached_property
    def tuanyuan(self) -> list[Card]:
        """Cards of 团圆: a 碰/煨/砍 whose fourth copy is elsewhere in the hand (其中3张必须在一起为一句话)."""
        return [g.cards[0] for g in self.hand.sets if g.type.is_triplet and self.hand.count(g.cards[0]) == 4]

    @cached_property
    def red_count(self) -> int:
        return sum(card.red for card in self.hand.cards)

    @property
    def all_triplets(self) -> bool:
        return all(g.type.is_triplet for g in self.hand.sets)

    @property
    def win_group(self) -> Group | None:
        return self.hand.win_group

