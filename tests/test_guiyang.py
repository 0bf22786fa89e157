"""贵阳捉鸡 (seed 003, partial): 108 tiles, no 吃, 混5清10, 连庄 payers, 叫牌, 手上鸡 / 内外鸡, the partial flag,
and the ScoreResult JSON contract. No ../shared needed."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mjsnap.cli import app
from scoring.hand import HandError, Meld
from scoring.options import RuleOptions
from scoring.rules.guiyang import PARTIAL, chicken_count, jiao_pai
from scoring.scorer import kong_deltas, parse_hand, score, score_case
from scoring.tiles import parse_tiles

QING = "123p456p789p234p5p"  # + 5p: 清一色 in 筒
MIXED = "123p456m789p234p5p"  # + 5p: two suits, a plain win the seed gives no 番 for


def win(hand, tile, *, melds=(), options=None, **context):
    opts = RuleOptions().with_overrides(options or {})
    return score(parse_hand(hand, tile, list(melds), context), "guiyang", opts)


@pytest.mark.parametrize(
    ("context", "lianzhuang", "items", "deltas"),
    [
        # 清一色按10番基础番: every other player pays the pattern 番
        ({"winner": 1, "dealer": 0, "discarder": 2}, 0, [["清一色", 10]], [-10, 30, -10, -10]),
        # a non-dealer wins during 连庄: 庄家都需付牌型基础番加连庄番，其余非庄家只需支付牌型番数
        ({"winner": 1, "dealer": 0, "discarder": 2}, 1, [["清一色", 10], ["连庄", 1]], [-11, 31, -10, -10]),
        ({"winner": 3, "dealer": 2, "self_draw": True}, 3, [["清一色", 10], ["连庄", 3]], [-10, -10, -13, 33]),
        # the dealer wins again: 基础番将加一番 for each continuation, so every payer pays it
        ({"winner": 0, "dealer": 0, "self_draw": True}, 2, [["清一色", 10], ["连庄", 2]], [36, -12, -12, -12]),
    ],
)
def test_qingyise_and_lianzhuang(context, lianzhuang, items, deltas):
    result = win(QING, "5p", options={"guiyang.lianzhuang": lianzhuang}, **context)
    assert result.valid
    assert result.item_pairs() == items
    assert result.fan == 10 and result.deltas == deltas
    assert result.decisions == ([f"guiyang.lianzhuang={lianzhuang}"] if lianzhuang else [])
    assert result.partial == PARTIAL


def test_plain_win_has_no_amount():
    result = win(MIXED, "5p", winner=1, discarder=2)
    assert result.valid and result.shapes == ["plain"]
    assert result.items == [] and result.fan is None and result.deltas is None and result.payments == []
    assert any("gives no 番" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("hand", "tile", "melds", "reason"),
    [
        ("123p456p789p234p5z", "5z", [], "honor_tiles_not_in_set"),  # 无花牌、字牌、风牌
        ("5p", "5p", [{"type": "pung", "tiles": "111p", "from": 2}, {"type": "pung", "tiles": "222p", "from": 3},
                      {"type": "pung", "tiles": "999p", "from": 2}, {"type": "chow", "tiles": "345p", "from": 0}],
         "chow_not_allowed"),  # 不可吃牌
        ("11m33m55m77p88p99p2s", "2s", [], "not_a_winning_shape"),  # the fragment names no 七对
    ],
)
def test_refused(hand, tile, melds, reason):
    result = win(hand, tile, melds=melds, winner=1, discarder=2)
    assert not result.valid and result.reason == reason and result.deltas is None
    assert result.partial == PARTIAL


def test_hunyise_only_under_the_labelled_house_option():
    hand, tile = "123p456p789p55p11z", "1z"  # 筒 with a pung of East
    assert win(hand, tile, winner=1, discarder=2).reason == "honor_tiles_not_in_set"
    result = win(hand, tile, options={"guiyang.honours_house_rule": True}, winner=1, discarder=2)
    assert result.item_pairs() == [["混一色", 5]] and result.fan == 5
    assert result.decisions == ["guiyang.honours_house_rule=true (not in the seed)"]


def test_unpriced_parts_are_named():
    kong = {"type": "kong_concealed", "tiles": "1111p"}
    result = win("234p456p78p55p", "9p", melds=[kong], winner=1, self_draw=True, last_tile=True)
    assert result.valid and result.item_pairs() == [["清一色", 10]]
    assert result.kong_points_to_winner is None
    assert any("豆 (kongs) are not scored" in w for w in result.warnings)
    assert any("no value for: last_tile" in w for w in result.warnings)
    with pytest.raises(HandError) as info:
        kong_deltas("guiyang", 1, [Meld.parse("kong_concealed", "9999p")])
    assert info.value.code == "not_in_seed"


@pytest.mark.parametrize(
    ("concealed", "ready", "waits"),
    [
        ("123p456p789p234m5m", True, ("2m", "5m")),
        ("123p456p789p11m59s", False, ()),
        ("1111p2222p3333p4p", True, ("4p", "5p")),  # 4p and 5p complete it; no fifth 1p/2p/3p can come
    ],
)
def test_jiao_pai(concealed, ready, waits):
    check = jiao_pai(parse_tiles(concealed))
    assert (check.ready, check.waits) == (ready, waits)
    assert ("do not count" in check.message) is not ready


def test_chicken_modes():
    hand = parse_hand(QING, "5p", [], {"winner": 1, "discarder": 2})
    chickens, discards = [parse_tiles("1s")[0], parse_tiles("5p")[0]], parse_tiles("1s1s9m")
    kept = chicken_count(hand, chickens, discards)
    # three 5p kept (456p, 5p, the winning 5p), two 1s discarded
    assert (kept.mode, kept.kept, kept.discarded, kept.counted) == ("shou_shang", 3, 2, 3)
    both = chicken_count(hand, chickens, discards, RuleOptions().with_overrides({"guiyang.chicken_mode": "nei_wai"}))
    assert both.counted == 5
    with pytest.raises(HandError):
        chicken_count(hand, chickens, [40])


def test_json_contract_and_case_schema():
    case = {"id": "gy1", "ruleset": "guiyang", "hand": QING, "win_tile": "5p", "melds": [],
            "context": {"winner": 1, "discarder": 2}}
    data = score_case(case).to_json()
    for key in ("id", "ruleset", "valid", "shapes", "scored_shape", "items", "item_details", "deltas", "error",
                "reason", "decisions", "warnings", "payments", "fan", "partial"):
        assert key in data
    assert data["id"] == "gy1" and data["items"] == [["清一色", 10]] and sum(data["deltas"]) == 0
    assert [p["amount"] for p in data["payments"]] == [10, 10, 10]


def test_cli_score_rules_guiyang():
    runner = CliRunner()
    out = runner.invoke(app, ["score", QING, "--win", "5p", "--rules", "guiyang", "--winner", "1", "--discarder",
                              "2", "-o", "guiyang.lianzhuang=1", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["deltas"] == [-11, 31, -10, -10]
    table = runner.invoke(app, ["score", QING, "--win", "5p", "--rules", "guiyang", "--winner", "1", "--discarder",
                                "2", "-o", "guiyang.lianzhuang=1", "--lang", "en"])
    assert "pattern fan" in table.stdout and "total " not in table.stdout.split("seat 0")[0]  # 10 + 1 is no total
    plain = runner.invoke(app, ["score", MIXED, "--win", "5p", "--rules", "guiyang", "--winner", "1",
                                "--discarder", "2"])
    assert plain.exit_code == 0 and "部分规则：种子没有给鸡的分值" in plain.stdout  # the default language is 中文
