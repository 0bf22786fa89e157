"""Every rule option, reason, warning code and breakdown item the app can show has a 中文 and an English text.

The codes are collected from the source (the calls that raise or record them), so a new code without a
translation fails here."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import typing
from pathlib import Path

import pytest

from mjsnap.i18n_catalogue import (
    CODES, ITEM_NOTES, OPTION_LABELS, OPTION_VALUES, WEIMAQUE_CODES, WEIMAQUE_ITEM_NOTES, decision, explain, item_note,
    option_label, option_value,
)
import scoring.rules.items as score_items
import scoring.weimaque.items as weimaque_items
from scoring.options import RuleOptions, option_keys
from scoring.rules.items.base import Item
from scoring.weimaque.items.base import Xi
from scoring.scorer import parse_hand, score

ROOT = Path(__file__).resolve().parent.parent
# Where the app's reasons and warnings come from: the scorer (not 偎麻雀, which has its own page), the photo
# reader and the photo pipeline, the label files, and the app itself (its draft of the hand, the ledger's refusals, the label page's
# table rows, the codes it names to ``explain``).
CODE_SOURCES = [
    *(p for p in (ROOT / "scoring").rglob("*.py") if "weimaque" not in p.parts),
    *(ROOT / "vision" / "normalize").glob("*.py"),
    ROOT / "mjsnap" / "pipeline.py",
    ROOT / "mjsnap" / "labels.py",
    ROOT / "mjsnap" / "dataset" / "split.py",
    *(ROOT / "mjsnap" / "app").glob("*.py"),
]
CODE_CALLS = {"NotAllowed", "HandError", "ReadWarning", "MeldReading", "warn", "LedgerError", "LabelError", "explain"}
WEIMAQUE_SOURCES = list((ROOT / "scoring" / "weimaque").rglob("*.py"))
WEIMAQUE_CALLS = {"WeimaqueInputError", "NotAWin", "warn"}
CODE = re.compile(r"[a-z]+(?:_[a-z0-9]+)+")


def emitted_codes(sources: list[Path] = CODE_SOURCES, calls: set[str] = CODE_CALLS) -> set[str]:
    """String constants passed to the calls that carry a reason or warning code (``HandError(msg, "code")``...)."""
    codes = set()
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in calls:
                args = [*node.args, *(k.value for k in node.keywords)]
                codes |= {a.value for a in args if isinstance(a, ast.Constant) and CODE.fullmatch(str(a.value))}
    return codes


def option_fields() -> list[tuple[str, object]]:
    options = RuleOptions()
    out = []
    for key in option_keys():
        section, name = key.split(".")
        out.append((key, type(getattr(options, section)).model_fields[name]))
    return out


def item_names(package, base: type) -> list[str]:
    """The ``name`` of every item class under ``base`` in ``package`` (its modules imported first)."""
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
    found, todo = [], list(base.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if "name" in vars(cls):
            found.append(cls.name)
    return found


def both(pair: tuple[str, str]) -> bool:
    zh, en = pair
    return bool(zh.strip()) and bool(en.strip()) and re.search(r"[\u4e00-\u9fff]", zh) is not None


def test_the_code_collector_finds_codes_of_every_kind():
    codes = emitted_codes()
    for code in ("not_a_winning_shape", "invalid_tiles", "chow_in_108", "kong_type_assumed", "face_down_in_hand",
                 "points_not_balanced", "multi_win_mismatch", "bad_ledger_value", "option_not_json", "csv_not_utf8",
                 "bad_label_name", "outside_dataset", "bad_label_line", "no_tile_class", "label_file_error",
                 "unreadable_image", "model_not_found", "no_tiles"):
        assert code in codes


def test_every_emitted_code_has_both_texts():
    missing = sorted(emitted_codes() - set(CODES))
    assert not missing, f"codes without a text in mjsnap/i18n_catalogue.py CODES: {missing}"
    assert all(both(CODES[c]) for c in emitted_codes())


@pytest.mark.parametrize(("key", "field"), option_fields(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_rule_option_and_choice_has_both_texts(key, field):
    assert key in OPTION_LABELS and both(OPTION_LABELS[key])
    if typing.get_origin(field.annotation) is typing.Literal:
        choices = [str(c) for c in typing.get_args(field.annotation)]
    elif field.annotation is bool:
        choices = ["true", "false"]
    else:
        choices = []
    for choice in choices:
        assert f"{key}={choice}" in OPTION_VALUES and both(OPTION_VALUES[f"{key}={choice}"])


def test_the_catalogue_names_only_options_that_exist():
    assert set(OPTION_LABELS) == set(option_keys())
    assert {k.split("=")[0] for k in OPTION_VALUES} <= set(option_keys())


@pytest.mark.parametrize("name", item_names(score_items, Item))
def test_every_breakdown_item_has_a_note_in_both_languages(name):
    assert name in ITEM_NOTES and both(ITEM_NOTES[name])


def test_every_weimaque_code_has_both_texts():
    codes = emitted_codes(WEIMAQUE_SOURCES, WEIMAQUE_CALLS)
    assert {"bad_token", "wrong_set_count", "hard_xi_below_10", "no_winning_card"} <= codes
    missing = sorted(codes - set(WEIMAQUE_CODES))
    assert not missing, f"偎麻雀 codes without a text in mjsnap/i18n_catalogue.py WEIMAQUE_CODES: {missing}"
    assert all(both(WEIMAQUE_CODES[c]) for c in codes)


@pytest.mark.parametrize("name", item_names(weimaque_items, Xi))
def test_every_weimaque_item_has_a_note_in_both_languages(name):
    assert name in WEIMAQUE_ITEM_NOTES and both(WEIMAQUE_ITEM_NOTES[name])


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("A3 shaanxi.discard_payer=all", "zh", "[A3] 放胡时谁付胡牌分: 三家都付（正式条文）"),
        ("A3 shaanxi.discard_payer=all", "en", "[A3] Who pays the win on a discard: all three (the formal text)"),
        ("A10 xian.unique_wait_required=false", "zh", "[A10] 夹张/单调只算独听: 否"),
        ("A6 shaanxi.max_bet=4", "en", "[A6] Most bets (炮子) a player may set: 4"),
        ("weinan.table_overrides[大对子+天胡]=9 (items add up to 8)", "zh", "番数表的特别值（JSON）: 9"),
        ("A2 special shapes win in the 136-tile variant, at the flat 底分", "zh",
         "A2 special shapes win in the 136-tile variant, at the flat 底分"),  # names no option: the code as written
    ],
)
def test_decisions_read_as_the_option_and_its_choice(text, lang, expected):
    assert decision(text, lang) == expected


@pytest.mark.parametrize(
    ("code", "lang", "detail", "expected"),
    [
        ("not_missing_a_suit", "zh", "all three suits", "渭南要缺一门，这手牌三门都有"),
        ("not_missing_a_suit", "en", "all three suits", "all three suits"),  # the engine's own sentence
        ("not_missing_a_suit", "en", None, "Weinan needs a missing suit; the hand holds all three"),
        (None, "zh", None, "?"),
    ],
)
def test_explain_picks_the_language(code, lang, detail, expected):
    assert explain(code, lang, detail) == expected


def test_option_values_and_item_notes():
    assert option_label("weinan.multi_win_three", "zh").startswith("[A14]")
    assert option_value("shaanxi.variant", 108, "zh").startswith("108 张")
    assert option_value("shaanxi.base_points", 3, "zh") == "3"
    assert item_note("jiazhang_or_dandiao(jiazhang)", "zh", "夹张 on 5s") == "夹张或单调：基数加 1"
    assert item_note("大对子", "en", "every set is a pung or kong") == "every set is a pung or kong"


@pytest.mark.parametrize(
    ("ruleset", "codes"),
    [("shaanxi108", ["chow_in_108"]), ("weinan", ["chow_in_weinan"]), ("xian", [])],
)
def test_score_warnings_carry_codes(ruleset, codes):
    hand = parse_hand("456m789m234s5s", "5s", melds=[{"type": "chow", "tiles": "123m"}],
                      context={"self_draw": True, "missing_suit": "p"})
    result = score(hand, ruleset)
    assert result.warning_codes == codes and len(result.warnings) == len(codes)
    assert result.to_json()["warning_codes"] == codes
