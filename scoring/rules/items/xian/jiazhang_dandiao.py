"""夹张 / 单调: the win base goes 1 -> 2 on a discard, 2 -> 3 on a self-draw (SPEC §3, [A10]).

夹张 = the winning tile is the middle of a concealed chow; 单调 = it completes the pair. By default the hand
must also have waited on that one kind only (独听), so a two-way wait read as 单调 earns nothing.
"""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.shapes import PLAIN
from scoring.shapes.report import CHOW
from scoring.tiles import TILE_NAMES
from scoring.waits import waiting_tiles


class JiazhangOrDandiao(Item):
    name = "jiazhang_or_dandiao"
    zh = "夹张/单调"
    en = "closed or single wait"

    def apply(self, sit: Situation, base: int) -> ScoreItem | None:
        hand = sit.hand
        win = hand.win_tile
        kind = win_kind(sit)
        if kind is None:
            return None
        if sit.options.xian.unique_wait_required:
            waits = waiting_tiles(hand.concealed, hand.melds, frozenset({PLAIN}))
            sit.decide("A10 xian.unique_wait_required=true")
            if waits != [win]:
                return None
            why = f"waited on {TILE_NAMES[win]} only"
        else:
            sit.decide("A10 xian.unique_wait_required=false")
            why = "no single-wait requirement"
        zh = "夹张" if kind == "jiazhang" else "单调"
        item = self.make(base + 1, f"{zh} on {TILE_NAMES[win]} ({why}): base {base} -> {base + 1}")
        item.name = f"{self.name}({kind})"
        item.zh = zh
        item.en = "closed wait" if kind == "jiazhang" else "single wait"
        return item


def win_kind(sit: Situation) -> str | None:
    """'jiazhang' if some reading puts the winning tile in the middle of a concealed chow, else 'dandiao' if some
    reading makes it the pair, else None (边张 and plain two-sided waits earn nothing)."""
    win = sit.hand.win_tile
    readings = sit.report.plain
    if any(b.type == CHOW and b.meld is None and b.tiles[1] == win for d in readings for b in d.blocks):
        return "jiazhang"
    if any(d.pair == win for d in readings):
        return "dandiao"
    return None
