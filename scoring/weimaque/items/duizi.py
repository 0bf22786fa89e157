"""4. 对子胡: every 句 is a 碰, 煨 or 砍 (no 吃) — 总息 = 6 × 硬息. 5. 乌对: 对子胡 with no red card — ×8, read as
the combined name of 对子胡 and 乌胡 (it replaces both; their product 24 would make the item pointless)."""

from __future__ import annotations

from scoring.weimaque.items.base import Xi
from scoring.weimaque.result import XiItem
from scoring.weimaque.situation import XiSituation


class DuiZiHu(Xi):
    name = "对子胡"
    en = "all triplets"
    kind = "multiply"
    factor = 6

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if not sit.all_triplets:
            return None
        return self.make(self.factor, "every 句 is a 碰/煨/砍: 总息 = 6 × 硬息")


class WuDui(Xi):
    name = "乌对"
    en = "all triplets, no red card"
    kind = "multiply"
    factor = 8

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if not sit.all_triplets or sit.red_count:
            return None
        return self.make(self.factor, "对子胡 with no red card: 总息 = 8 × 硬息 (replaces 对子胡 and 乌胡)")
