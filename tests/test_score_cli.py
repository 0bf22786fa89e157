"""`mjsnap score`: notation, JSON lines from --json-in (file, stdin, list, {"cases"}), photo hand-off, errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from mjsnap.cli import app
from scoring.options import option_keys
from normalize_layouts import FixedDetector

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
    assert "1 番的牌不能接炮" in result.output


@pytest.mark.parametrize(("meld", "message"), [
    ("kong_exposed:9999s", "needs the seat that discarded its 4th tile: write --meld kong_exposed:9999s@SEAT, or "
                           "kong_added:9999s"),
    ("kong_exposed:9999s@0", "(not the winner's own seat 0): write --meld kong_exposed:9999s@SEAT"),
])
def test_a_typed_exposed_kong_without_its_feeder_is_told_the_command_lines_spelling(meld, message):
    result = run("123m456m789m5s", "--rules", "shaanxi", "--win", "5s", "--meld", meld, "--winner", "0",
                 "--discarder", "1", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 1 and data["reason"] == "kong_feeder_missing" and message in data["error"]
    assert "'from'" not in data["error"]  # golden.json's field, which the command line does not have


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


@pytest.mark.parametrize("command", [["score", "123m456m789m234s5s", "--win", "5s"],
                                     ["batch", "photos", "--rules", "weinan", "--out", "results.jsonl"]])
@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("nosuchkey=1", "unknown option 'nosuchkey' (every key, its default and values: --list-options)"),
        ("shaanxi.varient=108", "unknown option 'shaanxi.varient'; did you mean shaanxi.variant, "),
        ("discard_payer=all", "unknown option 'discard_payer'; did you mean xian.discard_payer, shaanxi.discard_payer"),
        ("shaanxi.variant=100", "bad option value: shaanxi.variant: Input should be 136 or 108"),
    ],
)
def test_a_bad_rule_option_is_one_line_naming_the_key(tmp_path: Path, monkeypatch, command, pair, message):
    monkeypatch.chdir(tmp_path)  # batch stops at the option: it reads no photo and writes no file
    result = runner.invoke(app, [*command, "--option", pair])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: --option: {message}") and result.output.count("\n") == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("command", [["score"], ["batch"], ["score", "123m", "--list-options", "--rules", "nosuch"]])
def test_list_options_prints_every_key_with_its_default_and_needs_nothing_else(command):
    result = runner.invoke(app, [*command, "--list-options"] if "--list-options" not in command else command)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:4] == ["key", "default", "values", "ambiguity"]
    assert [line.split()[0] for line in lines[1:]] == option_keys()
    assert next(line for line in lines if line.startswith("xian.kong_payer ")).split()[1:4] == [
        "each_other", "each_other,", "feeder"]


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


KONG_ROWS = ["8s 8s 8s 8s | ^2p 2p 2p", "1m 2m 3m 4m 5m 6m 9p | 9p"]  # meld 0: four face-up 8s, meld 1: a pung
BACKS_ROWS = ["# # # # | ^2p 2p 2p", "1m 2m 3m 4m 5m 6m 9p | 9p"]  # meld 0: a kong shown as four backs
ROW_OF_14 = ["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 2p 3p 4p"]  # no tile set apart: the right-most one wins
ROW_OF_13 = ["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 2p 3p"]  # no winning tile at all


photo_rows: list[str] = []  # what the stand-in detector finds in the photo
detectors_made: list[tuple] = []


@pytest.fixture
def photo(tmp_path: Path, monkeypatch):
    """A photo whose tiles lie as ``photo_rows`` say (KONG_ROWS until a test says otherwise); the detector made for
    it records its arguments in ``detectors_made``."""
    import vision.detector

    path = tmp_path / "hand.png"
    Image.fromarray(np.full((800, 1000, 3), 90, np.uint8)).save(path)
    photo_rows[:] = KONG_ROWS
    detectors_made.clear()
    monkeypatch.setattr(vision.detector, "TileDetector",
                        lambda *args, **kwargs: detectors_made.append(args) or FixedDetector(photo_rows))
    return path


def score_photo_json(photo: Path, rows: list[str], *args: str):
    photo_rows[:] = rows
    result = run(str(photo), "--json", *args)
    return result, (json.loads(result.stdout) if result.stdout.strip() else None)


@pytest.mark.parametrize(
    ("args", "exit_code", "reason", "message"),
    [
        ([], 1, "kong_feeder_missing", "give --meld-from 0=SEAT, or --meld-type 0=kong_added"),
        (["--meld-from", "0=1"], 0, None, None),
        (["--meld-type", "0=kong_added"], 0, None, None),
        (["--meld-from", "0=0"], 1, "kong_feeder_missing", "(not the winner's own seat 0): give --meld-from 0=SEAT"),
        (["--meld-from", "1=3"], 1, "kong_feeder_missing", "meld 0 (kong_exposed 8888s) needs the seat"),
        (["--meld-from", "2=1"], 1, "bad_meld", "--meld-from 2=1: the photo shows melds 0-1"),
    ],
)
def test_a_photo_with_an_exposed_kong_is_scored_once_its_feeder_or_type_is_given(photo, args, exit_code, reason,
                                                                                  message):
    result, data = score_photo_json(photo, KONG_ROWS, "--rules", "shaanxi", "--discarder", "2", *args)
    assert (result.exit_code, data["valid"], data["reason"]) == (exit_code, reason is None, reason), result.output
    assert message is None or message in data["error"]


def test_a_fed_kong_in_a_photo_scores_as_the_typed_hand(photo):
    _, data = score_photo_json(photo, KONG_ROWS, "--rules", "xian", "--discarder", "2", "--meld-from", "0=1")
    typed = run("123456m9p", "--win", "9p", "--meld", "kong_exposed:8888s@1", "--meld", "pung:222p", "--rules",
                "xian", "--discarder", "2", "--json")
    assert {key: data[key] for key in ("valid", "items", "deltas", "payments")} == {
        key: json.loads(typed.stdout)[key] for key in ("valid", "items", "deltas", "payments")
    }


@pytest.mark.parametrize(
    ("rows", "args", "reason", "read_win", "message"),
    [
        (BACKS_ROWS, [], "kong_kind_unknown", "9p", "--kong-kind"),
        (BACKS_ROWS, ["--kong-kind", "8s"], None, "9p", None),
        (ROW_OF_14, [], None, "4p", None),
        (ROW_OF_14, ["--win-tile", "1p"], None, "1p", None),
        (ROW_OF_13, [], "missing_win_tile", None, "name it with --win-tile"),
        (ROW_OF_13, ["--win-tile", "last"], "wrong_tile_count", "3p", None),
        ([], [], "no_tiles", None, "no tiles were found in the photo"),
    ],
)
def test_reading_options_reach_the_reader_and_messages_name_them(photo, rows, args, reason, read_win, message):
    result, data = score_photo_json(photo, rows, "--rules", "shaanxi", "--self-draw", *args)
    assert (data["reason"], data["read"]["win_tile"]) == (reason, read_win), data
    assert message is None or message in data["error"]
    assert result.exit_code == (0 if reason is None else 1)


@pytest.mark.parametrize(
    ("args", "expected", "unexpected"),
    [
        ([], ["胡牌分数", "杠", "识别提示", "kong_type_assumed", "照片看不出"], ["{", "win score"]),
        (["--lang", "en"], ["win score", "kongs", "reading notes", "four face-up tiles"], ["{", "胡牌分数"]),
    ],
)
def test_a_photo_prints_the_breakdown_of_a_typed_hand_in_the_language_asked(photo, args, expected, unexpected):
    result = run(str(photo), "--rules", "shaanxi", "--discarder", "2", "--meld-from", "0=1", *args)
    assert result.exit_code == 0, result.output
    assert all(text in result.stdout for text in expected) and not any(text in result.stdout for text in unexpected)


# the first lines of the breakdown: the hand with its melds, then its shapes (or, for a photo whose hand as read is
# no Hand, why: the scorer's own English sentence, which names the option to give)
@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        ("zh", ["shaanxi  手牌: 123456m5z [碰 999p] [暗杠 2222s] + 5z", "牌型: 平胡  (计分牌型: 平胡)"]),
        ("en", ["shaanxi  hand: 123456m5z [pung 999p] [concealed kong 2222s] + 5z",
                "shapes: plain (4 sets + pair)  (scored as: plain (4 sets + pair))"]),
    ],
)
def test_a_typed_hand_names_its_melds_and_shapes_in_the_language_asked(lang, lines):
    result = run("123m456m5z", "--win", "5z", "--meld", "pung:999p@2", "--meld", "kong_concealed:2222s", "--rules",
                 "shaanxi", "--discarder", "2", "--lang", lang)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == lines


@pytest.mark.parametrize(
    ("rows", "args", "lang", "lines"),
    [
        (KONG_ROWS, ["--meld-from", "0=1"], "zh",
         ["shaanxi  手牌: 123456m9p [明杠 8888s] [碰 222p] + 9p", "牌型: 平胡  (计分牌型: 平胡)"]),
        (KONG_ROWS, ["--meld-from", "0=1"], "en",
         ["shaanxi  hand: 123456m9p [exposed kong 8888s] [pung 222p] + 9p",
          "shapes: plain (4 sets + pair)  (scored as: plain (4 sets + pair))"]),
        (KONG_ROWS, ["--meld-from", "2=1"], "zh",
         ["shaanxi  手牌: 123456m9p [明杠 8888s] [碰 222p] + 9p",
          "不能胡: --meld-from 2=1: the photo shows melds 0-1 (bad_meld)"]),
        (KONG_ROWS, ["--meld-from", "2=1"], "en",
         ["shaanxi  hand: 123456m9p [exposed kong 8888s] [pung 222p] + 9p",
          "no win: --meld-from 2=1: the photo shows melds 0-1 (bad_meld)"]),
        (BACKS_ROWS, [], "zh", ["shaanxi  手牌: 123456m9p [碰 222p] + 9p"]),
        (BACKS_ROWS, [], "en", ["shaanxi  hand: 123456m9p [pung 222p] + 9p"]),
    ],
)
def test_a_photo_names_its_melds_and_shapes_in_the_language_asked(photo, rows, args, lang, lines):
    photo_rows[:] = rows
    result = run(str(photo), "--rules", "shaanxi", "--discarder", "2", "--lang", lang, *args)
    assert result.stdout.splitlines()[:len(lines)] == lines, result.stdout


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_json_keeps_the_meld_and_shape_codes_in_either_language(photo, lang):
    _, data = score_photo_json(photo, KONG_ROWS, "--rules", "shaanxi", "--discarder", "2", "--meld-from", "0=1",
                               "--lang", lang)
    assert [meld["type"] for meld in data["read"]["melds"]] == ["kong_exposed", "pung"]
    typed = json.loads(run("123m456m5z", "--win", "5z", "--meld", "kong_concealed:2222s", "--meld", "pung:999p@2",
                           "--rules", "shaanxi", "--discarder", "2", "--lang", lang, "--json").stdout)
    for result in (data, typed):
        assert (result["shapes"], result["scored_shape"]) == (["plain"], "plain")


def test_a_photo_not_scored_shows_the_hand_as_read_and_why(photo):
    photo_rows[:] = ROW_OF_13
    result = run(str(photo), "--rules", "shaanxi", "--self-draw", "--lang", "en")
    assert result.exit_code == 1
    assert "123456789m1123p + ?" in result.stdout and "--win-tile" in result.stdout and "no_win_tile" in result.stdout


def test_a_photo_gets_the_note_on_unused_context_a_typed_hand_gets(photo):
    result = run(str(photo), "--rules", "shaanxi", "--discarder", "2", "--meld-from", "0=1", "--missing-suit", "m")
    assert result.exit_code == 0 and "--missing-suit (定缺) is Weinan's" in result.stderr


@pytest.mark.parametrize("as_json", [False, True])
def test_a_folder_named_like_a_photo_is_said_to_be_a_folder(tmp_path: Path, as_json):
    folder = tmp_path / "x.jpg"
    folder.mkdir()
    result = run(str(folder), *(["--json"] if as_json else []))
    assert result.exit_code == 2 and f"{folder}: is a directory, not an image" in result.stderr
    assert json.loads(result.stdout)["reason"] == "unreadable_image" if as_json else not result.stdout


@pytest.mark.parametrize(
    ("model", "hand_is_photo", "message"),
    [
        ("no-such-model", True, "no model directory"),
        ("models/current", False, "--model: for scoring a photo"),
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


def test_model_option_picks_the_model_directory(photo):
    result = run(str(photo), "--model", "my_models/club", "--discarder", "2", "--meld-from", "0=1")
    assert result.exit_code == 0, result.output
    assert detectors_made == [(Path("my_models/club"),)]


def test_a_missing_model_with_json_prints_the_error_object(tmp_path: Path):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(b"\xff\xd8")
    result = run(str(photo), "--model", str(tmp_path / "no-such-model"), "--json")
    out = json.loads(result.stdout)
    assert result.exit_code == 2 and out["reason"] == "model_not_found"
    assert out["read"] is None and out["photo"] == {"image": str(photo)}  # as models/current's lack gives it
    assert "no model directory" in result.stderr


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
        (["{photo}", "--win", "5p"], "--win: not for a photo, whose tiles, melds and winning tile are read from it"),
        (["{photo}", "--meld", "pung:111m", "--waits"], "--meld, --waits: not for a photo"),
        (["{photo}", "--meld-from", "0"], "--meld-from '0': write I=SEAT"),
        (["{photo}", "--meld-from", "0=4"], "--meld-from 0=4: the seat is 0-3"),
        (["{photo}", "--meld-type", "0=pong"], "--meld-type pong: Input should be"),
        (["{photo}", "--meld-type", "0=pung", "--meld-type", "0=chow"], "--meld-type: meld 0 is named twice"),
        (["{photo}", "--kong-kind", "9z"], "--kong-kind 9z"),
        (["123m456m789m234s5s", "--win", "5s", "--meld-from", "0=1", "--kong-kind", "C"],
         "--kong-kind, --meld-from: for scoring a photo, and the hand given is notation"),
        (["--json-in", "-", "--win-tile", "last"], "--win-tile: not used with --json-in"),
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


@pytest.mark.parametrize(
    ("args", "reason", "message"),
    [
        (["12x", "--win", "5m"], "invalid_tiles", "bad hand: unexpected character 'x'"),
        (["123m456m789m234s5s", "--win", "5s", "--rules", "mars"], "unknown_ruleset", "--rules 'mars': use one of"),
        (["123m456m789m234s5s"], "missing_win_tile", "--win is required"),
        (["123m456m789m234s5s", "--win", "5s", "--self-draw", "--discarder", "2"], "bad_context",
         "context: a self-drawn win has no discarder"),
        (["123m456m789m234s5s", "--win", "5s", "--winner", "2", "--discarder", "2"], "bad_seat",
         "context: the discarder cannot be the winner"),
        (["123m456m789m234s5s", "--win", "5s", "--bets", "1,2"], "bad_bets", "--bets '1,2': give four whole numbers"),
        (["5m", "--win", "5m", "--meld", "pung"], "bad_meld", "--meld 'pung': write TYPE:TILES"),
        (["5m", "--win", "5m", "--meld", "pung:111m@x"], "bad_seat", "the seat after @ must be 0-3"),
        (["123m456m789m23s5s", "--waits"], "wrong_tile_count", "bad hand: wrong tile count"),
    ],
)
def test_json_input_errors_print_the_documented_error_object(args, reason, message):
    result = run(*args, "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert (data["valid"], data["reason"], data["shapes"], data["deltas"]) == (False, reason, [], None)
    assert result.stderr.count("\n") == 1 and message in result.stderr


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


@pytest.mark.parametrize(
    ("args", "chinese", "english"),
    [
        (["111m555m999s22s33s", "--win", "3s", "--rules", "weinan", "--discarder", "2"], "每组都是刻子或杠",
         "every set is a pung or kong"),
        (["123m456m789m234s5s", "--win", "6s", "--rules", "weinan", "--discarder", "2"], "这些牌不成胡牌牌型",
         "the tiles do not form any win shape"),
    ],
)
def test_a_chinese_breakdown_explains_items_and_refusals_in_chinese_as_the_app_does(args, chinese, english):
    assert chinese in run(*args, "--lang", "zh").output and english not in run(*args, "--lang", "zh").output
    assert english in run(*args, "--lang", "en").output
