"""13. 海底捞 3番: self-draw of the last tile (no bonus for winning on the last discard)."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item


class HaiDiLao(Item):
    name = "海底捞"
    zh = "海底捞"
    en = "last-tile self-draw"
    fan = 3

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        ctx = sit.ctx
        if not (ctx.last_tile and ctx.is_self_draw):
            return None
        return self.make(self.fan, "self-drew the last tile")
