"""5. 杠上花 2番: self-draw on the replacement tile after a kong; that kong is not a 根."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item


class GangShangHua(Item):
    name = "杠上花"
    zh = "杠上花"
    en = "win on a kong replacement"
    fan = 2

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        ctx = sit.ctx
        if not (ctx.kong_replacement and ctx.is_self_draw):
            return None
        return self.make(self.fan, "self-draw on the kong replacement tile")
