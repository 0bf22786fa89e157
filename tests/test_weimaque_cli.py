"""`mjsnap weimaque`: breakdown, --json, groups as several arguments, switches, and the exit codes."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mjsnap.cli import app

runner = CliRunner()
HAND = "碰 柒柒柒, 煨 3 3 3, 砍 十十十, 吃 7B 8B 9B, 吃 一二三, 吃 四五六, 雀 捌捌*"


def run(*args: str):
    return runner.invoke(app, ["weimaque", *args])


def test_json_result():
    result = run(HAND, "--last-card", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # 碰柒 3 + 团圆 4 + 煨三 3 + 团圆 3 + 砍十 4 + 转弯 2 = 19; 印胡 10, 卓胡 20, 海底胡 10, 单吊 20
    assert data["hard_xi"] == 19 and data["total_xi"] == 79
    assert [name for name, _ in data["items"]][-4:] == ["印胡", "卓胡", "海底胡", "单吊"]
    assert data["deltas"] is None and "no rule for paying" in data["settlement"]


def test_groups_as_arguments_and_breakdown():
    result = run(*HAND.split(", "), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "total xi: 69" in result.stdout and "settlement" in result.stdout


def test_switch_and_no_win_exit_1():
    hand = HAND.replace("吃 四五六", "吃 二七十")
    refused = run(hand, "--json")
    assert refused.exit_code == 1
    assert json.loads(refused.stdout)["reason"] == "set_form_not_allowed"
    allowed = run(hand, "-o", "weimaque.erqishi_sets=true", "--json")
    assert allowed.exit_code == 0
    assert json.loads(allowed.stdout)["decisions"] == ["weimaque.erqishi_sets=true"]


def test_bad_input_exit_2():
    bad = run("碰 柒柒柒, 煨 3 3 11")
    assert bad.exit_code == 2 and "'11' is not a card" in bad.output
    assert run(HAND, "-o", "weimaque.nope=1").exit_code == 2
    assert run(HAND, "--lang", "fr").exit_code == 2


def test_a_chinese_breakdown_explains_in_chinese_as_the_app_does():
    """The reason column, a refusal's reason and the settlement line, from the same catalogue as the 偎麻雀 page."""
    result = run(HAND, "--last-card")
    assert result.exit_code == 0, result.output
    assert "碰出的三张" in result.output and "原文没有息的结算规则" in result.output
    assert "no settlement" not in result.output
    refused = run("碰 柒柒柒", "煨 三三三")
    assert "不能胡: 胡牌要 6 句加 1 个麻雀 (wrong_set_count)" in refused.output
