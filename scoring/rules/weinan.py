"""渭南麻将 (seed 004, SPEC §4): 108 tiles, 缺一门, additive 番, 1番不能接炮, kong points.

Total 番 = best shape reading (七小对 / 豪华七小对 + extra 根, or 金钩钓 / 大对子 / nothing + 根 + extra 根)
+ 清一 + situational items (杠上花, 天胡, 地胡, 海底捞, 杠后点胡); a total of 0 is 1 (自摸, or 平胡 which may
not win on a discard). This additive rule reproduces 52 of the 54 组合牌型 table rows; row 4 is a configured
override of the total (``weinan.table_overrides``) and row 52 a typo (see items/weinan/table_override.py).
Payers: self-draw -> the other three pay the full 番 each; discard, 地胡, 杠后点胡 -> the discarder; 抢杠 -> the
player whose kong was robbed (the robbed kong scores nothing). The winner's own kongs are paid beside the 番.
"""

from __future__ import annotations

from scoring.options import RuleOptions
from scoring.result import ScoreItem, ScoreResult
from scoring.rules.base import RuleSet, Situation, has_chow_meld, reject_honors
from scoring.rules.items.weinan.dadui import DaDuiZi
from scoring.rules.items.weinan.dihu import DiHu
from scoring.rules.items.weinan.ganghoudianhu import GangHouDianHu
from scoring.rules.items.weinan.gangshanghua import GangShangHua
from scoring.rules.items.weinan.haidilao import HaiDiLao
from scoring.rules.items.weinan.haohua import HaoHuaQiXiaoDui
from scoring.rules.items.weinan.jingoudiao import JinGouDiao
from scoring.rules.items.weinan.kongs import WeinanKongs
from scoring.rules.items.weinan.missing_suit import QueYiMen
from scoring.rules.items.weinan.one_fan import OneFanRule
from scoring.rules.items.weinan.pinghu import PingHu
from scoring.rules.items.weinan.qingyi import QingYi
from scoring.rules.items.weinan.qixiaodui import QiXiaoDui
from scoring.rules.items.weinan.root import ExtraGen, Gen, root_items, roots
from scoring.rules.items.weinan.table_override import TableOverride
from scoring.rules.items.weinan.tianhu import TianHu
from scoring.rules.items.weinan.zimo import ZiMo
from scoring.settlement import Ledger, others
from scoring.shapes import PLAIN, SEVEN_PAIRS

WINNING_SHAPES = frozenset({PLAIN, SEVEN_PAIRS})
SITUATIONAL = (GangShangHua(), TianHu(), DiHu(), HaiDiLao(), GangHouDianHu())
# Every item a win's 番 can hold: the names a ``weinan.table_overrides`` key may join
FAN_ITEM_NAMES = frozenset(
    item.name
    for item in (QiXiaoDui, HaoHuaQiXiaoDui, JinGouDiao, DaDuiZi, Gen, ExtraGen, QingYi, ZiMo, PingHu, *SITUATIONAL)
)


class Weinan(RuleSet):
    name = "weinan"
    zh = "渭南麻将"

    def allowed_shapes(self, options: RuleOptions) -> frozenset[str]:
        return WINNING_SHAPES

    def check_tiles(self, sit: Situation) -> None:
        reject_honors(sit.hand, "Weinan")
        if has_chow_meld(sit.hand):
            sit.warn("chow_in_weinan", "exposed chow in Weinan, where 吃 is not allowed (accepted as given)")

    def settle(self, sit: Situation, ledger: Ledger) -> ScoreResult:
        QueYiMen().check(sit)
        shape, pattern = best_reading(sit)
        one_suit = QingYi().evaluate(sit)
        items = pattern + ([one_suit] if one_suit else []) + situational_items(sit)
        if not items:
            items = [OneFanRule().apply(sit)]
        printed = TableOverride().evaluate(sit, items)
        fan = sum(item.value for item in items) if printed is None else printed
        point = sit.options.weinan.point_value
        for payer in fan_payers(sit):
            ledger.pay("fan", payer, sit.winner, fan * point)
        kongs = [m for m in sit.hand.melds if m.is_kong]
        for meld in kongs:
            for payer, amount in WeinanKongs.payments(meld, sit.winner, sit.options):
                ledger.pay(WeinanKongs.name, payer, sit.winner, amount)
        return ScoreResult(
            ruleset=self.name,
            valid=True,
            scored_shape=shape,
            items=items,
            fan=fan,
            kong_points_to_winner=ledger.total_to(sit.winner, "kong") if kongs else None,
        )


def best_reading(sit: Situation) -> tuple[str, list[ScoreItem]]:
    """The shape reading with the most 番: seven pairs (七小对/豪华) or a plain decomposition (金钩钓/大对子 + 根)."""
    readings: list[tuple[str, list[ScoreItem]]] = []
    if sit.report.holds(SEVEN_PAIRS):
        quads = sit.report.seven_pairs_quads
        items = [i for i in (QiXiaoDui().evaluate(quads), HaoHuaQiXiaoDui().evaluate(quads)) if i]
        extra = ExtraGen().evaluate(sit, quads - 1) if quads > 1 else None
        readings.append((SEVEN_PAIRS, items + ([extra] if extra else [])))
    root_part = root_items(sit, roots(sit.hand)) if sit.report.plain else []
    for reading in sit.report.plain:
        pattern = JinGouDiao().evaluate(sit, reading) or DaDuiZi().evaluate(sit, reading)
        readings.append((PLAIN, ([pattern] if pattern else []) + root_part))
    return max(readings, key=lambda r: sum(i.value for i in r[1]))


def situational_items(sit: Situation) -> list[ScoreItem]:
    return [item for item in (i.evaluate(sit) for i in SITUATIONAL) if item is not None]


def fan_payers(sit: Situation) -> tuple[int, ...]:
    ctx = sit.ctx
    if ctx.is_self_draw:
        return others(ctx.winner)
    return (ctx.discarder,)
