"""Totals printed in the 组合牌型 table that the additive rule does not give (``weinan.table_overrides``).

Row 4 天胡大对 is printed as 9 while 大对子 2 + 天胡 6 = 8 (and row 34 清一天胡大对 14 implies 8). golden.json
follows the print (derivation "table-override": a printed value the additive items do NOT reproduce), so the
items stay the additive ones and only the total is lifted; the result's ``decisions`` says so.
Row 52 清一海底捞七小对 11 is a typo of row 13 (same items, 12): no override, the additive 12 stands.
"""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation


class TableOverride:
    name = "table_override"
    zh = "组合牌型表"
    en = "combination table"

    def evaluate(self, sit: Situation, items: list[ScoreItem]) -> int | None:
        """The printed total when exactly these items form an overridden table row, else None."""
        names = sorted(item.name for item in items)
        total = sum(item.value for item in items)
        for key, printed in sit.options.weinan.table_overrides.items():
            if sorted(part.strip() for part in key.split("+")) == names and printed != total:
                sit.decide(f"weinan.table_overrides[{key}]={printed} (items add up to {total})")
                return printed
        return None
