"""3. 七小对 3番: seven pairs without four identical tiles."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.items.base import Item


class QiXiaoDui(Item):
    name = "七小对"
    zh = "七小对"
    en = "seven pairs"
    fan = 3

    def evaluate(self, quads: int) -> ScoreItem | None:
        if quads != 0:
            return None
        return self.make(self.fan, "seven distinct pairs")
