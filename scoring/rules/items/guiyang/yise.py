"""混5清10: 清一色 (every tile of one suit) 10 base 番; 混一色 (one suit plus honours) 5 base 番.

With the seed's 108 tiles there are no honours, so 混一色 only occurs under ``guiyang.honours_house_rule``."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation, honor_tiles, suits_in
from scoring.rules.items.base import Item


class QingYiSe(Item):
    name = "清一色"
    zh = "清一色"
    en = "one suit"
    fan = 10

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        suits = suits_in(sit.hand)
        if len(suits) != 1 or "z" in suits:
            return None
        return self.make(self.fan, f"every tile is {''.join(suits)} (清一色按10番基础番)")


class HunYiSe(Item):
    name = "混一色"
    zh = "混一色"
    en = "one suit and honours"
    fan = 5

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        suits = suits_in(sit.hand) - {"z"}
        if not honor_tiles(sit.hand) or len(suits) != 1:
            return None
        return self.make(self.fan, f"one suit ({''.join(suits)}) with honours (混一色按5番基础番)")
