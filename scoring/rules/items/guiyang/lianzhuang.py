"""6. 连庄: each time the dealer keeps the deal by winning, the base 番 grows by 1 (基础番将加一番). When someone
else wins, the dealer pays pattern 番 + 连庄番 and the other players the pattern 番 only."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item


class LianZhuang(Item):
    name = "连庄"
    zh = "连庄"
    en = "dealer continuation"
    per_continuation = 1

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        count = sit.options.guiyang.lianzhuang
        if not count:
            return None
        sit.decide(f"guiyang.lianzhuang={count}")
        payer = "paid by every other player" if sit.winner == sit.ctx.dealer else "paid by the dealer only"
        return self.make(self.per_continuation * count, f"dealer kept the deal {count} time(s); {payer}")
