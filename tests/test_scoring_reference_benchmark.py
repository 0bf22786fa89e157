"""benchmarks/scoring_reference.py: an independent reference scorer from SPEC.md, compared with the engine on random
hands of every rule set."""

import importlib.util
import json
from pathlib import Path

import pytest

SPEC = importlib.util.spec_from_file_location("scoring_reference",
                                              Path(__file__).parent.parent / "benchmarks" / "scoring_reference.py")
scoring_reference = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(scoring_reference)

SPEC_CASES = Path(__file__).with_name("spec_cases.json")


def test_the_engine_agrees_with_the_reference_on_random_cases_of_every_rule_set():
    result = scoring_reference.compare(cases=300, seed=11)
    assert set(result["rulesets"]) == {"shaanxi", "shaanxi108", "xian", "weinan"}
    assert all(tally["cases"] == 300 for tally in result["rulesets"].values())
    assert result["mismatches"] == [], result["mismatches"][:3]
    assert all(tally["mismatches"] == 0 for tally in result["rulesets"].values())


@pytest.mark.parametrize("case_id", [
    "AS07",  # Shaanxi: self-drawn, dealer and bets, an added kong
    "AS15",  # Shaanxi 108: a special shape is no win there
    "AX05",  # Xi'an: win on a kong replacement with an exposed kong and bets
    "AW11",  # Weinan: 金钩钓 + 杠上花 + 海底捞 with an added kong
    "AW33",  # Weinan: 金钩钓 on four kongs of all three kinds
])
def test_the_reference_scores_hand_worked_cases_as_worked_out(case_id):
    case = next(case for case in json.loads(SPEC_CASES.read_text(encoding="utf-8"))["cases"] if case["id"] == case_id)
    expected = case["expected"]
    verdict = scoring_reference.reference_score(case)
    assert verdict["valid"] == expected["valid"]
    if expected["valid"]:
        assert verdict["deltas"] == expected["deltas"]
    else:
        assert verdict["reason"] == expected["reason"]
