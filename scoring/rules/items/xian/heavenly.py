"""天胡 赢三倍 ([A7]): by default 3 × the self-draw base (6 基数 each); alternative a flat 3 基数 each."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.rules.items.xian.self_draw import SelfDrawWin


class Tianhu(Item):
    name = "tianhu_self_draw_x3"
    zh = "天胡"
    en = "heavenly hand (x3 self-draw)"
    multiplier = 3  # 赢三倍; reaches bets and kongs only with [A11]

    def start(self, sit: Situation) -> ScoreItem:
        reading = sit.options.xian.heavenly
        sit.decide(f"A7 xian.heavenly={reading}")
        if reading == "flat_3":
            return TianhuFlat.make(3, "天胡 赢三倍 read as a flat 3 基数 from each")
        self_draw = SelfDrawWin().start(sit.options.xian.base_points).value
        return self.make(3 * self_draw, f"天胡 赢三倍: 3 × the self-draw base {self_draw}")


class TianhuFlat(Item):
    name = "tianhu_flat_3"
    zh = "天胡"
    en = "heavenly hand (flat 3)"
