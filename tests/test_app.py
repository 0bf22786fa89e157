"""The app's flows through Streamlit's AppTest: typed hand -> score, corrections, waits, rule options, errors,
language, the dice page. Photo flows that need the shipped model are in test_app_photo.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app_texts import assert_no_english  # noqa: E402

from mjsnap.app.i18n import LANGS, STRINGS  # noqa: E402
from scoring.tiles import BACK  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")


@pytest.fixture
def app(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def type_hand(at: AppTest, tiles: str, win: str = "") -> AppTest:
    at.text_input(key="typed_tiles").set_value(tiles)
    at.text_input(key="typed_win").set_value(win)
    at.button(key="use_typed").click()
    at.run()
    assert not at.exception, at.exception
    return at


def settlement(at: AppTest) -> list[int]:
    return list(at.dataframe[1].value.iloc[:, -1])


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    at.run()
    assert not at.exception, at.exception
    return at


def test_typed_hand_is_scored_with_breakdown_and_settlement(app):
    type_hand(app, "123m456m789m234s5s", "5s")
    assert [s.value for s in app.success] == ["东 得 +18 分"]
    items = app.dataframe[0].value
    assert list(items.iloc[:, 0]) == ["胡牌分数 · win score", "下炮子 · bets (paozi)"]
    assert list(items.iloc[:, 1]) == [18, 0]
    assert settlement(app) == [18, -6, -6, -6]  # Shaanxi: all pay on a discard, the dealer-winner doubled


def test_context_changes_the_settlement(app):
    type_hand(app, "123m456m789m234s5s", "5s")
    app.selectbox(key="ctx-winner").set_value(2)
    app.toggle(key="ctx-self-draw").set_value(True)
    app.number_input(key="ctx-bet-2").set_value(2)
    app.run()
    # self-draw 2·D from each (the dealer pays double), bets (b_L + 2)·2·3 from each
    assert settlement(app) == [-12 - 12, -6 - 12, 24 + 36, -6 - 12]


def test_the_hands_context_is_kept_while_another_page_is_shown(app):
    """Streamlit drops the value of a widget a run does not show: back from the dice page the hand was Shaanxi
    again, won by seat 0 with no bets."""
    type_hand(app, "123m456m789m234s5s", "5s")
    app.selectbox(key="ctx-ruleset").set_value("xian").run()
    app.selectbox(key="ctx-winner").set_value(2)
    app.number_input(key="ctx-bet-2").set_value(2)
    app.selectbox(key="opt-xian-discard_payer").set_value("all")
    app.run()
    before = settlement(app)
    app.radio(key="page").set_value("dice").run()
    app.number_input(key="dice-first-1").set_value(5).run()
    app.radio(key="page").set_value("ledger").run()
    app.radio(key="page").set_value("score").run()
    assert not app.exception, app.exception
    assert [app.selectbox(key=k).value for k in ("ctx-ruleset", "ctx-winner", "opt-xian-discard_payer")] == [
        "xian", 2, "all"]
    assert app.number_input(key="ctx-bet-2").value == 2
    assert settlement(app) == before
    app.radio(key="page").set_value("dice").run()
    assert app.number_input(key="dice-first-1").value == 5


def test_rule_option_switch_changes_who_pays(app):
    type_hand(app, "123m456m789m234s5s", "5s")
    app.selectbox(key="opt-shaanxi-discard_payer").set_value("discarder")
    app.run()
    assert settlement(app) == [6, -6, 0, 0]
    assert any("[A3]" in c.value for c in app.caption)


def test_tapping_a_tile_and_picking_a_face_corrects_the_hand(app):
    type_hand(app, "123m456m789m234s5s", "4s")  # misread winning tile: 5s 4s is no pair
    assert app.error and "不能胡" in app.error[0].value
    click(app, "tile-13")  # the winning tile, #14
    assert any("修改第 14 张" in m.value for m in app.markdown)
    click(app, "pick-22")  # 5s
    assert not app.error
    assert settlement(app) == [18, -6, -6, -6]
    assert any("+5s" in c.value for c in app.caption)


def test_the_classifiers_next_guesses_come_first_when_correcting_a_tile(app):
    from dataclasses import replace

    type_hand(app, "123m456m789m234s5s", "4s")  # misread winning tile
    draft = app.session_state["draft"]
    tiles = list(draft.tiles)
    tiles[13] = replace(tiles[13], choices=(22, 21))  # as a photo read gives them: 5s, then 4s itself
    app.session_state["draft"] = replace(draft, tiles=tuple(tiles))
    click(app, "tile-13")
    assert any("识别器觉得也可能是" in c.value for c in app.caption)
    assert [b.key for b in app.button if b.key.startswith("likely-")] == ["likely-22"]  # not the face it shows
    click(app, "likely-22")
    assert not app.error
    assert settlement(app) == [18, -6, -6, -6]


def test_a_13_tile_hand_lists_the_waits_with_scores(app):
    type_hand(app, "123m456m789m2345s")
    assert any("听牌" in s.value for s in app.subheader)
    waits = [m.value for m in app.markdown if "得" in m.value]
    assert waits == ["东 得 +18", "东 得 +18"]  # 2s or 5s (a pair), each a plain discard win


def test_taking_the_winning_tile_away_shows_the_waits(app):
    type_hand(app, "123m456m789m234s5s", "5s")
    click(app, "clear-win")
    assert [m.value for m in app.markdown if "得" in m.value] == ["东 得 +18"] * 2  # 2345s waits on 2s or 5s
    assert any("不在手牌中的牌 (1)" in e.label for e in app.toggle)


def test_moving_tiles_into_a_meld_and_changing_its_type(app):
    type_hand(app, "123m456m789m234s5s", "5s")
    click(app, "tile-0")
    click(app, "act-new-meld")  # 1m becomes meld 1 (a pung for now)
    for tile in (1, 2):
        click(app, f"tile-{tile}")
        click(app, "act-meld-0")
    assert "不完整" in app.error[0].value or "不能胡" in app.error[0].value  # 1m2m3m is no pung
    app.selectbox(key="meld-type-0").set_value("chow")
    app.run()
    assert not app.error, [e.value for e in app.error]
    assert settlement(app) == [18, -6, -6, -6]
    assert any("[吃 1m 2m 3m]" in c.value for c in app.caption)


def make_meld(app, kind: str, size: int = 4) -> None:
    """The first ``size`` tiles of the typed hand become meld 1, of type ``kind``."""
    click(app, "tile-0")
    click(app, "act-new-meld")
    for tile in range(1, size):
        click(app, f"tile-{tile}")
        click(app, "act-meld-0")
    app.selectbox(key="meld-type-0").set_value(kind)
    app.run()


def turn_face_down(app, tiles: tuple[int, ...]) -> None:
    """Pick the back for these tiles, as a photo shows the middle two of a concealed kong face up."""
    for tile in tiles:
        click(app, f"tile-{tile}")
        click(app, f"pick-{BACK}")


# a typed hand whose first tiles make a meld of the type: (tiles, winning tile, the meld's size)
MELD_HANDS = {
    "kong_exposed": ("8888s123456789m5p", "5p", 4),
    "kong_added": ("8888s123456789m5p", "5p", 4),
    "kong_concealed": ("8888s123456789m5p", "5p", 4),
    "pung": ("111m456m789m234s5s", "5s", 3),
    "chow": ("123m456m789m234s5s", "5s", 3),
}


@pytest.mark.parametrize(
    ("lang", "kind", "face_down", "summary"),
    [
        ("zh", "kong_exposed", (), "123456789m5p [明杠 8s 8s 8s 8s] +5p"),
        ("zh", "kong_added", (), "123456789m5p [补杠 / 续杠 8s 8s 8s 8s] +5p"),
        ("zh", "kong_concealed", (), "123456789m5p [暗杠 8s 8s 8s 8s] +5p"),
        ("zh", "kong_concealed", (0, 3), "123456789m5p [暗杠 牌背 8s 8s 牌背] +5p"),  # as a photo shows it
        ("zh", "pung", (), "456789m2345s [碰 1m 1m 1m] +5s"),
        ("zh", "chow", (), "456789m2345s [吃 1m 2m 3m] +5s"),
        ("en", "kong_exposed", (), "123456789m5p [exposed kong 8s 8s 8s 8s] +5p"),
        ("en", "kong_concealed", (0, 3), "123456789m5p [concealed kong back 8s 8s back] +5p"),
        ("en", "pung", (), "456789m2345s [pung 1m 1m 1m] +5s"),
        ("en", "chow", (), "456789m2345s [chow 1m 2m 3m] +5s"),
    ],
)
def test_the_hand_summary_names_its_melds_in_the_page_language(app, lang, kind, face_down, summary):
    tiles, win, size = MELD_HANDS[kind]
    app.radio(key="lang").set_value(lang)
    type_hand(app, tiles, win)
    make_meld(app, kind, size)
    turn_face_down(app, face_down)
    if kind == "kong_exposed":
        app.selectbox(key="meld-from-0").set_value(2).run()  # name its feeder, so the page shows the score too
    assert app.success, [e.value for e in app.error]
    assert any(f"`{summary}`" in c.value for c in app.caption), [c.value for c in app.caption]
    if lang == "zh":
        assert_no_english(app)


@pytest.mark.parametrize(
    ("lang", "feeder", "settlement_or_error"),
    [
        ("zh", None, "明杠要说明是谁打出的那张牌"),
        ("zh", 2, [24, -6, -12, -6]),
        ("en", 0, "'from' is the winner's own seat 0"),
        ("en", 3, [24, -6, -6, -12]),
    ],
)
def test_an_exposed_kong_is_paid_by_the_seat_picked_beside_it(app, lang, feeder, settlement_or_error):
    app.radio(key="lang").set_value(lang)
    type_hand(app, "8888s123456789m5p", "5p")
    make_meld(app, "kong_exposed")
    picker = app.selectbox(key="meld-from-0")
    assert picker.value is None and picker.options == ["0: 东", "1: 南", "2: 西", "3: 北"]
    column = LANGS.index(lang)
    assert (picker.label, picker.placeholder) == (STRINGS["kong_fed_by"][column], STRINGS["pick_seat"][column])
    if feeder is not None:
        picker.set_value(feeder)
        app.run()
    if isinstance(settlement_or_error, str):
        assert settlement_or_error in app.error[0].value
    else:
        assert not app.error and settlement(app) == settlement_or_error


def test_the_feeder_is_asked_for_exposed_kongs_only_and_kept_through_a_type_change(app):
    type_hand(app, "8888s123456789m5p", "5p")
    make_meld(app, "kong_exposed")
    app.selectbox(key="meld-from-0").set_value(2)
    app.run()
    app.selectbox(key="meld-type-0").set_value("kong_added")
    app.run()
    assert not any(box.key == "meld-from-0" for box in app.selectbox) and not app.error
    app.selectbox(key="meld-type-0").set_value("kong_exposed")
    app.run()
    assert app.selectbox(key="meld-from-0").value == 2 and settlement(app) == [24, -6, -12, -6]


def test_add_and_delete_tiles(app):
    type_hand(app, "123m456m789m234s", "5s")  # 12 concealed + win: one short
    assert "不完整" in app.error[0].value
    click(app, "add-tile")
    click(app, "pick-22")  # 5s
    assert settlement(app) == [18, -6, -6, -6]
    click(app, "tile-13")  # the added 5s (tile 14, after the winning tile)
    click(app, "act-delete")
    assert "不完整" in app.error[0].value


def test_weinan_missing_suit_is_prefilled_from_the_tiles(app):
    type_hand(app, "123m456m789m234s5s", "5s")
    app.selectbox(key="ctx-ruleset").set_value("weinan")
    app.run()
    assert app.selectbox(key="ctx-missing").value == "p"
    # a plain 1番 hand may not win on a discard in Weinan: said clearly
    assert app.error and "不能胡" in app.error[0].value
    app.toggle(key="ctx-self-draw").set_value(True)
    app.run()
    assert settlement(app) == [3, -1, -1, -1]


@pytest.mark.parametrize(
    ("lang", "tiles", "win", "expected"),
    [
        ("zh", "123x", "", "牌写错了：第 4 个字符“x”不对"),
        ("en", "123x", "", "The tiles are not valid at character 4 “x”"),
        ("zh", "1111111111111111m", "", "牌写错了：1m 写了 16 张，一种牌只有 4 张"),  # typed as one tile too many
        ("en", "123m456m789m234s5s", "55555z", "The tiles are not valid: 5 copies of 5z, a set has only 4"),
        ("zh", "123m456m789m234s5s", "5s5s", "赢牌只写一张（如 5s），这里写了 2 张"),
        ("en", "123m456m789m234s5s", "5s6s", "The winning tile is one tile (e.g. 5s), not 2"),
    ],
)
def test_bad_typed_tiles_are_explained(app, lang, tiles, win, expected):
    app.radio(key="lang").set_value(lang)
    type_hand(app, tiles, win)
    assert app.error[0].value.startswith(expected)


def test_a_typo_in_the_typed_tiles_keeps_the_hand_being_scored(app):
    type_hand(app, "123m456m789m234s5s", "5s")
    type_hand(app, "123x", "")
    assert [e.value for e in app.error] == ["牌写错了：第 4 个字符“x”不对（写法如 123m456p789s11z）"]
    assert [s.value for s in app.success] == ["东 得 +18 分"]  # the hand before the typo, still on screen


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "这手牌还不完整：牌不对：不是麻将牌，或一种牌超过 4 张"), ("en", "5 copies of 1m")],
)
def test_five_copies_are_refused(app, lang, expected):
    app.radio(key="lang").set_value(lang)
    type_hand(app, "1111m2345678m11s", "1m")
    assert expected in app.error[0].value


HAS_CHINESE = re.compile(r"[\u4e00-\u9fff]")
OPTION_KEY = re.compile(r"\b[a-z]+\.[a-z_]+\b")  # shaanxi.discard_payer


def option_widgets(at: AppTest) -> list:
    widgets = [*at.selectbox, *at.checkbox, *at.number_input, *at.text_input]
    return [w for w in widgets if (w.key or "").startswith("opt-")]


@pytest.mark.parametrize("ruleset", ["shaanxi", "shaanxi108", "xian", "weinan"])
def test_rule_options_are_in_chinese_on_a_chinese_page(app, ruleset):
    type_hand(app, "123m456m789m234s5s", "5s")
    app.selectbox(key="ctx-ruleset").set_value(ruleset)
    app.run()
    widgets = option_widgets(app)
    assert widgets
    for widget in widgets:
        assert HAS_CHINESE.search(widget.label) and not OPTION_KEY.search(widget.label), widget.label
        for choice in getattr(widget, "options", []):
            assert not re.search(r"[A-Za-z]{3,}", choice.replace("JSON", "")), (widget.label, choice)


def test_rule_options_are_in_english_on_an_english_page(app):
    app.radio(key="lang").set_value("en")
    type_hand(app, "123m456m789m234s5s", "5s")
    labels = {w.key: w.label for w in option_widgets(app)}
    assert labels["opt-shaanxi-discard_payer"] == "[A3] Who pays the win on a discard"
    assert app.selectbox(key="opt-shaanxi-discard_payer").options == ["all three (the formal text)", "the discarder alone"]
    glosses = re.compile(r"\(.*?\)")  # English labels may gloss a term: "Kongs in a drawn hand (荒庄)"
    assert not any(HAS_CHINESE.search(glosses.sub("", label)) for label in labels.values())


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "不能胡：1 番的牌不能接炮（也不能抢杠）"), ("en", "Not a win: ")],
)
def test_not_a_win_says_why_in_the_page_language(app, lang, expected):
    app.radio(key="lang").set_value(lang)
    type_hand(app, "123m456m789m234s5s", "5s")
    app.selectbox(key="ctx-ruleset").set_value("weinan")
    app.run()
    assert app.error[0].value.startswith(expected)
    if lang == "zh":
        assert not re.search(r"[A-Za-z]{3,}", app.error[0].value)


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("zh", '{"大对子+天胡": 9', '规则选项有误：这个选项要写成 JSON，如 {"大对子+天胡": 9}'),
        ("en", '{"大对子+天胡": 9', "A rule option is not valid: not valid JSON (Expecting ',' delimiter"),
        ("zh", '{"大对子+天胡": "九"}', "规则选项有误：选项的值不对（番数表的特别值：牌型名 → 整数）"),
        ("en", '{"大对子+天胡": "九"}', "A rule option is not valid: bad option value: weinan.table_overrides"),
        ("zh", "[" * 100_000, '规则选项有误：这个选项要写成 JSON，如 {"大对子+天胡": 9}'),  # nested past Python's limit
        ("en", "[" * 100_000, "A rule option is not valid: not valid JSON (maximum recursion depth exceeded"),
    ],
)
def test_a_bad_rule_option_json_says_why_in_the_page_language(app, lang, text, expected):
    app.radio(key="lang").set_value(lang)
    type_hand(app, "111m555m999s22s33s", "3s")
    app.selectbox(key="ctx-ruleset").set_value("weinan")
    app.run()
    app.text_input(key="opt-weinan-table_overrides").set_value(text)
    app.run()
    assert not app.exception, app.exception
    assert app.error[0].value.startswith(expected)


def test_decisions_name_the_rule_option_in_chinese(app):
    type_hand(app, "123m456m789m234s5s", "5s")
    app.selectbox(key="opt-shaanxi-discard_payer").set_value("discarder")
    app.run()
    assert any("[A3] 放胡时谁付胡牌分: 点炮的一家付" in c.value for c in app.caption)


def test_english_switch(app):
    app.radio(key="lang").set_value("en")
    app.run()
    type_hand(app, "123m456m789m234s5s", "5s")
    assert [s.value for s in app.success] == ["东 gets +18 points"]
    assert "Result" in [s.value for s in app.subheader][-1]


def test_non_image_upload_is_a_clear_error(app):
    app.file_uploader(key="uploader").set_value(("notes.jpg", b"this is not a photo", "image/jpeg"))
    app.run()
    assert not app.exception
    assert "不是可读的照片" in app.error[0].value and "notes.jpg" in app.error[0].value


def test_dice_page_explains_the_start(app):
    app.radio(key="page").set_value("dice")
    app.run()
    app.selectbox(key="dice-convention").set_value("weinan")
    app.number_input(key="dice-first-1").set_value(6)
    app.number_input(key="dice-first-2").set_value(2)
    app.run()
    text = " ".join(m.value for m in app.markdown)
    assert "北（上家，左手）" in text  # 8 -> the dealer's left
    assert "第 3 墩" in text  # keep 2 (the smaller die), start at the 3rd


def test_dice_page_two_throws(app):
    app.radio(key="page").set_value("dice")
    app.run()
    app.selectbox(key="dice-convention").set_value("xian")
    app.run()
    for key, value in (("dice-first-1", 4), ("dice-first-2", 6), ("dice-second-1", 2), ("dice-second-2", 3)):
        app.number_input(key=key).set_value(value)
    app.run()
    text = " ".join(m.value for m in app.markdown)
    assert "由 南（下家，右手） 再掷一次" in text
    assert "第 16 墩" in text and "还剩 2 墩" in text


@pytest.mark.parametrize("ruleset", ["shaanxi", "xian", "weinan"])
def test_the_chinese_score_page_says_nothing_in_english(app, ruleset):
    type_hand(app, "123m456m789m234s5s", "5s")
    app.selectbox(key="ctx-ruleset").set_value(ruleset)
    app.run()
    assert app.success or app.error  # scored, or said why not (a 1番 hand on a discard in Weinan)
    assert_no_english(app)
    type_hand(app, "123m456m789m234s5", "")  # 13 tiles: the waits
    assert_no_english(app)


def test_the_chinese_dice_page_says_nothing_in_english(app):
    app.radio(key="page").set_value("dice")
    app.run()
    for convention in ("shaanxi", "weinan", "smaller_die", "guobiao"):
        app.selectbox(key="dice-convention").set_value(convention)
        app.run()
        assert_no_english(app)
