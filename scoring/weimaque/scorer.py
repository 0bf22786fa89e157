"""Score a finished 偎麻雀 hand: structure (6 句 + 麻雀), 硬息 ≥ 10, then 名堂息 and 总息.

总息 = 硬息 × M + A under ``weimaque.multiplier_order=multiply_then_add`` (default: the seed says 总息等于硬息的N倍
for the multipliers, and 总息 = 硬息 + 名堂息 otherwise), or (硬息 + A) × M under ``add_then_multiply``; A is the sum
of the additive (and house) items, M the multiplier (1 when none applies). ``score`` never raises for a hand that
parsed: a hand that does not win comes back with ``valid=False``, a ``reason`` code and a human ``error``.
"""

from __future__ import annotations

from scoring.weimaque.hand import WeimaqueHand
from scoring.weimaque.items.duizi import DuiZiHu, WuDui
from scoring.weimaque.items.finish import BeiKaoBei, DanDiao, HaiDiHu
from scoring.weimaque.items.hard import MIN_HARD_XI, hard_items
from scoring.weimaque.items.house import ShouQianShou
from scoring.weimaque.items.red import DianHu, DuoHong, ManYuanHua, WuHu
from scoring.weimaque.items.yin import ChunYin, YinHu
from scoring.weimaque.items.zhuo import BaPengTou, JiaBaPengTou, zhuo_item
from scoring.weimaque.items.zihu import DaZiHu, XiaoZiHu
from scoring.weimaque.options import WeimaqueOptions
from scoring.weimaque.result import SHAPE, WeimaqueResult, XiItem
from scoring.weimaque.situation import NotAWin, XiSituation
from scoring.weimaque.structure import check_structure


def score(hand: WeimaqueHand, options: WeimaqueOptions | None = None) -> WeimaqueResult:
    sit = XiSituation(hand, options or WeimaqueOptions())
    try:
        check_structure(sit)
        hard = hard_items(sit)
        hard_xi = sum(item.value for item in hard)
        if hard_xi < MIN_HARD_XI:
            raise NotAWin("hard_xi_below_10", f"硬息 {hard_xi} < {MIN_HARD_XI}: 硬息要达到10个才可以胡牌",
                          hard, hard_xi)
    except NotAWin as exc:
        return WeimaqueResult(
            valid=False, shapes=[SHAPE] if exc.hard_xi is not None else [], items=exc.items, error=exc.message,
            reason=exc.reason, hand=hand.text(), hard_xi=exc.hard_xi, decisions=sit.decisions, warnings=sit.warnings,
            warning_codes=sit.warning_codes,
        )
    named = named_items(sit)
    multipliers = multiplier_items(sit)
    added = sum(item.value for item in named)
    multiplier = combined_multiplier(multipliers)
    if multiplier > 1 and added:
        sit.decide("multiplier_order")
    if sit.options.multiplier_order == "multiply_then_add":
        total = hard_xi * multiplier + added
    else:
        total = (hard_xi + added) * multiplier
    if hand.win_group is None:
        sit.warn("no winning card marked with *: 单吊 and 背靠背 were not checked", "no_winning_card")
    return WeimaqueResult(
        valid=True, shapes=[SHAPE], scored_shape=SHAPE, items=hard + multipliers + named, hand=hand.text(),
        hard_xi=hard_xi, added_xi=added, multiplier=multiplier, total_xi=total,
        decisions=sit.decisions, warnings=sit.warnings, warning_codes=sit.warning_codes,
    )


def named_items(sit: XiSituation) -> list[XiItem]:
    """The additive 名堂息 in the seed's order (1-3, 8-21)."""
    found = [
        YinHu().evaluate(sit), ChunYin().evaluate(sit), DuoHong().evaluate(sit), ManYuanHua().evaluate(sit),
        DaZiHu().evaluate(sit), XiaoZiHu().evaluate(sit), zhuo_item(sit), HaiDiHu().evaluate(sit),
        DanDiao().evaluate(sit), BaPengTou().evaluate(sit), *JiaBaPengTou().evaluate(sit), BeiKaoBei().evaluate(sit),
        ShouQianShou().evaluate(sit),
    ]
    return [item for item in found if item is not None]


def multiplier_items(sit: XiSituation) -> list[XiItem]:
    """对子胡 ×6, 乌对 ×8 (replacing 对子胡 and 乌胡), 乌胡 ×4, 点胡 ×3: at most one of them.

    乌胡 (0 red) and 点胡 (1 red) exclude each other; 对子胡 with 乌胡 is 乌对; 对子胡 cannot meet 点胡 because a
    hand of triplets and a pair holds 0 or at least 2 red cards.
    """
    wudui = WuDui().evaluate(sit)
    if wudui is not None:
        return [wudui]
    found = [DuiZiHu().evaluate(sit), WuHu().evaluate(sit), DianHu().evaluate(sit)]
    return [item for item in found if item is not None]


def combined_multiplier(items: list[XiItem]) -> int:
    """The multiplier, 1 without one. At most one applies (see ``multiplier_items``)."""
    return items[0].value if items else 1
