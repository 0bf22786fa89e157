"""How the hand finished: 16. 海底胡 (won on the last card, +10), 17. 单吊 (the winning card completed the 麻雀,
+20), 20. 背靠背 (对倒 on the same number in both cases: the winning card made a triplet and the 麻雀 is that number
in the other case, +20). 单吊 and 背靠背 need the winning card marked (``*``)."""

from __future__ import annotations

from scoring.weimaque.hand import SetType
from scoring.weimaque.items.base import Xi
from scoring.weimaque.result import XiItem
from scoring.weimaque.situation import XiSituation


class HaiDiHu(Xi):
    name = "海底胡"
    en = "won on the last card"
    kind = "add"
    bonus = 10

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if not sit.hand.context.last_card:
            return None
        return self.make(self.bonus, "won on the last card (最后一张牌胡牌)")


class DanDiao(Xi):
    name = "单吊"
    en = "won on the pair"
    kind = "add"
    bonus = 20

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        group = sit.win_group
        if group is None or group.type is not SetType.PAIR:
            return None
        return self.make(self.bonus, f"the winning {group.win_card.zh} completed the 麻雀")


class BeiKaoBei(Xi):
    name = "背靠背"
    en = "two-way wait on one number, big and small"
    kind = "add"
    bonus = 20

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        group = sit.win_group
        if group is None or not group.type.is_triplet:
            return None
        won, pair = group.win_card, sit.pair.cards[0]
        if pair.number != won.number or pair.big == won.big:
            return None
        return self.make(self.bonus, f"waited on {won.zh} or {pair.zh} (对倒); won on {won.zh}")
