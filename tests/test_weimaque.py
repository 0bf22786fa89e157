"""安乡偎麻雀 (seed 003): the 硬息 table, the ≥10 threshold, 6 句 + 麻雀, every 名堂息 item with the seed's own numbers,
the switches, and the JSON contract. No ../shared needed."""

from __future__ import annotations

import pytest

import scoring.weimaque.options as options_module
from scoring.weimaque import WeimaqueContext, WeimaqueOptions, parse_hand, score
from scoring.weimaque.options import option_keys
from scoring.weimaque.result import NO_SETTLEMENT

# 煨三 3 + 煨四 3 + 碰五 2 + 碰六 2 = 10 硬息; two red cards (贰 柒); no 名堂.
H10 = "煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 吃 陆柒捌, 雀 九九"


def result(text, *, last_card=False, shou_qian_shou=False, **options):
    context = WeimaqueContext(last_card=last_card, shou_qian_shou=shou_qian_shou)
    return score(parse_hand(text, context), WeimaqueOptions().with_overrides(options))


def pairs(res):
    return [[item.name, item.value] for item in res.items]


# 煨三 3 + 煨四 3 + 碰一 2 = 8 硬息 around the set under test (no card of it elsewhere)
AROUND = "煨 三三三, 煨 四四四, 碰 一一一, 吃 壹贰叁, 吃 陆柒捌, {group}, 雀 九九"
AROUND_ITEMS = [["煨", 3], ["煨", 3], ["碰", 2]]


@pytest.mark.parametrize(
    ("group", "items"),
    [
        # 碰的黑字算2个息，红字算3个息
        ("碰 五五五", [["碰", 2]]),
        ("碰 十十十", [["碰", 3]]),
        # 煨的黑字算3个息，红字算4个息
        ("煨 五五五", [["煨", 3]]),
        ("煨 十十十", [["煨", 4]]),
        # 砍没有拆，和牌时等同于煨
        ("砍 五五五", [["砍", 3]]),
        ("砍 拾拾拾", [["砍", 4]]),
        # 吃的不算息
        ("吃 六七八", []),
    ],
)
def test_hard_xi_per_set(group, items):
    res = result(AROUND.format(group=group))
    assert pairs(res) == AROUND_ITEMS + items
    assert res.hard_xi == 8 + sum(value for _, value in items)


@pytest.mark.parametrize(
    ("pair", "expected"),
    [
        ("雀 九九", []),  # 黑字麻雀不算息
        ("雀 十十", [["麻雀", 2]]),  # 红字麻雀算2个息
        ("雀 捌捌", [["转弯", 2]]),  # 两张捌做麻雀，柒捌玖为一句话: 转弯, black 2
    ],
)
def test_pair_xi(pair, expected):
    # 吃 柒捌玖 holds a 捌, so 捌捌 turns the corner (转弯)
    text = "煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 吃 柒捌玖, " + pair
    assert [i for i in pairs(result(text)) if i[0] in ("麻雀", "转弯")] == expected


def test_red_zhuanwan_is_3():
    # 贰贰 麻雀 with 壹贰叁: red 转弯 3 (not the red 麻雀 2)
    res = result("煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 吃 陆柒捌, 雀 贰贰")
    assert [i for i in pairs(res) if i[0] in ("麻雀", "转弯")] == [["转弯", 3]]
    assert res.hard_xi == 13


@pytest.mark.parametrize(
    ("text", "tuanyuan"),
    [
        # 团圆 on a 碰 black +3; on a 煨 red +4; the fourth copy sits in a 吃
        ("碰 三三三, 煨 四四四, 煨 五五五, 碰 六六六, 吃 一二三, 吃 陆柒捌, 雀 九九", [["团圆", 3]]),
        ("煨 柒柒柒, 煨 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 吃 陆柒捌, 雀 九九", [["团圆", 4]]),
    ],
)
def test_tuanyuan_on_top(text, tuanyuan):
    assert [i for i in pairs(result(text)) if i[0] == "团圆"] == tuanyuan


def test_threshold_10_hard_xi():
    assert result(H10).valid and result(H10).total_xi == 10
    nine = result("煨 三三三, 碰 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 吃 陆柒捌, 雀 九九")
    assert not nine.valid
    assert nine.reason == "hard_xi_below_10"
    assert nine.hard_xi == 9 and "10" in nine.error
    assert pairs(nine) == [["煨", 3], ["碰", 2], ["碰", 2], ["碰", 2]]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 雀 九九", "wrong_set_count"),
        (H10 + ", 雀 八八", "wrong_set_count"),
        (H10.replace("雀 九九", "雀 九八"), "bad_set"),
        (H10.replace("碰 六六六", "碰 六六七"), "bad_set"),
        (H10.replace("吃 陆柒捌", "吃 陆陆陆"), "bad_set"),
        (H10.replace("吃 陆柒捌", "吃 陆七捌"), "bad_set"),  # 大字只能吃大字
        (H10.replace("吃 陆柒捌", "吃 陆柒"), "bad_set"),
        (H10.replace("吃 陆柒捌", "吃 陆捌玖"), "bad_set"),
    ],
)
def test_structure(text, reason):
    res = result(text)
    assert not res.valid and res.reason == reason
    assert res.deltas is None and res.error


# --- 名堂息, the seed's numbers -------------------------------------------------------------------------------------

CASES = {
    # 1. 印胡 一口印 +10: 碰柒 3 + 团圆 4 + 煨三 3 + 煨四 3 + 碰五 2 = 15; 5 red cards
    "yinhu_1": ("碰 柒柒柒, 吃 陆柒捌, 煨 三三三, 煨 四四四, 碰 五五五, 吃 壹贰叁, 雀 九九",
                [["印胡", 10]], 15, 1, 25),
    # 1. 两口印 +20, with 卓胡 (two 团圆) +20: 碰柒 3+4, 煨二 4+4, 煨四 3 = 18; 9 red cards
    "yinhu_2": ("碰 柒柒柒, 吃 陆柒捌, 煨 二二二, 吃 一二三, 煨 四四四, 吃 壹贰叁, 雀 九九",
                [["印胡", 20], ["卓胡", 20]], 18, 1, 58),
    # 2. 一口纯印 +100: the only red cards are the four 柒
    "chunyin_1": ("碰 柒柒柒, 吃 陆柒捌, 煨 三三三, 煨 四四四, 碰 五五五, 吃 肆伍陆, 雀 九九",
                  [["纯印", 100]], 15, 1, 115),
    # 2. 两口纯印 +200 (不再算印胡) + 卓胡 20: 碰柒 3+4, 煨二 4+4, 煨四 3, 碰五 2 = 20
    "chunyin_2": ("碰 柒柒柒, 吃 陆柒捌, 煨 二二二, 吃 一二三, 煨 四四四, 碰 五五五, 雀 九九",
                  [["纯印", 200], ["卓胡", 20]], 20, 1, 240),
    # 3. 多红: 10 red cards +10
    "duohong_10": ("煨 二二二, 煨 七七七, 吃 陆柒捌, 吃 壹贰叁, 碰 三三三, 吃 肆伍陆, 雀 十十",
                   [["多红", 10]], 12, 1, 22),
    # 3. 11 red cards +20
    "duohong_11": ("煨 二二二, 煨 七七七, 吃 陆柒捌, 吃 壹贰叁, 碰 三三三, 吃 捌玖拾, 雀 十十",
                   [["多红", 20]], 12, 1, 32),
    # 3. 9 red cards: nothing
    "duohong_9": ("煨 二二二, 煨 七七七, 吃 陆柒捌, 吃 壹贰叁, 碰 三三三, 吃 捌玖拾, 雀 九九",
                  [], 10, 1, 10),
    # 4. 对子胡 ×6: all 碰/煨, 3 red cards: 碰二 3 煨三 3 碰四 2 碰五 2 煨六 3 碰九 2 = 15
    "duizihu": ("碰 二二二, 煨 三三三, 碰 四四四, 碰 五五五, 煨 六六六, 碰 九九九, 雀 壹壹",
                [["对子胡", 6]], 15, 6, 90),
    # 5. 乌对 ×8: 对子胡 with no red card (replaces 对子胡 and 乌胡)
    "wudui": ("碰 捌捌捌, 煨 三三三, 碰 四四四, 碰 五五五, 煨 六六六, 碰 九九九, 雀 壹壹",
              [["乌对", 8]], 14, 8, 112),
    # 6. 乌胡 ×4
    "wuhu": ("煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 叁肆伍, 吃 肆伍陆, 雀 九九",
             [["乌胡", 4]], 10, 4, 40),
    # 7. 点胡 ×3: exactly one red card (柒)
    "dianhu": ("煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 叁肆伍, 吃 陆柒捌, 雀 九九",
               [["点胡", 3]], 10, 3, 30),
    # 8. 满园花 +100 (every group red) with 多红 (14 red: +50): 碰二 3 煨七 4 碰拾 3 转弯贰 3 = 13
    "manyuanhua": ("碰 二二二, 煨 七七七, 碰 拾拾拾, 吃 壹贰叁, 吃 陆柒捌, 吃 八九十, 雀 贰贰",
                   [["多红", 50], ["满园花", 100]], 13, 1, 163),
    # 9. 小字胡 / 大字胡 +100
    "xiaozihu": ("煨 四四四, 煨 五五五, 碰 六六六, 碰 九九九, 吃 一二三, 吃 一二三, 雀 八八",
                 [["小字胡", 100]], 10, 1, 110),
    "dazihu": ("煨 肆肆肆, 煨 伍伍伍, 碰 陆陆陆, 碰 玖玖玖, 吃 壹贰叁, 吃 壹贰叁, 雀 捌捌",
               [["大字胡", 100]], 10, 1, 110),
    # 11. 姊妹卓 +40: 团圆 三 四 (相连)
    "zimeizhuo": ("煨 三三三, 煨 四四四, 吃 三四五, 碰 九九九, 吃 陆柒捌, 吃 壹贰叁, 雀 玖玖",
                  [["姊妹卓", 40]], 14, 1, 54),
    # 12. 三乱卓 +60: 团圆 一 四 九
    "sanluanzhuo": ("煨 一一一, 煨 四四四, 煨 九九九, 吃 一二三, 吃 四五六, 吃 七八九, 雀 玖玖",
                    [["三乱卓", 60]], 18, 1, 78),
    # 13. 姊妹卓带拖 +80: 三 四 相连 + 玖
    "zimeizhuodaituo": ("煨 三三三, 煨 四四四, 吃 三四五, 煨 玖玖玖, 吃 柒捌玖, 碰 六六六, 雀 贰贰",
                        [["姊妹卓带拖", 80]], 22, 1, 102),
    # 14. 祖孙卓 +150: 三 四 五
    "zusunzhuo": ("煨 三三三, 煨 四四四, 煨 五五五, 吃 三四五, 吃 陆柒捌, 碰 九九九, 雀 贰贰",
                  [["祖孙卓", 150]], 22, 1, 172),
    # 15. 祖孙卓带拖 +300: 三 四 五 + 玖
    "zusunzhuodaituo": ("煨 三三三, 煨 四四四, 煨 五五五, 吃 三四五, 煨 玖玖玖, 吃 柒捌玖, 雀 贰贰",
                        [["祖孙卓带拖", 300]], 26, 1, 326),
    # 15. four consecutive 团圆 (三四五六) hold three consecutive plus one more
    "zusunzhuodaituo_4": ("煨 三三三, 煨 四四四, 煨 五五五, 煨 六六六, 吃 三四五, 吃 六七八, 雀 贰贰",
                          [["祖孙卓带拖", 300]], 26, 1, 326),
    # 18. 八碰头 +200 (八 and 捌 团圆) with 卓胡 +20
    "bapengtou": ("煨 八八八, 吃 六七八, 煨 捌捌捌, 吃 陆柒捌, 碰 三三三, 碰 四四四, 雀 九九",
                  [["卓胡", 20], ["八碰头", 200]], 16, 1, 236),
    # 19. 假八碰头 +100 (五 and 伍 团圆) with 卓胡 +20
    "jiabapengtou": ("煨 五五五, 吃 三四五, 煨 伍伍伍, 吃 叁肆伍, 碰 九九九, 碰 玖玖玖, 雀 贰贰",
                     [["卓胡", 20], ["假八碰头", 100]], 18, 1, 138),
    # 19. two numbers 团圆 in both cases: +100 each; their four 团圆 (runs 1+1+1+1) name no 卓 (warning)
    "jiabapengtou_2": ("煨 三三三, 煨 叁叁叁, 煨 五五五, 煨 伍伍伍, 吃 三四五, 吃 叁肆伍, 雀 贰贰",
                       [["假八碰头", 100], ["假八碰头", 100]], 26, 1, 226),
    # 17. 单吊 +20: the winning card completed the 麻雀
    "dandiao": (H10.replace("雀 九九", "雀 九九*"), [["单吊", 20]], 10, 1, 30),
    # 20. 背靠背 +20: won 叁 on 叁叁 / 三三 (对倒), 三三 is the 麻雀
    "beikaobei": ("煨 叁叁叁*, 煨 四四四, 碰 五五五, 碰 六六六, 吃 陆柒捌, 吃 七八九, 雀 三三",
                  [["背靠背", 20]], 10, 1, 30),
    # a winning card in a 句 that is no 对倒: nothing
    "won_in_run": (H10.replace("吃 陆柒捌", "吃 陆柒*捌"), [], 10, 1, 10),
}


@pytest.mark.parametrize("name", list(CASES))
def test_named_items(name):
    text, named, hard, multiplier, total = CASES[name]
    res = result(text)
    assert res.valid, res.error
    assert [[i.name, i.value] for i in res.items if i.kind != "hard"] == named
    assert (res.hard_xi, res.multiplier, res.total_xi) == (hard, multiplier, total)


def test_haidi_hu():
    res = result(H10, last_card=True)
    assert pairs(res)[-1] == ["海底胡", 10] and res.total_xi == 20


def test_mingtang_items_need_their_condition():
    # one group without a red card: no 满园花 (otherwise the manyuanhua case)
    res = result("碰 二二二, 煨 七七七, 碰 拾拾拾, 吃 壹贰叁, 吃 陆柒捌, 吃 三四五, 雀 贰贰")
    assert "满园花" not in [i.name for i in res.items]
    # a red pair without 团圆 is no 印
    assert [i.name for i in result(H10.replace("雀 九九", "雀 十十")).items] == ["煨", "煨", "碰", "碰", "麻雀"]


def test_four_tuanyuan_no_seed_item_warns():
    # 团圆 三 四 (相连) and 捌 玖 (相连): runs 2+2, which the seed names no 卓 for
    res = result("煨 三三三, 煨 四四四, 吃 三四五, 煨 捌捌捌, 煨 玖玖玖, 吃 柒捌玖, 雀 贰贰")
    assert res.valid and res.total_xi == res.hard_xi == 26
    assert not any("卓" in i.name for i in res.items)
    assert any("no 卓 item" in w for w in res.warnings)
    assert res.warning_codes == ["no_zhuo_item", "no_winning_card"] and len(res.warnings) == 2


# --- switches ---------------------------------------------------------------------------------------------------

def test_multiplier_order():
    # 对子胡 ×6 on 15 硬息 with 海底胡 +10: 15×6+10 = 100 by default, (15+10)×6 = 150 the other way
    text = CASES["duizihu"][0]
    first = result(text, last_card=True)
    assert first.total_xi == 100
    assert first.decisions == ["weimaque.multiplier_order=multiply_then_add"]
    second = result(text, last_card=True, multiplier_order="add_then_multiply")
    assert second.total_xi == 150
    assert second.decisions == ["weimaque.multiplier_order=add_then_multiply"]
    # no addition: the order decides nothing and is not named
    assert result(text).decisions == []
    assert result(text, multiplier_order="add_then_multiply").total_xi == 90


@pytest.mark.parametrize(
    ("switch", "run"),
    [("erqishi_sets", "吃 二七十"), ("erqishi_sets", "吃 拾贰柒"), ("mixed_sets", "吃 一一壹"), ("mixed_sets", "吃 壹一壹")],
)
def test_sentence_form_switches(switch, run):
    text = H10.replace("吃 陆柒捌", run)
    off = result(text)
    assert not off.valid and off.reason == "set_form_not_allowed"
    assert off.decisions == [f"weimaque.{switch}=false"]
    on = result(text, **{switch: True})
    assert on.valid, on.error
    assert on.decisions == [f"weimaque.{switch}=true"]
    assert on.hard_xi == 10
    # a plain run never names the switches
    assert result(H10).decisions == []


def test_shou_qian_shou():
    unset = result(H10, shou_qian_shou=True)
    assert unset.total_xi == 10 and "手牵手" not in [i.name for i in unset.items]
    assert unset.decisions == ["weimaque.shou_qian_shou_xi=none"]
    assert any("暂不明" in w for w in unset.warnings)
    assert unset.warning_codes == ["shou_qian_shou_not_scored", "no_winning_card"] and unset.to_json()["warning_codes"] == unset.warning_codes
    house = result(H10, shou_qian_shou=True, shou_qian_shou_xi=30)
    assert pairs(house)[-1] == ["手牵手", 30] and house.items[-1].kind == "house"
    assert house.total_xi == 40 and house.decisions == ["weimaque.shou_qian_shou_xi=30"]
    # the option alone does nothing to a hand not marked 手牵手
    assert result(H10, shou_qian_shou_xi=30).total_xi == 10


def test_options_errors():
    from scoring.weimaque import WeimaqueOptionError

    with pytest.raises(WeimaqueOptionError, match="unknown option 'weimaque.nope'"):
        WeimaqueOptions.from_pairs(["weimaque.nope=1"])
    with pytest.raises(WeimaqueOptionError, match="multiplier_order"):
        WeimaqueOptions.from_pairs(["weimaque.multiplier_order=sideways"])
    with pytest.raises(WeimaqueOptionError, match="not key=value"):
        WeimaqueOptions.from_pairs(["erqishi_sets"])
    assert WeimaqueOptions.from_pairs(["erqishi_sets=yes"]).erqishi_sets is True


# --- JSON contract ---------------------------------------------------------------------------------------------

def test_json_contract():
    data = result(CASES["yinhu_1"][0]).to_json()
    for key in ("id", "ruleset", "valid", "shapes", "scored_shape", "items", "item_details", "deltas", "error",
                "reason", "decisions", "warnings", "payments"):
        assert key in data
    assert data["ruleset"] == "weimaque" and data["valid"] is True
    assert data["items"] == [["碰", 3], ["团圆", 4], ["煨", 3], ["煨", 3], ["碰", 2], ["印胡", 10]]
    assert data["item_details"][-1]["kind"] == "add" and data["item_details"][0]["kind"] == "hard"
    assert data["deltas"] is None and data["payments"] == []
    assert data["settlement"] == NO_SETTLEMENT
    assert (data["hard_xi"], data["added_xi"], data["multiplier"], data["total_xi"]) == (15, 10, 1, 25)
    bad = result("煨 三三三, 雀 九九").to_json()
    assert bad["valid"] is False and bad["reason"] == "wrong_set_count" and bad["shapes"] == []
    assert "total_xi" not in bad and "hard_xi" not in bad


@pytest.mark.parametrize("key", option_keys())
def test_every_switch_is_in_the_options_table(key):
    assert f"| {key} |" in options_module.__doc__
