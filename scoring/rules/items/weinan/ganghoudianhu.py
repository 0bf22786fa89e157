"""12. 杠后点胡 2番 + the pattern: a discard made right after the discarder's own kong."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item


class GangHouDianHu(Item):
    name = "杠后点胡"
    zh = "杠后点胡"
    en = "win on a discard after a kong"
    fan = 2

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        ctx = sit.ctx
        if not ctx.after_kong_discard or ctx.is_self_draw:
            return None
        return self.make(self.fan, "won on the discard made right after the discarder's kong")
