"""1. 印胡: +10 per red 团圆 (一口印 10, 两口印 20, …). 2. 纯印: a 印 hand whose only red cards are those of its red
团圆 — +100 per 印 (一口 100, 两口 200), and 印胡 is not counted then (不再算印胡)."""

from __future__ import annotations

from scoring.weimaque.items.base import Xi
from scoring.weimaque.result import XiItem
from scoring.weimaque.situation import XiSituation


def red_tuanyuan(sit: XiSituation) -> list[str]:
    return [card.zh for card in sit.tuanyuan if card.red]


def is_chun_yin(sit: XiSituation) -> bool:
    seals = red_tuanyuan(sit)
    return bool(seals) and sit.red_count == 4 * len(seals)


class YinHu(Xi):
    name = "印胡"
    en = "seal (red 团圆)"
    kind = "add"
    per_seal = 10

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        seals = red_tuanyuan(sit)
        if not seals or is_chun_yin(sit):
            return None
        return self.make(self.per_seal * len(seals), f"{len(seals)} 口印 ({' '.join(seals)} 团圆) × 10")


class ChunYin(Xi):
    name = "纯印"
    en = "pure seal"
    kind = "add"
    per_seal = 100

    def evaluate(self, sit: XiSituation) -> XiItem | None:
        if not is_chun_yin(sit):
            return None
        seals = red_tuanyuan(sit)
        return self.make(self.per_seal * len(seals),
                         f"{len(seals)} 口纯印: the only red cards are the {sit.red_count} of {' '.join(seals)} × 100")
