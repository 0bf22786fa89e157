"""Every case of ../shared/rules/golden.json, scored with the default RuleOptions (SPEC's recommended readings).

Compares what each case states: valid, deltas, shapes, reason, items ([name, value] in order), fan,
fan_if_scored, per_payer_win_base, kong_points_to_winner. Skips with a reason when ../shared is absent.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from mjsnap.paths import shared_dir
from scoring.scorer import score_case

COMPARED_NUMBERS = ("fan", "fan_if_scored", "per_payer_win_base", "kong_points_to_winner")


@cache
def load_cases(base: Path) -> dict[str, dict]:
    data = json.loads((base / "rules" / "golden.json").read_text(encoding="utf-8"))
    return {case["id"]: case for case in data["cases"]}


def case_ids() -> list[str]:
    base = shared_dir()
    if base is None or not (base / "rules" / "golden.json").exists():
        return ["golden.json-absent"]
    return list(load_cases(base))


@pytest.mark.shared
@pytest.mark.parametrize("case_id", case_ids())
def test_golden_case(shared: Path, case_id: str) -> None:
    cases = load_cases(shared)
    if case_id not in cases:
        pytest.skip("../shared/rules/golden.json is absent")
    case = cases[case_id]
    expected = case["expected"]
    result = score_case(case)
    assert result.id == case_id
    assert result.valid is expected["valid"], result.error
    assert result.deltas == expected["deltas"]
    assert result.shapes == expected["shapes"]
    if "reason" in expected:
        assert result.reason == expected["reason"]
    if "items" in expected:
        assert result.item_pairs() == expected["items"]
    for key in COMPARED_NUMBERS:
        if key in expected:
            assert getattr(result, key) == expected[key], key
    if result.valid:
        assert sum(result.deltas) == 0
    else:
        assert result.error


@pytest.mark.shared
def test_golden_file_covers_every_rule_set(shared: Path) -> None:
    rulesets = {case["ruleset"] for case in load_cases(shared).values()}
    assert rulesets == {"shaanxi", "xian", "weinan"}
