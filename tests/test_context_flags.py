"""Context flags that disagree with each other or with the seats: one answer however the disagreement is written.

A dealer cannot win 地胡 (a non-dealer winning on the dealer's first discard): the rule set says so with the reason
``earthly_not_on_dealer_discard`` whether or not a discarder is named. ``self_draw: false`` beside 天胡 or 杠上花,
which are self-drawn by definition, is scored as the self-draw the flag names, with the warning ``self_draw_implied``.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mjsnap.cli import app
from scoring.hand import Context, HandError
from scoring.scorer import RULESETS, score_case

PLAIN = {"hand": "123m456m789m234s5s", "win_tile": "5s", "melds": []}
KONG_WIN = {"hand": "111m999m33s55s", "win_tile": "5s", "melds": [{"type": "kong_added", "tiles": "7777s"}]}


def case(ruleset: str, shape: dict, **context) -> dict:
    return {"id": "x", "ruleset": ruleset, **shape, "context": {"missing_suit": "p", **context}}


@pytest.mark.parametrize("ruleset", list(RULESETS))
@pytest.mark.parametrize("discarder", [{}, {"discarder": 1}, {"discarder": 2}])
def test_a_dealers_earthly_win_has_one_reason(ruleset, discarder):
    result = score_case(case(ruleset, PLAIN, winner=0, dealer=0, earthly=True, **discarder))
    assert (result.valid, result.reason) == (False, "earthly_not_on_dealer_discard")


def test_a_non_dealers_earthly_win_is_paid_by_the_dealer_named_or_not():
    named = score_case(case("xian", PLAIN, winner=1, dealer=0, earthly=True, discarder=0))
    implied = score_case(case("xian", PLAIN, winner=1, dealer=0, earthly=True))
    assert named.valid and named.deltas == implied.deltas and named.deltas[0] < 0 == named.deltas[2]


def test_a_dealer_naming_themself_as_discarder_is_still_a_seat_error():
    with pytest.raises(HandError, match="cannot be the winner") as exc:
        Context(earthly=True, winner=0, dealer=0, discarder=0)
    assert exc.value.code == "bad_seat"


@pytest.mark.parametrize(
    ("ruleset", "shape", "flags"),
    [
        ("weinan", KONG_WIN, {"kong_replacement": True}),
        ("xian", KONG_WIN, {"kong_replacement": True}),
        ("shaanxi", KONG_WIN, {"kong_replacement": True}),
        ("xian", PLAIN, {"heavenly": True}),
        ("weinan", PLAIN, {"heavenly": True}),
    ],
)
def test_self_draw_false_beside_a_self_drawn_win_is_scored_as_one_and_said(ruleset, shape, flags):
    said = score_case(case(ruleset, shape, winner=0, dealer=0, self_draw=True, **flags))
    contradicted = score_case(case(ruleset, shape, winner=0, dealer=0, self_draw=False, **flags))
    assert said.valid and contradicted.valid
    assert contradicted.deltas == said.deltas and contradicted.items == said.items
    assert said.warning_codes == [] and contradicted.warning_codes == ["self_draw_implied"]
    assert "self_draw false" in contradicted.warnings[0]


def test_score_text_explains_warnings_and_rule_switches_in_chinese():
    args = ["score", "123m456m789m234s5s", "--win", "5s", "-r", "xian", "--winner", "0", "--dealer", "0", "--heavenly",
            "--no-self-draw"]
    zh = CliRunner().invoke(app, [*args, "--lang", "zh"])
    en = CliRunner().invoke(app, [*args, "--lang", "en"])
    assert zh.exit_code == en.exit_code == 0, zh.output + en.output
    assert "注意: 天胡和杠上花都是自摸" in zh.output and "self_draw false" not in zh.output
    assert "规则选择: [A7]" in zh.output and "xian.heavenly=" not in zh.output
    assert "self_draw false was given" in " ".join(en.output.split())


@pytest.mark.parametrize(("lang", "line"), [("zh", "部分规则：种子没有给鸡的分值，也没有给付款方式"),
                                            ("en", "partial: the seed does not give chicken values or payments")])
def test_a_partial_rule_sets_note_is_in_the_chosen_language(lang, line):
    out = CliRunner().invoke(app, ["score", "123m456m789s234s5s", "--win", "5s", "-r", "guiyang", "--lang", lang])
    assert out.exit_code == 0, out.output
    assert out.output.rstrip().splitlines()[-1] == line


def test_robbing_a_kong_is_no_earthly_win():
    """地胡 is won on the dealer's first discard, before anyone has a pung to add a robbed tile to."""
    with pytest.raises(HandError, match="two ways of winning: 抢杠") as exc:
        Context(winner=1, dealer=0, discarder=0, robbing_kong=True, earthly=True)
    assert exc.value.code == "bad_context"
