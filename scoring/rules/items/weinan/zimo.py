"""1. 自摸 1番: a self-drawn win with no other item (没有特殊牌型算1番)."""

from __future__ import annotations

from scoring.rules.items.base import Item


class ZiMo(Item):
    name = "自摸"
    zh = "自摸"
    en = "self-draw"
    fan = 1
