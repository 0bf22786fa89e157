"""`mjsnap score`: notation, JSON lines from --json-in (file, stdin, list, {"cases"}), photo hand-off, errors."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjsnap.cli import app

runner = CliRunner()

OWN_CASES = [
    {"id": "own-wn", "ruleset": "weinan", "hand": "111m555m999s22s33s", "melds": [], "win_tile": "3s",
     "context": {"winner": 1, "discarder": 2, "missing_suit": "p"}},
    {"id": "own-bad", "ruleset": "xian", "hand": "123z456m789p234s5z", "melds": [], "win_tile": "5z",
     "context": {"winner": 1, "discarder": 2}},
]


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["score", *args], input=stdin)


def test_notation_prints_a_breakdown():
    result = run("123m456m789p234s5z", "--rules", "shaanxi", "--win", "5z", "--winner", "1", "--discarder", "2")
    assert result.exit_code == 0, result.output
    assert "胡牌分数" in result.output and "+12" in result.output and "-6" in result.output


def test_english_breakdown_with_melds_and_flags():
    result = run("5m", "--rules", "weinan", "--win", "5m", "--meld", "pung:111m@2", "--meld", "pung:999m@3",
                 "--meld", "kong_concealed:2222s", "--meld", "pung:444s@2", "--self-draw", "--kong-replacement",
                 "--winner", "1", "--missing-suit", "p", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "single tile left" in result.output and "+18" in result.output


def test_json_output():
    result = run("123m456m789m234s5s", "--rules", "weinan", "--win", "5s", "--winner", "1", "--self-draw",
                 "--missing-suit", "p", "--json")
    data = json.loads(result.output)
    assert data["items"] == [["自摸", 1]] and data["deltas"] == [-1, 3, -1, -1] and data["fan"] == 1
    assert data["item_details"][0]["en"] == "self-draw"


def test_options_change_the_result():
    args = ["13m456p789p345s55z", "--win", "2m", "--bets", "2,2,3,4", "--discarder", "2", "--json"]
    assert json.loads(run(*args).output)["deltas"] == [63, -18, -21, -24]
    literal = run(*args, "--option", "shaanxi.discard_payer=discarder")
    assert json.loads(literal.output)["deltas"] == [51, -12, -21, -18]


def test_a_hand_that_does_not_win_exits_1_with_the_reason():
    result = run("123m456m789m234s5s", "--rules", "weinan", "--win", "5s", "--winner", "1", "--discarder", "2")
    assert result.exit_code == 1
    assert "1番不能接炮" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["12x", "--win", "5m"], "unexpected character 'x' at position 2"),
        (["123m", "--win", "5m"], "wrong tile count"),
        (["123m456m789m234s5s"], "--win is required"),
        (["123m456m789m234s5s", "--win", "5s", "--rules", "mars"], "use one of"),
        (["123m456m789m234s5s", "--win", "5s", "--option", "x.y=1"], "unknown option"),
        (["123m456m789m234s5s", "--win", "5s", "--bets", "1,2"], "four whole numbers"),
        (["5m", "--win", "5m", "--meld", "pung"], "TYPE:TILES"),
        (["5m", "--win", "5m", "--meld", "pong:111m", "--meld", "pung:999m", "--meld", "pung:222s",
          "--meld", "pung:444s"], "unknown meld type"),
        ([], "give a hand"),
        (["--json-in", "/nonexistent/cases.json"], "cannot read"),
    ],
)
def test_bad_input_exits_2_without_a_traceback(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("wrap", [lambda c: c, lambda c: {"cases": c}])
def test_json_in_file_prints_one_line_per_case(tmp_path: Path, wrap):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(wrap(OWN_CASES), ensure_ascii=False), encoding="utf-8")
    result = run("--json-in", str(path))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["id"] for line in lines] == ["own-wn", "own-bad"]
    assert lines[0]["valid"] and lines[0]["items"] == [["大对子", 2]] and lines[0]["deltas"] == [0, 2, -2, 0]
    assert not lines[1]["valid"] and lines[1]["reason"] == "not_a_winning_shape" and lines[1]["error"]
    for line in lines:
        assert {"id", "valid", "shapes", "items", "deltas", "error"} <= set(line)


def test_json_in_stdin_single_case_and_bad_json():
    result = run("--json-in", "-", stdin=json.dumps(OWN_CASES[0]))
    assert json.loads(result.output)["id"] == "own-wn"
    bad = run("--json-in", "-", stdin="{not json")
    assert bad.exit_code == 2 and "is not JSON" in bad.output


@pytest.mark.shared
def test_json_in_golden_file(shared: Path):
    golden = json.loads((shared / "rules" / "golden.json").read_text(encoding="utf-8"))
    result = run("--json-in", str(shared / "rules" / "golden.json"))
    assert result.exit_code == 0
    lines = {line["id"]: line for line in map(json.loads, result.stdout.splitlines())}
    for case in golden["cases"]:
        expected, got = case["expected"], lines[case["id"]]
        assert got["valid"] == expected["valid"]
        assert (got["deltas"], got["shapes"]) == (expected["deltas"], expected["shapes"])
        if "items" in expected:
            assert got["items"] == expected["items"]


def test_photo_path_goes_to_the_pipeline(tmp_path: Path, monkeypatch):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(b"\xff\xd8")
    calls = []

    def score_photo(path, ruleset, rule_options, context, detector=None):
        calls.append((path, ruleset, rule_options, context, detector))
        return {"image": str(path), "valid": True}

    monkeypatch.setitem(sys.modules, "mjsnap.pipeline", types.SimpleNamespace(score_photo=score_photo))
    result = run(str(photo), "--rules", "xian", "--winner", "2", "--discarder", "1")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"image": str(photo), "valid": True}
    path, ruleset, _, context, detector = calls[0]
    assert (path, ruleset, context["winner"], context["discarder"], detector) == (photo, "xian", 2, 1, None)
    monkeypatch.setitem(sys.modules, "mjsnap.pipeline", types.SimpleNamespace(
        score_photo=lambda *args, **kwargs: {"valid": False, "reason": "model_not_found"}))
    assert run(str(photo), "--rules", "xian").exit_code == 1


@pytest.mark.parametrize(
    ("model", "hand_is_photo", "message"),
    [
        ("no-such-model", True, "no model directory"),
        ("models/current", False, "--model is for scoring a photo"),
    ],
)
def test_model_option_errors(tmp_path: Path, model, hand_is_photo, message):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(b"\xff\xd8")
    hand = str(photo) if hand_is_photo else "123m456p789s1122z"
    args = [hand, *([] if hand_is_photo else ["--win", "2z"]),
            "--model", str(tmp_path / model) if model.startswith("no-") else model]
    result = run(*args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_model_option_picks_the_model_directory(tmp_path: Path, monkeypatch):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(b"\xff\xd8")
    seen = {}

    class FakeDetector:
        def __init__(self, model_dir):
            seen["model_dir"] = model_dir

    def score_photo(path, ruleset, rule_options, context, detector=None):
        seen["detector"] = detector
        return {"valid": True}

    import vision.detector

    monkeypatch.setattr(vision.detector, "TileDetector", FakeDetector)
    monkeypatch.setitem(sys.modules, "mjsnap.pipeline", types.SimpleNamespace(score_photo=score_photo))
    assert run(str(photo), "--model", "my_models/club").exit_code == 0
    assert seen["model_dir"] == Path("my_models/club") and isinstance(seen["detector"], FakeDetector)


def test_the_documented_case_scores_as_documented():
    text = (Path(__file__).resolve().parents[1] / "docs" / "score-json.md").read_text(encoding="utf-8")
    case_text, output_text = [block.split("```", 1)[0] for block in text.split("```json\n")[1:3]]
    result = run("--json-in", "-", stdin=case_text)
    assert result.exit_code == 0, result.output
    got, documented = json.loads(result.stdout), json.loads(output_text)
    assert {key: got[key] for key in documented} == documented


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["123m456m789m234s5s", "--win", ""], "--win is required"),
        (["photo.jpg", "--rules", "xian"], "photo.jpg: no such file"),
        (["photos/hand", "--win", "5p"], "no such file"),
        (["--json-in", "-", "--rules", "xian", "--winner", "2"], "--rules, --winner: not used with --json-in"),
        (["{photo}", "--win", "5p"], "--win: a photo's tiles, melds and winning tile are read from the photo"),
    ],
)
def test_more_bad_input_exits_2_with_the_reason(args, message, tmp_path: Path):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(b"\xff\xd8")
    result = run(*[arg.format(photo=photo) for arg in args], stdin="[]")
    assert (result.exit_code, "Traceback" in result.output) == (2, False)
    assert message in result.output


def test_json_in_that_is_not_utf8_is_refused(tmp_path: Path):
    path = tmp_path / "cases.json"
    path.write_bytes(b"\xff\xfe{}")
    result = run("--json-in", str(path))
    assert result.exit_code == 2 and "is not UTF-8 text" in result.output


def test_json_with_bad_notation_prints_the_input_error_object():
    result = run("12x", "--win", "5m", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["reason"] == "invalid_tiles"


WN = {"ruleset": "weinan", "hand": "111m555m999s22s33s", "win_tile": "3s"}


@pytest.mark.parametrize(
    ("case", "reason", "message"),
    [
        ({}, "bad_case", "missing 'ruleset'"),
        ({"ruleset": "xian", "hand": 123}, "invalid_tiles", "hand 123"),
        ({**WN, "win_tile": 5}, "invalid_tiles", "winning tile 5"),
        ({**WN, "context": {"winner": 1, "discarder": "2"}}, "bad_seat", "discarder seat '2'"),
        ({**WN, "context": {"winner": True, "discarder": 2}}, "bad_seat", "winner seat True"),
        ({**WN, "context": {"winner": 1, "self_draw": "no"}}, "bad_context", "self_draw is 'no'"),
        ({**WN, "context": {"winner": 1, "discarder": 2, "bets": [1, 1, 1, True]}}, "bad_bets", "seat 3 is True"),
        ({**WN, "context": {"winner": 1, "discarder": 2, "bets": "1111"}}, "bad_bets", "one whole number per seat"),
        ({**WN, "context": [1]}, "bad_context", "an object of context fields"),
        ({**WN, "hand": "111m555m22s33s", "melds": [{"tiles": "999s"}]}, "bad_meld", "needs a 'type' and 'tiles'"),
        ({**WN, "hand": "111m555m22s33s", "melds": {"type": "pung"}}, "bad_meld", "a list of meld objects"),
        ({**WN, "hand": "111m555m22s33s", "melds": [{"type": "pung", "tiles": "999s", "from": "2"}]}, "bad_seat",
         "'from' is '2'"),
    ],
)
def test_json_in_names_the_wrong_field(case, reason, message):
    result = run("--json-in", "-", stdin=json.dumps([case, {**WN, "id": "fine", "context": {"winner": 1, "discarder": 2,
                                                                                          "missing_suit": "p"}}]))
    assert result.exit_code == 0, result.output
    bad, fine = map(json.loads, result.stdout.splitlines())
    assert (bad["valid"], bad["reason"], bad["shapes"]) == (False, reason, [])
    assert message in bad["error"]
    assert fine["valid"] and fine["items"] == [["大对子", 2]]
    assert "1 of 2 cases are not valid input: #1" in result.stderr


def test_xian_breakdown_says_its_rows_are_successive_bases():
    result = run("13m77s", "--win", "2m", "--rules", "xian", "--winner", "2", "--discarder", "0", "--meld",
                 "pung:555p@1", "--meld", "chow:234s@1", "--meld", "pung:999m@3", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "closed wait" in result.output and "win base per payer" in result.output
    assert "each row" in result.output


def test_waits_of_a_13_tile_hand_with_what_each_win_scores():
    result = run("123m456m789m23s55s", "--rules", "weinan", "--waits", "--missing-suit", "p", "--self-draw",
                 "--winner", "1", "--lang", "en")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == ["1s", "4s"]
    assert all("+3" in row and "self-draw 1" in row for row in rows)
    lines = [json.loads(line) for line in run("123m456m789m23s55s", "--rules", "shaanxi", "--waits", "--winner", "1",
                                              "--discarder", "2", "--json").stdout.splitlines()]
    assert [(line["tile"], line["valid"], line["deltas"][1]) for line in lines] == [("1s", True, 12), ("4s", True, 12)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["123m456m789m258s5p", "--rules", "xian", "--waits", "--lang", "en"], "not ready"),
        (["123m456m789m23s55s", "--waits", "--win", "4s"], "leave --win out"),
        (["123m456m789m23s5s", "--waits"], "wrong tile count"),
        (["--json-in", "-", "--waits"], "--waits: not used with --json-in"),
    ],
)
def test_waits_input(args, message):
    result = run(*args, stdin="[]")
    assert message in result.output, result.output
    assert result.exit_code == (0 if message == "not ready" else 2)


@pytest.mark.parametrize(
    ("args", "note"),
    [
        (["--rules", "weinan", "--missing-suit", "p", "--self-draw", "--bets", "1,0,0,0"], "Weinan has no bets"),
        (["--rules", "shaanxi", "--discarder", "2", "--missing-suit", "m"], "--missing-suit (定缺) is Weinan's"),
        (["--rules", "shaanxi108", "--discarder", "2", "-o", "shaanxi.variant=136"], "108-tile variant whatever"),
        (["--rules", "shaanxi108", "--discarder", "2"], None),
    ],
)
def test_context_the_rule_set_has_no_use_for_gets_a_note(args, note):
    result = run("123m456m789m234s5s", "--win", "5s", "--winner", "1", "--json", *args)
    json.loads(result.stdout)  # the result itself is printed as always
    assert (note in result.stderr) if note else "note:" not in result.stderr
