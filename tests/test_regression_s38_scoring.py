"""Regression audit (session 38) of issues 2 (scoring engine, `mjsnap score`, docs/score-json.md) and 8 (偎麻雀,
贵阳捉鸡): the gaps the audit found, each pinned so that it cannot come back.

1. A context naming two ways of winning (天胡/杠上花, self-drawn, with 抢杠 or 杠后点胡) was scored, and 杠后点胡
   without a discarder became a self-draw that lost its 番: each is now `bad_context`.
2. A bad winning tile's error gave a position inside `--win` as if it were in the hand.
3. A case whose `id` is a number printed a pydantic warning on stderr for every run of `--json-in`.
4. docs/score-json.md did not list 贵阳捉鸡's `chow_not_allowed` among the reason codes.
5. `--waits` told a command-line user to give golden.json's 'from' for an exposed kong, not `@SEAT`.
6. `mjsnap weimaque --json` printed nothing on stdout for bad notation, where `mjsnap score --json` prints the
   input-error object; a 团圆 or 转弯 typed as a group type was "not a card".
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjsnap.cli import app
from scoring.hand import Context, HandError
from scoring.scorer import RULESETS, PARTIAL_RULESETS, score_case

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

# 大对子 in two suits (p missing): a win in every rule set, so only the context can make it an input error
ALL_PUNGS = {"hand": "111m555m999s22s33s", "win_tile": "3s"}


def case(ruleset: str, context: dict) -> dict:
    return {"id": "c", "ruleset": ruleset, **ALL_PUNGS, "context": {"missing_suit": "p", **context}}


# --- 1. one way of winning -----------------------------------------------------------------------------------------

TWO_WAYS = [
    ({"heavenly": True, "robbing_kong": True, "discarder": 2}, "two ways of winning"),
    ({"heavenly": True, "robbing_kong": True, "discarder": 2, "self_draw": False}, "two ways of winning"),
    ({"heavenly": True, "after_kong_discard": True}, "two ways of winning"),
    ({"kong_replacement": True, "robbing_kong": True, "discarder": 2}, "two ways of winning"),
    ({"kong_replacement": True, "after_kong_discard": True}, "two ways of winning"),
    # 杠后点胡 is a win on a discard: without the discarder it was scored as a self-draw, every other seat paying
    ({"after_kong_discard": True, "winner": 1}, "杠后点胡 (after_kong_discard) needs the discarder's seat"),
]


@pytest.mark.parametrize(("context", "said"), TWO_WAYS)
def test_a_context_with_two_ways_of_winning_is_refused(context, said):
    with pytest.raises(HandError) as refused:
        Context.from_dict(context)
    assert refused.value.code == "bad_context" and said in str(refused.value)


@pytest.mark.parametrize("ruleset", RULESETS + PARTIAL_RULESETS)
@pytest.mark.parametrize(("context", "said"), TWO_WAYS)
def test_every_rule_set_gets_the_input_error(ruleset, context, said):
    """These reached the rule sets: Weinan paid 天胡 9番 from the robbed seat alone, Xi'an 6 基数 likewise, and 杠后点胡
    without a discarder was a self-draw paid by all three, without its 2番."""
    result = score_case(case(ruleset, context))
    assert (result.valid, result.reason, result.shapes, result.deltas) == (False, "bad_context", [], None)
    assert said in result.error


@pytest.mark.parametrize(
    ("context", "items", "deltas"),
    [
        # each way of winning alone still scores as before
        ({"after_kong_discard": True, "winner": 1, "discarder": 2}, [["大对子", 2], ["杠后点胡", 2]], [0, 4, -4, 0]),
        ({"robbing_kong": True, "winner": 1, "discarder": 2}, [["大对子", 2]], [0, 2, -2, 0]),
        ({"heavenly": True}, [["大对子", 2], ["天胡", 6]], [27, -9, -9, -9]),  # row 4's printed 9, from all three
    ],
)
def test_one_way_of_winning_still_scores(context, items, deltas):
    result = score_case(case("weinan", context))
    assert (result.valid, result.item_pairs(), result.deltas) == (True, items, deltas), result.error


def test_the_command_line_refuses_after_kong_discard_without_a_discarder():
    result = runner.invoke(app, ["score", "111m555m999s22s33s", "--rules", "weinan", "--win", "3s", "--winner", "1",
                                 "--missing-suit", "p", "--after-kong-discard", "--json"])
    assert result.exit_code == 2
    line = json.loads(result.stdout)
    assert (line["valid"], line["reason"], line["deltas"]) == (False, "bad_context", None)


# --- 2. a bad winning tile is named as the winning tile ------------------------------------------------------------

@pytest.mark.parametrize(
    ("win", "said"),
    [
        ("5q", "winning tile '5q': unexpected character 'q' at position 1"),
        ("8z", "winning tile '8z': '8' at position 0: honours are 1z-7z"),
        ("5s5s", "winning tile '5s5s': expected one tile, got 2"),
    ],
)
def test_a_bad_winning_tile_is_named_as_such(win, said):
    result = score_case({"ruleset": "shaanxi", "hand": "123m456m789m234s5s", "win_tile": win})
    assert (result.valid, result.reason) == (False, "invalid_tiles")
    assert result.error.startswith(said), result.error
    typed = runner.invoke(app, ["score", "123m456m789m234s5s", "--win", win])
    assert typed.exit_code == 2 and f"bad hand: {said}" in typed.output


def test_a_bad_hand_keeps_its_own_position():
    result = score_case({"ruleset": "shaanxi", "hand": "123m456m789m234s5x", "win_tile": "5s"})
    assert result.error.startswith("unexpected character 'x' at position 17")


# --- 3. any JSON id is echoed, quietly -----------------------------------------------------------------------------

@pytest.mark.parametrize("case_id", [5, 1.5, True, ["a", 1], {"n": 1}, None, "WN03"])
def test_a_case_id_of_any_json_type_is_echoed_without_a_warning(case_id):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pydantic's "Expected `str`" serializer warning fails the test
        line = score_case({**case("weinan", {"winner": 1, "discarder": 2}), "id": case_id}).to_json()
    assert line["id"] == case_id and line["valid"] is True


def test_json_in_with_numeric_ids_writes_nothing_on_stderr():
    cases = [{**case("weinan", {"winner": 1, "discarder": 2}), "id": n} for n in (1, 2)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pytest captures warnings before they reach stderr: make one fail the run
        result = runner.invoke(app, ["score", "--json-in", "-"], input=json.dumps(cases))
    assert result.exit_code == 0 and result.stderr == ""
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [1, 2]


# --- 4. every reason a rule set gives is in the public contract ----------------------------------------------------

def rule_reasons() -> list[str]:
    """The codes of every NotAllowed raised in scoring/rules (the reasons a valid input gets for not scoring)."""
    pattern = re.compile(r'NotAllowed\(\s*"([a-z_]+)"')
    found = {code for path in (ROOT / "scoring" / "rules").rglob("*.py")
             for code in pattern.findall(path.read_text(encoding="utf-8"))}
    return sorted(found | {"kong_feeder_missing"})  # raised as KongFeederError, turned into NotAllowed in base.py


def test_the_reason_scan_finds_the_rule_sets_codes():
    assert {"chow_not_allowed", "one_fan_cannot_win_on_discard", "shape_not_allowed"} <= set(rule_reasons())


@pytest.mark.parametrize("code", rule_reasons())
def test_every_rule_reason_is_in_the_reason_code_table(code):
    doc = (ROOT / "docs" / "score-json.md").read_text(encoding="utf-8")
    table = doc.split("### Reason codes", 1)[1].split("###", 1)[0]
    assert f"`{code}`" in table


# --- 5. --waits speaks the command line's spelling for an unfed kong -----------------------------------------------

@pytest.mark.parametrize("as_json", [False, True])
def test_waits_name_the_meld_option_for_an_unfed_exposed_kong(as_json):
    args = ["score", "123m456m789m5s", "--waits", "--meld", "kong_exposed:2222s", "--lang", "en"]
    result = runner.invoke(app, args + ["--json"] * as_json, env={"COLUMNS": "240"})  # one table row, unwrapped
    assert result.exit_code == 0, result.output
    text = json.loads(result.stdout)["error"] if as_json else result.stdout
    assert "write --meld kong_exposed:2222s@SEAT, or kong_added:2222s" in text
    assert "give 'from'" not in text


# --- 6. 偎麻雀: --json on bad notation, 团圆 / 转弯 typed as a type ----------------------------------------------

@pytest.mark.parametrize(
    ("groups", "code"),
    [
        (["碰 柒柒柒, 煨 3 3 11"], "bad_token"),
        (["柒柒柒"], "missing_type"),
        (["碰 柒*柒*柒"], "several_winning_cards"),
        (["碰 五五五, 碰 五五五"], "too_many_copies"),
        ([""], "empty_hand"),
        (["碰", "柒柒柒"], "empty_group"),
        (["团圆 柒柒柒柒"], "bad_token"),
    ],
)
def test_weimaque_json_prints_the_input_error_object(groups, code):
    result = runner.invoke(app, ["weimaque", *groups, "--json"])
    assert result.exit_code == 2
    line = json.loads(result.stdout)
    assert (line["ruleset"], line["valid"], line["reason"], line["deltas"], line["items"]) == (
        "weimaque", False, code, None, [])
    assert line["error"] and line["error"] in result.stderr  # the same words for a person, on stderr


def test_weimaque_without_json_keeps_stdout_empty_on_bad_notation():
    result = runner.invoke(app, ["weimaque", "碰 柒柒柒, 煨 3 3 11"])
    assert result.exit_code == 2 and result.stdout == ""


def test_weimaque_json_bad_option_prints_the_message_only():
    result = runner.invoke(app, ["weimaque", "碰 柒柒柒", "-o", "weimaque.nope=1", "--json"])
    assert result.exit_code == 2 and result.stdout == "" and "unknown option" in result.stderr


@pytest.mark.parametrize("word", ["团圆", "團圓", "转弯", "轉彎"])
def test_a_typed_tuanyuan_or_zhuanwan_says_they_are_read_off_the_cards(word):
    from scoring.weimaque import WeimaqueInputError, parse_hand

    with pytest.raises(WeimaqueInputError) as refused:
        parse_hand(f"碰 柒柒柒, {word} 捌捌")
    assert refused.value.code == "bad_token" and refused.value.column == 8
    assert f"{word!r} is not typed: 团圆 and 转弯 are read off the cards" in str(refused.value)
