"""21. 手牵手: the seed says "暂不明" (not known). It is scored only when the player marks the hand 手牵手 AND a
house value is set (``weimaque.shou_qian_shou_xi``); the item is then labelled a house rule."""

from __future__ import annotations

from scoring.weimaque.items.base import Xi
from scoring.weimaque.result import XiItem
from scoring.weimaque.situation import XiSituation


class ShouQianShou(Xi):
    name = "手牵手"
    en = "hand in hand (house value)"
    kind = "house"

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if not sit.hand.context.shou_qian_shou:
            return None
        sit.decide("shou_qian_shou_xi")
        value = sit.options.shou_qian_shou_xi
        if value is None:
            sit.warn("手牵手 is 暂不明 in the seed: not scored (set weimaque.shou_qian_shou_xi to a house value)",
                     "shou_qian_shou_not_scored")
            return None
        return self.make(value, "house rule, not in the seed (手牵手：暂不明)")
