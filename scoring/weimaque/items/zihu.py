"""9. 大字胡 / 小字胡: all 20 cards 大写 (or all 小写): +100."""

from __future__ import annotations

from scoring.weimaque.items.base import Xi
from scoring.weimaque.result import XiItem
from scoring.weimaque.situation import XiSituation


class DaZiHu(Xi):
    name = "大字胡"
    en = "all big cards"
    kind = "add"
    bonus = 100
    big = True

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if not all(card.big == self.big for card in sit.hand.cards):
            return None
        return self.make(self.bonus, f"all {len(sit.hand.cards)} cards are {'大写' if self.big else '小写'}")


class XiaoZiHu(DaZiHu):
    name = "小字胡"
    en = "all small cards"
    big = False
