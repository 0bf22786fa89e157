"""平胡 1番: a win with no item at all; on a discard it may not win (1番不能接炮)."""

from __future__ import annotations

from scoring.rules.items.base import Item


class PingHu(Item):
    name = "平胡"
    zh = "平胡"
    en = "plain win"
    fan = 1
