"""自摸 (炸弹): 2 基数 from each other player."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.items.base import Item


class SelfDrawWin(Item):
    name = "self_draw"
    zh = "自摸"
    en = "self-draw"

    def start(self, base_points: int) -> ScoreItem:
        return self.make(2, f"自摸 2 基数 from each (B={base_points})")
