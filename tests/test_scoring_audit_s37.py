"""Scoring audit (session 37): disagreements found between mjsnap and SPEC.md / the seeds, and the hands that show them.

Every expected number below is worked out from ../shared/rules/SPEC.md (§2 Shaanxi: 底分 D = 3; 暗杠 2·D from each
other player, 放杠 2·D from the feeder, 明杠 (补杠) 1·D from each; [A5] ``dealer_doubling=everything`` = the
narrative ``庄家的得失分均按2倍计算``: every payment with the dealer on either side doubled), not read off the code.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mjsnap.cli import app
from scoring.hand import HandError, Meld
from scoring.options import RuleOptions
from scoring.scorer import kong_deltas, score_case

EVERYTHING = RuleOptions().with_overrides({"shaanxi.dealer_doubling": "everything"})
GOOD_CASE = {"id": "good", "ruleset": "weinan", "hand": "111m555m999s22s33s", "melds": [], "win_tile": "3s",
             "context": {"winner": 1, "discarder": 2, "missing_suit": "p"}}


# --- 1. A case whose rule set is not text (JSON input) crashed score_case, and with it a whole --json-in run -------

@pytest.mark.parametrize("ruleset", [5, ["weinan"], {"name": "weinan"}, True, 1.5])
def test_a_rule_set_that_is_not_text_is_an_input_error(ruleset):
    """docs/score-json.md: a case that is not valid input gets its own ``valid: false`` line with a reason code."""
    result = score_case({"id": "x", "ruleset": ruleset, "hand": "123m456m789m234s5s", "win_tile": "5s"})
    assert (result.valid, result.reason, result.deltas, result.shapes) == (False, "unknown_ruleset", None, [])
    assert result.id == "x" and isinstance(result.ruleset, str) and result.error


def test_json_in_keeps_scoring_after_a_case_with_a_bad_rule_set():
    cases = [{**GOOD_CASE, "id": "bad", "ruleset": ["weinan"]}, GOOD_CASE]
    result = CliRunner().invoke(app, ["score", "--json-in", "-"], input=json.dumps(cases))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [(line["id"], line["valid"], line["reason"]) for line in lines] == [
        ("bad", False, "unknown_ruleset"), ("good", True, None)]
    assert lines[1]["deltas"] == [0, 2, -2, 0]  # 大对子 2, the discarder pays (SPEC §4)


# --- 2. [A5] dealer_doubling=everything reached a winner's kongs but not kong_deltas (kongs settled on their own) ---

@pytest.mark.parametrize(
    ("declarer", "dealer", "meld", "deltas"),
    [
        # 暗杠 2·D = 6 from each other player; the dealer's payment doubled to 12
        (1, 0, ("kong_concealed", "2222s", None), [-12, 24, -6, -6]),
        # the dealer declares: every payment has the dealer on one side, 12 each
        (0, 0, ("kong_concealed", "2222s", None), [36, -12, -12, -12]),
        # 放杠 2·D = 6 from the feeder, who is the dealer: 12
        (1, 0, ("kong_exposed", "2222s", 0), [-12, 12, 0, 0]),
        # 放杠 fed by a non-dealer, neither side is the dealer: 6, not doubled
        (1, 2, ("kong_exposed", "2222s", 3), [0, 6, 0, -6]),
        # 明杠 (补杠) 1·D = 3 from each; the dealer (seat 2) pays 6
        (1, 2, ("kong_added", "2222s", None), [-3, 12, -6, -3]),
    ],
)
def test_kong_deltas_double_the_dealer_under_everything(declarer, dealer, meld, deltas):
    kong = Meld.parse(*meld)
    assert kong_deltas("shaanxi", declarer, [kong], EVERYTHING, dealer=dealer) == deltas
    assert kong_deltas("shaanxi108", declarer, [kong], EVERYTHING, dealer=dealer) == deltas


@pytest.mark.parametrize(
    ("options", "dealer", "deltas"),
    [
        (None, 0, [-6, 18, -6, -6]),  # the default hu_only: kongs are never doubled, the dealer changes nothing
        (None, None, [-6, 18, -6, -6]),
        (EVERYTHING, 3, [-6, 24, -6, -12]),  # 6 + 6 + 12 from the dealer (seat 3)
    ],
)
def test_kong_deltas_dealer_only_matters_under_everything(options, dealer, deltas):
    assert kong_deltas("shaanxi", 1, [Meld.parse("kong_concealed", "2222s")], options, dealer=dealer) == deltas


def test_kong_deltas_under_everything_match_a_winners_own_kongs():
    """The same kong, settled on its own or inside the winner's result, costs each seat the same under [A5]."""
    case = {"ruleset": "shaanxi", "hand": "123m456m789p5z", "win_tile": "5z",
            "melds": [{"type": "kong_concealed", "tiles": "2222s"}],
            "context": {"winner": 1, "dealer": 0, "discarder": 2}}
    kong_part = [0, 0, 0, 0]
    for p in score_case(case, EVERYTHING).payments:
        if p.component == "kong":
            kong_part[p.payer] -= p.amount
            kong_part[p.payee] += p.amount
    assert kong_part == [-12, 24, -6, -6]
    assert kong_deltas("shaanxi", 1, [Meld.parse("kong_concealed", "2222s")], EVERYTHING, dealer=0) == kong_part


def test_kong_deltas_under_everything_need_the_dealer():
    with pytest.raises(HandError) as exc:
        kong_deltas("shaanxi", 1, [Meld.parse("kong_concealed", "2222s")], EVERYTHING)
    assert exc.value.code == "bad_context"
    with pytest.raises(HandError) as bad:
        kong_deltas("shaanxi", 1, [Meld.parse("kong_concealed", "2222s")], EVERYTHING, dealer=4)
    assert bad.value.code == "bad_seat"


@pytest.mark.parametrize(("ruleset", "deltas"), [("xian", [-2, 6, -2, -2]), ("weinan", [-1, 3, -1, -1])])
def test_dealer_doubling_is_shaanxi_only(ruleset, deltas):
    """Xi'an (庄/偏 all the same, 不分庄家与偏家) and Weinan have no dealer doubling (SPEC §3, §4)."""
    assert kong_deltas(ruleset, 1, [Meld.parse("kong_concealed", "2222s")], EVERYTHING, dealer=0) == deltas


def test_a_voided_drawn_hand_stays_void_under_everything():
    options = EVERYTHING.with_overrides({"shaanxi.kong_on_draw": "void"})
    assert kong_deltas("shaanxi", 1, [Meld.parse("kong_concealed", "2222s")], options, drawn=True) == [0, 0, 0, 0]
