"""Totals printed in the 组合牌型 table that the additive rule does not give (``weinan.table_overrides``).

Row 4 天胡大对 is printed as 9 while 大对子 2 + 天胡 6 = 8 (and row 34 清一天胡大对 14 implies 8); golden.json
follows the print, so the default override lifts exactly {大对子, 天胡} to 9 with this item (+1), keeping
fan = sum of items. Row 52 清一海底捞七小对 11 is a typo of row 13 (same items, 12): no override.
"""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item


class TableOverride(Item):
    name = "table_override"
    zh = "组合牌型表修正"
    en = "table override"

    def evaluate(self, sit: Situation, items: list[ScoreItem]) -> ScoreItem | None:
        names = sorted(item.name for item in items)
        total = sum(item.value for item in items)
        for key, printed in sit.options.weinan.table_overrides.items():
            if sorted(part.strip() for part in key.split("+")) == names and printed != total:
                sit.decide(f"weinan.table_overrides[{key}]={printed}")
                return self.make(printed - total, f"组合牌型 table prints {key} = {printed}; the items add up to {total}")
        return None
