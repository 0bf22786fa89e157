"""6. 清一 6番: every tile (melds included) of one suit."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation, suits_in
from scoring.rules.items.base import Item


class QingYi(Item):
    name = "清一"
    zh = "清一"
    en = "one suit"
    fan = 6

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        suits = suits_in(sit.hand)
        if len(suits) != 1:
            return None
        return self.make(self.fan, f"every tile is {''.join(suits)}")
