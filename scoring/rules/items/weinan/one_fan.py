"""A win with no 番 item is worth 1: 自摸 on a self-draw; otherwise 平胡, and 1番不能接炮 refuses it on a discard.
抢杠 counts as a discard unless ``weinan.plain_robbing_kong`` ([A12])."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import NotAllowed, Situation
from scoring.rules.items.weinan.pinghu import PingHu
from scoring.rules.items.weinan.zimo import ZiMo


class OneFanRule:
    name = "1番不能接炮"
    en = "a 1-fan hand may not win on a discard"

    def apply(self, sit: Situation) -> ScoreItem:
        ctx = sit.ctx
        if ctx.is_self_draw:
            return ZiMo.make(ZiMo.fan, "self-draw with no other item (没有特殊牌型算1番)")
        item = PingHu.make(PingHu.fan, "no item: a 1番 hand")
        if ctx.robbing_kong:
            allowed = sit.options.weinan.plain_robbing_kong
            sit.decide(f"A12 weinan.plain_robbing_kong={str(allowed).lower()}")
            if allowed:
                return item
        how = "rob a kong (抢杠 counts as a discard)" if ctx.robbing_kong else "win on a discard"
        raise NotAllowed("one_fan_cannot_win_on_discard", f"a 1番 hand may not {how}: 1番不能接炮", [item], fan=1)
