"""Hands scored by hand from SPEC.md's recommended readings (tests/spec_cases.json), beyond what golden.json covers.

golden.json's 58 cases leave out most special shapes, kong payments, bets with dealers, shaanxi108 and much of
Weinan's combination table; these were worked out independently of the engine (each case's `derivation`, and
`source` where it cites the seed or SPEC section), so the scorer is checked on hands it was not written against.
They need nothing from ../shared.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from scoring.scorer import score_case

CASES = Path(__file__).with_name("spec_cases.json")


@cache
def cases() -> dict[str, dict]:
    return {case["id"]: case for case in json.loads(CASES.read_text(encoding="utf-8"))["cases"]}


def test_the_cases_cover_every_rule_set_and_explain_themselves():
    assert {case["ruleset"] for case in cases().values()} == {"shaanxi", "shaanxi108", "xian", "weinan"}
    assert all(case["derivation"].strip() for case in cases().values())


@pytest.mark.parametrize("case_id", list(cases()))
def test_spec_case(case_id: str) -> None:
    case = cases()[case_id]
    expected = case["expected"]
    scored = score_case(case).to_json()
    assert scored["valid"] is expected["valid"], scored["error"]
    for key, value in expected.items():
        assert scored[key] == value, f"{key}: {case['derivation']}"
    if scored["valid"]:
        assert sum(scored["deltas"]) == 0
