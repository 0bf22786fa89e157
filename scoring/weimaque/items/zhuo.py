"""The 卓 family (items 10-15) and 八碰头 (18) / 假八碰头 (19): wins holding several 团圆 (any colour).

"相连" numbers are consecutive numbers in the same case (大字 and 小字 are separate systems). The 团圆 split into
runs of consecutive numbers, and the run lengths name the item:

| 团圆 | runs | item |
|---|---|---|
| 2 | 1+1 | 10. 卓胡 +20 |
| 2 | 2 | 11. 姊妹卓 +40 |
| 3 | 1+1+1 | 12. 三乱卓 +60 |
| 3 | 2+1 | 13. 姊妹卓带拖 +80 |
| 3 | 3 | 14. 祖孙卓 +150 |
| 4 | 3+1, or 4 (three consecutive plus one more, adjacent) | 15. 祖孙卓带拖 +300 |

Four 团圆 as 2+2, 2+1+1 or 1+1+1+1 match no item of the seed: none is scored and the result warns.
八碰头: 八 and 捌 both 团圆, +200. 假八碰头: another number 团圆 in both cases (三 and 叁), +100 for each such number.
These stack with the 卓 item and with 印胡 (the seed does not say they exclude each other).
"""

from __future__ import annotations

from typing import ClassVar

from scoring.weimaque.cards import Card
from scoring.weimaque.items.base import Xi
from scoring.weimaque.result import XiItem
from scoring.weimaque.situation import XiSituation


def runs(cards: list[Card]) -> tuple[int, ...]:
    """Lengths of the runs of consecutive numbers per case, longest first."""
    lengths: list[int] = []
    for big in (False, True):
        numbers = sorted({c.number for c in cards if c.big == big})
        for i, number in enumerate(numbers):
            if i and number == numbers[i - 1] + 1:
                lengths[-1] += 1
            else:
                lengths.append(1)
    return tuple(sorted(lengths, reverse=True))


class Zhuo(Xi):
    kind = "add"
    patterns: ClassVar[tuple[tuple[int, ...], ...]]
    bonus: ClassVar[int]

    @classmethod
    def matches(cls, pattern: tuple[int, ...]) -> bool:
        return pattern in cls.patterns


class ZhuoHu(Zhuo):
    name, en, bonus, patterns = "卓胡", "two 团圆", 20, ((1, 1),)


class ZiMeiZhuo(Zhuo):
    name, en, bonus, patterns = "姊妹卓", "two consecutive 团圆", 40, ((2,),)


class SanLuanZhuo(Zhuo):
    name, en, bonus, patterns = "三乱卓", "three scattered 团圆", 60, ((1, 1, 1),)


class ZiMeiZhuoDaiTuo(Zhuo):
    name, en, bonus, patterns = "姊妹卓带拖", "two consecutive 团圆 and one more", 80, ((2, 1),)


class ZuSunZhuo(Zhuo):
    name, en, bonus, patterns = "祖孙卓", "three consecutive 团圆", 150, ((3,),)


class ZuSunZhuoDaiTuo(Zhuo):
    name, en, bonus, patterns = "祖孙卓带拖", "three consecutive 团圆 and one more", 300, ((3, 1), (4,))


ZHUO_FAMILY: tuple[type[Zhuo], ...] = (ZhuoHu, ZiMeiZhuo, SanLuanZhuo, ZiMeiZhuoDaiTuo, ZuSunZhuo, ZuSunZhuoDaiTuo)


def zhuo_item(sit: XiSituation) -> XiItem | None:
    """The 卓 item of the hand's 团圆, or None (warning when the seed names none for several 团圆)."""
    cards = sit.tuanyuan
    if len(cards) < 2:
        return None
    pattern = runs(cards)
    names = " ".join(c.zh for c in cards)
    for item in ZHUO_FAMILY:
        if item.matches(pattern):
            return item.make(item.bonus, f"团圆 {names} (runs {'+'.join(map(str, pattern))})")
    sit.warn(f"团圆 {names} (runs {'+'.join(map(str, pattern))}): the seed names no 卓 item for this; none scored",
             "no_zhuo_item")
    return None


class BaPengTou(Xi):
    name = "八碰头"
    en = "八 and 捌 both 团圆"
    kind = "add"
    bonus = 200

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if not {Card(False, 8), Card(True, 8)} <= set(sit.tuanyuan):
            return None
        return self.make(self.bonus, "八 and 捌 are both 团圆")


class JiaBaPengTou(Xi):
    name = "假八碰头"
    en = "one number 团圆 in both cases (not 8)"
    kind = "add"
    bonus = 100

    def evaluate(self, sit: XiSituation) -> list[XiItem]:
        held = set(sit.tuanyuan)
        return [
            self.make(self.bonus, f"{Card(False, n).zh} and {Card(True, n).zh} are both 团圆")
            for n in range(1, 11)
            if n != 8 and {Card(False, n), Card(True, n)} <= held
        ]
