"""胡牌 (on a discard): 1 基数."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.items.base import Item


class DiscardWin(Item):
    name = "discard"
    zh = "胡牌"
    en = "win on a discard"

    def start(self, base_points: int) -> ScoreItem:
        return self.make(1, f"胡牌 1 基数 (B={base_points})")
