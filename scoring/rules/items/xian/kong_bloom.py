"""杠后开花: a self-draw on the kong replacement tile doubles the win base (翻二倍)."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.items.base import Item


class GangHouKaiHua(Item):
    name = "gang_hou_kai_hua_x2"
    zh = "杠后开花"
    en = "win on a kong replacement (x2)"
    multiplier = 2

    def apply(self, base: int) -> ScoreItem:
        return self.make(base * self.multiplier, f"杠后开花 翻二倍: base {base} -> {base * self.multiplier}")
