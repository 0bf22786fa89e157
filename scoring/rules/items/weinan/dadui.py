"""2. 大对子 2番: every set a pung or kong, plus the pair (a two-pair finish included)."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.shapes import Decomposition
from scoring.shapes.report import CHOW


class DaDuiZi(Item):
    name = "大对子"
    zh = "大对子"
    en = "all pungs"
    fan = 2

    def evaluate(self, sit: Situation, reading: Decomposition) -> ScoreItem | None:
        if any(b.type == CHOW for b in reading.blocks):
            return None
        return self.make(self.fan, "every set is a pung or kong")
