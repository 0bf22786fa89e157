"""Items on the red cards of the 20: 3. 多红 (10 or more: +10 for the 10th and each one after), 6. 乌胡 (none: ×4),
7. 点胡 (exactly one: ×3), 8. 满园花 (every 句 and the 麻雀 hold a red card: +100)."""

from __future__ import annotations

from scoring.weimaque.items.base import Xi
from scoring.weimaque.result import XiItem
from scoring.weimaque.situation import XiSituation


class DuoHong(Xi):
    name = "多红"
    en = "many red cards"
    kind = "add"
    from_count = 10
    per_card = 10

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        reds = sit.red_count
        if reds < self.from_count:
            return None
        return self.make(self.per_card * (reds - self.from_count + 1), f"{reds} red cards: 10 for the 10th, "
                         f"10 more for each after")


class WuHu(Xi):
    name = "乌胡"
    en = "no red card"
    kind = "multiply"
    factor = 4

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if sit.red_count:
            return None
        return self.make(self.factor, "no red card: 总息 = 4 × 硬息")


class DianHu(Xi):
    name = "点胡"
    en = "one red card"
    kind = "multiply"
    factor = 3

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if sit.red_count != 1:
            return None
        return self.make(self.factor, "exactly one red card: 总息 = 3 × 硬息")


class ManYuanHua(Xi):
    name = "满园花"
    en = "red in every set"
    kind = "add"
    bonus = 100

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if not all(any(card.red for card in group.cards) for group in sit.hand.groups):
            return None
        return self.make(self.bonus, "every 句 and the 麻雀 hold a red card")
