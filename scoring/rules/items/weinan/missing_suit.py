"""缺一门才能胡牌: the final hand (melds included) holds at most two suits and none of the declared missing suit
(选择缺一门后，必出缺一门牌型). 清一 satisfies it by itself."""

from __future__ import annotations

from scoring.rules.base import NotAllowed, Situation, suits_in

SUIT_NAMES = {"m": "万 m", "p": "筒 p", "s": "条 s"}


class QueYiMen:
    name = "缺一门"
    en = "one suit missing"

    def check(self, sit: Situation) -> None:
        suits = suits_in(sit.hand)
        declared = sit.ctx.missing_suit
        if declared is not None and declared in suits:
            raise NotAllowed(
                "holds_declared_missing_suit",
                f"declared missing suit {SUIT_NAMES[declared]} but the hand holds it (选择缺一门后，必出缺一门牌型)",
            )
        if len(suits) > 2:
            raise NotAllowed("not_missing_a_suit", "the hand holds all three suits: Weinan wins need 缺一门")
