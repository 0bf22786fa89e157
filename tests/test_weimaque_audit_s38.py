"""Audit s38 of 安乡偎麻雀 (seed 003): the one bug found (a Chinese breakdown named its switches by their English
option keys) and the trickiest hands an independent reference scorer agreed on, pinned with the seed's numbers."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from mjsnap.cli import app
from scoring.weimaque import WeimaqueContext, WeimaqueOptions, parse_hand, score

runner = CliRunner()
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")  # the hands below are written in Chinese numerals: any such word leaked

# 煨一 3 煨三 3 煨四 3 煨六 3 + 团圆六 3 (五六七 holds the fourth 六) 煨九 3 = 18 硬息; one red card (七): 点胡 ×3
DIANHU_DANDIAO = "煨 一一一, 煨 三三三, 煨 四四四, 吃 五六七, 煨 六六六, 煨 九九九, 雀 八八*"


@pytest.mark.parametrize(
    ("hand", "options", "flags", "said"),
    [
        # 点胡 ×3 meets 小字胡 and 单吊: the order switch decides
        (DIANHU_DANDIAO, [], [], "倍数与加息的先后：先乘后加（硬息×N + 名堂）"),
        # 煨一 3 碰五 2 砍九 3 红麻雀 2 = 10: a win only with 二七十 allowed
        ("吃 二七十, 吃 二三四, 煨 一一一, 碰 五五五, 砍 九九九, 吃 柒捌玖, 雀 拾拾*", ["weimaque.erqishi_sets=true"], [],
         "二七十 / 贰柒拾 算一句：是"),
        # 煨二 4 + 团圆 4, 碰五 2, 砍九 3, 红麻雀 2 = 15: a win only with 绞 句 allowed
        ("吃 一一壹, 吃 二三四, 煨 二二二, 碰 五五五, 砍 九九九, 吃 柒捌玖, 雀 拾拾*", ["weimaque.mixed_sets=true"], [],
         "大小绞牌（一一壹）算一句：是"),
        # 10 硬息 marked 手牵手 with no house value
        ("煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 吃 陆柒捌, 雀 九九*", [], ["--shou-qian-shou"],
         "手牵手 自定息数（0 = 不算）：不算"),
    ],
    ids=["multiplier_order", "erqishi_sets", "mixed_sets", "shou_qian_shou_xi"],
)
def test_a_chinese_breakdown_names_its_switches_in_chinese(hand, options, flags, said):
    """It printed 规则选择: weimaque.multiplier_order=multiply_then_add; the app's 偎麻雀 page words it as here."""
    args = [arg for pair in options for arg in ("-o", pair)]
    result = runner.invoke(app, ["weimaque", hand, *args, *flags, "--lang", "zh"])
    assert result.exit_code == 0, result.output
    assert said in result.output
    assert not ENGLISH_WORD.findall(result.output), result.output


def test_an_english_breakdown_names_its_switches_in_english():
    result = runner.invoke(app, ["weimaque", DIANHU_DANDIAO, "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "multipliers vs additions: multiply, then add" in result.output


def score_text(text: str, **options):
    return score(parse_hand(text, WeimaqueContext()), WeimaqueOptions().with_overrides(options))


@pytest.mark.parametrize(
    ("text", "options", "named", "hard", "multiplier", "total"),
    [
        # 团圆 八 九 (小字, 相连) and 捌: 八 and 捌 are two systems, not 相连, so 2+1 = 姊妹卓带拖 80, plus 八碰头 200.
        # 砍 counts as 煨 (3 + 团圆 3) three times = 18, red 麻雀 十十 2: 硬息 20; 20 + 80 + 200 = 300
        ("砍 八八八, 砍 捌捌捌, 砍 九九九, 吃 七八九, 吃 柒捌玖, 吃 贰叁肆*, 雀 十十", {},
         [["姊妹卓带拖", 80], ["八碰头", 200]], 20, 1, 300),
        # four 团圆: 一二三 相连 + 伍 = 祖孙卓带拖 300; the only red cards are the four 二: 一口纯印 100 (不再算印胡).
        # 砍一 3+3, 砍二 4+4, 砍三 3+3, 砍伍 3+3 = 26; 26 + 100 + 300 = 426
        ("砍 一一一, 砍 二二二, 砍 三三三, 砍 伍伍伍, 吃 一二三, 吃 肆伍陆, 雀 九九", {},
         [["纯印", 100], ["祖孙卓带拖", 300]], 26, 1, 426),
        # all 20 cards red (二七十 allowed): 多红 10 × (20 − 9) = 110; 团圆 二 七 十 (二七十 holds each 4th copy) are
        # 三口印 30, not 纯印 (拾 and 贰 柒 are red too); 三乱卓 60; 满园花 100; 单吊 20.
        # 砍二 4+4, 砍七 4+4, 砍十 4+4, 砍贰 4, 砍柒 4, red 麻雀 2 = 34; 34 + 30 + 110 + 100 + 60 + 20 = 354
        ("砍 二二二, 砍 七七七, 砍 十十十, 吃 二七十, 砍 贰贰贰, 砍 柒柒柒, 雀 拾拾*", {"erqishi_sets": True},
         [["印胡", 30], ["多红", 110], ["满园花", 100], ["三乱卓", 60], ["单吊", 20]], 34, 1, 354),
        # 点胡 ×3 on 18 硬息 with 小字胡 100 + 单吊 20: 18 × 3 + 120 = 174, or (18 + 120) × 3 = 414
        (DIANHU_DANDIAO, {}, [["点胡", 3], ["小字胡", 100], ["单吊", 20]], 18, 3, 174),
        (DIANHU_DANDIAO, {"multiplier_order": "add_then_multiply"},
         [["点胡", 3], ["小字胡", 100], ["单吊", 20]], 18, 3, 414),
        # all four 八 but none three together (八八 麻雀, 七八九, 八九十): 转弯 2 once, no 团圆 (其中3张必须在一起).
        # 煨三 3 煨四 3 碰五 2 碰陆 2 + 转弯 2 = 12; two red cards (七 十): no multiplier; 陆 keeps it off 小字胡
        ("煨 三三三, 煨 四四四, 碰 五五五, 碰 陆陆陆, 吃 七八九, 吃 八九十, 雀 八八", {}, [], 12, 1, 12),
    ],
    ids=["bapengtou_with_zimeizhuo_daituo", "four_tuanyuan_3_plus_1_chunyin", "twenty_red_cards",
         "dianhu_multiply_then_add", "dianhu_add_then_multiply", "four_copies_none_together"],
)
def test_tricky_hands_keep_the_seeds_numbers(text, options, named, hard, multiplier, total):
    res = score_text(text, **options)
    assert res.valid, res.error
    assert [[i.name, i.value] for i in res.items if i.kind != "hard"] == named
    assert (res.hard_xi, res.multiplier, res.total_xi) == (hard, multiplier, total)
