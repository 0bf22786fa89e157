"""Weinan 渭南麻将 (seed 004, SPEC §4): each 番 item, the eligibility rules, payers, switches, and the additive rule
against every row of the seed's 组合牌型 table. No ../shared needed."""

from __future__ import annotations

import pytest

from scoring.hand import Meld
from scoring.options import RuleOptions
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.rules.items.weinan.dadui import DaDuiZi
from scoring.rules.items.weinan.dihu import DiHu
from scoring.rules.items.weinan.gangshanghua import GangShangHua
from scoring.rules.items.weinan.haidilao import HaiDiLao
from scoring.rules.items.weinan.haohua import HaoHuaQiXiaoDui
from scoring.rules.items.weinan.jingoudiao import JinGouDiao
from scoring.rules.items.weinan.qingyi import QingYi
from scoring.rules.items.weinan.qixiaodui import QiXiaoDui
from scoring.rules.items.weinan.root import Gen
from scoring.rules.items.weinan.table_override import TableOverride
from scoring.rules.items.weinan.tianhu import TianHu
from scoring.scorer import kong_deltas, parse_hand, score
from scoring.settlement import merge_same_discard_wins

PLAIN = "123m456m789m234s5s"  # + 5s: a plain hand worth nothing, 缺 p


def win(hand, tile, *, melds=(), options=None, **context):
    return score(parse_hand(hand, tile, list(melds), context), "weinan", options)


def opts(**pairs):
    return RuleOptions().with_overrides({k.replace("__", "."): v for k, v in pairs.items()})


def pung(tiles, seat):
    return {"type": "pung", "tiles": tiles, "from": seat}


@pytest.mark.parametrize(
    ("hand", "tile", "melds", "context", "items", "deltas"),
    [
        # 1. 自摸 1番 from each when nothing else applies
        (PLAIN, "5s", [], {"winner": 1, "self_draw": True, "missing_suit": "p"}, [["自摸", 1]], [-1, 3, -1, -1]),
        # 2. 大对子 2 on a two-pair finish, the discarder pays
        ("111m555m999s22s33s", "3s", [], {"winner": 1, "discarder": 2}, [["大对子", 2]], [0, 2, -2, 0]),
        # 3. 七小对 3
        ("11m33m55m77s88s99s2s", "2s", [], {"winner": 3, "discarder": 0}, [["七小对", 3]], [-3, 0, 0, 3]),
        # 4. 豪华七小对 5; a second quad is an extra 根 (+2)
        ("1111m22m33m55s66s7s", "7s", [], {"winner": 3, "discarder": 1}, [["豪华七小对", 5]], [0, -5, 0, 5]),
        ("1111m5555m22p33p4p", "4p", [], {"winner": 2, "discarder": 1},
         [["豪华七小对", 5], ["extra根", 2]], [0, -7, 7, 0]),
        # 5. 杠上花 2 (self-draw) + 大对子; the kong is not a 根; 续杠 1 from each
        ("111m999m33s55s", "5s", [{"type": "kong_added", "tiles": "7777s"}],
         {"winner": 0, "self_draw": True, "kong_replacement": True}, [["大对子", 2], ["杠上花", 2]], [15, -5, -5, -5]),
        # 6. 清一 6
        ("123p456p789p234p5p", "5p", [], {"winner": 0, "discarder": 2}, [["清一", 6]], [6, 0, -6, 0]),
        # 7. 金钩钓 3 replaces 大对子
        ("5m", "5m", [pung("111m", 2), pung("999m", 3), pung("222s", 0), pung("444s", 2)],
         {"winner": 1, "discarder": 0}, [["金钩钓", 3]], [-3, 3, 0, 0]),
        # 8. 天胡 6, the dealer self-draws after the deal
        (PLAIN, "5s", [], {"winner": 0, "dealer": 0, "heavenly": True}, [["天胡", 6]], [18, -6, -6, -6]),
        # 9. 地胡 5, the dealer pays
        (PLAIN, "5s", [], {"winner": 1, "earthly": True}, [["地胡", 5]], [-5, 5, 0, 0]),
        # 10. 根 2: plain + root = 2, so it may win on a discard
        ("123m456m7777m89m5s", "5s", [], {"winner": 1, "discarder": 2}, [["根", 2]], [0, 2, -2, 0]),
        # 11. 根炸: the same root on a self-draw
        ("123m456m7777m89m5s", "5s", [], {"winner": 1, "self_draw": True}, [["根", 2]], [-2, 6, -2, -2]),
        # pung + the 4th tile in hand is a root too; 双根 = 根 + extra根
        ("123m789m5s", "5s", [pung("111m", 2), pung("999m", 3)], {"winner": 1, "discarder": 2},
         [["根", 2], ["extra根", 2]], [0, 4, -4, 0]),
        # 13. 海底捞 3 on the last-tile self-draw
        (PLAIN, "5s", [], {"winner": 1, "self_draw": True, "last_tile": True}, [["海底捞", 3]], [-3, 9, -3, -3]),
        # 12. 杠后点胡 2 + the pattern, the discarder pays
        (PLAIN, "5s", [], {"winner": 2, "discarder": 1, "after_kong_discard": True}, [["杠后点胡", 2]],
         [0, -2, 2, 0]),
        # 抢杠: the player whose kong was robbed pays the winner's pattern
        ("123p456p789p234p5p", "5p", [], {"winner": 2, "discarder": 0, "robbing_kong": True}, [["清一", 6]],
         [-6, 0, 6, 0]),
    ],
)
def test_fan_items(hand, tile, melds, context, items, deltas):
    result = win(hand, tile, melds=melds, **context)
    assert result.valid, result.error
    assert result.item_pairs() == items
    assert result.fan == sum(value for _, value in items)
    assert result.deltas == deltas


@pytest.mark.parametrize(
    ("meld", "kong_points", "deltas"),
    [
        ({"type": "kong_exposed", "tiles": "7777s", "from": 2}, 1, [-2, 7, -3, -2]),  # 明杠: the feeder pays 1
        ({"type": "kong_added", "tiles": "7777s"}, 3, [-3, 9, -3, -3]),  # 续杠: 1 from each
        ({"type": "kong_concealed", "tiles": "7777s"}, 3, [-3, 9, -3, -3]),  # 暗杠: 1 from each
    ],
)
def test_kong_points(meld, kong_points, deltas):
    result = win("111m999m33s55s", "5s", melds=[meld], winner=1, self_draw=True)
    assert result.item_pairs() == [["大对子", 2]]
    assert result.kong_points_to_winner == kong_points
    assert result.deltas == deltas


@pytest.mark.parametrize(
    ("hand", "tile", "context", "reason", "fan_if_scored"),
    [
        (PLAIN, "5s", {"winner": 1, "discarder": 2}, "one_fan_cannot_win_on_discard", 1),
        # no bonus for winning on the last discard: still a 1番 hand on a discard
        (PLAIN, "5s", {"winner": 1, "discarder": 2, "last_tile": True}, "one_fan_cannot_win_on_discard", 1),
        # [A12] 抢杠 counts as a discard
        (PLAIN, "5s", {"winner": 1, "discarder": 2, "robbing_kong": True}, "one_fan_cannot_win_on_discard", 1),
        (PLAIN, "5s", {"winner": 1, "self_draw": True, "missing_suit": "s"}, "holds_declared_missing_suit", None),
        ("123m456p789m234s5s", "5s", {"winner": 1, "self_draw": True}, "not_missing_a_suit", None),
        ("123m456m789m234s5z", "5z", {"winner": 1, "self_draw": True}, "honor_tiles_not_in_set", None),
        ("123m456m789m235s5s", "5s", {"winner": 1, "self_draw": True}, "not_a_winning_shape", None),
    ],
)
def test_not_allowed(hand, tile, context, reason, fan_if_scored):
    result = win(hand, tile, **context)
    assert (result.valid, result.reason, result.deltas) == (False, reason, None)
    assert result.fan_if_scored == fan_if_scored
    assert result.error


def test_plain_robbing_kong_switch():
    result = win(PLAIN, "5s", winner=1, discarder=2, robbing_kong=True, options=opts(weinan__plain_robbing_kong=True))
    assert result.valid and result.item_pairs() == [["平胡", 1]]
    assert result.deltas == [0, 1, -1, 0]
    assert "A12 weinan.plain_robbing_kong=true" in result.decisions


@pytest.mark.parametrize(("mode", "extra"), [("per_root", 4), ("once", 2)])
def test_extra_root_switch(mode, extra):
    """[A13] three roots (pungs of 1m 2m 3m + 123m in hand): 根 2 + extra根 2 per extra root, or 2 once."""
    melds = [pung("111m", 2), pung("222m", 3), pung("333m", 2)]
    result = win("123m5s", "5s", melds=melds, winner=1, discarder=2, options=opts(weinan__extra_root=mode))
    assert result.item_pairs() == [["根", 2], ["extra根", extra]]
    assert f"A13 weinan.extra_root={mode}" in result.decisions


def test_best_reading_is_taken():
    """Seven pairs or plain: the larger total wins (豪华 5 beats plain + 根 2; 七小对 3 beats plain 0)."""
    assert win("1111m22m33m55s66s7s", "7s", winner=3, discarder=1).scored_shape == "seven_pairs"
    both = win("1122334455667p", "7p", winner=3, discarder=1)
    assert both.shapes == ["plain", "seven_pairs"] and both.item_pairs() == [["七小对", 3], ["清一", 6]]


def test_table_row_4_override_and_switch():
    """天胡大对 is printed as 9 (sum 8): the default override adds 1; without it the additive 8 stands."""
    hand, context = "111m555m999s22s33s", {"winner": 0, "dealer": 0, "heavenly": True}
    printed = win(hand, "3s", **context)
    assert printed.item_pairs() == [["大对子", 2], ["天胡", 6]]
    assert printed.fan == 9 and printed.deltas == [27, -9, -9, -9]
    assert "weinan.table_overrides[大对子+天胡]=9 (items add up to 8)" in printed.decisions
    additive = win(hand, "3s", options=opts(weinan__table_overrides={}), **context)
    assert additive.fan == 8
    # row 34 清一天胡大对 = 14 is the plain sum, untouched by the row-4 override
    assert win("111m333m555m777m9m", "9m", **context).fan == 14


def test_multiple_winners_on_one_discard():
    """一炮多响: two winners are both paid by the discarder; with three, by default the winners pay ([A14])."""
    hand, tile = "111m555m999s22s33s", "3s"
    two = [win(hand, tile, winner=w, discarder=0) for w in (1, 2)]
    assert merge_same_discard_wins(two) == [-4, 2, 2, 0]
    three = [win(hand, tile, winner=w, discarder=0) for w in (1, 2, 3)]
    assert merge_same_discard_wins(three) == [6, -2, -2, -2]
    assert merge_same_discard_wins(three, opts(weinan__multi_win_three="discarder_pays")) == [-6, 2, 2, 2]


@pytest.mark.parametrize(("mode", "deltas"), [("winner_exempt", [-1, 2, 0, -1]), ("all_pay", [-1, 3, -1, -1])])
def test_after_kong_discard_kong_switch(mode, deltas):
    """[A15] the 杠后点胡 discarder's own 续杠: the winner (seat 2) pays nothing for it by default."""
    kongs = [Meld.parse("kong_added", "7777s")]
    options = opts(weinan__after_kong_discard_kong=mode)
    assert kong_deltas("weinan", 1, kongs, options, after_kong_discard_winner=2) == deltas


def test_kongs_stand_in_a_drawn_hand():
    """荒牌不荒杠."""
    assert kong_deltas("weinan", 1, [Meld.parse("kong_concealed", "7777s")], drawn=True) == [-1, 3, -1, -1]


# The seed's 组合牌型 table: (row, items, printed 番). Row 52 is a typo of row 13 (same items, 12).
_ITEMS: dict[str, type[Item]] = {
    cls.name: cls
    for cls in (DaDuiZi, QiXiaoDui, HaoHuaQiXiaoDui, GangShangHua, QingYi, JinGouDiao, TianHu, DiHu, Gen, HaiDiLao)
}
TABLE = [
    ("1", "大对子 杠上花", 4), ("2", "大对子 清一", 8), ("3", "大对子 地胡", 7), ("4", "大对子 天胡", 9),
    ("5", "大对子 海底捞", 5), ("6", "大对子 杠上花 清一", 10), ("7", "大对子 清一 海底捞", 11),
    ("8", "大对子 杠上花 清一 海底捞", 13), ("9", "七小对 地胡", 8), ("10", "七小对 海底捞", 6),
    ("11", "七小对 清一", 9), ("12", "七小对 杠上花", 5), ("12b", "七小对 杠上花 清一", 11),
    ("13", "七小对 清一 海底捞", 12), ("14", "七小对 杠上花 清一 海底捞", 14), ("15", "豪华七小对 杠上花", 7),
    ("16", "豪华七小对 杠上花 清一", 13), ("17", "豪华七小对 杠上花 清一 海底捞", 16), ("18", "杠上花 清一", 8),
    ("19", "杠上花 金钩钓", 5), ("20", "杠上花 海底捞", 5), ("21", "杠上花 根", 4), ("22", "七小对 杠上花 海底捞", 8),
    ("23", "大对子 杠上花 清一", 10), ("24", "杠上花 清一 海底捞", 11), ("25", "杠上花 清一 根 海底捞", 13),
    ("26", "杠上花 清一 金钩钓 海底捞", 14), ("27", "杠上花 金钩钓 海底捞", 8), ("28", "清一 金钩钓", 9),
    ("29", "清一 天胡", 12), ("30", "清一 地胡", 11), ("31", "清一 根", 8), ("32", "清一 海底捞", 9),
    ("33", "大对子 清一 海底捞", 11), ("34", "大对子 清一 天胡", 14), ("35", "大对子 清一 地胡", 13),
    ("36", "杠上花 清一 根", 10), ("37", "杠上花 清一 金钩钓 海底捞", 14), ("38", "金钩钓 海底捞", 6),
    ("39", "杠上花 清一 金钩钓", 11), ("40", "清一 金钩钓 海底捞", 12), ("41", "七小对 天胡", 9),
    ("42", "豪华七小对 天胡", 11), ("43", "天胡 根", 8), ("44", "清一 天胡 根", 14), ("45", "七小对 地胡", 8),
    ("46", "豪华七小对 地胡", 10), ("47", "地胡 根", 7), ("48", "清一 地胡 根", 13), ("49", "根 海底捞", 5),
    ("50", "清一 根 海底捞", 11), ("51", "豪华七小对 海底捞", 8), ("52", "七小对 清一 海底捞", 12),
    ("53", "豪华七小对 清一 海底捞", 14),
]


@pytest.mark.parametrize(("row", "names", "printed"), TABLE, ids=[row for row, _, _ in TABLE])
def test_additive_rule_reproduces_the_table(row, names, printed):
    items = [_ITEMS[name].make(_ITEMS[name].fan, "table") for name in names.split()]
    sit = Situation(hand=None, report=None, options=RuleOptions())
    override = TableOverride().evaluate(sit, items)
    assert (override if override is not None else sum(item.value for item in items)) == printed
    assert (override is not None) == (row == "4")


def test_table_has_54_rows():
    """Rows 1-53 plus the second "12"; row 52 is listed with its corrected 12 (printed 11, same items as row 13)."""
    assert len(TABLE) == 54
    assert dict((r, n) for r, n, _ in TABLE)["52"] == dict((r, n) for r, n, _ in TABLE)["13"]


def test_point_value_switch():
    result = win("111m999m33s55s", "5s", melds=[{"type": "kong_added", "tiles": "7777s"}], winner=1, self_draw=True,
                 options=opts(weinan__point_value=10))
    assert result.fan == 2
    assert result.deltas == [-30, 90, -30, -30]
